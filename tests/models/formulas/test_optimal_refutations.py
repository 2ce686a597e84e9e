"""The best once-only walk proven by refutation (issue 32): shortest, and unique under
``objective: shortest`` or ``longest``.

``layers`` certificates ignore which edges a walk has used: a once-only walk that a walk
reusing a plank would beat, or a closed walk, has none. These claims are refutations of
``walk-shorter-v1`` (no walk of at most L-1 steps), ``walk-as-short-v1`` (no other walk
of at most L steps) and ``walk-as-long-v1`` (no other walk of at least L steps), formulas
the checker re-derives from the spec, the walk and L. Each certificate is accepted on
the spec it was made for and rejected on a nearby spec where its claim is false, or
with its numbers edited; the proofs are checked again by dratify (and drat-trim when
installed); brute force is the oracle on random puzzles.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from once_only_specs import CHAIN, CLOSED, COLOURED
from oracles import all_walks, tiny_puzzles

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.optimal_refutations import (
    refuted_shortest_claim,
    refuted_unique_claim,
)
from trailkit.solvers.pipeline.solving import solve

dratify = pytest.importorskip("dratify", reason="dratify is in the test extra")

SHORTER = COLOURED.replace("V T red]", "V T red, X T blue]")  # S -red-> X -blue-> T
TWICE = COLOURED.replace("Z W blue,", "Z W blue, Z W blue,")  # a parallel plank: two walks
LONGER = CHAIN.replace("b e]", "b e, e d]")  # a b e d c: 4 steps
BRANCHED = CHAIN.replace("b e]", "b e, c f]")  # a b c f: a second longest walk


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def second_opinions(certificate: Certificate) -> None:
    """The certificate's proof refutes its stored formula for dratify and drat-trim too."""
    cnf, proof = str(certificate.data["cnf"]), list(certificate.data["proof"])
    assert dratify.check_proof(dratify.parse_dimacs(cnf), "\n".join(proof) + "\n",
                               check_rat=False, engine="python").ok
    trim = os.environ.get("DRAT_TRIM") or shutil.which("drat-trim")
    if trim is None or not Path(trim).is_file():
        return
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "f.cnf").write_text(cnf)
        (Path(folder) / "p.drat").write_text("\n".join(proof) + "\n")
        done = subprocess.run([trim, "f.cnf", "p.drat"], cwd=folder, capture_output=True,
                              text=True, timeout=60, check=False)
    assert "s VERIFIED" in done.stdout, done.stdout


def test_solve_certifies_a_once_only_shortest_walk_layers_cannot(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = write(tmp_path, "coloured.yaml", COLOURED)
    code, out = run(["solve", spec, "--unique", "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["length"] == 7
    assert answer["claims"] == [
        {"claim": "shortest", "certificate": "drup", "checked": True},
        {"claim": "unique", "certificate": "drup", "checked": True}]


def test_prove_shortest_is_accepted_and_rejected_where_a_plank_makes_a_shorter_walk(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec, cert = write(tmp_path, "coloured.yaml", COLOURED), str(tmp_path / "short.json")
    code, out = run(["prove", spec, "--claim", "shortest", "--out", cert], capsys)
    assert code == 0 and out.startswith("shortest: 7 steps (drup certificate accepted")
    assert "no walk of this puzzle has fewer than 7 steps" in out
    document = json.loads(Path(cert).read_text())
    assert document["certificate"]["encoding"] == "walk-shorter-v1"
    second_opinions(Certificate.from_json(document["certificate"]))
    code, out = run(["check-certificate", spec, cert], capsys)
    assert code == 0 and "fewer than 7 steps" in out
    code, out = run(["check-certificate", write(tmp_path, "shorter.yaml", SHORTER), cert],
                    capsys)
    assert code == 1 and "not the one this spec gives" in out, out


@pytest.mark.parametrize(("edit", "reason"), [
    ({"length": 6}, "the file claims that the shortest walk has 6 steps; this drup "
                   "walk-shorter-v1 certificate proves that the shortest walk has 7 steps"),
    ({"length": 6, "certificate.length": 6}, "the certificate claims 6 steps but its walk "
     "has 7"),
    ({"claim": "longest", "certificate.claim": "longest"},
     "a walk-shorter-v1 refutation does not prove the claim 'longest'"),
    ({"certificate.walk": {"start": "S", "edges": [0, 1, 2, 4, 5, 6]}},
     "breaks the rules"),
])
def test_an_edited_shortest_certificate_is_rejected_naming_why(
        edit: dict[str, object], reason: str, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    spec, cert = write(tmp_path, "coloured.yaml", COLOURED), tmp_path / "short.json"
    run(["prove", spec, "--claim", "shortest", "--out", str(cert)], capsys)
    document = json.loads(cert.read_text())
    for key, value in edit.items():
        where, _, field = key.rpartition(".")
        (document[where] if where else document)[field] = value
    cert.write_text(json.dumps(document))
    code, out = run(["check-certificate", spec, str(cert)], capsys)
    assert code == 1 and reason in out, out


def test_prove_unique_shortest_and_a_parallel_plank_makes_a_second_walk(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec, cert = write(tmp_path, "coloured.yaml", COLOURED), str(tmp_path / "unique.json")
    code, out = run(["prove", spec, "--claim", "unique", "--out", cert], capsys)
    assert code == 0 and out.startswith("unique: the only shortest walk (drup certificate")
    document = json.loads(Path(cert).read_text())
    assert document["certificate"]["encoding"] == "walk-as-short-v1"
    second_opinions(Certificate.from_json(document["certificate"]))
    twice = write(tmp_path, "twice.yaml", TWICE)
    code, out = run(["check-certificate", twice, cert], capsys)
    assert code == 1 and "rejected: drup certificate:" in out, out
    code, out = run(["prove", twice, "--claim", "unique"], capsys)
    assert code == 1 and "a second walk of 7 steps, verified" in out, out


def test_the_only_longest_walk_is_proven_and_rejected_where_an_edge_makes_two(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec, cert = write(tmp_path, "chain.yaml", CHAIN), str(tmp_path / "unique.json")
    code, out = run(["prove", spec, "--claim", "unique", "--out", cert], capsys)
    assert code == 0 and out.startswith("unique: the only longest walk (drup certificate"), out
    document = json.loads(Path(cert).read_text())
    assert document["certificate"]["encoding"] == "walk-as-long-v1"
    second_opinions(Certificate.from_json(document["certificate"]))
    for nearby in (LONGER, BRANCHED):
        code, out = run(["check-certificate", write(tmp_path, "near.yaml", nearby), cert],
                        capsys)
        assert code == 1 and "not the one this spec gives" in out, out
    code, out = run(["solve", write(tmp_path, "two.yaml", BRANCHED), "--unique"], capsys)
    assert code == 0 and "not unique: a second longest walk of 3 steps, verified" in out, out


def test_a_closed_once_only_walk_has_its_shortest_claim_certified() -> None:
    puzzle = load_spec_text(CLOSED)
    answer = solve(puzzle, unique=True)
    shortest, unique = answer.claims
    assert shortest.checked and shortest.value == 3 and shortest.certificate is not None
    assert shortest.certificate.data["encoding"] == "walk-shorter-v1"
    assert unique.checked and unique.value is False and unique.witness is not None
    assert not verify(puzzle, unique.witness) and len(unique.witness) == 3


def _brute(puzzle: Puzzle) -> list[Walk]:
    return [w for w in all_walks(puzzle, puzzle.num_edges) if len(w)]


@costly(0.3, "each example refutes the shorter-walk and second-walk formulas and "
        "checks the proofs", deadline=None,
        suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=5).filter(
    lambda p: p.use is not EdgeUse.EXACTLY_ONCE and not p.empty_walk_nodes()))
def test_shortest_and_its_uniqueness_match_brute_force(puzzle: Puzzle) -> None:
    """Every edge rule: at most once, and reusable edges (walks of up to 4 steps
    listed: a puzzle whose shortest walk is longer is left out)."""
    puzzle = dataclasses.replace(puzzle, objective=Objective.SHORTEST)
    bound = puzzle.num_edges if puzzle.use is not EdgeUse.ANY else 4
    walks = [w for w in all_walks(puzzle, bound) if len(w)]
    if not walks:
        return
    best = min(len(w) for w in walks)
    walk = next(w for w in walks if len(w) == best)
    claim = refuted_shortest_claim(puzzle, walk)
    assert claim.checked and claim.value == best, claim.why
    assert verdict(puzzle, claim.certificate).accepted
    unique = refuted_unique_claim(puzzle, walk)
    alike = sum(len(w) == best for w in walks)
    assert unique.checked and unique.value is (alike == 1), unique.why
    if alike > 1:
        assert unique.witness is not None and not verify(puzzle, unique.witness)
        assert len(unique.witness) == best
        assert (unique.witness.nodes[0], unique.witness.edges) != (walk.nodes[0], walk.edges)
    elif claim.certificate.data["proof"] != ["0"]:
        second_opinions(unique.certificate)


@costly(0.2, "each example refutes the longer-walk formula and checks the proof",
        deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=5).filter(lambda p: p.use is EdgeUse.AT_MOST_ONCE))
def test_the_only_longest_walk_matches_brute_force(puzzle: Puzzle) -> None:
    puzzle = dataclasses.replace(puzzle, objective=Objective.LONGEST)
    walks = _brute(puzzle)
    if not walks:
        return
    best = max(len(w) for w in walks)
    walk = next(w for w in walks if len(w) == best)
    unique = refuted_unique_claim(puzzle, walk)
    alike = sum(len(w) == best for w in walks)
    assert unique.checked and unique.value is (alike == 1), unique.why
    if alike == 1:
        assert verdict(puzzle, unique.certificate).accepted
    else:
        assert unique.witness is not None and not verify(puzzle, unique.witness)


@pytest.mark.parametrize(("edges", "ends", "unique", "other"), [
    ("[a b, b c]", "", False, 0),  # the empty walk on every node
    ("[a b, b c]", "start: a\nend: a\n", True, None),  # only at a, and no walk returns to a
    ("[a b, b c, c a]", "start: a\nend: a\n", False, 3),  # a -> b -> c -> a
])
def test_the_empty_walk_is_unique_only_on_one_node_and_with_no_other_walk(
        edges: str, ends: str, unique: bool, other: int | None,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = f"trailkit: 1\nkind: walk\nuse: at-most-once\n{ends}edges: {edges}\n"
    answer = solve(load_spec_text(text), unique=True)
    claim = answer.claims[-1]
    assert answer.length == 0 and claim.claim == "unique" and claim.checked
    assert claim.value is unique
    if unique:
        assert claim.certificate is not None
        assert claim.certificate.data["encoding"] == "walk-longer-v1"
        spec, cert = write(tmp_path, "one.yaml", text), str(tmp_path / "u.json")
        assert run(["prove", spec, "--claim", "unique", "--out", cert], capsys)[0] == 0
        both = write(tmp_path, "both.yaml", text.replace("end: a", "end: [a, b]")
                     .replace("start: a", "start: [a, b]"))
        code, out = run(["check-certificate", both, cert], capsys)
        assert code == 1 and "the puzzle allows it on one node only" in out, out
    else:
        assert claim.witness is not None and len(claim.witness) == other
