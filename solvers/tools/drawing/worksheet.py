"""A tour puzzle's worksheet: the board to write in, then (with its tour) the solution.

``trailkit draw SPEC --out FILE.pdf`` of a Hidato, Numbrix, knight's-tour or Signpost
puzzle (a board, ``visit: every-once`` as ``kind: tour`` says, givens ``at:``) prints
what a puzzle book prints (:func:`worksheet_pages`): a title, the rule in one line
(:func:`worksheet_rule`) and the board with its givens and signpost arrows, as large as
the sheet allows (the sheet turned the way the board fills it best), so that a number
can be written in every cell by hand: cells of at least :data:`MIN_CELL_MM` mm on A4 up
to 10 × 10. A bigger board's cells are smaller; the page then says how big they are.
With the tour (``draw --solve``) a second page shows the solution: every cell's number,
the givens in bold, no lines. Other puzzles on a board (a colour rule, a start or end,
a checkpoint, a longest walk) keep the ordinary printable pages, whose rules in words
say all of that (:func:`takes_worksheet`).

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="tour", nodes=["a1", "b1"], edges=[("a1", "b1")], at={"a1": 1})
>>> worksheet_rule(p, "king", arrows=False).split(", ")[-1]
"so that each number is a king's move from the next. The bold numbers are given."
"""

from __future__ import annotations

from trailkit.models.answer import Walk
from trailkit.models.puzzle import NodeVisit, Objective, Puzzle
from trailkit.solvers.tools.drawing.board_picture import PENCIL, BoardShape, board_group
from trailkit.solvers.tools.drawing.frame import FONT, INK
from trailkit.solvers.tools.drawing.printable import PAPER
from trailkit.solvers.tools.drawing.signposts import signposts
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el, wrap

__all__ = ["MAX_CELL_MM", "MIN_CELL_MM", "cell_mm", "takes_worksheet", "worksheet_pages",
           "worksheet_rule"]

#: The smallest cell a worksheet promises on A4 for boards up to 10 × 10 (millimetres).
MIN_CELL_MM = 12.0
#: The largest it prints a cell (a small board is not blown up to fill the sheet).
MAX_CELL_MM = 24.0
_MM_PER_PX = 25.4 / 96  # CSS pixels
_MARGIN = 54.0
_MOVES = {"knight": "a knight's move", "king": "a king's move",
          "orthogonal": "one step to a side", "diagonal": "one diagonal step"}


def takes_worksheet(puzzle: Puzzle) -> bool:
    """Whether ``puzzle`` (on a board) is a tour puzzle whose rules the worksheet's one
    line says whole: every cell once, givens, holes, arrows, and nothing else."""
    p = puzzle
    return (p.visit is NodeVisit.EVERY_ONCE and p.colours is None and p.first is None
            and p.objective is Objective.ANY and p.start is None and p.end is None
            and not p.via)


def worksheet_rule(puzzle: Puzzle, moves: str, *, arrows: bool) -> str:
    """The rule in one line: which numbers go in, how each reaches the next."""
    n = puzzle.num_nodes - len(puzzle.avoid)
    line = f"Write 1 to {n} in the cells, one number in each, so that "
    if arrows:
        line += ("each cell's arrow points the way to the next number (somewhere along "
                 "it, at any distance)")
    else:
        line += f"each number is {_MOVES.get(moves, 'one move')} from the next"
    if puzzle.closed:
        line += f", and {n} leads back to 1"
    line += "."
    if puzzle.avoid:
        line += " The dashed cells are holes: leave them empty."
    if puzzle.at:
        line += " The bold numbers are given."
    return line


def cell_mm(shape: BoardShape, paper: str) -> tuple[float, bool]:
    """How big (mm) the cells of ``shape`` print on ``paper`` (at most
    :data:`MAX_CELL_MM`), and whether on a sheet turned sideways (the way that makes
    them bigger)."""
    w, h = PAPER[paper]
    upright = _scale(shape, (w, h))
    turned = _scale(shape, (h, w))
    best = max(upright, turned) * shape.side * _MM_PER_PX
    return min(best, MAX_CELL_MM), turned > upright and best < MAX_CELL_MM


def worksheet_pages(puzzle: Puzzle, shape: BoardShape, walk: Walk | None, paper: str, *,
                    title: str, verified: bool = False) -> list[str]:
    """The worksheet (and with ``walk``, its solution page) as page SVGs for
    :func:`~trailkit.solvers.tools.drawing.printable.render_pdf`."""
    rule = worksheet_rule(puzzle, shape.moves, arrows=bool(signposts(puzzle, shape.cells)))
    pages = [_sheet(puzzle, shape, None, paper, title, rule)]
    if walk is not None:
        said = ", checked by trailkit's independent checker" if verified else ""
        pages.append(_sheet(puzzle, shape, walk, paper, f"{title}: solution",
                            f"Every cell's number{said}; the givens in bold."))
    return pages


def _scale(shape: BoardShape, size: tuple[float, float]) -> float:
    """The scale that fits the board (with its row numbers and column letters) between
    the margins of a sheet of ``size``, under the title and three lines of text."""
    s = shape.side
    room_w = size[0] - 2 * _MARGIN
    room_h = size[1] - 2 * _MARGIN - _TOP - 20
    return min(room_w / ((shape.cols + 0.9) * s), room_h / ((shape.rows + 0.7) * s))


_TOP = 28 + 3 * 19 + 16  # the title, up to three lines of the rule, a gap


def _sheet(puzzle: Puzzle, shape: BoardShape, walk: Walk | None, paper: str,
           heading: str, rule: str) -> str:
    """One page: ``heading``, ``rule`` under it, then the board as big as it fits,
    centred, and (when its cells are under :data:`MIN_CELL_MM`) a line saying how big."""
    mm, turned = cell_mm(shape, paper)
    w, h = PAPER[paper][::-1] if turned else PAPER[paper]
    inner = w - 2 * _MARGIN
    k = mm / (shape.side * _MM_PER_PX)
    text = [text_el(heading, x=_MARGIN, y=_MARGIN + 18, font_size="18", font_weight="bold",
                    fill=INK, class_="title")]
    y = _MARGIN + 28
    for part in wrap(rule, inner, 13)[:3]:
        text.append(text_el(part, x=_MARGIN, y=y + 14, font_size="13", fill=INK,
                            class_="rule"))
        y += 19
    s = shape.side
    board_w, board_h = (shape.cols + 0.9) * s * k, (shape.rows + 0.7) * s * k
    left = _MARGIN + (inner - board_w) / 2 + 0.9 * s * k
    top = _MARGIN + _TOP
    if mm < MIN_CELL_MM:
        text.append(text_el(f"The cells are {mm:.1f} mm across: a bigger sheet gives more "
                            "room to write.", x=_MARGIN, y=top + board_h + 18,
                            font_size="11", fill="#555555", class_="note"))
    board = el("g", board_group(puzzle, shape, walk, lines=False, palette=PENCIL),
               transform=f"translate({fmt(left)},{fmt(top)}) scale({k:.4f})")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + el("svg", el("rect", x=0, y=0, width=fmt(w), height=fmt(h), fill="#FFFFFF")
                 + "".join(text) + board, xmlns="http://www.w3.org/2000/svg",
                 width=fmt(w), height=fmt(h), viewBox=f"0 0 {fmt(w)} {fmt(h)}",
                 font_family=FONT, class_="worksheet", data_cell_mm=f"{mm:.1f}"))
