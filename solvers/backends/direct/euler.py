"""Walks that use every edge exactly once: Euler trails and circuits in linear time.

:func:`solve_euler` answers exactly-once puzzles without a colour rule:

* only two-way edges: the nodes touching an odd number of edges decide the ends;
* only one-way edges: out-degree minus in-degree decides them;
* both kinds: the two-way edges are first given directions by a max-flow so that
  every node balances (an open trail's two ends excepted), then as above.

The walk itself comes from an iterative Hierholzer in compiled code
(:func:`_hierholzer`, Numba through :mod:`trailkit.models.support.jit`; a small puzzle runs the
same code interpreted) over a compressed-sparse-row adjacency built by a counting sort
(:func:`.csr.group_by`). A two-way edge ``e`` of ``m`` is split into two half-edges
``e`` (from its tail) and ``m + e`` (from its head); the walk stays a NumPy array until
it is printed (:class:`~trailkit.models.answer.Walk`). The edge ends come from
:meth:`Puzzle.int_array <trailkit.models.puzzle.Puzzle.int_array>`: the spec reader's
own arrays when its compiled scanner read a big edge list (nothing converted), else
the Python lists converted first. How it compares with NetworkX and a plain C
Hierholzer on a million edges, from lists and from arrays: ``docs/benchmarks.md``
(``tests/bench/bench_perf.py``).

When no trail exists the answer carries a structural certificate
(:mod:`.structural`), except for mixed graphs that fail only because no
orientation balances: that answer says it rests on the max-flow.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> answer = solve_euler(p, Limits())
>>> answer.status.value, len(answer.walk)
('solved', 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.jit import kernel
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.csr import group_by
from trailkit.solvers.backends.direct.structural import (
    disconnected_certificate,
    structural_certificate,
)

__all__ = ["solve_euler"]

NAME = "direct"

NO_ORIENTATION = "no orientation of the two-way edges balances every node (max-flow)"

Route = tuple[np.ndarray, np.ndarray]
"""A walk as (node indices, edge indices), int64 arrays."""


def solve_euler(puzzle: Puzzle, limits: Limits) -> Answer:
    """A walk using every edge of ``puzzle`` exactly once, or why there is none.

    Runs in time linear in the puzzle's size (plus a max-flow over the two-way edges
    of a mixed graph), so ``limits`` are not needed and not consulted.
    """
    if not puzzle.nodes:  # no dominoes at all: they form a ring, the empty one
        return Answer.solved(NAME, Walk.nowhere(), optimal=True
                             if puzzle.objective is Objective.SHORTEST else None)
    if len(puzzle.tail) == 0:
        return _empty_walk(puzzle)
    directed = puzzle.directed
    mixed = False
    if directed is None or not any(directed):
        route = _undirected_route(puzzle)
    elif all(directed):
        route = _directed_route(puzzle)
    else:
        mixed = True
        route = _mixed_route(puzzle)
    if route is None:
        return _no_trail(puzzle, mixed)
    nodes, edges = route
    if len(edges) < len(puzzle.tail):
        return _disconnected(puzzle)
    optimal = True if puzzle.objective is Objective.SHORTEST else None
    method = "max-flow orientation + Hierholzer" if mixed else "Hierholzer"
    return Answer.solved(NAME, Walk(nodes, edges), optimal=optimal, method=method)


# ---------------------------------------------------------------- outcomes
def _empty_walk(puzzle: Puzzle) -> Answer:
    """No edges: the empty walk at the first node allowed both to start and to end."""
    starts: Iterable[int] = range(len(puzzle.nodes)) if puzzle.start is None \
        else sorted(puzzle.start)
    for v in starts:
        if puzzle.may_end(v):
            return Answer.solved(NAME, Walk((v,), ()), optimal=True
                                 if puzzle.objective is Objective.SHORTEST else None)
    certificate = structural_certificate(puzzle)  # the endpoints argument for no edges
    return Answer.unsolvable(NAME, certificate, reason="the puzzle has no edges, so the walk "
                             "cannot move, and no node is both an allowed start and an allowed end")


def _no_trail(puzzle: Puzzle, mixed: bool) -> Answer:
    """The degree conditions (or, for a mixed graph, the max-flow) ruled every trail out."""
    certificate = structural_certificate(puzzle)
    if certificate is not None:
        return Answer.unsolvable(NAME, certificate, reason=certificate.explanation)
    reason = NO_ORIENTATION if mixed else "the degrees rule out every start and end"
    return Answer.unsolvable(NAME, None, reason=reason)


def _disconnected(puzzle: Puzzle) -> Answer:
    """Hierholzer from a valid start missed edges: they lie in another piece of the graph."""
    certificate = disconnected_certificate(puzzle)
    reason = ("the edges do not form one connected piece" if certificate is None
              else certificate.explanation)
    return Answer.unsolvable(NAME, certificate, reason=reason)


# ------------------------------------------------------------ start choice
def _allowed(puzzle: Puzzle, s: int, t: int) -> bool:
    return ((puzzle.start is None or s in puzzle.start)
            and puzzle.may_end(t))


def _closing_start(puzzle: Puzzle, touched: Sequence[int] | np.ndarray) -> int | None:
    """For a circuit: the first node with edges that may both start and end the walk."""
    candidates: Iterable[int] = range(len(puzzle.nodes)) if puzzle.start is None \
        else sorted(puzzle.start)
    for v in candidates:
        if touched[v] and puzzle.may_end(v):
            return v
    return None


def _parity_ends(puzzle: Puzzle, deg: Sequence[int] | np.ndarray,
                 odd: list[int]) -> list[tuple[int, int]]:
    """The (start, end) pairs the odd-degree nodes and the puzzle's rules allow."""
    if not odd:
        s = _closing_start(puzzle, deg)
        return [] if s is None else [(s, s)]
    if len(odd) == 2 and not puzzle.closed:
        x, y = odd
        return [(s, t) for s, t in ((x, y), (y, x)) if _allowed(puzzle, s, t)]
    return []


# ------------------------------------------------------------------ routes
def _arrays(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """The edges' ends as int64 arrays (:meth:`Puzzle.int_array`: free when the reader
    kept them, else ``np.fromiter``)."""
    return puzzle.int_array("tail"), puzzle.int_array("head")


def _undirected_route(puzzle: Puzzle) -> Route | None:
    n = len(puzzle.nodes)
    adjacency = _adjacency(*_arrays(puzzle), n, True)
    deg = np.diff(adjacency[0])
    pairs = _parity_ends(puzzle, deg, np.flatnonzero(deg & 1).tolist())
    return _walk(adjacency, True, pairs[0][0]) if pairs else None


def _directed_route(puzzle: Puzzle) -> Route | None:
    tail, head = _arrays(puzzle)
    n = len(puzzle.nodes)
    adjacency = _adjacency(tail, head, n, False)
    out_degree = np.diff(adjacency[0])
    bal = out_degree - np.bincount(head, minlength=n)
    plus = np.flatnonzero(bal > 0).tolist()
    if not plus:
        s = _closing_start(puzzle, out_degree)
        return None if s is None else _walk(adjacency, False, s)
    minus = np.flatnonzero(bal < 0).tolist()
    if puzzle.closed or len(plus) > 1 or len(minus) > 1 or bal[plus[0]] > 1:
        return None
    s, t = plus[0], minus[0]
    if not _allowed(puzzle, s, t):
        return None
    return _walk(adjacency, False, s)


def _mixed_route(puzzle: Puzzle) -> Route | None:
    """Orient the two-way edges so the graph balances, then walk it as a one-way graph."""
    tail, head = _arrays(puzzle)
    n = len(puzzle.nodes)
    deg = np.bincount(tail, minlength=n) + np.bincount(head, minlength=n)
    for s, t in _parity_ends(puzzle, deg, np.flatnonzero(deg & 1).tolist()):
        flipped = _balancing_flips(puzzle, s, t)
        if flipped is None:
            continue
        tail, head = tail.copy(), head.copy()
        tail[flipped], head[flipped] = head[flipped], tail[flipped]
        return _walk(_adjacency(tail, head, n, False), False, s)
    return None


# -------------------------------------------------------------- Hierholzer
Adjacency = tuple[np.ndarray, np.ndarray, np.ndarray]
"""``(ptr, to, arc)`` from :func:`_adjacency`."""


def _walk(adjacency: Adjacency, halves: bool, s: int) -> Route:
    """Hierholzer from ``s``: the trail of every edge reachable from ``s`` (all of them
    when the graph is connected and ``s`` a valid start)."""
    ptr, to, arc = adjacency
    out = _hierholzer.sized(len(arc))(ptr, to, arc, halves, s)  # adjacency positions
    nodes = np.empty(len(out) + 1, dtype=np.int64)
    nodes[0] = s
    nodes[1:] = to[out]
    edges = arc[out].astype(np.int64)
    if halves:
        edges[edges >= len(arc) // 2] -= len(arc) // 2
    return nodes, edges


def _adjacency(tail: np.ndarray, head: np.ndarray, n: int, halves: bool) -> Adjacency:
    """Compressed sparse rows (:func:`.csr.group_by`): node ``v``'s arcs are at positions
    ``ptr[v]..ptr[v + 1] - 1`` in increasing arc order, ``to[i]`` is where the arc at
    position ``i`` leads and ``arc[i]`` which arc it is (so ``ptr`` differences are
    the degrees). With ``halves`` two-way edge ``e`` of ``m`` is the arcs ``e`` (from
    its tail) and ``m + e`` (from its head), else one-way arc ``e``."""
    if halves:
        return group_by(np.concatenate([tail, head]), np.concatenate([head, tail]), n)
    return group_by(tail, head, n)


@kernel
def _hierholzer(ptr: np.ndarray, to: np.ndarray, arc: np.ndarray, halves: bool,
                s: int) -> np.ndarray:
    """The adjacency positions of an Euler trail from ``s``, in walking order.

    Walk on along unused edges until stuck, then back up, emitting the steps backed
    over (filled from the end, so the result reads forwards); ``nxt[v]`` is node
    ``v``'s next position to try, so every position is looked at once.
    """
    edges = len(arc) // 2 if halves else len(arc)
    twin = edges if halves else len(arc) + 1  # arcs from here on are second halves
    used = np.zeros(edges, dtype=np.uint8)
    nxt = ptr[:-1].copy()
    stack = np.empty(edges, dtype=np.int64)
    out = np.empty(edges, dtype=np.int64)
    top = 0
    k = edges
    v = s
    while True:
        i, stop = nxt[v], ptr[v + 1]
        e = -1
        while i < stop:
            e = arc[i]
            if e >= twin:
                e -= twin
            if used[e] == 0:
                break
            i += 1
        if i < stop:
            used[e] = 1
            nxt[v] = i + 1
            stack[top] = i
            top += 1
            v = to[i]
        else:
            nxt[v] = stop
            if top == 0:
                break
            top -= 1
            k -= 1
            out[k] = stack[top]
            v = to[stack[top - 1]] if top > 0 else s
    return out[k:]


# ---------------------------------------------------------------- max-flow
def _balancing_flips(puzzle: Puzzle, s: int, t: int) -> np.ndarray | None:
    """Two-way edges to turn round (from ``tail -> head``) so every node balances.

    With ``s != t`` the start ``s`` keeps one edge more out than in and the end ``t``
    one more in. Turning edge ``u -> v`` round moves two units of out-minus-in from
    ``u`` to ``v``, so this is a flow: from each node with a surplus, along two-way
    edges (capacity one each), into the nodes with a deficit. ``None`` when the
    maximum flow cannot carry every surplus away.

    The flow runs compiled (:func:`_max_flow`): in pure Python it was the slow part of
    a big mixed graph (figures in ``docs/benchmarks.md``).
    """
    n = len(puzzle.nodes)
    tail, head = _arrays(puzzle)
    directed = (np.zeros(len(tail), dtype=bool) if puzzle.directed is None
                else np.fromiter(puzzle.directed, dtype=bool, count=len(tail)))
    bal = np.bincount(tail, minlength=n) - np.bincount(head, minlength=n)
    bal[s] -= 1
    bal[t] += 1
    if np.any(bal & 1):
        return None
    two_way = np.flatnonzero(~directed & (tail != head))
    surplus, deficit = np.flatnonzero(bal > 0), np.flatnonzero(bal < 0)
    source, sink = n, n + 1
    frm = np.concatenate([tail[two_way], np.full(len(surplus), source), deficit])
    to = np.concatenate([head[two_way], surplus, np.full(len(deficit), sink)])
    cap = np.concatenate([np.ones(len(two_way), dtype=np.int64), bal[surplus] // 2,
                          -bal[deficit] // 2])
    flow, residual = _max_flow.sized(len(frm))(n + 2, frm, to, cap, source, sink)
    if flow < bal[surplus].sum() // 2:
        return None
    oriented: np.ndarray = two_way[residual[:len(two_way)] == 0]
    return oriented


@kernel
def _max_flow(count: int, frm: np.ndarray, to: np.ndarray, capacity: np.ndarray,
              source: int, sink: int) -> tuple[int, np.ndarray]:
    """Dinic's maximum flow on arcs ``frm[i] -> to[i]``; returns the flow value and each
    arc's residual capacity.

    The arcs and their reverses are kept in compressed sparse rows (``rev[a]`` is the
    reverse of arc position ``a``), so a node's arcs are read in one sweep, where the
    linked lists of the pure-Python version missed the cache at every arc.
    """
    m = len(frm)
    ptr = np.zeros(count + 1, dtype=np.int64)
    for i in range(m):
        ptr[frm[i] + 1] += 1
        ptr[to[i] + 1] += 1
    for v in range(count):
        ptr[v + 1] += ptr[v]
    fill = ptr[:count].copy()
    target = np.empty(2 * m, dtype=np.int64)
    cap = np.zeros(2 * m, dtype=np.int64)
    rev = np.empty(2 * m, dtype=np.int64)
    where = np.empty(m, dtype=np.int64)
    for i in range(m):
        a, b = fill[frm[i]], fill[to[i]]
        fill[frm[i]] = a + 1
        fill[to[i]] = b + 1
        target[a], target[b] = to[i], frm[i]
        cap[a] = capacity[i]
        rev[a], rev[b] = b, a
        where[i] = a
    flow = 0
    level = np.empty(count, dtype=np.int64)
    queue = np.empty(count, dtype=np.int64)
    path = np.empty(count, dtype=np.int64)
    while True:
        _levels(ptr, target, cap, source, sink, level, queue)
        if level[sink] < 0:
            return flow, cap[where]
        flow += _blocking_flow(ptr[:count].copy(), ptr, target, cap, rev, level, source,
                               sink, path)


@kernel
def _levels(ptr: np.ndarray, target: np.ndarray, cap: np.ndarray, source: int, sink: int,
            level: np.ndarray, queue: np.ndarray) -> None:
    """Breadth-first distances from ``source`` along arcs with capacity left (-1:
    unreached), up to the sink's distance (nodes beyond it are of no use this phase)."""
    level[:] = -1
    level[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        if level[sink] >= 0 and level[u] >= level[sink]:
            return
        for a in range(ptr[u], ptr[u + 1]):
            w = target[a]
            if cap[a] and level[w] < 0:
                level[w] = level[u] + 1
                queue[tail] = w
                tail += 1


@kernel
def _blocking_flow(it: np.ndarray, ptr: np.ndarray, target: np.ndarray, cap: np.ndarray,
                   rev: np.ndarray, level: np.ndarray, source: int, sink: int,
                   path: np.ndarray) -> int:
    """Augment along shortest paths until none is left (``it``: each node's current arc;
    ``path[:depth]``: the arcs from the source to where the search stands)."""
    total = 0
    depth = 0
    v = source
    while True:
        if v == sink:
            push = cap[path[0]]
            for d in range(1, depth):
                push = min(push, cap[path[d]])
            for d in range(depth):
                cap[path[d]] -= push
                cap[rev[path[d]]] += push
            total += push
            depth = 0
            v = source
            continue
        a, stop = it[v], ptr[v + 1]
        step = level[v] + 1
        while a < stop and (not cap[a] or level[target[a]] != step):
            a += 1
        it[v] = a
        if a < stop:
            path[depth] = a
            depth += 1
            v = target[a]
        elif v == source:
            return total
        else:  # a dead end: never enter it again in this phase, step back
            level[v] = -1
            depth -= 1
            a = path[depth]
            v = target[rev[a]]
            it[v] = a + 1
