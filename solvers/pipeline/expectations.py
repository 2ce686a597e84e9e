"""A spec's ``expect:`` block against what trailkit finds.

``expect: {status: solved, length: 8, solutions: 88}`` records what the author
expects; every solve and count compares, and ``lint --expect`` solves and counts to
compare. ``repair: N`` is the fewest changes the spec's ``repair:`` rules need (0: the
puzzle is solvable already); ``lint --expect`` runs ``repair`` for it. Only the keys a
result covers are compared, and an incomplete count or an unknown answer covers nothing
(it proves no mismatch, and no match either).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trailkit.models.answer import Answer, Status
from trailkit.models.counting import CountResult
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec

__all__ = ["COUNT_KEYS", "expectation_mismatches", "expectation_problems"]

#: The ``expect:`` keys a count answers.
COUNT_KEYS = frozenset({"solutions", "failures", "early_failures"})


def expectation_mismatches(puzzle: Puzzle, *, answer: Answer | None = None,
                           count: CountResult | None = None) -> list[str]:
    """What differs from the spec's ``expect:`` block (only the keys the result covers)."""
    expect = puzzle.expect or {}
    found: dict[str, Any] = {}
    if answer is not None and answer.status is not Status.UNKNOWN:
        found["status"] = answer.status.value
        if answer.status is Status.SOLVED and answer.optimal is not False:
            found["length"] = answer.length
    if count is not None and count.complete:
        found.update(solutions=count.solutions, failures=count.failures,
                     early_failures=count.early_failures)
    out = []
    for key, wanted in expect.items():
        got = found.get(key)
        if got is not None and got != wanted:
            out.append(f"expected {key} {wanted}, got {got}")
    return out


def expectation_problems(path: str | Path) -> list[str]:
    """Solve (and count, if the spec expects counts) and compare with ``expect:``."""
    from trailkit.solvers.pipeline.counting import count
    from trailkit.solvers.pipeline.solving import solve

    puzzle = load_spec(path)
    if not puzzle.expect:
        return []
    problems = expectation_mismatches(puzzle, answer=solve(puzzle))
    if COUNT_KEYS & set(puzzle.expect):
        wants_failures = bool({"failures", "early_failures"} & set(puzzle.expect))
        problems += expectation_mismatches(puzzle, count=count(puzzle, failures=wants_failures))
    if "repair" in puzzle.expect:
        from trailkit.solvers.pipeline.repairing import repair, repair_mismatches

        problems += repair_mismatches(puzzle, repair(puzzle))
    return problems
