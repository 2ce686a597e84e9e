"""Bounded exhaustive search for the cases no polynomial algorithm covers.

Used for walks that may use each edge at most once, and for walks that must use
every edge exactly once under a colour rule. Both are hard in general, so this is
a depth-first search over trails (no edge twice) with sound pruning, bounded by
``limits.work_limit`` search nodes and ``limits.time_limit``; running out is
``unknown``, never ``unsolvable``.

It starts from the *relaxation* where edges are reusable
(:func:`~trailkit.solvers.backends.direct.reachability.solve_reusable`): if even that has no
walk, its closed set of (node, colour-phase) states proves this puzzle impossible
too (the certificate ignores edge-use limits); if its shortest walk repeats no
edge, that walk is also a shortest trail. Otherwise:

* at most once, shortest: iterative deepening (IDA*) whose lower bound at each
  state is the relaxation's distance to a finishing state, so the first trail
  found is a shortest one;
* at most once, any: the same search without a length bound, nearest first;
* exactly once: degree-parity and connectivity pruning (the unused edges must form
  one piece with the current node, with odd nodes only where the trail can end).

>>> from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
>>> rule = ColourRule.from_cycle(["red", "blue"])
>>> square = [("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"), ("d", "a", "blue")]
>>> p = Puzzle.build(edges=square, colours=rule, closed=True, use=EdgeUse.EXACTLY_ONCE)
>>> answer = solve_exhaustive(p, Limits())
>>> answer.status.value, len(answer.walk)
('solved', 4)
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Sequence

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.reachability import (
    StateGraph,
    build_state_graph,
    solve_reusable,
)

__all__ = ["DEFAULT_WORK_LIMIT", "solve_exhaustive"]

BACKEND = "direct"
DEFAULT_WORK_LIMIT = 5_000_000
"""Search nodes allowed when ``limits.work_limit`` is ``None``."""

_INF = 1 << 30
_CLOCK_EVERY = 1024


class _OutOfWork(Exception):
    """Raised when the work or time limit is reached; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def solve_exhaustive(puzzle: Puzzle, limits: Limits) -> Answer:
    """Solve an at-most-once puzzle, or an exactly-once one with a colour rule, by search."""
    if puzzle.use is EdgeUse.ANY:
        return solve_reusable(puzzle, limits)
    started = time.monotonic()
    relaxed = solve_reusable(dataclasses.replace(puzzle, use=EdgeUse.ANY), limits)
    exactly = puzzle.use is EdgeUse.EXACTLY_ONCE
    settled = _without_search(puzzle, relaxed)
    if settled is not None:
        return settled
    assert relaxed.walk is not None
    # the relaxation spent part of the time: the search gets what is left
    deadline = None if limits.time_limit is None else started + limits.time_limit
    search = _TrailSearch(puzzle, limits, deadline, relaxed_length=len(relaxed.walk))
    try:
        walk = search.run()
    except _OutOfWork as stop:
        return Answer.unknown(BACKEND, stop.reason, search_nodes=search.work)
    if walk is None:
        return Answer.unsolvable(BACKEND, reason=(
            f"exhaustive search of {search.work} search nodes found no walk"),
            search_nodes=search.work)
    proven = exactly or puzzle.objective is Objective.SHORTEST
    return Answer.solved(BACKEND, walk, optimal=True if proven else None,
                         search_nodes=search.work)


def _without_search(puzzle: Puzzle, relaxed: Answer) -> Answer | None:
    """The answer when no search is needed, from the answer ``relaxed`` of the puzzle
    with every edge reusable (undecided, unsolvable, or a walk that reuses no edge) or
    from the rules alone (no edges; an uncoloured edge under a colour rule that every
    walk must take); ``None`` when the search must decide."""
    exactly = puzzle.use is EdgeUse.EXACTLY_ONCE
    if relaxed.status is Status.UNKNOWN:
        return relaxed
    if exactly and puzzle.num_edges == 0:
        if relaxed.status is Status.SOLVED:
            return relaxed
        return Answer.unsolvable(BACKEND, reason="the puzzle has no edges and no allowed "
                                 "start is an allowed end")
    if relaxed.status is Status.UNSOLVABLE:
        return Answer.unsolvable(BACKEND, relaxed.certificate, reason=(
            "even with every edge reusable no walk exists, so none exists here either"))
    assert relaxed.walk is not None
    if not exactly and len(set(relaxed.walk.edges)) == len(relaxed.walk.edges):
        return Answer.solved(BACKEND, relaxed.walk, optimal=True, relaxation=True)
    if exactly and puzzle.colours is not None:
        colour = puzzle.colour or [-1] * puzzle.num_edges
        bare = [e for e in range(puzzle.num_edges) if colour[e] < 0]
        if bare:
            return Answer.unsolvable(BACKEND, reason=(
                f"{puzzle.describe_edge(bare[0])} has no colour, so under the colour rule "
                "it can never be walked, yet every edge must be"))
    return None


class _TrailSearch:
    """Depth-first search over trails from every allowed start (see the module docstring)."""

    def __init__(self, puzzle: Puzzle, limits: Limits, deadline: float | None,
                 relaxed_length: int) -> None:
        self.puzzle = puzzle
        self.graph: StateGraph = build_state_graph(puzzle)
        g = self.graph
        self.moves: list[list[tuple[int, int]]] = [
            list(g.moves(v, c)) for v in range(g.num_nodes) for c in range(g.groups)]
        self.exactly = puzzle.use is EdgeUse.EXACTLY_ONCE
        self.shortest = not self.exactly and puzzle.objective is Objective.SHORTEST
        self.relaxed_length = relaxed_length
        n = puzzle.num_nodes
        self.is_end = [puzzle.may_end(v) for v in range(n)]
        self.starts: Sequence[int] = puzzle.start_nodes()
        if puzzle.closed:
            self.starts = [s for s in self.starts if self.is_end[s]]
        self.work_limit = limits.work_limit if limits.work_limit is not None \
            else DEFAULT_WORK_LIMIT
        self.deadline = deadline
        self.time_limit = limits.time_limit
        self.work = 0
        self._exceeded = _INF  # smallest bound that some cut-off trail needed
        self.used = bytearray(puzzle.num_edges)
        self.bounds = _Distances(puzzle, self.graph, self.moves, self.is_end)
        self.degree = [0] * n
        for u, v in zip(puzzle.tail, puzzle.head, strict=True):
            self.degree[u] += 1
            self.degree[v] += 1
        self.odd = {v for v in range(n) if self.degree[v] % 2}

    # ------------------------------------------------------------ driver
    def run(self) -> Walk | None:
        """A trail obeying the puzzle, or ``None`` once every trail has been tried."""
        if not self.shortest:
            for origin in self.starts:
                found = self._dfs(origin, None)
                if found is not None:
                    return found
            return None
        bound = self.relaxed_length
        while True:
            self._exceeded = _INF
            for origin in self.starts:
                found = self._dfs(origin, bound)
                if found is not None:
                    return found
            if self._exceeded >= _INF:
                return None  # nothing was cut by the bound: the search was complete
            bound = self._exceeded

    # --------------------------------------------------------- the search
    def _dfs(self, origin: int, bound: int | None) -> Walk | None:
        """Search every trail from ``origin`` (IDA* when ``bound`` is given)."""
        k = self.graph.phases
        root = origin * k
        if self.exactly and not self._can_finish(origin, origin):
            return None
        states: list[int] = [root]
        edges: list[int] = []
        frames = [self._candidates(root, origin, None, 0, bound)]
        while frames:
            candidates = frames[-1]
            if not candidates:
                frames.pop()
                if edges:
                    self._undo(edges.pop())
                    states.pop()
                continue
            t, e = candidates.pop()
            self._count()
            self._use(e)
            states.append(t)
            edges.append(e)
            first = states[1] % k - 1  # the colour group of the first step
            if self._finishes(t, origin, first, len(edges)):
                return Walk(tuple(s // k for s in states), tuple(edges))
            if self.exactly and not self._can_finish(t // k, origin):
                nxt: list[tuple[int, int]] = []
            else:
                nxt = self._candidates(t, origin, first, len(edges), bound)
            frames.append(nxt)
        return None

    def _candidates(self, state: int, origin: int, first: int | None, depth: int,
                    bound: int | None) -> list[tuple[int, int]]:
        """Moves from ``state`` along unused edges, best last (they are popped)."""
        g, used = self.graph, self.used
        v, phase = divmod(state, g.phases)
        out = []
        for c in g.allowed[phase]:
            for t, e in self.moves[v * g.groups + c]:
                if not used[e]:
                    out.append((t, e))
        if self.exactly:
            return out
        scored = []
        for t, e in out:
            f = first if first is not None else t % g.phases - 1
            h = self.bounds.to_finish(origin, f)[t]
            if h >= _INF:
                continue
            if bound is not None and depth + 1 + h > bound:
                self._exceeded = min(self._exceeded, depth + 1 + h)
                continue
            scored.append((h, t, e))
        scored.sort(reverse=True)
        return [(t, e) for _, t, e in scored]

    def _finishes(self, state: int, origin: int, first: int, depth: int) -> bool:
        v, phase = divmod(state, self.graph.phases)
        if not self.is_end[v]:
            return False
        if self.exactly and depth != self.puzzle.num_edges:
            return False
        if self.puzzle.closed:
            return v == origin and self.graph.closes(phase, first)
        return True

    def _can_finish(self, v: int, origin: int) -> bool:
        """Exactly once: can the unused edges still form one trail from ``v`` to an end?"""
        odd = self.odd
        if not odd:
            end = v
        elif len(odd) == 2 and v in odd:
            (end,) = odd - {v}
        else:
            return False
        if not self.is_end[end] or (self.puzzle.closed and end != origin):
            return False
        return self._connected(v)

    def _connected(self, v: int) -> bool:
        """Whether every unused edge can be reached from ``v`` along unused edges."""
        p, used = self.puzzle, self.used
        remaining = len(used) - sum(used)
        if remaining == 0:
            return True
        touching: dict[int, list[int]] = {}
        for e in range(len(used)):
            if not used[e]:
                touching.setdefault(p.tail[e], []).append(e)
                touching.setdefault(p.head[e], []).append(e)
        seen_nodes, seen_edges = {v}, set()
        queue = deque([v])
        while queue:
            u = queue.popleft()
            for e in touching.get(u, ()):
                if e not in seen_edges:
                    seen_edges.add(e)
                    for w in (p.tail[e], p.head[e]):
                        if w not in seen_nodes:
                            seen_nodes.add(w)
                            queue.append(w)
        return len(seen_edges) == remaining

    # ---------------------------------------------------------- bookkeeping
    def _use(self, e: int) -> None:
        self.used[e] = 1
        self._flip(e)

    def _undo(self, e: int) -> None:
        self.used[e] = 0
        self._flip(e)

    def _flip(self, e: int) -> None:
        """Toggle the parity of both ends of ``e`` (a self-loop changes nothing)."""
        u, v = self.puzzle.tail[e], self.puzzle.head[e]
        if u != v:
            self.odd ^= {u, v}

    def _count(self) -> None:
        self.work += 1
        if self.work > self.work_limit:
            raise _OutOfWork(f"work limit of {self.work_limit} search nodes reached")
        if (self.deadline is not None and self.work % _CLOCK_EVERY == 0
                and time.monotonic() > self.deadline):
            raise _OutOfWork(f"time limit of {seconds(self.time_limit)} reached")


class _Distances:
    """The IDA* bound of :class:`_TrailSearch`: steps from each search state to a
    finishing state were every edge reusable, found by breadth-first search backwards
    and remembered per target (one for an open walk; per origin and first colour for a
    closed one), with the reversed moves built once."""

    def __init__(self, puzzle: Puzzle, graph: StateGraph, moves: list[list[tuple[int, int]]],
                 is_end: list[bool]) -> None:
        self.closed = puzzle.closed
        self.graph = graph
        self.moves = moves
        self.is_end = is_end
        self.memo: dict[tuple[int, int], list[int]] = {}
        self.predecessors: list[list[int]] | None = None

    def to_finish(self, origin: int, first: int) -> list[int]:
        """Steps from each state to a finishing state with reusable edges (the IDA* bound).

        For an open walk the target is any state at an allowed end; for a closed walk
        it is a state back at ``origin`` whose colour lets ``first`` follow.
        """
        key = (origin, first) if self.closed else (-1, -1)
        if key not in self.memo:
            g = self.graph
            k = g.phases
            if self.closed:
                goals = [origin * k + p for p in range(1, k) if g.closes(p, first)]
            else:
                goals = [v * k + p for v in range(g.num_nodes) if self.is_end[v]
                         for p in range(k)]
            self.memo[key] = self._reverse_bfs(goals)
        return self.memo[key]

    def _reverse_bfs(self, goals: list[int]) -> list[int]:
        g = self.graph
        if self.predecessors is None:
            preds: list[list[int]] = [[] for _ in range(g.num_nodes * g.phases)]
            for s in range(g.num_nodes * g.phases):
                v, phase = divmod(s, g.phases)
                for c in g.allowed[phase]:
                    for t, _ in self.moves[v * g.groups + c]:
                        preds[t].append(s)
            self.predecessors = preds
        dist = [_INF] * (g.num_nodes * g.phases)
        queue = deque(goals)
        for s in goals:
            dist[s] = 0
        while queue:
            t = queue.popleft()
            for s in self.predecessors[t]:
                if dist[s] >= _INF:
                    dist[s] = dist[t] + 1
                    queue.append(s)
        return dist
