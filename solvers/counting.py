"""Counting solutions with a backend, cross-checked by a second one when asked.

``count(puzzle, "direct", failures=True)`` enumerates with the direct backend;
``exact=True`` uses a closed formula for Euler circuits (BEST theorem, sums over
Eulerian orientations) where it applies. A second backend's count that differs is a
loud failure (exit code 4); a count stopped by a limit is a lower bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from trailkit.models.counting import CountResult
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.base import Limits
from trailkit.solvers.registry import get_backend

__all__ = ["count"]


def count(puzzle: Puzzle, backend: str = "direct", limits: Limits = Limits(), *,
          failures: bool = False, exact: bool = False, crosscheck: str | None = None,
          progress: Callable[[int], None] | None = None) -> CountResult:
    """Count ``puzzle``'s solutions (and failures); see the module docstring."""
    started = time.perf_counter()
    if exact:
        from trailkit.solvers.direct.exact_count import exact_count

        result = exact_count(puzzle)
        if result is None:
            raise UnsupportedPuzzle("an exact formula exists only for Euler circuits and "
                                    "trails (every edge exactly once, no colour rule); "
                                    "count without --exact to enumerate")
    else:
        result = get_backend(backend).count(puzzle, limits, failures=failures,
                                            progress=progress)
    stats = {**result.stats, "time_s": time.perf_counter() - started}
    if crosscheck:
        other = get_backend(crosscheck).count(puzzle, limits, failures=False)
        agrees = other.complete and result.complete and other.solutions == result.solutions
        if other.complete and result.complete and not agrees:
            raise VerificationFailure(
                f"backends disagree on the number of solutions: {result.backend} counts "
                f"{result.solutions}, {other.backend} counts {other.solutions}")
        stats["crosscheck"] = {"backend": other.backend, "solutions": other.solutions,
                               "complete": other.complete, "agrees": agrees}
    return CountResult(result.backend, result.solutions, result.failures,
                       result.early_failures, result.complete, result.method,
                       result.per_start, result.reason, stats)
