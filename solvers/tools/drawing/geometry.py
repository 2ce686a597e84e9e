"""Plane geometry for the pictures, in plain Python: a 2-D vector, the spec's positions,
and the scale between neighbours.

Plain Python rather than NumPy on purpose: a puzzle whose spec lays it out is drawn
without importing NumPy at all, which saves the import's time in every ``trailkit draw``
run (NumPy loads only for an automatic layout, in :mod:`.layout`).

>>> V(3, 4).norm(), V(1, 2) + V(1, 1) * 2
(5.0, V(x=3.0, y=4.0))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import median
from typing import NamedTuple

from trailkit.models.puzzle import Puzzle

__all__ = ["V", "neighbour_distance", "spec_positions"]


class V(NamedTuple):
    """A point or direction in the plane."""

    x: float
    y: float

    def __add__(self, other: object) -> V:
        o = _v(other)
        return V(self.x + o.x, self.y + o.y)

    def __sub__(self, other: object) -> V:
        o = _v(other)
        return V(self.x - o.x, self.y - o.y)

    def __mul__(self, k: object) -> V:
        f = float(k)  # type: ignore[arg-type]  # any number: int, float, a NumPy scalar
        return V(self.x * f, self.y * f)

    def __rmul__(self, k: object) -> V:
        return self * k

    def __truediv__(self, k: float) -> V:
        return V(self.x / k, self.y / k)

    def __neg__(self) -> V:
        return V(-self.x, -self.y)

    def norm(self) -> float:
        return math.hypot(self.x, self.y)

    def unit(self) -> V:
        n = self.norm()
        return self / n if n > 0 else V(1.0, 0.0)

    def normal(self) -> V:
        """This direction turned a quarter (the left-hand normal in y-down pictures)."""
        return V(-self.y, self.x)

    @staticmethod
    def polar(radius: float, angle: float) -> V:
        return V(radius * math.cos(angle), radius * math.sin(angle))


def _v(other: object) -> V:
    if isinstance(other, V):
        return other
    x, y = other  # type: ignore[misc]  # any pair of numbers (a tuple, a NumPy row)
    return V(float(x), float(y))  # type: ignore[has-type]  # as above


def spec_positions(puzzle: Puzzle) -> list[V] | None:
    """The spec's ``layout:`` as one point per node, or ``None`` when it is missing,
    ``auto``, or leaves a node out (then the whole graph gets an automatic layout)."""
    given = puzzle.layout
    if not given or not all(name in given for name in puzzle.nodes):
        return None
    return [V(float(given[name][0]), float(given[name][1])) for name in puzzle.nodes]


def neighbour_distance(points: Sequence[V], tail: Sequence[int], head: Sequence[int]
                       ) -> float:
    """The typical distance between neighbours: the median edge length, or the median
    distance from each node to its nearest node when that is shorter (two nodes closer
    than their edges would otherwise overlap). Grid buckets keep it linear."""
    lengths = [(points[u] - points[v]).norm() for u, v in zip(tail, head, strict=True)]
    lengths = [d for d in lengths if d > 1e-9]
    if not lengths:
        if len(points) < 2:
            return 1.0
        xs, ys = [p.x for p in points], [p.y for p in points]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        return span / math.sqrt(len(points)) if span > 0 else 1.0
    xs, ys = [p.x for p in points], [p.y for p in points]
    spacing = max(max(xs) - min(xs), max(ys) - min(ys)) / math.sqrt(len(points))
    cell = median(lengths)
    if spacing > 0:
        cell = min(cell, 2 * spacing)  # buckets of a few points each, even for long edges
    buckets: dict[tuple[int, int], list[tuple[int, float, float]]] = {}
    for i, (x, y) in enumerate(points):
        buckets.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((i, x, y))
    nearest = []
    for i, (x, y) in enumerate(points):
        cx, cy = math.floor(x / cell), math.floor(y / cell)
        best = cell
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j, qx, qy in buckets.get((cx + dx, cy + dy), ()):
                    gap = math.hypot(qx - x, qy - y)
                    if j != i and 1e-9 < gap < best:
                        best = gap
        nearest.append(best)
    return min(median(lengths), median(nearest))
