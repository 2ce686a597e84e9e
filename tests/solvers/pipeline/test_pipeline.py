"""The pipeline never lets a wrong answer out: test doubles play broken backends."""

from __future__ import annotations

import pytest

from trailkit.models.answer import Answer, Certificate, Status, Walk
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.pipeline import solve

TRIANGLE = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")])
# No structural argument applies to at-most-once puzzles, so the scripted backend is asked.
APART = Puzzle.build(kind="walk", edges=[("a", "b"), ("c", "d")], start=["a"], end=["d"],
                     use=EdgeUse.AT_MOST_ONCE)


class Scripted(Backend):
    """A backend that returns a fixed answer, whatever the puzzle."""

    name = "scripted"

    def __init__(self, answer: Answer) -> None:
        self.answer = answer

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        return self.answer


def test_a_walk_breaking_the_rules_is_a_loud_failure() -> None:
    bad = Answer.solved("scripted", Walk((0, 1, 2), (0, 1)))  # misses edge 2
    with pytest.raises(VerificationFailure, match="used 0 times"):
        solve(TRIANGLE, Scripted(bad), crosscheck=None)


def test_a_walk_along_a_missing_edge_is_caught() -> None:
    bad = Answer.solved("scripted", Walk((0, 2, 1, 0), (0, 1, 2)))
    with pytest.raises(VerificationFailure, match="does not lead"):
        solve(TRIANGLE, Scripted(bad), crosscheck=None)


def test_a_valid_walk_is_verified() -> None:
    good = Answer.solved("scripted", Walk((0, 1, 2, 0), (0, 1, 2)))
    answer = solve(TRIANGLE, Scripted(good), crosscheck=None)
    assert answer.status is Status.SOLVED and answer.verified


def test_a_false_certificate_is_rejected() -> None:
    lie = Answer.unsolvable("scripted", Certificate("parity", {"nodes": ["a", "b", "c"]}, "lie"))
    with pytest.raises(VerificationFailure, match="rejects"):
        solve(TRIANGLE, Scripted(lie), crosscheck=None)


def test_unsolvable_without_certificate_needs_a_second_opinion() -> None:
    """A bare 'no walk' that the direct backend refutes is a disagreement, never an answer."""
    claim = Answer.unsolvable("scripted", reason="trust me")
    with pytest.raises(VerificationFailure, match="disagree"):
        solve(TRIANGLE, Scripted(claim), crosscheck="direct")


def test_unsolvable_confirmed_by_a_second_backend() -> None:
    claim = Answer.unsolvable("scripted", reason="search found nothing")
    answer = solve(APART, Scripted(claim), crosscheck="direct")
    assert answer.status is Status.UNSOLVABLE
    assert answer.crosscheck is not None and answer.crosscheck.agrees
    assert "confirmed" in answer.reason


def test_unknown_is_never_turned_into_a_verdict() -> None:
    answer = solve(TRIANGLE, Scripted(Answer.unknown("scripted", "time limit")),
                   crosscheck="direct")
    assert answer.status is Status.UNKNOWN
    assert answer.crosscheck is not None and answer.crosscheck.agrees is None  # undecided


def test_an_unaccepted_drup_proof_needs_a_second_opinion() -> None:
    """A solver's proof the checker rejects is dropped, not trusted and not fatal."""
    bogus = Certificate("drup", {"cnf": "p cnf 1 1\n1 0\n", "proof": ["0"]}, "proof")
    claim = Answer.unsolvable("scripted", bogus, reason="solver says UNSAT")
    answer = solve(APART, Scripted(claim), crosscheck="direct")
    assert answer.status is Status.UNSOLVABLE
    assert "not accepted" in answer.reason and "confirmed" in answer.reason
    assert answer.certificate is not None and answer.certificate.kind == "closed-set"
