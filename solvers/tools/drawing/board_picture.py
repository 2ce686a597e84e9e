"""A puzzle on a board drawn as a board: cells, light and dark, not circles.

A spec's ``board:`` (CONTRACT 1.4 §7) leaves ``meta["board"] = {"cols", "rows",
"moves"}`` and names its cells as on a chess board (``a1`` bottom left). Such a puzzle
is drawn as a knight's-tour diagram: the cells in two shades, their columns lettered
below and rows numbered on the left; a walk's positions written in its cells (1 the
start, a cell held twice shows both numbers), the givens (``at:``) in bold, the moves
as thin lines between cell centres under the numbers; cells in ``avoid:`` are holes
(white, outlined in dashes), cells in ``via:`` ringed. The puzzle alone shows the
givens, holes and rings, not the moves: every move of a knight drawn at once is a
thicket that hides the board.

The parts are marked for reading back (``tests/picture_check.py``): the board is a
``<g class="board" data-cols data-rows data-cell>``, each cell a ``<g class="cell
light|dark|hole" data-node=NAME data-col data-row>`` (0-based, row 0 at the bottom),
each position a ``<text class="position" data-node data-position=K>`` (``data-given
="yes"`` for a given), each move a ``<g class="step" data-step=N data-edge=E data-from
data-to>`` holding its ``line`` (no badge: the position it reaches is written in its
cell), so the HTML page steps through a tour as through any walk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec.board import column_name, column_number
from trailkit.solvers.tools.drawing.frame import INK, framed
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el

__all__ = ["BoardShape", "board_of", "board_svg"]

LIGHT = "#F2E6CE"
DARK = "#C9A87C"
HOLE_EDGE = "#9A9A9A"
VIA = "#0072B2"
_CELL = re.compile(r"([a-z]+)([1-9][0-9]*)")


@dataclass(frozen=True)
class BoardShape:
    """The board a puzzle stands on: its size, its moves, each node's (column, row)."""

    cols: int
    rows: int
    moves: str
    cells: tuple[tuple[int, int], ...]  # by node index

    @property
    def side(self) -> float:
        """A cell's side in pixels: big enough for three digits, the board at most about
        760 pixels across until the cells reach 28."""
        return max(28.0, min(56.0, 760.0 / max(self.cols, self.rows)))


def board_of(puzzle: Puzzle) -> BoardShape | None:
    """The board ``puzzle`` stands on, or ``None``: no ``board:``, or a node that is no
    cell of it (an edge list that added one is drawn as a graph)."""
    meta = puzzle.meta.get("board")
    if not isinstance(meta, Mapping):
        return None
    cols, rows, moves = meta.get("cols"), meta.get("rows"), meta.get("moves")
    if not isinstance(cols, int) or not isinstance(rows, int) or cols < 1 or rows < 1:
        return None
    cells = []
    for name in puzzle.nodes:
        match = _CELL.fullmatch(name)
        if match is None:
            return None
        col, row = column_number(match.group(1)), int(match.group(2)) - 1
        if not (0 <= col < cols and row < rows):
            return None
        cells.append((col, row))
    if len(set(cells)) != len(cells):
        return None
    return BoardShape(cols, rows, str(moves), tuple(cells))


def board_svg(puzzle: Puzzle, shape: BoardShape, walk: Walk | None, *,
              title: str | None = None, notes: list[str] | None = None) -> str:
    """The SVG text of ``puzzle`` on its board, with ``walk``'s positions and moves."""
    s = shape.side
    held = _positions(puzzle, walk)
    body = [_cells(puzzle, shape, held), _coordinates(shape)]
    if walk is not None and len(walk):
        body.append(_moves(puzzle, shape, walk))
    body.append(_numbers(puzzle, shape, held, walk))
    box = (-0.9 * s, 0.0, shape.cols * s, shape.rows * s + 0.7 * s)
    return framed(el("g", "".join(body), class_="board", data_cols=shape.cols,
                     data_rows=shape.rows, data_cell=fmt(s)),
                  box, pad=24.0, title=title or puzzle.name or "board",
                  notes=list(notes or []), legend=_legend(puzzle, walk),
                  footer=f"board: {shape.cols} × {shape.rows}, {shape.moves} moves",
                  kind=puzzle.kind)


def centre(shape: BoardShape, col: int, row: int) -> tuple[float, float]:
    """The pixel centre of a cell (y down: row 0 is the bottom row)."""
    s = shape.side
    return (col + 0.5) * s, (shape.rows - row - 0.5) * s


def _positions(puzzle: Puzzle, walk: Walk | None) -> dict[int, list[int]]:
    """The positions each node holds: the walk's (a closed walk's return to its start is
    no new position), or without one the givens."""
    if walk is None:
        return {v: [k] for v, k in puzzle.at.items()}
    nodes = walk.nodes
    if puzzle.closed and len(nodes) > 1:
        nodes = nodes[:-1]
    out: dict[int, list[int]] = {}
    for k, v in enumerate(nodes, start=1):
        out.setdefault(v, []).append(k)
    return out


def _cells(puzzle: Puzzle, shape: BoardShape, held: Mapping[int, list[int]]) -> str:
    s = shape.side
    out = []
    for v, (col, row) in enumerate(shape.cells):
        x, y = col * s, (shape.rows - row - 1) * s
        hole = v in puzzle.avoid
        shade = "hole" if hole else "dark" if (col + row) % 2 == 0 else "light"
        rect = (el("rect", x=x + 3, y=y + 3, width=s - 6, height=s - 6, fill="#FFFFFF",
                   stroke=HOLE_EDGE, stroke_width=1.2, stroke_dasharray="4 3") if hole else
                el("rect", x=x, y=y, width=s, height=s,
                   fill=DARK if shade == "dark" else LIGHT))
        ring = (el("circle", cx=x + s / 2, cy=y + s / 2, r=0.42 * s, fill="none", stroke=VIA,
                   stroke_width=2.2, class_="via")
                if v in puzzle.via and not held.get(v) else "")
        out.append(el("g", rect + ring, class_=f"cell {shade}", data_node=puzzle.nodes[v],
                      data_col=col, data_row=row))
    return el("g", "".join(out), class_="cells")


def _coordinates(shape: BoardShape) -> str:
    """Column letters under the board, row numbers on its left, as on a chess diagram."""
    s = shape.side
    size = min(13.0, 0.32 * s)
    out = [text_el(column_name(col), x=(col + 0.5) * s, y=shape.rows * s + 0.3 * s + size * 0.7,
                   font_size=fmt(size), text_anchor="middle", fill="#555555",
                   class_="coordinate") for col in range(shape.cols)]
    out += [text_el(str(row + 1), x=-0.3 * s, y=(shape.rows - row - 0.5) * s + size * 0.36,
                    font_size=fmt(size), text_anchor="end", fill="#555555",
                    class_="coordinate") for row in range(shape.rows)]
    return el("g", "".join(out), class_="coordinates")


def _moves(puzzle: Puzzle, shape: BoardShape, walk: Walk) -> str:
    """One step group per move: a line between the two cells' centres."""
    width = max(1.4, 0.05 * shape.side)
    out = []
    nodes = walk.nodes
    for i, e in enumerate(walk.edges):
        a, b = nodes[i], nodes[i + 1]
        (x1, y1), (x2, y2) = centre(shape, *shape.cells[a]), centre(shape, *shape.cells[b])
        line = el("path", d=f"M{fmt(x1)} {fmt(y1)}L{fmt(x2)} {fmt(y2)}", class_="line",
                  fill="none", stroke=INK, stroke_width=fmt(width), stroke_linecap="round")
        out.append(el("g", line, class_="step", data_step=i + 1, data_edge=e,
                      data_from=puzzle.nodes[a], data_to=puzzle.nodes[b]))
    return el("g", "".join(out), class_="moves")


def _numbers(puzzle: Puzzle, shape: BoardShape, held: Mapping[int, list[int]],
             walk: Walk | None) -> str:
    """Each cell's positions on a disc of the cell's own shade (the moves' lines stop at
    it), the givens in bold, the start ringed."""
    s = shape.side
    longest = max((len(",".join(map(str, ks))) for ks in held.values()), default=1)
    size = min(0.42 * s, 0.78 * s / (0.56 * max(2, longest)))
    out = []
    for v, ks in sorted(held.items()):
        col, row = shape.cells[v]
        cx, cy = centre(shape, col, row)
        shade = DARK if (col + row) % 2 == 0 else LIGHT
        start = walk is not None and 1 in ks
        disc = el("circle", cx=cx, cy=cy, r=0.34 * s, fill=shade,
                  stroke=INK if start else VIA if v in puzzle.via else "none",
                  stroke_width=2.2 if start or v in puzzle.via else None,
                  class_="start" if start else None)
        given = puzzle.at.get(v) in ks
        label = ",".join(map(str, ks))
        number = text_el(label, x=cx, y=cy + size * 0.36, font_size=fmt(size),
                         font_weight="bold" if given else None, text_anchor="middle",
                         fill=INK, class_="position", data_node=puzzle.nodes[v],
                         data_position=label, data_given="yes" if given else None)
        out.append(disc + number)
    return el("g", "".join(out), class_="positions")


def _legend(puzzle: Puzzle, walk: Walk | None) -> list[tuple[str, str]]:
    """What the marks mean, only those drawn."""
    items = [(el("rect", x=4, y=-9, width=18, height=18, fill=DARK)
              + el("rect", x=22, y=-9, width=18, height=18, fill=LIGHT),
              "cells: a1 at the bottom left")]
    if walk is not None and len(walk):
        items.append((el("line", x1=2, y1=0, x2=40, y2=0, stroke=INK, stroke_width=2)
                      + el("circle", cx=21, cy=0, r=9, fill=LIGHT, stroke=INK, stroke_width=2.2)
                      + text_el("1", x=21, y=4, font_size="11", text_anchor="middle", fill=INK),
                      "position 1: the start; a line: a move"))
    if puzzle.at:
        items.append((text_el("7", x=21, y=5, font_size="14", font_weight="bold",
                              text_anchor="middle", fill=INK), "bold: a given position"))
    if puzzle.via:
        items.append((el("circle", cx=21, cy=0, r=9, fill="none", stroke=VIA, stroke_width=2.2),
                      "ringed: a cell to pass"))
    if puzzle.avoid:
        items.append((el("rect", x=12, y=-9, width=18, height=18, fill="#FFFFFF",
                         stroke=HOLE_EDGE, stroke_width=1.2, stroke_dasharray="4 3"),
                      "a hole: a cell to avoid"))
    return items
