"""The ``minimal-core`` claim of ``explain``, certified (issue 32).

A core is a set of edges no walk can all use when every edge may be used at most once
and the others are optional. Its claim is certified by a ``core`` certificate: the
argument that no walk uses the whole core (``odd-nodes``, ``odd-cuts``, or a DRUP
refutation of the core's own formula ``walk-core-v1``) and one verified witness walk per
member (so it is minimal; smaller cores elsewhere are not refuted). The checker
(:func:`~trailkit.models.checking.core_certificates.core_verdict`) re-derives the formula
from the spec and the certificate's own core list, so the certificate is rejected on a
nearby spec where the core can be walked, for another edge list, and when edited, each
time saying why. Brute force over every walk is the oracle on random small puzzles.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, event, given
from hypothesis import strategies as st
from oracles import walk_puzzles
from outside_tools import tool

from trailkit.models.answer import Status, Walk
from trailkit.models.checking.core_certificates import core_verdict
from trailkit.models.checking.drup import check_drup
from trailkit.models.checking.lrat import check_lrat_files, read_dimacs
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.core_proof import core_data
from trailkit.solvers.tools.repair.core_prove import prove_minimal_core
from trailkit.solvers.tools.repair.explanation import explain

ROOT = Path(__file__).resolve().parents[4]
BENCH = ROOT / "specs" / "bench"

# Red and blue planks in turn: a walk using a-b and c-d must pass b-c between them, red
# after red. Each alone is walkable, and no parity argument applies (two odd nodes, a
# and d, no more than a walk's ends): only a refutation certifies this core.
TWO_REDS = """trailkit: 1
kind: walk
use: exactly-once
colours: {transitions: {red: [blue], blue: [red]}}
edges: [a b red, b c red, c d blue]
"""
# The same with a blue loop at b: a -red-> b -blue-> b -red-> c -blue-> d walks it all.
TWO_REDS_LOOPED = TWO_REDS.replace("c d blue]", "c d blue, b b blue]")



def certificate_file(spec: Path, tmp_path: Path, *, drup: bool = False
                     ) -> tuple[Path, dict[str, Any]]:
    """The minimal-core certificate file of ``spec``, written as ``prove --out`` writes
    certificates, and its content."""
    proof = prove_minimal_core(load_spec(spec), spec_path=str(spec), drup=drup)
    assert proof.status is Status.UNSOLVABLE and proof.document is not None, proof.reason
    assert proof.claim is not None and proof.claim.checked
    path = tmp_path / "core.json"
    path.write_text(json.dumps(proof.document))
    return path, proof.document


def check(spec: Path, cert: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check-certificate", str(spec), str(cert)])
    out, err = capsys.readouterr()
    return code, out + err


def spec_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------- accepted
@pytest.mark.parametrize(("spec", "kind"), [
    (BENCH / "small-alternating-6-no.yaml", "drup"),
    (BENCH / "hard-alternating-12-no.yaml", "drup"),
    (BENCH / "small-trail-10-no.yaml", "odd-cuts"),
], ids=["small-alternating-6", "hard-alternating-12", "small-trail-10"])
def test_bundled_cores_once_resting_on_cpsat_are_certified(
        spec: Path, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = explain(load_spec(spec))
    core = found.core
    assert core is not None and core.certificate is not None
    assert core.certificate.kind == kind
    claim = core.claim()
    assert claim.checked and "accepted by the independent checker" in claim.holds
    why = found.text.split("Why: ")[1].splitlines()[0]
    assert "accepted by the independent checker" in why and "CP-SAT" not in why
    cert, _ = certificate_file(spec, tmp_path)
    code, said = check(spec, cert, capsys)
    assert code == 0, said
    assert "core certificate holds" in said and "each is needed" in said


def test_explain_json_names_the_refutation_without_its_proof(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = spec_file(tmp_path, "two-reds.yaml", TWO_REDS)
    assert main(["explain", str(spec), "--json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert found["core"]["edges"] == [0, 2]
    assert found["claims"] == [{"claim": "minimal-core", "certificate": "drup",
                                "checked": True}]
    shown = found["core"]["certificate"]
    assert shown["encoding"] == "walk-core-v1" and shown["core"] == [0, 2]
    assert "proof" not in shown and "cnf" not in shown


def test_the_core_proof_files_are_verified_outside(tmp_path: Path) -> None:
    """``formula.cnf`` says what its refutation means; the proof is checked by trailkit's
    DRUP and LRAT checkers, by dratify and by drat-trim when installed."""
    spec = spec_file(tmp_path, "two-reds.yaml", TWO_REDS)
    folder = tmp_path / "proof"
    assert main(["prove", str(spec), "--claim", "minimal-core", "--proof-dir", str(folder),
                 "--lrat"]) == 0
    cnf, drat, lrat = (folder / n for n in ("formula.cnf", "proof.drat", "proof.lrat"))
    said = [line for line in cnf.read_text().splitlines()
            if line.startswith("c its refutation means: ")]
    assert len(said) == 1 and "uses all of the core's edges 0 2" in said[0], said
    _, clauses = read_dimacs(cnf.read_text(), str(cnf))
    assert check_drup(clauses, drat.read_bytes())[0]
    assert check_lrat_files(cnf, lrat)[0]
    dratify = pytest.importorskip("dratify", reason="dratify is in the test extra")
    formula = dratify.parse_dimacs(cnf.read_text())
    assert dratify.check_proof(formula, drat.read_text(), check_rat=False,
                               engine="python").ok
    trim = tool("DRAT_TRIM", "drat-trim")
    if trim is not None:
        done = subprocess.run([trim, str(cnf), str(drat)], capture_output=True, text=True,
                              timeout=300, check=False)
        assert "s VERIFIED" in done.stdout


def test_an_odd_nodes_core_has_no_formula_to_write_unless_asked() -> None:
    puzzle = load_spec(ROOT / "specs" / "koenigsberg.yaml")
    plain = prove_minimal_core(puzzle)
    assert plain.certificate is not None
    assert plain.certificate.data["unsolvable"]["type"] == "odd-nodes"
    asked = prove_minimal_core(puzzle, drup=True)
    assert asked.certificate is not None
    assert asked.certificate.data["unsolvable"]["encoding"] == "walk-core-v1"
    refuted = prove_minimal_core(puzzle, drup=True)
    assert refuted.certificate is not None
    assert refuted.certificate.data["unsolvable"]["encoding"] == "walk-core-v1"


# ------------------------------------------------------------- rejected
@pytest.mark.parametrize("backend", backend_names())
def test_rejected_where_an_added_edge_makes_the_core_walkable(
        backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With a blue loop at b the two red planks can be walked: every backend finds the
    walk, and the certificate made without the loop is rejected, saying why."""
    spec = spec_file(tmp_path, "two-reds.yaml", TWO_REDS)
    cert, _ = certificate_file(spec, tmp_path)
    looped = spec_file(tmp_path, "looped.yaml", TWO_REDS_LOOPED)
    answer = solve(load_spec(looped), backend)
    assert answer.status is Status.SOLVED and answer.verified
    code, said = check(looped, cert, capsys)
    assert code == 1, said
    assert "core certificate" in said
    assert "the certificate's formula is not the one this spec gives" in said


def test_rejected_odd_cuts_where_an_edge_leaves_a_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = BENCH / "small-trail-10-no.yaml"
    cert, document = certificate_file(spec, tmp_path)
    sets = document["certificate"]["unsolvable"]["sets"]
    assert ["a", "b"] in sets
    text = spec.read_text(encoding="utf-8").replace('  - "i c"', '  - "i c"\n  - "a h"')
    nearby = spec_file(tmp_path, "nearby.yaml", text)
    code, said = check(nearby, cert, capsys)
    assert code == 1, said
    assert "leaves the set" in said and "is not in the core" in said


def _edited(document: dict[str, Any], edit: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    edit(changed["certificate"])
    return changed


def _other_core(body: dict[str, Any]) -> None:
    """The core list changed to edge 0 alone, its stored formula made to match (what a
    forger would do): the proof must be checked against the formula of *that* list."""
    from trailkit.models.checking.drup import cnf_sha256, cnf_text
    from trailkit.models.formulas.core_formula import core_formula

    puzzle = load_spec_text(TWO_REDS)
    formula = core_formula(puzzle, {"core": [0]})
    assert not isinstance(formula, list)
    body["core"] = [0]
    body["witnesses"] = body["witnesses"][:1]
    body["unsolvable"].update(core=[0], num_clauses=len(formula.clauses),
                              cnf=cnf_text(formula.num_vars, formula.clauses),
                              cnf_sha256=cnf_sha256(formula.num_vars, formula.clauses))


def _drop_witness_edge(body: dict[str, Any]) -> None:
    body["witnesses"][1]["edges"] = []


def _cut_proof(body: dict[str, Any]) -> None:
    body["unsolvable"]["proof"] = ["0"]


def _stolen_proof(body: dict[str, Any]) -> None:
    """The refutation of Königsberg's whole puzzle put in place of the core's."""
    from trailkit.solvers.pipeline.proving import prove

    other = prove(load_spec(ROOT / "specs" / "koenigsberg.yaml"), drup=True)
    assert other.certificate is not None
    body["unsolvable"] = other.certificate.to_json()


@pytest.mark.parametrize(("edit", "reason"), [
    (_other_core, "does not follow by reverse unit propagation"),
    (lambda b: b.update(core=[0, 1, 2]), "the certificate's formula is not the one this spec"),
    (lambda b: b.update(core=[0, 7]), "the core names edge 7, which the puzzle does not have"),
    (_drop_witness_edge, "the witness without edge 2: the walk does not use the edges [0]"),
    (lambda b: b.update(witnesses=b["witnesses"][:1]), "no witness walk shows edge 2 needed"),
    (_cut_proof, "does not follow by reverse unit propagation"),
    (_stolen_proof, "only walk-core-v1 speaks of a core"),
    (lambda b: b["unsolvable"].update(type="parity"), "not 'parity'"),
], ids=["other-core", "core-grown", "unknown-edge", "witness-edited", "witness-dropped",
        "proof-cut", "proof-of-another-formula", "kind-edited"])
def test_an_edited_certificate_is_rejected_with_its_reason(
        edit: Any, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_file(tmp_path, "two-reds.yaml", TWO_REDS)
    _, document = certificate_file(spec, tmp_path)
    body = document["certificate"]
    assert body["type"] == "core"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(_edited(document, edit)))
    code, said = check(spec, edited, capsys)
    assert code == 1, said
    assert reason in said, said


def test_the_checker_derives_the_core_puzzle_itself() -> None:
    """The core's formula comes from the spec and the certificate's core list, never from
    the refutation's own copy of the list."""
    puzzle = load_spec_text(TWO_REDS)
    proof = prove_minimal_core(puzzle)
    assert proof.certificate is not None
    data = copy.deepcopy(proof.certificate.data)
    data["unsolvable"]["core"] = [1]  # ignored: the top-level list is the core
    assert core_verdict(puzzle, data).accepted
    data["core"] = [1]
    data["witnesses"] = [{"without": 1, "start": "c", "edges": []}]
    assert not core_verdict(puzzle, data).accepted


# ------------------------------------------------------- brute force
def walks_at_most_once(puzzle: Puzzle) -> list[Walk]:
    """Every walk obeying ``puzzle``'s rules with each edge used at most once (the empty
    walk included where allowed): a depth-first search over edges, each walk judged by
    the verifier."""
    relaxed = dataclasses.replace(puzzle, use=EdgeUse.AT_MOST_ONCE)
    found: list[Walk] = []
    stack = [Walk((v,), ()) for v in range(puzzle.num_nodes)]
    while stack:
        walk = stack.pop()
        if not verify(relaxed, walk):
            found.append(walk)
        at = walk.nodes[-1]
        for e in range(puzzle.num_edges):
            if e in walk.edges:
                continue
            u, v = puzzle.tail[e], puzzle.head[e]
            if u == at:
                stack.append(Walk((*walk.nodes, v), (*walk.edges, e)))
            elif v == at and not puzzle.is_directed(e):
                stack.append(Walk((*walk.nodes, u), (*walk.edges, e)))
    return found


@costly(0.1, "each example finds a core with CP-SAT and refutes it with a SAT solver "
        "(a SAT run in a child process per refutation)",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_random_cores_are_certified_and_match_brute_force(data: st.DataObject) -> None:
    use = data.draw(st.sampled_from([EdgeUse.EXACTLY_ONCE, EdgeUse.AT_MOST_ONCE]))
    puzzle = data.draw(walk_puzzles(use, max_nodes=4, max_edges=5))
    if data.draw(st.booleans()):  # free ends: fewer puzzles with no walk at all
        puzzle = dataclasses.replace(puzzle, start=None, end=None)
    used = [frozenset(w.edges) for w in walks_at_most_once(puzzle)]
    everything = frozenset(range(puzzle.num_edges))
    solvable = everything in used if use is EdgeUse.EXACTLY_ONCE else bool(used)
    assume(not solvable)  # the claim is made for unsolvable puzzles only
    found = explain(puzzle)
    assert found.status is Status.UNSOLVABLE
    core = found.core
    assert core is not None
    assume(core.edges)  # an empty core: no walk at all, the answer's own certificate
    members = frozenset(core.edges)
    assert not any(members <= walk for walk in used)  # no walk uses the whole core
    for e in members:
        assert any(members - {e} <= walk for walk in used)  # each member needed
    claim = core.claim()
    assert claim.checked, claim.why
    assert core.certificate is not None
    event(f"core certified by {core.certificate.kind}")
    data_ = core_data(puzzle, core.edges, core.certificate, core.witnesses)
    assert core_verdict(puzzle, data_).accepted
    refuted = prove_minimal_core(puzzle, drup=True)  # the refutation applies to every core
    assert refuted.certificate is not None
    assert core_verdict(puzzle, refuted.certificate.data).accepted


def test_past_the_formula_s_size_the_claim_says_why_and_what_it_rests_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    spec = BENCH / "small-alternating-6-no.yaml"
    assert main(["explain", str(spec), "--json", "--memory-limit", "1"]) == 1
    found = json.loads(capsys.readouterr().out)
    [claim] = found["claims"]
    assert claim["claim"] == "minimal-core" and not claim["checked"]
    assert "more than the memory limit of 1 MB" in claim["why"]
    assert "rests on CP-SAT alone" in claim["why"]
    assert "not certified" in found["text"] and "rests on CP-SAT alone" in found["text"]


def test_prove_claim_minimal_core_writes_a_certificate_check_certificate_accepts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``prove --claim minimal-core --out`` (CONTRACT 1.3 §6, extended): exit 0 with the
    core's size and its certificate's check; ``check-certificate`` accepts the file."""
    spec = spec_file(tmp_path, "two-reds.yaml", TWO_REDS)
    out = tmp_path / "core.json"
    assert main(["prove", str(spec), "--claim", "minimal-core", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("minimal core: 2 edges (drup certificate accepted"), said
    assert json.loads(out.read_text())["claim"] == "minimal-core"
    assert main(["check-certificate", str(spec), str(out)]) == 0
    assert "accepted" in capsys.readouterr().out


@pytest.mark.parametrize("spec", ["specs/nikolaus.yaml", "specs/tyre-puzzle/original.yaml"])
def test_prove_claim_minimal_core_does_not_apply_without_a_core(
        spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A puzzle with a walk, or whose edges may be reused, has no core: exit 2, saying
    to which puzzles the claim applies."""
    assert main(["prove", str(ROOT / spec), "--claim", "minimal-core"]) == 2
    assert "--claim minimal-core" in capsys.readouterr().err
