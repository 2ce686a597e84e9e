"""The ``count`` claim of a count made by the formula: a ``best-formula`` certificate, checked.

Walks that use every edge exactly once, with no colour rule, are counted by direct's exact
count (the BEST theorem over Eulerian orientations), however many there are; the
certificate (:mod:`~trailkit.solvers.backends.direct.orientation_list`) writes out the
formula's inputs and the independent checker
(:mod:`trailkit.models.checking.best_formula`) recomputes the number by methods of its own.
So such a count is certified past the 10^5 walks an enumeration can list, up to
:data:`~trailkit.solvers.backends.direct.orientation_list.ORIENTATION_LIMIT` orientation
classes. A certificate the checker rejects is a bug, raised as :class:`VerificationFailure`.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> claim = formula_count_claim(p)
>>> claim.checked, claim.value, claim.certificate.kind
(True, 6, 'best-formula')
"""

from __future__ import annotations

import time

from trailkit.models.answer import Certificate, Claim
from trailkit.models.checking.certificates import verdict
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.direct.exact_count import exact_count
from trailkit.solvers.backends.direct.orientation_list import orientation_certificate
from trailkit.solvers.pipeline.claim_rules import unproven
from trailkit.solvers.pipeline.policy import time_up

__all__ = ["FORMULA_RESTS_ON", "formula_count_claim"]

FORMULA_RESTS_ON = "direct's formula"
"""What an uncertified count by the formula rests on."""


def formula_count_claim(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                        rests_on: str = FORMULA_RESTS_ON) -> Claim:
    """The claim that ``puzzle`` (exactly once, no colour rule, some edges) has exactly N
    walks: counted by the formula, its ``best-formula`` certificate accepted by the
    independent checker; or, not certified, why not and that it rests on ``rests_on``."""
    deadline = None if limits.time_limit is None else time.monotonic() + limits.time_limit

    def counted() -> int | str:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = exact_count(puzzle, left, memory_mb=limits.memory_mb)
        if result is None:
            return "the formula does not apply"
        if not result.complete:
            return result.reason or time_up(limits, "while counting")
        return result.solutions

    data = orientation_certificate(puzzle, counted, deadline)
    if isinstance(data, str):
        return Claim("count", False, why=unproven(data, rests_on))
    classes = sum(len(graph["orientations"]) for graph in data["graphs"])
    solutions = int(data["solutions"])
    certificate = Certificate("best-formula", data, (
        f"{plural(solutions, 'walk')}, by the BEST theorem summed over "
        f"{plural(classes, 'class', 'classes')} of Eulerian orientations"))
    checked = verdict(puzzle, certificate)
    if checked.problems:
        raise VerificationFailure("the count certificate is rejected by the independent "
                                  f"checker: {'; '.join(checked.problems[:3])}")
    return Claim("count", True, certificate, value=solutions, holds=checked.holds)
