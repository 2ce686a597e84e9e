"""The certificate's layers of the node-and-edge picture: why a puzzle is impossible.

A ``disconnected`` certificate shades its two pieces below the edges; ``parity`` and
``endpoints`` ring the odd nodes with their degree, ``imbalance`` and ``alternation``
ring the unbalanced nodes with their surplus, and ``closed-set`` greys the tyres never
stood on and marks, on each reached one, the colours a walker can arrive with.
"""

from __future__ import annotations

import math
from collections import defaultdict

from trailkit.models.answer import Certificate
from trailkit.models.palette import NO_COLOUR
from trailkit.solvers.tools.drawing.geometry import V
from trailkit.solvers.tools.drawing.scene import Canvas, U, path_d
from trailkit.solvers.tools.drawing.svgtext import el, text_el
from trailkit.solvers.tools.drawing.swatches import (
    swatch_blob,
    swatch_grey,
    swatch_phase,
    swatch_ring,
)

__all__ = ["CertificateMarks"]

#: Tints of the pieces of a ``disconnected`` certificate.
_SHADES = ("#56B4E9", "#E69F00", "#CC79A7", "#009E73")


class CertificateMarks(Canvas):
    """The layers that draw a certificate (see the module docstring)."""

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
            bands = [el("path", d=path_d(self.curve(e)), fill="none", stroke_width=0.5 * U,
                        stroke_linecap="round")
                     for e in range(p.num_edges) if p.tail[e] in member]
            out.append(el("g", "".join(blobs + bands), fill=tint, stroke=tint,
                          opacity="0.28", class_="component", data_component=g,
                          data_nodes=" ".join(p.nodes[v] for v in members)))
            for v in members:
                self.node_class[v] = f"component-{g}"
        self.legend.append((swatch_blob(_SHADES[0]), "one piece"))
        self.legend.append((swatch_blob(_SHADES[1]), "the rest: no edge joins them"))
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
        self.legend.append((swatch_ring(), "odd number of edge ends (the number)"))
        return el("g", "".join(out), class_="certificate parity")

    def _numbered_rings(self, cert: Certificate) -> str:
        p = self.p
        values = cert.data.get("nodes", {})
        out = [self._ring(p.node_index(str(n)), f"{int(k):+d}", "imbalanced")
               for n, k in values.items() if str(n) in p.nodes and int(k)]
        what = ("out minus in" if cert.kind == "imbalance"
                else "{} minus {} ends".format(*cert.data.get("colours", ("a", "b"))))
        self.legend.append((swatch_ring(), f"unbalanced node ({what})"))
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
            marks = [self._phase_dot(v, k, len(colours), c) for k, c in enumerate(colours)]
            out.append(el("g", "".join(marks), class_="phases", data_node=p.nodes[v],
                          data_phases=" ".join(colours) or None))
        for e in range(p.num_edges):
            if p.tail[e] not in phases and p.head[e] not in phases:
                self.faded_edges.add(e)
        self.legend.append((swatch_grey(), "never stood on"))
        self.legend.append((swatch_phase(), "can arrive here after a plank of this colour"))
        return el("g", "".join(out), class_="certificate closed-set")

    def _phase_dot(self, v: int, k: int, count: int, colour: str) -> str:
        """The ``k``-th of ``count`` lettered dots on tyre ``v``'s rim, fanned over its
        top, for ``colour``: a walker can arrive there after a plank of that colour (its
        room kept free of labels)."""
        x, y = self.xy[v]
        paint = self.paint.get(colour, NO_COLOUR)
        angle = math.radians(-90 + (k - (count - 1) / 2) * 38)
        r = self.rim[v] + 1
        mx, my = x + r * math.cos(angle), y + r * math.sin(angle)
        self.room.add_disc(V(mx, my), 9.0)
        return el("g", el("circle", cx=mx, cy=my, r=7.5, fill=paint.hex,
                          stroke="#FFFFFF", stroke_width=1.5)
                  + text_el(paint.letter, x=mx, y=my + 3.4, font_size="9.5",
                            font_weight="bold", text_anchor="middle", fill="#FFFFFF"),
                  class_="phase", data_phase=colour)
