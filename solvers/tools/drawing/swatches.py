"""The legend's symbols of the node-and-edge picture: one small SVG per kind of mark."""

from __future__ import annotations

from trailkit.models.palette import NO_COLOUR, Paint
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.scene import BADGE_R, PLANK_W, WALK_W, linecap
from trailkit.solvers.tools.drawing.svgtext import el, text_el


def swatch_line(paint: Paint) -> str:
    return el("line", x1=0, y1=0, x2=36, y2=0, stroke=paint.hex, stroke_width=PLANK_W,
              stroke_linecap=linecap(paint),
              stroke_dasharray=paint.dasharray(PLANK_W))


def swatch_arrow() -> str:
    return (el("line", x1=0, y1=0, x2=30, y2=0, stroke=NO_COLOUR.hex, stroke_width=4)
            + el("path", d="M38 0L25 -6.5L25 6.5Z", fill=INK, stroke="#FFFFFF",
                 stroke_width=0.8))


def swatch_step() -> str:
    """A step: its line, and its badge with the arrow on its rim."""
    return (el("line", x1=0, y1=0, x2=36, y2=0, stroke=INK, stroke_width=WALK_W)
            + el("circle", cx=12, cy=0, r=BADGE_R, fill="#FFFFFF", stroke=INK, stroke_width=1.6)
            + el("path", d=f"M{12 + BADGE_R + 9} 0L{12 + BADGE_R + 0.6} -5.5"
                           f"L{12 + BADGE_R + 0.6} 5.5Z", fill=INK)
            + text_el("1", x=12, y=4, font_size="11", font_weight="bold", text_anchor="middle"))


def swatch_ring() -> str:
    return el("circle", cx=18, cy=0, r=9, fill="none", stroke="#CC79A7", stroke_width=3.5,
              stroke_dasharray="5 2")


def swatch_blob(tint: str) -> str:
    return el("rect", x=2, y=-8, width=32, height=16, rx=8, fill=tint, opacity="0.35")


def swatch_grey() -> str:
    return el("circle", cx=18, cy=0, r=9, fill="#E3E3E3", stroke=INK, stroke_width=1.5)


def swatch_phase() -> str:
    return (el("circle", cx=18, cy=0, r=7.5, fill="#555555")
            + text_el("C", x=18, y=3.4, font_size="9.5", font_weight="bold",
                      text_anchor="middle", fill="#FFFFFF"))


def swatch_halo() -> str:
    return el("line", x1=2, y1=0, x2=34, y2=0, stroke="#F0E442", stroke_width=12,
              stroke_linecap="round")


def swatch_tag() -> str:
    return (el("rect", x=0, y=-8.5, width=36, height=17, rx=4, fill=INK)
            + text_el("start", x=18, y=4, font_size="10", font_weight="bold",
                      text_anchor="middle", fill="#FFFFFF"))


#: The goal's ring: thicker than a revisit ring, and dashed (a revisit ring is solid).
GOAL_RING_W = 3.4
GOAL_DASH = "7 3.5"


def swatch_goal() -> str:
    return (el("circle", cx=18, cy=0, r=6, fill="#FFFFFF", stroke=INK, stroke_width=1.6)
            + el("circle", cx=18, cy=0, r=10.5, fill="none", stroke=INK,
                 stroke_width=GOAL_RING_W, stroke_dasharray="5 2.6"))


def swatch_revisit() -> str:
    return (el("circle", cx=18, cy=0, r=6, fill="#FFFFFF", stroke=INK, stroke_width=1.6)
            + el("circle", cx=18, cy=0, r=10, fill="none", stroke=INK, stroke_width=1.4))
