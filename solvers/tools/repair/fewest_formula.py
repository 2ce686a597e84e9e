"""The fewest changes certified by one refutation, where change sets are too many to list.

A repair of ``k`` changes has the fewest when no set of at most ``k`` - 1 allowed changes
makes the puzzle solvable. Past
:data:`~trailkit.models.checking.change_sets.SET_LIMIT` sets, :func:`formula_claim` says
it with one formula instead: ``repair-fewer-v1``
(:mod:`trailkit.models.formulas.repair_formula`: a selector per allowed change, at most
``k`` - 1 chosen, and a walk of the changed puzzle), solved by CaDiCaL with proof logging
as the walk claims are (:mod:`trailkit.solvers.backends.sat.walk_proof`). The certificate
is a ``drup`` one, with the repair and its walk; the independent checker re-derives the
allowed changes and the formula from the spec and its ``repair:`` rules, verifies the
repair and checks the proof before the claim is called proven.

Bounded: the formula's size is estimated before it is built (at most
:data:`~trailkit.solvers.pipeline.refuted_claims.LITERAL_LIMIT` literals, within the
memory limit), and the solver gets at most :data:`FORMULA_SECONDS`; past either, the
claim is "not certified" and says what it rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from trailkit.models.answer import Claim, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, position_size
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.certified import CertifiedFormula, Size
from trailkit.models.formulas.node_positions import node_size
from trailkit.models.formulas.repair_balance import alternating_colours
from trailkit.models.formulas.repair_changes import allowed_changes
from trailkit.models.formulas.repair_formula import (
    ENCODING_NAME,
    repair_formula,
    repair_horizon,
    whole_puzzle,
)
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.sat.runner import (
    DEFAULT_SOLVER,
    TRIAL_CLAUSES,
    Deadline,
    Verdict,
    new_solver,
    run_or_stopped,
    solve_call,
)
from trailkit.solvers.pipeline.refuted_claims import LITERAL_LIMIT, with_claim
from trailkit.solvers.tools.repair.changes import Change, changes_json

__all__ = ["FORMULA_SECONDS", "formula_claim", "formula_size"]

FORMULA_SECONDS = 20.0
"""The most time the solver spends refuting the repair formula (within the repair's own
time limit)."""


def formula_size(puzzle: Puzzle, fewer: int) -> Size | str:
    """The size of ``repair-fewer-v1`` with at most ``fewer`` changes under
    ``puzzle.repair``, estimated before it is built (the position encoding of the puzzle
    with every candidate edge, twice the literals for the selectors and the degree
    clauses, the balance chains of two alternating colours, and the node literals
    under node rules), or why it has none."""
    whole = whole_puzzle(puzzle)
    if isinstance(whole, str):
        return whole
    steps = max(repair_horizon(puzzle, whole.allowed, fewer), 1)
    size = position_size(whole.puzzle, steps)
    if puzzle.has_node_rules:
        size = node_size(whole.puzzle, steps, size)
    # the balance chains: per end of each change, up to 8 * fewer + 1 sums, 2 clauses each
    chains = 2 * len(whole.allowed) * (8 * fewer + 1) if alternating_colours(puzzle) else 0
    return Size(size.variables + len(whole.allowed) + chains,
                2 * size.clauses + 2 * chains, 2 * size.literals + 6 * chains)


def _too_big(puzzle: Puzzle, fewer: int, limits: Limits) -> str:
    """Why the formula must not be built (empty: it may)."""
    size = formula_size(puzzle, fewer)
    if isinstance(size, str):
        return size
    if size.literals > LITERAL_LIMIT:
        return (f"the repair formula would have about {size.literals:,} literals; limit "
                f"{LITERAL_LIMIT:,}")
    return budget_problem(size, limits.memory_mb, "repair formula",
                          "a larger --memory-limit lets it be built") or ""


def formula_claim(puzzle: Puzzle, rules: Any, chosen: Sequence[Change], repaired: Puzzle,
                  walk: Walk, limits: Limits, *, minimal: bool, rests: str,
                  sets: str) -> Claim:
    """The ``fewest-changes`` claim for the repair ``chosen`` (its puzzle ``repaired``
    with the verified ``walk``), under ``rules``, by a refutation of ``repair-fewer-v1``;
    or, not certified, why not (``sets``: why change sets would not do) and ``rests``
    (what the number rests on). A model of the formula where the search said ``minimal``
    is a bug, raised as :class:`VerificationFailure`."""
    k = len(chosen)
    ruled = replace(puzzle, repair=rules)
    seconds = FORMULA_SECONDS if limits.time_limit is None else \
        min(FORMULA_SECONDS, limits.time_limit)

    def unproven(why: str) -> Claim:
        return Claim("fewest-changes", False, value=k,
                     why=f"not certified ({sets}; the repair formula: {why}){rests}")

    why = _too_big(ruled, k - 1, limits)
    if why:
        return unproven(why)
    formula = _fewer_formula(puzzle, ruled, chosen, repaired, walk)
    if isinstance(formula, str):
        return unproven(formula)
    result, proof = run_or_stopped(
        lambda d: _refute(formula.clauses, d), DEFAULT_SOLVER, seconds,
        small=len(formula.clauses) <= TRIAL_CLAUSES) or (Verdict.INTERRUPTED, None)
    if result is Verdict.SAT:
        if minimal:
            raise VerificationFailure(f"the repair search proved {k} changes the fewest, "
                                      f"but the {ENCODING_NAME} formula has a model")
        return unproven(f"it has a model: a repair of fewer than {plural(k, 'change')} "
                        "may exist")
    if proof is None:
        return unproven(f"not refuted within {seconds:g} s" if seconds >= FORMULA_SECONDS
                        else f"the time limit was reached before it was refuted ({seconds:.1f}"
                        " s were left after the repair search)")
    claim = _checked_claim(puzzle, ruled, formula, proof, k)
    return claim if claim is not None else unproven("the proof is too large to check")


def _fewer_formula(puzzle: Puzzle, ruled: Puzzle, chosen: Sequence[Change], repaired: Puzzle,
                   walk: Walk) -> CertifiedFormula | str:
    """``repair-fewer-v1`` for fewer changes than ``chosen`` under ``ruled``'s repair
    rules, built from the same data its certificate carries (the repair, its start and
    walk), so that the checker re-derives the very formula refuted; or why none."""
    data = {"changes": len(chosen), "cardinality": "seqcounter",
            "repair": {"changes": changes_json(puzzle, chosen),
                       "start": repaired.nodes[walk.nodes[0]] if walk.nodes else None,
                       "walk": [repaired.edge_id(e) for e in walk.edges]}}
    allowed = allowed_changes(ruled)
    formula = repair_formula(ruled, {**data, "candidates": len(allowed)}) \
        if not isinstance(allowed, str) else [allowed]
    return formula[0] if isinstance(formula, list) else formula


def _checked_claim(puzzle: Puzzle, ruled: Puzzle, formula: CertifiedFormula,
                   proof: list[str], k: int) -> Claim | None:
    """The certified claim of ``k`` fewest changes from the refutation ``proof`` of
    ``formula``, once the independent checker accepted its certificate (a rejection is a
    bug in the maker, raised loudly); ``None`` when the proof is too large to check."""
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    if certificate is None:
        return None
    certificate = with_claim(certificate, "fewest-changes")
    checked = verdict(ruled, certificate)
    if checked.problems:
        raise VerificationFailure("the fewest-changes certificate is rejected by the "
                                  f"independent checker: {checked.problems[0]}")
    return Claim("fewest-changes", True, certificate, value=k, holds=checked.holds)


def _refute(clauses: list[list[int]], deadline: Deadline
            ) -> tuple[Verdict, list[str] | None]:
    """Solve ``clauses`` with CaDiCaL and proof logging: ``(UNSAT, proof)``, or the
    verdict with no proof."""
    solver = new_solver(DEFAULT_SOLVER, clauses, proof=True)
    try:
        result = solve_call(solver, DEFAULT_SOLVER, (), deadline)
        return result, list(solver.get_proof() or []) if result is Verdict.UNSAT else None
    finally:
        solver.delete()
