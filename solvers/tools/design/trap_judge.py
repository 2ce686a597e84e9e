"""The design search's judge of traps: one full pass over a colouring's situations.

A situation is a (node, colour-phase) state, numbered ``node * (C + 1) + phase`` as in
:mod:`.states` (phase 0: before the first step; ``1 + c``: after a step of colour
``c``). :func:`trap_measures` walks forward from the start over every situation a
walker can reach (through the goal too, as ``inspect`` does), then backward from the
goal's situations over the moves it found, and gives:

* the **traps**: reached situations from which the goal cannot be reached;
* the shortest length and the number of shortest walks;
* the least and the most **trap steps** over all shortest walks: steps taken from a
  situation that has a move into a trap, counted along each shortest walk (one pass
  over the levels of the shortest walks keeps both bounds).

It works on the search's own adjacency lists, with no puzzle built, so the search can
call it at every try. It is the search's judge only: every design is measured again
by :mod:`.states`, the passes ``inspect`` reports, and the two must agree
(:mod:`.certify_design`).

a - b red, then b - c blue to the goal c, and b - d blue into a dead end at d:

>>> adj = [[(1, 0)], [(0, 0), (2, 1), (3, 2)], [(1, 1)], [(1, 2)]]
>>> trap_measures(adj, [0, 1, 1], 2, 0, 2)
TrapMeasures(length=2, walks=1, traps=1, trap_steps=(1, 1))
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

__all__ = ["TrapMeasures", "trap_measures"]


@dataclass(frozen=True, slots=True)
class TrapMeasures:
    """Shortest length (``None``: the goal cannot be reached), number of shortest walks,
    traps, and the least and most trap steps of a shortest walk."""

    length: int | None
    walks: int
    traps: int
    trap_steps: tuple[int, int]


def _moves(adj: list[list[tuple[int, int]]], colour: list[int], colours: int, s: int
           ) -> list[int]:
    """The situations one step from ``s``: the first step of any colour, each next one
    the colour after the last in the cycle."""
    k = colours + 1
    v, p = divmod(s, k)
    return [w * k + colour[i] + 1 for w, i in adj[v]
            if colour[i] >= 0 and not (p and colour[i] != p % colours)]


def _passes(adj: list[list[tuple[int, int]]], colour: list[int], colours: int, start: int,
            goal: int) -> tuple[dict[int, int], dict[int, int], dict[int, list[int]]]:
    """Forward distances of the reached situations, backward distances to the goal
    among them, and each reached situation's moves."""
    k = colours + 1
    forward = {start * k: 0}
    moves: dict[int, list[int]] = {}
    into: dict[int, list[int]] = {}
    queue = deque([start * k])
    while queue:
        s = queue.popleft()
        moves[s] = _moves(adj, colour, colours, s)
        for t in moves[s]:
            into.setdefault(t, []).append(s)
            if t not in forward:
                forward[t] = forward[s] + 1
                queue.append(t)
    backward = {s: 0 for s in forward if s // k == goal}
    queue = deque(backward)
    while queue:
        t = queue.popleft()
        for s in into.get(t, ()):
            if s not in backward:
                backward[s] = backward[t] + 1
                queue.append(s)
    return forward, backward, moves


def trap_measures(adj: list[list[tuple[int, int]]], colour: list[int], colours: int,
                  start: int, goal: int) -> TrapMeasures:
    """The measures of the module docstring for the colouring ``colour``."""
    forward, backward, moves = _passes(adj, colour, colours, start, goal)
    traps = {s for s in forward if s not in backward}
    ends = [forward[s] for s in backward if backward[s] == 0]
    if not ends:
        return TrapMeasures(None, 0, len(traps), (0, 0))
    length = min(ends)
    beside = {s for s, ts in moves.items() if any(t in traps for t in ts)}
    level = {min(forward, key=forward.__getitem__): (1, 0, 0)}  # ways, least, most
    for step in range(length):
        nxt: dict[int, tuple[int, int, int]] = {}
        for s, (ways, lo, hi) in level.items():
            add = s in beside
            for t in moves[s]:
                if forward[t] == step + 1 and backward.get(t) == length - step - 1:
                    w, a, b = nxt.get(t, (0, lo + add, hi + add))
                    nxt[t] = (w + ways, min(a, lo + add), max(b, hi + add))
        level = nxt
    walks = sum(w for w, _, _ in level.values())
    return TrapMeasures(length, walks, len(traps), (min(a for _, a, _ in level.values()),
                                                    max(b for _, _, b in level.values())))
