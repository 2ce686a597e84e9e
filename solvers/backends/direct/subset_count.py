"""Walks through every node once, counted by the dynamic programme over subsets, compiled:
for few nodes (at most :data:`MAX_NODES`, the table within the memory limit), no colour
rule and no edge rule beyond "at most once".

``paths[mask, v]`` is the number of walks from an allowed start that pass exactly the
nodes of ``mask`` and stand on ``v``; masks grow by one node a step, so one pass over
the masks in increasing order fills the table (the givens ``at`` are kept as a node is
added: the walk's position is the size of its mask). An open walk ends on any allowed
end once every node is passed; a closed one, counted from one node (its cycles pass
every node), steps back to it. A second table counts the walks on two-way edges only,
for the tours. Counts stay below 2**63: no count passes the number of nodes times the
product of the nodes' moves (each step one of its node's moves), which is checked first.

The pass runs in slices of masks so that the caller can check the clock and Ctrl-C in
between.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from trailkit.models.counts import CountResult, StartCounts
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.jit import kernel
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.backends.direct.node_moves import NodeRules

__all__ = ["MAX_NODES", "applies", "count_by_subsets", "subset_pass"]

MAX_NODES = 20
"""The most nodes counted by the table (n x 2**n counts of 8 bytes, two tables)."""


@kernel
def subset_pass(indptr: np.ndarray, nbr: np.ndarray, two_way: np.ndarray,
                node_at: np.ndarray, pos_of: np.ndarray, paths: np.ndarray,
                paths2: np.ndarray, n: int, first: int, last: int) -> None:
    """Extend every walk of the masks ``first`` to ``last - 1`` by one step."""
    for mask in range(first, last):
        size = 0
        m = mask
        while m:
            m &= m - 1
            size += 1
        position = size + 1
        for v in range(n):
            c = paths[mask, v]
            if c == 0 or not (mask >> v) & 1:
                continue
            c2 = paths2[mask, v]
            for k in range(indptr[v], indptr[v + 1]):
                w = nbr[k]
                if (mask >> w) & 1:
                    continue
                if node_at[position] >= 0 and node_at[position] != w:
                    continue
                if pos_of[w] >= 0 and pos_of[w] != position:
                    continue
                grown = mask | (1 << w)
                paths[grown, w] += c
                if two_way[k]:
                    paths2[grown, w] += c2


def applies(puzzle: Puzzle, memory_mb: int | None) -> bool:
    """Whether :func:`count_by_subsets` counts ``puzzle`` (see the module docstring)."""
    k = puzzle.num_nodes - len(puzzle.avoid)
    if not (puzzle.visit is NodeVisit.EVERY_ONCE and puzzle.colours is None
            and puzzle.use is not EdgeUse.EXACTLY_ONCE and 3 <= k <= MAX_NODES):
        return False
    if puzzle.closed and set(puzzle.at.values()) - {1}:
        return False
    budget = (memory_mb or DEFAULT_MEMORY_MB) * 1_000_000 // 2
    return 2 * k * (1 << k) * 8 <= budget


def count_by_subsets(puzzle: Puzzle, limits: Limits) -> CountResult:
    """Count the walks (and, closed, the tours) of a puzzle :func:`applies` to."""
    t0 = time.perf_counter()
    table = _Table.of(puzzle)
    k = table.k
    if table.bound >= 1 << 62:
        raise OverflowError("the counts could pass 2**63")
    paths = np.zeros((1 << k, k), np.int64)
    paths2 = np.zeros((1 << k, k), np.int64)
    for s in table.seeds:
        paths[1 << s, s] = 1
        paths2[1 << s, s] = 1
    run = subset_pass.sized(k << k)
    deadline = None if limits.time_limit is None else time.monotonic() + limits.time_limit
    stopped = ""
    try:
        for first in range(0, 1 << k, _SLICE):
            if limits.work_limit is not None and first * k > limits.work_limit:
                stopped = f"work limit of {limits.work_limit} search states reached"
                break
            if deadline is not None and time.monotonic() > deadline:
                stopped = f"time limit of {seconds(limits.time_limit or 0.0)} reached"
                break
            run(table.indptr, table.nbr, table.two_way, table.node_at, table.pos_of,
                paths, paths2, k, first, min(first + _SLICE, 1 << k))
    except KeyboardInterrupt:
        stopped = "interrupted (Ctrl-C)"
    return table.result(puzzle, paths, paths2, stopped, time.perf_counter() - t0)


_SLICE = 1 << 15
"""Masks per slice of the pass (the clock and Ctrl-C are checked between slices)."""


@dataclass
class _Table:
    """The puzzle's nodes not avoided, numbered 0 .. k-1, with their arcs and givens."""

    k: int
    names: list[str]
    allowed: list[int]
    seeds: list[int]
    indptr: np.ndarray
    nbr: np.ndarray
    two_way: np.ndarray
    node_at: np.ndarray
    pos_of: np.ndarray
    may_end: list[bool]
    bound: int

    @classmethod
    def of(cls, puzzle: Puzzle) -> _Table:
        rules = NodeRules.of(puzzle)
        keep = [v for v in range(puzzle.num_nodes) if v not in puzzle.avoid]
        index = {v: i for i, v in enumerate(keep)}
        k = len(keep)
        rows: list[list[tuple[int, bool]]] = [[] for _ in range(k)]
        for v in keep:
            for _, w, _, one_way in rules.moves[v]:
                if w != v and w in index:
                    rows[index[v]].append((index[w], not one_way))
        node_at = np.full(k + 2, -1, np.int64)
        pos_of = np.full(k, -1, np.int64)
        for v, p in puzzle.at.items():
            pos_of[index[v]] = p
            if p < k + 2:
                node_at[p] = index[v]
        allowed = [index[v] for v in keep if rules.may_begin(v)]
        given = [index[v] for v, p in puzzle.at.items() if p == 1]
        seeds = allowed if not puzzle.closed else ([] if not allowed else given or [0])
        bound = k
        for row in rows:
            bound *= max(len(row), 1)
        return cls(k, [puzzle.nodes[v] for v in keep], allowed, seeds,
                   np.asarray(np.cumsum([0] + [len(r) for r in rows]), np.int64),
                   np.asarray([w for r in rows for w, _ in r], np.int64),
                   np.asarray([t for r in rows for _, t in r], np.bool_),
                   node_at, pos_of, [puzzle.may_end(v) for v in keep], bound)

    def result(self, puzzle: Puzzle, paths: np.ndarray, paths2: np.ndarray, stopped: str,
               elapsed: float) -> CountResult:
        full = (1 << self.k) - 1
        tours = None
        if puzzle.closed:
            walks = two_way = 0
            home = self.seeds[0] if self.seeds else 0
            for v in range(self.k):
                for i in range(int(self.indptr[v]), int(self.indptr[v + 1])):
                    if self.nbr[i] == home:
                        walks += int(paths[full, v])
                        two_way += int(paths2[full, v]) if self.two_way[i] else 0
            if not stopped:
                tours = (walks - two_way) + two_way // 2
            per = {self.names[s]: walks for s in self.allowed}
            walks *= len(self.allowed)
        else:
            walks = sum(int(paths[full, v]) for v in range(self.k) if self.may_end[v])
            per = None
        return CountResult(
            backend="direct", solutions=0 if stopped else walks, complete=not stopped,
            method="dynamic programme over subsets",
            per_start=None if per is None or stopped else {
                name: StartCounts(n) for name, n in per.items()},
            reason=f"{stopped}; the number is a lower bound (at least)" if stopped else "",
            stats={"states": self.k << self.k, "time_s": elapsed,
                   "interrupted": stopped.startswith("interrupted")},
            tours=tours)
