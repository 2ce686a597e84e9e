"""The ``direct`` backend: classical graph algorithms, no solver library.

Dispatch by the puzzle's rules:

* every edge exactly once, no colour rule: Hierholzer's algorithm (mixed graphs
  first orient their two-way edges by a max-flow), with structural certificates
  when no trail exists (:mod:`.euler`, :mod:`.structural`);
* edges reusable: breadth-first search over (node, colour-phase) states, shortest
  walk or a closed set of states as the certificate (:mod:`.reachability`);
* everything else (at most once, or exactly once with a colour rule): an exhaustive
  search that says ``unknown`` when its work limit runs out (:mod:`.exhaustive`);
  ``objective: longest`` (at most once) has its own exhaustive search (:mod:`.longest`);
* node rules (``visit``, ``via``, ``avoid``, ``at``): the searches of :mod:`.node_rules`
  (a compiled tour search for every node once, a general search otherwise), counted by
  :mod:`.node_count` (with the tours of a closed walk through every node).
"""

from __future__ import annotations

from collections.abc import Callable

from trailkit.models.answer import Answer, Walk
from trailkit.models.counts import CountResult
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.support.signs import SOLVING, sign

__all__ = ["DirectBackend"]


class DirectBackend(Backend):
    """Polynomial algorithms where they exist, a bounded exhaustive search elsewhere."""

    name = "direct"
    family = "direct"
    supports_counting = True
    supports_failures = True
    supports_proof = False
    supports_node_rules = True
    honours_work_limit = True
    work_unit = "search nodes"

    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        sign(SOLVING, self.name)  # no formula to build: the search starts here
        if not puzzle.nodes:  # no dominoes at all: they form a ring, the empty one
            return Answer.solved(self.name, Walk.nowhere(), optimal=True
                                 if puzzle.objective is Objective.SHORTEST else None)
        if puzzle.has_node_rules:
            from trailkit.solvers.backends.direct.node_rules import solve_node_rules

            return solve_node_rules(puzzle, limits)
        if puzzle.wants_longest:
            from trailkit.solvers.backends.direct.longest import solve_longest

            return solve_longest(puzzle, limits)
        if puzzle.use is EdgeUse.ANY:
            from trailkit.solvers.backends.direct.reachability import solve_reusable

            return solve_reusable(puzzle, limits)
        if puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.colours is None:
            from trailkit.solvers.backends.direct.euler import solve_euler

            return solve_euler(puzzle, limits)
        if puzzle.use is EdgeUse.EXACTLY_ONCE:  # colours too: parity etc. still decide
            from trailkit.solvers.backends.direct.structural import structural_certificate

            certificate = structural_certificate(puzzle)
            if certificate is not None:
                return Answer.unsolvable(self.name, certificate, reason=certificate.explanation)
        from trailkit.solvers.backends.direct.exhaustive import solve_exhaustive

        return solve_exhaustive(puzzle, limits)

    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *, failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        sign(SOLVING, self.name)
        if puzzle.has_node_rules and puzzle.nodes:
            from trailkit.solvers.backends.direct.node_count import (
                count_node_walks,
                refuse_failures,
            )

            if failures:
                raise refuse_failures()
            return count_node_walks(puzzle, limits, progress=progress)
        from trailkit.solvers.backends.direct.enumeration import count_walks

        return count_walks(puzzle, limits, failures=failures, progress=progress)
