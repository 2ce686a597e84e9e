"""trailkit's DRUP checker and drup certificates: proofs from several solvers are
accepted, mutated or misplaced proofs are rejected with the failing line named."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.answer import Certificate, Status
from trailkit.models.certificates import check_certificate
from trailkit.models.drup import check_drup
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.solvers.sat import SatBackend

PROOF_SOLVERS = ["cadical195", "glucose4", "maplechrono"]
RGB = ColourRule.from_cycle(["red", "blue", "green"])
K4 = Puzzle.build(kind="trail", edges=[tuple(e) for e in ["ab", "ac", "ad", "bc", "bd", "cd"]])
# every degree even, but red -> blue -> green cannot close: a non-structural refutation
TRIANGLES = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
    ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]


def with_proof(cert: Certificate, proof: list[str]) -> Certificate:
    return replace(cert, data={**cert.data, "proof": proof})


# --------------------------------------------------------------- the checker
def test_checker_small_cases() -> None:
    assert check_drup(XOR2, ["2 0", "0"])[0]
    ok, message = check_drup(XOR2, ["0"])
    assert not ok and "proof line 1" in message
    ok, message = check_drup(XOR2, ["2 0"])
    assert not ok and "without deriving the empty clause" in message
    ok, message = check_drup(XOR2, ["2 0", "d 2 0", "d -1 2 0", "0"])  # unit deletion ignored
    assert ok, message
    ok, message = check_drup(XOR2, ["2 x 0"])
    assert not ok and "malformed" in message


@pytest.mark.parametrize("solver", [*PROOF_SOLVERS, "glucose3", "cadical153", "lingeling"])
def test_checker_accepts_pigeonhole_proofs(solver: str) -> None:
    cnf = PHP(5)
    with Solver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as s:
        assert s.solve() is False
        proof = s.get_proof()
    ok, message = check_drup(cnf.clauses, proof)
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
    rejected = [check_certificate(puzzle, with_proof(cert, proof[:i] + proof[i + 1:]))
                for i in lemma_lines]
    assert any(rejected)
    assert all("proof line" in p[0] or "empty clause" in p[0] for p in rejected if p)
    # a flipped literal: a flipped lemma that does not follow is named by its line
    named = []
    for i in lemma_lines[:60]:
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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(exactly_once_puzzles(), st.sampled_from(PROOF_SOLVERS))
def test_every_unsat_answer_has_an_accepted_proof(puzzle: Puzzle, solver: str) -> None:
    answer = SatBackend(solver).solve(puzzle)
    assume(answer.status is Status.UNSOLVABLE)
    assert answer.certificate is not None
    assert check_certificate(puzzle, answer.certificate) == []
