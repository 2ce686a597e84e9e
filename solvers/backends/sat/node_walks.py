"""Solving and counting puzzles with node rules on the ``node-positions-v1`` formula.

A node-rule puzzle (``visit``, ``via``, ``avoid``, ``at``) is solved, whatever its edge
rule, on the formula of :mod:`trailkit.models.formulas.node_positions`: the position
encoding's prefix form over the node horizon with a literal per node and position. One
call with proof logging decides it (UNSAT: the proof refutes the certified formula, so
the answer carries a ``drup`` certificate; where the puzzle gives positions, the formula
with only the steps the givens' distances allow, ``"distances": true``); a walk found is
then improved under the objective on the same solver, with the activation literals as
assumptions ("at most k steps" upwards for the shortest, "more than L" for the longest),
so the length is proven best on the solver's word (the pipeline certifies it by
refutation).

Counting blocks each walk found on its step literals, one length at a time, with the
plans and the loop of :mod:`.search` (:func:`~trailkit.solvers.backends.sat.search.count_walks`
counts at-most-once walks by them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.formulas.node_positions import (
    distances_apply,
    encode_node_prefix,
    node_formula,
    node_horizon,
    walk_bound,
)
from trailkit.models.formulas.position_encoding import VarMap
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.sat.runner import Deadline, Verdict, new_solver, solve_call
from trailkit.solvers.backends.sat.search import enumerate_plans, length_plans

__all__ = ["NodeOutcome", "count_node_walks", "search_nodes"]


class NodeOutcome:
    """What a node search found: ``status``, the ``walk`` (SAT; ``best`` when its length
    is proven best on the solver's word), or the refuted ``formula`` and its ``proof``."""

    def __init__(self, status: Verdict, walk: Walk | None = None, *, best: bool = False,
                 formula: CertifiedFormula | None = None, proof: list[str] | None = None,
                 reason: str = "") -> None:
        self.status, self.walk, self.best = status, walk, best
        self.formula, self.proof, self.reason = formula, proof, reason


def _empty(puzzle: Puzzle) -> Walk | None:
    nodes = puzzle.empty_walk_nodes()
    return Walk((nodes[0],), ()) if nodes else None


def search_nodes(puzzle: Puzzle, name: str, deadline: Deadline, *,
                 proof: bool = True) -> NodeOutcome:
    """A walk obeying every rule (the best under the objective), or the refutation."""
    empty = _empty(puzzle)
    longest = puzzle.wants_longest
    if empty is not None and not longest:
        return NodeOutcome(Verdict.SAT, empty, best=True)
    horizon = node_horizon(puzzle)
    if horizon == 0:
        if empty is not None:
            return NodeOutcome(Verdict.SAT, empty, best=True)
        formula = node_formula(puzzle)
        return NodeOutcome(Verdict.UNSAT, formula=formula if isinstance(
            formula, CertifiedFormula) else None, proof=["0"],
            reason="no step can be taken and the empty walk is not allowed")
    clauses, vmap = encode_node_prefix(puzzle, horizon, distances=distances_apply(puzzle))
    solver = new_solver(name, [*clauses, [vmap.active[0]]], proof=proof and empty is None)
    try:
        result = solve_call(solver, name, (), deadline)
        if result is Verdict.INTERRUPTED:
            return NodeOutcome(Verdict.INTERRUPTED)
        if result is Verdict.UNSAT:
            if empty is not None:  # longest, and no walk of a step: the empty walk
                return NodeOutcome(Verdict.SAT, empty, best=True)
            return _refuted(puzzle, name, horizon, list(solver.get_proof() or [])
                            if proof else None)
        walk = vmap.decode(puzzle, solver.get_model() or [])
        if puzzle.objective is Objective.SHORTEST or longest:
            return _improve(puzzle, name, solver, vmap, walk, deadline, longest=longest)
        return NodeOutcome(Verdict.SAT, walk)
    finally:
        solver.delete()


def _refuted(puzzle: Puzzle, name: str, horizon: int, proof: list[str] | None) -> NodeOutcome:
    formula = node_formula(puzzle, distances=distances_apply(puzzle))
    bounded = walk_bound(puzzle) is not None
    return NodeOutcome(
        Verdict.UNSAT, formula=formula if isinstance(formula, CertifiedFormula) else None,
        proof=proof, reason=(
            f"the SAT solver {name} refuted the node-positions-v1 formula: no walk of 1 to "
            f"{horizon} steps obeys the edge and node rules ("
            + ("no walk can be longer" if bounded else "a shortest walk would be no longer")
            + "), and the empty walk is not allowed"))


def _improve(puzzle: Puzzle, name: str, solver: Any, vmap: VarMap, walk: Walk,
             deadline: Deadline, *, longest: bool) -> NodeOutcome:
    """The best walk, asked of ``solver`` under assumptions on the activation literals:
    the longest by "more than L steps" until refuted, the shortest by "at most k steps"
    for k = 1, 2, ... below the walk found."""
    act = vmap.active
    if longest:
        while len(walk) < len(act):
            result = solve_call(solver, name, [act[len(walk)]], deadline)
            if result is Verdict.INTERRUPTED:
                return NodeOutcome(Verdict.SAT, walk)
            if result is Verdict.UNSAT:
                break
            walk = vmap.decode(puzzle, solver.get_model() or [])
        return NodeOutcome(Verdict.SAT, walk, best=True)
    for k in range(1, len(walk)):
        result = solve_call(solver, name, [-act[k]], deadline)
        if result is Verdict.INTERRUPTED:
            return NodeOutcome(Verdict.SAT, walk)
        if result is Verdict.SAT:
            return NodeOutcome(Verdict.SAT, vmap.decode(
                puzzle, solver.get_model() or []), best=True)
    return NodeOutcome(Verdict.SAT, walk, best=True)


def count_node_walks(puzzle: Puzzle, name: str, deadline: Deadline,
                     progress: Callable[[int], None] = lambda n: None
                     ) -> tuple[int, bool, str]:
    """Count the walks ``count`` counts on a node-rule puzzle (every walk; the shortest
    under ``objective: shortest`` or where edges may be reused; the longest under
    ``objective: longest``): one length at a time, each walk blocked on its step
    literals once found. Returns ``(count, complete, reason)``."""
    shortest = puzzle.objective is Objective.SHORTEST or puzzle.use is EdgeUse.ANY
    longest = puzzle.wants_longest
    empties = len(puzzle.empty_walk_nodes())
    total = 0 if longest else empties
    progress(total)
    horizon = node_horizon(puzzle)
    if (total and shortest) or horizon == 0:
        return empties if longest else total, True, ""
    clauses, vmap = encode_node_prefix(puzzle, horizon)
    plans = length_plans(vmap.active, horizon, longest)
    total, complete = enumerate_plans(name, clauses, vmap, plans, deadline, total, progress,
                                      first_only=shortest or longest)
    if not complete:
        return total, False, "the time limit was reached"
    return (total or empties) if longest else total, True, ""
