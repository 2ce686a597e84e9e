"""Claims about every walk of a once-only puzzle, proven by refutation: count, unique, longest.

The maker side of the ``walk-blocked-v1`` and ``walk-longer-v1`` formulas
(:mod:`trailkit.models.formulas.blocked_walks`). The SAT backend finds the walks one by
one, blocking each, until the ``walk-v1`` formula with every walk blocked is refuted
(:func:`~trailkit.solvers.backends.sat.walk_proof.enumerate_walks`); the certificate is
the walks and the DRUP proof. The independent checker re-derives the formula from the
puzzle and the listed walks (each verified, all distinct) and checks the proof, so the
claim trusts nothing from the backend. A certificate the checker rejects is a bug,
raised as :class:`VerificationFailure`.

The empty walks (0 steps) are no model of the formula: the count lists them apart, and
the checker finds them itself. Under ``objective: shortest`` or ``longest`` a count of
an at-most-once puzzle counts the walks of the best length L only: they are found the
same way in ``walk-as-short-v1`` (at most L steps) or ``walk-as-long-v1`` (at least L),
every one of them blocked (:func:`~trailkit.solvers.backends.sat.walk_proof.enumerate_best`),
so the refutation proves both L and the count.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> claim = count_claim(p, by_refutation=True)
>>> claim.checked, claim.value, claim.certificate.data["encoding"]
(True, 6, 'walk-blocked-v1')
>>> count_claim(p).certificate.kind  # the formula counts this one: its own certificate
'best-formula'
"""

from __future__ import annotations

from trailkit.models.answer import Certificate, Claim, Status, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, position_size
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.blocked_walks import blocked_formula, longer_formula, walk_json
from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.formulas.node_positions import distances_apply
from trailkit.models.formulas.optimal_walks import AS_LONG, AS_SHORT, optimal_formula
from trailkit.models.formulas.walk_formula import walk_horizon
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.direct.orientation_list import formula_applies
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.backends.sat.runner import (
    DEFAULT_SOLVER,
    Verdict,
    run_or_stopped,
    small_puzzle,
)
from trailkit.solvers.backends.sat.walk_proof import enumerate_best, enumerate_walks, refute_longer
from trailkit.solvers.pipeline.claim_rules import refutation_applies, unproven
from trailkit.solvers.pipeline.formula_claims import FORMULA_RESTS_ON, formula_count_claim
from trailkit.solvers.pipeline.layered_count import reusable_count_claim, zero_count_claim
from trailkit.solvers.pipeline.policy import CLAIM_SECONDS, capped, time_up

__all__ = ["CLAIM_SECONDS", "COUNT_LIMIT", "LITERAL_LIMIT", "capped", "checked_claim",
           "count_claim", "longest_claim", "only_walk_claim", "over_listing_limit",
           "refutation_applies",
           "too_big", "unproven", "with_claim"]

COUNT_LIMIT = 100_000
"""The most walks a ``count`` certificate lists."""
LITERAL_LIMIT = 5_000_000
"""The largest walk formula (estimated literals) a refutation claim builds."""


def too_big(puzzle: Puzzle, limits: Limits, steps: int | None = None) -> str:
    """Why the walk formula (of ``steps`` steps; by default the most a once-only walk can
    take) must not be built (empty: it may): more than :data:`LITERAL_LIMIT` literals, or
    over the memory budget."""
    size = position_size(puzzle, max(walk_horizon(puzzle) if steps is None else steps, 1))
    if size.literals > LITERAL_LIMIT:
        return (f"the walk formula would have about {size.literals:,} literals; limit "
                f"{LITERAL_LIMIT:,}")
    return budget_problem(size, limits.memory_mb, "walk formula",
                          "a larger --memory-limit lets it be built") or ""


def count_claim(puzzle: Puzzle, limits: Limits = NO_LIMITS, *, limit: int = COUNT_LIMIT,
                rests_on: str | None = None, by_refutation: bool = False,
                length: int | None = None) -> Claim:
    """The claim that ``puzzle`` has exactly N walks (under an objective, N of the best
    length: ``length`` when the caller knows it, else direct's best walk's): where the
    formula counts them (every edge exactly once, no colour rule), its ``best-formula``
    certificate (:mod:`~trailkit.solvers.pipeline.formula_claims`), whatever the number;
    elsewhere the walks listed (at most ``limit``) and a refutation of "another walk
    exists"; each checked by the independent checker. Or, not certified, why not and that
    it rests on ``rests_on`` (by default direct's formula, or the enumeration).
    ``by_refutation`` insists on the refutation. Walks that may reuse edges (their
    shortest walks counted) are :mod:`~trailkit.solvers.pipeline.layered_count`'s."""
    if puzzle.use is EdgeUse.ANY:
        claim = reusable_count_claim(puzzle, limits, rests_on=rests_on or "the enumeration")
        if claim.checked or not puzzle.closed:
            return claim
        return _closed_reusable_count(puzzle, limits, limit, rests_on or "the enumeration",
                                      length)
    if formula_applies(puzzle) and not by_refutation and not puzzle.has_node_rules:
        return formula_count_claim(puzzle, limits, rests_on=rests_on or FORMULA_RESTS_ON)
    rests_on = rests_on or "the enumeration"
    why = refutation_applies(puzzle, count=True) or too_big(puzzle, limits)
    if why:
        return Claim("count", False, why=unproven(why, rests_on))
    if puzzle.use is EdgeUse.AT_MOST_ONCE and puzzle.objective is not Objective.ANY:
        best, unknown = _best_length(puzzle, limits) if length is None else (length, "")
        if unknown:
            return Claim("count", False, why=unproven(unknown, rests_on))
        if best is not None:
            return _best_count(puzzle, limits, limit, rests_on, best)
        # no walk at all: no best walk either, which the count of every walk proves
    return _listed_count(puzzle, limits, limit, rests_on)


def _listed_count(puzzle: Puzzle, limits: Limits, limit: int, rests_on: str) -> Claim:
    """The count of every once-only walk, certified by listing them (at most ``limit``,
    the empty walks included) and refuting "another walk exists"; not certified, why the
    listing stopped. Under an objective it is reached only when direct found no best
    walk, so a walk listed here is a loud :class:`VerificationFailure`."""
    empty = [Walk((v,), ()) for v in puzzle.empty_walk_nodes()]
    result, walks, proof = _enumerate(puzzle, limits, limit - len(empty))
    if result is not Verdict.UNSAT or proof is None:
        return Claim("count", False, why=unproven(_listing_stopped(result, limit, limits),
                                                   rests_on))
    found = [*empty, *walks]
    if found and puzzle.objective is not Objective.ANY and puzzle.use is EdgeUse.AT_MOST_ONCE:
        raise VerificationFailure(f"direct found no best walk, but a walk of "
                                  f"{plural(len(found[0]), 'step')} exists")
    return _count_certified(puzzle, found, proof, rests_on)


def over_listing_limit(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                       limit: int = COUNT_LIMIT, by_refutation: bool = False
                       ) -> Claim | None:
    """The ``count`` claim, not certified, of a once-only ``puzzle`` whose walks a count
    certificate would list (no formula counts them) when they are more than ``limit``
    (the listing limit): known from direct's count before any listing starts, so the
    answer comes at once and names the limit; ``None`` when the walks are within it, the
    listing does not apply (``by_refutation``: even where the formula counts), or direct's
    count did not finish within ``limits``."""
    if puzzle.use is EdgeUse.ANY or (formula_applies(puzzle) and not by_refutation) or \
            refutation_applies(puzzle, count=True):
        return None
    direct = get_backend("direct")
    if puzzle.has_node_rules and not direct.supports_node_rules:
        return None  # its count would not obey them
    counted = direct.count(puzzle, limits)
    if not counted.complete or counted.solutions <= limit:
        return None
    return Claim("count", False, value=counted.solutions, why=unproven(
        f"{counted.solutions:,} walks, past the listing limit: a count certificate lists "
        f"at most {limit:,}", "direct's enumeration"))


def _closed_reusable_count(puzzle: Puzzle, limits: Limits, limit: int, rests_on: str,
                           length: int | None) -> Claim:
    """The count of a closed walk's shortest walks when edges may be reused: no ``layers``
    certificate covers it (its states would have to remember where the walk began), so the
    walks of the shortest ``length`` are listed and ``walk-as-short-v1`` with each blocked
    is refuted, as under ``objective: shortest``; no walk at all, by the unsolvability
    certificate."""
    best, unknown = _best_length(puzzle, limits) if length is None else (length, "")
    if unknown:
        return Claim("count", False, why=unproven(unknown, rests_on))
    if best is None:
        return zero_count_claim(puzzle, limits, rests_on=rests_on)
    return _best_count(puzzle, limits, limit, rests_on, best)


def _listing_stopped(result: Verdict, limit: int, limits: Limits) -> str:
    """Why the walks could not all be listed: more than the listing limit ``limit``, or
    the limit of :func:`time_up`."""
    return (f"more than {limit:,} walks: past the listing limit, the most a count "
            "certificate lists" if result is Verdict.SAT else
            time_up(limits, "while listing the walks"))


def _best_length(puzzle: Puzzle, limits: Limits) -> tuple[int | None, str]:
    """The best length under the objective of an at-most-once ``puzzle``: 0 where the
    empty walk is a shortest walk, else the length of direct's best walk (sat's where
    direct does not obey node rules; ``None``: it finds no walk), and why it is not known
    (its limits; empty: it is); the refutation checks it."""
    if puzzle.objective is Objective.SHORTEST and puzzle.empty_walk_nodes():
        return 0, ""
    engine = get_backend("direct")
    if puzzle.has_node_rules and not engine.supports_node_rules:
        engine = get_backend("sat")  # the node rules obeyed
    answer = engine.solve(puzzle, limits)
    if answer.status is Status.UNSOLVABLE:
        return None, ""
    if answer.walk is None or not answer.optimal:
        return None, f"the best length is not known ({engine.name}'s search did not finish)"
    return len(answer.walk), ""


def _best_count(puzzle: Puzzle, limits: Limits, limit: int, rests_on: str,
                length: int) -> Claim:
    """The checked count of the walks of the best ``length`` (``walk-as-short-v1`` or
    ``walk-as-long-v1`` with every one blocked), or why not; a walk better than
    ``length`` is a loud failure."""
    longest = puzzle.objective is Objective.LONGEST
    encoding = AS_LONG if longest else AS_SHORT
    why = too_big(puzzle, limits, None if longest else length)
    if why:
        return Claim("count", False, why=unproven(why, rests_on))
    empty = [Walk((v,), ()) for v in puzzle.empty_walk_nodes()] if not length else []
    result, walks, proof = run_or_stopped(lambda d: enumerate_best(
        puzzle, DEFAULT_SOLVER, d, encoding, length, limit - len(empty)),
        DEFAULT_SOLVER, limits.time_limit, small=small_puzzle(puzzle)
        ) or (Verdict.INTERRUPTED, [], None)
    better = next((w for w in walks if len(w) != length), None)
    if better is not None:
        raise VerificationFailure(
            f"{rests_on} counts the walks of {plural(length, 'step')} as the "
            f"{'longest' if longest else 'shortest'}, but one of {len(better)} exists")
    if result is not Verdict.UNSAT or proof is None:
        return Claim("count", False, why=unproven(_listing_stopped(result, limit, limits),
                                                   rests_on))
    listed = [*empty, *walks]
    formula = optimal_formula(puzzle, {
        "encoding": encoding, "length": length, "solutions": len(listed),
        "walks": [walk_json(puzzle, w) for w in listed], "cardinality": "seqcounter"})
    if isinstance(formula, list):
        raise VerificationFailure(f"the best walks do not make a count formula: {formula[0]}")
    return _claim_of(puzzle, formula, proof, len(listed), rests_on)


def _enumerate(puzzle: Puzzle, limits: Limits, limit: int, known: tuple[Walk, ...] = ()
               ) -> tuple[Verdict, list[Walk], list[str] | None]:
    """:func:`enumerate_walks` with CaDiCaL, within the time limit, the ``known`` walks
    blocked first; where the puzzle gives positions, on the formula with only the steps
    the givens' distances allow (``"distances": true``,
    :func:`~trailkit.models.formulas.node_positions.distances_apply`)."""
    return run_or_stopped(lambda d: enumerate_walks(
        puzzle, DEFAULT_SOLVER, d, limit, distances=distances_apply(puzzle), known=known),
        DEFAULT_SOLVER, limits.time_limit, small=small_puzzle(puzzle)
        ) or (Verdict.INTERRUPTED, [], None)


def _count_certified(puzzle: Puzzle, walks: list[Walk], proof: list[str],
                     rests_on: str) -> Claim:
    """The checked ``count`` claim of ``walks``, every walk, with ``proof``."""
    data = {"walks": [walk_json(puzzle, w) for w in walks], "solutions": len(walks),
            "cardinality": "seqcounter",
            **({"distances": True} if distances_apply(puzzle) else {})}
    formula = blocked_formula(puzzle, data)
    if isinstance(formula, list):
        raise VerificationFailure(f"the listed walks do not make a count formula: {formula[0]}")
    return _claim_of(puzzle, formula, proof, len(walks), rests_on)


def _claim_of(puzzle: Puzzle, formula: CertifiedFormula, proof: list[str], solutions: int,
              rests_on: str) -> Claim:
    """The ``count`` claim of ``solutions`` walks: ``formula`` refuted by ``proof``,
    checked by the independent checker; unchecked when the proof is too large."""
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    if certificate is None:
        return Claim("count", False, why=unproven("the proof is too large to check",
                                                   rests_on))
    return checked_claim(puzzle, "count", with_claim(certificate, "count"), solutions)


def only_walk_claim(puzzle: Puzzle, walk: Walk, limits: Limits = NO_LIMITS, *,
                    rests_on: str = "direct") -> Claim:
    """Whether ``walk`` (verified) is the only walk of a once-only ``puzzle``: a refutation
    of "a walk other than it exists" (``value`` True), or a second walk, verified
    (``value`` False); unchecked when neither could be had."""
    why = refutation_applies(puzzle) or too_big(puzzle, limits)
    if why:
        return Claim("unique", False, why=unproven(why, rests_on))
    result, walks, proof = _enumerate(puzzle, limits, 1, (walk,) if walk.edges else ())
    if result is Verdict.UNSAT and proof is not None:
        counted = _count_certified(puzzle, walks, proof, rests_on)
        if counted.value != 1 or counted.certificate is None:  # ``walk`` would be another
            raise VerificationFailure(f"the count certificate says {counted.value} walks, "
                                      "but a verified walk exists")
        return Claim("unique", True, with_claim(counted.certificate, "unique"), value=True,
                     holds=counted.holds)
    for other in walks:
        if (other.nodes[:1], other.edges) != (walk.nodes[:1], walk.edges) and \
                not verify(puzzle, other):
            return Claim("unique", True, value=False, witness=other, holds=(
                f"a second walk of {plural(len(other), 'step')}, verified by the "
                "independent checker"))
    return Claim("unique", False, why=unproven(
        time_up(limits, "before the refutation"), rests_on))


def longest_claim(puzzle: Puzzle, walk: Walk, limits: Limits = NO_LIMITS, *,
                  rests_on: str = "direct") -> Claim:
    """The claim that no walk of ``puzzle`` is longer than ``walk`` (verified): a
    refutation of "a walk of more steps exists" the checker accepted, or why not."""
    why = refutation_applies(puzzle, longest=True) or too_big(puzzle, limits)
    if why:
        return Claim("longest", False, value=len(walk), why=unproven(why, rests_on))
    result, longer, proof = run_or_stopped(
        lambda d: refute_longer(puzzle, DEFAULT_SOLVER, d, len(walk)), DEFAULT_SOLVER,
        limits.time_limit, small=small_puzzle(puzzle)) or (Verdict.INTERRUPTED, None, None)
    if result is Verdict.SAT and longer is not None:
        raise VerificationFailure(f"{rests_on} called a walk of {plural(len(walk), 'step')} "
                                  f"the longest, but one of {len(longer)} exists")
    if proof is None:
        return Claim("longest", False, value=len(walk), why=unproven(
            time_up(limits, "before the refutation"), rests_on))
    formula = longer_formula(puzzle, {"walk": walk_json(puzzle, walk), "length": len(walk),
                                      "cardinality": "seqcounter"})
    if isinstance(formula, list):
        raise VerificationFailure(f"the longest walk makes no formula: {formula[0]}")
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    if certificate is None:
        return Claim("longest", False, value=len(walk), why=unproven(
            "the proof is too large to check", rests_on))
    return checked_claim(puzzle, "longest", with_claim(certificate, "longest"), len(walk))


def with_claim(certificate: Certificate, claim: str) -> Certificate:
    """``certificate`` saying which claim it proves (the file's ``claim``)."""
    return Certificate(certificate.kind, {**certificate.data, "claim": claim},
                       certificate.explanation)


def checked_claim(puzzle: Puzzle, claim: str, certificate: Certificate, value: object) -> Claim:
    """``certificate`` checked by the independent checker: the claim, or a loud failure."""
    checked = verdict(puzzle, certificate)
    if checked.problems:
        raise VerificationFailure(f"the {claim} certificate is rejected by the independent "
                                  f"checker: {'; '.join(checked.problems[:3])}")
    return Claim(claim, True, certificate, value=value, holds=checked.holds)
