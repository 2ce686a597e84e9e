"""The compiled search for a walk through every node once (a Hamiltonian path or cycle):
Warnsdorff's order with backtracking, pruned by degrees and connectivity.

The graph comes as compressed rows of arcs (each step a walk may take: a two-way edge
gives two arcs) and of reversed arcs. From the walk's current node the candidates are
tried fewest onward moves first (Warnsdorff's rule, which finds a knight's tour on
boards of every size almost without backtracking). A move is taken back at once when

* a node not yet passed can no longer be entered (no arc from a node not passed, nor
  from the current one), or
* a node not yet passed can no longer be left (no arc to a node not passed; for a
  closed walk the start counts) while it may not be the walk's last node, or two are
  so, or
* the nodes not passed no longer hang together with the current one (a breadth-first
  search over arcs either way).
* a node not passed and not given can no longer find a position between the givens
  ahead (:func:`_all_fit` with :func:`fit_gaps`, the graph distances below: a
  Hidato's cell left where no gap of numbers can reach it; this test made a 9 x 9
  Hidato's uniqueness, with 22 givens, take under 200,000 moves where 5,000,000 did
  not do).

The givens ``at`` are obeyed as candidates are made: position q may hold only its
given node, a given node only its position, and no move may take the walk farther from
the next given node than the steps to its position (graph distances, for Hidato and
Numbrix). The state lives in arrays so that the
search can stop after ``budget`` moves and be resumed where it stood (the caller
checks the clock and Ctrl-C in between: compiled code cannot).
"""

from __future__ import annotations

import itertools

import numpy as np

from trailkit.models.support.jit import kernel

__all__ = ["BUDGET", "EXHAUSTED", "FOUND", "fit_gaps", "steps_to", "tour_search"]

FOUND = 1
EXHAUSTED = 0
BUDGET = 2


@kernel
def _insert_sorted(cand_node: np.ndarray, cand_edge: np.ndarray, cand_key: np.ndarray,
                   row: int, count: int, node: int, edge: int, key: int) -> None:
    """Insert a candidate into row ``row`` kept in ascending key order (ties: arrival)."""
    i = count
    while i > 0 and cand_key[row, i - 1] > key:
        cand_node[row, i] = cand_node[row, i - 1]
        cand_edge[row, i] = cand_edge[row, i - 1]
        cand_key[row, i] = cand_key[row, i - 1]
        i -= 1
    cand_node[row, i] = node
    cand_edge[row, i] = edge
    cand_key[row, i] = key


@kernel
def _connected(indptr: np.ndarray, nbr: np.ndarray, rindptr: np.ndarray, rnbr: np.ndarray,
               visited: np.ndarray, here: int, unvisited: int, mark: np.ndarray,
               queue: np.ndarray, stamp: int) -> bool:
    """Do the nodes not passed hang together with ``here`` (arcs either way)?"""
    head = 0
    tail = 1
    queue[0] = here
    mark[here] = stamp
    found = 0
    while head < tail:
        x = queue[head]
        head += 1
        for k in range(indptr[x], indptr[x + 1]):
            y = nbr[k]
            if visited[y] == 0 and mark[y] != stamp:
                mark[y] = stamp
                queue[tail] = y
                tail += 1
                found += 1
        for k in range(rindptr[x], rindptr[x + 1]):
            y = rnbr[k]
            if visited[y] == 0 and mark[y] != stamp:
                mark[y] = stamp
                queue[tail] = y
                tail += 1
                found += 1
    return found == unvisited


@kernel
def _candidates(indptr: np.ndarray, nbr: np.ndarray, eid: np.ndarray, visited: np.ndarray,
                out_av: np.ndarray, node_at: np.ndarray, pos_of: np.ndarray, tie: np.ndarray,
                next_given: np.ndarray, dist: np.ndarray,
                path: np.ndarray, depth: int, target: int, closed: bool,
                cand_node: np.ndarray, cand_edge: np.ndarray, cand_key: np.ndarray,
                cand_len: np.ndarray, cand_idx: np.ndarray) -> None:
    """Fill row ``depth`` with the moves from the walk's current node, Warnsdorff first
    (fewest onward moves), ties broken by ``tie`` (smaller first; values below the
    number of nodes). A move is left out when the next given node lies farther (in
    ``dist``) than the steps to its position allow."""
    here = path[depth]
    position = depth + 2
    count = 0
    last = depth + 1 == target
    for k in range(indptr[here], indptr[here + 1]):
        w = nbr[k]
        if last:
            if closed and w == path[0]:
                _insert_sorted(cand_node, cand_edge, cand_key, depth, count, w, eid[k], 0)
                count += 1
            continue
        if visited[w] != 0:
            continue
        if node_at[position] >= 0 and node_at[position] != w:
            continue
        if pos_of[w] >= 0 and pos_of[w] != position:
            continue
        q = next_given[position]
        if q > 0 and dist[w, node_at[q]] > q - position:
            continue
        _insert_sorted(cand_node, cand_edge, cand_key, depth, count, w, eid[k],
                       out_av[w] * tie.shape[0] + tie[w])
        count += 1
    cand_len[depth] = count
    cand_idx[depth] = 0


@kernel
def _all_fit(visited: np.ndarray, pos_of: np.ndarray, node_at: np.ndarray,
             next_given: np.ndarray, dist: np.ndarray, latest: np.ndarray,
             position: int) -> bool:
    """Can every node not passed and not given still find a position? It can between
    the walk's current position and the next given one when it reaches that given in
    time, or in a gap between givens ahead: ``latest[c]`` is the last given position
    that starts a gap node ``c`` fits in (:func:`fit_gaps`), so a gap ahead holds it
    when that is the next given position or later."""
    first = next_given[position]
    if first <= 0:
        return True
    x = node_at[first]
    for c in range(visited.shape[0]):
        if visited[c] != 0 or pos_of[c] >= 0 or latest[c] >= first:
            continue
        if dist[c, x] > first - position - 1:
            return False
    return True


@kernel
def steps_to(rindptr: np.ndarray, rnbr: np.ndarray, x: int, dist: np.ndarray,
             queue: np.ndarray) -> None:
    """Fill column ``x`` of ``dist`` (n + 1 everywhere on entry) with the fewest steps
    from every node to ``x``, by a breadth-first search over the reversed arcs."""
    dist[x, x] = 0
    queue[0] = x
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(rindptr[u], rindptr[u + 1]):
            w = rnbr[k]
            if dist[w, x] > dist[u, x] + 1:
                dist[w, x] = dist[u, x] + 1
                queue[tail] = w
                tail += 1


def fit_gaps(node_at: np.ndarray, dist: np.ndarray, target: int, symmetric: bool
             ) -> np.ndarray:
    """For each node, the last given position q that starts a gap the node fits in
    (-1: none): between givens a at q and b at q' when the steps a -> node -> b fit in
    q' - q; after the last given when it reaches the node in the positions left. Steps
    from a given node are read from the table's columns on a two-way graph only
    (``symmetric``); otherwise that part is left out (weaker, still sound)."""
    n = dist.shape[0]
    latest = np.full(n, -1, np.int64)
    given = [q for q in range(1, min(len(node_at), target + 1)) if node_at[q] >= 0]
    for qa, qb in itertools.pairwise(given):
        before = dist[:, node_at[qa]] if symmetric else 0
        latest[before + dist[:, node_at[qb]] <= qb - qa] = qa
    if given and given[-1] < target:
        last = given[-1]
        latest[(dist[:, node_at[last]] <= target - last) if symmetric else
               np.ones(n, np.bool_)] = last
    return latest


@kernel
def _move(indptr: np.ndarray, nbr: np.ndarray, rindptr: np.ndarray, rnbr: np.ndarray,
          visited: np.ndarray, in_av: np.ndarray, out_av: np.ndarray, may_end: np.ndarray,
          closed: bool, start: int, here: int, w: int, dead: np.ndarray) -> bool:
    """Step from ``here`` to ``w``; returns whether the step leaves the walk possible
    (the counts are updated either way; :func:`_unmove` undoes them)."""
    ok = True
    for k in range(indptr[here], indptr[here + 1]):
        x = nbr[k]
        in_av[x] -= 1
        if in_av[x] == 0 and x != w and (visited[x] == 0 or (closed and x == start)):
            ok = False
    if out_av[w] == 0:
        dead[0] -= 1
    visited[w] = 1
    for k in range(rindptr[w], rindptr[w + 1]):
        u = rnbr[k]
        out_av[u] -= 1
        if out_av[u] == 0 and visited[u] == 0:
            dead[0] += 1
            if closed or may_end[u] == 0:
                ok = False
    if dead[0] > 1:
        ok = False
    return ok


@kernel
def _unmove(indptr: np.ndarray, nbr: np.ndarray, rindptr: np.ndarray, rnbr: np.ndarray,
            visited: np.ndarray, in_av: np.ndarray, out_av: np.ndarray, here: int, w: int,
            dead: np.ndarray) -> None:
    """Undo :func:`_move` from ``here`` to ``w``."""
    for k in range(rindptr[w], rindptr[w + 1]):
        u = rnbr[k]
        if out_av[u] == 0 and visited[u] == 0:
            dead[0] -= 1
        out_av[u] += 1
    visited[w] = 0
    if out_av[w] == 0:
        dead[0] += 1
    for k in range(indptr[here], indptr[here + 1]):
        in_av[nbr[k]] += 1


@kernel
def tour_search(indptr: np.ndarray, nbr: np.ndarray, eid: np.ndarray, rindptr: np.ndarray,
                rnbr: np.ndarray, visited: np.ndarray, in_av: np.ndarray,
                out_av: np.ndarray, may_end: np.ndarray, node_at: np.ndarray,
                pos_of: np.ndarray, tie: np.ndarray, next_given: np.ndarray,
                dist: np.ndarray, latest: np.ndarray, closed: int, target: int,
                path: np.ndarray,
                path_edge: np.ndarray, cand_node: np.ndarray, cand_edge: np.ndarray,
                cand_key: np.ndarray, cand_len: np.ndarray, cand_idx: np.ndarray,
                state: np.ndarray, mark: np.ndarray, queue: np.ndarray, check_every: int,
                budget: int) -> int:
    """Run the search for at most ``budget`` moves from where ``state`` left it.

    ``state`` holds [depth, dead ends, connectivity stamp, moves made]; the path so
    far is ``path[0..depth]``. Returns FOUND (``path``/``path_edge`` hold the walk),
    EXHAUSTED (no walk from ``path[0]``) or BUDGET (call again to go on).
    """
    depth = state[0]
    dead = state[1:2]
    start = path[0]
    closed_flag = closed != 0
    moves = 0
    while moves < budget:
        if cand_idx[depth] < cand_len[depth]:
            k = cand_idx[depth]
            cand_idx[depth] = k + 1
            w = cand_node[depth, k]
            moves += 1
            if closed_flag and w == start:
                path[depth + 1] = w
                path_edge[depth] = cand_edge[depth, k]
                state[0] = depth
                state[3] += moves
                return FOUND
            here = path[depth]
            ok = _move(indptr, nbr, rindptr, rnbr, visited, in_av, out_av, may_end,
                       closed_flag, start, here, w, dead)
            left = target - depth - 2
            if ok and left > 0 and check_every > 0 and depth % check_every == 0:
                state[2] += 1
                ok = _connected(indptr, nbr, rindptr, rnbr, visited, w, left, mark, queue,
                                state[2])
                if ok and dist.shape[0] > 1:
                    ok = _all_fit(visited, pos_of, node_at, next_given, dist, latest,
                                  depth + 2)
            if not ok:
                _unmove(indptr, nbr, rindptr, rnbr, visited, in_av, out_av, here, w, dead)
                continue
            depth += 1
            path[depth] = w
            path_edge[depth - 1] = cand_edge[depth - 1, k]
            if depth + 1 == target and not closed_flag:
                if may_end[w] != 0:
                    state[0] = depth
                    state[3] += moves
                    return FOUND
                depth -= 1
                _unmove(indptr, nbr, rindptr, rnbr, visited, in_av, out_av, here, w, dead)
                continue
            _candidates(indptr, nbr, eid, visited, out_av, node_at, pos_of, tie, next_given,
                        dist, path, depth,
                        target, closed_flag, cand_node, cand_edge, cand_key, cand_len,
                        cand_idx)
        else:
            if depth == 0:
                state[0] = 0
                state[3] += moves
                return EXHAUSTED
            w = path[depth]
            depth -= 1
            _unmove(indptr, nbr, rindptr, rnbr, visited, in_av, out_av, path[depth], w, dead)
    state[0] = depth
    state[3] += moves
    return BUDGET


def empty_rows(n: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate rows for a walk of ``n`` positions and nodes of up to ``width`` arcs."""
    shape = (n + 1, max(width, 1))
    return (np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64))
