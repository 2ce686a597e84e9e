"""What ``inspect`` finds, piece by piece, for every kind of puzzle it inspects.

The edge and given findings, what the edges that are neither critical nor costly rest
on, the puzzle without one edge, and the time limit checked between two edges: shared
by the inspection of edge rules (:mod:`.inspection`) and of node rules
(:mod:`.node_inspection`), so neither imports the other's work.
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.answer import Certificate, Claim, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline.policy import time_left
from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes

__all__ = ["EdgeFinding", "GivenFinding", "Givens", "TimeUp", "Unharmed", "check_time",
           "without_edge"]


@dataclass(frozen=True, slots=True)
class EdgeFinding:
    """A critical edge (``certificate``: why the puzzle is unsolvable without it,
    ``checked`` when the independent checker accepted it, ``maker`` who made it or why
    there is none) or a costly one (``length_without``, and ``claim``: that length as the
    ``shortest`` claim of the puzzle without the edge, certified or saying why not)."""

    edge: int
    certificate: Certificate | None = None
    checked: bool = False
    maker: str = ""
    length_without: int | None = None
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class Unharmed:
    """What the edges neither critical nor costly (``edges`` of them) rest on: without any
    one of them the puzzle keeps a walk (once-only walks) or its shortest length
    (reusable walks). ``checked``: each was certified (a walk verified, or a ``layers``
    certificate accepted by the independent checker); ``said``: what holds, or why it is
    not certified and what it rests on."""

    edges: int
    checked: bool
    said: str


@dataclass(frozen=True, slots=True)
class GivenFinding:
    """A given (``node`` at ``position``): **essential** when without it the puzzle has a
    second solution (``second``, verified by the independent checker), **redundant**
    when it keeps its one solution (``claim``: the ``unique`` claim of the puzzle without
    it, certified by refutation or saying what it rests on); ``essential`` is ``None``
    when neither was decided within the limits (``claim.why`` says why)."""

    node: int
    position: int
    essential: bool | None
    second: Walk | None = None
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class Givens:
    """The givens looked at, or (``skipped``) why none was: a puzzle whose solution is
    not unique has no given it cannot lose in this sense."""

    findings: tuple[GivenFinding, ...] = ()
    skipped: str = ""


class TimeUp(Exception):
    """The time limit passed between two edges (``done`` of ``total`` looked at), with
    the critical and costly edges found until then."""

    def __init__(self, message: str, found: tuple[list[EdgeFinding], list[EdgeFinding]],
                 done: int, total: int) -> None:
        super().__init__(message)
        self.critical, self.costly = tuple(found[0]), tuple(found[1])
        self.done, self.total = done, total


def without_edge(puzzle: Puzzle, e: int) -> Puzzle:
    """``puzzle`` with edge ``e`` taken away (every rule kept)."""
    change = Change(Op.REMOVE, puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]],
                    puzzle.colour_name(e), edge=e)
    return apply_changes(puzzle, [change])


def check_time(limits: Limits, started: float, done: int, total: int,
               found: tuple[list[EdgeFinding], list[EdgeFinding]] = ([], [])) -> Limits:
    """The limits left for the next edge; raises :class:`TimeUp` (with the edges
    ``found`` so far, critical and costly) when none is."""
    left = time_left(limits, started)
    if left is not None and left <= 0:
        raise TimeUp(f"the time limit ({limits.time_limit:g} s) was reached after "
                     f"{done} of {total} edges", found, done, total)
    return Limits(time_limit=left, work_limit=limits.work_limit, workers=limits.workers,
                  seed=limits.seed, memory_mb=limits.memory_mb)
