"""The walk's layer of the node-and-edge picture: one group per step, each badge where
it can be read.

Every step is a ``<g class="step" data-step=N data-edge=INDEX data-from data-to>``: a
dark line with a white casing along its edge, and a numbered badge ringed in the
plank's colour that carries the step's arrow on its rim (the arrow points the way the
step is walked; no separate arrowhead can cover the number). A badge slides along its
own line to the stretch where it covers nothing and nothing drawn after it covers it:
no node or ring, no other badge, no arrowhead of a one-way plank, and no later step's
line (lines cross at a figure's dense centre, so a badge there would be hidden). When a
step finds no such stretch, the canvas says it is :attr:`crowded`, and
:func:`~trailkit.solvers.tools.drawing.graph.graph_svg` draws the picture again bigger
(the badges keep their size while the figure spreads out).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from trailkit.models.answer import Walk
from trailkit.models.support.words import ordinal, plural
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.geometry import V
from trailkit.solvers.tools.drawing.scene import (
    BADGE_R,
    BADGED_STEPS,
    PLANK_ARROW,
    PLANK_ARROW_AT,
    STEP_FONT,
    WALK_W,
    Canvas,
    Curve,
    arrow_disc,
)
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el
from trailkit.solvers.tools.drawing.swatches import swatch_revisit, swatch_step

__all__ = ["REUSE_GAP", "WalkSteps"]

#: Pixels between the lines of one edge walked more than once.
REUSE_GAP = 16.0
#: Where along its line a badge may stand (fractions of the drawn line), best first
#: around the preferred spot.
_ALONG = tuple(k / 40 for k in range(5, 36))
#: Half the width of a step's line with its casing.
_LINE_HALF = (WALK_W + 2.4) / 2
#: Side of the cells the lines are bucketed in, for the nearness queries.
_CELL = 40.0


class _Plan:
    """One step before it is drawn: its line's curve (walked forward), the stretch
    ``t0``..``t1`` drawn between the rims, and the line's points."""

    __slots__ = ("a", "b", "curve", "e", "i", "j", "n", "points", "t0", "t1")

    def __init__(self, i: int, e: int, a: int, b: int, j: int, n: int) -> None:
        self.i, self.e, self.a, self.b, self.j, self.n = i, e, a, b, j, n
        self.curve: Curve = (V(0, 0), V(0, 0), V(0, 0))
        self.t0 = self.t1 = 0.0
        self.points: list[V] = []


class WalkSteps(Canvas):
    """The walk's layer (see the module docstring)."""

    def walk_layer(self) -> str:
        walk = self.pic.walk
        if walk is None or not len(walk):
            return ""
        self.faded_edges = set(range(self.p.num_edges)) - set(walk.edges)
        every = 1 if len(walk) <= BADGED_STEPS else math.ceil(len(walk) / BADGED_STEPS)
        if self.simplified and every > 1:
            return self._walk_merged(walk, every)
        plans = self._plans(walk)
        spots = self._badge_spots(plans, every)
        out = [self._step(plan, spots.get(plan.i)) for plan in plans]
        if every > 1:
            self.notes.append(f"Every {ordinal(every)} step is numbered "
                              f"({plural(len(walk), 'step')}).")
        self.legend.append((swatch_step(), "step number and direction"))
        if any(c > 1 for c in self.visits.values()):
            self.legend.append((swatch_revisit(), "stood on again (one ring per revisit)"))
        return el("g", "".join(out), class_="walk")

    def _plans(self, walk: Walk) -> list[_Plan]:
        """Each step's line: along its edge, shifted apart when the edge is walked
        again, from rim to rim."""
        uses = Counter(walk.edges)
        seen: Counter[int] = Counter()
        plans = []
        for i, e in enumerate(walk.edges):
            plan = _Plan(i, e, walk.nodes[i], walk.nodes[i + 1], seen[e], uses[e])
            seen[e] += 1
            shift = (plan.j - (plan.n - 1) / 2) * REUSE_GAP
            curve = self.curve(e, shift)
            forward = plan.a == min(self.p.tail[e], self.p.head[e]) or plan.a == plan.b
            plan.curve = curve if forward else (curve[2], curve[1], curve[0])
            if plan.a != plan.b:
                length = (plan.curve[2] - plan.curve[0]).norm() or 1.0
                plan.t0 = min(0.45, (self.rim[plan.a] + 3) / length)
                plan.t1 = max(0.55, 1 - (self.rim[plan.b] + 3) / length)
            else:
                plan.t0, plan.t1 = 0.0, 1.0
            bent = plan.a == plan.b or self.offsets[e] + shift
            pieces = 10 if bent else 1
            plan.points = [self.point(plan.curve, plan.t0 + (plan.t1 - plan.t0) * k / pieces)
                           for k in range(pieces + 1)]
            self.room.add_line(plan.points)
            plans.append(plan)
        return plans

    def _badge_spots(self, plans: Sequence[_Plan], every: int) -> dict[int, float]:
        """Where along its line each numbered step's badge stands (module docstring)."""
        lines = _Grid()
        for plan in plans:
            lines.add(plan.i, plan.points)
        goal = plans[-1].b  # its tag's ring is drawn around its rim
        solid = [(q, self.rim[v] + (5.5 if v == goal else 2.0)) for v, q in enumerate(self.xy)]
        solid += self._plank_arrows()
        taken = _Discs(solid)
        spots: dict[int, float] = {}
        for plan in plans:
            if not (plan.i % every == 0 or plan.i == len(plans) - 1):
                continue
            r = _badge_r(plan.i + 1)
            prefer = 0.35 if plan.n == 1 else 0.2 + 0.6 * plan.j / max(1, plan.n - 1)
            best: tuple[float, float] | None = None
            for f in sorted(_ALONG, key=lambda f: abs(f - prefer)):
                t = plan.t0 + (plan.t1 - plan.t0) * f
                c, tip = self._badge_at(plan, t, r)
                clash = taken.hits(c, r + 1.5) or taken.hits(tip, 4.0)
                later, earlier = lines.near(c, r + 1.3 + _LINE_HALF, plan.i)
                cost = (1000.0 * (clash + later) + 3.0 * earlier + abs(f - prefer))
                if best is None or cost < best[0]:
                    best = (cost, t)
                if cost < 1.0:
                    break
            assert best is not None
            if best[0] >= 1000.0:
                self.crowded = True
            t = best[1]
            spots[plan.i] = t
            c, tip = self._badge_at(plan, t, r)
            taken.add(c, r + 1.5)
            taken.add(tip, 4.0)
        return spots

    def _badge_at(self, plan: _Plan, t: float, r: float) -> tuple[V, V]:
        """A badge's centre at ``t`` along the step, and the middle of its arrow."""
        c = self.point(plan.curve, t)
        return c, c + self.tangent(plan.curve, t) * (r + 4.5)

    def _plank_arrows(self) -> list[tuple[V, float]]:
        """The discs the arrowheads of one-way planks cover (as drawn by ``edges_layer``)."""
        out = []
        for e in range(self.p.num_edges):
            if self.p.is_directed(e):
                curve = self.heading(e, self.curve(e))
                out.append(arrow_disc(self.point(curve, PLANK_ARROW_AT),
                                      self.tangent(curve, PLANK_ARROW_AT), PLANK_ARROW))
        return out

    def _step(self, plan: _Plan, t: float | None) -> str:
        """Step ``plan.i``: casing, line, and the badge with its arrow at ``t`` (without a
        badge, ``t`` is None, an arrowhead on the line)."""
        d = "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in plan.points)
        parts = [el("path", d=d, fill="none", stroke="#FFFFFF", stroke_width=WALK_W + 2.4,
                    stroke_linecap="round", stroke_linejoin="round", class_="casing"),
                 el("path", d=d, fill="none", stroke=INK, stroke_width=WALK_W,
                    stroke_linecap="round", stroke_linejoin="round", class_="line")]
        e = plan.e
        if t is None:
            parts.append(self.arrowhead(plan.curve, plan.t0 + (plan.t1 - plan.t0) * 0.6,
                                        INK, 14.0))
        else:
            parts.append(self._badge(plan, t))
        p = self.p
        return el("g", "".join(parts), class_="step", data_step=plan.i + 1, data_edge=e,
                  data_from=p.nodes[plan.a], data_to=p.nodes[plan.b],
                  data_colour=p.colour_name(e))

    def _badge(self, plan: _Plan, t: float) -> str:
        """The numbered badge at ``t``, its arrow on its rim pointing the way walked."""
        label = str(plan.i + 1)
        r = _badge_r(plan.i + 1)
        c = self.point(plan.curve, t)
        d = self.tangent(plan.curve, t)
        ring = self.paint_of(plan.e).hex if self.p.colour_name(plan.e) is not None else INK
        self.room.add_disc(c, r + 1.3)
        self.room.add_disc(c + d * (r + 4.5), 4.5)
        nrm = d.normal()
        base = c + d * (r + 0.6)
        corners = [c + d * (r + 9.0), base + nrm * 5.5, base - nrm * 5.5]
        arrow = el("path", d="M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in corners) + "Z",
                   fill=INK, stroke="#FFFFFF", stroke_width=0.8, class_="arrow pointer")
        return el("g", el("circle", cx=c.x, cy=c.y, r=r, fill="#FFFFFF", stroke=ring,
                          stroke_width=2.6)
                  + arrow
                  + text_el(label, x=c.x, y=c.y + 4.0, font_size=fmt(STEP_FONT),
                            font_weight="bold",
                            text_anchor="middle", fill=INK), class_="badge")

    def _walk_merged(self, walk: Walk, every: int) -> str:
        """A long walk on a simplified picture: one line through the nodes, an arrowhead
        and a number on every ``every``-th step."""
        pts = [self.xy[v] for v in walk.nodes]
        d = "M" + "L".join(f"{fmt(q.x)} {fmt(q.y)}" for q in pts)
        out = [el("path", d=d, fill="none", stroke="#FFFFFF", stroke_width=WALK_W + 2.4,
                  shape_rendering="optimizeSpeed", class_="casing"),
               el("path", d=d, fill="none", stroke=INK, stroke_width=WALK_W,
                  shape_rendering="optimizeSpeed", class_="line")]
        for i in range(0, len(walk), every):
            seg = (pts[i], (pts[i] + pts[i + 1]) / 2, pts[i + 1])
            bx, by = self.point(seg, 0.5)
            out.append(el("g", self.arrowhead(seg, 0.8, INK, 12.0)
                          + el("circle", cx=bx, cy=by, r=BADGE_R + 4, fill="#FFFFFF",
                               stroke=INK, stroke_width=1.6)
                          + text_el(str(i + 1), x=bx, y=by + 4.0, font_size=fmt(STEP_FONT),
                                    font_weight="bold", text_anchor="middle", fill=INK),
                          class_="badge", data_step=i + 1, data_edge=walk.edges[i]))
        self.notes.append(f"The walk ({plural(len(walk), 'step')}) is drawn as one line; "
                          f"every {ordinal(every)} step is numbered.")
        self.legend.append((swatch_step(), "step number and direction"))
        return el("g", "".join(out), class_="walk merged")


def _badge_r(number: int) -> float:
    """A badge's radius: wider for numbers of three digits or more."""
    return BADGE_R + 2.5 * max(0, len(str(number)) - 2)


class _Discs:
    """Discs already taken, bucketed for nearness queries."""

    def __init__(self, discs: Sequence[tuple[V, float]]) -> None:
        self.cells: dict[tuple[int, int], list[tuple[V, float]]] = {}
        self.biggest = 0.0
        for c, r in discs:
            self.add(c, r)

    def add(self, c: V, r: float) -> None:
        self.biggest = max(self.biggest, r)
        self.cells.setdefault(_cell(c), []).append((c, r))

    def hits(self, c: V, r: float) -> bool:
        reach = math.ceil((r + self.biggest) / _CELL)
        cx, cy = _cell(c)
        return any((c - q).norm() < r + s
                   for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                   for q, s in self.cells.get((cx + dx, cy + dy), ()))


class _Grid:
    """The steps' lines as segments bucketed by cell, for "which lines pass near"."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.segments: list[tuple[int, float, float, float, float]] = []

    def add(self, i: int, points: Sequence[V]) -> None:
        for a, b in pairwise(points):
            s = len(self.segments)
            self.segments.append((i, a.x, a.y, b.x, b.y))
            steps = max(1, math.ceil((b - a).norm() / (_CELL / 2)))
            for cell in {_cell(a + (b - a) * (k / steps)) for k in range(steps + 1)}:
                self.cells.setdefault(cell, []).append(s)

    def near(self, c: V, reach: float, i: int) -> tuple[int, int]:
        """How many later and earlier steps than ``i`` pass within ``reach`` of ``c``."""
        seen: set[int] = set()
        found: set[int] = set()
        cx, cy = _cell(c)
        span = math.ceil(reach / _CELL)
        for dx in range(-span, span + 1):
            for dy in range(-span, span + 1):
                for s in self.cells.get((cx + dx, cy + dy), ()):
                    if s in seen:
                        continue
                    seen.add(s)
                    k, ax, ay, bx, by = self.segments[s]
                    if k != i and k not in found and _distance(c.x, c.y, ax, ay, bx, by) < reach:
                        found.add(k)
        later = sum(k > i for k in found)
        return later, len(found) - later


def _cell(c: V) -> tuple[int, int]:
    return math.floor(c.x / _CELL), math.floor(c.y / _CELL)



def _distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The distance from point p to segment a-b, in plain floats (the hot loop)."""
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    f = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - f * dx, py - ay - f * dy)
