"""Fields of nodes to design on: hexagonal (tyres in rows, like Toowoomba's) or square.

A field is its node names, their positions (for the spec's ``layout:``, so drawings put
each tyre where it stands) and the pairs that touch (the planks a designer may lay).
Names run A, B, ..., Z, AA, AB, ... row by row, as the tyre puzzle's do.

>>> f = hex_field(2, 3)
>>> f.nodes
('A', 'B', 'C', 'D', 'E', 'F')
>>> f.pairs
((0, 1), (0, 3), (1, 2), (1, 3), (1, 4), (2, 4), (2, 5), (3, 4), (4, 5))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trailkit.models.puzzle import Puzzle

__all__ = ["Field", "field_of", "grid_field", "hex_field", "letters"]

#: The most nodes a field may have (a design searches it many times over).
MAX_FIELD_NODES = 2_000


@dataclass(frozen=True, slots=True)
class Field:
    """Node names, their positions and the touching pairs (node indices, ``u < v``);
    ``start`` and ``goal`` are the default ends (-1: the last node); ``colours``, the
    colour cycle of the spec it was taken from (empty: none), kept by a design on it."""

    nodes: tuple[str, ...]
    positions: tuple[tuple[float, float], ...]
    pairs: tuple[tuple[int, int], ...]
    shape: str
    start: int = 0
    goal: int = -1
    colours: tuple[str, ...] = ()


def letters(i: int) -> str:
    """The ``i``-th name: ``A`` ... ``Z``, ``AA``, ``AB``, ... (spreadsheet columns)."""
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


def _check_size(rows: int, cols: int) -> None:
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise ValueError("a field needs at least 2 nodes (ROWS and COLS at least 1)")
    if rows * cols > MAX_FIELD_NODES:
        raise ValueError(f"a field of {rows * cols:,} nodes is too big to design on "
                         f"(at most {MAX_FIELD_NODES:,})")


def hex_field(rows: int, cols: int) -> Field:
    """``rows`` rows of ``cols`` hexagonal tyres, every other row shifted half a tyre;
    touching tyres are 2 apart (as in the tyre puzzle's layout)."""
    _check_size(rows, cols)
    at = {(r, c): r * cols + c for r in range(rows) for c in range(cols)}
    positions = tuple((2.0 * c + (r % 2), round(-r * math.sqrt(3), 3)) for r, c in at)
    pairs = set()
    for (r, c), i in at.items():
        below = (c, c + 1) if r % 2 else (c - 1, c)
        for rr, cc in ((r, c + 1), (r + 1, below[0]), (r + 1, below[1])):
            j = at.get((rr, cc))
            if j is not None:
                pairs.add((min(i, j), max(i, j)))
    return Field(tuple(letters(i) for i in range(len(at))), positions, tuple(sorted(pairs)),
                 f"hex:{rows},{cols}")


def grid_field(rows: int, cols: int) -> Field:
    """``rows`` × ``cols`` nodes in a square grid, each touching its four neighbours."""
    _check_size(rows, cols)
    at = {(r, c): r * cols + c for r in range(rows) for c in range(cols)}
    positions = tuple((2.0 * c, -2.0 * r) for r, c in at)
    pairs = {(at[r, c], at[rr, cc]) for (r, c) in at for rr, cc in ((r, c + 1), (r + 1, c))
             if (rr, cc) in at}
    return Field(tuple(letters(i) for i in range(len(at))), positions, tuple(sorted(pairs)),
                 f"grid:{rows},{cols}")


def field_of(puzzle: Puzzle) -> Field:
    """A spec's nodes, layout and plank places (each touching pair once) as a field to
    colour anew, its start and goal the default ends, its colour cycle (when its colour
    rule is one) the default colours. Raises ``ValueError`` for a spec
    without a written layout."""
    if not puzzle.layout:
        raise ValueError("the spec has no layout: to design on it, give its nodes "
                         "positions (layout:), or use --layout")
    missing = [v for v in puzzle.nodes if v not in puzzle.layout]
    if missing:
        raise ValueError(f"the spec's layout has no position for {missing[0]}")
    pairs = sorted({(min(u, v), max(u, v)) for u, v in zip(puzzle.tail, puzzle.head,
                                                             strict=True) if u != v})
    if not pairs:
        raise ValueError("the spec has no planks between two different nodes to colour")
    positions = tuple((float(puzzle.layout[v][0]), float(puzzle.layout[v][1]))
                      for v in puzzle.nodes)
    start = min(puzzle.start) if puzzle.start else 0
    goal = min(puzzle.end) if puzzle.end else -1
    cycle = puzzle.colours.cycle if puzzle.colours is not None else None
    return Field(puzzle.nodes, positions, tuple(pairs), "from " + (puzzle.name or "a spec"),
                 start, goal, tuple(cycle or ()))
