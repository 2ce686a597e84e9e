"""``board:``: a grid's cells and the moves between them, as nodes and edges (CONTRACT
1.4 §7). Cells are named as on a chess board (columns ``a`` .. ``z``, ``aa``, ...; rows
``1`` .. ROWS from the bottom, so ``a1`` is the bottom-left cell), numbered row by row
from ``a1``; each move is one undirected edge; the layout is the grid.

>>> b = Board(3, 3, "knight")
>>> b.cells[:4], len(b.edges), b.edges[0]
(['a1', 'b1', 'c1', 'a2'], 8, (0, 7))
>>> column_name(0), column_name(25), column_name(26), column_name(701), column_name(702)
('a', 'z', 'aa', 'zz', 'aaa')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import yaml

from trailkit.models.spec.messages import hint
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.spec.vocabulary import BOARD_MOVES, MAX_BOARD_CELLS
from trailkit.models.support.hints import short

__all__ = ["Board", "column_name", "column_number", "read_board"]

_STEPS = {
    "orthogonal": ((1, 0), (0, 1)),
    "diagonal": ((1, 1), (1, -1)),
    "king": ((1, 0), (0, 1), (1, 1), (1, -1)),
    "knight": ((1, 2), (2, 1), (2, -1), (1, -2)),
}
"""Half of each move set, (column, row) offsets: the other half is their reverse, so each
undirected edge is made once."""


def column_name(col: int) -> str:
    """The letters of 0-based column ``col``: ``a`` .. ``z``, ``aa`` .. ``zz``, ``aaa``..."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def column_number(letters: str) -> int:
    """The 0-based column named ``letters``: the inverse of :func:`column_name`."""
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - ord("a") + 1
    return col - 1


@dataclass(frozen=True)
class Board:
    """A ``cols`` × ``rows`` board whose edges are the ``moves`` (one of
    :data:`~trailkit.models.spec.vocabulary.BOARD_MOVES`)."""

    cols: int
    rows: int
    moves: str

    @cached_property
    def cells(self) -> list[str]:
        """The cell names, row by row from ``a1`` (a cell's index is its node's order)."""
        letters = [column_name(c) for c in range(self.cols)]
        return [f"{letter}{row}" for row in range(1, self.rows + 1) for letter in letters]

    @cached_property
    def edges(self) -> list[tuple[int, int]]:
        """One ``(cell, cell)`` pair of cell indices per move, by first cell, then move."""
        out = []
        cols, rows = self.cols, self.rows
        for row in range(rows):
            for col in range(cols):
                for dc, dr in _STEPS[self.moves]:
                    c, r = col + dc, row + dr
                    if 0 <= c < cols and 0 <= r < rows:
                        out.append((row * cols + col, r * cols + c))
        return out

    def layout(self) -> dict[str, tuple[float, float]]:
        """Each cell at its (column, row), from 0 at ``a1``."""
        return {name: (float(i % self.cols), float(i // self.cols))
                for i, name in enumerate(self.cells)}

    def meta(self) -> dict[str, object]:
        """What a picture needs to draw the cells (``Puzzle.meta["board"]``)."""
        return {"cols": self.cols, "rows": self.rows, "moves": self.moves}


def read_board(reader: SpecReader, top: Entries) -> Board | None:
    """The spec's ``board:``, or ``None`` without one (problems are raised, located)."""
    if "board" not in top:
        return None
    node = top["board"][1]
    entries = reader.mapping(node, "board")
    reader.check_keys(entries, ("size", "moves"), "board", "a board")
    for key, example in (("size", "size: [8, 8]"), ("moves", "moves: knight")):
        if key not in entries:
            raise reader.fail(node, f"board needs '{key}', e.g. board: {{{example}}}",
                              "board")
    cols, rows = _read_size(reader, entries["size"][1])
    moves_node = entries["moves"][1]
    moves = reader.scalar_text(moves_node, "board.moves")
    if moves not in BOARD_MOVES:
        raise reader.fail(moves_node, f"board.moves must be one of {', '.join(BOARD_MOVES)}, "
                          f"not {short(moves)!r}{hint(moves, BOARD_MOVES)}", "board.moves")
    return Board(cols, rows, moves)


def _read_size(reader: SpecReader, node: yaml.Node) -> tuple[int, int]:
    """``size: [COLS, ROWS]``, each at least 1, at most :data:`MAX_BOARD_CELLS` cells."""
    items = reader.sequence(node, "board.size") if isinstance(node, yaml.SequenceNode) else []
    if len(items) != 2:
        raise reader.fail(node, "board.size must be [COLS, ROWS], e.g. [8, 8]", "board.size")
    cols = reader.integer(items[0], "board.size[0]", minimum=1)
    rows = reader.integer(items[1], "board.size[1]", minimum=1)
    if cols * rows > MAX_BOARD_CELLS:
        raise reader.fail(node, f"a board of {cols} × {rows} cells is more than the "
                          f"{MAX_BOARD_CELLS:,} a spec may have", "board.size")
    return cols, rows
