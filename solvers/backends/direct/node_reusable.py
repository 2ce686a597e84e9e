"""Checkpoints, forbidden nodes and givens on walks that may reuse every edge and node
(``use: any``, ``visit: any``): breadth-first search over extended states.

Such a walk has no length bound, so the search is over states that decide the future:
(node, colour of the last step, colour of the first step and the start for a closed
walk with a colour rule or a return to make, the checkpoints passed, the position
counted up to one past the largest given). A shortest walk is a shortest path in this
finite state graph (so ``solve`` finds one, proven shortest, or proves there is none),
and ``count`` counts the shortest walks, as it does for reusable walks without node
rules. The state space is estimated first: beyond ``Limits.memory_mb`` the answer is
``unknown``, saying so.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d")], use="any",
...                  start=["a"], end=["a"], via=["d"])
>>> len(solve_reusable_nodes(p, Limits()).walk)
6
"""

from __future__ import annotations

import time

from trailkit.models.answer import Answer, Walk
from trailkit.models.counts import CountResult
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.backends.direct.node_moves import NodeRules

__all__ = ["count_reusable_nodes", "solve_reusable_nodes"]

BACKEND = "direct"
_BYTES_PER_STATE = 400
_CLOCK_EVERY = 4096

#: (node, last colour, first colour, start, checkpoints passed, capped position)
_Key = tuple[int, int, int, int, int, int]


class _Stop(Exception):
    """A limit was reached; the message says which."""


def solve_reusable_nodes(puzzle: Puzzle, limits: Limits) -> Answer:
    """A shortest walk obeying the node rules with reusable edges (module docstring)."""
    search = _StateSearch(NodeRules.of(puzzle), limits)
    try:
        found = search.run(count=False)
    except _Stop as stop:
        return Answer.unknown(BACKEND, str(stop), states=len(search.parent))
    if found is None:
        return Answer.unsolvable(BACKEND, reason=(
            f"a search of all {len(search.parent)} states (node, colours, checkpoints "
            "passed, position) found no walk"), states=len(search.parent))
    return Answer.solved(BACKEND, search.walk(found[0]), optimal=True,
                         states=len(search.parent))


def count_reusable_nodes(puzzle: Puzzle, limits: Limits) -> CountResult:
    """The number of shortest walks obeying the node rules with reusable edges."""
    search = _StateSearch(NodeRules.of(puzzle), limits)
    t0 = time.perf_counter()
    try:
        found = search.run(count=True)
    except _Stop as stop:
        return CountResult(BACKEND, 0, complete=False, method="bfs-shortest-paths",
                           reason=f"{stop}; no walk counted yet (at least 0)")
    total = 0 if found is None else found[1]
    return CountResult(BACKEND, total, method="bfs-shortest-paths",
                       reason="" if total else "no walk obeys the rules",
                       stats={"shortest_length": None if found is None else search.depth,
                              "states": len(search.parent),
                              "time_s": time.perf_counter() - t0})


class _StateSearch:
    """Breadth-first search over the extended states, level by level."""

    def __init__(self, rules: NodeRules, limits: Limits) -> None:
        self.rules = rules
        p = rules.puzzle
        self.via_bit = {v: 1 << i for i, v in enumerate(sorted(p.via))}
        self.cap = max(rules.last_given + 1, 2)  # position 1 apart: a closed walk needs a step
        self.keep_start = p.closed
        self.keep_first = p.closed and p.colours is not None
        colours = len(p.colour_names) + 1 if p.colours is not None else 1
        states = (p.num_nodes * colours * (colours if self.keep_first else 1)
                  * (p.num_nodes if self.keep_start else 1) * (1 << len(p.via)) * self.cap)
        budget = (limits.memory_mb or DEFAULT_MEMORY_MB) * 1_000_000 // _BYTES_PER_STATE
        self.too_big = "" if states <= budget else (
            f"the search could need {states} states, more than the memory limit allows "
            f"({budget})")
        self.deadline = None if limits.time_limit is None else \
            time.monotonic() + limits.time_limit
        self.limits = limits
        self.parent: dict[_Key, tuple[_Key, int] | None] = {}
        self.depth = 0

    def run(self, *, count: bool) -> tuple[_Key, int] | None:
        """The first goal state reached (with the number of shortest walks to the goals
        of its level when ``count``), or ``None`` when there is none."""
        if self.too_big:
            raise _Stop(self.too_big)
        r = self.rules
        level: dict[_Key, int] = {}
        for s in range(r.puzzle.num_nodes):
            if r.may_begin(s):
                key = (s, -1, -1, s if self.keep_start else -1,
                       self.via_bit.get(s, 0), 1)
                level[key] = 1
                self.parent[key] = None
        self.depth = 0
        work = 0
        while level:
            goals = [k for k in level if self._goal(k)]
            if goals:
                return goals[0], sum(level[k] for k in goals) if count else 1
            nxt: dict[_Key, int] = {}
            for key, ways in level.items():
                work += 1
                self._tick(work)
                for e, new in self._moves(key):
                    if new not in self.parent:
                        self.parent[new] = (key, e)
                        nxt[new] = 0
                    if new in nxt:
                        nxt[new] += ways
            level = nxt
            self.depth += 1
        return None

    def _moves(self, key: _Key) -> list[tuple[int, _Key]]:
        node, last, first, start, via, pos = key
        r = self.rules
        out = []
        for e, w, c, _ in r.moves[node]:
            if not r.colour_ok(last, c, self.depth == 0):
                continue
            if not r.may_land(w, pos + 1 if pos < self.cap else self.cap + 1,
                              closing=False):
                continue
            new = (w, c if r.puzzle.colours is not None else -1,
                   (c if self.depth == 0 else first) if self.keep_first else -1,
                   start, via | self.via_bit.get(w, 0), min(pos + 1, self.cap))
            out.append((e, new))
        return out

    def _goal(self, key: _Key) -> bool:
        node, last, first, start, via, _ = key
        r = self.rules
        passed = bin(via).count("1")
        return r.finishes(node, start if self.keep_start else node, self.depth, 0, passed,
                          last, first)

    def walk(self, goal: _Key) -> Walk:
        nodes, edges = [goal[0]], []
        step = self.parent[goal]
        while step is not None:
            key, e = step
            nodes.append(key[0])
            edges.append(e)
            step = self.parent[key]
        return Walk(tuple(reversed(nodes)), tuple(reversed(edges)))

    def _tick(self, work: int) -> None:
        limit = self.limits.work_limit
        if limit is not None and work > limit:
            raise _Stop(f"work limit of {limit} search nodes reached")
        if self.deadline is not None and work % _CLOCK_EVERY == 0 \
                and time.monotonic() > self.deadline:
            from trailkit.models.support.words import seconds

            raise _Stop(f"time limit of {seconds(self.limits.time_limit or 0.0)} reached")
