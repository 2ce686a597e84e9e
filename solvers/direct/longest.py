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
from trailkit.solvers.base import Limits

__all__ = ["solve_longest"]

BACKEND = "direct"


class _Stop(Exception):
    """The work or time limit was reached."""


def solve_longest(puzzle: Puzzle, limits: Limits) -> Answer:
    """The longest walk of an at-most-once ``puzzle`` (see the module docstring)."""
    rule = puzzle.colours
    colour = puzzle.colour or [-1] * puzzle.num_edges
    moves: list[list[tuple[int, int]]] = [[] for _ in range(puzzle.num_nodes)]
    usable = 0
    for e in range(puzzle.num_edges):
        if rule is not None and colour[e] < 0:
            continue
        usable += 1
        u, v = puzzle.tail[e], puzzle.head[e]
        moves[u].append((e, v))
        if u != v and not puzzle.is_directed(e):
            moves[v].append((e, u))
    starts = puzzle.start_nodes()
    deadline = None if limits.time_limit is None else time.monotonic() + limits.time_limit
    best: list[Walk] = []
    used = bytearray(puzzle.num_edges)
    nodes: list[int] = []
    edges: list[int] = []
    work = [0]

    def finishes(at: int) -> bool:
        if not puzzle.may_end(at):
            return False
        if not puzzle.closed:
            return True
        if not edges or at != nodes[0]:
            return not edges and puzzle.num_edges == 0
        return rule is None or colour[edges[0]] in rule.successors[colour[edges[-1]]]

    def allowed(e: int) -> bool:
        if rule is None:
            return True
        if not edges:
            return puzzle.first is None or colour[e] in puzzle.first
        return colour[e] in rule.successors[colour[edges[-1]]]

    def reachable(at: int) -> int:
        """Unused edges a walk from ``at`` could still reach (an upper bound on its future)."""
        seen_nodes, seen_edges, stack = {at}, set(), [at]
        while stack:
            x = stack.pop()
            for e, w in moves[x]:
                if not used[e]:
                    seen_edges.add(e)
                    if w not in seen_nodes:
                        seen_nodes.add(w)
                        stack.append(w)
        return len(seen_edges)

    def dfs(at: int) -> bool:
        """Extend the walk; ``True`` when a walk using every usable edge was found."""
        work[0] += 1
        if limits.work_limit is not None and work[0] > limits.work_limit:
            raise _Stop(f"work limit of {limits.work_limit} search nodes reached")
        if deadline is not None and work[0] & 0x3FF == 0 and time.monotonic() > deadline:
            raise _Stop(f"time limit of {limits.time_limit} s reached")
        if finishes(at) and (not best or len(edges) > len(best[0])):
            best[:] = [Walk((*nodes, at), tuple(edges))]
            if len(edges) == usable:
                return True
        if best and len(edges) + reachable(at) <= len(best[0]):
            return False
        for e, w in moves[at]:
            if used[e] or not allowed(e):
                continue
            used[e] = 1
            nodes.append(at)
            edges.append(e)
            done = dfs(w)
            edges.pop()
            nodes.pop()
            used[e] = 0
            if done:
                return True
        return False

    try:
        for s in starts:
            if dfs(s):
                break
    except _Stop as stop:
        if best:
            return Answer.solved(BACKEND, best[0], optimal=False, search_nodes=work[0],
                                 note=str(stop))
        return Answer.unknown(BACKEND, str(stop), search_nodes=work[0])
    if not best:
        return Answer.unsolvable(BACKEND, reason=f"exhaustive search of {work[0]} search "
                                 "nodes found no walk", search_nodes=work[0])
    return Answer.solved(BACKEND, best[0], optimal=True, search_nodes=work[0])
