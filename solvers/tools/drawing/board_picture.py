"""A puzzle on a board drawn as a board: cells, light and dark, not circles.

A spec's ``board:`` (CONTRACT 1.4 §7) leaves ``meta["board"] = {"cols", "rows",
"moves"}`` and names its cells as on a chess board (``a1`` bottom left). Such a puzzle
is drawn as a knight's-tour diagram: the cells in two shades, their columns lettered
below and rows numbered on the left; a walk's positions written in its cells (1 the
start, a cell held twice shows both numbers), the givens (``at:``) in bold, the moves
as thin lines between cell centres under the numbers; cells in ``avoid:`` are holes
(white, outlined in dashes), cells in ``via:`` ringed. The puzzle alone shows the
givens, holes and rings, not the moves: every move of a knight drawn at once is a
thicket that hides the board. A board may also be an edge list whose ``layout:`` puts
every chess-named cell on its grid (:func:`board_of`), as a Signpost is written; a cell
whose ways out all lie along one ray shows it as an arrow
(:mod:`~trailkit.solvers.tools.drawing.signposts`), its number in the top-left corner,
and such a board draws no move lines (its moves jump over numbered cells).

The parts are marked for reading back (``tests/picture_check.py``): the board is a
``<g class="board" data-cols data-rows data-cell>``, each cell a ``<g class="cell
light|dark|hole" data-node=NAME data-col data-row>`` (0-based, row 0 at the bottom),
each position a ``<text class="position" data-node data-position=K>`` (``data-given
="yes"`` for a given), each move a ``<g class="step" data-step=N data-edge=E data-from
data-to>`` holding its ``line`` (no badge: the position it reaches is written in its
cell), so the HTML page steps through a tour as through any walk; each arrow a
``<path class="signpost">``. What ``inspect`` found (``draw --inspect``) is drawn by
:mod:`~trailkit.solvers.tools.drawing.board_inspect`: essential givens ringed,
redundant ones pale, critical moves banded, its caption under the board.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec.board import column_name, column_number
from trailkit.solvers.tools.drawing.board_inspect import (
    PALE,
    banded,
    critical_moves,
    inspect_legend,
    verdict_rings,
    verdicts,
)
from trailkit.solvers.tools.drawing.frame import INK, framed
from trailkit.solvers.tools.drawing.inspect_view import InspectView
from trailkit.solvers.tools.drawing.signposts import signpost_svg, signposts
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el

__all__ = ["PENCIL", "BoardShape", "board_group", "board_of", "board_svg"]

LIGHT = "#F2E6CE"
DARK = "#C9A87C"
#: A board's colours: dark cell, light cell, the grid line between cells (or none).
Palette = tuple[str, str, str | None]
SCREEN: Palette = (DARK, LIGHT, None)
#: A worksheet's: pale, so a pencilled number reads on every cell, and ruled.
PENCIL: Palette = ("#DCDCDC", "#FAFAFA", "#8C8C8C")
HOLE_EDGE = "#9A9A9A"
VIA = "#0072B2"
_CELL = re.compile(r"([a-z]+)([1-9][0-9]*)")
#: The moves of a board written as an edge list (no ``board:`` names them).
LISTED = "listed"


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
    """The board ``puzzle`` stands on, or ``None``: no ``board:`` and no board layout
    (:func:`_layout_board`), or a node that is no cell of it (an edge list that added one
    is drawn as a graph)."""
    meta = puzzle.meta.get("board")
    if not isinstance(meta, Mapping):
        return _layout_board(puzzle)
    cols, rows, moves = meta.get("cols"), meta.get("rows"), meta.get("moves")
    if not isinstance(cols, int) or not isinstance(rows, int) or cols < 1 or rows < 1:
        return None
    cells = _cells_named(puzzle)
    if cells is None or not all(col < cols and row < rows for col, row in cells):
        return None
    return BoardShape(cols, rows, str(moves), tuple(cells))


def _cells_named(puzzle: Puzzle) -> list[tuple[int, int]] | None:
    """Each node's (column, row) as its chess name says, or ``None`` when a name is no
    cell's or two nodes name one cell."""
    cells = []
    for name in puzzle.nodes:
        match = _CELL.fullmatch(name)
        if match is None:
            return None
        cells.append((column_number(match.group(1)), int(match.group(2)) - 1))
    return cells if cells and len(set(cells)) == len(cells) else None


def _layout_board(puzzle: Puzzle) -> BoardShape | None:
    """A board written as an edge list (a Signpost's one-way rays, which ``board:``
    cannot say): a puzzle of node positions (``visit:`` not ``any``) whose every node
    is named as a cell and laid out on the grid its names say, ``a1`` at the bottom
    left (``layout:`` x = column, y = row, in any one unit). A puzzle about its edges
    (a trail) stays a graph, its edges drawn."""
    if puzzle.visit is NodeVisit.ANY:
        return None
    cells = _cells_named(puzzle)
    layout = puzzle.layout
    if cells is None or not layout or any(name not in layout for name in puzzle.nodes):
        return None
    (c0, r0), (x0, y0) = cells[0], layout[puzzle.nodes[0]]
    far = max(range(len(cells)), key=lambda v: abs(cells[v][0] - c0) + abs(cells[v][1] - r0))
    span = abs(cells[far][0] - c0) + abs(cells[far][1] - r0)
    unit = (abs(layout[puzzle.nodes[far]][0] - x0) + abs(layout[puzzle.nodes[far]][1] - y0)
            ) / span if span else 1.0
    for v, name in enumerate(puzzle.nodes):
        x, y = layout[name]
        if unit <= 0 or max(abs(x - x0 - unit * (cells[v][0] - c0)),
                            abs(y - y0 - unit * (cells[v][1] - r0))) > 1e-6 * unit:
            return None
    cols = max(col for col, _ in cells) + 1
    rows = max(row for _, row in cells) + 1
    return BoardShape(cols, rows, LISTED, tuple(cells))


def board_svg(puzzle: Puzzle, shape: BoardShape, walk: Walk | None, *,
              title: str | None = None, notes: list[str] | None = None,
              inspect: InspectView | None = None) -> str:
    """The SVG text of ``puzzle`` on its board, with ``walk``'s positions and moves, and
    what ``inspect`` found (its marks, its caption among the notes)."""
    s = shape.side
    box = (-0.9 * s, 0.0, shape.cols * s, shape.rows * s + 0.7 * s)
    caption = [inspect.caption] if inspect is not None and inspect.caption else []
    bands = bool(banded(inspect, walk)) and not signposts(puzzle, shape.cells)
    return framed(board_group(puzzle, shape, walk, inspect=inspect), box, pad=24.0,
                  title=title or puzzle.name or "board", notes=list(notes or []) + caption,
                  legend=_legend(puzzle, shape, walk) + inspect_legend(inspect, bands),
                  footer=f"board: {shape.cols} × {shape.rows}, " + (
                      "the moves its edges list" if shape.moves == LISTED
                      else f"{shape.moves} moves"),
                  kind=puzzle.kind)


def board_group(puzzle: Puzzle, shape: BoardShape, walk: Walk | None, *,
                lines: bool = True, palette: Palette = SCREEN,
                inspect: InspectView | None = None) -> str:
    """The board itself, ``<g class="board">`` from (0, 0) to the cells' far corner
    (the coordinates outside it): the cells, their signpost arrows, ``walk``'s
    positions (without a walk, the givens) and, with ``lines``, its moves. A board with
    signposts has no move lines: its moves jump along the arrows' rays, over cells
    whose numbers the lines would cross. ``palette`` colours the cells; ``inspect``'s
    findings are marked (:mod:`~trailkit.solvers.tools.drawing.board_inspect`)."""
    held = _positions(puzzle, walk)
    arrows = signposts(puzzle, shape.cells)
    centres = {v: centre(shape, *cell) for v, cell in enumerate(shape.cells)}
    body = [_cells(puzzle, shape, held, palette), _coordinates(shape)]
    if walk is not None and len(walk) and lines and not arrows:
        body.append(critical_moves(puzzle, banded(inspect, walk), centres, shape.side))
        body.append(_moves(puzzle, shape, walk))
    if arrows:
        body.append(_arrows(puzzle, shape, arrows))
    body.append(_numbers(puzzle, shape, held, (walk, verdicts(inspect)), set(arrows),
                         palette))
    body.append(verdict_rings(puzzle, inspect, centres, shape.side, set(arrows)))
    return el("g", "".join(body), class_="board", data_cols=shape.cols,
              data_rows=shape.rows, data_cell=fmt(shape.side))


def _arrows(puzzle: Puzzle, shape: BoardShape, arrows: Mapping[int, tuple[int, int]]) -> str:
    """Each signpost in its cell, a little right of and below the centre (the cell's
    number, when it has one, stands in the top-left corner, as in Tatham's Signpost)."""
    s = shape.side
    out = []
    for v, way in sorted(arrows.items()):
        cx, cy = centre(shape, *shape.cells[v])
        out.append(signpost_svg(puzzle.nodes[v], way, s, (cx + 0.1 * s, cy + 0.12 * s)))
    return el("g", "".join(out), class_="signposts")


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


def _cells(puzzle: Puzzle, shape: BoardShape, held: Mapping[int, list[int]],
           palette: Palette) -> str:
    s = shape.side
    out = []
    for v, (col, row) in enumerate(shape.cells):
        x, y = col * s, (shape.rows - row - 1) * s
        hole = v in puzzle.avoid
        shade = "hole" if hole else "dark" if (col + row) % 2 == 0 else "light"
        rect = (el("rect", x=x + 3, y=y + 3, width=s - 6, height=s - 6, fill="#FFFFFF",
                   stroke=HOLE_EDGE, stroke_width=1.2, stroke_dasharray="4 3") if hole else
                el("rect", x=x, y=y, width=s, height=s,
                   fill=palette[0] if shade == "dark" else palette[1], stroke=palette[2],
                   stroke_width=1 if palette[2] else None))
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
             seen: tuple[Walk | None, Mapping[int, str]], cornered: set[int],
             palette: Palette) -> str:
    """Each cell's positions on a disc of the cell's own shade (the moves' lines stop at
    it), the givens in bold, the start ringed; in a ``cornered`` cell (one with a
    signpost) small in its top-left corner instead, with no disc. ``seen`` is the walk
    and each given's verdict from ``inspect`` (a redundant one is written pale)."""
    walk, verdict = seen
    s = shape.side
    longest = max((len(",".join(map(str, ks))) for ks in held.values()), default=1)
    size = min(0.42 * s, 0.78 * s / (0.56 * max(2, longest)))
    small = min(0.3 * s, 0.6 * s / (0.56 * max(2, longest)))
    out = []
    for v, ks in sorted(held.items()):
        col, row = shape.cells[v]
        cx, cy = centre(shape, col, row)
        given = puzzle.at.get(v) in ks
        label = ",".join(map(str, ks))
        marks = dict(fill=PALE if given and verdict.get(v) == "redundant" else INK,
                     class_="position", data_node=puzzle.nodes[v], data_position=label,
                     data_given="yes" if given else None,
                     data_verdict=verdict.get(v) if given else None,
                     font_weight="bold" if given else None)
        if v in cornered:
            out.append(text_el(label, x=cx - 0.42 * s, y=cy - 0.42 * s + 0.8 * small,
                               font_size=fmt(small), **marks))
            continue
        start = walk is not None and 1 in ks
        out.append(el("circle", cx=cx, cy=cy, r=0.34 * s,
                      fill=palette[0] if (col + row) % 2 == 0 else palette[1],
                      stroke=INK if start else VIA if v in puzzle.via else "none",
                      stroke_width=2.2 if start or v in puzzle.via else None,
                      class_="start" if start else None))
        out.append(text_el(label, x=cx, y=cy + size * 0.36, font_size=fmt(size),
                           text_anchor="middle", **marks))
    return el("g", "".join(out), class_="positions")


def _legend(puzzle: Puzzle, shape: BoardShape, walk: Walk | None
            ) -> list[tuple[str, str]]:
    """What the marks mean, only those drawn."""
    items = [(el("rect", x=4, y=-9, width=18, height=18, fill=DARK)
              + el("rect", x=22, y=-9, width=18, height=18, fill=LIGHT),
              "cells: a1 at the bottom left")]
    if signposts(puzzle, shape.cells):
        items.append((signpost_svg("", (1, 0), 40.0, (21.0, 0.0)),
                      "an arrow: the next number lies that way"))
    elif walk is not None and len(walk):
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
