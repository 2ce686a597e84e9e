"""Where a label goes: beside the line it names, on a spot where nothing is drawn.

A picture records what it draws as it draws it: solid things a label must never cover
(node circles and their rings, step badges, arrowheads, tags, other labels) as discs and
boxes, and lines a label had better not cross (edges, the walk) as segments. A label is
then tried beside its line at several points along it, on both sides and at growing
distances, and the clear spot with the lowest cost wins: close to the line's middle,
near the line, crossing few lines, above rather than below. When the whole neighbourhood
is taken, spots on rings around the line's middle are tried, farther out, and the label
gets a leader line back to its edge.

>>> room = Occupancy(Box(0, 0, 200, 200))
>>> room.add_disc(V(100, 100), 30)
>>> spot = room.place(Label(12 * 7, 18), [V(20, 100), V(100, 100), V(180, 100)])
>>> spot.box.hits_disc(V(100, 100), 30), spot.box.y1 <= 100
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from trailkit.solvers.tools.drawing.geometry import V

__all__ = ["Box", "Label", "Occupancy", "Spot", "segment_distance"]

#: Points along the line tried first (its middle), then ever farther out.
_ALONG = (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82)
#: Gaps (pixels) between the line and the label, nearest first.
_GAPS = (5.0, 12.0, 22.0, 34.0, 48.0)
#: What one line crossed costs, in pixels of distance.
_CROSSING = 40.0
#: A label this far from its line (pixels past touching) gets a leader line.
LEADER_GAP = 14.0


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle, ``x0 <= x1`` and ``y0 <= y1`` (pixels, y down)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @staticmethod
    def around(centre: V, w: float, h: float) -> Box:
        return Box(centre.x - w / 2, centre.y - h / 2, centre.x + w / 2, centre.y + h / 2)

    @property
    def centre(self) -> V:
        return V((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def nearest(self, p: V) -> V:
        """The point of the box nearest ``p``."""
        return V(min(max(p.x, self.x0), self.x1), min(max(p.y, self.y0), self.y1))

    def hits_disc(self, c: V, r: float) -> bool:
        return (self.nearest(c) - c).norm() < r

    def overlaps(self, other: Box) -> bool:
        return (self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1
                and other.y0 < self.y1)

    def inside(self, other: Box) -> bool:
        return (other.x0 <= self.x0 and self.x1 <= other.x1 and other.y0 <= self.y0
                and self.y1 <= other.y1)

    def crosses(self, a: V, b: V) -> bool:
        """Whether the segment ``a``-``b`` passes through the box (Liang-Barsky clip)."""
        t0, t1 = 0.0, 1.0
        d = b - a
        for p, q in ((-d.x, a.x - self.x0), (d.x, self.x1 - a.x), (-d.y, a.y - self.y0),
                     (d.y, self.y1 - a.y)):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
        return True


@dataclass(frozen=True, slots=True)
class Label:
    """A label's size in pixels."""

    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a label went: its ``box``, the point of its line it names (``anchor``),
    whether it is far enough from the line to want a leader line back to it, and whether
    the spot is ``clear`` (not when no clear spot was found: the least covered one)."""

    box: Box
    anchor: V
    leader: bool
    clear: bool = True


@dataclass
class Occupancy:
    """What a picture has drawn so far, for placing labels (module docstring); labels
    stay inside ``bounds``. While not ``active`` (a picture with no label to place)
    nothing is recorded, so a big picture pays nothing for it."""

    bounds: Box
    active: bool = True
    discs: list[tuple[V, float]] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    lines: list[tuple[V, V]] = field(default_factory=list)

    def add_disc(self, c: V, r: float) -> None:
        if self.active:
            self.discs.append((c, r))

    def add_box(self, box: Box) -> None:
        if self.active:
            self.boxes.append(box)

    def add_line(self, points: Sequence[V]) -> None:
        """A polyline a label should rather not cross."""
        if self.active:
            self.lines += list(pairwise(points))

    def extent(self) -> Box | None:
        """The box around everything recorded (``None``: nothing is)."""
        boxes = ([Box(c.x - r, c.y - r, c.x + r, c.y + r) for c, r in self.discs]
                 + self.boxes + [Box(min(a.x, b.x), min(a.y, b.y), max(a.x, b.x),
                                     max(a.y, b.y)) for a, b in self.lines])
        if not boxes:
            return None
        return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                   max(b.x1 for b in boxes), max(b.y1 for b in boxes))

    def is_clear(self, box: Box) -> bool:
        """Whether ``box`` lies inside the bounds and on no disc or box drawn so far."""
        return (box.inside(self.bounds)
                and not any(c.x + r > box.x0 and c.x - r < box.x1 and c.y + r > box.y0
                            and c.y - r < box.y1 and box.hits_disc(c, r)
                            for c, r in self.discs)
                and not any(box.overlaps(b) for b in self.boxes))

    def nearby(self, mid: V, reach: float) -> _Near:
        """What is drawn within ``reach`` of ``mid``, to try many spots there quickly."""
        return _Near(self, mid, reach)

    def place(self, label: Label, line: Sequence[V]) -> Spot:
        """The best clear spot for ``label`` beside the polyline ``line`` (module
        docstring), recorded as taken. Where no spot is clear, the least covered one."""
        lengths = [0.0]
        for a, b in pairwise(line):
            lengths.append(lengths[-1] + (b - a).norm())
        mid = _at(line, lengths, 0.5)[0]
        reach = lengths[-1] / 2 + 8 * (label.w + label.h)
        near = _Near(self, mid, reach)
        best: tuple[float, Spot] | None = None
        for t in _ALONG:
            p, d = _at(line, lengths, t)
            if near.covers(p):
                continue  # under a node or a badge: no label can point there
            normal = d.normal()
            if normal.y > 0 or (normal.y == 0 and normal.x < 0):
                normal = -normal  # the upper side first
            # how far the box's centre must be for its edge to touch the line
            touch = abs(normal.x) * label.w / 2 + abs(normal.y) * label.h / 2
            for side, n in ((0.0, normal), (6.0, -normal)):
                for gap in _GAPS:
                    box = Box.around(p + n * (touch + gap), label.w, label.h)
                    cost = (gap + side + abs(t - 0.5) * lengths[-1] * 0.5
                            + _CROSSING * near.crossings(box))
                    leader = gap >= LEADER_GAP
                    if (best is None or cost < best[0]) and near.clear(box) and (
                            not leader or near.open_line(p, box.nearest(p))):
                        best = (cost, Spot(box, p, leader))
            if best is not None and best[0] < 40:
                break  # a clear spot near the middle: no need to look farther out
        if best is None:
            visible = [q for q in (_at(line, lengths, t)[0] for t in _ALONG)
                       if not near.covers(q)] or [mid]
            best = self._farther(label, visible, near)
        self.add_box(best[1].box)
        return best[1]

    def _farther(self, label: Label, visible: Sequence[V], near: _Near
                 ) -> tuple[float, Spot]:
        """Spots on rings around the line's ``visible`` points (the first is nearest its
        middle), nearest first, each pointing back to the nearest of them; the least
        covered spot as a last resort."""
        centre = visible[0]
        fallback: tuple[float, Spot] | None = None
        for ring in range(1, 12):
            radius = 20.0 * ring + max(label.w, label.h) / 2
            found: tuple[float, Spot] | None = None
            for k in range(24):
                angle = -math.pi / 2 + k * math.pi / 12
                box = Box.around(centre + V.polar(radius, angle), label.w, label.h)
                anchor = min(visible, key=lambda q: (box.nearest(q) - q).norm())
                cost = radius + _CROSSING * near.crossings(box)
                if near.clear(box) and near.open_line(anchor, box.nearest(anchor)):
                    if found is None or cost < found[0]:
                        found = (cost, Spot(box, anchor, True))
                elif box.inside(self.bounds):
                    covered = 1000.0 * near.covering(box) + cost
                    if fallback is None or covered < fallback[0]:
                        fallback = (covered, Spot(box, anchor, True, clear=False))
            if found is not None:
                return found
        if fallback is None:
            fallback = (0.0, Spot(Box.around(centre, label.w, label.h), centre, False,
                                  clear=False))
        return fallback


class _Near:
    """The drawn things near one label's line, so each candidate checks only those."""

    def __init__(self, room: Occupancy, mid: V, reach: float) -> None:
        self.bounds = room.bounds
        self.discs = [(c, r) for c, r in room.discs if (c - mid).norm() < reach + r]
        self.boxes = [b for b in room.boxes if (b.centre - mid).norm() < reach + (
            b.x1 - b.x0 + b.y1 - b.y0)]
        self.lines = [(a, b) for a, b in room.lines
                      if segment_distance(mid, a, b) < reach]
        #: each line's bounding box, to pass over most lines without clipping them
        self.spans = [(min(a.x, b.x), min(a.y, b.y), max(a.x, b.x), max(a.y, b.y))
                      for a, b in self.lines]

    def clear(self, box: Box) -> bool:
        return box.inside(self.bounds) and self.free(box)

    def free(self, box: Box) -> bool:
        """Whether ``box`` lies on no disc and no box (wherever it is)."""
        return (not any(box.hits_disc(c, r) for c, r in self.discs)
                and not any(box.overlaps(b) for b in self.boxes))

    def open_line(self, a: V, b: V) -> bool:
        """Whether a leader line from ``a`` to ``b`` passes over no disc and no box."""
        return (not any(segment_distance(c, a, b) < r for c, r in self.discs)
                and not any(box.crosses(a, b) for box in self.boxes))

    def covers(self, p: V) -> bool:
        """Whether the point ``p`` is under a disc (a node, a badge, an arrowhead)."""
        return any((p - c).norm() < r for c, r in self.discs)

    def covering(self, box: Box) -> int:
        return (sum(box.hits_disc(c, r) for c, r in self.discs)
                + sum(box.overlaps(b) for b in self.boxes))

    def crossings(self, box: Box) -> int:
        return sum(box.crosses(a, b)
                   for (a, b), (x0, y0, x1, y1) in zip(self.lines, self.spans, strict=True)
                   if x0 <= box.x1 and box.x0 <= x1 and y0 <= box.y1 and box.y0 <= y1)


def _at(line: Sequence[V], lengths: Sequence[float], t: float) -> tuple[V, V]:
    """The point at fraction ``t`` of the polyline's length, and its direction there."""
    if len(line) < 2 or lengths[-1] <= 0:
        return (line[0] if line else V(0.0, 0.0)), V(1.0, 0.0)
    goal = t * lengths[-1]
    for i in range(1, len(line)):
        if lengths[i] >= goal or i == len(line) - 1:
            a, b = line[i - 1], line[i]
            span = lengths[i] - lengths[i - 1]
            f = 0.0 if span <= 0 else (goal - lengths[i - 1]) / span
            return a + (b - a) * min(1.0, max(0.0, f)), (b - a).unit()
    return line[-1], (line[-1] - line[-2]).unit()


def segment_distance(p: V, a: V, b: V) -> float:
    """The distance from ``p`` to the segment ``a``-``b``."""
    d = b - a
    n = d.x * d.x + d.y * d.y
    f = 0.0 if n == 0 else max(0.0, min(1.0, ((p - a).x * d.x + (p - a).y * d.y) / n))
    return (p - (a + d * f)).norm()
