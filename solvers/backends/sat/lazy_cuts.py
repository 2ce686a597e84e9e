"""The lazy-cut (CEGAR) loop both cut encodings share, and its proof run.

:mod:`.transition` (every edge once) and :mod:`.hamilton_cuts` (every node once) solve
a base formula whose models may fall apart into pieces. The loop is the same for both:
solve; if the model is one piece it is the answer; else add the cut clauses the
encoding gives for its pieces to the same solver and solve again, under one deadline.
When the solver says UNSAT, :func:`refuted` refutes the final formula (cuts included)
again with a fresh solver that logs a DRUP proof, so the proof is free of whatever the
incremental solver did with the clauses added between calls. Only the encodings differ:
how a model splits into pieces and which cut clauses a round adds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.solvers.backends.sat.runner import Deadline, Verdict, new_solver, solve_call

__all__ = ["CutOutcome", "LoopEnd", "cut_loop", "refuted", "stopped"]


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


@dataclass(frozen=True)
class LoopEnd:
    """How :func:`cut_loop` ended: SAT with the one-piece ``model``, UNSAT (the
    solver's, or an empty cut clause), or INTERRUPTED; after ``rounds`` solver rounds."""

    verdict: Verdict
    model: list[int]
    rounds: int


CutsOf = Callable[[list[int]], list[list[int]]]
"""The cut clauses to add for a model (the encoding records them); none: one piece."""


def cut_loop(solver: Any, name: str, deadline: Deadline, cuts_of: CutsOf,
             first: Sequence[int] = ()) -> LoopEnd:
    """Solve with ``solver`` until a model is one piece (``cuts_of`` gives no clause), a
    cut clause is empty (no step can ever leave that piece: refuted at once), the
    solver says UNSAT, or ``deadline`` passes. ``first`` is assumed in the first round
    only: a model at once, or dropped."""
    rounds = 0
    while True:
        rounds += 1
        result = Verdict.UNSAT
        if rounds == 1 and first:
            result = solve_call(solver, name, first, deadline)
        if result is Verdict.UNSAT:
            result = solve_call(solver, name, (), deadline)
        if result is not Verdict.SAT:
            return LoopEnd(result, [], rounds)
        model = list(solver.get_model() or [])
        clauses = cuts_of(model)
        if not clauses:
            return LoopEnd(Verdict.SAT, model, rounds)
        if not all(clauses):
            return LoopEnd(Verdict.UNSAT, [], rounds)
        for clause in clauses:
            solver.add_clause(clause)


def stopped(rounds: int, cuts: int, stats: dict[str, Any]) -> CutOutcome:
    """The INTERRUPTED outcome of a loop stopped in round ``rounds`` with ``cuts`` cuts."""
    return CutOutcome(Verdict.INTERRUPTED, reason=f"after {rounds - 1} rounds and {cuts} "
                      "cut clauses", stats=stats)


def refuted(name: str, formula: CertifiedFormula, deadline: Deadline, *, proof: bool,
            reason: str, stats: dict[str, Any], what: str) -> CutOutcome:
    """The UNSAT outcome of the loop: ``formula`` (the base formula with every cut), with
    its DRUP proof when ``proof`` (:func:`_proof_lines`); INTERRUPTED when that proof
    run runs out of time. ``what`` names the formula in the error raised should the
    solver find it satisfiable after all."""
    if not proof:
        return CutOutcome(Verdict.UNSAT, formula=formula, reason=reason, stats=stats)
    lines = _proof_lines(name, formula, deadline, what)
    if lines is None:
        return CutOutcome(Verdict.INTERRUPTED, reason="refuted, but the proof run ran out of "
                          "time", stats=stats)
    return CutOutcome(Verdict.UNSAT, formula=formula, proof=lines, reason=reason, stats=stats)


def _proof_lines(name: str, formula: CertifiedFormula, deadline: Deadline, what: str
                 ) -> list[str] | None:
    """The DRUP proof that ``formula`` (refuted a moment ago) is UNSAT, by a fresh solver
    ``name`` logging one; ``None`` when that run runs out of time."""
    fresh = new_solver(name, formula.clauses, proof=True)
    try:
        result = solve_call(fresh, name, (), deadline)
        if result is Verdict.INTERRUPTED:
            return None
        if result is Verdict.SAT:  # the same clauses were UNSAT a moment ago
            raise RuntimeError(f"{name} finds the refuted {what} formula satisfiable")
        return list(fresh.get_proof() or [])
    finally:
        fresh.delete()
