"""Exact counts of Euler circuits and trails without enumerating them.

**Directed graphs: the BEST theorem.** A connected directed graph whose every node
has in-degree = out-degree has

    ec(D) = t_w(D) · ∏_v (out(v) − 1)!

Euler circuits, where ``t_w(D)`` is the number of spanning arborescences towards
any fixed root ``w`` (the same for every root of an Eulerian digraph), which the
matrix-tree theorem gives as a determinant of the out-degree Laplacian with row
and column ``w`` removed. The determinant is computed with Bareiss' fraction-free
elimination on Python integers: exact at any size.

**Undirected and mixed graphs: a sum over Eulerian orientations.** Every Euler
circuit of an undirected (or mixed) graph orients each two-way edge the way it is
walked, and that orientation is Eulerian (in = out everywhere); conversely a
circuit of an Eulerian orientation is a circuit of the graph. So

    ec(G) = Σ over Eulerian orientations D of G of ec(D),

and since ``out(v) = deg(v)/2`` in every Eulerian orientation the factorial
product is a constant: ``ec(G) = ∏_v (deg(v)/2 − 1)! · Σ_D t_w(D)``. The
orientations are enumerated node by node (each node picks which of its remaining
two-way edges leave it, ``itertools.combinations``), pruned as soon as a later node
could no longer balance. This is exponential in the number of two-way edges: it is
the part that stops scaling (see ``tests/bench/bench_counting.py``).

**Conventions** (the ones the published numbers use):

* An *Euler circuit* is a cyclic sequence of steps with a direction: a rotation is
  the same circuit, the reversal is another one. K5 has 264 and K7 129,976,320.
* Parallel edges are distinct; an undirected self-loop is one step with no
  direction (it is oriented one fixed way before counting, so it is counted once).
* :func:`exact_count` counts what :func:`trailkit.solvers.direct.counting.count_walks`
  counts: walks as step sequences *with their start*. A circuit of ``m`` edges has
  ``m`` rotations, all distinct, so for a closed puzzle (or an open one whose
  degrees are all even) with ``start``/``end`` any the count is ``ec · m``; a start
  node ``s`` alone gives ``ec · out(s)`` (the circuit passes ``s`` that often).
* Open trails between the two odd nodes ``a`` and ``b``: add a virtual one-way edge
  ``b → a``; the circuits through it, cut there, are exactly the trails from ``a``
  to ``b`` (and reversed for ``b`` to ``a``).
* The double-six domino set: the dominoes are the edges of K7 on pips 0..6 plus a
  self-loop (the double) at every pip. Each of K7's circuits visits every pip 3
  times and each double can be inserted at any of those 3 visits: 129,976,320 ·
  3^7 = 284,258,211,840 rings as cyclic sequences with a direction. The classical
  7,959,229,931,520 is that times 28: it counts a ring laid *from a chosen first
  domino in a chosen direction* (rotations and reflections distinct, a double has
  one orientation), i.e. the lines of all 28 dominoes whose ends also match, which
  is exactly the ``count_walks`` convention for the closed puzzle.

>>> from trailkit.models.puzzle import Puzzle
>>> k5 = Puzzle.build(kind="trail", edges=[(a, b) for a in "01234" for b in "01234" if a < b],
...                   closed=True)
>>> count_euler_circuits(k5), exact_count(k5).solutions
(264, 2640)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from trailkit.models.counting import CountResult, StartCounts
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["bareiss_determinant", "count_euler_circuits", "exact_count"]


# ----------------------------------------------------------------- determinants
def bareiss_determinant(matrix: Sequence[Sequence[int]]) -> int:
    """The determinant of an integer matrix, exactly, by fraction-free elimination.

    >>> bareiss_determinant([[2, -1], [-1, 2]])
    3
    """
    a = [list(row) for row in matrix]
    n = len(a)
    sign, prev = 1, 1
    for k in range(n - 1):
        if a[k][k] == 0:
            pivot = next((i for i in range(k + 1, n) if a[i][k] != 0), None)
            if pivot is None:
                return 0
            a[k], a[pivot] = a[pivot], a[k]
            sign = -sign
        akk = a[k][k]
        rowk = a[k]
        for i in range(k + 1, n):
            rowi = a[i]
            aik = rowi[k]
            for j in range(k + 1, n):
                rowi[j] = (rowi[j] * akk - aik * rowk[j]) // prev
        prev = akk
    return sign * a[n - 1][n - 1] if n else 1


# ----------------------------------------------------------------- the graph
@dataclass(frozen=True, slots=True)
class _Graph:
    """The edges as the counting sees them: fixed arcs, two-way edges, loop counts."""

    n: int
    arcs: tuple[tuple[int, int], ...]      # one-way non-loop edges (u -> v)
    links: tuple[tuple[int, int], ...]     # two-way non-loop edges
    degree: tuple[int, ...]                # all edge ends at each node (a loop gives 2)
    loops: tuple[int, ...]                 # self-loops at each node

    @classmethod
    def of(cls, puzzle: Puzzle, extra_arc: tuple[int, int] | None = None) -> _Graph:
        arcs: list[tuple[int, int]] = []
        links: list[tuple[int, int]] = []
        degree = [0] * puzzle.num_nodes
        loops = [0] * puzzle.num_nodes
        for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
            degree[u] += 1
            degree[v] += 1
            if u == v:
                loops[u] += 1
            else:
                (arcs if puzzle.is_directed(e) else links).append((u, v))
        if extra_arc is not None:
            arcs.append(extra_arc)
            degree[extra_arc[0]] += 1
            degree[extra_arc[1]] += 1
        return cls(puzzle.num_nodes, tuple(arcs), tuple(links), tuple(degree), tuple(loops))

    def connected(self) -> bool:
        """Do all edges lie in one connected component (isolated nodes ignored)?"""
        parent = list(range(self.n))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for u, v in self.arcs + self.links:
            parent[find(u)] = find(v)
        roots = {find(v) for v in range(self.n) if self.degree[v]}
        return len(roots) <= 1


def _orientations(g: _Graph) -> Iterator[list[list[int]]]:
    """Yield the out-adjacency count matrix ``A[u][v]`` of every Eulerian orientation.

    Nodes are processed in order; node ``i`` chooses which of its two-way edges to
    later nodes leave it, so that its out-degree becomes ``deg(i)/2``; a later node
    whose remaining need leaves its range is pruned at once. The same matrix object
    is reused between yields (copy it to keep it).
    """
    n = g.n
    need = [d // 2 for d in g.degree]      # out-steps still to place (loops below)
    remaining = [0] * n                    # two-way edges not yet oriented, per node
    later: list[list[int]] = [[] for _ in range(n)]
    for u, v in g.links:
        lo, hi = min(u, v), max(u, v)
        later[lo].append(hi)
        remaining[u] += 1
        remaining[v] += 1
    adj = [[0] * n for _ in range(n)]
    for u, v in g.arcs:
        adj[u][v] += 1
        need[u] -= 1
    for v in range(n):
        need[v] -= g.loops[v]  # a loop is one out-step (and one in-step) of its node
    if any(x < 0 or x > r for x, r in zip(need, remaining, strict=True)):
        return

    def place(i: int) -> Iterator[list[list[int]]]:
        if i == n:
            yield adj
            return
        targets = later[i]
        k = need[i]
        if k < 0 or k > len(targets):
            return
        for remaining_v in targets:
            remaining[remaining_v] -= 1
        for chosen in combinations(range(len(targets)), k):
            outs = set(chosen)
            ok = True
            for idx, v in enumerate(targets):
                if idx in outs:
                    adj[i][v] += 1
                else:
                    adj[v][i] += 1
                    need[v] -= 1
            for v in targets:
                if need[v] < 0 or need[v] > remaining[v]:
                    ok = False
            if ok:
                yield from place(i + 1)
            for idx, v in enumerate(targets):
                if idx in outs:
                    adj[i][v] -= 1
                else:
                    adj[v][i] -= 1
                    need[v] += 1
        for remaining_v in targets:
            remaining[remaining_v] += 1

    yield from place(0)


def _arborescences(adj: list[list[int]], nodes: list[int]) -> int:
    """Spanning arborescences towards ``nodes[0]``: the matrix-tree theorem."""
    rest = nodes[1:]
    matrix = []
    for u in rest:
        row = [-adj[u][v] for v in rest]
        out = sum(adj[u][v] for v in nodes if v != u)
        row[rest.index(u)] += out
        matrix.append(row)
    return bareiss_determinant(matrix)


def _circuits(g: _Graph) -> int:
    """Euler circuits (cyclic, with a direction) of ``g``: 0 if it has none."""
    if not any(g.degree) or not g.connected() or any(d % 2 for d in g.degree):
        return 0
    nodes = [v for v in range(g.n) if g.degree[v]]
    factor = math.prod(math.factorial(g.degree[v] // 2 - 1) for v in nodes)
    total = sum(_arborescences(adj, nodes) for adj in _orientations(g))
    return factor * total


# --------------------------------------------------------------------- public
def count_euler_circuits(puzzle: Puzzle) -> int:
    """Number of Euler circuits of the puzzle's graph, as cyclic step sequences with a
    direction (see the module docstring); start, end and colours are ignored.

    Directed graphs have one orientation, so this is the BEST theorem; undirected and
    mixed graphs sum it over their Eulerian orientations.
    """
    return _circuits(_Graph.of(puzzle))


def exact_count(puzzle: Puzzle) -> CountResult | None:
    """Count the solutions of an exactly-once puzzle without a colour rule exactly,
    in the ``count_walks`` convention (step sequences with their start), or return
    ``None`` when the method does not apply (other rules).
    """
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or puzzle.colours is not None:
        return None
    if not puzzle.num_nodes:  # no nodes: one solution, the walk that stands nowhere
        return CountResult(backend="exact", solutions=1, method="trivial")
    t0 = time.perf_counter()
    g = _Graph.of(puzzle)
    starts = sorted(puzzle.start) if puzzle.start is not None else range(puzzle.num_nodes)
    ends = puzzle.end if puzzle.end is not None else frozenset(range(puzzle.num_nodes))
    odd = [v for v in range(g.n) if g.degree[v] % 2]
    per: dict[str, int] = {}
    if puzzle.num_edges == 0:
        per = {puzzle.nodes[s]: int(s in ends) for s in starts}
        method = "trivial"
    elif not odd:
        ec = _circuits(g)
        per = {puzzle.nodes[s]: ec * (g.degree[s] // 2) if s in ends else 0 for s in starts}
        method = _method(puzzle)
    elif len(odd) == 2 and not puzzle.closed:
        a, b = odd
        per = {puzzle.nodes[s]: 0 for s in starts}
        start_set = set(starts)
        for x, y in ((a, b), (b, a)):
            if x in start_set and y in ends:
                # trails x -> y are the circuits through the virtual arc y -> x
                per[puzzle.nodes[x]] += _circuits(_Graph.of(puzzle, extra_arc=(y, x)))
        method = _method(puzzle) + "+virtual-edge"
    else:
        per = {puzzle.nodes[s]: 0 for s in starts}
        method = "parity"
    return CountResult(
        backend="exact", solutions=sum(per.values()), method=method,
        per_start={name: StartCounts(count) for name, count in per.items()},
        stats={"time_s": time.perf_counter() - t0})


def _method(puzzle: Puzzle) -> str:
    return "best-theorem" if puzzle.all_directed else "eulerian-orientations"
