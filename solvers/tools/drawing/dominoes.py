"""Domino chains drawn as what they are: tiles with pips, laid in a ring or a line.

A solved ring is laid around a circle in the walk's order, each tile a chord of the
circle with its pips facing as placed (the right half of one tile matches the left half
of the next); a double is laid across the ring, as players do. An open chain (and a ring
too long for a circle, over :data:`RING_TILES` tiles) is laid in rows, read left to
right like text. Without a walk the set is shown as given. Pips 0 to 9 are drawn as dots
in the usual patterns; any other value (10, or a name) as its text.

Each laid tile is a ``<g class="step domino" data-step=N data-edge=INDEX>``, so the HTML
page steps through a ring exactly as through a walk.
"""

from __future__ import annotations

import math

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.frame import INK, framed
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el

__all__ = ["RING_TILES", "domino_svg"]

S = 36.0  # side of a half tile
GAP = 8.0
ROW_TILES = 8
#: Rings with more tiles than this are laid in rows (a circle would be too big to read).
RING_TILES = 60
#: Pip centres for 0..9 on a 3x3 grid (-1, 0, 1 in x and y).
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (), 1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    7: ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)),
    8: ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    9: tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)),
}


def domino_svg(puzzle: Puzzle, walk: Walk | None, *, title: str | None = None,
               notes: list[str] | None = None) -> str:
    """The tiles of ``puzzle``: laid as ``walk`` says, or the set as given."""
    notes = list(notes or [])
    names = puzzle.nodes
    if walk is not None and len(walk):
        tiles = [(names[walk.nodes[i]], names[walk.nodes[i + 1]], e)
                 for i, e in enumerate(walk.edges)]
        ring = puzzle.closed and len(tiles) <= RING_TILES and len(tiles) >= 3
        if puzzle.closed and not ring:
            notes.append("The ring is laid in rows: the last tile joins the first.")
        body, box = _ring(tiles) if ring else _rows(tiles, across=True, numbered=True)
        legend = [(_legend_double(), "a double is laid across")]
    else:
        tiles = [(names[puzzle.tail[e]], names[puzzle.head[e]], e)
                 for e in range(puzzle.num_edges)]
        body, box = _rows(tiles, across=False, numbered=False)
        legend = []
        if not tiles:
            notes.append("No dominoes.")
    return framed(body, box, pad=28.0, title=title or puzzle.name or "dominoes", notes=notes,
                  legend=legend, footer="tiles: ring" if "ring" in body[:60] else
                  "tiles: rows", kind=puzzle.kind)


def _tile(left: str, right: str, *, across: bool) -> str:
    """One tile centred at the origin, lying along x (``across``: along y)."""
    half = []
    for k, value in enumerate((left, right)):
        cx = (k - 0.5) * S
        half.append(_face(value, cx))
    body = (el("rect", x=-S + 1, y=-S / 2 + 1, width=2 * S - 2, height=S - 2, rx=5,
               fill="#FFFFFF", stroke=INK, stroke_width=2)
            + el("line", x1=0, y1=-S / 2 + 6, x2=0, y2=S / 2 - 6, stroke=INK,
                 stroke_width=1.4) + "".join(half))
    return el("g", body, transform="rotate(90)") if across else body


def _face(value: str, cx: float) -> str:
    """The pips of one half (dots for 0..9, else the value as text)."""
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number in _PIPS and str(number) == value:
        g = S * 0.27
        return "".join(el("circle", cx=cx + x * g, cy=y * g, r=S * 0.085, fill=INK)
                       for x, y in _PIPS[number])
    size = min(15.0, S * 1.5 / max(1, len(value)))
    return text_el(value, x=cx, y=size * 0.36, font_size=fmt(size), font_weight="bold",
                   text_anchor="middle", fill=INK)


def _laid(i: int, tile: tuple[str, str, int], x: float, y: float, angle: float, *,
          across: bool, number: tuple[float, float] | None) -> str:
    left, right, e = tile
    double = left == right
    inner = _tile(left, right, across=across and double)
    parts = [el("g", inner, transform=f"translate({fmt(x)},{fmt(y)}) rotate({fmt(angle)})")]
    if number is not None:
        parts.append(text_el(str(i + 1), x=number[0], y=number[1] + 4, font_size="11",
                             text_anchor="middle", fill="#555555", class_="step-number"))
    cls = "step domino" if number is not None else "domino"
    return el("g", "".join(parts), class_=cls, data_step=(i + 1) if number else None,
              data_edge=e, data_pips=f"{left}|{right}", data_double="yes" if double else None)


def _ring(tiles: list[tuple[str, str, int]]) -> tuple[str, tuple[float, float, float, float]]:
    """Tiles as chords of a circle, clockwise from the top, doubles across."""
    n = len(tiles)
    extra = S * math.tan(math.pi / n)  # room so the outer corners of neighbours do not meet
    lengths = [(S if a == b else 2 * S) + GAP + extra for a, b, _ in tiles]
    lo, hi = max(lengths) / 2, sum(lengths)
    for _ in range(60):  # the radius at which the chords close the circle
        r = (lo + hi) / 2
        total = sum(2 * math.asin(min(1.0, length / (2 * r))) for length in lengths)
        lo, hi = (r, hi) if total > 2 * math.pi else (lo, r)
    r = hi
    out = ['<g class="ring">']
    at = -math.pi / 2
    for i, (tile, length) in enumerate(zip(tiles, lengths, strict=True)):
        sweep = 2 * math.asin(min(1.0, length / (2 * r)))
        mid = at + sweep / 2
        dist = r * math.cos(sweep / 2)
        x, y = dist * math.cos(mid), dist * math.sin(mid)
        inside = dist - S * (1.0 if tile[0] == tile[1] else 0.5) - 12
        out.append(_laid(i, tile, x, y, math.degrees(mid) + 90, across=True,
                         number=(inside * math.cos(mid), inside * math.sin(mid))))
        at += sweep
    out.append("</g>")
    reach = r + S
    return "".join(out), (-reach, -reach, reach, reach)


def _rows(tiles: list[tuple[str, str, int]], *, across: bool, numbered: bool
          ) -> tuple[str, tuple[float, float, float, float]]:
    """Tiles in rows of up to :data:`ROW_TILES`, left to right, top to bottom."""
    out = ['<g class="rows">']
    x = y = 0.0
    width = 0.0
    row_h = S * 2 + 22
    for i, tile in enumerate(tiles):
        if i and i % ROW_TILES == 0:
            x, y = 0.0, y + row_h
        double = tile[0] == tile[1] and across
        w = S if double else 2 * S
        out.append(_laid(i, tile, x + w / 2, y, 0.0, across=across,
                         number=(x + w / 2, y + S + 12) if numbered else None))
        x += w + GAP + 6
        width = max(width, x)
    out.append("</g>")
    return "".join(out), (0.0, -S, max(width, 2 * S), y + S + 18)


def _legend_double() -> str:
    return el("g", _tile("3", "3", across=True),
              transform="translate(18,0) scale(0.45)")
