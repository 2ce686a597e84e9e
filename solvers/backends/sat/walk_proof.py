"""Refuting the ``walk-v1`` formula: a certificate that a once-only puzzle has no walk
of any length (:mod:`trailkit.models.checking.walk_formula`).

The search for at-most-once walks asks an incremental solver one length at a time
and its UNSAT answers under assumptions leave no proof; this module solves the one
formula that covers every length at once, with proof logging, so that the answer
rests on a proof trailkit's checker accepts rather than on the solver's word.
"""

from __future__ import annotations

from trailkit.models.checking.formulas import CertifiedFormula
from trailkit.models.checking.walk_formula import walk_formula
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.sat.runner import Deadline, Verdict, new_solver, solve_call

__all__ = ["refute_walks"]


def refute_walks(puzzle: Puzzle, name: str, deadline: Deadline
                 ) -> tuple[Verdict, CertifiedFormula | None, list[str] | None]:
    """Solve ``walk-v1`` with proof logging: ``(UNSAT, formula, proof)``, or the verdict
    (SAT, INTERRUPTED) with no proof. A puzzle the formula does not describe (reusable
    edges, an allowed empty walk) is SAT: it has nothing to refute."""
    formula = walk_formula(puzzle)
    if isinstance(formula, list):
        return Verdict.SAT, None, None
    if formula.clauses == [[]]:
        return Verdict.UNSAT, formula, ["0"]
    solver = new_solver(name, formula.clauses, proof=True)
    try:
        result = solve_call(solver, name, (), deadline)
        if result is not Verdict.UNSAT:
            return result, None, None
        return result, formula, list(solver.get_proof() or [])
    finally:
        solver.delete()
