"""Series reduction: a graph's chains of degree-2 nodes shrunk to single edges, keeping
its count of Euler circuits.

The exact count (:mod:`~trailkit.solvers.backends.direct.exact_count`) sums, over the
Eulerian orientations of a graph, its spanning arborescences: the work is a determinant
of one row and column per node, for each orientation. A node ``v`` of degree 2 (no
self-loop) has in = out = 1 in every Eulerian orientation, so its two edges ``u - v - w``
are walked as one: replacing them by one edge ``u - w`` (one-way when either was, in the
way it forces) gives the same Eulerian orientations, the same arborescences (``v``'s one
out-edge is in every arborescence, and ``u -> v`` is in one exactly when ``u -> w`` is) and
a factor ``(deg/2 - 1)! = 0! = 1`` less: the same number of circuits. When ``u = w`` the
two edges become a self-loop of ``u``; the count's self-loop is walked one fixed way,
while two two-way edges ``u - v - u`` are walked either way round, so that reduction
doubles the count (:attr:`Reduced.weight`). Two one-way edges that both enter ``v`` (or
both leave it) leave no Eulerian orientation at all: weight 0.

Done for every maximal chain of such nodes in one walk along it (a chain with no other
node is a cycle: it becomes a self-loop of one of its nodes), a path closed by the
count's virtual edge (the trails of a path) shrinks to one node with one self-loop at
once, whatever its length, instead of a determinant of a million rows; a subdivided
figure shrinks to its branch nodes. The nodes left are renumbered ``0..n-1`` (isolated
nodes dropped).

>>> r = reduce_series(4, arcs=[(3, 0)], links=[(0, 1), (1, 2), (2, 3)], loops=[0] * 4)
>>> r.n, r.arcs, r.links, r.loops, r.weight
(1, (), (), (1,), 1)
>>> reduce_series(2, arcs=[], links=[(0, 1), (0, 1)], loops=[0, 0]).weight
2
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Reduced", "reduce_series"]

#: How many edges the reduction walks between two calls of its ``tick``.
TICK_EVERY = 4096


@dataclass(frozen=True, slots=True)
class Reduced:
    """The reduced graph (nodes ``0..n-1``: one-way arcs, two-way links, self-loops per
    node) and the factor its count of circuits is multiplied by (0: none at all)."""

    n: int
    arcs: tuple[tuple[int, int], ...]
    links: tuple[tuple[int, int], ...]
    loops: tuple[int, ...]
    weight: int


class _Conflict(Exception):
    """Two one-way edges of a chain point against each other: no Eulerian orientation."""


class _Chains:
    """The graph's edges (``tail``, ``head``, ``one_way`` by id), each node's non-loop
    edges (``edges[first[v]:first[v + 1]]``, grouped by NumPy: a million small lists
    would take seconds to make), which nodes are inside chains, and the edges walked."""

    def __init__(self, n: int, arcs: Sequence[tuple[int, int]],
                 links: Sequence[tuple[int, int]], loops: Sequence[int],
                 tick: Callable[[], None] | None) -> None:
        count = len(arcs) + len(links)
        ends = np.fromiter(itertools.chain.from_iterable(itertools.chain(arcs, links)),
                           dtype=np.int64, count=2 * count).reshape(-1, 2)
        self.tail, self.head = ends[:, 0].tolist(), ends[:, 1].tolist()
        self.one_way = [True] * len(arcs) + [False] * len(links)
        both = ends.T.reshape(-1)  # every tail, then every head
        degree = np.bincount(both, minlength=n)
        self.edges: list[int] = (np.argsort(both, kind="stable") % max(1, len(ends))).tolist()
        self.first: list[int] = np.concatenate(([0], np.cumsum(degree))).tolist()
        self.inner = ((degree == 2) & (np.asarray(loops, dtype=np.int64) == 0)).tolist()
        self.walked = bytearray(len(ends))
        self.tick, self.steps = tick, 0

    def touching(self, v: int) -> list[int]:
        """The non-loop edges at ``v``."""
        return self.edges[self.first[v]:self.first[v + 1]]

    def walk(self, start: int, e: int) -> tuple[int, bool | None]:
        """Follow edge ``e`` from ``start`` through inner nodes to the first node that is
        not one (or back to ``start``): that node, and the way the chain's one-way edges
        force it to be walked (``True``: from ``start``; ``None``: either way)."""
        forced: bool | None = None
        at = start
        while True:
            self.walked[e] = 1
            u, v = self.tail[e], self.head[e]
            if self.one_way[e]:
                if forced is not None and forced != (u == at):
                    raise _Conflict
                forced = u == at
            at = v if u == at else u
            self.steps += 1
            if self.tick is not None and self.steps % TICK_EVERY == 0:
                self.tick()
            if at == start or not self.inner[at]:
                return at, forced
            one, other = self.edges[self.first[at]], self.edges[self.first[at] + 1]
            e = other if one == e else one


def reduce_series(n: int, arcs: Sequence[tuple[int, int]], links: Sequence[tuple[int, int]],
                  loops: Sequence[int], tick: Callable[[], None] | None = None) -> Reduced:
    """Remove every node of degree 2 without a self-loop, joining each chain of them into
    one edge (see the module docstring): the same Euler circuits, times
    :attr:`Reduced.weight`. ``tick`` is called every :data:`TICK_EVERY` edges walked (a
    deadline's check may raise)."""
    g = _Chains(n, arcs, links, loops, tick)
    kept = [not g.inner[v] and bool(g.first[v + 1] - g.first[v] or loops[v])
            for v in range(n)]
    loops_left, weight = list(loops), 1
    joined: list[tuple[int, int, bool | None]] = []
    # from the other nodes first, then the cycles made of inner nodes alone
    inner_left = (v for v in range(n) if g.inner[v] and not g.walked[g.edges[g.first[v]]])
    for start in itertools.chain([v for v in range(n) if kept[v]], inner_left):
        for e in g.touching(start):
            if g.walked[e]:
                continue
            try:
                end, forced = g.walk(start, e)
            except _Conflict:
                return Reduced(0, (), (), (), 0)
            kept[start] = True
            if end == start:  # a self-loop: walked either way round, or one fixed way
                loops_left[start] += 1
                weight *= 2 if forced is None else 1
            else:
                joined.append((start, end, forced))
    return _renumbered(kept, joined, loops_left, weight)


def _renumbered(kept: list[bool], joined: list[tuple[int, int, bool | None]],
                loops: list[int], weight: int) -> Reduced:
    """The nodes ``kept``, numbered ``0..n-1`` in their old order, with the ``joined``
    edges (two-way when not forced, else one-way the way forced)."""
    index = {v: i for i, v in enumerate(v for v, keep in enumerate(kept) if keep)}
    arcs = tuple((index[u], index[v]) if forced else (index[v], index[u])
                 for u, v, forced in joined if forced is not None)
    links = tuple((index[u], index[v]) for u, v, forced in joined if forced is None)
    return Reduced(len(index), arcs, links, tuple(loops[v] for v in index), weight)
