"""Counting a puzzle's solutions, failures and early failures by memoised search.

The definitions are those of the Nikolaus seed's search, generalised to every rule
of the intermediate form. A *search node* is a walk that obeys the step rules (it
starts at an allowed start node, follows edge directions, uses no edge twice, and
its colours follow the colour rule from an allowed first colour); its *children*
are its one-step extensions. The root of the search is the empty prefix, whose
children are the start nodes (``puzzle.start``, or every node in index order, so
the node order of the spec; the order never changes a count).

* A **solution** is a search node that :func:`trailkit.models.checking.verify.verify` would
  accept. Walks are step sequences with their start node: parallel edges are
  distinct, and an undirected self-loop is one step (it has no second direction;
  a :class:`~trailkit.models.answer.Walk` cannot tell two "directions" apart).
  For an exactly-once closed puzzle every rotation counts separately, exactly as
  an open enumeration of the same walks would count them: a cyclic Euler circuit
  of ``m`` edges is ``m`` solutions (see :mod:`trailkit.solvers.backends.direct.exact_count`).
* A **failure** is a search node that has no child and is not a solution (the seed:
  "ending where you cannot continue while unused connections remain"; with an end
  rule, a walk using every edge but ending in the wrong place is one too).
* An **early failure** is a child of a *solvable* search node (one with a solution
  in its subtree, itself included) that is not solvable. A start node from which
  no solution starts is an early failure of the empty walk (when the puzzle has a
  solution at all, as in the seed).

For **at-most-once** puzzles "solved" is again what ``verify`` accepts: the walk
ends in the end set (and, if closed, is back at its start with at least one step
and the colour rule holding across the join). A solution may then be extended to
further solutions, and each of them counts: the count is the number of trails
obeying the rules. With ``objective: shortest`` only the solutions of the fewest
steps are counted, with ``objective: longest`` only those of the most steps (the
longest domino trains); failures are not defined under an objective, and the
pipeline refuses to count them there.

For **reusable** edges (``use: any``) there are infinitely many walks, so the count
is the number of *shortest* walks: shortest paths in the (node, colour-phase)
state graph, counted by breadth-first search with exact integers. Failures make no
sense there and raise :class:`~trailkit.models.errors.UnsupportedPuzzle`.

Why memoisation is exact: everything below a search node (its solutions, failures
and early failures, and whether it is solvable) depends only on its *state*: the
current node, the set of used edges, the colour of the last step and, for closed
puzzles, the start node and the colour of the first step. So each state is
expanded once and its counts are reused by every walk reaching it; counts are
Python integers, exact at any size. The search uses an explicit stack (no
recursion limit). When a time or work limit stops it, the result has
``complete=False`` and every number is a lower bound: the sum over the subtrees
finished so far.

>>> from trailkit.models.puzzle import Puzzle
>>> house = Puzzle.build(kind="trail", nodes="abcde",
...     edges=[tuple(s) for s in "ab ac bc bd be cd ce de".split()])
>>> r = count_walks(house, failures=True)
>>> r.solutions, r.failures, r.early_failures
(88, 266, 23)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from trailkit.models.counts import CountResult, StartCounts
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import Limits

__all__ = ["count_walks"]

BACKEND = "direct"
PROGRESS_EVERY = 100_000
#: Why a count stopped when the user pressed Ctrl-C.
INTERRUPTED = "interrupted (Ctrl-C)"
_CLOCK_EVERY = 2048
_INF = float("inf")

Progress = Callable[[int], None]


def count_walks(puzzle: Puzzle, limits: Limits | None = None, *, failures: bool = False,
                progress: Progress | None = None) -> CountResult:
    """Count solutions (and with ``failures=True`` failures and early failures).

    See the module docstring for the exact definitions and conventions. ``progress``
    is called with the number of solutions counted so far, every ~100,000 search
    states. Limits (default: none) and Ctrl-C give ``complete=False`` with lower bounds
    (after Ctrl-C, ``stats["interrupted"]`` is true).
    """
    if not puzzle.nodes:  # no dominoes: one solution, the empty ring (Walk.nowhere)
        zero = 0 if failures else None
        return CountResult(backend=BACKEND, solutions=1, failures=zero, early_failures=zero,
                           method="empty walk")
    if puzzle.use is EdgeUse.ANY:
        if failures:
            raise UnsupportedPuzzle(
                "failures and early failures are not defined when edges may be reused "
                "(there are infinitely many walks); count without --failures to get the "
                "number of shortest walks")
        return _count_shortest_reusable(puzzle)
    return _TrailCounter(puzzle, limits or Limits(), failures, progress).run()


# --------------------------------------------------------------------------- trails
@dataclass(slots=True)
class _Frame:
    """One search state on the explicit stack with the sums of its finished children."""

    key: tuple[int, int, int, int, int]
    node: int
    mask: int
    last: int
    first: int
    start: int
    index: int = 0          # next position in the node's adjacency list
    children: int = 0
    unsolvable_children: int = 0
    sol: int = 0
    fail: int = 0
    early: int = 0
    minlen: float = _INF    # fewest further steps to a solution (INF: none)
    maxlen: float = -_INF   # most further steps to a solution (longest objective)


#: What a finished search state hands to its parent: solutions, failures and early
#: failures below it, and the fewest and most further steps to a solution.
_Sums = tuple[int, int, int, float, float]


class _Limit(Exception):
    """Raised inside the search when a time or work limit is reached."""


class _TrailCounter:
    """The memoised search for exactly-once and at-most-once puzzles."""

    def __init__(self, puzzle: Puzzle, limits: Limits, failures: bool,
                 progress: Progress | None) -> None:
        self.p = puzzle
        self.limits = limits
        self.failures = failures
        self.progress = progress
        self.solutions_done = 0
        self.m = puzzle.num_edges
        self.full = (1 << self.m) - 1
        self.exact = puzzle.use is EdgeUse.EXACTLY_ONCE
        self.shortest = (not self.exact) and puzzle.objective is Objective.SHORTEST
        self.longest = (not self.exact) and puzzle.wants_longest
        self.rule = puzzle.colours
        self.adj = _adjacency(puzzle)
        self.memo: dict[tuple[int, int, int, int, int], _Sums] = {}
        self.expanded = 0
        self.t0 = time.perf_counter()
        self.deadline = (None if limits.time_limit is None
                         else self.t0 + max(0.0, limits.time_limit))

    # ------------------------------------------------------------------ rules
    def _is_solution(self, node: int, mask: int, last: int, first: int, start: int) -> bool:
        p = self.p
        if self.exact and mask != self.full:
            return False
        if not p.may_end(node):
            return False
        if p.closed:
            if node != start:
                return False
            if not self.exact and mask == 0 and self.m:
                return False
            if self.rule is not None and mask and first not in self.rule.successors[last]:
                return False
        return True

    def _key(self, node: int, mask: int, last: int, first: int,
             start: int) -> tuple[int, int, int, int, int]:
        closed = self.p.closed
        return (node, mask, last, first if closed else -1, start if closed else -1)

    # ----------------------------------------------------------------- search
    def run(self) -> CountResult:
        starts = self.p.start_nodes()
        results: dict[int, _Sums] = {}
        stopped = ""
        partial = (0, 0, 0)
        current = -1
        try:
            for s in starts:
                current = s
                results[s] = self._solve_state(s)
                self.solutions_done += results[s][0]
        except _Limit as exc:
            stopped = str(exc)
            partial = self._partial_sums()
        except KeyboardInterrupt:  # Ctrl-C: what was counted so far, as lower bounds
            stopped = INTERRUPTED
            partial = self._partial_sums()
        return self._result(results, stopped, partial, current)

    def _frame(self, node: int, mask: int, last: int, first: int, start: int) -> _Frame:
        f = _Frame(self._key(node, mask, last, first, start), node, mask, last, first, start)
        if self._is_solution(node, mask, last, first, start):
            f.sol, f.minlen, f.maxlen = 1, 0, 0
        return f

    def _solve_state(self, s: int) -> _Sums:
        key = self._key(s, 0, -1, -1, s)
        if key in self.memo:
            return self.memo[key]
        self.stack = [self._frame(s, 0, -1, -1, s)]
        stack = self.stack
        memo = self.memo
        adj = self.adj
        result: _Sums = (0, 0, 0, _INF, -_INF)
        while stack:
            f = stack[-1]
            edges = adj[f.node]
            child: _Sums | None = None
            while f.index < len(edges):
                e_bit, w, colour = edges[f.index]
                f.index += 1
                if f.mask & e_bit or not _step_allowed(self.p, colour, f.last, f.mask == 0):
                    continue
                first = colour if f.mask == 0 else f.first
                key = self._key(w, f.mask | e_bit, colour, first, f.start)
                child = memo.get(key)
                if child is None:
                    self._tick()
                    stack.append(self._frame(w, f.mask | e_bit, colour, first, f.start))
                    break
                self._combine(f, child)
                child = None
            else:
                result = self._finish(f)
                memo[f.key] = result
                stack.pop()
                if stack:
                    self._combine(stack[-1], result)
        return result

    def _combine(self, f: _Frame, child: _Sums) -> None:
        sol, fail, early, minlen, maxlen = child
        f.children += 1
        f.fail += fail
        f.early += early
        if minlen == _INF:
            f.unsolvable_children += 1
            return
        # The solutions kept are those of the best length for the objective (all of
        # them without one); both lengths are kept for every state, so a memoised state
        # serves any parent.
        if self.shortest:
            if minlen + 1 < f.minlen:
                f.sol = sol
            elif minlen + 1 == f.minlen:
                f.sol += sol
        elif self.longest:
            if maxlen + 1 > f.maxlen:
                f.sol = sol
            elif maxlen + 1 == f.maxlen:
                f.sol += sol
        else:
            f.sol += sol
        f.minlen = min(f.minlen, minlen + 1)
        f.maxlen = max(f.maxlen, maxlen + 1)

    def _finish(self, f: _Frame) -> _Sums:
        fail = f.fail + (1 if f.children == 0 and f.minlen != 0 else 0)
        early = f.early + (f.unsolvable_children if f.minlen != _INF else 0)
        return (f.sol, fail, early, f.minlen, f.maxlen)

    def _tick(self) -> None:
        self.expanded += 1
        n = self.expanded
        if self.progress is not None and n % PROGRESS_EVERY == 0:
            self.progress(self.solutions_done + self._partial_sums()[0])
        if self.limits.work_limit is not None and n > self.limits.work_limit:
            raise _Limit(f"work limit of {self.limits.work_limit} search states reached")
        if (self.deadline is not None and n % _CLOCK_EVERY == 0
                and time.perf_counter() > self.deadline):
            raise _Limit(f"time limit of {seconds(self.limits.time_limit)} reached")

    def _partial_sums(self) -> tuple[int, int, int]:
        """Lower bounds from the unfinished stack: the frames are nested, so their
        sums of finished children add up without double counting."""
        sol = fail = early = 0
        for f in self.stack:
            sol += f.sol
            fail += f.fail
            early += f.early + (f.unsolvable_children if f.minlen != _INF else 0)
        return sol, fail, early

    # ----------------------------------------------------------------- result
    def _result(self, results: dict[int, _Sums], stopped: str,
                partial: tuple[int, int, int], current: int) -> CountResult:
        names = self.p.nodes
        root_solvable = any(r[3] != _INF for r in results.values())
        length = self._best_length(results)
        per: dict[str, StartCounts] = {}
        total_sol = total_fail = total_early = 0
        for s, (sol, fail, early, minlen, maxlen) in results.items():
            if (self.shortest and minlen != length) or (self.longest and maxlen != length):
                sol = 0
            if root_solvable and minlen == _INF:
                early += 1  # the start node itself: an early failure of the empty walk
            per[names[s]] = self._start_counts(sol, fail, early)
            total_sol += sol
            total_fail += fail
            total_early += early
        if stopped:
            sol, fail, early = partial
            if self.shortest or self.longest:
                sol = 0  # the best length is not proven yet: no count is a lower bound
            per[names[current]] = self._start_counts(sol, fail, early)
            total_sol, total_fail, total_early = (total_sol + sol, total_fail + fail,
                                                  total_early + early)
        elapsed = time.perf_counter() - self.t0
        return CountResult(
            backend=BACKEND,
            solutions=total_sol,
            failures=total_fail if self.failures else None,
            early_failures=total_early if self.failures else None,
            complete=not stopped,
            method="enumeration",
            per_start=per,
            reason=(f"{stopped}; the numbers are lower bounds (at least); per_start lacks "
                    "the starts not reached" if stopped else ""),
            stats={"states": self.expanded, "time_s": elapsed,
                   "interrupted": stopped == INTERRUPTED,
                   **({"length": int(length)} if length is not None and not stopped
                      else {})},
        )

    def _best_length(self, results: dict[int, _Sums]) -> float | None:
        """The length the objective counts (fewest or most steps over every start), or
        ``None`` without an objective or without a solution."""
        solvable = [r for r in results.values() if r[3] != _INF]
        if not solvable or not (self.shortest or self.longest):
            return None
        return min(r[3] for r in solvable) if self.shortest else max(r[4] for r in solvable)

    def _start_counts(self, sol: int, fail: int, early: int) -> StartCounts:
        if self.failures:
            return StartCounts(sol, fail, early)
        return StartCounts(sol)


def _adjacency(puzzle: Puzzle) -> list[list[tuple[int, int, int]]]:
    """For each node the steps leaving it as ``(edge bit, other end, colour)``.

    An undirected self-loop is listed once: it is one step, not two.
    """
    adj: list[list[tuple[int, int, int]]] = [[] for _ in range(puzzle.num_nodes)]
    colour = puzzle.colour
    for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
        c = -1 if colour is None else colour[e]
        adj[u].append((1 << e, v, c))
        if v != u and not puzzle.is_directed(e):
            adj[v].append((1 << e, u, c))
    return adj


# ------------------------------------------------------------------- reusable edges
def _count_shortest_reusable(puzzle: Puzzle) -> CountResult:
    """Count the shortest walks when edges may be reused, per start node.

    A breadth-first search per start over states (node, last colour, first colour)
    counts shortest paths exactly; the first colour is kept only for closed puzzles
    with a colour rule (it decides whether the ring closes). The puzzle's count is
    the sum over the starts whose shortest walk has the overall fewest steps.
    """
    t0 = time.perf_counter()
    starts = puzzle.start_nodes()
    found = {s: _bfs_count(puzzle, s) for s in starts}
    best = min((length for length, _ in found.values()), default=_INF)
    per = {puzzle.nodes[s]: StartCounts(count if length == best else 0)
           for s, (length, count) in found.items()}
    total = sum(c.solutions for c in per.values())
    return CountResult(
        backend=BACKEND, solutions=total, method="bfs-shortest-paths", per_start=per,
        reason="" if total else "no walk obeys the rules",
        stats={"shortest_length": None if best == _INF else int(best),
               "time_s": time.perf_counter() - t0})


def _bfs_count(puzzle: Puzzle, s: int) -> tuple[float, int]:
    """``(fewest steps, number of walks with that many steps)`` from start ``s``."""
    rule = puzzle.colours
    adj = _adjacency(puzzle)
    keep_first = puzzle.closed and rule is not None

    def goal(state: tuple[int, int, int], steps: int) -> bool:
        node, last, first = state
        if not puzzle.may_end(node):
            return False
        if not puzzle.closed:
            return True
        if node != s or (steps == 0 and puzzle.num_edges):
            return False
        return rule is None or steps == 0 or first in rule.successors[last]

    # The empty walk's state is marked (-2) so that coming back to ``s`` is a new state.
    level: dict[tuple[int, int, int], int] = {(s, -2, -2): 1}
    seen = set(level)
    steps = 0
    while level:
        hits = sum(n for state, n in level.items() if goal(state, steps))
        if hits:
            return steps, hits
        nxt: dict[tuple[int, int, int], int] = {}
        for (node, last, first), n in level.items():
            for _bit, w, c in adj[node]:
                if not _step_allowed(puzzle, c, last, steps == 0):
                    continue
                state = (w, c if rule is not None else -1,
                         (c if steps == 0 else first) if keep_first else -1)
                if state not in seen:
                    nxt[state] = nxt.get(state, 0) + n
        seen.update(nxt)
        level = nxt
        steps += 1
    return _INF, 0


def _step_allowed(puzzle: Puzzle, colour: int, last: int, first_step: bool) -> bool:
    """May a step of ``colour`` follow a step of colour ``last`` (or start the walk)?"""
    rule = puzzle.colours
    if rule is None:
        return True
    if colour < 0:
        return False
    if first_step:
        return puzzle.first is None or colour in puzzle.first
    return colour in rule.successors[last]
