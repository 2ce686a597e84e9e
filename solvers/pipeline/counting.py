"""Counting solutions: by formula where one applies, else by a backend's enumeration,
cross-checked by a second backend when asked.

``method="auto"`` (the default) uses the exact formula for Euler circuits and trails
(BEST theorem summed over Eulerian orientations) wherever it applies and no failures
are asked for, on the direct backend (the default: the formula is its own method);
a search backend named explicitly enumerates. ``"enumerate"`` always enumerates;
``"exact"`` insists on the formula. Under ``objective: shortest`` or ``longest`` the
walks of the best length are counted, and failures are refused (not defined there).
A second backend's count that differs is a loud failure (exit code 4); a count
stopped by a limit is a lower bound.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> r = count(p)
>>> r.solutions, r.backend, r.by_formula
(6, 'direct', True)
>>> count(p, method="enumerate").by_formula
False
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum

from trailkit.models.answer import Claim
from trailkit.models.counts import CountResult
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.direct.orientation_list import formula_applies
from trailkit.solvers.backends.registry import BackendName, get_backend
from trailkit.solvers.pipeline.layered_count import zero_count_claim
from trailkit.solvers.pipeline.policy import (
    AUTO,
    PRECHECK,
    count_second_opinion,
    engine_for,
    ignores_node_rules,
    obeys_node_rules,
    second_limits,
    time_left,
)
from trailkit.solvers.pipeline.refuted_claims import capped, count_claim, refutation_applies

__all__ = ["AUTO_COUNT", "CountMethod", "certified_count", "count", "exact_applies"]

AUTO_COUNT = 1_000
"""``count`` certifies its number itself up to this many walks (``prove --claim count``
up to :data:`~trailkit.solvers.pipeline.refuted_claims.COUNT_LIMIT`)."""


class CountMethod(StrEnum):
    """How ``count`` obtains its number."""

    AUTO = "auto"
    ENUMERATE = "enumerate"
    EXACT = "exact"


def exact_applies(puzzle: Puzzle) -> bool:
    """Whether the exact formula counts this puzzle (every edge exactly once, no colour
    rule, no node rule: it counts Euler trails, which pass nodes any number of times)."""
    return puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.colours is None and \
        not puzzle.has_node_rules


def count(puzzle: Puzzle, backend: str | BackendName | Backend | None = None,
          limits: Limits = NO_LIMITS, *, failures: bool = False,
          method: str | CountMethod = CountMethod.AUTO, crosscheck: str | None = AUTO,
          precheck: bool = True, progress: Callable[[int], None] | None = None
          ) -> CountResult:
    """Count ``puzzle``'s solutions (and failures); see the module docstring.

    With ``precheck`` (and no failures asked for, nor a formula insisted on), a checked
    structural certificate of unsolvability answers 0 without enumerating.
    """
    method = CountMethod(method)
    started = time.perf_counter()
    if failures:
        _refuse_failures(puzzle, method)
    engine = engine_for(puzzle, backend, limits)
    result = _count_without_enumerating(puzzle, engine, method, limits, started,
                                        failures=failures, precheck=precheck)
    enumerated = result is None
    if result is None:
        result = _enumerated_count(puzzle, engine, limits, failures, progress)
    stats = {**result.stats, "time_s": time.perf_counter() - started}
    second_name = count_second_opinion(engine, crosscheck) if enumerated else (
        None if crosscheck in (AUTO, None) else crosscheck)
    second = second_limits(limits, started)
    if second_name and not result.stats.get("interrupted") and second.time_limit != 0:
        # one Ctrl-C stops it all; and no second opinion once the time is up
        stats["crosscheck"] = _crosscheck(puzzle, result, second_name, second)
    # the solutions' number is certified as without --failures; failures rest on the
    # enumeration (no certificate covers them), which the text says
    claims = (certified_count(puzzle, result, capped(second_limits(limits, started))),) \
        if result.complete else ()
    return replace(result, stats=stats, claims=tuple(c for c in claims if c is not None))


def _count_without_enumerating(puzzle: Puzzle, engine: Backend, method: CountMethod,
                               limits: Limits, started: float, *, failures: bool,
                               precheck: bool) -> CountResult | None:
    """The count that needs no enumeration: 0 by a checked structural certificate (the
    precheck), or the exact formula's (first with ``--method exact`` or the direct
    backend); ``None`` when neither applies, and refused, saying what to do, when the
    formula was insisted on and does not apply."""
    formula_first = method is CountMethod.EXACT or (
        method is CountMethod.AUTO and engine.family == "direct")
    result = None
    if precheck and method is CountMethod.AUTO and not failures and not (
            formula_first and exact_applies(puzzle)):  # the formula answers those itself
        result = _precheck_count(puzzle)
    if result is None and formula_first and not failures and exact_applies(puzzle):
        from trailkit.solvers.backends.direct.exact_count import exact_count

        result = exact_count(puzzle, time_left(limits, started), memory_mb=limits.memory_mb)
    if result is None and method is CountMethod.EXACT:
        raise UnsupportedPuzzle(
            "an exact formula exists only for Euler circuits and trails (every edge "
            "exactly once, no colour rule, no node rule); count with --method enumerate")
    return result


def _enumerated_count(puzzle: Puzzle, engine: Backend, limits: Limits, failures: bool,
                      progress: Callable[[int], None] | None) -> CountResult:
    """The count by ``engine``'s enumeration, when no formula or precheck answered:
    refused, with what to do, by a backend that cannot count (or count failures); a
    Ctrl-C before it counted anything is an interrupted count of 0."""
    if not engine.supports_counting:
        raise UnsupportedPuzzle(f"the {engine.name} backend does not count solutions")
    if failures and not engine.supports_failures:
        raise UnsupportedPuzzle(f"the {engine.name} backend counts solutions only, not "
                                "failures (use the direct backend for --failures)")
    try:
        return engine.count(puzzle, limits, failures=failures, progress=progress)
    except KeyboardInterrupt:  # before the backend had counted anything
        return CountResult.interrupted(engine.name, 0)


def _crosscheck(puzzle: Puzzle, result: CountResult, name: str,
                limits: Limits) -> dict[str, object]:
    """The second opinion of backend ``name`` on ``result``, as the stats record it;
    two complete counts that differ are a :class:`VerificationFailure` (never a wrong
    count said as right)."""
    other = _second_count(puzzle, name, limits)
    decided = other.complete and result.complete
    agrees = (other.solutions == result.solutions) if decided else None
    if decided and not agrees:
        raise VerificationFailure(
            f"backends disagree on the number of solutions: {result.backend} counts "
            f"{result.solutions}, {other.backend} counts {other.solutions}")
    return {"backend": other.backend, "solutions": other.solutions,
            "complete": other.complete, "agrees": agrees}


def _second_count(puzzle: Puzzle, name: str, limits: Limits) -> CountResult:
    """Backend ``name``'s count, or, where it does not obey the puzzle's node rules, no
    count at all (an incomplete one, saying why: a count of another puzzle would
    disagree)."""
    other = get_backend(name)
    if not obeys_node_rules(puzzle, other):
        return CountResult(backend=other.name, solutions=0, complete=False,
                           reason=ignores_node_rules(other))
    return other.count(puzzle, limits, failures=False)


def certified_count(puzzle: Puzzle, result: CountResult, limits: Limits) -> Claim | None:
    """The ``count`` claim of a complete count: by the formula's ``best-formula``
    certificate wherever the formula applies, and by ``layers`` for walks that may reuse
    edges, whatever the number; else, for at most :data:`AUTO_COUNT` walks of a once-only
    puzzle (every walk, or the best ones under an objective, the empty walks among them),
    by refutation; a count of 0 not certified so, by the unsolvability certificate;
    ``None`` where none applies. A certified number other than the count's (in all, or
    from a start) is a loud failure."""
    how = "formula" if result.by_formula else "enumeration"
    rests_on = f"{result.backend}'s {how}"
    claim = None
    if puzzle.use is EdgeUse.ANY or formula_applies(puzzle) or not (
            refutation_applies(puzzle, count=True) or result.solutions > AUTO_COUNT):
        length = result.stats.get("length", result.stats.get("shortest_length"))
        claim = count_claim(puzzle, limits, limit=AUTO_COUNT, rests_on=rests_on,
                            length=int(length) if isinstance(length, int) else None)
    if result.solutions == 0 and (claim is None or not claim.checked):
        claim = zero_count_claim(puzzle, limits, rests_on=rests_on)
    if claim is not None and claim.checked:
        _same_count(result, claim)
    return claim


def _same_count(result: CountResult, claim: Claim) -> None:
    """Raise :class:`VerificationFailure` when the checked ``claim`` certifies another
    number than ``result`` counted, in all or from a start its certificate names."""
    if claim.value != result.solutions:
        raise VerificationFailure(f"{result.backend} counts {result.solutions} solutions, "
                                  f"but a checked certificate says {claim.value}")
    listed = claim.certificate.data.get("walks") if claim.certificate else None
    if isinstance(listed, list) and result.per_start:
        starts = Counter(str(walk["start"]) for walk in listed)
        counted = {name: row.solutions for name, row in result.per_start.items()
                   if row.solutions}
        if starts != counted:
            raise VerificationFailure(f"{result.backend} counts {counted} solutions per "
                                      f"start, but a checked certificate lists {dict(starts)}")
    certified = claim.certificate.data.get("per_start") if claim.certificate else None
    for name, walks in (certified or {}).items():
        row = (result.per_start or {}).get(name)
        if row is not None and row.solutions != walks:
            raise VerificationFailure(f"{result.backend} counts {row.solutions} solutions "
                                      f"from {name}, but a checked certificate says {walks}")


def _refuse_failures(puzzle: Puzzle, method: CountMethod) -> None:
    """Failures are counted only by enumeration, and only where they are defined: not
    under an objective (a failure is a walk that cannot go on, whatever its length)."""
    if method is CountMethod.EXACT:
        raise UnsupportedPuzzle("failures are counted only by enumeration; count with "
                                "--method enumerate, or without --failures")
    if puzzle.use is EdgeUse.AT_MOST_ONCE and puzzle.objective is not Objective.ANY:
        raise UnsupportedPuzzle(
            f"failures are not defined under 'objective: {puzzle.objective.value}' (a "
            f"count there counts the {puzzle.objective.value} walks only); count without "
            "--failures, or set 'objective: any' to count failures of every walk")


def _precheck_count(puzzle: Puzzle) -> CountResult | None:
    """0 solutions, when the structural pre-check finds a certificate the independent
    checker accepts."""
    from trailkit.models.checking.certificates import check_certificate
    from trailkit.solvers.pipeline.solving import precheck

    answer = precheck(puzzle)
    if answer is None or answer.certificate is None or check_certificate(
            puzzle, answer.certificate):
        return None
    return CountResult(PRECHECK, 0, method=f"pre-check: {answer.certificate.kind} certificate")
