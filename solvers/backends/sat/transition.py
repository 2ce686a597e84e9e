"""Solving exactly-once walks with the transition encoding and lazily added cut clauses.

The base formula (:mod:`trailkit.models.formulas.transition_encoding`) chooses, at every
node, how the walk pairs the edge ends there; a model may fall apart into several
pieces. The loop (:mod:`.lazy_cuts`, shared with :mod:`.hamilton_cuts`) is incremental
SAT: solve; if the model is one piece, it is the walk; else add the cut clause of its
smallest piece (:mod:`trailkit.models.formulas.lazy_clauses`: "some step of this piece
is followed or preceded by a step outside it") to the same solver and solve again. When
the solver says UNSAT, a fresh solver refutes the base formula plus every cut added,
with proof logging: the ``transition-v1`` certificate lists the cuts (each checked on
its own by the certificate checker) and the DRUP proof covers the rest. (The fresh
solver keeps the proof free of whatever the incremental solver did with the clauses
added between calls.)
"""

from __future__ import annotations

from typing import Any

from trailkit.models.answer import Answer, Certificate
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, transition_size
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.lazy_clauses import certified_formula, cut_clause
from trailkit.models.formulas.transition_encoding import TransitionMap, encode_transitions
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
from trailkit.solvers.backends.sat.warm_start import warm_start

__all__ = ["POSITION_HINT", "TransitionOutcome", "solve_transitions", "transition_answer",
           "transition_certificate"]


TransitionOutcome = CutOutcome
"""What :func:`solve_transitions` returns (the outcome every lazy-cut loop gives)."""


def solve_transitions(puzzle: Puzzle, name: str, deadline: Deadline, *,
                      proof: bool = False) -> TransitionOutcome:
    """Find an exactly-once walk of ``puzzle`` (with at least one edge), or refute it."""
    clauses, tmap = encode_transitions(puzzle)
    cuts: list[dict[str, Any]] = []

    def cuts_of(model: list[int]) -> list[list[int]]:
        pieces = tmap.pieces(puzzle, model)
        if len(pieces) == 1:
            return []
        clause, piece = _next_cut(tmap, puzzle, pieces)
        cuts.append({"edges": [puzzle.edge_id(e) for e in piece], "clause": clause})
        return [clause]

    solver = new_solver(name, clauses)
    guess = _start_from_guess(solver, puzzle, tmap)
    try:
        end = cut_loop(solver, name, deadline, cuts_of, guess)
    finally:
        solver.delete()
    stats = _stats(tmap, end.rounds, len(cuts), len(clauses))
    if end.verdict is Verdict.INTERRUPTED:
        return stopped(end.rounds, len(cuts), stats)
    if end.verdict is Verdict.SAT:
        return TransitionOutcome(Verdict.SAT, tmap.walk(puzzle, end.model), stats=stats)
    formula = certified_formula(clauses, tmap, cuts)
    return refuted(name, formula, deadline, proof=proof, what="transition",
                   reason=_refuted_in(name, len(cuts), end.rounds),
                   stats=_stats(tmap, end.rounds, len(cuts), len(formula.clauses)))


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
                          limits.time_limit, small=small_puzzle(puzzle))
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
                          limits.time_limit, small=small_puzzle(puzzle))
    except SolverTimeout:
        return None
    if out.status is not Verdict.UNSAT or out.formula is None or out.proof is None:
        return None
    return make_certificate(puzzle, out.formula, out.proof, solver)
