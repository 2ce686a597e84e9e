"""A random path through every cell of a board, for ``design tour``: randomised
Warnsdorff with restarts.

From a random cell the path steps to a free neighbour with the fewest free neighbours of
its own (Warnsdorff's rule), ties broken at random; a path stuck before every cell is
passed is dropped and another started. The rule finds paths through every cell of king,
knight and orthogonal boards in a few tries; a board with none (a diagonal board, whose
cells fall into two colours that never meet; a 3 x 3 knight board, whose centre no
knight reaches) is left to :func:`board_path`'s caller, which asks the direct backend.
The same seed gives the same path.

>>> from trailkit.models.spec.board import Board
>>> import random
>>> path = random_path(Board(4, 4, "king"), random.Random(1), tries=50)
>>> sorted(path) == list(range(16))
True
"""

from __future__ import annotations

import random

from trailkit.models.spec.board import Board

__all__ = ["neighbours", "random_path", "random_path_in"]


def neighbours(board: Board) -> list[list[int]]:
    """Each cell's neighbours by the board's moves, in a fixed order."""
    out: list[list[int]] = [[] for _ in board.cells]
    for u, v in board.edges:
        out[u].append(v)
        out[v].append(u)
    return out


def random_path(board: Board, rng: random.Random, tries: int) -> list[int] | None:
    """A path through every cell (cell indices in order), or ``None`` when ``tries``
    randomised Warnsdorff walks all got stuck."""
    return random_path_in(neighbours(board), rng, tries)


def random_path_in(adj: list[list[int]], rng: random.Random, tries: int
                   ) -> list[int] | None:
    """A path through every node of the graph whose neighbours are ``adj`` (undirected:
    each edge in both rows), as :func:`random_path` finds one on a board."""
    n = len(adj)
    for _ in range(tries):
        path = _walk(adj, rng.randrange(n), rng)
        if len(path) == n:
            return path
    return None


def _walk(adj: list[list[int]], start: int, rng: random.Random) -> list[int]:
    """One Warnsdorff walk from ``start``, as far as it goes."""
    free = [True] * len(adj)
    onward = [len(row) for row in adj]
    path = [start]
    free[start] = False
    for x in adj[start]:
        onward[x] -= 1
    while True:
        here = [w for w in adj[path[-1]] if free[w]]
        if not here:
            return path
        low = min(onward[w] for w in here)
        w = rng.choice([w for w in here if onward[w] == low])
        path.append(w)
        free[w] = False
        for x in adj[w]:
            onward[x] -= 1
