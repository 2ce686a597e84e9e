"""The direct backend's answer to a puzzle with node rules (``visit``, ``via``, ``avoid``,
``at``): which search runs, and what its result claims.

* Reusable edges and nodes (``use: any``, ``visit: any``): breadth-first search over
  extended states, a shortest walk (:mod:`.node_reusable`).
* Every node once without a colour rule: the compiled tour search, Warnsdorff's order
  first (:mod:`.hamilton`).
* Everything else: the general depth-first search (:mod:`.node_search`); ``objective:
  shortest`` by iterative deepening (the first walk found is a shortest one),
  ``objective: longest`` by branch and bound (``visit: at-most-once`` with it is the
  longest simple path).

Under ``visit: every-once`` every walk has the same length, so any walk is both
shortest and longest. A search that ends without a walk proves there is none (by
exhaustion: no certificate); a limit reached is ``unknown``, or, for the longest walk,
the best walk found with ``optimal=False``.

>>> from trailkit.models.puzzle import NodeVisit, Objective, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("d", "e")],
...                  visit=NodeVisit.AT_MOST_ONCE, use="at-most-once",
...                  objective=Objective.LONGEST)
>>> answer = solve_node_rules(p, Limits())
>>> len(answer.walk), answer.optimal
(4, True)
"""

from __future__ import annotations

import time

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.exhaustive import DEFAULT_WORK_LIMIT
from trailkit.solvers.backends.direct.node_moves import NodeRules
from trailkit.solvers.backends.direct.node_search import NodeWalkSearch, OutOfWork

__all__ = ["solve_node_rules"]

BACKEND = "direct"


def solve_node_rules(puzzle: Puzzle, limits: Limits) -> Answer:
    """A walk obeying ``puzzle``'s node rules, or why there is none (module docstring)."""
    if puzzle.use is EdgeUse.ANY and puzzle.visit is NodeVisit.ANY:
        from trailkit.solvers.backends.direct.node_reusable import solve_reusable_nodes

        return solve_reusable_nodes(puzzle, limits)
    every = puzzle.visit is NodeVisit.EVERY_ONCE
    proven = True if every and puzzle.objective is not Objective.ANY else None
    from trailkit.solvers.backends.direct.hamilton import solve_tour, tour_applies

    if tour_applies(puzzle):
        answer = solve_tour(puzzle, limits)
        return answer.with_(optimal=proven) if answer.walk is not None else answer
    search = NodeWalkSearch(
        NodeRules.of(puzzle),
        work_limit=limits.work_limit if limits.work_limit is not None else DEFAULT_WORK_LIMIT,
        deadline=None if limits.time_limit is None else time.monotonic() + limits.time_limit,
        time_limit=limits.time_limit)
    starts = puzzle.start_nodes()
    if puzzle.objective is Objective.LONGEST and not every:
        return _longest(search, starts)
    shortest = puzzle.objective is Objective.SHORTEST and not every
    try:
        walk = _shortest(search, starts) if shortest else _first(search, starts)
    except OutOfWork as stop:
        return Answer.unknown(BACKEND, str(stop), search_nodes=search.work)
    if walk is None:
        return Answer.unsolvable(BACKEND, reason=(
            f"exhaustive search of {search.work} search nodes found no walk obeying the "
            "node rules"), search_nodes=search.work)
    return Answer.solved(BACKEND, walk, optimal=True if shortest else proven,
                         search_nodes=search.work)


def _first(search: NodeWalkSearch, starts: list[int]) -> Walk | None:
    for s in starts:
        for walk in search.walks(s):
            return walk
    return None


def _shortest(search: NodeWalkSearch, starts: list[int]) -> Walk | None:
    """Iterative deepening: the walks of at most 0, 1, 2, ... steps, until one is found
    (a shortest one: no shorter bound found any) or the bound passes the longest walk
    the rules allow (a node at most once: the nodes; an edge at most once: the edges)."""
    p = search.rules.puzzle
    most = p.num_nodes if search.rules.once else p.num_edges
    for bound in range(most + 1):
        for s in starts:
            for walk in search.walks(s, bound):
                return walk
    return None


def _longest(search: NodeWalkSearch, starts: list[int]) -> Answer:
    """Branch and bound: every walk longer than the best so far, until none is left."""
    search.longest = True
    best: Walk | None = None
    try:
        for s in starts:
            for walk in search.walks(s):
                best = walk
                search.need = len(walk) + 1
    except OutOfWork as stop:
        if best is None:
            return Answer.unknown(BACKEND, str(stop), search_nodes=search.work)
        return Answer.solved(BACKEND, best, optimal=False, search_nodes=search.work,
                             note=str(stop))
    if best is None:
        return Answer.unsolvable(BACKEND, reason=(
            f"exhaustive search of {search.work} search nodes found no walk obeying the "
            "node rules"), search_nodes=search.work)
    return Answer.solved(BACKEND, best, optimal=True, search_nodes=search.work)
