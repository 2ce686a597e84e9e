"""Walks that use every edge exactly once: Euler trails and circuits in linear time.

:func:`solve_euler` answers exactly-once puzzles without a colour rule:

* only two-way edges: the nodes touching an odd number of edges decide the ends;
* only one-way edges: out-degree minus in-degree decides them;
* both kinds: the two-way edges are first given directions by a max-flow so that
  every node balances (an open trail's two ends excepted), then as above.

The walk itself comes from an iterative Hierholzer over flat arrays: each node's
edges form a linked list (``first[v]``, ``nxt[h]``, a sentinel at the end), which
is also the node's pointer to its next unused edge, and a two-way edge is split
into two half-edges ``2e`` (from its tail) and ``2e + 1`` (from its head), so
``h ^ 1`` is the other half and ``h >> 1`` the edge. No recursion and no per-step function calls: a
million edges take about a second in pure Python.

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

from collections import Counter
from collections.abc import Iterable, Sequence

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.solvers.base import Limits
from trailkit.solvers.direct.structural import (
    balances,
    disconnected_certificate,
    structural_certificate,
    total_degrees,
)

__all__ = ["solve_euler"]

NAME = "direct"

NO_ORIENTATION = "no orientation of the two-way edges balances every node (max-flow)"

Route = tuple[list[int], list[int]]
"""A walk as (node indices, edge indices)."""


def solve_euler(puzzle: Puzzle, limits: Limits) -> Answer:
    """A walk using every edge of ``puzzle`` exactly once, or why there is none.

    Runs in time linear in the puzzle's size (plus a max-flow over the two-way edges
    of a mixed graph), so ``limits`` are not needed and not consulted.
    """
    if not puzzle.nodes:  # no dominoes at all: they form a ring, the empty one
        return Answer.solved(NAME, Walk.nowhere(), optimal=True
                             if puzzle.objective is Objective.SHORTEST else None)
    if not puzzle.tail:
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
    return Answer.solved(NAME, Walk(tuple(nodes), tuple(edges)), optimal=optimal,
                         method=method)


# ---------------------------------------------------------------- outcomes
def _empty_walk(puzzle: Puzzle) -> Answer:
    """No edges: the empty walk at the first node allowed both to start and to end."""
    starts: Iterable[int] = range(len(puzzle.nodes)) if puzzle.start is None \
        else sorted(puzzle.start)
    for v in starts:
        if puzzle.end is None or v in puzzle.end:
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
            and (puzzle.end is None or t in puzzle.end))


def _closing_start(puzzle: Puzzle, touched: Counter[int] | Sequence[int]) -> int | None:
    """For a circuit: the first node with edges that may both start and end the walk."""
    candidates: Iterable[int] = range(len(puzzle.nodes)) if puzzle.start is None \
        else sorted(puzzle.start)
    for v in candidates:
        if touched[v] and (puzzle.end is None or v in puzzle.end):
            return v
    return None


def _parity_ends(puzzle: Puzzle, deg: Counter[int] | Sequence[int],
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
def _undirected_route(puzzle: Puzzle) -> Route | None:
    m = len(puzzle.tail)
    ends = [0] * (2 * m)
    ends[0::2] = puzzle.tail
    ends[1::2] = puzzle.head
    first, nxt, deg = _half_edge_lists(len(puzzle.nodes), ends)
    odd = [v for v, d in enumerate(deg) if d & 1]
    pairs = _parity_ends(puzzle, deg, odd)
    if not pairs:
        return None
    return _trail_undirected(first, nxt, ends, pairs[0][0])


def _directed_route(puzzle: Puzzle) -> Route | None:
    tail, head = puzzle.tail, puzzle.head
    bal = balances(len(puzzle.nodes), tail, head)
    plus = [v for v, b in enumerate(bal) if b > 0]
    if not plus:
        s = _closing_start(puzzle, Counter(tail))
        return None if s is None else _trail_directed(len(puzzle.nodes), tail, head, s)
    minus = [v for v, b in enumerate(bal) if b < 0]
    if puzzle.closed or len(plus) > 1 or len(minus) > 1 or bal[plus[0]] > 1:
        return None
    s, t = plus[0], minus[0]
    if not _allowed(puzzle, s, t):
        return None
    return _trail_directed(len(puzzle.nodes), tail, head, s)


def _mixed_route(puzzle: Puzzle) -> Route | None:
    """Orient the two-way edges so the graph balances, then walk it as a one-way graph."""
    deg = total_degrees(len(puzzle.nodes), puzzle.tail, puzzle.head)
    odd = [v for v, d in enumerate(deg) if d & 1]
    for s, t in _parity_ends(puzzle, deg, odd):
        flipped = _balancing_flips(puzzle, s, t)
        if flipped is None:
            continue
        tail, head = list(puzzle.tail), list(puzzle.head)
        for e in flipped:
            tail[e], head[e] = head[e], tail[e]
        return _trail_directed(len(puzzle.nodes), tail, head, s)
    return None


# -------------------------------------------------------------- Hierholzer
def _half_edge_lists(n: int, ends: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Each node's half-edges as a linked list (``first[v]``, then ``nxt[h]``, ended by
    the sentinel ``len(ends)``), and each node's degree, in one pass."""
    size = len(ends)
    first = [size] * n
    nxt = [size] * (size + 1)
    deg = [0] * n
    for h, v in enumerate(ends):
        nxt[h] = first[v]
        first[v] = h
        deg[v] += 1
    return first, nxt, deg


def _trail_undirected(first: list[int], nxt: list[int], ends: list[int], s: int) -> Route:
    """Hierholzer from ``s`` over half-edges; ``ends[2e]``/``ends[2e+1]`` are edge e's ends.

    ``first``/``nxt`` come from :func:`_half_edge_lists` and are used up. Returns the
    trail of every edge reachable from ``s`` (all of them when the graph is connected
    and ``s`` is a valid start).
    """
    size = len(ends)
    used = bytearray(size + 1)  # used[h]: h's edge was crossed from its other end
    stack: list[int] = []
    push, pop = stack.append, stack.pop
    out: list[int] = []
    keep = out.append
    v = s
    while True:
        h = first[v]
        while True:  # walk on until stuck, always at v
            while used[h]:
                h = nxt[h]
            if h == size:
                break
            first[v] = nxt[h]
            twin = h ^ 1
            used[twin] = 1
            push(h)
            v = ends[twin]
            h = first[v]
        first[v] = size
        while stack:  # back up to the last node that still has an unused edge
            h = pop()
            keep(h)
            v = ends[h]
            g = first[v]
            while used[g]:
                g = nxt[g]
            first[v] = g
            if g != size:
                break
        else:
            break
    out.reverse()
    far = [0] * size  # far[h]: the node half-edge h leads to
    far[0::2] = ends[1::2]
    far[1::2] = ends[0::2]
    nodes = [s]
    nodes += map(far.__getitem__, out)
    return nodes, [h >> 1 for h in out]


def _trail_directed(n: int, tail: Sequence[int], head: Sequence[int], s: int) -> Route:
    """Hierholzer from ``s`` along one-way edges ``tail[e] -> head[e]``."""
    first = [-1] * n
    nxt = [-1] * len(tail)
    for e, v in enumerate(tail):
        nxt[e] = first[v]
        first[v] = e
    stack: list[int] = []
    push, pop = stack.append, stack.pop
    out: list[int] = []
    keep = out.append
    v = s
    while True:
        e = first[v]
        while e >= 0:  # walk on until stuck
            first[v] = nxt[e]
            push(e)
            v = head[e]
            e = first[v]
        while stack:  # back up to the last node that still has an unused edge
            e = pop()
            keep(e)
            v = tail[e]
            if first[v] >= 0:
                break
        else:
            break
    out.reverse()
    nodes = [s]
    nodes += map(head.__getitem__, out)
    return nodes, out


# ---------------------------------------------------------------- max-flow
def _balancing_flips(puzzle: Puzzle, s: int, t: int) -> list[int] | None:
    """Two-way edges to turn round (from ``tail -> head``) so every node balances.

    With ``s != t`` the start ``s`` keeps one edge more out than in and the end ``t``
    one more in. Turning edge ``u -> v`` round moves two units of out-minus-in from
    ``u`` to ``v``, so this is a flow: from each node with a surplus, along two-way
    edges (capacity one each), into the nodes with a deficit. ``None`` when the
    maximum flow cannot carry every surplus away.
    """
    n = len(puzzle.nodes)
    tail, head = puzzle.tail, puzzle.head
    directed = puzzle.directed if puzzle.directed is not None else [False] * len(tail)
    bal = balances(n, tail, head)
    bal[s] -= 1
    bal[t] += 1
    two_way = [e for e in range(len(tail)) if not directed[e] and tail[e] != head[e]]
    source, sink = n, n + 1
    frm = [tail[e] for e in two_way]
    to = [head[e] for e in two_way]
    cap = [1] * len(two_way)
    need = 0
    for v, d in enumerate(bal):
        if d & 1:
            return None
        if d > 0:
            frm.append(source)
            to.append(v)
            cap.append(d // 2)
            need += d // 2
        elif d < 0:
            frm.append(v)
            to.append(sink)
            cap.append(-d // 2)
    flow, residual = _max_flow(n + 2, frm, to, cap, source, sink)
    if flow < need:
        return None
    return [e for i, e in enumerate(two_way) if residual[2 * i] == 0]


def _max_flow(count: int, frm: list[int], to: list[int], capacity: list[int],
              source: int, sink: int) -> tuple[int, list[int]]:
    """Dinic's maximum flow on arcs ``frm[i] -> to[i]``; returns the flow value and the
    residual capacities (arc ``i`` at ``2i``, its reverse at ``2i + 1``)."""
    arcs = 2 * len(frm)
    target = [0] * arcs
    cap = [0] * arcs
    nxt = [-1] * arcs
    first = [-1] * count
    for i, (u, v, c) in enumerate(zip(frm, to, capacity, strict=True)):
        a = 2 * i
        target[a], cap[a], nxt[a] = v, c, first[u]
        first[u] = a
        target[a + 1], nxt[a + 1] = u, first[v]
        first[v] = a + 1
    flow = 0
    while True:
        level = _levels(count, first, nxt, target, cap, source)
        if level[sink] < 0:
            return flow, cap
        flow += _blocking_flow(first[:], nxt, target, cap, level, source, sink)


def _levels(count: int, first: list[int], nxt: list[int], target: list[int],
            cap: list[int], source: int) -> list[int]:
    """Breadth-first distances from ``source`` along arcs with capacity left (-1: unreached)."""
    level = [-1] * count
    level[source] = 0
    queue = [source]
    for u in queue:
        a = first[u]
        while a >= 0:
            w = target[a]
            if cap[a] and level[w] < 0:
                level[w] = level[u] + 1
                queue.append(w)
            a = nxt[a]
    return level


def _blocking_flow(it: list[int], nxt: list[int], target: list[int], cap: list[int],
                   level: list[int], source: int, sink: int) -> int:
    """Augment along shortest paths until none is left (``it``: each node's current arc)."""
    total = 0
    path: list[int] = []
    v = source
    while True:
        if v == sink:
            push = min(cap[a] for a in path)
            for a in path:
                cap[a] -= push
                cap[a ^ 1] += push
            total += push
            path.clear()
            v = source
            continue
        a = it[v]
        step = level[v] + 1
        while a >= 0 and (not cap[a] or level[target[a]] != step):
            a = nxt[a]
        it[v] = a
        if a >= 0:
            path.append(a)
            v = target[a]
        elif v == source:
            return total
        else:  # a dead end: never enter it again in this phase, step back
            level[v] = -1
            a = path.pop()
            v = target[a ^ 1]
            it[v] = nxt[a]
