"""The puzzle's own layers of the node-and-edge picture: edges, nodes, tags (the walk's
layer is :mod:`~trailkit.solvers.tools.drawing.steps`).

Every edge is a ``<g class="edge" data-edge=INDEX>`` in its colour and dash pattern,
with ``data-from``/``data-to`` (its ends' names), every node a ``<g class="node"
data-node=NAME>`` with its label and one ring per revisit, and ``start``/``goal`` tags
(``<g class="tag" data-tag=TEXT>``) stand where nothing else is. An edge that would pass
through a node other than its ends is bent around it (:mod:`.scene`). A simplified
picture draws one path per colour.
"""

from __future__ import annotations

import math
from collections import defaultdict
from xml.sax.saxutils import escape

from trailkit.models.palette import NO_COLOUR
from trailkit.models.support.words import plural
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.geometry import V
from trailkit.solvers.tools.drawing.placement import Box
from trailkit.solvers.tools.drawing.scene import (
    NODE_R,
    PLANK_ARROW,
    PLANK_ARROW_AT,
    PLANK_W,
    RING_GAP,
    Canvas,
    U,
    linecap,
    path_d,
)
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el
from trailkit.solvers.tools.drawing.swatches import GOAL_DASH, GOAL_RING_W, swatch_goal, swatch_tag

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
                parts.append(self.arrowhead(self.heading(e, curve), PLANK_ARROW_AT, INK,
                                            PLANK_ARROW))
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

    # ------------------------------------------------------------------ tags
    def tags_layer(self) -> str:
        """``start`` and ``goal`` (or ``end``) tags beside their nodes."""
        p = self.p
        if self.simplified and p.num_nodes > 2000:
            return ""
        end_word = "goal" if p.kind in ("colour-walk", "walk") and p.end is not None else "end"
        tags = self._tag_words(end_word)
        out = []
        rings = [v for v, words in tags.items() if any(w in " ".join(words)
                                                       for w in ("goal", "end"))]
        for v in rings:
            self.room.add_disc(self.xy[v], self.rim[v] + 5.0)
        for v, words in tags.items():
            text = " / ".join(words)
            w, h = 8 + 7.2 * len(text), 17.0
            x, y = self._tag_spot(v, w, h)
            out.append(el("g", el("rect", x=x - w / 2, y=y - h / 2, width=w, height=h, rx=4,
                                  fill=INK)
                          + text_el(text, x=x, y=y + 4.3, font_size="12", font_weight="bold",
                                    text_anchor="middle", fill="#FFFFFF"),
                          class_="tag", data_node=p.nodes[v], data_tag=text))
        for v in rings:  # dashed and thicker: never taken for a "stood on again" ring
            x0, y0 = self.xy[v]
            out.append(el("circle", cx=x0, cy=y0, r=self.rim[v] + 3.5, fill="none",
                          stroke=INK, stroke_width=GOAL_RING_W, stroke_dasharray=GOAL_DASH,
                          class_="goal-ring"))
        if "start" in "".join(w for ws in tags.values() for w in ws):
            self.legend.append((swatch_tag(), f"start and {end_word}"))
        if rings:
            self.legend.append((swatch_goal(), f"the {end_word} (dashed ring)"))
        return el("g", "".join(out), class_="tags")

    def _tag_words(self, end_word: str) -> dict[int, list[str]]:
        """Which node gets which tag: the walk's first node ``start`` and its last
        ``end_word`` (one ``start & end`` when they meet), else the puzzle's start and
        end nodes (at most four of each)."""
        p = self.p
        walk = self.pic.walk
        tags: dict[int, list[str]] = defaultdict(list)
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
        return tags

    def _tag_spot(self, v: int, w: float, h: float) -> V:
        """The centre of a ``w`` by ``h`` tag beside node ``v``: the nearest spot, from
        its freest direction round, that covers nothing drawn (a node, a badge, an
        arrowhead or another tag) and crosses no line (an edge or a step); else the
        nearest that covers nothing; the canvas is :attr:`crowded` when none does (the
        picture is then drawn bigger). A tag may stand a little outside the figure (the
        frame grows to hold it)."""
        first = self.mark_angle(v)
        c = self.xy[v]
        b = self.room.bounds
        grown = Box(b.x0 - 0.5 * U, b.y0 - 0.5 * U, b.x1 + 0.5 * U, b.y1 + 0.5 * U)
        near = self.room.nearby(c, self.rim[v] + 60.0 + w + h)
        fallback: Box | None = None
        uncovered: tuple[int, Box] | None = None
        for extra in (0.0, 8.0, 18.0, 30.0, 45.0):
            for k in range(24):
                turn = (k + 1) // 2 * (1 if k % 2 else -1) * math.pi / 12
                angle = first + turn
                dist = (self.rim[v] + 7 + extra
                        + 0.5 * (abs(math.cos(angle)) * w + abs(math.sin(angle)) * h))
                box = Box.around(c + V.polar(dist, angle), w, h)
                fallback = fallback or box
                if not (box.inside(grown) and near.free(box)):
                    continue
                crossed = near.crossings(Box(box.x0 - 3.5, box.y0 - 3.5, box.x1 + 3.5,
                                             box.y1 + 3.5))  # a line's half width clear
                if not crossed:
                    self.room.add_box(box)
                    return box.centre
                if uncovered is None or crossed < uncovered[0]:
                    uncovered = (crossed, box)
        self.tag_on_line = True  # (beside a hub every spot is: the fewest lines crossed)
        if uncovered is None:
            self.crowded = True
        spot = uncovered[1] if uncovered is not None else fallback
        assert spot is not None  # the loop above ran at least once
        self.room.add_box(spot)
        return spot.centre
