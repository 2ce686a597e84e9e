"""The givens of a tour puzzle (``design tour``): taken away one by one while the path
stays the only one.

Every cell starts given (its position on the path): the puzzle then has one solution,
the path. Givens are taken away in a random order (the seed's; the path's two ends
last, as puzzle books give them: while they are given the search has one start and
one end, and each test is far quicker); each is taken away only
when the puzzle without it still has one solution, asked of the direct backend
(:func:`~trailkit.solvers.backends.direct.hamilton.tour_walks`: its tour search goes on
past the first path until a second is found or every start is exhausted). A second
path is checked by the independent verifier before it counts; a limit reached keeps
the given (never a guess). By induction every puzzle kept has the one solution the
first had: the path.

Without uniqueness asked for (``unique=False``) givens are taken away without the test.
With ``--symmetric`` a given is taken away with its image under the half turn of the
board (as puzzle books like them), both in one test.
"""

from __future__ import annotations

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
    walks, stopped = tour_walks(puzzle, limits, most=2)
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
                  unique: bool, deadline: float, mirror: Sequence[int] | None = None
                  ) -> Givens:
    """Take givens of ``path`` away in a random order until at most ``target`` are left
    (see the module docstring), or the order is used up, or the deadline passes.
    ``base`` is the puzzle without givens; with ``mirror`` (each cell's image under the
    half turn of the board) a given goes with its image, so the givens stay symmetric."""
    at = {cell: i + 1 for i, cell in enumerate(path)}
    tried = kept = 0
    for unit in _units(path, rng, mirror):
        if len(at) <= target:
            break
        if time.monotonic() >= deadline:
            return Givens(at, tried, kept, False)
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
