"""A walk through every node once, found fast: the driver of the compiled tour search
(:mod:`.hamilton_kernel`) for ``visit: every-once`` without a colour rule.

It builds the arc rows, tries the allowed starts (fewest moves first, as Warnsdorff
would; a closed walk needs one start only, since a cycle through every node passes
it and may be walked from any of its nodes when no given fixes another position, so
its search restarts from another start with twice the moves whenever one attempt runs
long: a heavy tail cut short; ties are broken farthest from the start first), and
runs the search in slices of moves, checking the time limit, the work limit (moves,
the backend's "search nodes") and Ctrl-C in between. A search that ends without a walk
from every start proves there is none; a limit reached is ``unknown``.
:func:`tour_walks` lists up to a number of open walks the same way, the search going on
past each walk found (``design tour`` asks it for two: is a Hidato's path the only one?).

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> ring = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")]
>>> p = Puzzle.build(edges=ring, visit=NodeVisit.EVERY_ONCE, use="at-most-once", closed=True)
>>> answer = solve_tour(p, Limits())
>>> answer.status.value, len(answer.walk)
('solved', 4)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support import jit
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.backends.direct import hamilton_kernel as hk
from trailkit.solvers.backends.direct.exhaustive import DEFAULT_WORK_LIMIT

__all__ = ["solve_tour", "tour_applies", "tour_walks"]

BACKEND = "direct"
_SLICE = 50_000
_KERNELS = jit.Kernels(hk)
"""The search past its dive: compiled, or interpreted within :func:`jit.interpreted`."""
_RESTART = 20
"""A closed walk's first attempt may make this many moves per node, each next attempt
(from the next start: every cycle through every node passes it) twice as many; an
attempt that ends without a walk proves there is none."""
_DIVE = 4
_DIVE_MORE = 5_000
"""The first slice, interpreted and without the connectivity test, may make ``_DIVE``
moves per node to pass and ``_DIVE_MORE`` more: Warnsdorff's dive finds most tours in
it (measured: a 30x30 knight's tour in 899 moves, about 40 ms interpreted, a 10x10
Numbrix in 3,262 moves, 0.2 s, where loading the compiled kernel takes about 0.5 s,
2 s on a loaded machine); a search that goes on runs compiled, testing connectivity."""
_CHECK_EVERY = 1   # connectivity after every move once the dive is over


def tour_applies(puzzle: Puzzle) -> bool:
    """Whether the compiled search answers ``puzzle``: every node once, no colour rule,
    an edge at most once (or any number of times), no objective that changes the
    answer, and at least three nodes to pass (smaller walks go to the general search)."""
    return (puzzle.visit is NodeVisit.EVERY_ONCE and puzzle.colours is None
            and puzzle.use is not EdgeUse.EXACTLY_ONCE
            and puzzle.num_nodes - len(puzzle.avoid) >= 3)


@dataclass
class _Arcs:
    """Every step as an arc, in rows by tail and, reversed, by head."""

    indptr: np.ndarray
    nbr: np.ndarray
    eid: np.ndarray
    rindptr: np.ndarray
    rnbr: np.ndarray

    @classmethod
    def of(cls, puzzle: Puzzle) -> _Arcs:
        tails, heads, eids = [], [], []
        avoid = puzzle.avoid
        for e, orientation in puzzle.oriented_edges():
            u, v = puzzle.tail[e], puzzle.head[e]
            if orientation:
                u, v = v, u
            if u == v or u in avoid or v in avoid:
                continue  # a loop never helps a walk that passes each node once
            tails.append(u)
            heads.append(v)
            eids.append(e)
        n = puzzle.num_nodes
        t = np.asarray(tails, np.int64)
        h = np.asarray(heads, np.int64)
        order = np.argsort(t, kind="stable")
        rorder = np.argsort(h, kind="stable")
        return cls(np.concatenate(([0], np.cumsum(np.bincount(t, minlength=n)))).astype(np.int64),
                   h[order], np.asarray(eids, np.int64)[order],
                   np.concatenate(([0], np.cumsum(np.bincount(h, minlength=n)))).astype(np.int64),
                   t[rorder])


def solve_tour(puzzle: Puzzle, limits: Limits) -> Answer:
    """A walk through every node not avoided, once each (see the module docstring)."""
    arcs = _Arcs.of(puzzle)
    starts = _starts(puzzle, arcs)
    run = _Run(limits, _DIVE * puzzle.num_nodes + _DIVE_MORE)
    rotates = puzzle.closed and not set(puzzle.at.values()) - {1}
    try:
        if rotates and starts:  # restarts from other starts, each with twice the moves
            attempt = 0
            while True:
                search = _Search(puzzle, arcs, starts[attempt % len(starts)], limits)
                status = run.until(search, _RESTART * puzzle.num_nodes << attempt)
                if status != hk.BUDGET:
                    break
                attempt += 1
        else:
            status = hk.EXHAUSTED
            for s in starts:
                search = _Search(puzzle, arcs, s, limits)
                status = run.until(search, None)
                if status == hk.FOUND:
                    break
    except _Stop as stop:
        return Answer.unknown(BACKEND, str(stop), search_nodes=run.work)
    if status == hk.FOUND:
        return Answer.solved(BACKEND, search.walk(), search_nodes=run.work)
    return Answer.unsolvable(BACKEND, reason=(
        f"exhaustive search of {run.work} search nodes found no walk through every node"),
        search_nodes=run.work)


def tour_walks(puzzle: Puzzle, limits: Limits, most: int, *, dive: bool = True
               ) -> tuple[list[Walk], str]:
    """Up to ``most`` walks of ``puzzle`` (one that :func:`tour_applies` to, open), each
    start's in turn: the search goes on past each walk found (a step taken back) until
    ``most`` are found or every start is exhausted. Returns the walks and, when a limit
    stopped the search first, why (empty: the walks are all there are, or ``most``).
    Uniqueness asked of it (``most=2``) is by exhaustion: no certificate. Without
    ``dive`` the search runs compiled from its first move: for a caller asking many
    times (``design tour``), who pays the compiled kernel's loading once."""
    if puzzle.closed:
        raise ValueError("tour_walks lists open walks only")
    arcs = _Arcs.of(puzzle)
    run = _Run(limits, _DIVE * puzzle.num_nodes + _DIVE_MORE if dive else 0)
    given: tuple[np.ndarray, np.ndarray] | None = None
    walks: list[Walk] = []
    try:
        for s in _starts(puzzle, arcs):
            search = _Search(puzzle, arcs, s, limits, given)
            given = search.next_given, search.dist  # the same for every start
            while run.until(search, None) == hk.FOUND:
                walks.append(search.walk())
                if len(walks) >= most:
                    return walks, ""
                search.step_back()
    except _Stop as stop:
        return walks, str(stop)
    return walks, ""


class _Stop(Exception):
    """A limit was reached; the message says which."""


class _Run:
    """The moves made so far against the limits, and the slices that make them."""

    def __init__(self, limits: Limits, dive: int) -> None:
        self.limits = limits
        self.work_limit = limits.work_limit if limits.work_limit is not None \
            else DEFAULT_WORK_LIMIT
        self.deadline = None if limits.time_limit is None else \
            time.monotonic() + limits.time_limit
        self.dive = dive
        self.work = 0

    def until(self, search: _Search, moves: int | None) -> int:
        """Run ``search`` until it ends or has made ``moves`` more moves (``None``: no
        bound): FOUND, EXHAUSTED or BUDGET; :class:`_Stop` at a limit."""
        end = None if moves is None else self.work + moves
        while True:
            diving = self.work < self.dive
            run = hk.tour_search.interpreted if diving else _KERNELS.tour_search
            budget = min(self.dive - self.work if diving else _SLICE,
                         self.work_limit - self.work + 1,
                         _SLICE if end is None else max(end - self.work, 1))
            status = int(run(*search.arguments(budget, 0 if diving else _CHECK_EVERY)))
            self.work += int(search.state[3]) - search.counted
            search.counted = int(search.state[3])
            if status != hk.BUDGET:
                return status
            if self.work > self.work_limit:
                raise _Stop(f"work limit of {self.work_limit} search nodes reached")
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Stop(f"time limit of {seconds(self.limits.time_limit)} reached")
            if end is not None and self.work >= end:
                return hk.BUDGET


def _starts(puzzle: Puzzle, arcs: _Arcs) -> list[int]:
    """The starts to try, fewest moves first."""
    given = {p: v for v, p in puzzle.at.items()}
    ok = [v for v in puzzle.start_nodes() if v not in puzzle.avoid
          and (not puzzle.closed or puzzle.may_end(v))
          and given.get(1, v) == v and puzzle.at.get(v, 1) == 1]
    degree = np.diff(arcs.indptr)
    ok.sort(key=lambda v: (int(degree[v]), v))
    return ok


def _given_distances(arcs: _Arcs, node_at: np.ndarray, n: int, room: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """For each position, the next position given after it (-1: none), and the steps
    from every node to each given node (a 1 x 1 table when no test is made: no givens
    past position 1, or an n x n table larger than ``room`` entries)."""
    next_given = np.full(n + 2, -1, np.int64)
    givens = [q for q in range(2, len(node_at)) if node_at[q] >= 0]
    if not givens or n * n > room:
        return next_given, np.zeros((1, 1), np.int32)
    q_next = -1
    for q in range(n + 1, 0, -1):
        next_given[q] = q_next
        if node_at[q] >= 0:
            q_next = q
    dist = np.full((n, n), n + 1, np.int32)
    steps_to = hk.steps_to.sized(n * len(givens))
    queue = np.zeros(n, np.int64)
    for q in givens:
        steps_to(arcs.rindptr, arcs.rnbr, int(node_at[q]), dist, queue)
    return next_given, dist


def _far_first(arcs: _Arcs, start: int, n: int) -> np.ndarray:
    """Ties broken farthest from ``start`` first (in steps): a closed walk wanders off
    first and comes home last, so its last nodes lie near the start."""
    far = np.full(n, -1, np.int64)
    far[start] = 0
    frontier = [start]
    while frontier:
        nxt = []
        for u in frontier:
            for w in arcs.nbr[arcs.indptr[u]:arcs.indptr[u + 1]].tolist():
                if far[w] < 0:
                    far[w] = far[u] + 1
                    nxt.append(w)
        frontier = nxt
    top = int(far.max(initial=0))
    return np.where(far < 0, 0, top - far).astype(np.int64)


def _given_positions(puzzle: Puzzle, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The givens of ``at:`` both ways: the node at each position (-1: none given; a
    position past ``n + 1`` is left out, no walk reaches it) and each node's position."""
    node_at = np.full(n + 2, -1, np.int64)
    pos_of = np.full(n, -1, np.int64)
    for v, p in puzzle.at.items():
        pos_of[v] = p
        if p < n + 2:
            node_at[p] = v
    return node_at, pos_of


class _Search:
    """The arrays of one start's search, ready to be resumed slice after slice."""

    def __init__(self, puzzle: Puzzle, arcs: _Arcs, start: int, limits: Limits,
                 given: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        n = puzzle.num_nodes
        self.puzzle, self.arcs = puzzle, arcs
        self.target = n - len(puzzle.avoid)
        self.visited = np.zeros(n, np.int64)
        for v in puzzle.avoid:
            self.visited[v] = 1
        self.visited[start] = 1
        closed = puzzle.closed
        tails = np.repeat(np.arange(n), np.diff(arcs.indptr))
        live_tail = (self.visited[tails] == 0) | (tails == start)
        self.in_av = np.bincount(arcs.nbr[live_tail], minlength=n).astype(np.int64)
        open_head = (self.visited[arcs.nbr] == 0) | ((arcs.nbr == start) if closed else False)
        self.out_av = np.bincount(tails[open_head], minlength=n).astype(np.int64)
        dead = int(np.sum((self.out_av == 0) & (self.visited == 0)))
        self.may_end = np.array([puzzle.may_end(v) for v in range(n)], np.int64)
        self.node_at, self.pos_of = _given_positions(puzzle, n)
        self.tie = _far_first(arcs, start, n) if closed else np.zeros(n, np.int64)
        room = (limits.memory_mb or DEFAULT_MEMORY_MB) * 250_000  # a quarter, in int32s
        self.next_given, self.dist = given if given is not None else \
            _given_distances(arcs, self.node_at, n, room)
        self.path = np.zeros(n + 1, np.int64)
        self.path[0] = start
        self.path_edge = np.zeros(n + 1, np.int64)
        width = int(np.max(np.diff(arcs.indptr), initial=0))
        self.cand = hk.empty_rows(n, width)
        self.cand_len = np.zeros(n + 1, np.int64)
        self.cand_idx = np.zeros(n + 1, np.int64)
        self.state = np.array([0, dead, 0, 0], np.int64)
        self.mark = np.zeros(n, np.int64)
        self.queue = np.zeros(n, np.int64)
        self.counted = 0
        directed = puzzle.directed
        symmetric = directed is None or not any(directed)
        self.latest = hk.fit_gaps(self.node_at, self.dist, self.target, symmetric) \
            if self.dist.shape[0] > 1 else np.full(n, -1, np.int64)
        self._first_candidates(start, dead)

    def _first_candidates(self, start: int, dead: int) -> None:
        """The start's candidate moves, unless the search is hopeless from the start: a
        node no arc can enter, or more dead ends (nodes no arc leaves) than the walk's one
        end (none when closed, or where the walk may not end); then none, and the search
        finds nothing at once."""
        closed = self.puzzle.closed
        arcs = self.arcs
        unentered = (self.in_av == 0) & (self.visited == 0)
        unentered[start] = closed and self.in_av[start] == 0
        hopeless = bool(np.any(unentered)) or dead > 1 or (
            dead == 1 and (closed or not self._dead_may_end()))
        if not hopeless:
            hk._candidates.interpreted(
                arcs.indptr, arcs.nbr, arcs.eid, self.visited, self.out_av, self.node_at,
                self.pos_of, self.tie, self.next_given, self.dist, self.path, 0, self.target,
                closed, *self.cand, self.cand_len, self.cand_idx)

    def _dead_may_end(self) -> bool:
        dead = np.flatnonzero((self.out_av == 0) & (self.visited == 0))
        return bool(self.may_end[dead[0]])

    def arguments(self, budget: int, check_every: int) -> tuple[object, ...]:
        a = self.arcs
        return (a.indptr, a.nbr, a.eid, a.rindptr, a.rnbr, self.visited, self.in_av,
                self.out_av, self.may_end, self.node_at, self.pos_of, self.tie,
                self.next_given, self.dist,
                self.latest, int(self.puzzle.closed), self.target, self.path,
                self.path_edge, *self.cand,
                self.cand_len, self.cand_idx, self.state, self.mark, self.queue,
                check_every, budget)

    def step_back(self) -> None:
        """Take back the last step of an open walk just found, so that the search goes
        on to the next walk (as the kernel backtracks)."""
        depth = int(self.state[0])
        a = self.arcs
        hk._unmove.interpreted(a.indptr, a.nbr, a.rindptr, a.rnbr, self.visited, self.in_av,
                   self.out_av, int(self.path[depth - 1]), int(self.path[depth]),
                   self.state[1:2])
        self.state[0] = depth - 1

    def walk(self) -> Walk:
        k = self.target if self.puzzle.closed else self.target - 1
        return Walk(self.path[:k + 1].copy(), self.path_edge[:k].copy())
