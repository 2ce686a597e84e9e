"""The best walk, proven by refutation: the claims shortest and unique under an objective.

The maker side of ``walk-shorter-v1``, ``walk-as-short-v1`` and ``walk-as-long-v1``
(:mod:`trailkit.models.formulas.optimal_walks`). ``layers`` certificates
(:mod:`trailkit.solvers.pipeline.claims`) ignore which edges a walk has used, so they
cannot certify a once-only walk that is longer than a walk reusing an edge would be, nor
a closed walk (of any edge rule); these refutations can. The SAT backend refutes "a walk
of at most L-1 steps exists" (shortest), or "a walk other than this one of at most L
steps" (the only shortest) or "of at least L steps" (the only longest), with proof
logging; the independent checker re-derives the formula from the puzzle, the walk and L,
and checks the proof. A model is a walk the claim did not expect: a second walk as good
(verified: the answer to ``unique``), or a better one (a backend's bug, raised as
:class:`VerificationFailure`).

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.pipeline.solving import solve
>>> p = load_spec_text("trailkit: 1\\nkind: walk\\nuse: at-most-once\\nobjective: shortest\\n"
...                    "closed: true\\nedges: [a b, b c, c a, a d, d b]\\n")
>>> walk = solve(p).walk
>>> claim = refuted_shortest_claim(p, walk)
>>> claim.checked, claim.value, claim.certificate.data["encoding"]
(True, 3, 'walk-shorter-v1')
>>> other = refuted_unique_claim(p, walk)
>>> other.checked, other.value, len(other.witness)
(True, False, 3)
"""

from __future__ import annotations

from trailkit.models.answer import Claim, Walk
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.blocked_walks import longer_formula, walk_json
from trailkit.models.formulas.optimal_walks import AS_LONG, AS_SHORT, SHORTER, optimal_formula
from trailkit.models.formulas.position_encoding import DEFAULT_CARDINALITY
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.sat.runner import (
    DEFAULT_SOLVER,
    Verdict,
    run_or_stopped,
    small_puzzle,
)
from trailkit.solvers.backends.sat.walk_proof import refute_longer, refute_optimal
from trailkit.solvers.pipeline.policy import time_up
from trailkit.solvers.pipeline.refuted_claims import (
    checked_claim,
    refutation_applies,
    too_big,
    unproven,
    with_claim,
)

__all__ = ["empty_unique_claim", "refuted_shortest_claim", "refuted_unique_claim"]


def refuted_shortest_claim(puzzle: Puzzle, walk: Walk, limits: Limits = NO_LIMITS, *,
                           rests_on: str = "direct's search") -> Claim:
    """The claim that no walk of ``puzzle`` is shorter than ``walk`` (verified, called
    shortest by ``rests_on``): a refutation of ``walk-shorter-v1`` the checker
    accepted, or, unchecked, why not."""
    length = len(walk)
    why = _why_not(puzzle, walk, limits, longest=False)
    if why:
        return Claim("shortest", False, value=length, why=unproven(why, rests_on))
    result, other, proof = _refute(puzzle, SHORTER, walk, limits)
    if result is Verdict.SAT and other is not None:
        raise VerificationFailure(f"{rests_on} called a walk of {plural(length, 'step')} "
                                  f"the shortest, but one of {len(other)} exists")
    return _certified(puzzle, "shortest", SHORTER, walk, proof, length, rests_on, limits)


def refuted_unique_claim(puzzle: Puzzle, walk: Walk, limits: Limits = NO_LIMITS, *,
                         rests_on: str = "direct's search") -> Claim:
    """Whether ``walk`` (verified, the best under the puzzle's objective) is the only
    shortest walk of ``puzzle`` (or the only longest of a once-only one): a refutation of
    "another walk as short (as long) exists" (``value`` True), or a second walk as good, verified
    (``value`` False); unchecked, why neither could be had."""
    longest = puzzle.objective is Objective.LONGEST
    encoding = AS_LONG if longest else AS_SHORT
    why = _why_not(puzzle, walk, limits, longest=longest)
    if why:
        return Claim("unique", False, why=unproven(why, rests_on))
    result, other, proof = _refute(puzzle, encoding, walk, limits)
    if result is Verdict.SAT and other is not None:
        if verify(puzzle, other) or len(other) != len(walk):
            raise VerificationFailure(
                f"{rests_on} called a walk of {plural(len(walk), 'step')} the "
                f"{'longest' if longest else 'shortest'}, but the solver found one of "
                f"{len(other)} that {'breaks the rules' if verify(puzzle, other) else 'is better'}")
        return _second(other)
    return _certified(puzzle, "unique", encoding, walk, proof, True, rests_on, limits)


def empty_unique_claim(puzzle: Puzzle, walk: Walk, limits: Limits = NO_LIMITS, *,
                       rests_on: str = "direct's search") -> Claim:
    """Whether the empty ``walk`` (verified) is the only solution of a once-only
    ``puzzle``: the empty walk on another node, or a walk of some steps the solver found
    (verified: ``value`` False); or a refutation of "a walk of more than 0 steps exists"
    (``walk-longer-v1``), the puzzle allowing the empty walk on one node only (``value``
    True)."""
    others = [v for v in puzzle.empty_walk_nodes() if v != walk.nodes[0]]
    if others:
        return _second(Walk((others[0],), ()))
    why = too_big(puzzle, limits)
    if why:
        return Claim("unique", False, why=unproven(why, rests_on))
    result, other, proof = run_or_stopped(lambda d: refute_longer(
        puzzle, DEFAULT_SOLVER, d, 0), DEFAULT_SOLVER, limits.time_limit,
        small=small_puzzle(puzzle)) or (
        Verdict.INTERRUPTED, None, None)
    if result is Verdict.SAT and other is not None:
        if verify(puzzle, other):
            raise VerificationFailure("the solver's walk of some steps breaks the rules")
        return _second(other)
    if proof is None:
        return Claim("unique", False, why=unproven(
            time_up(limits, "before the refutation"), rests_on))
    formula = longer_formula(puzzle, {"walk": walk_json(puzzle, walk), "length": 0,
                                      "cardinality": DEFAULT_CARDINALITY})
    if isinstance(formula, list):
        raise VerificationFailure(f"the empty walk makes no formula: {formula[0]}")
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    if certificate is None:
        return Claim("unique", False, why=unproven("the proof is too large to check",
                                                   rests_on))
    return checked_claim(puzzle, "unique", with_claim(certificate, "unique"), True)


def _second(other: Walk) -> Claim:
    """``unique`` false: ``other``, a second walk, verified by the caller."""
    return Claim("unique", True, value=False, witness=other, holds=(
        f"a second walk of {plural(len(other), 'step')}, verified by the independent "
        "checker"))


def _why_not(puzzle: Puzzle, walk: Walk, limits: Limits, *, longest: bool) -> str:
    """Why the refutation is not tried (empty: it is): the longest walk's formula covers
    once-only walks; the shortest walk's, of at most L steps, every edge rule."""
    if not len(walk):
        return "the walk is empty: no refutation formula speaks of 0 steps"
    if longest:
        return refutation_applies(puzzle, longest=True) or too_big(puzzle, limits)
    return too_big(puzzle, limits, len(walk))


def _refute(puzzle: Puzzle, encoding: str, walk: Walk, limits: Limits
            ) -> tuple[Verdict, Walk | None, list[str] | None]:
    """:func:`refute_optimal` with CaDiCaL, within the time limit."""
    return run_or_stopped(lambda d: refute_optimal(puzzle, DEFAULT_SOLVER, d, encoding, walk),
                          DEFAULT_SOLVER, limits.time_limit, small=small_puzzle(puzzle)
                          ) or (Verdict.INTERRUPTED, None, None)


def _certified(puzzle: Puzzle, claim: str, encoding: str, walk: Walk,
               proof: list[str] | None, value: object, rests_on: str, limits: Limits
               ) -> Claim:
    """The claim with the ``drup`` certificate of ``proof`` (refuting ``encoding``), checked
    by the independent checker; unchecked without a proof (the time limit) or when the
    proof is too large."""
    shown = len(walk) if claim == "shortest" else None
    if proof is None:
        return Claim(claim, False, value=shown, why=unproven(
            time_up(limits, "before the refutation"), rests_on))
    formula = optimal_formula(puzzle, {"encoding": encoding, "length": len(walk),
                                       "walk": walk_json(puzzle, walk),
                                       "cardinality": DEFAULT_CARDINALITY})
    if isinstance(formula, list):
        raise VerificationFailure(f"the {claim} walk makes no formula: {formula[0]}")
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    if certificate is None:
        return Claim(claim, False, value=shown, why=unproven(
            "the proof is too large to check", rests_on))
    return checked_claim(puzzle, claim, with_claim(certificate, claim), value)
