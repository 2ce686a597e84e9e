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

import time
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
                        states_cap: int | None = None, deadline: float | None = None
                        ) -> int | None:
    """How many vectors ``x`` (``0 <= x_p <= m_p``) give every node its ``need`` of out-steps
    from the pairs ``(u, v, m)`` (``x_p`` of them ``u -> v``): a dynamic programme over the
    pairs, taken in breadth-first order from a node. A state holds the needs still open
    of the nodes *on the frontier* (met by a pair already, and by one still to come), each
    settled after its last pair, so a long thin graph (a path of a million edges) keeps
    states of two numbers, not a million. ``None`` when more than ``states_cap`` partial
    states would be kept; :class:`TimeoutError` at ``deadline`` (``time.monotonic()``)."""
    order = _breadth_first(nodes, pairs)
    last = {v: i for i, (u, w, _) in enumerate(order) for v in (u, w)}
    if any(need[v] for v in range(nodes) if v not in last):
        return 0
    frontier: dict[int, int] = {}  # the open nodes, and their places in a state
    states: dict[tuple[int, ...], int] = {(): 1}
    for i, (u, v, m) in enumerate(order):
        if deadline is not None and (len(states) > 64 or i % 256 == 0) and \
                time.monotonic() >= deadline:
            raise TimeoutError("the time limit was reached counting the orientation classes")
        opened = tuple(need[w] for w in dict.fromkeys((u, v)) if w not in frontier)
        for w in (u, v):
            frontier.setdefault(w, len(frontier))
        closed = {frontier[w] for w in (u, v) if last[w] == i}
        states = _step(states, opened, (frontier[u], frontier[v], m), closed)
        if closed:
            kept = [w for w, place in frontier.items() if place not in closed]
            frontier = {w: place for place, w in enumerate(kept)}
        if states_cap is not None and len(states) > states_cap:
            return None
    return sum(states.values())


def _breadth_first(nodes: int, pairs: Sequence[tuple[int, int, int]]
                   ) -> list[tuple[int, int, int]]:
    """``pairs`` sorted by when a breadth-first search from their first node reaches their
    ends (each part of a disconnected graph after the one before): pairs near each other
    in the graph come near each other in the order, so few nodes are open at once."""
    around: list[list[int]] = [[] for _ in range(nodes)]
    for u, v, _ in pairs:
        around[u].append(v)
        around[v].append(u)
    rank = [-1] * nodes
    reached = 0
    for root in range(nodes):
        if rank[root] >= 0:
            continue
        rank[root], queue = reached, [root]
        reached += 1
        for u in queue:  # the queue grows as it is read
            for v in around[u]:
                if rank[v] < 0:
                    rank[v] = reached
                    reached += 1
                    queue.append(v)
    return sorted(pairs, key=lambda p: (min(rank[p[0]], rank[p[1]]),
                                        max(rank[p[0]], rank[p[1]])))


def _step(states: dict[tuple[int, ...], int], opened: tuple[int, ...],
          pair: tuple[int, int, int], closed: set[int]) -> dict[tuple[int, ...], int]:
    """The states after a pair of ``m`` edges between the frontier's places ``pu`` and
    ``pv`` (``pair``), the needs of the nodes it opens (``opened``) added at the end: each
    way of orienting the pair that leaves no need negative, and none open at a node whose
    last pair this is (``closed``, whose places are then dropped)."""
    pu, pv, m = pair
    after: dict[tuple[int, ...], int] = {}
    for state, ways in states.items():
        for x in range(m + 1):
            left = list(state + opened)
            left[pu] -= x
            left[pv] -= m - x
            if left[pu] < 0 or left[pv] < 0 or any(left[p] for p in closed):
                continue
            key = tuple(q for p, q in enumerate(left) if p not in closed) if closed \
                else tuple(left)
            after[key] = after.get(key, 0) + ways
    return after
