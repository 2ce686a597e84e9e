"""The puzzle's own layers of the node-and-edge picture: edges, nodes, the walk, tags.

Every edge is a ``<g class="edge" data-edge=INDEX>`` in its colour and dash pattern,
every node a ``<g class="node" data-node=NAME>`` with its label and one ring per
revisit, every walk step a ``<g class="step" data-step=N data-edge=INDEX>`` (a dark
line with a white casing, an arrowhead and a numbered badge), and ``start``/``goal``
tags stand where nothing else is. A simplified picture draws one path per colour.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from xml.sax.saxutils import escape

from trailkit.models.answer import Walk
from trailkit.models.palette import NO_COLOUR
from trailkit.models.support.words import ordinal, plural
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.geometry import V
from trailkit.solvers.tools.drawing.placement import Box
from trailkit.solvers.tools.drawing.scene import (
    BADGE_R,
    BADGED_STEPS,
    NODE_R,
    PLANK_W,
    RING_GAP,
    WALK_W,
    Canvas,
    linecap,
    path_d,
)
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el
from trailkit.solvers.tools.drawing.swatches import swatch_revisit, swatch_step, swatch_tag

__all__ = ["FigureLayers"]


class FigureLayers(Canvas):
    """The layers that draw the puzzle and its walk (see the module docstring)."""

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
            d = path_d(curve)
            faded = e in self.faded_edges
            width = PLANK_W * (2.0 if e in walked else 1.0)  # the walk's line runs inside
            cls = "edge faded" if faded else "edge"
            u, v = p.nodes[p.tail[e]], p.nodes[p.head[e]]
            arrow = "→" if p.is_directed(e) else "–"
            tip = f"edge {p.edge_id(e)}: {u} {arrow} {v}" + (f", {paint.name}" * bool(paint.name))
            parts = [el("title", escape(tip)),
                     el("path", d=d, fill="none", stroke=paint.hex, stroke_width=width,
                        stroke_linecap=linecap(paint),
                        stroke_dasharray=paint.dasharray(PLANK_W * (1.3 if e in walked else 1)),
                        class_="plank")]
            if paint.hex == "#F4F4F4":  # a white plank needs an outline to be seen
                parts.insert(1, el("path", d=d, fill="none", stroke="#888",
                                   stroke_width=width + 2))
            if p.is_directed(e):
                parts.append(self.arrowhead(curve, 0.62, paint.hex, 9.0))
            out.append(el("g", "".join(parts), class_=cls, data_edge=e, data_from=u,
                          data_to=v, data_colour=paint.name or None,
                          opacity="0.4" if faded else None))
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
                          stroke_linecap=linecap(paint), class_="edges-merged",
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
        self.legend.append((swatch_step(), "step number and direction"))
        if any(c > 1 for c in self.visits.values()):
            self.legend.append((swatch_revisit(), "stood on again (one ring per revisit)"))
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
            out.append(el("g", self.arrowhead(seg, 0.8, INK, 12.0)
                          + el("circle", cx=bx, cy=by, r=BADGE_R + 4, fill="#FFFFFF",
                               stroke=INK, stroke_width=1.6)
                          + text_el(str(i + 1), x=bx, y=by + 4.0, font_size="10",
                                    font_weight="bold", text_anchor="middle", fill=INK),
                          class_="badge", data_step=i + 1, data_edge=walk.edges[i]))
        self.notes.append(f"The walk ({plural(len(walk), 'step')}) is drawn as one line; "
                          f"every {ordinal(every)} step is numbered.")
        self.legend.append((swatch_step(), "step number and direction"))
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
        parts.append(self.arrowhead(pts, ta, INK, 14.0))  # on top: never under the badge
        colour = self.p.colour_name(e)
        return el("g", "".join(parts), class_="step", data_step=i + 1, data_edge=e,
                  data_from=self.p.nodes[a], data_to=self.p.nodes[b], data_colour=colour)

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
            dist = self.rim[v] + 7 + 0.5 * (abs(math.cos(angle)) * w + abs(math.sin(angle)) * h)
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
            self.legend.append((swatch_tag(), f"start and {end_word}"))
        return el("g", "".join(out), class_="tags")
