"""``objective: longest`` for walks that use each edge at most once: exhaustive search.

The longest domino train from a hand, the longest trail in a figure. A depth-first
search from every allowed start tries every unused edge the colour rule allows next,
and keeps the longest walk that may finish where it stands (an allowed end; for a
closed walk, back at its start with the colours joining up). A branch is cut when even
every unused edge it can still reach could not make it beat the best walk found, and a
walk that uses every usable edge ends the search at once. For small puzzles (the brute-force tests,
hands of a few dozen dominoes); ``limits.work_limit`` bounds the search nodes and
``limits.time_limit`` the time (the clock is read at every search node: one may cost a
pass over the unused edges). The search keeps its own stack, so a walk of any length
needs no deeper Python recursion; the best walk is copied out of the stack only when
the search is about to leave it, so a long first descent costs its length, not its
square.

A search stopped by a limit has not answered the question: its answer is ``unknown``,
and carries the longest walk found (the pipeline verifies it like any other), so the
longest walk has at least its length. The answer is verified by the pipeline like any
other; CP-SAT (maximising the circuit model) is the second opinion.

>>> from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
>>> p = Puzzle.build(kind="walk", edges=[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")],
...                  use=EdgeUse.AT_MOST_ONCE, objective=Objective.LONGEST)
>>> len(solve_longest(p, Limits()).walk)
4
"""

from __future__ import annotations

import time

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import number, plural
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
            if search.search_from(s):
                break
    except _Stop as stop:
        best = search.best_walk()
        if best is None:
            return Answer.unknown(BACKEND, str(stop), search_nodes=search.work)
        return Answer(Status.UNKNOWN, BACKEND, walk=best, optimal=False, reason=(
            f"{stop}: the longest walk found has {plural(len(best), 'step')}, so the "
            f"longest has at least {number(len(best), at_least=True)}"),
            stats={"search_nodes": search.work})
    best = search.best_walk()
    if best is None:
        return Answer.unsolvable(BACKEND, reason=f"exhaustive search of {search.work} search "
                                 "nodes found no walk", search_nodes=search.work)
    return Answer.solved(BACKEND, best, optimal=True, search_nodes=search.work)


class _LongestSearch:
    """The depth-first search's state: the walk so far (``nodes``, one more than
    ``edges``), the edges it used, and the best walk (its length, and the walk itself
    once copied out of the stack)."""

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
        self.best_length = -1  # no walk yet
        self.best: Walk | None = None
        self.pending = False  # the best walk is the stack's prefix, not yet copied out
        self.used = bytearray(puzzle.num_edges)
        self.nodes: list[int] = []
        self.edges: list[int] = []
        self.work = 0

    def best_walk(self) -> Walk | None:
        """The longest walk found so far (copied out of the stack if need be)."""
        if self.pending:
            k = self.best_length
            self.best = Walk(tuple(self.nodes[:k + 1]), tuple(self.edges[:k]))
            self.pending = False
        return self.best

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

    def search_from(self, start: int) -> bool:
        """Every walk from ``start``; ``True`` when a walk using every usable edge was
        found. The stack holds, per node of the walk, the next move to try there."""
        nodes, edges, used, moves = self.nodes, self.edges, self.used, self.moves
        nodes.append(start)
        tries = [self.arrive(start)]
        while tries:
            if tries[-1] < 0:
                return True
            here, i = moves[nodes[-1]], tries[-1]
            while i < len(here) and (used[here[i][0]] or not self.allowed(here[i][0])):
                i += 1
            if i == len(here):  # every move tried: back one step
                self.best_walk()
                tries.pop()
                nodes.pop()
                if edges:
                    used[edges.pop()] = 0
                continue
            tries[-1] = i + 1
            e, w = here[i]
            used[e] = 1
            edges.append(e)
            nodes.append(w)
            tries.append(self.arrive(w))
        return False

    def arrive(self, at: int) -> int:
        """The walk has reached ``at`` (the stack's top): note it if it is the best so
        far, and say where to go on: ``-1`` (it uses every usable edge: done), the
        number of moves at ``at`` (nothing here can beat the best: go back) or 0."""
        self._count_work()
        length = len(self.edges)
        if self.finishes(at) and length > self.best_length:
            self.best_length, self.pending = length, True
            if length == self.usable:
                return -1
            return 0  # just noted: only a dead end could be cut here, and it ends anyway
        if self.best_length >= 0 and length + self.reachable(at) <= self.best_length:
            return len(self.moves[at])
        return 0

    def _count_work(self) -> None:
        """One more search node; :class:`_Stop` past the work or the time limit."""
        self.work += 1
        limits = self.limits
        if limits.work_limit is not None and self.work > limits.work_limit:
            raise _Stop(f"work limit of {limits.work_limit} search nodes reached")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Stop("the time limit was reached")
