"""New crossings a repair brings into the spec's drawing: the last tie-break of repairs.

Of two repairs with as many changes and as long a walk, the one shown first is the one
that draws more cleanly. With a ``layout:`` that places every node, the picture draws
each edge as a straight line between its ends; an added edge *crosses* every other
edge whose line it cuts (edges that share an end never cross), and every node it runs
over that is not one of its ends (a plank drawn through a tyre; "over" is nearer to
the line than :data:`OVER_NODE` of the smallest distance between two nodes). Removing
or recolouring an edge crosses nothing new. Without such a layout every repair counts
0: there is nothing drawn to compare, and the spec order decides.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a c, b d]\\n"
...                    "layout: {a: [0, 0], b: [1, 0], c: [1, 1], d: [0, 1], e: [2, 2]}\\n"
...                    "nodes: [a, b, c, d, e]\\n")
>>> from trailkit.solvers.tools.repair.changes import Change, Op
>>> crossings = NewCrossings(p)
>>> crossings.count([Change(Op.ADD, "a", "b")]), crossings.count([Change(Op.ADD, "a", "e")])
(0, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["OVER_NODE", "NewCrossings"]

#: A line nearer to a node than this share of the smallest distance between two nodes
#: runs over it.
OVER_NODE = 0.3

Point = tuple[float, float]


class NewCrossings:
    """Counts the new crossings of change sets on one puzzle (module docstring)."""

    def __init__(self, puzzle: Puzzle) -> None:
        layout = puzzle.layout or {}
        self.names = puzzle.nodes
        self.at: dict[str, Point] | None = None
        if layout and all(name in layout for name in puzzle.nodes):
            self.at = {name: (float(layout[name][0]), float(layout[name][1]))
                       for name in puzzle.nodes}
        self.edges = [(puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]])
                      for e in range(puzzle.num_edges)]
        self.near = 0.0
        if self.at is not None and len(self.at) > 1:
            self.near = OVER_NODE * _closest(list(self.at.values()))

    def count(self, changes: Sequence[Change]) -> int:
        """The new crossings of ``changes``: each added edge against every edge kept or
        added (each pair once), and against every node it runs over."""
        if self.at is None:
            return 0
        gone = {c.edge for c in changes if c.op is Op.REMOVE}
        kept = [uv for e, uv in enumerate(self.edges) if e not in gone]
        added = [(c.u, c.v) for c in changes if c.op is Op.ADD]
        total = 0
        for i, (u, v) in enumerate(added):
            others = kept + added[i + 1:]
            total += sum(1 for x, y in others if self._cross((u, v), (x, y)))
            total += sum(1 for w in self.names if w not in (u, v) and self._over((u, v), w))
        return total

    def _cross(self, one: tuple[str, str], two: tuple[str, str]) -> bool:
        """Whether two edges' lines cut each other (edges sharing an end never do)."""
        assert self.at is not None
        if set(one) & set(two):
            return False
        a, b = self.at[one[0]], self.at[one[1]]
        c, d = self.at[two[0]], self.at[two[1]]
        return (_side(a, b, c) * _side(a, b, d) < 0) and (_side(c, d, a) * _side(c, d, b) < 0)

    def _over(self, edge: tuple[str, str], node: str) -> bool:
        """Whether ``edge``'s line runs over ``node``."""
        assert self.at is not None
        return _distance(self.at[node], self.at[edge[0]], self.at[edge[1]]) < self.near


def _side(p: Point, q: Point, r: Point) -> int:
    """Which side of the line p-q the point r is on: 1, -1, or 0 on it."""
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 1e-12) - (value < -1e-12)


def _distance(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx
                                                     + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _closest(points: list[Point]) -> float:
    """The smallest distance between two distinct points (0 when two coincide)."""
    best = math.inf
    ordered = sorted(points)
    for i, p in enumerate(ordered):  # sweep by x: stop once x alone is too far
        for q in ordered[i + 1:]:
            if q[0] - p[0] >= best:
                break
            best = min(best, math.hypot(q[0] - p[0], q[1] - p[1]))
    return 0.0 if best is math.inf else best
