"""The ``sat`` backend: CNF encodings solved by any python-sat solver, DRUP proofs for UNSAT.

``sat`` uses CaDiCaL 1.9.5; ``sat:NAME`` any solver python-sat knows (``sat:glucose4``,
``sat:maplechrono``, ...). The encoding is in :mod:`.encode`, the search in
:mod:`.search`, deadlines in :mod:`.runner`, certificates in :mod:`.proof` and the
DIMACS export in :mod:`.dimacs`.

An UNSAT answer for an exactly-once puzzle carries a ``drup`` certificate when the
solver logs proofs (checked by :mod:`trailkit.models.drup`); other UNSAT answers say
in ``reason`` what they rest on, for the pipeline to confirm with a second backend.
"""

from __future__ import annotations

from collections.abc import Callable

from trailkit.models.answer import Answer, Certificate
from trailkit.models.counting import CountResult
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.base import Backend, Limits
from trailkit.solvers.sat.dimacs import to_dimacs, walk_from_model
from trailkit.solvers.sat.proof import make_certificate
from trailkit.solvers.sat.runner import (
    DEFAULT_SOLVER,
    TIMEOUT,
    available_solvers,
    can_prove,
    resolve_solver,
    run_guarded,
)
from trailkit.solvers.sat.search import Outcome, count_walks, search

_NO_LIMITS = Limits()

__all__ = ["DEFAULT_SOLVER", "SatBackend", "available_solvers", "to_dimacs", "walk_from_model"]


class SatBackend(Backend):
    """python-sat behind the :class:`Backend` interface.

    >>> SatBackend("").name, SatBackend("g4").name
    ('sat', 'sat:g4')
    """

    family = "sat"
    supports_counting = True
    supports_proof = True

    def __init__(self, option: str = "") -> None:
        self.solver = resolve_solver(option)
        self.name = f"sat:{option}" if option else "sat"

    # ------------------------------------------------------------------ solve
    def solve(self, puzzle: Puzzle, limits: Limits = _NO_LIMITS) -> Answer:
        proof = puzzle.use is EdgeUse.EXACTLY_ONCE and can_prove(self.solver)
        outcome = run_guarded(lambda d: search(puzzle, self.solver, d, proof=proof),
                              self.solver, limits.time_limit)
        if outcome == TIMEOUT or not isinstance(outcome, Outcome) or outcome.status == "timeout":
            detail = outcome.reason if isinstance(outcome, Outcome) and outcome.reason else ""
            return Answer.unknown(self.name, "the time limit of "
                                  f"{limits.time_limit} s was reached" + (f"; {detail}" if detail
                                                                         else ""))
        if outcome.status == "sat":
            assert outcome.walk is not None
            optimal = (outcome.length_proven_minimal  # minimal, or maximal for longest
                       if puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
                       else None)
            return Answer.solved(self.name, outcome.walk, optimal=optimal, solver=self.solver)
        return Answer.unsolvable(self.name, self._certificate(puzzle, outcome),
                                 reason=outcome.reason, solver=self.solver)

    def _certificate(self, puzzle: Puzzle, outcome: Outcome) -> Certificate | None:
        if outcome.proof is None or outcome.clauses is None or outcome.varmap is None:
            return None
        return make_certificate(puzzle, outcome.clauses, outcome.varmap, outcome.proof,
                                self.solver)

    # ------------------------------------------------------------------ prove
    def prove(self, puzzle: Puzzle, limits: Limits = _NO_LIMITS) -> Certificate | None:
        """A ``drup`` certificate that an exactly-once puzzle is unsolvable, or ``None``
        (solvable, another rule, a limit reached, or a proof too big to be a certificate).

        A solver that cannot log proofs is replaced by CaDiCaL for the proof.
        """
        if puzzle.use is not EdgeUse.EXACTLY_ONCE or puzzle.num_edges == 0:
            return None
        name = self.solver if can_prove(self.solver) else DEFAULT_SOLVER
        outcome = run_guarded(lambda d: search(puzzle, name, d, proof=True), name,
                              limits.time_limit)
        if not isinstance(outcome, Outcome) or outcome.status != "unsat":
            return None
        if outcome.proof is None or outcome.clauses is None or outcome.varmap is None:
            return None
        return make_certificate(puzzle, outcome.clauses, outcome.varmap, outcome.proof, name)

    # ------------------------------------------------------------------ count
    def count(self, puzzle: Puzzle, limits: Limits = _NO_LIMITS, *,
              failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        """Enumerate solutions, blocking each walk by its primary variables only."""
        if failures:
            raise UnsupportedPuzzle("the sat backend counts solutions only, not failures "
                                    "(use the direct backend for --failures)")
        import multiprocessing as mp

        # No lock: the child may be killed mid-write, and a lock it held would then
        # block the parent's read forever (a 64-bit store is not torn in practice).
        seen = mp.Value("q", 0, lock=False)

        def note(n: int) -> None:
            seen.value = n

        result = run_guarded(lambda d: count_walks(puzzle, self.solver, d, note),
                             self.solver, limits.time_limit)
        if result == TIMEOUT or not isinstance(result, tuple):
            return CountResult(self.name, int(seen.value), complete=False,
                               reason="the time limit was reached")
        total, complete, reason = result
        return CountResult(self.name, total, complete=complete, reason=reason,
                           stats={"solver": self.solver})
