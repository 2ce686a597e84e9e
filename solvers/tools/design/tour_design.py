"""``trailkit design tour``: Hidato, Numbrix and knight's-tour puzzles to order
(CONTRACT 1.4 §7).

A design picks a path through every cell of the board (:mod:`.tour_paths`: randomised
Warnsdorff, seeded; where it finds none, the direct backend's tour search is asked, and
a board it proves has none is answered as impossible), then its givens
(:mod:`.tour_givens`): every cell given at first, givens taken away in a random order
while the path stays the only solution (with ``unique``), until at most a target number
is left: as soon as the count is within ``--givens MIN..MAX`` (at most ``MAX``: each
further test costs more than the last, as the puzzle gets harder); without
``--givens``, as few as the one pass leaves (with ``unique``), else a third of the
cells. A path whose pass ends above ``MAX`` is dropped and another tried, until the time
runs out. With ``symmetric`` a given goes with its image under the half turn of the
board, so the givens stay symmetric. Each design is written, read back and certified
(:mod:`.tour_certify`).

Design ``k`` of a run uses the seed ``seed + k``: the same seed gives the same puzzle
(unless a limit is reached: each test of a given has a work limit, in moves, so that
this holds on a slower machine too).

With uniqueness asked and no givens at all the design is impossible at once: every path
walked backwards is another solution.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass

from trailkit.models.answer import Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.models.spec.board import Board
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.tools.design.certify_design import DesignStatus, Made
from trailkit.solvers.tools.design.tour_certify import certify_tour, tour_spec_text
from trailkit.solvers.tools.design.tour_givens import Givens, remove_givens
from trailkit.solvers.tools.design.tour_paths import random_path

__all__ = ["TourAsk", "make_tours"]

_TRIES = 200
"""Randomised Warnsdorff walks per path wanted before the direct backend is asked."""


@dataclass(frozen=True, slots=True)
class TourAsk:
    """What a tour design is asked for: the board (``cols`` x ``rows``, ``moves``), the
    givens' range (``None``: the default of the module docstring), ``unique`` and
    ``symmetric`` (givens placed symmetrically under the half turn of the board)."""

    cols: int
    rows: int
    moves: str
    givens: tuple[int, int] | None = None
    unique: bool = False
    symmetric: bool = False

    @property
    def cells(self) -> int:
        return self.cols * self.rows

    def target(self) -> int:
        """How many givens to stop at: as soon as the range is reached."""
        if self.givens is not None:
            return self.givens[1]
        return 0 if self.unique else math.ceil(self.cells / 3)

    def met(self, count: int) -> bool:
        """Whether ``count`` givens meet the range."""
        if self.givens is None:
            return self.unique or count <= math.ceil(self.cells / 3)
        return self.givens[0] <= count <= self.givens[1]

    def impossible(self) -> str:
        """Why no design can meet the ask (empty: some may)."""
        if self.unique and self.givens is not None and self.givens[1] == 0 and \
                self.cells > 1:
            return ("no tour puzzle without givens has one solution: every path walked "
                    "backwards is another")
        return ""


@dataclass(frozen=True, slots=True)
class _Found:
    """A search's outcome: the path and its givens (``None``: none met the ask), the
    best kept for ``--best-effort``, the paths tried, and why none can exist."""

    path: list[int] | None
    givens: Givens | None
    best: tuple[list[int], Givens] | None
    tries: int
    impossible: str = ""


def _board_puzzle(ask: TourAsk) -> Puzzle:
    """The board without givens, as the spec reader makes it."""
    return load_spec_text(tour_spec_text(ask.cols, ask.rows, ask.moves, [], made="search")
                          .replace("at: {}\n", ""), source="<design>")


def _mirror(ask: TourAsk, base: Puzzle) -> list[int] | None:
    """Each cell's image under the half turn of the board (``None``: not asked for)."""
    if not ask.symmetric:
        return None
    cells = Board(ask.cols, ask.rows, ask.moves).cells
    index = {name: i for i, name in enumerate(base.nodes)}
    image = {cells[i]: cells[len(cells) - 1 - i] for i in range(len(cells))}
    return [index[image[name]] for name in base.nodes]


def _path(ask: TourAsk, base: Puzzle, rng: random.Random, deadline: float
          ) -> tuple[list[int] | None, str]:
    """A path through every cell in ``base``'s node indices, and (without one) why none
    exists (empty: the time ran out)."""
    board = Board(ask.cols, ask.rows, ask.moves)
    index = {name: i for i, name in enumerate(base.nodes)}
    cells = random_path(board, rng, _TRIES)
    if cells is not None:
        return [index[board.cells[v]] for v in cells], ""
    answer = get_backend("direct").solve(
        base, Limits(time_limit=max(0.001, deadline - time.monotonic())))
    if answer.status is Status.UNSOLVABLE:
        return None, (f"the {ask.cols}x{ask.rows} board with {ask.moves} moves has no path "
                      f"through every cell ({answer.reason or 'direct exhausted its search'})")
    if answer.walk is None:
        return None, ""
    return [int(v) for v in answer.walk.nodes], ""


def _search(ask: TourAsk, base: Puzzle, rng: random.Random, deadline: float,
            done: frozenset[tuple[int, ...]]) -> _Found:
    """Paths and their givens until one meets the ask or the time runs out."""
    tries, best = 0, None
    while time.monotonic() < deadline:
        path, why = _path(ask, base, rng, deadline)
        if path is None:
            return _Found(None, None, best, tries, why)
        tries += 1
        if tuple(path) in done:
            continue
        givens = remove_givens(base, path, rng, target=ask.target(), unique=ask.unique,
                               deadline=deadline, mirror=_mirror(ask, base))
        if best is None or len(givens.at) < len(best[1].at):
            best = path, givens
        if ask.met(len(givens.at)) and (givens.finished or ask.givens is not None):
            return _Found(path, givens, best, tries)
    return _Found(None, None, best, tries)


def make_tours(ask: TourAsk, *, seed: int, how_many: int, time_limit: float, made: str,
               best_effort: bool = False) -> tuple[Made, ...]:
    """Up to ``how_many`` different tour puzzles within ``time_limit`` seconds in all;
    stops at the first not found (writing the best found with ``best_effort``)."""
    why = ask.impossible()
    if why:
        return (Made(DesignStatus.IMPOSSIBLE, None, None, 0, (), (why,), seed, 0, 0.0),)
    deadline = time.monotonic() + time_limit
    base = _board_puzzle(ask)
    out: list[Made] = []
    done: set[tuple[int, ...]] = set()
    for k in range(how_many):
        t0 = time.monotonic()
        found = _search(ask, base, random.Random(seed + k), deadline, frozenset(done))
        if found.impossible:
            return (*out, Made(DesignStatus.IMPOSSIBLE, None, None, 0, (),
                               (found.impossible,), seed + k, found.tries, 0.0))
        chosen = (found.path, found.givens) if found.path is not None and \
            found.givens is not None else (found.best if best_effort else None)
        if chosen is None:
            out.append(Made(DesignStatus.NOT_FOUND, None, None, 0, (), _lacks(ask, found),
                            seed + k, found.tries, time.monotonic() - t0))
            break
        done.add(tuple(chosen[0]))
        met = found.path is not None
        out.append(_written(ask, base, chosen, made=f"{made} --seed {seed + k}",
                            seed=seed + k, tries=found.tries, t0=t0, met=met,
                            seconds=max(1.0, deadline - time.monotonic())))
        if not met:
            break
    return tuple(out)


def _lacks(ask: TourAsk, found: _Found) -> tuple[str, ...]:
    """What the search missed when the time ran out, in words."""
    head = "no puzzle met the targets before the time ran out"
    if found.best is None:
        return (f"{head} (no path's givens were chosen)",)
    have = len(found.best[1].at)
    return (f"{head} (the fewest givens a path kept: {have}"
            f"{'' if not ask.unique else ', each needed for one solution or kept by a limit'}"
            ")",)


def _written(ask: TourAsk, base: Puzzle, chosen: tuple[list[int], Givens], *, made: str,
             seed: int, tries: int, t0: float, met: bool, seconds: float) -> Made:
    """The design written, read back and certified, as a :class:`Made`."""
    path, givens = chosen
    names = base.nodes
    at = [(names[cell], q) for cell, q in givens.at.items()]
    done = certify_tour(ask.cols, ask.rows, ask.moves, at, [names[v] for v in path],
                        unique=ask.unique, made=made, seconds=seconds)
    lacks: tuple[str, ...] = ()
    text = done.text
    if not met:
        lacks = (f"it has {plural(len(at), 'given')}, not {ask.givens[0]} to "
                 f"{ask.givens[1]}" if ask.givens else "it was not finished in time",)
        text += "".join(f"# NOT MET (best found when the time ran out): {lack}.\n"
                        for lack in lacks)
    measures = {"cells": ask.cells, "givens": len(at), "removals_tried": givens.tried,
                "kept_by_limit": givens.kept_by_limit}
    return Made(DesignStatus.DESIGNED if met else DesignStatus.NOT_FOUND, text,
                len(path) - 1, 1 if ask.unique else 0, done.claims, lacks, seed, tries,
                time.monotonic() - t0, measures, done.certificates,
                dataclasses.replace(done.puzzle))
