"""The canvas every layer of the node-and-edge picture draws on: where things are.

:class:`Canvas` holds what one picture's layers share: node positions in pixels (the
spec's layout or an automatic one), node sizes, the bend of each edge, the colours,
the walk's revisits, the notes and legend gathered on the way, and the
:class:`~trailkit.solvers.tools.drawing.placement.Occupancy` each layer records what it
draws in. Its methods are the geometry the layers ask for: the curve of an edge,
free directions beside a node, points and tangents along a curve, an arrowhead.

Geometry is in pixels with y pointing down; the unit ``U`` is the typical edge length.
A tyre revisited by the walk gets one more ring per revisit, so its *rim* (the
outermost ring) is where the walk's lines stop.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from trailkit.models.answer import Certificate, Walk
from trailkit.models.palette import NO_COLOUR, Paint, palette
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.emphasis import Emphasis
from trailkit.solvers.tools.drawing.geometry import V, neighbour_distance, spec_positions
from trailkit.solvers.tools.drawing.inspect_view import InspectView
from trailkit.solvers.tools.drawing.placement import Box, Occupancy
from trailkit.solvers.tools.drawing.svgtext import el, fmt

__all__ = [
    "BADGED_STEPS",
    "BADGE_R",
    "BUNDLE_GAP",
    "NODE_R",
    "PLANK_ARROW",
    "PLANK_ARROW_AT",
    "PLANK_W",
    "RING_GAP",
    "SIMPLIFY_EDGES",
    "STEP_FONT",
    "WALK_W",
    "Canvas",
    "Curve",
    "GraphPicture",
    "U",
    "arrow_disc",
    "label_px",
    "linecap",
    "path_d",
]

Curve = tuple[V, V, V]  # a quadratic Bézier: start, control, end

U = 100.0  # pixels between neighbouring nodes
NODE_R = 0.22 * U
RING_GAP = 5.0
PLANK_W = 0.085 * U
WALK_W = 3.0
BADGE_R = 10.0
#: The size (pixels of the SVG) of a step's number: a PNG and a printed page keep it
#: readable (:mod:`.png`, :mod:`.printable`).
STEP_FONT = 11.0
#: Length of a one-way edge's arrowhead, drawn dark on any plank colour to be seen.
PLANK_ARROW = 13.0
#: Where along a one-way edge (from its tail) its arrowhead's tip stands.
PLANK_ARROW_AT = 0.62
#: Past this many edges the picture is simplified (one path per colour, no node labels).
SIMPLIFY_EDGES = 20_000
#: Pixels between the middles of parallel edges (a bundle), room for a badge on each.
BUNDLE_GAP = 0.34 * U
#: Up to this many edges, an edge through a node is bent around it.
ROUTED_EDGES = 3000
#: Extra bends tried to take an edge around the nodes in its way, smallest first.
_DETOURS = (0.0, *(s * k * 0.2 * U for k in range(1, 9) for s in (1, -1)))
#: Past this many walk steps only every k-th step gets a numbered badge.
BADGED_STEPS = 400


@dataclass
class GraphPicture:
    """What one picture shows; :func:`~.graph.graph_svg` turns it into SVG text."""

    puzzle: Puzzle
    walk: Walk | None = None
    certificate: Certificate | None = None
    emphasis: Emphasis | None = None
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    simplify: bool | None = None  # None: past SIMPLIFY_EDGES edges
    inspect: InspectView | None = None


class Canvas:
    """What the layers of one picture share, and the geometry they ask for."""

    def __init__(self, pic: GraphPicture, scale: float = 1.0) -> None:
        self.pic = pic
        #: how much farther apart than ``U`` the nodes are drawn (a crowded picture grows)
        self.scale = scale
        #: whether a badge or a tag found no clear spot (the picture is drawn bigger)
        self.crowded = False
        #: whether a tag found no spot off every line (the picture is drawn bigger, but
        #: at the largest size a tag over a line is no reason for a note)
        self.tag_on_line = False
        p = self.p = pic.puzzle
        self.simplified = (p.num_edges > SIMPLIFY_EDGES if pic.simplify is None
                           else pic.simplify)
        xy = spec_positions(p)
        self.layout_method = "the spec's layout"
        if xy is None:
            from trailkit.solvers.tools.drawing.layout import node_positions

            array, self.layout_method = node_positions(p)
            xy = [V(float(x), float(y)) for x, y in array]
        self.label_px = [label_px(name) for name in p.nodes]
        self.radius = [max(NODE_R, 0.33 * size * len(name) + 5)
                       for name, size in zip(p.nodes, self.label_px, strict=True)]
        self.xy = self._to_pixels(xy)
        self.paint = palette(list(p.colour_names))
        self.visits = Counter(pic.walk.nodes) if pic.walk and len(pic.walk) else Counter()
        self.rim = [self.radius[v] + RING_GAP * max(0, self.visits[v] - 1)
                    for v in range(p.num_nodes)]
        self.offsets = self._edge_offsets()
        self.legend: list[tuple[str, str]] = []  # (symbol svg, text)
        self.notes = list(pic.notes)
        self.node_fill: dict[int, str] = {}
        self.node_class: dict[int, str] = {}
        self.faded_edges: set[int] = set()
        self._loop_angles: dict[int, float] = {}
        xs, ys = [q.x for q in self.xy] or [0.0], [q.y for q in self.xy] or [0.0]
        margin = 0.7 * U  # inside the frame's padding
        self.room = Occupancy(Box(min(xs) - margin, min(ys) - margin, max(xs) + margin,
                                  max(ys) + margin), active=False)
        #: callouts to place once everything else is drawn: (line, text, attributes)
        self.callouts: list[tuple[list[V], str, dict[str, object]]] = []

    # ------------------------------------------------------------- geometry
    def _to_pixels(self, xy: list[V]) -> list[V]:
        """Scale so neighbours are ``U`` apart (more when long names make nodes bigger),
        flip y, and put the top-left at 0."""
        if not xy:
            return xy
        unit = (U + 2 * (max(self.radius) - NODE_R)) * self.scale
        scale = unit / neighbour_distance(xy, self.p.tail, self.p.head)
        flipped = [V(q.x * scale, -q.y * scale) for q in xy]
        x0, y0 = min(q.x for q in flipped), min(q.y for q in flipped)
        return [V(q.x - x0, q.y - y0) for q in flipped]

    def _edge_offsets(self) -> list[float]:
        """Bend of each edge (pixels at its middle): parallel edges fan out as a bundle
        :data:`BUNDLE_GAP` apart (room for a badge on each), an edge that would pass
        through a node that is not one of its ends bends around it (its whole bundle
        with it), others are straight; self-loops get their rank among the node's loops."""
        p = self.p
        groups: dict[tuple[int, int], list[int]] = defaultdict(list)
        for e, (u, v) in enumerate(zip(p.tail, p.head, strict=True)):
            groups[(min(u, v), max(u, v))].append(e)
        offsets = [0.0] * p.num_edges
        nodes = _NodeGrid(self.xy, self.rim) if p.num_edges <= ROUTED_EDGES else None
        for (u, v), members in groups.items():
            k = len(members)
            spread = [float(i) if u == v else (i - (k - 1) / 2) * BUNDLE_GAP
                      for i in range(k)]
            bend = 0.0 if u == v or nodes is None else self._detour(u, v, spread, nodes)
            for e, off in zip(members, spread, strict=True):
                offsets[e] = off + bend
        return offsets

    def _detour(self, u: int, v: int, spread: list[float], nodes: _NodeGrid) -> float:
        """The smallest extra bend that takes a bundle between ``u`` and ``v`` clear of
        every other node (0 when it is clear already, or when no bend tried is)."""
        (ax, ay), (bx, by) = self.xy[u], self.xy[v]
        span = self.xy[v] - self.xy[u]
        nx, ny = span.unit().normal()
        n = max(16, math.ceil(span.norm() / 8))  # a point every 8 pixels at least
        fractions = [(k / n, 4 * (k / n) * (1 - k / n)) for k in range(1, n)]
        for bend in _DETOURS:
            if all(not nodes.hit([(ax + (bx - ax) * f + nx * (off + bend) * g,
                                   ay + (by - ay) * f + ny * (off + bend) * g)
                                  for f, g in fractions], (u, v)) for off in spread):
                return bend
        return 0.0

    def curve(self, e: int, shift: float = 0.0) -> Curve:
        """Start, control and end point of edge ``e`` drawn from its lower-numbered end,
        bent by its offset plus ``shift`` pixels (a quadratic Bézier)."""
        u, v = self.p.tail[e], self.p.head[e]
        a, b = (u, v) if u <= v else (v, u)
        if a == b:
            return self._loop(e, shift)
        pa, pb = self.xy[a], self.xy[b]
        d = pb - pa
        normal = d.unit().normal()
        bend = self.offsets[e] + shift
        return pa, pa + d / 2 + normal * 2 * bend, pb

    def heading(self, e: int, curve: Curve) -> Curve:
        """``curve`` (edge ``e``'s, drawn from its lower-numbered end) turned to run from
        the edge's tail to its head: a one-way edge's arrowhead points along it."""
        a, c, b = curve
        return (b, c, a) if self.p.tail[e] > self.p.head[e] else curve

    def _loop(self, e: int, shift: float) -> Curve:
        """A self-loop as a quadratic out and back through a point beyond the node."""
        v = self.p.tail[e]
        angle = self.loop_angle(v)
        reach = self.rim[v] + 0.32 * U + self.offsets[e] * 0.14 * U + shift
        spread = 0.55
        c = self.xy[v]
        start = c + V.polar(self.rim[v], angle - spread)
        end = c + V.polar(self.rim[v], angle + spread)
        ctrl = c + V.polar(2 * reach, angle)
        return start, ctrl, end

    def loop_angle(self, v: int) -> float:
        """The direction node ``v``'s self-loops point to (the freest one, computed once)."""
        if v not in self._loop_angles:
            self._loop_angles[v] = self.free_angle(v)
        return self._loop_angles[v]

    def mark_angle(self, v: int) -> float:
        """A free direction for a tag or a mark beside node ``v``, clear of its loops too."""
        return self.free_angle(v, [self._loop_angles[v]] if v in self._loop_angles else [])

    def free_angle(self, v: int, avoid: Sequence[float] = ()) -> float:
        """The direction from node ``v`` farthest from its edges, close neighbours and
        the ``avoid`` directions (ties go upwards)."""
        c = self.xy[v]
        blocked = list(avoid)
        for u, w in zip(self.p.tail, self.p.head, strict=True):
            if u != w and v in (u, w):
                other = self.xy[w if u == v else u]
                blocked.append(math.atan2(other[1] - c[1], other[0] - c[0]))
        if len(self.xy) < 3000:
            for other in self.xy:
                if 0 < (other - c).norm() < 1.6 * U:
                    blocked.append(math.atan2(other[1] - c[1], other[0] - c[0]))
        best, best_score = -math.pi / 2, -1.0
        for i in range(24):
            angle = -math.pi / 2 + i * math.pi / 12
            gap = min((abs((angle - b + math.pi) % (2 * math.pi) - math.pi) for b in blocked),
                      default=math.pi)
            score = gap - 0.02 * min(i, 24 - i)
            if score > best_score + 1e-9:
                best, best_score = angle, score
        return best

    @staticmethod
    def point(curve: Curve, t: float) -> V:
        a, c, b = curve
        return a * ((1 - t) ** 2) + c * (2 * (1 - t) * t) + b * (t ** 2)

    @staticmethod
    def tangent(curve: Curve, t: float) -> V:
        a, c, b = curve
        return ((c - a) * (2 * (1 - t)) + (b - c) * (2 * t)).unit()

    def samples(self, curve: Curve, pieces: int) -> list[V]:
        """``pieces + 1`` points along ``curve``, ends included."""
        return [self.point(curve, k / pieces) for k in range(pieces + 1)]

    def paint_of(self, e: int) -> Paint:
        name = self.p.colour_name(e)
        return NO_COLOUR if name is None else self.paint[name]

    def arrowhead(self, pts: Curve, t: float, colour: str, size: float) -> str:
        """An arrowhead ``size`` pixels long at ``t`` along ``pts``, pointing its way."""
        tip = self.point(pts, t)
        d = self.tangent(pts, t)
        nrm = d.normal()
        base = tip - d * size
        corners = [tip + d * size * 0.35, base + nrm * size * 0.5, base - nrm * size * 0.5]
        self.room.add_disc(*arrow_disc(tip, d, size))
        return el("path", d="M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in corners) + "Z",
                  fill=colour, stroke="#FFFFFF", stroke_width=0.8, class_="arrow")


class _NodeGrid:
    """Node discs (each out to its rim, and a little more) bucketed by cell, to ask
    whether a line's points come near a node other than its ends."""

    def __init__(self, xy: Sequence[V], rim: Sequence[float]) -> None:
        self.xy, self.rim = xy, rim
        self.cell = max(1.0, 2 * max(rim, default=1.0) + 8)
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        for v, q in enumerate(xy):
            self.cells[(math.floor(q.x / self.cell), math.floor(q.y / self.cell))].append(v)

    def hit(self, points: Sequence[tuple[float, float]], ends: tuple[int, int]) -> bool:
        """Whether any of ``points`` lies on a node other than the two ``ends``."""
        size, cells, xy, rim = self.cell, self.cells, self.xy, self.rim
        for x, y in points:
            cx, cy = math.floor(x / size), math.floor(y / size)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for w in cells.get((cx + dx, cy + dy), ()):
                        if w not in ends and math.hypot(x - xy[w].x,
                                                        y - xy[w].y) < rim[w] + 6:
                            return True
        return False


def arrow_disc(tip: V, d: V, size: float) -> tuple[V, float]:
    """The disc an arrowhead ``size`` long with its tip at ``tip``, pointing along the
    unit vector ``d``, covers (what badges and tags keep clear of)."""
    return tip - d * (size * 0.3), size * 0.68


def label_px(name: str) -> float:
    """Font size of a node label: 15 px for up to three characters, smaller for longer
    names but never under 11 px (the node grows to fit instead)."""
    return max(11.0, min(15.0, 2.0 * NODE_R / (0.62 * max(1, len(name)))))


def linecap(paint: Paint) -> str:
    """Round caps for a dotted pattern (its dashes are points), butt caps otherwise."""
    return "round" if paint.dash.startswith("0.01") else "butt"


def path_d(curve: Curve) -> str:
    a, c, b = curve
    return f"M{fmt(a[0])} {fmt(a[1])}Q{fmt(c[0])} {fmt(c[1])} {fmt(b[0])} {fmt(b[1])}"
