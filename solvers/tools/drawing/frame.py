"""The frame every picture shares: a title on top, the drawing, notes and a legend below,
and a ``viewBox`` so the SVG scales cleanly to any size."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el, wrap

__all__ = ["FONT", "INK", "framed"]

FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
INK = "#1A1A1A"
_MIN_WIDTH = 560.0


def framed(body: str, box: tuple[float, float, float, float], *, pad: float, title: str,
           notes: Sequence[str], legend: Sequence[tuple[str, str]], footer: str,
           kind: str) -> str:
    """The whole SVG document around ``body``, whose drawing spans ``box`` (x0, y0, x1,
    y1 in pixels). ``legend`` holds (symbol SVG drawn at the origin, text) pairs; they
    flow in rows. ``footer`` is a small line at the bottom right (the layout method)."""
    x_lo, y_lo, x_hi, y_hi = box
    inner = x_hi - x_lo + 2 * pad
    width = max(inner, _MIN_WIDTH)
    x0 = x_lo - pad - (width - inner) / 2
    lines = wrap(title, width - 40, 20)
    top = y_lo - pad - 30 * len(lines) - 10
    parts = [text_el(line, x=x0 + 20, y=top + 28 + 26 * k, font_size="20", font_weight="bold",
                     fill=INK, class_="title") for k, line in enumerate(lines)]
    parts.append(body)
    cursor = y_hi + pad
    for note in notes:
        for line in wrap(note, width - 40, 13):
            parts.append(text_el(line, x=x0 + 20, y=cursor + 14, font_size="13",
                                 fill="#333333", class_="note"))
            cursor += 18
        cursor += 4
    cursor += 8
    legend_svg, cursor = _legend(legend, x0, width, cursor)
    parts.append(legend_svg)
    parts.append(text_el(footer, x=x0 + width - 12, y=cursor + 12, font_size="10",
                         fill="#777777", text_anchor="end", class_="layout-method"))
    height = cursor + 22 - top
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + el("svg", el("title", escape(title))
                 + el("rect", x=x0, y=top, width=width, height=height, fill="#FFFFFF")
                 + "".join(parts),
                 xmlns="http://www.w3.org/2000/svg",
                 viewBox=f"{fmt(x0)} {fmt(top)} {fmt(width)} {fmt(height)}",
                 width=fmt(width), height=fmt(height), font_family=FONT,
                 class_="trailkit-drawing", data_kind=kind, data_layout=footer)
            + "\n")


def _legend(legend: Sequence[tuple[str, str]], x0: float, width: float,
            cursor: float) -> tuple[str, float]:
    """The legend's items flowing in rows from height ``cursor`` across a frame of
    ``width`` starting at ``x0`` (a new row when an item would pass the right edge), and
    the height below them."""
    lx = x0 + 20
    row = []
    for symbol, text in legend:
        w = 46 + 7.0 * len(text) + 22
        if lx + w > x0 + width - 10 and lx > x0 + 20:
            lx = x0 + 20
            cursor += 26
        row.append(el("g", el("g", symbol, transform=f"translate({fmt(lx)},{fmt(cursor + 10)})")
                      + text_el(text, x=lx + 46, y=cursor + 14.5, font_size="13", fill=INK),
                      class_="legend-item", data_text=text))
        lx += w
    if legend:
        cursor += 26
    return el("g", "".join(row), class_="legend"), cursor
