"""What ``lint --expect`` runs: solve, count and repair a spec as far as its ``expect:``
block asks, and compare (:mod:`trailkit.solvers.pipeline.expectations` compares one
result; this module sits above the repair layer because ``expect: {repair: N}`` runs a
repair).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from trailkit.models.answer import Status
from trailkit.models.spec import load_spec
from trailkit.solvers.base import Limits
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.expectations import COUNT_KEYS, expectation_mismatches
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.repair.fewest_changes import repair, repair_mismatches

__all__ = ["EXPECT_TIME_S", "ExpectCheck", "expectation_problems"]

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
        found.mismatches.extend(repair_mismatches(puzzle, repair(puzzle, limits=limits)))
    return found
