"""Walks through every node by ``node-cuts-v1`` and lazily added cut clauses (CEGAR).

The base formula (:mod:`trailkit.models.formulas.node_cuts`) gives each node one step in
and one out; a model may fall apart into a walk and closed cycles. The loop is
incremental SAT: solve; if the model is one piece through every node, it is the walk;
else add the cut clause of every piece ("some step joins these nodes to the others") to
the same solver and solve again. When the solver says UNSAT, a fresh solver refutes the
base formula with every cut added, with proof logging, so the ``node-cuts-v1``
certificate lists the cuts (each checked on its own by the certificate checker) and the
DRUP proof covers the rest (as :mod:`.transition` does for the transition encoding).
Plain ``sat`` takes this formula wherever it applies (``sat/position`` keeps node
positions): on random graphs near the threshold of Hamiltonicity it is far faster
(``tests/bench/bench_node_encodings.py``, figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trailkit.models.answer import Answer, Walk
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, node_cuts_size
from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.formulas.node_cuts import cut_clause, cuts_formula, encode_cuts
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.sat.runner import (
    Deadline,
    SolverTimeout,
    Verdict,
    can_prove,
    new_solver,
    run_guarded,
    solve_call,
)

__all__ = ["CutOutcome", "cuts_answer", "cuts_outcome", "solve_cuts"]


@dataclass(frozen=True)
class CutOutcome:
    """A walk (SAT), a refutation (UNSAT: the certified formula and, when asked, its
    proof), or INTERRUPTED; ``stats`` says how many rounds and cuts it took."""

    status: Verdict
    walk: Walk | None = None
    formula: CertifiedFormula | None = None
    proof: list[str] | None = None
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)


def solve_cuts(puzzle: Puzzle, name: str, deadline: Deadline, *,
               proof: bool = False) -> CutOutcome:
    """A walk through every node of ``puzzle`` (where ``node-cuts-v1`` applies), or its
    refutation."""
    clauses, cmap = encode_cuts(puzzle)
    cuts: list[dict[str, Any]] = []
    solver = new_solver(name, clauses)
    rounds = 0
    try:
        while True:
            rounds += 1
            result = solve_call(solver, name, (), deadline)
            stats = {"rounds": rounds, "cuts": len(cuts), "variables": cmap.num_vars,
                     "clauses": len(clauses) + len(cuts)}
            if result is Verdict.INTERRUPTED:
                return CutOutcome(result, reason=f"after {rounds - 1} rounds and "
                                  f"{len(cuts)} cut clauses", stats=stats)
            if result is Verdict.UNSAT:
                break
            model = solver.get_model() or []
            pieces = cmap.pieces(model)
            if len(pieces) == 1:
                return CutOutcome(Verdict.SAT, cmap.walk(puzzle, model, pieces[0]),
                                  stats=stats)
            for piece in pieces:
                clause = cut_clause(cmap, piece)
                cuts.append({"nodes": [puzzle.nodes[v] for v in piece], "clause": clause})
                solver.add_clause(clause)
    finally:
        solver.delete()
    return _refuted(puzzle, name, deadline, cuts, rounds, proof)


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
    if not proof:
        return CutOutcome(Verdict.UNSAT, formula=formula, reason=reason, stats=stats)
    fresh = new_solver(name, formula.clauses, proof=True)
    try:
        result = solve_call(fresh, name, (), deadline)
        if result is Verdict.INTERRUPTED:
            return CutOutcome(result, reason="refuted, but the proof run ran out of time",
                              stats=stats)
        if result is Verdict.SAT:  # the same clauses were UNSAT a moment ago
            raise RuntimeError(f"{name} finds the refuted node-cuts formula satisfiable")
        lines = list(fresh.get_proof() or [])
    finally:
        fresh.delete()
    return CutOutcome(Verdict.UNSAT, formula=formula, proof=lines, reason=reason, stats=stats)


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
                           limits.time_limit)
    except SolverTimeout:
        return CutOutcome(Verdict.INTERRUPTED)
