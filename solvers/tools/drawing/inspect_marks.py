"""What ``inspect`` found, drawn on the puzzle: critical and costly edges marked.

The inspection itself (``trailkit inspect``) lives in a library of the same layer as
the drawing, so the drawing never imports it: the command line runs the inspection and
hands over plain data, an :class:`InspectView` (edge indices, each ``critical`` or
``costly``, and for a costly edge the shortest walk's length without it), as
:class:`~trailkit.solvers.tools.drawing.emphasis.Emphasis` does for a repair.

Each mark is a halo under its edge, a ``<g class="inspect critical|costly"
data-inspect=critical|costly data-edge=E>`` with ``E`` the edge's index, drawn along
the edge's own curve (:mod:`.inspect_view` holds the data): critical edges in a strong
dark outline (white inside, so the plank's colour stays readable), costly ones in a
reddish-purple halo whose strength grows with how much longer the shortest walk gets
without them, each with a callout (``+15 steps``, a ``<g class="callout"
data-for=costly data-edge=E>``) placed where nothing is drawn. The legend says what each
mark means.

"""

from __future__ import annotations

from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.inspect_view import InspectMark, InspectView
from trailkit.solvers.tools.drawing.scene import PLANK_W, Canvas, path_d
from trailkit.solvers.tools.drawing.svgtext import el

__all__ = ["InspectMark", "InspectMarks", "InspectView"]

#: Inside a critical edge's dark outline (the plank's own colour stays readable on it),
#: and the halo of a costly one (a tint no plank is painted in).
CRITICAL_TINT = "#FFFFFF"
COSTLY_TINT = "#CC79A7"


class InspectMarks(Canvas):
    """The layer that draws an inspection (see the module docstring)."""

    def inspect_marks(self) -> str:
        """Halos under the critical and costly edges, with the costly ones' callouts
        and the legend's entries."""
        view = self.pic.inspect
        if view is None or view.is_empty or self.simplified:
            return ""
        worst = max([view.extra(m) for m in view.marks] + [1])
        halos = []
        for mark in view.marks:
            e = mark.edge
            if not 0 <= e < self.p.num_edges:
                continue
            curve = self.curve(e)
            d = path_d(curve)
            if mark.kind == "critical":
                body = (el("path", d=d, fill="none", stroke=INK, stroke_width=PLANK_W * 4.4,
                           stroke_linecap="round")
                        + el("path", d=d, fill="none", stroke=CRITICAL_TINT,
                             stroke_width=PLANK_W * 2.6, stroke_linecap="round"))
                label = "critical"
            else:
                extra = view.extra(mark)
                strength = 0.3 + 0.7 * extra / worst
                body = el("path", d=d, fill="none", stroke=COSTLY_TINT,
                          stroke_width=PLANK_W * 3.6, stroke_linecap="round",
                          opacity=f"{strength:.2f}")
                label = f"+{extra} steps" if extra else "costly"
                self.callouts.append((self.samples(curve, 8), label, {
                    "data_for": "costly", "data_edge": e}))
            halos.append(el("g", body, class_=f"inspect {mark.kind}",
                            data_inspect=mark.kind, data_edge=e,
                            data_length_without=mark.length_without, data_label=label))
        kinds = {m.kind for m in view.marks}
        if "critical" in kinds:
            self.legend.append((_swatch(CRITICAL_TINT, outline=True),
                                "critical: no walk without it"))
        if "costly" in kinds:
            self.legend.append((_swatch(COSTLY_TINT, outline=False),
                                "costly: the walk is longer without it (darker: longer)"))
        return el("g", "".join(halos), class_="inspections")


def _swatch(tint: str, outline: bool) -> str:
    """The legend's symbol of a mark: its halo, outlined for a critical edge."""
    under = (el("line", x1=2, y1=0, x2=34, y2=0, stroke=INK, stroke_width=14,
                stroke_linecap="round") if outline else "")
    return under + el("line", x1=2, y1=0, x2=34, y2=0, stroke=tint,
                      stroke_width=8 if outline else 12, stroke_linecap="round")
