"""What ``lint --expect`` runs: solve, count and repair a spec as far as its ``expect:``
block asks, and compare (:mod:`trailkit.solvers.pipeline.expectations` compares one
result; this module sits above the repair layer because ``expect: {repair: N}`` runs a
repair).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from trailkit.models.answer import Status
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.expectations import COUNT_KEYS, expectation_mismatches
from trailkit.solvers.pipeline.policy import time_left
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.fewest_changes import repair, repair_mismatches

__all__ = ["EXPECT_TIME_S", "ExpectCheck", "expectation_problems"]

#: Seconds ``lint --expect`` gives each spec by default (its solve, count and repair).
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
    ``expect:``, all within ``limits`` (default :data:`EXPECT_TIME_S` seconds for the
    spec: each step gets what the steps before it left); when the default backend cannot
    decide in time, the others are asked in turn, and what no time is left for is
    undecided."""
    limits = limits or Limits(time_limit=EXPECT_TIME_S)
    started = time.perf_counter()
    puzzle = load_spec(path)
    found = ExpectCheck()
    if not puzzle.expect:
        return found

    def left() -> Limits:
        return replace(limits, time_limit=time_left(limits, started))

    answer = solve(puzzle, limits=left())
    for backend in FALLBACK_BACKENDS:
        if answer.status is not Status.UNKNOWN or left().time_limit == 0:
            break
        answer = solve(puzzle, backend, left())
    if answer.status is Status.UNKNOWN and {"status", "length"} & set(puzzle.expect):
        found.undecided.append(f"status: {_reason(answer.reason, left(), limits)}")
    found.mismatches.extend(expectation_mismatches(puzzle, answer=answer))
    if COUNT_KEYS & set(puzzle.expect):
        if left().time_limit == 0:
            found.undecided.append(f"count: {_reason('', left(), limits)}")
        else:
            wants_failures = bool({"failures", "early_failures"} & set(puzzle.expect))
            counted = count(puzzle, failures=wants_failures, limits=left())
            if not counted.complete:
                found.undecided.append(f"count: {_reason(counted.reason, left(), limits)}")
            found.mismatches.extend(expectation_mismatches(puzzle, count=counted))
    if "repair" in puzzle.expect:
        if left().time_limit == 0:
            found.undecided.append(f"repair: {_reason('', left(), limits)}")
        else:
            found.mismatches.extend(repair_mismatches(puzzle, repair(  # no claim compared
                puzzle, limits=left(), certify=False)))
    return found


def _reason(reason: str, left: Limits, limits: Limits) -> str:
    """Why a step is undecided: its own reason, or, once the spec's time is spent, the
    time limit as the user gave it (the step saw only what was left of it)."""
    if left.time_limit == 0 or not reason:
        return f"the time limit of {limits.time_limit:g} s for this spec was reached"
    return reason
