"""What a count of solutions says: totals, failures, early failures, per-start rows.

Definitions (from the Nikolaus seed; see docs/counting.md): a *solution* is a walk (a
step sequence; parallel edges are distinct) obeying every rule; a *failure* is a
walk that cannot take another step while the puzzle is not yet solved; an *early
failure* is a walk whose last step was the mistake (without it the walk could
still be completed, with it it cannot). In a puzzle that has a solution, starting at
a node from which no solution starts counts as an early failure of the empty walk; a
puzzle without one has no early failures (no walk could be completed before its last
step, not even the empty one), and its failures are all its walks that get stuck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trailkit.models.answer import Claim

__all__ = ["CountResult", "StartCounts"]


@dataclass(frozen=True, slots=True)
class StartCounts:
    """Counts for the walks that start at one node."""

    solutions: int
    failures: int | None = None
    early_failures: int | None = None


@dataclass(frozen=True)
class CountResult:
    """A count from one backend.

    ``complete`` is false when a limit stopped the count: the numbers are then lower
    bounds ("at least N") and the status is unknown, never a wrong total.
    ``method`` says how the number was obtained (``enumeration``, ``best-theorem``, ...);
    ``by_formula`` is true when it was computed by a formula rather than enumerated
    (``method`` then names the formula). ``claims`` holds the ``count`` claim with its
    certificate when one was made (the walks listed, the rest refuted).
    """

    backend: str
    solutions: int
    failures: int | None = None
    early_failures: int | None = None
    complete: bool = True
    method: str = "enumeration"
    per_start: Mapping[str, StartCounts] | None = None
    reason: str = ""
    stats: Mapping[str, Any] = field(default_factory=dict)
    by_formula: bool = False
    claims: tuple[Claim, ...] = ()
    tours: int | None = None
    """For closed walks through every node (``visit: every-once``): the distinct edge sets
    of the counted walks, each cycle once whatever its start and direction (CONTRACT §7);
    ``None`` where not counted."""

    @classmethod
    def interrupted(cls, backend: str, solutions: int, *, method: str = "enumeration",
                    **stats: Any) -> CountResult:
        """A count the user stopped (Ctrl-C) after ``solutions`` walks, a lower bound;
        ``stats["interrupted"]`` says so (the command line's exit code 130).

        >>> CountResult.interrupted("sat", 12).reason
        'interrupted (Ctrl-C); the number is a lower bound (at least)'
        """
        return cls(backend, solutions, complete=False, method=method,
                   reason="interrupted (Ctrl-C); the number is a lower bound (at least)",
                   stats={**stats, "interrupted": True})
