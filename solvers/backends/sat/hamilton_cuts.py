"""Walks through every node by ``node-cuts-v1`` and lazily added cut clauses (CEGAR).

The base formula (:mod:`trailkit.models.formulas.node_cuts`) gives each node one step in
and one out; a model may fall apart into a walk and closed cycles. The loop
(:mod:`.lazy_cuts`, shared with :mod:`.transition`) is incremental SAT: solve; if the
model is one piece through every node, it is the walk; else add the cut clause of every
piece ("some step joins these nodes to the others") to the same solver and solve again.
When the solver says UNSAT, a fresh solver refutes the base formula with every cut
added, with proof logging, so the ``node-cuts-v1`` certificate lists the cuts (each
checked on its own by the certificate checker) and the DRUP proof covers the rest (as
:mod:`.transition` does for the transition encoding). Plain ``sat`` takes this formula
wherever it applies (``sat/position`` keeps node positions): on random graphs near the
threshold of Hamiltonicity it is far faster (``tests/bench/bench_node_encodings.py``,
figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

from typing import Any

from trailkit.models.answer import Answer
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, node_cuts_size
from trailkit.models.formulas.node_cuts import cut_clause, cuts_formula, encode_cuts
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.sat.lazy_cuts import CutOutcome, cut_loop, refuted, stopped
from trailkit.solvers.backends.sat.runner import (
    Deadline,
    SolverTimeout,
    Verdict,
    can_prove,
    new_solver,
    run_guarded,
    small_puzzle,
)

__all__ = ["CutOutcome", "cuts_answer", "cuts_outcome", "solve_cuts"]


def solve_cuts(puzzle: Puzzle, name: str, deadline: Deadline, *,
               proof: bool = False) -> CutOutcome:
    """A walk through every node of ``puzzle`` (where ``node-cuts-v1`` applies), or its
    refutation: every piece of a model that falls apart gets its cut clause."""
    clauses, cmap = encode_cuts(puzzle)
    cuts: list[dict[str, Any]] = []

    def cuts_of(model: list[int]) -> list[list[int]]:
        pieces = cmap.pieces(model)
        if len(pieces) == 1:
            return []
        added = [cut_clause(cmap, piece) for piece in pieces]
        cuts.extend({"nodes": [puzzle.nodes[v] for v in piece], "clause": clause}
                    for piece, clause in zip(pieces, added, strict=True))
        return added

    solver = new_solver(name, clauses)
    try:
        end = cut_loop(solver, name, deadline, cuts_of)
    finally:
        solver.delete()
    stats = {"rounds": end.rounds, "cuts": len(cuts), "variables": cmap.num_vars,
             "clauses": len(clauses) + len(cuts)}
    if end.verdict is Verdict.INTERRUPTED:
        return stopped(end.rounds, len(cuts), stats)
    if end.verdict is Verdict.SAT:
        walk = cmap.walk(puzzle, end.model, cmap.pieces(end.model)[0])
        return CutOutcome(Verdict.SAT, walk, stats=stats)
    return _refuted(puzzle, name, deadline, cuts, end.rounds, proof)


def _refuted(puzzle: Puzzle, name: str, deadline: Deadline, cuts: list[dict[str, Any]],
             rounds: int, proof: bool) -> CutOutcome:
    """The refutation of the base formula with ``cuts``, by a fresh solver logging its
    proof (when ``proof``)."""
    formula = cuts_formula(puzzle, cuts)
    if isinstance(formula, list):
        raise RuntimeError(f"the cut clauses the solver added are refused: {formula[0]}")
    stats = {"rounds": rounds, "cuts": len(cuts), "variables": formula.num_vars,
             "clauses": len(formula.clauses)}
    reason = (f"the SAT solver {name} refuted the node-cuts-v1 formula with {len(cuts)} cut "
              f"clause{'s' * (len(cuts) != 1)} added in {rounds} round{'s' * (rounds != 1)}")
    return refuted(name, formula, deadline, proof=proof, reason=reason, stats=stats,
                   what="node-cuts")


def cuts_answer(backend: str, solver: str, puzzle: Puzzle, limits: Limits) -> Answer:
    """The SAT backend's answer with ``node-cuts-v1`` (a puzzle :func:`cuts_apply` allows):
    its size estimated first, a refutation certified when the solver logs proofs."""
    named = {"encoding": "node-cuts", "encoding_choice": "a walk through every node: arc "
             "literals with cut clauses added lazily (measured faster than node positions)"}
    problem = budget_problem(node_cuts_size(puzzle), limits.memory_mb, "node-cuts formula",
                             "try the direct or cpsat backend, or a larger --memory-limit")
    if problem is not None:
        return Answer.unknown(backend, problem, **named)
    out = cuts_outcome(solver, puzzle, limits, proof=can_prove(solver))
    if out.status is Verdict.INTERRUPTED:
        return Answer.unknown(backend, f"the time limit of {seconds(limits.time_limit)} was "
                              f"reached (node-cuts encoding{', ' if out.reason else ''}"
                              f"{out.reason})", **named, **out.stats)
    if out.status is Verdict.SAT and out.walk is not None:
        best = puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
        return Answer.solved(backend, out.walk, optimal=True if best else None,
                             solver=solver, **named, **out.stats)
    certificate = None
    if out.formula is not None and out.proof is not None:
        certificate = make_certificate(puzzle, out.formula, out.proof, solver)
    return Answer.unsolvable(backend, certificate, reason=out.reason, solver=solver, **named,
                             **out.stats)


def cuts_outcome(solver: str, puzzle: Puzzle, limits: Limits, *, proof: bool) -> CutOutcome:
    """:func:`solve_cuts` within the time limit (INTERRUPTED when it is reached)."""
    try:
        return run_guarded(lambda d: solve_cuts(puzzle, solver, d, proof=proof), solver,
                           limits.time_limit, small=small_puzzle(puzzle))
    except SolverTimeout:
        return CutOutcome(Verdict.INTERRUPTED)
