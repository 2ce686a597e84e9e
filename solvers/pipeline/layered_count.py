"""The ``count`` claims of reusable walks (``layers``), and of every count of 0.

A puzzle whose edges may be reused counts its shortest walks. Their number is certified
by a ``layers`` certificate with the claim ``count``: the states reachable in exactly 0,
1, ..., L steps (:mod:`trailkit.solvers.pipeline.layered`), layer L the first where the
walk may stop, the number of walks of L steps and the number from each start; the
independent checker (:mod:`trailkit.models.checking.shortest` with
:mod:`trailkit.models.checking.layer_walks`) checks the layers closed and counts the walks
through them itself, whatever their number. Past
:data:`~trailkit.solvers.pipeline.layered.STATE_LIMIT` states, or for a closed walk, the
claim says why not and what it rests on.

A count of 0, in any family, is the claim that no walk exists at all: its certificate is
the puzzle's unsolvability certificate (:func:`~trailkit.solvers.pipeline.certify.find_certificate`:
the structural ones, the closed set of states, or a DRUP proof), checked.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                    "start: a\\ngoal: c\\nedges: [a b red, b c blue, b c blue]\\n")
>>> claim = reusable_count_claim(p)
>>> claim.checked, claim.value, claim.certificate.kind, claim.certificate.data["per_start"]
(True, 2, 'layers', {'a': 2})
>>> dead = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                       "start: a\\ngoal: c\\nedges: [a b red, b c red]\\n")
>>> zero = reusable_count_claim(dead)
>>> zero.checked, zero.value, zero.certificate.kind
(True, 0, 'closed-set')
"""

from __future__ import annotations

from trailkit.models.answer import Certificate, Claim
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.layer_numbers import encode_layer_numbers
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.claim_rules import unproven
from trailkit.solvers.pipeline.layered import STATE_LIMIT, layers_to_goal

__all__ = ["reusable_count_claim", "zero_count_claim"]


def reusable_count_claim(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                         rests_on: str = "the enumeration",
                         state_limit: int = STATE_LIMIT) -> Claim:
    """The claim that ``puzzle`` (edges reusable) has exactly N shortest walks: a
    ``layers`` certificate of ``count`` the independent checker accepted; for no walk at
    all, :func:`zero_count_claim`; or, not certified, why not and that it rests on
    ``rests_on``."""
    if puzzle.has_node_rules:
        return Claim("count", False, why=unproven(
            "the layers count walks that ignore the node rules (visit, via, avoid, at)",
            rests_on))
    built = layers_to_goal(puzzle, state_limit)
    if built is None:
        return zero_count_claim(puzzle, limits, rests_on=rests_on)
    if isinstance(built, str):
        return Claim("count", False, why=unproven(built, rests_on))
    per_start = built.walks_by_start()
    total = sum(per_start.values())
    length = len(built.layers) - 1
    data = {"claim": "count", "length": length, "solutions": total,
            "per_start": {puzzle.nodes[v]: n for v, n in per_start.items()},
            "layer_numbers": encode_layer_numbers(built.numbers)}
    certificate = Certificate("layers", data, (
        f"the states 0 to {length} steps reach, layer by layer: no walk is shorter than "
        f"{plural(length, 'step')}, and {plural(total, 'walk')} of that many steps solve "
        "the puzzle"))
    return _checked(puzzle, certificate, total)


def zero_count_claim(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                     rests_on: str = "the enumeration") -> Claim:
    """The claim that ``puzzle`` has no walk, so 0 solutions: its unsolvability certificate
    (structural, the closed set of states, or a DRUP proof from the ``sat`` backend),
    accepted by the independent checker; or why there is none. A walk found instead is a
    loud failure (:class:`VerificationFailure`): the count of 0 was wrong."""
    certificate, maker = find_certificate(puzzle, get_backend("direct"), limits)
    if certificate is None:
        return Claim("count", False, value=0, why=unproven(
            f"no unsolvability certificate: {maker}", rests_on))
    return _checked(puzzle, certificate, 0)


def _checked(puzzle: Puzzle, certificate: Certificate, solutions: int) -> Claim:
    """``certificate`` of ``solutions`` walks checked again by the independent checker,
    for the sentence it says: the claim, or a loud failure."""
    checked = verdict(puzzle, certificate)
    if checked.problems:
        raise VerificationFailure("the count certificate is rejected by the independent "
                                  f"checker: {'; '.join(checked.problems[:3])}")
    holds = checked.holds if solutions else f"no walk at all: {checked.holds}"
    return Claim("count", True, certificate, value=solutions, holds=holds)
