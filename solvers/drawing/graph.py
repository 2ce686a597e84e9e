"""The node-and-edge picture: tyres and planks, one-stroke figures, certificate views.

Layers, bottom to top: component shading, repair halos, edges (each in its colour and
dash pattern), nodes with their labels, certificate marks, the walk (one group per step:
a dark line with a white casing, an arrowhead and a numbered badge), start/goal tags,
the repair's callouts (``added``, ``was blue``, ``removed``), then the title, notes and
legend. Every node is a ``<g class="node" data-node=NAME>``, every edge a ``<g
class="edge" data-edge=INDEX>``, every walk step a ``<g class="step" data-step=N
data-edge=INDEX>`` and every callout a ``<g class="callout" data-for=added|recoloured|
removed>``, so tests and the HTML page find them by meaning, not by position.

Each layer records what it draws in an
:class:`~trailkit.solvers.drawing.placement.Occupancy`; the callouts, placed last, go
where nothing is drawn: never on a node, a badge, an arrowhead, a tag or each other.

Geometry is in pixels with y pointing down; the unit ``U`` is the typical edge length.
A tyre revisited by the walk gets one more ring per revisit (as the tyre puzzle's author
drew it); the walk's lines stop at the outermost ring so no arrowhead hides under a node.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from trailkit.models.answer import Certificate, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.words import ordinal, plural
from trailkit.solvers.drawing.emphasis import EdgeMark, Emphasis
from trailkit.solvers.drawing.frame import INK, framed
from trailkit.solvers.drawing.geometry import V, neighbour_distance, spec_positions
from trailkit.solvers.drawing.palette import NO_COLOUR, Paint, palette
from trailkit.solvers.drawing.placement import Box, Label, Occupancy
from trailkit.solvers.drawing.svgtext import el, fmt, text_el

__all__ = ["SIMPLIFY_EDGES", "GraphPicture", "graph_svg"]

Curve = tuple[V, V, V]  # a quadratic Bézier: start, control, end

U = 100.0  # pixels between neighbouring nodes
NODE_R = 0.22 * U
RING_GAP = 5.0
PLANK_W = 0.085 * U
WALK_W = 3.0
BADGE_R = 10.0
#: Past this many edges the picture is simplified (one path per colour, no node labels).
SIMPLIFY_EDGES = 20_000
#: Past this many walk steps only every k-th step gets a numbered badge.
BADGED_STEPS = 400
_SHADES = ("#56B4E9", "#E69F00", "#CC79A7", "#009E73")


@dataclass
class GraphPicture:
    """What one picture shows; :func:`graph_svg` turns it into SVG text."""

    puzzle: Puzzle
    walk: Walk | None = None
    certificate: Certificate | None = None
    emphasis: Emphasis | None = None
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    simplify: bool | None = None  # None: past SIMPLIFY_EDGES edges


def graph_svg(pic: GraphPicture) -> str:
    """The SVG text of ``pic``."""
    return _Scene(pic).render()


class _Scene:
    """Builds the layers of one picture (see the module docstring)."""

    def __init__(self, pic: GraphPicture) -> None:
        self.pic = pic
        p = self.p = pic.puzzle
        self.simplified = (p.num_edges > SIMPLIFY_EDGES if pic.simplify is None
                           else pic.simplify)
        xy = spec_positions(p)
        self.layout_method = "the spec's layout"
        if xy is None:
            from trailkit.solvers.drawing.layout import node_positions

            array, self.layout_method = node_positions(p)
            xy = [V(float(x), float(y)) for x, y in array]
        self.label_px = [_label_px(name) for name in p.nodes]
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
        unit = U + 2 * (max(self.radius) - NODE_R)
        scale = unit / neighbour_distance(xy, self.p.tail, self.p.head)
        flipped = [V(q.x * scale, -q.y * scale) for q in xy]
        x0, y0 = min(q.x for q in flipped), min(q.y for q in flipped)
        return [V(q.x - x0, q.y - y0) for q in flipped]

    def _edge_offsets(self) -> list[float]:
        """Bend of each edge (pixels at its middle): parallel edges fan out, others are
        straight; self-loops get their rank among the node's loops."""
        p = self.p
        groups: dict[tuple[int, int], list[int]] = defaultdict(list)
        for e, (u, v) in enumerate(zip(p.tail, p.head, strict=True)):
            groups[(min(u, v), max(u, v))].append(e)
        offsets = [0.0] * p.num_edges
        for (u, v), members in groups.items():
            k = len(members)
            for i, e in enumerate(members):
                offsets[e] = float(i) if u == v else (i - (k - 1) / 2) * 0.26 * U
        return offsets

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

    # ---------------------------------------------------------------- layers
    def render(self) -> str:
        """Build the layers (the walk and the certificate first: they decide which edges
        fade and which nodes grey out) and stack them in drawing order."""
        p = self.p
        shading = self.certificate_under()
        halos, ghosts = self.repair_marks()
        self.room.active = bool(self.callouts)  # record what is drawn only to place them
        overlays = self.certificate_over()
        walk_layer = self.walk_layer()
        edges = self.edges_layer()
        nodes = self.nodes_layer()
        tags = self.tags_layer()
        callouts = self.callouts_layer()
        self.legend_colours()
        body = "".join([shading, halos, edges, ghosts, nodes, overlays, walk_layer, tags,
                        callouts])
        return self.frame(body, p)

    def edges_layer(self) -> str:
        p = self.p
        if self.simplified:
            return self._edges_simplified()
        out = []
        walked = set(self.pic.walk.edges) if self.pic.walk is not None else set()
        for e in range(p.num_edges):
            paint = self.paint_of(e)
            curve = self.curve(e)
            if self.room.active:
                self.room.add_line(self.samples(
                    curve, 1 if curve[1] == (curve[0] + curve[2]) / 2 else 8))
            d = _path_d(curve)
            faded = e in self.faded_edges
            width = PLANK_W * (2.0 if e in walked else 1.0)  # the walk's line runs inside
            cls = "edge faded" if faded else "edge"
            u, v = p.nodes[p.tail[e]], p.nodes[p.head[e]]
            arrow = "→" if p.is_directed(e) else "–"
            tip = f"edge {p.edge_id(e)}: {u} {arrow} {v}" + (f", {paint.name}" * bool(paint.name))
            parts = [el("title", escape(tip)),
                     el("path", d=d, fill="none", stroke=paint.hex, stroke_width=width,
                        stroke_linecap=_linecap(paint),
                        stroke_dasharray=paint.dasharray(PLANK_W * (1.3 if e in walked else 1)),
                        class_="plank")]
            if paint.hex == "#F4F4F4":  # a white plank needs an outline to be seen
                parts.insert(1, el("path", d=d, fill="none", stroke="#888",
                                   stroke_width=width + 2))
            if p.is_directed(e):
                parts.append(self._arrowhead(curve, 0.62, paint.hex, 9.0))
            out.append(el("g", "".join(parts), class_=cls, data_edge=e,
                          data_colour=paint.name or None, opacity="0.4" if faded else None))
        return el("g", "".join(out), class_="edges")

    def _edges_simplified(self) -> str:
        """One path per colour: a 100,000-edge picture stays a few megabytes."""
        p = self.p
        by_colour: dict[str, list[str]] = defaultdict(list)
        for e in range(p.num_edges):
            a, b = self.xy[p.tail[e]], self.xy[p.head[e]]
            by_colour[self.paint_of(e).name].append(f"M{fmt(a[0])} {fmt(a[1])}L{fmt(b[0])} "
                                                     f"{fmt(b[1])}")
        out = []
        for name, segments in by_colour.items():
            paint = self.paint[name] if name else NO_COLOUR
            out.append(el("path", d="".join(segments), fill="none", stroke=paint.hex,
                          stroke_width=PLANK_W, stroke_dasharray=paint.dasharray(PLANK_W),
                          stroke_linecap=_linecap(paint), class_="edges-merged",
                          shape_rendering="optimizeSpeed",  # no anti-aliasing: renders faster
                          data_colour=name or None))
        self.notes.append(f"Simplified for its size ({plural(p.num_edges, 'edge')}): edges are "
                          "drawn as one line per colour and nodes as unlabelled dots.")
        return el("g", "".join(out), class_="edges")

    def nodes_layer(self) -> str:
        p = self.p
        if self.simplified:
            dots = "".join(f"M{fmt(x)} {fmt(y)}h0" for x, y in self.xy)
            return el("path", d=dots, stroke=INK, stroke_width=NODE_R * 0.6,
                      stroke_linecap="round", class_="nodes-merged",
                      shape_rendering="optimizeSpeed")
        out = []
        for v, name in enumerate(p.nodes):
            x, y = self.xy[v]
            fill = self.node_fill.get(v, "#FFFFFF")
            parts = []
            for ring in range(1, max(0, self.visits[v] - 1) + 1):
                parts.append(el("circle", cx=x, cy=y, r=self.radius[v] + RING_GAP * ring,
                                fill="none",
                                stroke=INK, stroke_width=1.6, class_="revisit"))
            parts.append(el("circle", cx=x, cy=y, r=self.radius[v], fill=fill, stroke=INK,
                            stroke_width=2.0, class_="tyre"))
            self.room.add_disc(self.xy[v], self.rim[v] + 2.0)  # the outer ring's stroke
            size = self.label_px[v]
            ink = "#FFFFFF" if fill in (INK, "#333333") else (
                "#8C8C8C" if "unreached" in self.node_class.get(v, "") else INK)
            parts.append(text_el(name, x=x, y=y + size * 0.36, font_size=fmt(size),
                                 text_anchor="middle", font_weight="bold", fill=ink,
                                 class_="label"))
            cls = "node " + self.node_class.get(v, "")
            out.append(el("g", "".join(parts), class_=cls.strip(), data_node=name,
                          data_visits=self.visits[v] or None))
        return el("g", "".join(out), class_="nodes")

    # ------------------------------------------------------------------ walk
    def walk_layer(self) -> str:
        walk = self.pic.walk
        if walk is None or not len(walk):
            return ""
        p = self.p
        used = set(walk.edges)
        self.faded_edges = set(range(p.num_edges)) - used
        uses = Counter(walk.edges)
        seen: Counter[int] = Counter()
        every = 1 if len(walk) <= BADGED_STEPS else math.ceil(len(walk) / BADGED_STEPS)
        if self.simplified and every > 1:
            return self._walk_merged(walk, every)
        out = []
        for i, e in enumerate(walk.edges):
            a, b = walk.nodes[i], walk.nodes[i + 1]
            j, n = seen[e], uses[e]
            seen[e] += 1
            shift = (j - (n - 1) / 2) * 11.0
            out.append(self._step(i, e, a, b, shift, j, n, badge=(i % every == 0
                                                                  or i == len(walk) - 1)))
        if every > 1:
            self.notes.append(f"Every {ordinal(every)} step is numbered "
                              f"({plural(len(walk), 'step')}).")
        self.legend.append((_swatch_step(), "step number and direction"))
        if any(c > 1 for c in self.visits.values()):
            self.legend.append((_swatch_revisit(), "stood on again (one ring per revisit)"))
        return el("g", "".join(out), class_="walk")

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
            out.append(el("g", self._arrowhead(seg, 0.8, INK, 12.0)
                          + el("circle", cx=bx, cy=by, r=BADGE_R + 4, fill="#FFFFFF",
                               stroke=INK, stroke_width=1.6)
                          + text_el(str(i + 1), x=bx, y=by + 4.0, font_size="10",
                                    font_weight="bold", text_anchor="middle", fill=INK),
                          class_="badge", data_step=i + 1))
        self.notes.append(f"The walk ({plural(len(walk), 'step')}) is drawn as one line; "
                          f"every {ordinal(every)} step is numbered.")
        self.legend.append((_swatch_step(), "step number and direction"))
        return el("g", "".join(out), class_="walk merged")

    def _step(self, i: int, e: int, a: int, b: int, shift: float, j: int, n: int, *,
              badge: bool) -> str:
        """Step ``i`` along edge ``e`` from ``a`` to ``b``: casing, line, arrowhead, badge."""
        curve = self.curve(e, shift)
        lo = min(self.p.tail[e], self.p.head[e])
        forward = a == lo
        if a == b:  # a loop: its direction is the walk's, drawn as stored
            forward = True
        pts = curve if forward else (curve[2], curve[1], curve[0])
        if a != b:
            length = (pts[2] - pts[0]).norm() or 1.0
            t0 = min(0.45, (self.rim[a] + 3) / length)
            t1 = max(0.55, 1 - (self.rim[b] + 3) / length)
        else:
            t0, t1 = 0.0, 1.0
        pieces = 10 if a == b or self.offsets[e] + shift else 1  # a straight step: 2 points
        samples = [self.point(pts, t0 + (t1 - t0) * k / pieces) for k in range(pieces + 1)]
        d = "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in samples)
        self.room.add_line(samples)
        # badge first along the step, arrowhead after it, spread when the edge is reused
        tb = t0 + (t1 - t0) * (0.3 if n == 1 else 0.2 + 0.45 * j / max(1, n - 1))
        ta = min(t0 + (t1 - t0) * 0.9, tb + (t1 - t0) * 0.58)
        parts = [el("path", d=d, fill="none", stroke="#FFFFFF", stroke_width=WALK_W + 2.4,
                    stroke_linecap="round", stroke_linejoin="round", class_="casing"),
                 el("path", d=d, fill="none", stroke=INK, stroke_width=WALK_W,
                    stroke_linecap="round", stroke_linejoin="round", class_="line"),
                 ]
        if badge:
            bx, by = self.point(pts, tb)
            label = str(i + 1)
            r = BADGE_R + 2.5 * max(0, len(label) - 2)
            ring = self.paint_of(e).hex if self.p.colour_name(e) is not None else INK
            self.room.add_disc(V(bx, by), r + 1.3)
            parts.append(el("g", el("circle", cx=bx, cy=by, r=r, fill="#FFFFFF", stroke=ring,
                                    stroke_width=2.6)
                            + text_el(label, x=bx, y=by + 4.0, font_size="11",
                                      font_weight="bold", text_anchor="middle", fill=INK),
                            class_="badge"))
        parts.append(self._arrowhead(pts, ta, INK, 14.0))  # on top: never under the badge
        colour = self.p.colour_name(e)
        return el("g", "".join(parts), class_="step", data_step=i + 1, data_edge=e,
                  data_from=self.p.nodes[a], data_to=self.p.nodes[b], data_colour=colour)

    def _arrowhead(self, pts: Curve, t: float,
                   colour: str, size: float) -> str:
        tip = self.point(pts, t)
        d = self.tangent(pts, t)
        nrm = d.normal()
        base = tip - d * size
        corners = [tip + d * size * 0.35, base + nrm * size * 0.5, base - nrm * size * 0.5]
        self.room.add_disc(tip - d * (size * 0.3), size * 0.68)
        return el("path", d="M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in corners) + "Z",
                  fill=colour, stroke="#FFFFFF", stroke_width=0.8, class_="arrow")

    # ------------------------------------------------------------------ tags
    def tags_layer(self) -> str:
        """``start`` and ``goal`` (or ``end``) tags beside their nodes."""
        p = self.p
        walk = self.pic.walk
        if self.simplified and p.num_nodes > 2000:
            return ""
        tags: dict[int, list[str]] = defaultdict(list)
        end_word = "goal" if p.kind in ("colour-walk", "walk") and p.end is not None else "end"
        if walk is not None and len(walk):
            tags[walk.nodes[0]].append("start")
            if walk.nodes[-1] == walk.nodes[0]:
                tags[walk.nodes[0]][-1] = "start & end"
            else:
                tags[walk.nodes[-1]].append(end_word)
        else:
            for v in sorted(p.start or ())[:4]:
                tags[v].append("start")
            for v in sorted(p.end or ())[:4]:
                tags[v].append(end_word)
        out = []
        for v, words in tags.items():
            text = " / ".join(words)
            angle = self.mark_angle(v)
            c = self.xy[v]
            w = 8 + 7.2 * len(text)
            h = 17.0
            dist = self.rim[v] + 4 + 0.5 * (abs(math.cos(angle)) * w + abs(math.sin(angle)) * h)
            x, y = c + V.polar(dist, angle)
            self.room.add_box(Box.around(V(x, y), w, h))
            out.append(el("g", el("rect", x=x - w / 2, y=y - h / 2, width=w, height=h, rx=4,
                                  fill=INK)
                          + text_el(text, x=x, y=y + 4.3, font_size="12", font_weight="bold",
                                    text_anchor="middle", fill="#FFFFFF"),
                          class_="tag", data_node=p.nodes[v], data_tag=text))
            if "goal" in text or "end" in text:
                x0, y0 = c
                self.room.add_disc(c, self.rim[v] + 5.0)
                out.append(el("circle", cx=x0, cy=y0, r=self.rim[v] + 3.5, fill="none",
                              stroke=INK, stroke_width=3.0, class_="goal-ring"))
        if "start" in "".join(w for ws in tags.values() for w in ws):
            self.legend.append((_swatch_tag(), f"start and {end_word}"))
        return el("g", "".join(out), class_="tags")

    # ------------------------------------------------------------ certificate
    def certificate_under(self) -> str:
        """Component shading of a ``disconnected`` certificate (drawn below the edges)."""
        cert = self.pic.certificate
        if cert is None or cert.kind != "disconnected" or self.simplified:
            return ""
        p = self.p
        inside = {p.node_index(str(n)) for n in cert.data.get("component", ())
                  if str(n) in p.nodes}
        groups = [sorted(inside), sorted(set(range(p.num_nodes)) - inside)]
        out = []
        for g, members in enumerate(groups):
            tint = _SHADES[g]
            member = set(members)
            blobs = [el("circle", cx=self.xy[v][0], cy=self.xy[v][1], r=0.42 * U)
                     for v in members]
            bands = [el("path", d=_path_d(self.curve(e)), fill="none", stroke_width=0.5 * U,
                        stroke_linecap="round")
                     for e in range(p.num_edges) if p.tail[e] in member]
            out.append(el("g", "".join(blobs + bands), fill=tint, stroke=tint,
                          opacity="0.28", class_="component", data_component=g,
                          data_nodes=" ".join(p.nodes[v] for v in members)))
            for v in members:
                self.node_class[v] = f"component-{g}"
        self.legend.append((_swatch_blob(_SHADES[0]), "one piece"))
        self.legend.append((_swatch_blob(_SHADES[1]), "the rest: no edge joins them"))
        return el("g", "".join(out), class_="shading")

    def certificate_over(self) -> str:
        """Marks of the other certificate kinds, drawn over the nodes."""
        cert = self.pic.certificate
        if cert is None:
            return ""
        self.notes.append(cert.explanation)
        if self.simplified:
            return ""
        kind = cert.kind
        if kind in ("parity", "endpoints"):
            return self._odd_rings(cert)
        if kind in ("imbalance", "alternation"):
            return self._numbered_rings(cert)
        if kind == "closed-set":
            return self._closed_set(cert)
        if kind != "disconnected":
            self.notes.append(f"(A {kind} certificate has no picture; the puzzle is drawn "
                              "as it is.)")
        return ""

    def _ring(self, v: int, label: str, cls: str) -> str:
        x, y = self.xy[v]
        r = self.rim[v] + 6
        angle = self.mark_angle(v)
        lx, ly = x + (r + 11) * math.cos(angle), y + (r + 11) * math.sin(angle)
        self.room.add_disc(self.xy[v], r + 2.0)
        self.room.add_disc(V(lx, ly), 11.0)
        return el("g", el("circle", cx=x, cy=y, r=r, fill="none", stroke="#CC79A7",
                          stroke_width=4, stroke_dasharray="7 3")
                  + el("circle", cx=lx, cy=ly, r=10, fill="#CC79A7")
                  + text_el(label, x=lx, y=ly + 4, font_size="11", font_weight="bold",
                            text_anchor="middle", fill="#FFFFFF"),
                  class_=cls, data_node=self.p.nodes[v], data_value=label)

    def _odd_rings(self, cert: Certificate) -> str:
        p = self.p
        deg = p.degrees()
        names = cert.data.get("nodes") or [p.nodes[v] for v in range(p.num_nodes)
                                           if deg[v] % 2]
        out = [self._ring(p.node_index(str(n)), str(deg[p.node_index(str(n))]), "odd")
               for n in names if str(n) in p.nodes]
        self.legend.append((_swatch_ring(), "odd number of edge ends (the number)"))
        return el("g", "".join(out), class_="certificate parity")

    def _numbered_rings(self, cert: Certificate) -> str:
        p = self.p
        values = cert.data.get("nodes", {})
        out = [self._ring(p.node_index(str(n)), f"{int(k):+d}", "imbalanced")
               for n, k in values.items() if str(n) in p.nodes and int(k)]
        what = ("out minus in" if cert.kind == "imbalance"
                else "{} minus {} ends".format(*cert.data.get("colours", ("a", "b"))))
        self.legend.append((_swatch_ring(), f"unbalanced node ({what})"))
        return el("g", "".join(out), class_=f"certificate {cert.kind}")

    def _closed_set(self, cert: Certificate) -> str:
        """Tyres never stood on are greyed; each reached tyre shows the colours a walker
        can arrive there with (a lettered dot per colour phase)."""
        p = self.p
        phases: dict[int, set[str | None]] = defaultdict(set)
        for state in cert.data.get("states", ()):
            if str(state[0]) in p.nodes:
                phases[p.node_index(str(state[0]))].add(None if state[1] is None
                                                         else str(state[1]))
        order = list(p.colour_names)
        out = []
        for v in range(p.num_nodes):
            if v not in phases:
                self.node_fill[v] = "#E3E3E3"
                self.node_class[v] = "unreached"
                continue
            self.node_class[v] = "reached"
            colours = sorted((c for c in phases[v] if c is not None and c != "*"),
                             key=lambda c: order.index(c) if c in order else len(order))
            x, y = self.xy[v]
            marks = []
            for k, c in enumerate(colours):
                paint = self.paint.get(c, NO_COLOUR)
                angle = math.radians(-90 + (k - (len(colours) - 1) / 2) * 38)
                r = self.rim[v] + 1
                mx, my = x + r * math.cos(angle), y + r * math.sin(angle)
                self.room.add_disc(V(mx, my), 9.0)
                marks.append(el("g", el("circle", cx=mx, cy=my, r=7.5, fill=paint.hex,
                                        stroke="#FFFFFF", stroke_width=1.5)
                                 + text_el(paint.letter, x=mx, y=my + 3.4, font_size="9.5",
                                           font_weight="bold", text_anchor="middle",
                                           fill="#FFFFFF"),
                                 class_="phase", data_phase=c))
            out.append(el("g", "".join(marks), class_="phases", data_node=p.nodes[v],
                          data_phases=" ".join(colours) or None))
        for e in range(p.num_edges):
            if p.tail[e] not in phases and p.head[e] not in phases:
                self.faded_edges.add(e)
        self.legend.append((_swatch_grey(), "never stood on"))
        self.legend.append((_swatch_phase(), "can arrive here after a plank of this colour"))
        return el("g", "".join(out), class_="certificate closed-set")

    # ---------------------------------------------------------------- repairs
    def repair_marks(self) -> tuple[str, str]:
        """Halos under added and recoloured edges, and ghosts of removed ones."""
        emph = self.pic.emphasis
        if emph is None or emph.is_empty or self.simplified:
            return "", ""
        if emph.note:
            self.notes.insert(0, emph.note)
        p = self.p
        taken: set[int] = set()
        halos, ghosts = [], []
        for mark, what in [*((m, "added") for m in emph.added),
                           *((m, "recoloured") for m in emph.recoloured)]:
            e = self._find_edge(mark, taken)
            if e is None:
                self.notes.append(f"(The {what} edge {mark.tail}–{mark.head} is not in this "
                                  "puzzle.)")
                continue
            taken.add(e)
            curve = self.curve(e)
            label = ("added" if what == "added"
                     else f"was {mark.old_colour}" if mark.old_colour else "recoloured")
            self.callouts.append((self.samples(curve, 8), label, {
                "data_for": what, "data_edge": e, "data_from": mark.tail,
                "data_to": mark.head}))
            halos.append(el("g", el("path", d=_path_d(curve), fill="none", stroke="#F0E442",
                                    stroke_width=PLANK_W * 3.6, stroke_linecap="round")
                            + el("path", d=_path_d(curve), fill="none", stroke=INK,
                                 stroke_width=1.4, stroke_dasharray="4 3"),
                            class_=f"repair {what}", data_edge=e,
                            data_from=mark.tail, data_to=mark.head,
                            data_colour=mark.colour, data_label=label))
        for mark in emph.removed:
            if mark.tail not in p.nodes or mark.head not in p.nodes:
                continue
            a = self.xy[p.node_index(mark.tail)]
            b = self.xy[p.node_index(mark.head)]
            paint = self.paint.get(mark.colour or "", NO_COLOUR)
            mx, my = (a + b) / 2
            self.room.add_disc(V(mx, my), 10.0)  # the cross
            self.callouts.append(([a, b], "removed", {
                "data_for": "removed", "data_from": mark.tail, "data_to": mark.head}))
            ghosts.append(el("g", el("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1],
                                     stroke=paint.hex, stroke_width=PLANK_W * 0.6,
                                     stroke_dasharray="3 5", opacity="0.6")
                             + text_el("×", x=mx, y=my + 7, font_size="22", font_weight="bold",
                                       text_anchor="middle", fill=INK),
                             class_="repair removed", data_from=mark.tail, data_to=mark.head,
                             data_colour=mark.colour, data_label="removed"))
        self.legend.append((_swatch_halo(), "changed by the repair"))
        return el("g", "".join(halos), class_="repairs"), el("g", "".join(ghosts),
                                                             class_="repairs-removed")

    def _find_edge(self, mark: EdgeMark, taken: set[int]) -> int | None:
        p = self.p
        for e in range(p.num_edges):
            if e not in taken and mark.matches(p.nodes[p.tail[e]], p.nodes[p.head[e]],
                                               p.colour_name(e)):
                return e
        return None

    def callouts_layer(self) -> str:
        """The repair's labels, each on a spot where nothing is drawn (placed last, after
        every node, badge, arrowhead and tag is known), with a leader line back to its
        edge when it had to stand off."""
        out = []
        for line, text, attrs in self.callouts:
            w = 8 + 6.8 * len(text)
            spot = self.room.place(Label(w, 18.0), line)
            box = spot.box
            x, y = box.centre
            parts = []
            if spot.leader:
                end = box.nearest(spot.anchor)
                parts.append(el("line", x1=spot.anchor.x, y1=spot.anchor.y, x2=end.x, y2=end.y,
                                stroke=INK, stroke_width=1.2, class_="leader"))
            parts.append(el("rect", x=box.x0, y=box.y0, width=w, height=18, rx=9,
                            fill="#F0E442", stroke=INK, stroke_width=1.2))
            parts.append(text_el(text, x=x, y=y + 4, font_size="11.5", font_weight="bold",
                                 text_anchor="middle", fill=INK, class_="callout-text"))
            out.append(el("g", "".join(parts), class_="callout", **attrs))
        return el("g", "".join(out), class_="callouts") if out else ""

    # ------------------------------------------------------------------ frame
    def legend_colours(self) -> None:
        p = self.p
        used = {p.colour_name(e) for e in range(p.num_edges)} - {None}
        items = []
        for name in p.colour_names:
            if name in used:
                paint = self.paint[name]
                items.append((_swatch_line(paint), f"{name} ({paint.letter})"))
        if p.any_directed:
            items.append((_swatch_arrow(), "one-way edge"))
        self.legend[:0] = items

    def frame(self, body: str, p: Puzzle) -> str:
        """Title on top, the drawing, notes and legend below (see :func:`framed`)."""
        xs, ys = [q.x for q in self.xy] or [0.0], [q.y for q in self.xy] or [0.0]
        return framed(body, (min(xs), min(ys), max(xs), max(ys)),
                      pad=0.75 * U, title=self.pic.title or p.name or "puzzle",
                      notes=self.notes, legend=self.legend,
                      footer=f"layout: {self.layout_method}", kind=p.kind)


# ----------------------------------------------------------------- helpers
def _label_px(name: str) -> float:
    """Font size of a node label: 15 px for up to three characters, smaller for longer
    names but never under 11 px (the node grows to fit instead)."""
    return max(11.0, min(15.0, 2.0 * NODE_R / (0.62 * max(1, len(name)))))


def _linecap(paint: Paint) -> str:
    """Round caps for a dotted pattern (its dashes are points), butt caps otherwise."""
    return "round" if paint.dash.startswith("0.01") else "butt"


def _path_d(curve: Curve) -> str:
    a, c, b = curve
    return f"M{fmt(a[0])} {fmt(a[1])}Q{fmt(c[0])} {fmt(c[1])} {fmt(b[0])} {fmt(b[1])}"


def _swatch_line(paint: Paint) -> str:
    return el("line", x1=0, y1=0, x2=36, y2=0, stroke=paint.hex, stroke_width=PLANK_W,
              stroke_linecap=_linecap(paint),
              stroke_dasharray=paint.dasharray(PLANK_W))


def _swatch_arrow() -> str:
    return (el("line", x1=0, y1=0, x2=30, y2=0, stroke=NO_COLOUR.hex, stroke_width=4)
            + el("path", d="M36 0L26 -6L26 6Z", fill=NO_COLOUR.hex))


def _swatch_step() -> str:
    return (el("line", x1=0, y1=0, x2=36, y2=0, stroke=INK, stroke_width=WALK_W)
            + el("path", d="M38 0L28 -6L28 6Z", fill=INK)
            + el("circle", cx=12, cy=0, r=BADGE_R, fill="#FFFFFF", stroke=INK, stroke_width=1.6)
            + text_el("1", x=12, y=4, font_size="11", font_weight="bold", text_anchor="middle"))


def _swatch_ring() -> str:
    return el("circle", cx=18, cy=0, r=9, fill="none", stroke="#CC79A7", stroke_width=3.5,
              stroke_dasharray="5 2")


def _swatch_blob(tint: str) -> str:
    return el("rect", x=2, y=-8, width=32, height=16, rx=8, fill=tint, opacity="0.35")


def _swatch_grey() -> str:
    return el("circle", cx=18, cy=0, r=9, fill="#E3E3E3", stroke=INK, stroke_width=1.5)


def _swatch_phase() -> str:
    return (el("circle", cx=18, cy=0, r=7.5, fill="#555555")
            + text_el("C", x=18, y=3.4, font_size="9.5", font_weight="bold",
                      text_anchor="middle", fill="#FFFFFF"))


def _swatch_halo() -> str:
    return el("line", x1=2, y1=0, x2=34, y2=0, stroke="#F0E442", stroke_width=12,
              stroke_linecap="round")


def _swatch_tag() -> str:
    return (el("rect", x=0, y=-8.5, width=36, height=17, rx=4, fill=INK)
            + text_el("start", x=18, y=4, font_size="10", font_weight="bold",
                      text_anchor="middle", fill="#FFFFFF"))


def _swatch_revisit() -> str:
    return (el("circle", cx=18, cy=0, r=6, fill="#FFFFFF", stroke=INK, stroke_width=1.6)
            + el("circle", cx=18, cy=0, r=10, fill="none", stroke=INK, stroke_width=1.4))
