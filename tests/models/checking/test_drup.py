"""trailkit's DRUP checker and drup certificates: proofs from several solvers are
accepted, mutated or misplaced proofs are rejected with the failing line named;
backward checking (the default) and forward checking agree."""

from __future__ import annotations

from dataclasses import replace

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.answer import Certificate, Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.drup import check_drup
from trailkit.models.formulas.position_encoding import encode
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.solvers.backends.sat import SatBackend

PROOF_SOLVERS = ["cadical195", "glucose4", "maplechrono"]
RGB = ColourRule.from_cycle(["red", "blue", "green"])
K4 = Puzzle.build(kind="trail", edges=[tuple(e) for e in ["ab", "ac", "ad", "bc", "bd", "cd"]])
# every degree even, but red -> blue -> green cannot close: a non-structural refutation
TRIANGLES = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
    ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
MODES = [True, False]  # backward, forward

# Small proofs are checked interpreted (trailkit.models.checking.drup); these tests are of the
# compiled kernels, so every proof here runs compiled, as the big ones do.
pytestmark = pytest.mark.usefixtures("compiled_kernels")


def with_proof(cert: Certificate, proof: list[str]) -> Certificate:
    return replace(cert, data={**cert.data, "proof": proof})


# --------------------------------------------------------------- the checker
@pytest.mark.parametrize("backward", MODES)
def test_checker_small_cases(backward: bool) -> None:
    assert check_drup(XOR2, ["2 0", "0"], backward=backward)[0]
    ok, message = check_drup(XOR2, ["0"], backward=backward)
    assert not ok and "proof line 1" in message
    # unit propagation already refutes, but without the empty clause it is no refutation
    ok, message = check_drup(XOR2, ["2 0"], backward=backward)
    assert not ok and "without deriving the empty clause" in message
    ok, message = check_drup(XOR2, ["2 0", "d 2 0", "d -1 2 0", "0"],
                             backward=backward)  # unit and reason deletions ignored
    assert ok, message
    ok, message = check_drup(XOR2, ["2 x 0"], backward=backward)
    assert not ok and "malformed" in message
    ok, message = check_drup([[1], [-1]], ["0"], backward=backward)  # the formula refutes itself
    assert ok, message
    ok, message = check_drup(XOR2, ["2 0", "0"], backward=backward, max_lemmas=1)
    assert not ok and message.startswith("unchecked")


@pytest.mark.parametrize("backward", MODES)
def test_time_limit_reports_unchecked(backward: bool) -> None:
    cnf = PHP(5)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses, with_proof=True) as s:
        assert s.solve() is False
        proof = s.get_proof()
    ok, message = check_drup(cnf.clauses, proof, backward=backward, time_limit=0.0)
    assert not ok and message.startswith("unchecked: the time limit")


def test_wrong_lemma_outside_the_core_is_skipped_but_a_wrong_core_lemma_is_not() -> None:
    # "3 0" does not follow (variable 3 is free), but the refutation never uses it
    proof = ["3 0", "2 0", "0"]
    ok, message = check_drup(XOR2, proof)
    assert ok and "2 of 3 lemmas checked, backward" in message, message
    ok, message = check_drup(XOR2, proof, backward=False)
    assert not ok and "proof line 1 " in message
    # a wrong lemma the conflict rests on is rejected in both modes, naming its line
    satisfiable = XOR2[:3]  # 1 = 2 = true satisfies it
    for backward in MODES:
        ok, message = check_drup(satisfiable, ["-2 0", "0"], backward=backward)
        assert not ok and "proof line 1 " in message, message
    # a wrong lemma used only by a core lemma's derivation is found too
    ok, message = check_drup(satisfiable, ["-1 0", "-2 0", "0"])
    assert not ok and "proof line 1 " in message, message


def test_deleted_clauses_come_back_for_earlier_lemmas() -> None:
    # lemma 1 needs [1, 2]; it is deleted after lemma 1 and must be restored when the
    # backward pass checks lemma 1, else lemma 1 would wrongly fail
    proof = ["2 0", "d 1 2 0", "0"]
    for backward in MODES:
        ok, message = check_drup(XOR2, proof, backward=backward)
        assert ok, message
    # a deletion the proof relies on is honoured: without [-1, -2] "-1 0" does not follow
    ok, message = check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2], [3, 4]],
                             ["d -1 -2 0", "-1 0", "0"])
    assert not ok and "proof line" in message


@pytest.mark.parametrize("solver", [*PROOF_SOLVERS, "glucose3", "cadical153", "lingeling"])
def test_checker_accepts_pigeonhole_proofs(solver: str) -> None:
    cnf = PHP(5)
    with Solver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as s:
        assert s.solve() is False
        proof = s.get_proof()
    for core_first in (True, False):
        ok, message = check_drup(cnf.clauses, proof, core_first=core_first)
        assert ok, message


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
@pytest.mark.parametrize("puzzle", [K4, TRIANGLES], ids=["K4", "triangles"])
def test_certificates_from_several_solvers(solver: str, puzzle: Puzzle) -> None:
    answer = SatBackend(solver).solve(puzzle)
    assert answer.status is Status.UNSOLVABLE
    cert = SatBackend(solver).prove(puzzle)
    assert cert is not None and cert.kind == "drup"
    assert cert.data["solver"] == solver
    assert check_certificate(puzzle, cert) == []
    assert answer.certificate is not None
    assert check_certificate(puzzle, Certificate.from_json(answer.certificate.to_json())) == []


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_mutated_proofs_are_rejected(solver: str) -> None:
    puzzle = K4
    cert = SatBackend(solver).prove(puzzle)
    assert cert is not None
    proof = list(cert.data["proof"])
    # a missing final empty clause (a truncated file)
    problems = check_certificate(puzzle, with_proof(cert, proof[:-1]))
    assert problems and "without deriving the empty clause" in problems[0]
    problems = check_certificate(puzzle, with_proof(cert, proof[: len(proof) // 2]))
    assert problems
    # a dropped lemma: some lemma the rest depends on; the message names the line
    lemma_lines = [i for i, line in enumerate(proof) if not line.startswith("d") and line != "0"]
    spread = lemma_lines[:: max(1, len(lemma_lines) // 40)]
    rejected = [check_certificate(puzzle, with_proof(cert, proof[:i] + proof[i + 1:]))
                for i in spread]
    assert any(rejected)
    assert all("proof line" in p[0] or "empty clause" in p[0] for p in rejected if p)
    # a flipped literal: a flipped lemma that does not follow is named by its line
    named = []
    for i in lemma_lines[:30]:
        lits = proof[i].split()
        flipped = " ".join([str(-int(lits[0])), *lits[1:]])
        problems = check_certificate(puzzle, with_proof(cert, [*proof[:i], flipped,
                                                                *proof[i + 1:]]))
        named.append(bool(problems) and f"proof line {i + 1} " in problems[0])
    assert any(named)


def test_certificate_bound_to_its_spec_and_formula() -> None:
    cert = SatBackend("").prove(TRIANGLES)
    assert cert is not None
    other = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
        ("a", "d", "red"), ("d", "e", "blue"), ("e", "a", "blue")])
    problems = check_certificate(other, cert)
    assert problems and "not the encoding of this puzzle" in problems[0]
    assert check_certificate(K4, cert)  # another length entirely
    tampered = replace(cert, data={**cert.data, "cnf_sha256": "0" * 64})
    assert check_certificate(TRIANGLES, tampered)
    forged = replace(cert, data={**cert.data, "cnf": cert.data["cnf"] + "1 0\n"})
    assert check_certificate(TRIANGLES, forged)
    no_proof = {k: v for k, v in cert.data.items() if k != "proof"}
    assert "malformed" in check_certificate(TRIANGLES, replace(cert, data=no_proof))[0]


def test_prove_returns_none_when_solvable_or_not_exactly_once() -> None:
    nikolaus = Puzzle.build(kind="trail", edges=[tuple(e) for e in
                                                 ["ab", "ac", "bc", "bd", "be", "cd", "ce", "de"]])
    assert SatBackend("").prove(nikolaus) is None
    reusable = replace(K4, use=EdgeUse.ANY)
    assert SatBackend("").prove(reusable) is None


@st.composite
def exactly_once_puzzles(draw):
    n = draw(st.integers(2, 4))
    m = draw(st.integers(1, 6))
    names = "abcd"[:n]
    coloured = draw(st.booleans())
    edges = [(draw(st.sampled_from(names)), draw(st.sampled_from(names)),
              *([draw(st.sampled_from(RGB.names))] if coloured else []))
             for _ in range(m)]
    return Puzzle.build(kind="walk", nodes=names, edges=edges, colours=RGB if coloured else None,
                        closed=draw(st.booleans()),
                        start=draw(st.none() | st.just([names[0]])))


@costly(0.125, "each example runs a SAT solver with proof logging and checks the proof",
        suppress_health_check=[HealthCheck.filter_too_much])
@given(exactly_once_puzzles(), st.sampled_from(PROOF_SOLVERS))
def test_every_unsat_answer_has_an_accepted_proof(puzzle: Puzzle, solver: str) -> None:
    answer = SatBackend(solver).solve(puzzle)
    assume(answer.status is Status.UNSOLVABLE)
    assert answer.certificate is not None
    assert check_certificate(puzzle, answer.certificate) == []


# ------------------------------------------- backward and forward checking agree
def solver_proof(solver: str, clauses: list[list[int]]) -> list[str] | None:
    """The solver's DRUP proof, or None when the formula is satisfiable."""
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        return [line.strip() for line in s.get_proof()]


def mutations(proof: list[str], samples: int = 12) -> list[list[str]]:
    """Proofs with one lemma dropped or one literal flipped, at evenly spaced lemmas."""
    lemmas = [i for i, line in enumerate(proof) if not line.startswith("d") and line != "0"]
    picked = lemmas[:: max(1, len(lemmas) // samples)]
    out = [proof[:i] + proof[i + 1:] for i in picked]
    for i in picked:
        lits = proof[i].split()
        out.append([*proof[:i], " ".join([str(-int(lits[0])), *lits[1:]]), *proof[i + 1:]])
    return out


def assert_modes_agree(clauses: list[list[int]], proof: list[str]) -> None:
    """Both modes accept a solver's proof; on mutations forward acceptance implies
    backward acceptance (backward checks a subset of the lemmas against the same
    clause database), every rejection names a line, and truncation is rejected."""
    for backward in MODES:
        ok, message = check_drup(clauses, proof, backward=backward)
        assert ok, message
        ok, message = check_drup(clauses, proof[:-1], backward=backward)
        assert not ok and "without deriving the empty clause" in message
    rejected = 0
    for mutated in mutations(proof):
        ok_b, msg_b = check_drup(clauses, mutated)
        ok_f, msg_f = check_drup(clauses, mutated, backward=False)
        assert ok_b or not ok_f, (msg_b, msg_f)
        for ok, message in [(ok_b, msg_b), (ok_f, msg_f)]:
            assert ok or "proof line " in message or "empty clause" in message, message
        rejected += not ok_b
    assert rejected  # some of the mutated lemmas are needed


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_modes_agree_on_pigeonhole_proofs(solver: str) -> None:
    cnf = PHP(4)
    proof = solver_proof(solver, cnf.clauses)
    assert proof is not None
    assert_modes_agree(cnf.clauses, proof)


@costly(0.075, "each example runs a SAT solver with proof logging and checks the proof",
        suppress_health_check=[HealthCheck.filter_too_much])
@given(exactly_once_puzzles(), st.sampled_from(PROOF_SOLVERS))
def test_modes_agree_on_random_unsolvable_encodings(puzzle: Puzzle, solver: str) -> None:
    clauses, _ = encode(puzzle, puzzle.num_edges)
    proof = solver_proof(solver, [list(c) for c in clauses])
    assume(proof is not None and len(proof) > 3 and proof[-1] == "0")
    for backward in MODES:
        ok, message = check_drup(clauses, proof, backward=backward)
        assert ok, message
    for mutated in mutations(proof, samples=4):
        ok_b, msg_b = check_drup(clauses, mutated)
        ok_f, msg_f = check_drup(clauses, mutated, backward=False)
        assert ok_b or not ok_f, (msg_b, msg_f)


def maplesat_renamed(line: str) -> str:
    """A Maplesat proof line with every variable ``v`` renamed ``v - 1``."""
    parts = line.split()
    prefix = ["d"] if parts[0] == "d" else []
    lits = [int(x) for x in parts[len(prefix):-1]]
    return " ".join([*prefix, *(str(x - 1 if x > 0 else x + 1) for x in lits), "0"])


def test_maplesat_proofs_name_every_variable_one_too_high() -> None:
    """python-sat 1.9's Maplesat logs variable ``v`` as ``v + 1``: variable 1 never
    occurs, one past the last does. Its proofs are no DRUP proofs of the formula
    (both modes reject them); renamed back they check. The backend must not make
    certificates from them (see ``can_prove``)."""
    cnf = PHP(5)
    proof = solver_proof("maplesat", cnf.clauses)
    assert proof is not None
    used = {abs(int(x)) for line in proof for x in line.split() if x not in ("d", "0")}
    assert min(used) == 2 and max(used) == cnf.nv + 1
    for backward in MODES:
        assert not check_drup(cnf.clauses, proof, backward=backward)[0]
        ok, message = check_drup(cnf.clauses, [maplesat_renamed(x) for x in proof],
                                 backward=backward)
        assert ok, message
