"""A spec's ``expect:`` block against what trailkit finds.

``expect: {status: solved, length: 8, solutions: 88}`` records what the author
expects; every solve and count compares. Only the keys a result covers are compared,
and an incomplete count or an unknown answer covers nothing (it proves no mismatch, and
no match either). ``lint --expect`` solves, counts and repairs to compare
(:mod:`trailkit.solvers.tools.expect_check`, above the repair layer).
"""

from __future__ import annotations

from typing import TypedDict

from trailkit.models.answer import Answer, Status
from trailkit.models.counts import CountResult
from trailkit.models.puzzle import Puzzle

__all__ = ["COUNT_KEYS", "expectation_mismatches"]

#: The ``expect:`` keys a count answers.
COUNT_KEYS = frozenset({"solutions", "failures", "early_failures"})


class _Found(TypedDict, total=False):
    """What a result says, under the names of the ``expect:`` keys it covers."""

    status: str
    length: int | None
    solutions: int
    failures: int | None
    early_failures: int | None


def expectation_mismatches(puzzle: Puzzle, *, answer: Answer | None = None,
                           count: CountResult | None = None) -> list[str]:
    """What differs from the spec's ``expect:`` block (only the keys the result covers)."""
    expect = puzzle.expect or {}
    found: _Found = {}
    if answer is not None and answer.status is not Status.UNKNOWN:
        found["status"] = answer.status.value
        if answer.status is Status.SOLVED and answer.optimal is not False:
            found["length"] = answer.length
    if count is not None and count.complete:
        found.update({"solutions": count.solutions, "failures": count.failures,
                      "early_failures": count.early_failures})
    out = []
    for key, wanted in expect.items():
        got = found.get(key)
        if got is not None and got != wanted:
            out.append(f"expected {key} {wanted}, got {got}")
    return out
