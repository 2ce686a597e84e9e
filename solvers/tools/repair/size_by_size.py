"""Change sets of one size, tried one by one: find the repairs, or refute every one.

The plain method every other one is checked against: for ``k`` changes, every set of
``k`` candidates that do not clash (two changes to one edge) is applied and the
repaired puzzle solved by the pipeline (direct backend, verified walk or checked
certificate; an uncertified "unsolvable" is confirmed by a second backend). A level
with no repair in which every set was refuted proves that no repair with ``k``
changes exists. ``budget`` bounds the number of sets tried, so it says "not decided"
rather than running for ever. The checked certificates are kept with their sets: the
``change-sets`` certificate of the fewest changes is made of them
(:mod:`~trailkit.solvers.tools.repair.fewest_certificate`), not of each set solved again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from trailkit.models.answer import Answer, Certificate, Status
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes

__all__ = ["Level", "change_sets", "try_level"]


@dataclass(frozen=True, slots=True)
class Level:
    """What trying every set of ``size`` changes found.

    ``found`` are the repairs (candidate indices, with the verified answer in the
    repaired puzzle); ``certified`` sets were refuted by a checked certificate and
    ``confirmed`` by two backends agreeing; ``complete`` is false when the budget or an
    undecided set left the level open. ``refutations`` are the certified sets with
    their checked certificates.
    """

    size: int
    found: tuple[tuple[tuple[int, ...], Answer], ...]
    certified: int
    confirmed: int
    complete: bool
    tried: int
    refutations: tuple[tuple[tuple[int, ...], Certificate], ...] = ()


def change_sets(changes: Sequence[Change], size: int) -> Iterator[tuple[int, ...]]:
    """Every set of ``size`` candidate indices whose changes touch distinct existing edges."""
    for combo in combinations(range(len(changes)), size):
        edges = [changes[i].edge for i in combo if changes[i].op is not Op.ADD]
        if len(set(edges)) == len(edges):
            yield combo


def try_level(puzzle: Puzzle, changes: Sequence[Change], size: int, limits: Limits, *,
              budget: int, want_all: bool, skip: Callable[[tuple[int, ...]], bool] | None = None,
              deadline: float | None = None) -> Level:
    """Try the change sets of ``size`` (see the module docstring).

    ``skip`` marks sets already refuted by another argument (counted as certified by
    the caller's argument); stops at the first repair unless ``want_all``, and leaves the
    level open when ``deadline`` (a ``time.monotonic()`` value) passes.
    """
    from trailkit.solvers.pipeline.solving import solve

    if math.comb(len(changes), size) > budget:
        return Level(size, (), 0, 0, False, 0)
    found: list[tuple[tuple[int, ...], Answer]] = []
    refutations: list[tuple[tuple[int, ...], Certificate]] = []
    certified = confirmed = tried = 0
    complete = True
    for combo in change_sets(changes, size):
        if tried >= budget or (deadline is not None and time.monotonic() > deadline):
            complete = False
            break
        tried += 1
        if skip is not None and skip(combo):
            certified += 1
            continue
        answer = solve(apply_changes(puzzle, [changes[i] for i in combo]), "direct", limits,
                       crosscheck=None)
        if answer.status is Status.SOLVED:
            found.append((combo, answer))
            if not want_all:
                break
        elif answer.status is Status.UNSOLVABLE and answer.certificate_checked:
            certified += 1
            if answer.certificate is not None:
                refutations.append((combo, answer.certificate))
        elif answer.status is Status.UNSOLVABLE:
            confirmed += 1
        else:
            complete = False
    return Level(size, tuple(found), certified, confirmed, complete, tried, tuple(refutations))
