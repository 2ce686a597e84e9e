"""Solving exactly-once walks with the transition encoding and lazily added cut clauses.

The base formula (:mod:`trailkit.models.formulas.transition_encoding`) chooses, at every node,
how the walk pairs the edge ends there; a model may fall apart into several pieces.
The loop is incremental SAT: solve; if the model is one piece, it is the walk; else
add the cut clause of its smallest piece (:mod:`trailkit.models.formulas.lazy_clauses`: "some
step of this piece is followed or preceded by a step outside it") to the same solver
and solve again. When the solver says UNSAT, a fresh solver refutes the base formula
plus every cut added, with proof logging: the ``transition-v1`` certificate lists the
cuts (each checked on its own by the certificate checker) and the DRUP proof covers
the rest. (The fresh solver keeps the proof free of whatever the incremental
solver did with the clauses added between calls.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trailkit.models.answer import Answer, Certificate, Walk
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, transition_size
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.formulas import CertifiedFormula
from trailkit.models.formulas.lazy_clauses import certified_formula, cut_clause
from trailkit.models.formulas.transition_encoding import TransitionMap, encode_transitions
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
from trailkit.solvers.backends.sat.warm_start import warm_start

__all__ = ["POSITION_HINT", "TransitionOutcome", "solve_transitions", "transition_answer",
           "transition_certificate"]


@dataclass(frozen=True)
class TransitionOutcome:
    """A walk (SAT), a refutation (UNSAT: the certified formula and, when asked, its
    proof), or INTERRUPTED; ``stats`` says how many rounds and cuts it took."""

    status: Verdict
    walk: Walk | None = None
    formula: CertifiedFormula | None = None
    proof: list[str] | None = None
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)


def solve_transitions(puzzle: Puzzle, name: str, deadline: Deadline, *,
                      proof: bool = False) -> TransitionOutcome:
    """Find an exactly-once walk of ``puzzle`` (with at least one edge), or refute it."""
    clauses, tmap = encode_transitions(puzzle)
    cuts: list[dict[str, Any]] = []
    solver = new_solver(name, clauses)
    guess = _start_from_guess(solver, puzzle, tmap)
    rounds = 0
    try:
        while True:
            rounds += 1
            result = Verdict.UNSAT
            if rounds == 1 and guess:  # assumed once: a model at once, or dropped
                result = solve_call(solver, name, guess, deadline)
            if result is Verdict.UNSAT:
                result = solve_call(solver, name, (), deadline)
            stats = _stats(tmap, rounds, len(cuts), len(clauses))
            if result is Verdict.INTERRUPTED:
                return TransitionOutcome(result, reason=f"after {rounds - 1} rounds and "
                                         f"{len(cuts)} cut clauses", stats=stats)
            if result is Verdict.UNSAT:
                break
            model = solver.get_model()
            pieces = tmap.pieces(puzzle, model)
            if len(pieces) == 1:
                walk = tmap.walk(puzzle, model)
                return TransitionOutcome(Verdict.SAT, walk, stats=stats)
            clause, piece = _next_cut(tmap, puzzle, pieces)
            cuts.append({"edges": [puzzle.edge_id(e) for e in piece], "clause": clause})
            if not clause:
                break
            solver.add_clause(clause)
    finally:
        solver.delete()
    formula = certified_formula(clauses, tmap, cuts)
    stats = _stats(tmap, rounds, len(cuts), len(formula.clauses))
    reason = _refuted_in(name, len(cuts), rounds)
    if not proof:
        return TransitionOutcome(Verdict.UNSAT, formula=formula, reason=reason, stats=stats)
    return _with_proof(name, formula, deadline, reason, stats)


def _refuted_in(name: str, cuts: int, rounds: int) -> str:
    """How solver ``name`` refuted the puzzle: after how many cut clauses and rounds."""
    return (f"the SAT solver {name} refuted the transition encoding with {cuts} "
            f"cut clause{'s' * (cuts != 1)} added in {rounds} "
            f"round{'s' * (rounds != 1)} (every edge exactly once)")


def _next_cut(tmap: TransitionMap, puzzle: Puzzle, pieces: list[list[int]]
              ) -> tuple[list[int], list[int]]:
    """The cut clause to add this round, and its piece: an empty one (a piece no step
    can ever leave: it refutes at once) if any, else the smallest piece's."""
    # One cut per round, the smallest piece's: measured on random Eulerian
    # multigraphs, adding every piece's cut at once can make the next call
    # very hard (a 1,000-edge trail: docs/benchmarks.md, transition encoding).
    # A piece no step can ever leave (an empty cut) refutes at once.
    clauses_of = [(cut_clause(tmap, puzzle, piece), piece)
                  for piece in sorted(pieces, key=len)]
    return next(((c, q) for c, q in clauses_of if not c), clauses_of[0])


def _with_proof(name: str, formula: CertifiedFormula, deadline: Deadline, reason: str,
                stats: dict[str, Any]) -> TransitionOutcome:
    """The refutation with its DRUP proof: the final formula (cuts included) refuted
    again by a fresh solver that logs one; unknown when that run runs out of time."""
    fresh = new_solver(name, formula.clauses, proof=True)
    try:
        result = solve_call(fresh, name, (), deadline)
        if result is Verdict.INTERRUPTED:
            return TransitionOutcome(result, reason="refuted, but the proof run ran out of "
                                     "time", stats=stats)
        if result is Verdict.SAT:  # the same clauses were UNSAT a moment ago
            raise RuntimeError(f"{name} finds the refuted transition formula satisfiable")
        lines = list(fresh.get_proof() or [])
    finally:
        fresh.delete()
    return TransitionOutcome(Verdict.UNSAT, formula=formula, proof=lines, reason=reason,
                             stats=stats)


def _start_from_guess(solver: Any, puzzle: Puzzle, tmap: TransitionMap) -> list[int]:
    """Give ``solver`` the warm start as phases; return it as assumptions for the first
    call when the formula has no pair variables (else ``[]``: phases only). A solver
    that takes no phases (Kissat in python-sat, which also ignores assumptions, with a
    warning) starts from its own."""
    guess = warm_start(puzzle, tmap)
    try:
        solver.set_phases(guess)
    except NotImplementedError:
        return []
    return guess if not tmap.pairs else []


def _stats(tmap: TransitionMap, rounds: int, cuts: int, clauses: int) -> dict[str, Any]:
    return {"rounds": rounds, "cuts": cuts, "variables": tmap.num_vars, "clauses": clauses,
            "free_nodes": sum(tmap.free), "pairs": len(tmap.pairs)}


TRANSITION_HINT = ("try the direct backend, or a larger --memory-limit if the machine has "
                   "the memory")
POSITION_HINT = ("for an exactly-once walk try sat/transition (its size grows with the "
                 "squared degrees at most, not edges × steps; plain sat picks it where it "
                 "fits), or the direct or cpsat backend, or a larger --memory-limit if the "
                 "machine has the memory")


def transition_answer(backend: str, solver: str, puzzle: Puzzle, limits: Limits, *,
                      encoding_choice: str = "") -> Answer:
    """The SAT backend's answer with the transition encoding (an exactly-once puzzle with
    edges): its size estimated first, a refutation certified when the solver logs
    proofs. ``encoding_choice`` (why this encoding) goes into the stats."""
    named = {"encoding": "transition", "encoding_choice": encoding_choice}
    problem = budget_problem(transition_size(puzzle), limits.memory_mb,
                             "transition encoding", TRANSITION_HINT)
    if problem is not None:
        return Answer.unknown(backend, problem, **named)
    proof = can_prove(solver)
    try:
        out = run_guarded(lambda d: solve_transitions(puzzle, solver, d, proof=proof), solver,
                          limits.time_limit)
    except SolverTimeout:
        return Answer.unknown(backend, "the time limit of "
                              f"{seconds(limits.time_limit)} was reached (transition encoding)",
                              **named)
    if out.status is Verdict.INTERRUPTED:
        return Answer.unknown(backend, "the time limit of "
                              f"{seconds(limits.time_limit)} was reached "
                              f"(transition encoding, {out.reason})", **named, **out.stats)
    if out.status is Verdict.SAT:
        if out.walk is None:
            raise VerificationFailure(f"{backend} found a one-piece model but decoded no walk")
        optimal = True if puzzle.objective is Objective.SHORTEST else None
        return Answer.solved(backend, out.walk, optimal=optimal, solver=solver, **named,
                             **out.stats)
    certificate = None
    if out.formula is not None and out.proof is not None:
        certificate = make_certificate(puzzle, out.formula, out.proof, solver)
    return Answer.unsolvable(backend, certificate, reason=out.reason, solver=solver, **named,
                             **out.stats)


def transition_certificate(solver: str, puzzle: Puzzle, limits: Limits) -> Certificate | None:
    """A ``transition-v2`` certificate that an exactly-once puzzle has no walk, or
    ``None`` (solvable, over the memory budget, a limit reached)."""
    if budget_problem(transition_size(puzzle), limits.memory_mb, "", "") is not None:
        return None
    try:
        out = run_guarded(lambda d: solve_transitions(puzzle, solver, d, proof=True), solver,
                          limits.time_limit)
    except SolverTimeout:
        return None
    if out.status is not Verdict.UNSAT or out.formula is None or out.proof is None:
        return None
    return make_certificate(puzzle, out.formula, out.proof, solver)
