"""The changes a repair may choose from, as the ``repair:`` rules allow.

* added edges: between nodes that touch in ``layout:`` (``add: layout``: the smallest
  distance between laid-out nodes, 1% tolerance, and no edge between them yet), between
  any two distinct nodes (``any``), or from a candidate list; in every colour the rules
  allow (new edges are uncoloured when the puzzle has no colour rule);
* recolourings (``recolour: true``, under a colour rule): every edge to every other
  allowed colour;
* removals (``remove: true``): every edge, but only when every edge must be used exactly
  once; with at-most-once or reusable edges leaving an edge out never helps (a walk may
  simply not use it), so none are offered.

No change touches a protected node. The order is deterministic (node order of the
spec, then colour order), so the first repair found is always the same one.

>>> from trailkit.models.puzzle import Puzzle
>>> from trailkit.models.repair_rules import RepairRules
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")], closed=True)
>>> [c.describe(p) for c in candidate_changes(p, RepairRules())]
['add a new edge a-b', 'add a new edge a-c', 'add a new edge b-c']
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["candidate_changes", "touching_pairs"]


def candidate_changes(puzzle: Puzzle, rules: RepairRules) -> list[Change]:
    """Every single change ``rules`` allow on ``puzzle`` (see the module docstring)."""
    protect = set(rules.protect)
    names = puzzle.nodes
    palette: tuple[str | None, ...] = (None,)
    if puzzle.colours is not None:
        palette = tuple(rules.colours) if rules.colours is not None else puzzle.colours.names
    out: list[Change] = []
    for u, v, colour, one_way in _new_edges(puzzle, rules):
        if u in protect or v in protect:
            continue
        for c in (palette if colour is None else (colour,)):
            out.append(Change(Op.ADD, u, v, c, directed=one_way))
    if rules.recolour and puzzle.colours is not None and puzzle.colour is not None:
        for e in range(puzzle.num_edges):
            u, v = names[puzzle.tail[e]], names[puzzle.head[e]]
            if u in protect or v in protect:
                continue
            old = puzzle.colour_name(e)
            for c in palette:
                if c != old:
                    out.append(Change(Op.RECOLOUR, u, v, c, old, e, puzzle.is_directed(e)))
    if rules.remove and puzzle.use is EdgeUse.EXACTLY_ONCE:
        for e in range(puzzle.num_edges):
            u, v = names[puzzle.tail[e]], names[puzzle.head[e]]
            if u not in protect and v not in protect:
                out.append(Change(Op.REMOVE, u, v, puzzle.colour_name(e),
                                  puzzle.colour_name(e), e, puzzle.is_directed(e)))
    return out


def _new_edges(puzzle: Puzzle, rules: RepairRules
               ) -> list[tuple[str, str, str | None, bool]]:
    """``(u, v, colour or None, one-way)`` of every edge the rules allow adding."""
    names = puzzle.nodes
    if isinstance(rules.add, tuple):
        return [(c.u, c.v, c.colour, c.directed) for c in rules.add]
    if rules.add == "none":
        return []
    if rules.add == "any":
        return [(names[i], names[j], None, False)
                for i in range(len(names)) for j in range(i + 1, len(names))]
    if not puzzle.layout:
        raise TrailkitError("repair add: layout needs a 'layout:' block with node positions "
                            "in the spec; use --add any or a candidate list instead")
    joined = {frozenset((puzzle.tail[e], puzzle.head[e])) for e in range(puzzle.num_edges)}
    index = {name: i for i, name in enumerate(names)}
    return [(a, b, None, False) for a, b in touching_pairs(puzzle.layout)
            if frozenset((index[a], index[b])) not in joined]


def touching_pairs(layout: Mapping[str, tuple[float, float]]) -> list[tuple[str, str]]:
    """Pairs of laid-out nodes at the smallest distance between any two (1% tolerance).

    Linear time on grid-like layouts: the points are hashed into square cells about as
    big as the expected spacing, and only neighbouring cells are compared; the cells
    grow until the closest pair is certainly among the compared ones.

    >>> touching_pairs({"a": (0, 0), "b": (2, 0), "c": (5, 0)})
    [('a', 'b')]
    """
    points = list(layout.items())
    if len(points) < 2:
        return []
    xs = [p[0] for _, p in points]
    ys = [p[1] for _, p in points]
    area = max(max(xs) - min(xs), 1e-9) * max(max(ys) - min(ys), 1e-9)
    cell = max(math.sqrt(area / len(points)), 1e-9)
    while True:
        best, pairs = _close_pairs(points, cell, cell)
        if best is not None and best <= cell:
            break
        cell *= 2
    reach = best * 1.01
    if reach > cell:
        _, pairs = _close_pairs(points, reach, reach)
    else:
        pairs = [(a, b, d) for a, b, d in pairs if d <= reach]
    order = {name: i for i, (name, _) in enumerate(points)}
    found = sorted({(a, b) if order[a] < order[b] else (b, a) for a, b, d in pairs if d <= reach},
                   key=lambda ab: (order[ab[0]], order[ab[1]]))
    return found


def _close_pairs(points: list[tuple[str, tuple[float, float]]], cell: float, limit: float
                 ) -> tuple[float | None, list[tuple[str, str, float]]]:
    """The smallest distance between points in neighbouring cells of size ``cell``, and
    every such pair no farther apart than ``limit``."""
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, (_, (x, y)) in enumerate(points):
        grid[(math.floor(x / cell), math.floor(y / cell))].append(i)
    best: float | None = None
    pairs: list[tuple[str, str, float]] = []
    for (cx, cy), members in grid.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                other = grid.get((cx + dx, cy + dy))
                if not other:
                    continue
                for i in members:
                    xi, yi = points[i][1]
                    for j in other:
                        if j <= i:
                            continue
                        d = math.hypot(xi - points[j][1][0], yi - points[j][1][1])
                        if best is None or d < best:
                            best = d
                        if d <= limit:
                            pairs.append((points[i][0], points[j][0], d))
    return best, pairs
