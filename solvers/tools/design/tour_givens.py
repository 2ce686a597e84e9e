"""The givens of a tour puzzle (``design tour``): taken away one by one while the path
stays the only one.

Every cell starts given (its position on the path): the puzzle then has one solution,
the path. With uniqueness asked, the given tried next is the one whose removal leaves
the narrowest gap of positions between the givens around it (ties in a random order,
the seed's; the path's two ends last, as puzzle books give them: while they are given
the search has one start and one end, and each test is far quicker): the givens are
thinned evenly, so each test stays easy for the search (measured on 9 x 9 Hidatos: a
third of the work of a random order, as many puzzles reaching 24 givens). Each is
taken away only when the puzzle without it still has one solution, asked of the
direct backend (:func:`~trailkit.solvers.backends.direct.hamilton.tour_walks`: its tour
search goes on past the first path until a second is found or every start is
exhausted). A second path is checked by the independent verifier before it counts; a
limit reached keeps the given (never a guess). By induction every puzzle kept has the
one solution the first had: the path. Cells in ``keep`` (a Signpost's first and last,
numbered as Tatham's are) are never taken away.

Without uniqueness asked for (``unique=False``) givens are taken away in the random order
without the test.
With ``--symmetric`` a given is taken away with its image under the half turn of the
board (as puzzle books like them), both in one test.
"""

from __future__ import annotations

import bisect
import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.hamilton import tour_walks

__all__ = ["TEST_MOVES", "Givens", "Only", "only_path", "remove_givens"]

TEST_MOVES = 200_000
"""The most moves one test of uniqueness may make (the tour search's work unit): a
limit in moves, not seconds, so that a seed gives the same puzzle on any machine."""


class Only(StrEnum):
    """What the direct backend's search said of a puzzle and its path."""

    UNIQUE = "unique"
    SECOND = "second"
    UNKNOWN = "unknown"


def only_path(puzzle: Puzzle, path: Sequence[int], seconds: float, moves: int = TEST_MOVES
              ) -> tuple[Only, Walk | None]:
    """Whether ``path`` (cell indices) is ``puzzle``'s only solution: ``UNIQUE`` when
    the search exhausted every start and found it alone, ``SECOND`` with a second path
    (verified), ``UNKNOWN`` when a limit (``seconds``, ``moves``) came first. A search
    that misses ``path`` itself is a bug, raised as :class:`VerificationFailure`."""
    limits = Limits(time_limit=max(seconds, 0.001), work_limit=moves)
    walks, stopped = tour_walks(puzzle, limits, most=2, dive=False)
    own = tuple(path)
    for walk in walks:
        if tuple(int(v) for v in walk.nodes) != own:
            problems = verify(puzzle, walk)
            if problems:
                raise VerificationFailure(f"the tour search's second path breaks the "
                                          f"rules: {problems[0]}")
            return Only.SECOND, walk
    if stopped:
        return Only.UNKNOWN, None
    if not walks:
        raise VerificationFailure("the tour search found no path where the design has one")
    return Only.UNIQUE, None


@dataclass(frozen=True, slots=True)
class Givens:
    """The givens kept (cell index -> position), how many removals were tried, how many
    givens a limit kept (their test unfinished), and whether the pass finished (the
    target reached or every given tried) before the deadline."""

    at: dict[int, int]
    tried: int
    kept_by_limit: int
    finished: bool


def _units(path: Sequence[int], rng: random.Random, mirror: Sequence[int] | None
           ) -> list[tuple[int, ...]]:
    """The givens in the order they are taken away: one at a time, or with ``mirror``
    (each cell's image under the half turn of the board) a cell with its image; those
    holding an end of the path last."""
    units = [(c,) if mirror is None else tuple(sorted({c, mirror[c]})) for c in path]
    units = list(dict.fromkeys(units))
    rng.shuffle(units)
    ends = {path[0], path[-1]}
    return [u for u in units if not ends & set(u)] + [u for u in units if ends & set(u)]


def remove_givens(base: Puzzle, path: Sequence[int], rng: random.Random, *, target: int,
                  unique: bool, deadline: float, mirror: Sequence[int] | None = None,
                  keep: frozenset[int] = frozenset()) -> Givens:
    """Take givens of ``path`` away until at most ``target`` are left (see the module
    docstring), or every given was tried, or the deadline passes. ``base`` is the
    puzzle without givens; with ``mirror`` (each cell's image under the half turn of
    the board) a given goes with its image, so the givens stay symmetric; the cells in
    ``keep`` (a Signpost's first and last) stay given."""
    at = {cell: i + 1 for i, cell in enumerate(path)}
    pending = [u for u in _units(path, rng, mirror) if not keep & set(u)]
    tried = kept = 0
    while pending and len(at) > target:
        if time.monotonic() >= deadline:
            return Givens(at, tried, kept, False)
        unit = pending.pop(_narrowest(pending, at, path) if unique else 0)
        fewer = {c: q for c, q in at.items() if c not in unit}
        tried += 1
        if not unique:
            at = fewer
            continue
        said, _ = only_path(dataclasses.replace(base, at=fewer), path,
                            deadline - time.monotonic())
        if said is Only.UNIQUE:
            at = fewer
        elif said is Only.UNKNOWN:
            kept += 1
    return Givens(at, tried, kept, True)


def _narrowest(pending: Sequence[tuple[int, ...]], at: dict[int, int],
               path: Sequence[int]) -> int:
    """The index in ``pending`` of the unit whose removal leaves the narrowest gap
    between the givens around it (the first such: ``pending``'s order breaks ties; a
    unit holding an end of the path only after the rest): givens thinned evenly, so
    no stretch of the path is left without numbers while another keeps many."""
    given = sorted(at.values())
    ends = {path[0], path[-1]}

    def gap(unit: tuple[int, ...]) -> tuple[bool, int]:
        widest = 0
        for c in unit:
            i = bisect.bisect_left(given, at[c])
            before = given[i - 1] if i > 0 else 0
            after = given[i + 1] if i + 1 < len(given) else len(path) + 1
            widest = max(widest, after - before)
        return bool(ends & set(unit)), widest

    return min(range(len(pending)), key=lambda i: gap(pending[i]))
