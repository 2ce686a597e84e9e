"""``objective: longest`` for walks that use each edge at most once: exhaustive search.

The longest domino train from a hand, the longest trail in a figure. A depth-first
search from every allowed start tries every unused edge the colour rule allows next,
and keeps the longest walk that may finish where it stands (an allowed end; for a
closed walk, back at its start with the colours joining up). A branch is cut when even
every unused edge it can still reach could not make it beat the best walk found, and a
walk that uses every usable edge ends the search at once. For small puzzles (the brute-force tests,
hands of a few dozen dominoes); ``limits.work_limit`` bounds the search nodes, and a
search stopped by it returns its best walk with ``optimal=False``. The answer is
verified by the pipeline like any other; CP-SAT (maximising the circuit model) is the
second opinion.

>>> from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
>>> p = Puzzle.build(kind="walk", edges=[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")],
...                  use=EdgeUse.AT_MOST_ONCE, objective=Objective.LONGEST)
>>> len(solve_longest(p, Limits()).walk)
4
"""

from __future__ import annotations

import time

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import Limits

__all__ = ["solve_longest"]

BACKEND = "direct"


class _Stop(Exception):
    """The work or time limit was reached."""


def solve_longest(puzzle: Puzzle, limits: Limits) -> Answer:
    """The longest walk of an at-most-once ``puzzle`` (see the module docstring)."""
    search = _LongestSearch(puzzle, limits)
    try:
        for s in puzzle.start_nodes():
            if search.dfs(s):
                break
    except _Stop as stop:
        if search.best:
            return Answer.solved(BACKEND, search.best[0], optimal=False,
                                 search_nodes=search.work, note=str(stop))
        return Answer.unknown(BACKEND, str(stop), search_nodes=search.work)
    if not search.best:
        return Answer.unsolvable(BACKEND, reason=f"exhaustive search of {search.work} search "
                                 "nodes found no walk", search_nodes=search.work)
    return Answer.solved(BACKEND, search.best[0], optimal=True, search_nodes=search.work)


class _LongestSearch:
    """The depth-first search's state: the walk so far, the edges it used, the best walk."""

    def __init__(self, puzzle: Puzzle, limits: Limits) -> None:
        self.puzzle = puzzle
        self.limits = limits
        self.rule = puzzle.colours
        self.colour = puzzle.colour or [-1] * puzzle.num_edges
        #: per node, the (edge, other end) moves the colour rule does not rule out
        self.moves: list[list[tuple[int, int]]] = [[] for _ in range(puzzle.num_nodes)]
        self.usable = 0
        for e in range(puzzle.num_edges):
            if self.rule is not None and self.colour[e] < 0:
                continue
            self.usable += 1
            u, v = puzzle.tail[e], puzzle.head[e]
            self.moves[u].append((e, v))
            if u != v and not puzzle.is_directed(e):
                self.moves[v].append((e, u))
        self.deadline = (None if limits.time_limit is None
                         else time.monotonic() + limits.time_limit)
        self.best: list[Walk] = []
        self.used = bytearray(puzzle.num_edges)
        self.nodes: list[int] = []
        self.edges: list[int] = []
        self.work = 0

    def finishes(self, at: int) -> bool:
        """Whether the walk so far may stop at ``at``."""
        puzzle, edges, rule = self.puzzle, self.edges, self.rule
        if not puzzle.may_end(at):
            return False
        if not puzzle.closed:
            return True
        if not edges or at != self.nodes[0]:
            return not edges and puzzle.num_edges == 0
        return rule is None or self.colour[edges[0]] in rule.successors[self.colour[edges[-1]]]

    def allowed(self, e: int) -> bool:
        """Whether the colour rule lets edge ``e`` come next."""
        rule, colour = self.rule, self.colour
        if rule is None:
            return True
        if not self.edges:
            return self.puzzle.first is None or colour[e] in self.puzzle.first
        return colour[e] in rule.successors[colour[self.edges[-1]]]

    def reachable(self, at: int) -> int:
        """Unused edges a walk from ``at`` could still reach (an upper bound on its future)."""
        seen_nodes, seen_edges, stack = {at}, set(), [at]
        while stack:
            x = stack.pop()
            for e, w in self.moves[x]:
                if not self.used[e]:
                    seen_edges.add(e)
                    if w not in seen_nodes:
                        seen_nodes.add(w)
                        stack.append(w)
        return len(seen_edges)

    def dfs(self, at: int) -> bool:
        """Extend the walk; ``True`` when a walk using every usable edge was found."""
        self._count_work()
        nodes, edges, used, best = self.nodes, self.edges, self.used, self.best
        if self.finishes(at) and (not best or len(edges) > len(best[0])):
            best[:] = [Walk((*nodes, at), tuple(edges))]
            if len(edges) == self.usable:
                return True
        if best and len(edges) + self.reachable(at) <= len(best[0]):
            return False
        for e, w in self.moves[at]:
            if used[e] or not self.allowed(e):
                continue
            used[e] = 1
            nodes.append(at)
            edges.append(e)
            done = self.dfs(w)
            edges.pop()
            nodes.pop()
            used[e] = 0
            if done:
                return True
        return False

    def _count_work(self) -> None:
        """One more search node; :class:`_Stop` past the work or the time limit."""
        self.work += 1
        limits = self.limits
        if limits.work_limit is not None and self.work > limits.work_limit:
            raise _Stop(f"work limit of {limits.work_limit} search nodes reached")
        if self.deadline is not None and self.work & 0x3FF == 0 \
                and time.monotonic() > self.deadline:
            raise _Stop(f"time limit of {seconds(limits.time_limit)} reached")
