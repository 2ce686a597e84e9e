"""``trailkit design tour``: Hidato, Numbrix, Signpost and knight's-tour puzzles to
order (CONTRACT 1.4 §7).

A design picks a path through every cell of the board (:mod:`.tour_paths`: randomised
Warnsdorff, seeded; where it finds none, the direct backend's tour search is asked, and
a board it proves has none is answered as impossible; a Signpost's path goes by queen
moves and its arrows follow it, :mod:`.tour_arrows`), then its givens
(:mod:`.tour_givens`): every cell given at first, givens taken away one by one
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
walked backwards is another solution. A Signpost keeps its first and last cells given
(as Tatham's does), so fewer than two givens are impossible for it.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from trailkit.models.answer import Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.models.spec.board import Board
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.tools.design.certify_design import DesignStatus, Made
from trailkit.solvers.tools.design.tour_arrows import ARROWS, arrow_path
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
        if self.moves == ARROWS and self.givens is not None and self.givens[1] < 2:
            return ("a Signpost gives its first and last numbers, as Tatham's does: "
                    "--givens needs a MAX of at least 2")
        if self.unique and self.givens is not None and self.givens[1] == 0 and \
                self.cells > 1:
            return ("no tour puzzle without givens has one solution: every path walked "
                    "backwards is another")
        return ""


@dataclass(frozen=True, slots=True)
class _Tried:
    """One path and its givens: the puzzle without givens (``base``), the path in its
    node indices and the givens kept."""

    base: Puzzle
    path: list[int]
    givens: Givens


@dataclass(frozen=True, slots=True)
class _Found:
    """A search's outcome: the path and its givens (``None``: none met the ask), the
    best kept for ``--best-effort``, the paths tried, and why none can exist."""

    chosen: _Tried | None
    best: _Tried | None
    tries: int
    impossible: str = ""


def _board_puzzle(ask: TourAsk, cells: Sequence[int] = ()) -> Puzzle:
    """The board without givens, as the spec reader makes it (a Signpost's: the arrows
    of the path ``cells``)."""
    return load_spec_text(tour_spec_text(ask.cols, ask.rows, ask.moves, [], made="search",
                                         path=cells).replace("at: {}\n", ""),
                          source="<design>")


def _mirror(ask: TourAsk, base: Puzzle) -> list[int] | None:
    """Each cell's image under the half turn of the board (``None``: not asked for)."""
    if not ask.symmetric:
        return None
    cells = Board(ask.cols, ask.rows, "king").cells
    index = {name: i for i, name in enumerate(base.nodes)}
    image = {cells[i]: cells[len(cells) - 1 - i] for i in range(len(cells))}
    return [index[image[name]] for name in base.nodes]


def _path(ask: TourAsk, board_puzzle: Puzzle | None, rng: random.Random, deadline: float
          ) -> tuple[list[int] | None, str]:
    """A path through every cell in cell indices (row by row from ``a1``), and (without
    one) why none exists (empty: the time ran out)."""
    if ask.moves == ARROWS:
        return arrow_path(ask.cols, ask.rows, rng, _TRIES), ""
    board = Board(ask.cols, ask.rows, ask.moves)
    cells = random_path(board, rng, _TRIES)
    if cells is not None or board_puzzle is None:
        return cells, ""
    answer = get_backend("direct").solve(
        board_puzzle, Limits(time_limit=max(0.001, deadline - time.monotonic())))
    if answer.status is Status.UNSOLVABLE:
        return None, (f"the {ask.cols}x{ask.rows} board with {ask.moves} moves has no path "
                      f"through every cell ({answer.reason or 'direct exhausted its search'})")
    if answer.walk is None:
        return None, ""
    cell = {name: i for i, name in enumerate(board.cells)}
    return [cell[board_puzzle.nodes[int(v)]] for v in answer.walk.nodes], ""


def _try(ask: TourAsk, board_puzzle: Puzzle | None, cells: list[int], rng: random.Random,
         deadline: float) -> _Tried:
    """The givens of the path ``cells`` (cell indices), taken away as the ask says."""
    base = board_puzzle if board_puzzle is not None else _board_puzzle(ask, cells)
    names = Board(ask.cols, ask.rows, "king").cells
    index = {name: i for i, name in enumerate(base.nodes)}
    path = [index[names[v]] for v in cells]
    keep = frozenset((path[0], path[-1])) if ask.moves == ARROWS else frozenset()
    givens = remove_givens(base, path, rng, target=ask.target(), unique=ask.unique,
                           deadline=deadline, mirror=_mirror(ask, base), keep=keep)
    return _Tried(base, path, givens)


def _search(ask: TourAsk, board_puzzle: Puzzle | None, rng: random.Random, deadline: float,
            done: frozenset[tuple[int, ...]]) -> _Found:
    """Paths and their givens until one meets the ask or the time runs out."""
    tries, best = 0, None
    while time.monotonic() < deadline:
        cells, why = _path(ask, board_puzzle, rng, deadline)
        if cells is None:
            return _Found(None, best, tries, why)
        tries += 1
        if tuple(cells) in done:
            continue
        tried = _try(ask, board_puzzle, cells, rng, deadline)
        if best is None or len(tried.givens.at) < len(best.givens.at):
            best = tried
        if ask.met(len(tried.givens.at)) and (tried.givens.finished or
                                                ask.givens is not None):
            return _Found(tried, best, tries)
    return _Found(None, best, tries)


def make_tours(ask: TourAsk, *, seed: int, how_many: int, time_limit: float, made: str,
               best_effort: bool = False) -> tuple[Made, ...]:
    """Up to ``how_many`` different tour puzzles within ``time_limit`` seconds in all;
    stops at the first not found (writing the best found with ``best_effort``)."""
    why = ask.impossible()
    if why:
        return (Made(DesignStatus.IMPOSSIBLE, None, None, 0, (), (why,), seed, 0, 0.0),)
    deadline = time.monotonic() + time_limit
    board_puzzle = None if ask.moves == ARROWS else _board_puzzle(ask)
    out: list[Made] = []
    done: set[tuple[int, ...]] = set()
    for k in range(how_many):
        t0 = time.monotonic()
        found = _search(ask, board_puzzle, random.Random(seed + k), deadline,
                        frozenset(done))
        if found.impossible:
            return (*out, Made(DesignStatus.IMPOSSIBLE, None, None, 0, (),
                               (found.impossible,), seed + k, found.tries, 0.0))
        chosen = found.chosen or (found.best if best_effort else None)
        if chosen is None:
            out.append(Made(DesignStatus.NOT_FOUND, None, None, 0, (), _lacks(ask, found),
                            seed + k, found.tries, time.monotonic() - t0))
            break
        cell = {name: i for i, name in enumerate(Board(ask.cols, ask.rows, "king").cells)}
        done.add(tuple(cell[chosen.base.nodes[v]] for v in chosen.path))
        met = found.chosen is not None
        out.append(_written(ask, chosen, made=f"{made} --seed {seed + k}",
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
    have = len(found.best.givens.at)
    return (f"{head} (the fewest givens a path kept: {have}"
            f"{'' if not ask.unique else ', each needed for one solution or kept by a limit'}"
            ")",)


def _written(ask: TourAsk, chosen: _Tried, *, made: str, seed: int, tries: int, t0: float,
             met: bool, seconds: float) -> Made:
    """The design written, read back and certified, as a :class:`Made`."""
    path, givens = chosen.path, chosen.givens
    names = chosen.base.nodes
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
