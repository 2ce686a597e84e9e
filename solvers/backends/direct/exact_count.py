"""Exact counts of Euler circuits and trails without enumerating them.

**Directed graphs: the BEST theorem.** A connected directed graph whose every node
has in-degree = out-degree has

    ec(D) = t_w(D) · ∏_v (out(v) − 1)!

Euler circuits, where ``t_w(D)`` is the number of spanning arborescences towards
any fixed root ``w`` (the same for every root of an Eulerian digraph), which the
matrix-tree theorem gives as a determinant of the out-degree Laplacian with row
and column ``w`` removed. The determinant is computed with Bareiss' fraction-free
elimination: exact (see below for the integer sizes).

**Undirected and mixed graphs: a sum over Eulerian orientations.** Every Euler
circuit of an undirected (or mixed) graph orients each two-way edge the way it is
walked, and that orientation is Eulerian (in = out everywhere); conversely a
circuit of an Eulerian orientation is a circuit of the graph. So

    ec(G) = Σ over Eulerian orientations D of G of ec(D),

and since ``out(v) = deg(v)/2`` in every Eulerian orientation the factorial
product is a constant: ``ec(G) = ∏_v (deg(v)/2 − 1)! · Σ_D t_w(D)``.

**How the sum is computed.** The two-way edges are grouped by the pair of nodes
they join; a depth-first search (in compiled code, :func:`_orientation_sum`) decides
pair by pair how many of its ``m`` parallel edges leave the lower node (``x`` of
them: ``C(m, x)`` orientations with the same matrix), pruned as soon as a node
could no longer balance. The determinant is built *along* the search: a node's row
of the Laplacian is final once all its pairs are decided, and row-by-row Bareiss
elimination reduces each row against the rows above it the moment it is final, so
a leaf costs one row reduction rather than a whole determinant, and orientations
sharing a prefix share its elimination. No pivoting is needed: the leading minors
of an Eulerian orientation's reduced Laplacian count rooted spanning forests of a
strongly connected digraph, so they are positive (a zero pivot means no leaf below
is an Eulerian orientation: the branch is pruned). The entries are minors of the
matrix, so int64 is exact when the Hadamard bound ``H = ∏ √2·out(v)`` has
``2H² < 2^62``, and the weighted sum is carried in two int64 words; beyond that
bound (about 60 nodes, or heavy multiplicities) :func:`_reference_sum`, the
original enumeration with Python-integer determinants, is used: exact at any size,
and the oracle the tests compare against.

Measured with ``tests/bench/bench_perf.py`` (figures in ``docs/benchmarks.md``): K9's
3,230,080 orientations (911,520,057,021,235,200 circuits, OEIS A135388) are counted
far faster compiled than by the reference enumeration, and so is the double-eight set
(K9 plus nine doubles).

**Where it stops**: the work is the number of Eulerian orientations, which grows
super-exponentially: K11 has about 4.8e10, some 15,000 times K9's (hours on one
core). Going further needs fewer orientations rather than faster ones: the
graph's symmetry (for K_n, count one orientation per orbit of the n! relabellings
and multiply by the orbit's size), a split of the search's first levels over
cores, or a transfer-matrix count along a path decomposition of small width.

**Conventions** (the ones the published numbers use):

* An *Euler circuit* is a cyclic sequence of steps with a direction: a rotation is
  the same circuit, the reversal is another one. K5 has 264 and K7 129,976,320.
* Parallel edges are distinct; an undirected self-loop is one step with no
  direction (it is oriented one fixed way before counting, so it is counted once).
* :func:`exact_count` counts what :func:`trailkit.solvers.backends.direct.enumeration.count_walks`
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
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np

from trailkit.models.counts import CountResult, StartCounts
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.jit import Kernel, kernel, will_compile
from trailkit.models.support.words import plural
from trailkit.solvers.backends.direct.series import Reduced, reduce_series
from trailkit.solvers.support.signs import SOLVING, sign

__all__ = ["Stopped", "TooBig", "bareiss_determinant", "count_euler_circuits", "exact_count"]

#: The formula is the direct backend's own way of counting.
BACKEND = "direct"

Method = Literal["auto", "compiled", "reference"]
"""How the sum over orientations is taken: compiled when int64 is provably exact
(``auto``), always compiled (``compiled``; ``ValueError`` beyond the bound), or by the
original Python enumeration (``reference``, the tests' oracle)."""

_INT64_SAFE = 2**62  # every product and sum the kernel forms stays below this
#: How many orientation choices the reference enumeration tries between clock checks.
_TICK_EVERY = 1024
_CARRY = 2**61       # the kernel's low word of the sum is kept below this
#: Determinants of more rows than this look at the clock as they go.
_TICKED_ROWS = 64
#: Bytes per entry of the square matrices the sum keeps (Python's lists of integers,
#: the larger of the two methods), for the estimate made before building them.
MATRIX_ENTRY_BYTES = 56


# ----------------------------------------------------------------- determinants
def bareiss_determinant(matrix: Sequence[Sequence[int]],
                        tick: Callable[[], None] | None = None) -> int:
    """The determinant of an integer matrix, exactly, by fraction-free elimination;
    ``tick`` is called before each row's update (a deadline's check: a matrix of a few
    thousand rows takes minutes).

    >>> bareiss_determinant([[2, -1], [-1, 2]])
    3
    """
    a = [list(row) for row in matrix]
    n = len(a)
    tick = tick if n > _TICKED_ROWS else None  # smaller ones are over in a moment
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
            if tick is not None:
                tick()
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
        """The puzzle's graph (in NumPy: a million edges one by one took seconds), with
        ``extra_arc`` added (the virtual edge of open trails)."""
        tail = np.asarray(puzzle.tail, dtype=np.int64).reshape(-1)
        head = np.asarray(puzzle.head, dtype=np.int64).reshape(-1)
        one_way = np.zeros(len(tail), dtype=bool) if puzzle.directed is None else \
            np.asarray(puzzle.directed, dtype=bool).reshape(-1)
        if extra_arc is not None:
            tail, head = np.append(tail, extra_arc[0]), np.append(head, extra_arc[1])
            one_way = np.append(one_way, True)
        n = puzzle.num_nodes
        degree = np.bincount(tail, minlength=n) + np.bincount(head, minlength=n)
        loop = tail == head
        loops = np.bincount(tail[loop], minlength=n)
        arcs, links = one_way & ~loop, ~one_way & ~loop
        return cls(n, tuple(zip(tail[arcs].tolist(), head[arcs].tolist(), strict=True)),
                   tuple(zip(tail[links].tolist(), head[links].tolist(), strict=True)),
                   tuple(degree.tolist()), tuple(loops.tolist()))

    def with_arc(self, u: int, v: int) -> _Graph:
        """This graph with one more arc ``u -> v`` (the virtual edge of open trails)."""
        degree = list(self.degree)
        degree[u] += 1
        degree[v] += 1
        return _Graph(self.n, (*self.arcs, (u, v)), self.links, tuple(degree), self.loops)

    @classmethod
    def reduced(cls, r: Reduced) -> _Graph:
        """The graph of a series reduction (its weight aside)."""
        degree = [2 * k for k in r.loops]
        for u, v in r.arcs + r.links:
            degree[u] += 1
            degree[v] += 1
        return cls(r.n, r.arcs, r.links, tuple(degree), r.loops)

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


@dataclass(slots=True)
class _Level:
    """One node's decision in :func:`_orientations`: its choices (numbered), and the one
    applied now (``None``: none)."""

    node: int
    choices: Iterator[tuple[int, tuple[int, ...]]]
    applied: set[int] | None = None


def _orientations(g: _Graph, tick: Callable[[], None] | None = None
                  ) -> Iterator[list[list[int]]]:
    """Yield the out-adjacency count matrix ``A[u][v]`` of every Eulerian orientation;
    ``tick`` is called every :data:`_TICK_EVERY` choices tried (a deadline's check: the
    search can try millions before it yields one).

    Nodes are processed in order; node ``i`` chooses which of its two-way edges to
    later nodes leave it, so that its out-degree becomes ``deg(i)/2``; a later node
    whose remaining need leaves its range is pruned at once. The search keeps its own
    stack (a graph of thousands of nodes is as deep). The same matrix object is reused
    between yields (copy it to keep it).
    """
    n = g.n
    need, remaining, later, adj = _search_start(g)
    if any(x < 0 or x > r for x, r in zip(need, remaining, strict=True)):
        return
    if n == 0:
        yield adj
        return

    def enter(i: int) -> _Level:
        targets, k = later[i], need[i]
        for v in targets:
            remaining[v] -= 1
        return _Level(i, enumerate(combinations(range(len(targets)), k))
                      if 0 <= k <= len(targets) else iter(()))

    stack = [enter(0)]
    while stack:
        level = stack[-1]
        targets = later[level.node]
        if level.applied is not None:
            _turn(adj, need, level.node, targets, level.applied, -1)
            level.applied = None
        tried_chosen = next(level.choices, None)
        if tried_chosen is None:
            for v in targets:
                remaining[v] += 1
            stack.pop()
            continue
        tried, chosen = tried_chosen
        if tick is not None and tried % _TICK_EVERY == 0:
            tick()
        level.applied = set(chosen)
        _turn(adj, need, level.node, targets, level.applied, 1)
        if all(0 <= need[v] <= remaining[v] for v in targets):
            if level.node + 1 == n:
                yield adj
            else:
                stack.append(enter(level.node + 1))


def _search_start(g: _Graph) -> tuple[list[int], list[int], list[list[int]],
                                      list[list[int]]]:
    """Where :func:`_orientations` starts: each node's out-steps still to place, its
    two-way edges not yet oriented, the later nodes its two-way edges go to, and the
    out-adjacency matrix of the one-way arcs."""
    n = g.n
    need = [d // 2 - k for d, k in zip(g.degree, g.loops, strict=True)]  # a loop: 1 out
    remaining = [0] * n
    later: list[list[int]] = [[] for _ in range(n)]
    for u, v in g.links:
        later[min(u, v)].append(max(u, v))
        remaining[u] += 1
        remaining[v] += 1
    adj = [[0] * n for _ in range(n)]
    for u, v in g.arcs:
        adj[u][v] += 1
        need[u] -= 1
    return need, remaining, later, adj


def _turn(adj: list[list[int]], need: list[int], i: int, targets: list[int],
          outs: set[int], step: int) -> None:
    """Orient node ``i``'s two-way edges to ``targets`` (out of ``i`` where their index
    is in ``outs``, else into it): ``step`` 1 does it, -1 undoes it."""
    for idx, v in enumerate(targets):
        if idx in outs:
            adj[i][v] += step
        else:
            adj[v][i] += step
            need[v] -= step


def _arborescences(adj: list[list[int]], nodes: list[int],
                   tick: Callable[[], None] | None = None) -> int:
    """Spanning arborescences towards ``nodes[0]``: the matrix-tree theorem."""
    rest = nodes[1:]
    matrix = []
    for u in rest:
        row = [-adj[u][v] for v in rest]
        out = sum(adj[u][v] for v in nodes if v != u)
        row[rest.index(u)] += out
        matrix.append(row)
    return bareiss_determinant(matrix, tick)


def _reference_sum(g: _Graph, nodes: list[int], deadline: float | None = None) -> int:
    """Σ_D t_w(D) by enumerating every orientation and taking its determinant in Python
    integers: exact at any size, slow (K9: minutes). The oracle for the compiled path.
    :class:`Stopped` at ``deadline`` (``time.monotonic()``) or a Ctrl-C."""
    total = leaves = 0

    def tick() -> None:
        if deadline is not None and time.monotonic() >= deadline:
            raise Stopped(total, leaves, False)

    try:
        for adj in _orientations(g, tick):
            total += _arborescences(adj, nodes, tick)
            leaves += 1
            if deadline is not None and time.monotonic() >= deadline:
                raise Stopped(total, leaves, False)
    except KeyboardInterrupt:
        raise Stopped(total, leaves, True) from None
    return total


@dataclass(frozen=True, slots=True)
class _Search:
    """The compiled search's input: nodes with edges renumbered ``0..N``, root ``N``.

    ``lap`` is the reduced out-degree Laplacian of the one-way arcs alone (rows and
    columns ``0..N-1``), ``need[v]`` the out-steps node ``v`` still needs from its
    two-way edges, ``remaining[v]`` its two-way edges, ``pa/pb/pm`` the node pairs
    joined by two-way edges (``pa < pb``) with their multiplicities, in search order,
    and ``done[l]`` how many rows are final (so reducible) once ``l`` pairs are decided.
    """

    lap: np.ndarray
    need: np.ndarray
    remaining: np.ndarray
    pa: np.ndarray
    pb: np.ndarray
    pm: np.ndarray
    done: np.ndarray
    binom: np.ndarray
    bound: int  # a bound on every leaf's weighted determinant

    @classmethod
    def of(cls, g: _Graph, nodes: list[int]) -> _Search:
        index = {v: i for i, v in enumerate(nodes)}
        size = len(nodes) - 1
        lap = np.zeros((size, size), dtype=np.int64)
        need = np.array([g.degree[v] // 2 - g.loops[v] for v in nodes], dtype=np.int64)
        for u, v in g.arcs:
            a, b = index[u], index[v]
            need[a] -= 1
            if a < size:
                lap[a, a] += 1
                if b < size:
                    lap[a, b] -= 1
        pairs = sorted(Counter((min(index[u], index[v]), max(index[u], index[v]))
                               for u, v in g.links).items())
        remaining = np.zeros(len(nodes), dtype=np.int64)
        last = [-1] * len(nodes)  # the last pair (search level) touching each node
        for level, ((a, b), m) in enumerate(pairs):
            remaining[a] += m
            remaining[b] += m
            last[a] = last[b] = level
        done = np.zeros(len(pairs) + 1, dtype=np.int64)
        ready = -1
        for row in range(size):  # row r is reducible once rows 0..r are all final
            ready = max(ready, last[row])
            done[ready + 1:] += 1
        top = max((m for _, m in pairs), default=0)
        binom = np.array([[math.comb(m, x) if x <= m and math.comb(m, x) < _INT64_SAFE
                           else 0 for x in range(top + 1)] for m in range(top + 1)],
                         dtype=np.int64)
        weight = math.prod(math.comb(m, m // 2) for _, m in pairs)
        out = [g.degree[v] // 2 - g.loops[v] for v in nodes[:size]]
        bound = weight * math.prod(out)  # a determinant is at most its diagonal's product
        # a Bareiss entry (a minor) could overflow int64: Hadamard's bound, in logarithms
        # (on a 400-edge figure the product itself is past a float's range)
        hadamard = sum(math.log(max(1.0, math.sqrt(2) * o)) for o in out)
        if 2 * hadamard + math.log(2) >= math.log(max(_INT64_SAFE, 1)):
            bound = _INT64_SAFE
        return cls(lap, need, remaining, np.array([a for (a, _), _ in pairs], dtype=np.int64),
                   np.array([b for (_, b), _ in pairs], dtype=np.int64),
                   np.array([m for _, m in pairs], dtype=np.int64), done, binom, bound)

    @property
    def exact_in_int64(self) -> bool:
        return self.bound < _INT64_SAFE


@kernel
def _reduce_rows(lap: np.ndarray, red: np.ndarray, first: int, stop: int) -> bool:
    """Bareiss-reduce rows ``first..stop-1`` of ``lap`` into ``red`` against the rows
    above (already reduced); ``False`` at a zero pivot (no Eulerian leaf below)."""
    size = lap.shape[0]
    for r in range(first, stop):
        for j in range(size):
            red[r, j] = lap[r, j]
        prev = 1
        for k in range(r):
            pivot = red[k, k]
            factor = red[r, k]
            if factor != 0:
                for j in range(k + 1, size):
                    red[r, j] = (red[r, j] * pivot - factor * red[k, j]) // prev
            else:
                for j in range(k + 1, size):
                    red[r, j] = red[r, j] * pivot // prev
            prev = pivot
        if red[r, r] == 0:
            return False
    return True


@kernel
def _shift(lap: np.ndarray, need: np.ndarray, remaining: np.ndarray, a: int, b: int,
           m: int, x: int, sign: int) -> None:
    """Orient (``sign=1``) or un-orient (``-1``) the ``m`` two-way edges between ``a``
    and ``b``: ``x`` of them ``a -> b``, the rest ``b -> a``. ``b`` may be the root."""
    size = lap.shape[0]
    y = m - x
    need[a] -= sign * x
    need[b] -= sign * y
    remaining[a] -= sign * m
    remaining[b] -= sign * m
    lap[a, a] += sign * x
    if b < size:
        lap[b, b] += sign * y
        lap[a, b] -= sign * x
        lap[b, a] -= sign * y


@kernel
def _orientation_sum(lap: np.ndarray, need: np.ndarray, remaining: np.ndarray,
                     pa: np.ndarray, pb: np.ndarray, pm: np.ndarray, done: np.ndarray,
                     binom: np.ndarray, red: np.ndarray, choice: np.ndarray,
                     weight: np.ndarray, state: np.ndarray, budget: int) -> bool:
    """Σ over Eulerian orientations of (orientations with that matrix) × det, as
    ``state[1] · 2^61 + state[2]`` (see the module docstring), taken ``budget`` search
    steps at a time: whether the search is over.

    An iterative depth-first search over the pairs: ``choice[l]`` is how many of pair
    ``l``'s edges leave its lower node, ``weight[l]`` the number of orientations the
    decided prefix stands for, ``red`` the rows reduced so far. ``lap``, ``need`` and
    ``remaining`` are updated in place and restored on the way back. ``state`` holds
    ``(level, high, low, leaves)`` between calls, so that the caller gets control back
    every ``budget`` steps (a compiled loop sees neither a Ctrl-C nor a clock) and calls
    again to resume where it stopped. Set up by :func:`_sum_in_chunks`.
    """
    size = lap.shape[0]
    levels = len(pa)
    level = state[0]
    high = state[1]
    low = state[2]
    leaves = state[3]
    steps = 0
    while level >= 0 and steps < budget:
        steps += 1
        a, b, m = pa[level], pb[level], pm[level]
        x = choice[level]
        if x >= 0:
            _shift(lap, need, remaining, a, b, m, x, -1)
        x += 1
        if x > m:
            choice[level] = -1
            level -= 1
            continue
        choice[level] = x
        _shift(lap, need, remaining, a, b, m, x, 1)
        if need[a] < 0 or need[a] > remaining[a] or need[b] < 0 or need[b] > remaining[b]:
            continue
        if not _reduce_rows(lap, red, done[level], done[level + 1]):
            continue
        w = weight[level] * binom[m, x]
        if level == levels - 1:
            leaves += 1
            low += w * (red[size - 1, size - 1] if size > 0 else 1)
            if low >= _CARRY:
                high += 1
                low -= _CARRY
            continue
        weight[level + 1] = w
        level += 1
    state[0] = level
    state[1] = high
    state[2] = low
    state[3] = leaves
    return bool(level < 0)


class Stopped(Exception):
    """The count was stopped before its end, by its deadline or by a Ctrl-C
    (``interrupted``); ``partial`` is what the sum had reached: a lower bound, as every
    term is a count (never negative). ``leaves`` is how many Eulerian orientations
    (classes of them, for parallel edges) were summed."""

    def __init__(self, partial: int, leaves: int, interrupted: bool) -> None:
        super().__init__("interrupted" if interrupted else "time limit reached")
        self.partial = partial
        self.leaves = leaves
        self.interrupted = interrupted


#: How long one compiled chunk of the search may run before control comes back to
#: Python (for the deadline and a Ctrl-C): well inside the second the contract allows.
CHUNK_S = 0.05
#: Below this many seconds left, a time-limited sum whose kernels are not compiled yet
#: (nor cached) runs interpreted: compiling them takes longer than that, and a compiler
#: cannot be stopped at a deadline.
COMPILE_S = 30.0


def _variant(kernel: Kernel, leaves: int, deadline: float | None) -> Callable[..., Any]:
    """The kernel to run for a search of at most ``leaves`` orientations: compiled from
    :data:`~trailkit.models.support.jit.COMPILE_FROM` of them, unless it would compile first with
    less than :data:`COMPILE_S` seconds left before ``deadline``."""
    if deadline is not None and deadline - time.monotonic() < COMPILE_S and will_compile(
            _orientation_sum, _reduce_rows, _shift):
        return kernel.interpreted
    return kernel.sized(leaves)


def _sum_in_chunks(search: _Search, deadline: float | None) -> int:
    """Run :func:`_orientation_sum` in chunks of about :data:`CHUNK_S` seconds until it is
    over; :class:`Stopped` (with the partial sum) at ``deadline`` (``time.monotonic()``)
    or a Ctrl-C."""
    leaves = math.prod(int(m) + 1 for m in search.pm)  # at most this many orientations
    reduce_rows = _variant(_reduce_rows, leaves, deadline)
    size = search.lap.shape[0]
    lap, red = search.lap.copy(), np.zeros((size, size), dtype=np.int64)
    if not reduce_rows(lap, red, 0, search.done[0]):
        return 0
    if not len(search.pa):
        return int(red[size - 1, size - 1]) if size > 0 else 1
    run = _variant(_orientation_sum, leaves, deadline)
    args = (lap, search.need.copy(), search.remaining.copy(), search.pa, search.pb,
            search.pm, search.done, search.binom, red,
            np.full(len(search.pa), -1, dtype=np.int64),
            np.ones(len(search.pa) + 1, dtype=np.int64))
    state = np.zeros(4, dtype=np.int64)  # level 0, nothing summed yet
    budget, rate = 64, 0.0  # steps in the next chunk; steps per second measured
    try:
        while True:
            began = time.monotonic()
            if run(*args, state, budget):
                return int(state[1]) * _CARRY + int(state[2])
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise Stopped(int(state[1]) * _CARRY + int(state[2]), int(state[3]), False)
            rate = budget / max(now - began, 1e-6) if rate else 1.0  # the 1st may compile
            chunk = CHUNK_S if deadline is None else min(CHUNK_S, deadline - now)
            budget = max(1, min(budget * 4, int(rate * chunk)))
    except KeyboardInterrupt:
        raise Stopped(int(state[1]) * _CARRY + int(state[2]), int(state[3]),
                      True) from None


def _compiled_sum(g: _Graph, nodes: list[int], search: _Search | None = None,
                  deadline: float | None = None) -> int:
    """Σ_D t_w(D) by the compiled search; ``ValueError`` when int64 could overflow,
    :class:`Stopped` at ``deadline`` or a Ctrl-C."""
    search = search or _Search.of(g, nodes)
    if not search.exact_in_int64:
        raise ValueError("the determinants could overflow int64 on this graph; "
                         "use the reference method")
    if any(n < 0 or n > r for n, r in zip(search.need, search.remaining, strict=True)):
        return 0
    return _sum_in_chunks(search, deadline)


class TooBig(Exception):
    """The sum's matrices would not fit in the memory budget: nothing was built."""


def _fits(nodes: int, memory_mb: int | None) -> None:
    """Raise :class:`TooBig` when the square matrices of ``nodes`` rows would take more
    than ``memory_mb`` (the estimate is made before any is built: a 100,000-node figure
    asked for 75 GB at once)."""
    need = MATRIX_ENTRY_BYTES * nodes * nodes / 1e6
    if memory_mb is not None and need > memory_mb:
        raise TooBig(
            f"the exact count would need about {need:,.0f} MB for the matrices of its "
            f"{nodes:,} nodes of degree over 2, more than the memory limit of "
            f"{memory_mb:,} MB, so it was not started; a larger --memory-limit if the "
            "machine has the memory (the count's time grows with the nodes cubed), or "
            "--method enumerate for a puzzle with few solutions")


def _circuits(g: _Graph, method: Method = "auto", deadline: float | None = None,
              memory_mb: int | None = None) -> int:
    """Euler circuits (cyclic, with a direction) of ``g``: 0 if it has none.
    :class:`Stopped` at ``deadline`` or a Ctrl-C, its partial sum made circuits;
    :class:`TooBig` past ``memory_mb``. Chains of degree-2 nodes are shrunk first
    (:mod:`~trailkit.solvers.backends.direct.series`): a path's trails need no search."""
    if not any(g.degree) or any(d % 2 for d in g.degree):
        return 0

    def tick() -> None:
        if deadline is not None and time.monotonic() >= deadline:
            raise Stopped(0, 0, False)

    try:
        tick()  # the reduction's first tick comes after its lists are made: a second
        reduced = reduce_series(g.n, g.arcs, g.links, g.loops, tick)
    except KeyboardInterrupt:
        raise Stopped(0, 0, True) from None
    if not reduced.weight:
        return 0
    g = _Graph.reduced(reduced)  # as connected as before: chains shrink, none is cut
    if not g.connected():
        return 0
    nodes = [v for v in range(g.n) if g.degree[v]]
    _fits(len(nodes), memory_mb)
    factor = reduced.weight * math.prod(math.factorial(g.degree[v] // 2 - 1) for v in nodes)
    if len(nodes) == 1:  # self-loops alone (a path's trails come to this): one arborescence
        return factor
    try:
        if method == "reference":
            return factor * _reference_sum(g, nodes, deadline)
        search = _Search.of(g, nodes)
        if method == "auto" and not search.exact_in_int64:
            return factor * _reference_sum(g, nodes, deadline)
        return factor * _compiled_sum(g, nodes, search, deadline)
    except Stopped as stop:
        stop.partial *= factor
        raise


# --------------------------------------------------------------------- public
def count_euler_circuits(puzzle: Puzzle, method: Method = "auto") -> int:
    """Number of Euler circuits of the puzzle's graph, as cyclic step sequences with a
    direction (see the module docstring); start, end and colours are ignored.

    Directed graphs have one orientation, so this is the BEST theorem; undirected and
    mixed graphs sum it over their Eulerian orientations. ``method`` picks how the
    sum is taken (:data:`Method`); every method gives the same number.
    """
    return _circuits(_Graph.of(puzzle), method)


def exact_count(puzzle: Puzzle, time_limit: float | None = None, *,
                memory_mb: int | None = None) -> CountResult | None:
    """Count the solutions of an exactly-once puzzle without a colour rule exactly,
    in the ``count_walks`` convention (step sequences with their start), or return
    ``None`` when the method does not apply (other rules, node rules among them).

    The sum over orientations stops after ``time_limit`` seconds, or at a Ctrl-C: the
    result is then incomplete, its numbers lower bounds (what the orientations summed
    so far give; every term counts circuits, so none is negative), and a Ctrl-C is
    marked ``stats["interrupted"]``. A sum whose matrices would need more than
    ``memory_mb`` is not started: incomplete too, saying so.
    """
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or puzzle.colours is not None \
            or puzzle.has_node_rules:
        return None
    if not puzzle.num_nodes:  # no nodes: one solution, the walk that stands nowhere
        return CountResult(backend=BACKEND, solutions=1, method="trivial", by_formula=True)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    g = _Graph.of(puzzle)
    per = dict.fromkeys(map(puzzle.nodes.__getitem__, puzzle.start_nodes()), 0)
    odd = [v for v in range(g.n) if g.degree[v] % 2]
    method = ("trivial" if puzzle.num_edges == 0 else _method(puzzle) if not odd else
              _method(puzzle) + "+virtual-edge" if len(odd) == 2 and not puzzle.closed
              else "parity")
    stopped: Stopped | TooBig | None = None
    try:
        sign(SOLVING, BACKEND)  # a Ctrl-C from here on still prints what was counted
        _tally(puzzle, g, odd, per, deadline, memory_mb)
    except (Stopped, TooBig) as stop:
        stopped = stop
    except MemoryError:  # past the estimate, under no memory limit
        stopped = TooBig("the exact count ran out of memory building its matrices")
    except KeyboardInterrupt:  # outside a sum: what ``per`` holds is whole
        stopped = Stopped(0, 0, interrupted=True)
    rows = dict.fromkeys(per, StartCounts(0))  # one row shared by the starts of no walk
    rows.update({name: StartCounts(count) for name, count in per.items() if count})
    stats: dict[str, object] = {"time_s": time.perf_counter() - t0}
    if stopped is None:
        return CountResult(backend=BACKEND, solutions=sum(per.values()), method=method,
                           per_start=rows, stats=stats, by_formula=True)
    reason = f"{stopped}; the number is a lower bound (at least)"
    if isinstance(stopped, Stopped):
        why = "interrupted (Ctrl-C)" if stopped.interrupted else "time limit reached"
        stats.update(orientations=stopped.leaves, interrupted=stopped.interrupted)
        reason = (f"{why} after summing {plural(stopped.leaves, 'Eulerian orientation')}; "
                  "the number is a lower bound (at least)")
    return CountResult(
        backend=BACKEND, solutions=sum(per.values()), method=method, per_start=rows,
        complete=False, by_formula=True, stats=stats, reason=reason)


def _tally(puzzle: Puzzle, g: _Graph, odd: list[int], per: dict[str, int],
           deadline: float | None, memory_mb: int | None) -> None:
    """Add every start's solutions to ``per``; when :class:`Stopped`, add what the
    partial sum gives first (a lower bound), then let it go on."""
    starts = puzzle.start_nodes()
    ends = puzzle.end if puzzle.end is not None else frozenset(range(puzzle.num_nodes))
    if puzzle.num_edges == 0:
        per.update({puzzle.nodes[s]: int(s in ends) for s in starts})
    elif not odd:
        def credit(ec: int) -> None:
            for s in starts:
                per[puzzle.nodes[s]] += ec * (g.degree[s] // 2) if s in ends else 0

        _credited(_circuits_of(g, deadline, memory_mb), credit)
    elif len(odd) == 2 and not puzzle.closed:
        a, b = odd
        for x, y in ((a, b), (b, a)):
            if x in set(starts) and y in ends:
                # trails x -> y are the circuits through the virtual arc y -> x
                _credited(_circuits_of(g.with_arc(y, x), deadline,
                                       memory_mb), _adder(per, puzzle.nodes[x]))


def _circuits_of(g: _Graph, deadline: float | None, memory_mb: int | None
                 ) -> Callable[[], int]:
    return lambda: _circuits(g, deadline=deadline, memory_mb=memory_mb)


def _adder(per: dict[str, int], name: str) -> Callable[[int], None]:
    def add(count: int) -> None:
        per[name] += count
    return add


def _credited(compute: Callable[[], int], credit: Callable[[int], None]) -> None:
    """``credit(compute())``, or the partial sum's credit when :class:`Stopped`."""
    try:
        credit(compute())
    except Stopped as stop:
        credit(stop.partial)
        raise


def _method(puzzle: Puzzle) -> str:
    return "best-theorem" if puzzle.all_directed else "eulerian-orientations"
