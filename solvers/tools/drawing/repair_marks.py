"""The repair's layers of the node-and-edge picture: what the repair changed.

Added and recoloured edges get a halo below them, removed ones a ghost with a cross
(each a ``<g class="repair ..." data-change=add|recolour|remove data-edge=E>``: for an
added or recoloured edge ``E`` is the index of the edge it is drawn on, the one the
answer names, found by :meth:`~trailkit.solvers.tools.drawing.emphasis.Emphasis.place`; for a
removed one, the edge as its change names it), and each change a callout (``added``,
``was blue``, ``removed``, a ``<g class="callout" data-for=added|recoloured|removed>``).
The callouts are placed last, where the
:class:`~trailkit.solvers.tools.drawing.placement.Occupancy` says nothing is drawn: never on
a node, a badge, an arrowhead, a tag or each other.
"""

from __future__ import annotations

from trailkit.models.palette import NO_COLOUR
from trailkit.solvers.tools.drawing.emphasis import EdgeMark
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.geometry import V
from trailkit.solvers.tools.drawing.placement import Label
from trailkit.solvers.tools.drawing.scene import PLANK_W, Canvas, path_d
from trailkit.solvers.tools.drawing.svgtext import el, text_el
from trailkit.solvers.tools.drawing.swatches import swatch_halo

__all__ = ["RepairMarks"]


class RepairMarks(Canvas):
    """The layers that draw a repair (see the module docstring)."""

    def repair_marks(self) -> tuple[str, str]:
        """Halos under added and recoloured edges, and ghosts of removed ones."""
        emph = self.pic.emphasis
        if emph is None or emph.is_empty or self.simplified:
            return "", ""
        if emph.note:
            self.notes.insert(0, emph.note)
        p = self.p
        halos, ghosts = [], []
        for placed in emph.place(p):
            mark, e = placed.mark, placed.edge
            if placed.why:
                self.notes.append(placed.why)
            if placed.change == "remove":
                ghost = self._ghost(mark)
                if ghost:
                    ghosts.append(ghost)
                continue
            if e is None:
                continue
            what = "added" if placed.change == "add" else "recoloured"
            curve = self.curve(e)
            label = ("added" if what == "added"
                     else f"was {mark.old_colour}" if mark.old_colour else "recoloured")
            self.callouts.append((self.samples(curve, 8), label, {
                "data_for": what, "data_edge": e, "data_from": mark.tail,
                "data_to": mark.head}))
            halos.append(el("g", el("path", d=path_d(curve), fill="none", stroke="#F0E442",
                                    stroke_width=PLANK_W * 3.6, stroke_linecap="round")
                            + el("path", d=path_d(curve), fill="none", stroke=INK,
                                 stroke_width=1.4, stroke_dasharray="4 3"),
                            class_=f"repair {what}", data_change=placed.change, data_edge=e,
                            data_from=mark.tail, data_to=mark.head,
                            data_colour=mark.colour, data_label=label))
        self.legend.append((swatch_halo(), "changed by the repair"))
        return el("g", "".join(halos), class_="repairs"), el("g", "".join(ghosts),
                                                             class_="repairs-removed")

    def _ghost(self, mark: EdgeMark) -> str:
        """A removed edge: a faded line between its ends with a cross, and its callout;
        ``data-edge`` is the edge as its change names it (it is gone from the puzzle
        drawn)."""
        p = self.p
        if mark.tail not in p.nodes or mark.head not in p.nodes:
            return ""
        a = self.xy[p.node_index(mark.tail)]
        b = self.xy[p.node_index(mark.head)]
        paint = self.paint.get(mark.colour or "", NO_COLOUR)
        mx, my = (a + b) / 2
        self.room.add_disc(V(mx, my), 10.0)  # the cross
        self.callouts.append(([a, b], "removed", {
            "data_for": "removed", "data_edge": mark.edge, "data_from": mark.tail,
            "data_to": mark.head}))
        return el("g", el("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], stroke=paint.hex,
                          stroke_width=PLANK_W * 0.6, stroke_dasharray="3 5", opacity="0.6")
                  + text_el("×", x=mx, y=my + 7, font_size="22", font_weight="bold",
                            text_anchor="middle", fill=INK),
                  class_="repair removed", data_change="remove", data_edge=mark.edge,
                  data_from=mark.tail, data_to=mark.head, data_colour=mark.colour,
                  data_label="removed")

    def callouts_layer(self) -> str:
        """The repair's labels, each on a spot where nothing is drawn (placed last, after
        every node, badge, arrowhead and tag is known), with a leader line back to its
        edge when it had to stand off."""
        out = []
        for line, text, attrs in self.callouts:
            w = 8 + 6.8 * len(text)
            spot = self.room.place(Label(w, 18.0), line)
            self.crowded = self.crowded or not spot.clear
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
