"""The SAT runner: which process a job runs in (a small job is tried in this one first,
each call of a solver that cannot be interrupted kept to a conflict budget), and that a
budget or a time limit reached there is never an answer."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from pysat.examples.genhard import PHP

from trailkit.models.errors import BackendUnavailable
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.sat.runner import (
    TRIAL_CLAUSES,
    TRIAL_SIZE,
    Deadline,
    SolverTimeout,
    Verdict,
    available_solvers,
    can_budget,
    can_interrupt,
    new_solver,
    resolve_solver,
    run_guarded,
    small_puzzle,
    solve_call,
)

EASY = [[1, 2], [-1, 2], [1, -2]]  # satisfiable: 1 and 2 true
Job = Callable[[Deadline], tuple[int, Verdict]]


def _built(name: str) -> bool:
    try:
        resolve_solver(name)
    except BackendUnavailable:
        return False
    return True


UNINTERRUPTIBLE = [n for n in available_solvers() if _built(n) and not can_interrupt(n)]


def solving(clauses: list[list[int]], name: str, starts: list[int] | None = None) -> Job:
    """A job that solves ``clauses`` with ``name``: (the process it ran in, the verdict);
    each start is noted in ``starts`` (as this process sees it)."""
    def job(deadline: Deadline) -> tuple[int, Verdict]:
        if starts is not None:
            starts.append(os.getpid())
        solver = new_solver(name, clauses)
        try:
            return os.getpid(), solve_call(solver, name, (), deadline)
        finally:
            solver.delete()
    return job


def test_the_default_solver_cannot_be_interrupted_but_keeps_a_budget() -> None:
    assert can_budget("cadical195") and not can_interrupt("cadical195")


@pytest.mark.parametrize("name", UNINTERRUPTIBLE)
def test_a_small_job_runs_here_exactly_when_its_solver_keeps_a_budget(name: str) -> None:
    pid, verdict = run_guarded(solving(EASY, name), name, 60.0, small=True)
    assert verdict is Verdict.SAT
    assert (pid == os.getpid()) == can_budget(name)


def test_a_job_not_said_to_be_small_runs_in_the_child() -> None:
    pid, verdict = run_guarded(solving(EASY, "cadical195"), "cadical195", 60.0)
    assert verdict is Verdict.SAT and pid != os.getpid()


def test_a_call_over_its_budget_sends_the_whole_job_to_the_child() -> None:
    """Nine pigeons in eight holes take CaDiCaL far more conflicts than the budget: the
    job started here, and its answer came from the child, refuted in full."""
    starts: list[int] = []
    pid, verdict = run_guarded(solving(PHP(8).clauses, "cadical195", starts), "cadical195",
                               300.0, small=True)
    assert starts == [os.getpid()]
    assert verdict is Verdict.UNSAT and pid != os.getpid()


def test_a_formula_over_the_clause_limit_goes_to_the_child_unsolved() -> None:
    chain = [[-v, v + 1] for v in range(1, TRIAL_CLAUSES + 2)]
    starts: list[int] = []
    pid, verdict = run_guarded(solving(chain, "cadical195", starts), "cadical195", 300.0,
                               small=True)
    assert starts == [os.getpid()] and pid != os.getpid() and verdict is Verdict.SAT


def test_a_deadline_passed_between_the_calls_of_a_tried_job_is_a_timeout() -> None:
    """The job sees no deadline of its own (as in the child), and its next solver call
    after the limit ends it: never a verdict."""
    seen: list[float | None] = []

    def forever(deadline: Deadline) -> int:
        seen.append(deadline.remaining())
        solver = new_solver("cadical195", EASY)
        try:
            for _ in range(10**7):
                solve_call(solver, "cadical195", (), deadline)
        finally:
            solver.delete()
        return 0

    with pytest.raises(SolverTimeout):
        run_guarded(forever, "cadical195", 0.2, small=True)
    assert seen == [None]


def test_a_small_puzzle_has_at_most_the_trial_size_of_edges_and_nodes() -> None:
    def path(n: int) -> Puzzle:
        return Puzzle.build(kind="trail", edges=[(f"v{i}", f"v{i + 1}") for i in range(n)])

    assert small_puzzle(path(TRIAL_SIZE - 1))  # TRIAL_SIZE nodes
    assert not small_puzzle(path(TRIAL_SIZE))
