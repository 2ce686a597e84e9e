"""A spec's ``expect:`` block against what trailkit finds.

``expect: {status: solved, length: 8, solutions: 88}`` records what the author
expects; every solve and count compares, and ``lint --expect`` solves and counts to
compare. ``repair: N`` is the fewest changes the spec's ``repair:`` rules need (0: the
puzzle is solvable already); ``lint --expect`` runs ``repair`` for it. Only the keys a
result covers are compared, and an incomplete count or an unknown answer covers nothing
(it proves no mismatch, and no match either).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trailkit.models.answer import Answer, Status
from trailkit.models.counting import CountResult
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.base import Limits

__all__ = ["COUNT_KEYS", "EXPECT_TIME_S", "ExpectCheck", "expectation_mismatches",
           "expectation_problems"]

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


#: Seconds ``lint --expect`` gives each solve by default.
EXPECT_TIME_S = 60.0
#: The backends asked in turn when the default one cannot decide within the limit.
FALLBACK_BACKENDS = ("cpsat", "sat")


@dataclass(frozen=True)
class ExpectCheck:
    """What checking a spec's ``expect:`` block found: ``mismatches`` (the author and
    trailkit disagree) and ``undecided`` (what no backend could settle in time)."""

    mismatches: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)


def expectation_problems(path: str | Path, limits: Limits | None = None) -> ExpectCheck:
    """Solve (and count, and repair, as far as the spec expects) and compare with
    ``expect:``. Each solve gets ``limits`` (default :data:`EXPECT_TIME_S` seconds); when
    the default backend cannot decide in time, the others are asked in turn."""
    from trailkit.solvers.pipeline.counting import count
    from trailkit.solvers.pipeline.solving import solve

    limits = limits or Limits(time_limit=EXPECT_TIME_S)
    puzzle = load_spec(path)
    found = ExpectCheck()
    if not puzzle.expect:
        return found
    answer = solve(puzzle, limits=limits)
    for backend in FALLBACK_BACKENDS:
        if answer.status is not Status.UNKNOWN:
            break
        answer = solve(puzzle, backend, limits)
    if answer.status is Status.UNKNOWN and {"status", "length"} & set(puzzle.expect):
        found.undecided.append(f"status: {answer.reason}")
    found.mismatches.extend(expectation_mismatches(puzzle, answer=answer))
    if COUNT_KEYS & set(puzzle.expect):
        wants_failures = bool({"failures", "early_failures"} & set(puzzle.expect))
        counted = count(puzzle, failures=wants_failures, limits=limits)
        if not counted.complete:
            found.undecided.append(f"count: {counted.reason}")
        found.mismatches.extend(expectation_mismatches(puzzle, count=counted))
    if "repair" in puzzle.expect:
        from trailkit.solvers.pipeline.repairing import repair, repair_mismatches

        found.mismatches.extend(repair_mismatches(puzzle, repair(puzzle, limits=limits)))
    return found
