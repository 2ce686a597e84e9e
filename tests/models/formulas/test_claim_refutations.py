"""Claims about every walk, proven by refutation (issue 32): count, unique, longest.

The certificate lists walks and carries a DRUP proof that the ``walk-v1`` formula with
each listed walk blocked (``walk-blocked-v1``), or with "more than L steps"
(``walk-longer-v1``), has no model. The checker re-derives the formula from the spec and
the listed walks, so a certificate made for one spec is rejected on a nearby spec where
the claim is false, and edited numbers are rejected. The proofs are checked a second time
by dratify (and drat-trim when on PATH); brute force is the oracle on random trails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from oracles import all_walks, tiny_puzzles

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.refuted_claims import count_claim, longest_claim, only_walk_claim
from trailkit.solvers.pipeline.solving import solve

ROOT = Path(__file__).resolve().parents[3]
NIKOLAUS = ROOT / "specs" / "nikolaus.yaml"
TRAIN = ROOT / "specs" / "dominoes" / "longest-train.yaml"
dratify = pytest.importorskip("dratify", reason="dratify is in the test extra")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def nikolaus_without(edge: str) -> str:
    """Nikolaus's spec text with one edge taken out (the count changes)."""
    text = NIKOLAUS.read_text(encoding="utf-8")
    kept = [e for e in ["a b", "a c", "b c", "b d", "b e", "c d", "c e", "d e"] if e != edge]
    return text.replace("edges: [a b, a c, b c, b d, b e, c d, c e, d e]",
                        f"edges: [{', '.join(kept)}]").replace("expect:", "# expect:")


def second_opinions(certificate: Certificate) -> None:
    """The certificate's proof refutes its stored formula for dratify and drat-trim too."""
    cnf, proof = str(certificate.data["cnf"]), list(certificate.data["proof"])
    formula = dratify.parse_dimacs(cnf)
    assert dratify.check_proof(formula, "\n".join(proof) + "\n", check_rat=False,
                               engine="python").ok


def drat_trim(certificate: Certificate, tmp_path: Path) -> None:
    """drat-trim's verdict on the certificate, when it is on PATH."""
    trim = shutil.which("drat-trim")
    if trim is None:
        return
    (tmp_path / "f.cnf").write_text(str(certificate.data["cnf"]))
    (tmp_path / "p.drat").write_text("\n".join(certificate.data["proof"]) + "\n")
    done = subprocess.run([trim, str(tmp_path / "f.cnf"), str(tmp_path / "p.drat")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "s VERIFIED" in done.stdout, done.stdout


def test_nikolaus_count_is_certified_and_checked_by_two_other_checkers(
        tmp_path: Path) -> None:
    puzzle = load_spec(NIKOLAUS)
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked and claim.value == 88 and claim.certificate is not None
    assert len(claim.certificate.data["walks"]) == 88
    assert "outside the 88 listed" in claim.holds
    second_opinions(claim.certificate)
    drat_trim(claim.certificate, tmp_path)


@pytest.mark.parametrize("spec", ["specs/nikolaus-crossing.yaml", "specs/koenigsberg.yaml",
                                  "specs/dominoes/triangle.yaml"])
def test_bundled_counts_are_certified_even_where_the_solver_eliminates_variables(
        spec: str) -> None:
    """The crossing house: CaDiCaL eliminated a variable between two calls and restored
    its clauses unlogged, so its proof's deletions made a lemma fail (exit 4)."""
    path = Path(__file__).resolve().parents[3] / spec
    if not path.exists():
        pytest.skip(f"{spec} is not bundled")
    puzzle = load_spec(path)
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked, claim.why
    assert claim.value == count(puzzle, "direct", crosscheck=None).solutions
    second_opinions(claim.certificate)


@pytest.mark.parametrize("backend", backend_names())
def test_every_backends_count_of_nikolaus_is_certified(backend: str) -> None:
    result = count(load_spec(NIKOLAUS), backend, crosscheck=None)
    claim = result.claims[0]
    assert result.solutions == 88 and claim.checked and claim.value == 88
    assert f"rests on {backend}" not in claim.why


def test_prove_count_file_is_accepted_and_rejected_where_the_count_differs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "count.json"
    code, out = run(["prove", str(NIKOLAUS), "--claim", "count", "--out", str(cert)], capsys)
    assert code == 0 and out.startswith("count: 88 solutions (proven count: BEST theorem "
                                        "recomputed, best-formula certificate accepted")
    document = json.loads(cert.read_text())
    assert document["solutions"] == 88 and document["claim"] == "count"
    code, out = run(["check-certificate", str(NIKOLAUS), str(cert)], capsys)
    assert code == 0 and "give by the BEST theorem, with determinants recomputed modulo " \
        "primes, 88 walks" in out
    smaller = tmp_path / "smaller.yaml"
    smaller.write_text(nikolaus_without("c d"))
    code, out = run(["check-certificate", str(smaller), str(cert)], capsys)
    assert code == 1 and "rejected: best-formula certificate: the certificate's graph is " \
        "not the spec's" in out


@pytest.mark.parametrize(("where", "reason"), [
    ("file", "the file claims 87 solutions; this best-formula certificate proves 88 "
              "solutions"),
    ("certificate", "the certificate states 87 solutions, but the formula recomputed gives 88"),
])
def test_an_edited_count_is_rejected_naming_why(
        where: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "count.json"
    run(["prove", str(NIKOLAUS), "--claim", "count", "--out", str(cert)], capsys)
    document = json.loads(cert.read_text())
    document["solutions"] = 87  # the number the file states, and maybe the certificate's
    if where == "certificate":
        document["certificate"]["solutions"] = 87
    cert.write_text(json.dumps(document))
    code, out = run(["check-certificate", str(NIKOLAUS), str(cert)], capsys)
    assert code == 1 and reason in out, out


def test_a_listed_walk_dropped_or_doubled_is_rejected() -> None:
    puzzle = load_spec(NIKOLAUS)
    certificate = count_claim(puzzle, by_refutation=True).certificate
    assert certificate is not None
    walks = certificate.data["walks"]
    doubled = {**certificate.data, "walks": [*walks[:-1], walks[0]]}
    assert "listed walk 88 is listed twice" in verdict(
        puzzle, Certificate("drup", doubled, "")).problems[0]
    dropped = {**certificate.data, "walks": walks[:-1], "solutions": 87}
    assert "not the one this spec gives" in verdict(
        puzzle, Certificate("drup", dropped, "")).problems[0]


def test_a_trail_with_one_walk_is_proven_unique_and_a_parallel_edge_makes_two(
        capsys: pytest.CaptureFixture[str]) -> None:
    one = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\nstart: a\n")
    claim = only_walk_claim(one, solve(one).walk)
    assert claim.checked and claim.value is True and claim.certificate is not None
    assert verdict(one, claim.certificate).accepted
    two = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c, b c]\nstart: a\n")
    walk = solve(two).walk
    claim = only_walk_claim(two, walk)
    assert claim.checked and claim.value is False and claim.witness is not None
    assert claim.witness.edges != walk.edges
    # the certificate made for the first spec does not hold for the second
    first = only_walk_claim(one, solve(one).walk).certificate
    assert not verdict(two, first).accepted


def _once_only(puzzle: Puzzle) -> bool:
    return puzzle.use is not EdgeUse.ANY and not puzzle.empty_walk_nodes() and (
        puzzle.objective is Objective.ANY or puzzle.use is EdgeUse.EXACTLY_ONCE)


@costly(0.3, "each example refutes a count formula and checks the proof", deadline=None,
        suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=4).filter(_once_only))
def test_certified_counts_match_brute_force(puzzle: Puzzle) -> None:
    walks = [w for w in all_walks(puzzle, puzzle.num_edges) if len(w)]
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked and claim.value == len(walks)
    assert claim.certificate is not None
    counted = count(puzzle, crosscheck=None)  # its own claim agrees, or it would raise
    assert counted.solutions == len(walks) and counted.claims[0].checked
    if claim.certificate.data["num_clauses"] and claim.certificate.data["proof"] != ["0"]:
        second_opinions(claim.certificate)
    if walks:
        unique = only_walk_claim(puzzle, walks[0])
        assert unique.checked and unique.value is (len(walks) == 1)


def test_the_longest_train_is_proven_and_a_domino_added_makes_a_longer_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "longest.json"
    code, out = run(["prove", str(TRAIN), "--claim", "longest", "--out", str(cert)], capsys)
    assert code == 0 and out.startswith("longest: 7 steps (drup certificate accepted")
    assert "no walk of this puzzle has more than 7 steps" in out
    second_opinions(Certificate.from_json(json.loads(cert.read_text())["certificate"]))
    code, out = run(["check-certificate", str(TRAIN), str(cert)], capsys)
    assert code == 0 and "more than 7 steps" in out
    more = tmp_path / "more.yaml"
    more.write_text(TRAIN.read_text().replace('"2 7"]', '"2 7", "6 7"]')
                    .replace("expect:", "# expect:"))
    code, out = run(["check-certificate", str(more), str(cert)], capsys)
    assert code == 1 and "not the one this spec gives" in out, out
    document = json.loads(cert.read_text())
    document["length"] = document["certificate"]["length"] = 8
    cert.write_text(json.dumps(document))
    code, out = run(["check-certificate", str(TRAIN), str(cert)], capsys)
    assert code == 1 and "claims 8 steps but its walk has 7" in out, out


@costly(0.15, "each example refutes the longer-walk formula and checks the proof",
        deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=4).filter(
    lambda p: p.use is EdgeUse.AT_MOST_ONCE))
def test_certified_longest_matches_brute_force(puzzle: Puzzle) -> None:
    walks = [w for w in all_walks(puzzle, puzzle.num_edges) if len(w)]
    if not walks:
        return
    longest = max(walks, key=len)
    claim = longest_claim(puzzle, longest)
    assert claim.checked and claim.value == len(longest)


def test_proof_dir_writes_a_count_refutation_other_checkers_accept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "proof"
    code, out = run(["prove", str(NIKOLAUS), "--claim", "count", "--proof-dir", str(folder)],
                    capsys)
    assert code == 0 and "proof files written" in out
    cnf = (folder / "formula.cnf").read_text()
    assert "no walk other than the 88 that clauses 969..1056 block" in cnf
    proof = (folder / "proof.drat").read_text()
    assert dratify.check_proof(dratify.parse_dimacs(cnf), proof, check_rat=False,
                               engine="python").ok
    drat_trim(Certificate("drup", {"cnf": cnf, "proof": proof.splitlines()}, ""), tmp_path)


def test_prove_unique_on_a_trail_and_a_parallel_edge_rejects_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\nstart: a\n")
    two.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c, b c, c b]\nstart: a\n")
    cert = tmp_path / "unique.json"
    code, out = run(["prove", str(one), "--claim", "unique", "--out", str(cert)], capsys)
    assert code == 0 and out.startswith("unique: the only walk (drup certificate accepted")
    code, out = run(["check-certificate", str(two), str(cert)], capsys)
    assert code == 1 and "rejected: drup certificate:" in out
    code, out = run(["solve", str(two), "--unique"], capsys)
    assert code == 0 and "not unique: a second solution of 4 steps, verified" in out
