"""Refuting the ``walk-v1`` formula: a certificate that a once-only puzzle has no walk
of any length (:mod:`trailkit.models.formulas.walk_formula`).

The search for at-most-once walks asks an incremental solver one length at a time
and its UNSAT answers under assumptions leave no proof; this module solves the one
formula that covers every length at once, with proof logging, so that the answer
rests on a proof trailkit's checker accepts rather than on the solver's word.

The same formula, with each walk found blocked in turn, counts the walks with a proof
that no other exists (:func:`enumerate_walks`, claims ``count`` and ``unique``; the empty
walks are counted apart, by the caller); with "more than L steps" it proves L the longest
(:func:`refute_longer`); with "at most L-1 steps", or a walk blocked and "at most L" or
"at least L" steps, that a walk is the shortest, or the only shortest or longest one
(:func:`refute_optimal`); with every walk of "at most L" or "at least L" steps found
blocked in turn, that these are all the best walks (:func:`enumerate_best`, the claim
``count`` under an objective); with each edge of a core demanded, that no walk uses the
whole core (:func:`refute_core`).
"""

from __future__ import annotations

from collections.abc import Sequence

from trailkit.models.answer import Walk
from trailkit.models.formulas.blocked_walks import blocking_clause
from trailkit.models.formulas.core_formula import core_clauses, core_puzzle
from trailkit.models.formulas.formulas import CertifiedFormula
from trailkit.models.formulas.node_positions import encode_node_prefix, node_formula
from trailkit.models.formulas.optimal_walks import optimal_clauses
from trailkit.models.formulas.position_encoding import Clause, VarMap
from trailkit.models.formulas.walk_formula import encode_walks, walk_formula, walk_horizon
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.sat.runner import Deadline, Verdict, new_solver, solve_call

__all__ = ["enumerate_best", "enumerate_walks", "refute_core", "refute_longer",
           "refute_optimal", "refute_walks"]


def refute_walks(puzzle: Puzzle, name: str, deadline: Deadline
                 ) -> tuple[Verdict, CertifiedFormula | None, list[str] | None]:
    """Solve ``walk-v1`` with proof logging: ``(UNSAT, formula, proof)``, or the verdict
    (SAT, INTERRUPTED) with no proof. A puzzle the formula does not describe (reusable
    edges, an allowed empty walk) is SAT: it has nothing to refute. A puzzle with node
    rules has ``node-positions-v1`` refuted instead."""
    formula = node_formula(puzzle) if puzzle.has_node_rules else walk_formula(puzzle)
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


def enumerate_walks(puzzle: Puzzle, name: str, deadline: Deadline, limit: int, *,
                    distances: bool = False, known: Sequence[Walk] = ()
                    ) -> tuple[Verdict, list[Walk], list[str] | None]:
    """Every walk of at least one step of ``puzzle`` (once-only rules; the empty walks are
    the caller's to add), found one by one by solving ``walk-v1`` with proof logging and
    blocking each walk found (:func:`~trailkit.models.formulas.blocked_walks.blocking_clause`)
    until the formula is refuted: ``(UNSAT, walks, proof)``, the proof refuting
    ``walk-blocked-v1`` of these walks in this order (``distances``: its formula with
    the givens' distances, ``"distances": true``). The ``known`` walks (verified by the
    caller) are blocked before the first call and listed first, so no call is spent
    finding them again. More than ``limit`` walks: ``(SAT, the first limit + 1, None)``;
    the deadline: ``INTERRUPTED``. Raises ``ValueError`` when ``walk-v1`` does not
    describe the puzzle (reusable edges, no nodes) or a known walk is not in it."""
    clauses, vmap = encode_walks(puzzle, empty_apart=True, distances=distances)
    if vmap is None:
        return Verdict.UNSAT, [], ["0"]
    blocks: list[Clause] = []
    for walk in known:
        block = blocking_clause(puzzle, vmap, walk)
        if isinstance(block, str):
            raise ValueError(f"a known walk: {block}")
        blocks.append(block)
    return _enumerate(puzzle, name, deadline, limit, [*clauses, *blocks], vmap, list(known))


def enumerate_best(puzzle: Puzzle, name: str, deadline: Deadline, encoding: str,
                   length: int, limit: int) -> tuple[Verdict, list[Walk], list[str] | None]:
    """Every walk of at least one step that ``walk-as-short-v1`` (at most ``length``
    steps) or ``walk-as-long-v1`` (at least ``length``) admits, found and blocked one by
    one as :func:`enumerate_walks` does: ``(UNSAT, walks, proof)``, the proof refuting the
    formula with these walks blocked; the caller checks that each has ``length`` steps
    (one of another length is a better walk) and adds the empty walks of a best length 0.
    Raises ``ValueError`` when the formula cannot be built."""
    clauses, vmap = optimal_clauses(puzzle, encoding, length)
    return _enumerate(puzzle, name, deadline, limit, clauses, vmap)


def _enumerate(puzzle: Puzzle, name: str, deadline: Deadline, limit: int,
               clauses: list[Clause], vmap: VarMap | None, walks: list[Walk] | None = None
               ) -> tuple[Verdict, list[Walk], list[str] | None]:
    """The walks of ``clauses`` (read through ``vmap``; ``None``: the empty clause), each
    blocked once found, until the formula is refuted, after ``walks`` (blocked in
    ``clauses`` already); see :func:`enumerate_walks`."""
    if vmap is None:
        return Verdict.UNSAT, [], ["0"]
    solver = new_solver(name, clauses, proof=True)
    walks = walks if walks is not None else []
    try:
        while True:
            result = solve_call(solver, name, (), deadline)
            if result is Verdict.UNSAT:
                return result, walks, _without_deletions(solver.get_proof() or [])
            if result is not Verdict.SAT:
                return result, walks, None
            walk = vmap.decode(puzzle, solver.get_model() or [])
            block = blocking_clause(puzzle, vmap, walk)
            if isinstance(block, str):  # a model outside the formula's own variables
                raise ValueError(block)
            walks.append(walk)
            if len(walks) > limit:
                return result, walks, None
            solver.add_clause(block)
    finally:
        solver.delete()


def _without_deletions(proof: list[str]) -> list[str]:
    """The proof's lemmas without its deletions. Between the incremental calls CaDiCaL
    may eliminate a variable (its clauses logged as deleted) and restore those clauses
    when a blocking clause mentions it, without logging them again; kept, the deletions
    would make a later lemma fail. Every clause stays implied, so the proof stays sound
    (deletions only make checking faster)."""
    return [line for line in proof if not line.startswith("d ")]


def refute_longer(puzzle: Puzzle, name: str, deadline: Deadline, length: int
                  ) -> tuple[Verdict, Walk | None, list[str] | None]:
    """Solve ``walk-v1`` with "more than ``length`` steps" and proof logging:
    ``(UNSAT, None, proof)`` (the proof refutes ``walk-longer-v1``), or ``(SAT, a longer
    walk, None)``, or ``INTERRUPTED`` (as ``walk-longer-v1``: an allowed empty walk does
    not matter)."""
    horizon = walk_horizon(puzzle)
    if length >= horizon:
        return Verdict.UNSAT, None, ["0"]
    clauses, vmap = encode_node_prefix(puzzle, horizon)
    return _refute(puzzle, name, deadline, [*clauses, [vmap.active[length]]], vmap)


def refute_optimal(puzzle: Puzzle, name: str, deadline: Deadline, encoding: str,
                   walk: Walk) -> tuple[Verdict, Walk | None, list[str] | None]:
    """Solve the formula ``encoding`` (``walk-shorter-v1``, ``walk-as-short-v1`` or
    ``walk-as-long-v1`` of :mod:`trailkit.models.formulas.optimal_walks`, for ``walk`` and
    its length) with proof logging: ``(UNSAT, None, proof)``, or ``(SAT, the walk a model
    describes, None)`` (a shorter walk, or another as short or as long), or
    ``INTERRUPTED``."""
    clauses, vmap = optimal_clauses(puzzle, encoding, len(walk), [walk])
    if vmap is None:  # the empty clause: no step to take
        return Verdict.UNSAT, None, ["0"]
    return _refute(puzzle, name, deadline, clauses, vmap)


def refute_core(puzzle: Puzzle, name: str, deadline: Deadline, core: list[int]
                ) -> tuple[Verdict, Walk | None, list[str] | None]:
    """Solve ``walk-core-v1`` for ``core`` (edge indices;
    :mod:`trailkit.models.formulas.core_formula`) with proof logging: ``(UNSAT, None,
    proof)``, or ``(SAT, a walk with edges used at most once that uses the whole core,
    None)``, or ``INTERRUPTED``. Raises ``ValueError`` when the formula does not describe
    the core (an empty core where the empty walk is allowed)."""
    built = core_clauses(puzzle, core)
    if isinstance(built, str):
        raise ValueError(built)
    clauses, vmap = built
    if vmap is None:  # the empty clause: no step to take
        return Verdict.UNSAT, None, ["0"]
    return _refute(core_puzzle(puzzle), name, deadline, clauses, vmap)


def _refute(puzzle: Puzzle, name: str, deadline: Deadline, clauses: list[Clause],
            vmap: VarMap) -> tuple[Verdict, Walk | None, list[str] | None]:
    """Solve ``clauses`` with proof logging: ``(UNSAT, None, proof)``, ``(SAT, the walk
    the model describes through ``vmap``, None)``, or ``INTERRUPTED``."""
    solver = new_solver(name, clauses, proof=True)
    try:
        result = solve_call(solver, name, (), deadline)
        if result is Verdict.UNSAT:
            return result, None, list(solver.get_proof() or [])
        if result is Verdict.SAT:
            return result, vmap.decode(puzzle, solver.get_model() or []), None
        return result, None, None
    finally:
        solver.delete()
