"""Signpost arrows: a board cell whose every way out is one-way and along one ray.

In Simon Tatham's Signpost each cell's arrow says in which direction the next number
lies, at any distance. A spec says that with one-way edges from the cell to every cell
along its ray; read back, a cell whose out-edges are all one-way and all point the same
way from it (the same direction, any distance) shows that direction as an arrow drawn
in the cell (:func:`signposts`, :func:`signpost_svg`). A cell with an undirected edge
(a way out in both directions), none at all, or edges in two directions gets none.

The arrow is a ``<path class="signpost" data-node=NAME data-dx data-dy>`` (the
direction in board steps: ``data-dx`` columns to the right, ``data-dy`` rows up), one
filled outline of seven corners: its first point the tip, its fourth and fifth the two
corners of the shaft's end, so a script reading the picture back can check that it points
along the cell's ray (``tests/picture_check.py``).

>>> signpost_svg("b1", (1, 0), 40.0, (20.0, 20.0))[:36]  # the tip first
'<path d="M28.8 20L22 24.4L22 21.4L11'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.frame import INK
from trailkit.solvers.tools.drawing.svgtext import el, fmt

__all__ = ["signpost_svg", "signposts"]


def signposts(puzzle: Puzzle, cells: Sequence[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Each node (by index) whose out-edges are all one-way along one ray from its cell
    (``cells[v]`` its column and row): the ray's direction, in lowest terms."""
    rays: dict[int, set[tuple[int, int]] | None] = {}
    for e in range(puzzle.num_edges):
        a, b = puzzle.tail[e], puzzle.head[e]
        if not puzzle.is_directed(e):
            rays[a] = rays[b] = None  # a two-way edge: a way out of both ends
            continue
        if rays.get(a, set()) is None:
            continue
        dc, dr = cells[b][0] - cells[a][0], cells[b][1] - cells[a][1]
        g = math.gcd(dc, dr)
        step = (dc // g, dr // g) if g else (0, 0)
        found = rays.setdefault(a, set())
        assert found is not None
        found.add(step)
    return {v: next(iter(ways)) for v, ways in rays.items()
            if ways is not None and len(ways) == 1 and ways != {(0, 0)}}


def signpost_svg(node: str, direction: tuple[int, int], side: float,
                 at: tuple[float, float]) -> str:
    """The arrow of a cell of ``side`` pixels pointing ``direction`` (columns right, rows
    up), centred at ``at``: one filled outline, a head on a shaft, from its tip round the
    one wing to the shaft's end and back by the other."""
    dx, dy = direction
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, -dy / norm  # along the arrow, y down on the page
    nx, ny = -uy, ux  # across it
    half, head, wing, shaft = 0.22 * side, 0.17 * side, 0.11 * side, 0.035 * side
    cx, cy = at

    def point(along: float, across: float) -> str:
        return f"{fmt(cx + ux * along + nx * across)} {fmt(cy + uy * along + ny * across)}"

    neck = half - head
    d = ("M" + "L".join(point(a, b) for a, b in (
        (half, 0.0), (neck, wing), (neck, shaft), (-half, shaft), (-half, -shaft),
        (neck, -shaft), (neck, -wing))) + "Z")
    return el("path", d=d, fill=INK, class_="signpost", data_node=node, data_dx=dx,
              data_dy=dy)
