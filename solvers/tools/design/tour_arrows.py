"""Signpost puzzles (``design tour --moves arrows``), as Simon Tatham's Signpost has
them: every cell but the last holds an arrow, one of the 8 queen directions, and the
next number lies somewhere along that ray, at any distance.

The arrows are written in the ordinary spec language: one one-way edge from each cell
to every cell along its arrow's ray (``a1 -> b2``, ``a1 -> c3``, ...; the last cell has
no arrow, so no edge leaves it), the cells named as on a chess board and placed on the
grid by ``layout:`` (``a1`` at ``[0, 0]``, bottom left). A ``board:`` cannot hold them:
its moves are the same undirected edges in every cell. A cell whose out-edges are
one-way and all along one ray is a cell with an arrow, which is how a drawing finds it.

The path the arrows follow is a random path through every cell by queen moves
(:func:`~.tour_paths.random_path_in`, randomised Warnsdorff); every board of three or
more cells has one (the snake, row by row, is the fallback).

>>> rays(3, 3)[0]  # from a1: along the row, the diagonal, the column
[[1, 2], [4, 8], [3, 6]]
>>> arrow_edges(3, 1, [0, 2, 1])  # a1 points east (b1, c1); c1 points west (b1, a1)
[(0, 1), (0, 2), (2, 1), (2, 0)]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from trailkit.models.spec.board import Board
from trailkit.solvers.tools.design.tour_paths import random_path_in

__all__ = ["ARROWS", "DIRECTIONS", "arrow_edges", "arrow_lines", "arrow_path", "rays"]

ARROWS = "arrows"
"""``--moves arrows``: the Signpost's moves (not a ``board:``'s)."""

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""The 8 arrows as (column, row) steps: east first, then anticlockwise."""


def rays(cols: int, rows: int) -> list[list[list[int]]]:
    """For each cell (row by row from ``a1``), its non-empty rays in the order of
    :data:`DIRECTIONS`: the cells along each, nearest first."""
    out = []
    for cell in range(cols * rows):
        col, row = cell % cols, cell // cols
        mine = []
        for dc, dr in DIRECTIONS:
            c, r, ray = col + dc, row + dr, []
            while 0 <= c < cols and 0 <= r < rows:
                ray.append(r * cols + c)
                c, r = c + dc, r + dr
            if ray:
                mine.append(ray)
        out.append(mine)
    return out


def arrow_path(cols: int, rows: int, rng: random.Random, tries: int) -> list[int]:
    """A path through every cell by queen moves (cell indices in order): randomised
    Warnsdorff, or the snake when ``tries`` walks all got stuck."""
    adj = [[v for ray in mine for v in ray] for mine in rays(cols, rows)]
    path = random_path_in(adj, rng, tries)
    if path is not None:
        return path
    return [r * cols + (c if r % 2 == 0 else cols - 1 - c)
            for r in range(rows) for c in range(cols)]


def arrow_edges(cols: int, rows: int, path: Sequence[int]) -> list[tuple[int, int]]:
    """The one-way edges of ``path``'s arrows, by cell along the path: from each cell but
    the last to every cell along the ray on which its successor lies, nearest first."""
    out = []
    every = rays(cols, rows)
    for here, there in itertools.pairwise(path):
        (ray,) = [ray for ray in every[here] if there in ray]
        out += [(here, v) for v in ray]
    return out


def arrow_lines(cols: int, rows: int, path: Sequence[int]) -> list[str]:
    """The spec lines of a Signpost's board: ``edges:`` (one line per cell with an
    arrow, in the order of the cells) and ``layout:`` (one line per row)."""
    names = Board(cols, rows, "king").cells
    edges = arrow_edges(cols, rows, path)
    per_cell = [", ".join(f"{names[u]} -> {names[v]}" for u, v in edges if u == cell)
                for cell in range(cols * rows)]
    rows_text = [", ".join(f"{names[r * cols + c]}: [{c}, {r}]" for c in range(cols))
                 for r in range(rows)]
    return ["# Each cell's arrow: one-way edges to every cell along its ray (the last "
            "cell has none).",
            "edges: [" + ",\n  ".join(line for line in per_cell if line) + "]",
            "layout: {" + ",\n  ".join(rows_text) + "}"]
