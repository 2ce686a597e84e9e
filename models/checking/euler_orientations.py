"""A graph as the BEST formula sees it, and how many Eulerian orientation classes it has.

Both sides of the ``best-formula`` certificate need these two small pieces: the checker
(:mod:`trailkit.models.checking.best_formula`) to read the spec's edges and prove that no
class is missing, the certificate's maker to know before listing the classes whether
there are too many. Neither computes the count: the counter uses its own Bareiss
elimination, the checker its own modular determinants.

>>> from trailkit.models.puzzle import Puzzle
>>> g = Graph(Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a")]))
>>> g.degree, dict(g.pairs)
([2, 2, 2], {(0, 1): 1, (1, 2): 1, (0, 2): 1})
>>> orientation_classes(3, [1, 1, 1], [(0, 1, 1), (1, 2, 1), (0, 2, 1)])
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from trailkit.models.puzzle import Puzzle

__all__ = ["Graph", "orientation_classes"]


class Graph:
    """The spec's edges as the formula sees them: node degrees, self-loops, one-way arcs
    and two-way pairs with their multiplicities (indices into the spec's nodes)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.n = len(puzzle.nodes)
        self.degree, self.loops = [0] * self.n, [0] * self.n
        self.arcs: Counter[tuple[int, int]] = Counter()
        self.pairs: Counter[tuple[int, int]] = Counter()
        for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
            self.degree[u] += 1
            self.degree[v] += 1
            if u == v:
                self.loops[u] += 1
            elif puzzle.directed is not None and puzzle.directed[e]:
                self.arcs[(u, v)] += 1
            else:
                self.pairs[(min(u, v), max(u, v))] += 1


def orientation_classes(nodes: int, need: Sequence[int], pairs: Sequence[tuple[int, int, int]],
                        states_cap: int | None = None) -> int | None:
    """How many vectors ``x`` (``0 <= x_p <= m_p``) give every node its ``need`` of out-steps
    from the pairs ``(u, v, m)`` (``x_p`` of them ``u -> v``): a dynamic programme over the
    pairs, with each node's need settled after its last pair. ``None`` when more than
    ``states_cap`` partial states would be kept."""
    last = {v: i for i, (u, w, _) in enumerate(pairs) for v in (u, w)}
    if any(need[v] for v in range(nodes) if v not in last):
        return 0
    states: Counter[tuple[int, ...]] = Counter({tuple(need): 1})
    for i, (u, v, m) in enumerate(pairs):
        after: Counter[tuple[int, ...]] = Counter()
        for state, ways in states.items():
            for x in range(m + 1):
                left = list(state)
                left[u] -= x
                left[v] -= m - x
                if min(left[u], left[v]) < 0 or (last[u] == i and left[u]) or (
                        last[v] == i and left[v]):
                    continue
                after[tuple(left)] += ways
        states = after
        if states_cap is not None and len(states) > states_cap:
            return None
    return sum(states.values())
