"""``prove --claim fewest-changes``: the fewest changes a repair needs, certified.

The repair search lives above the pipeline, so this claim is made here: the search finds
the fewest changes; 0 rests on the puzzle's verified walk (a ``change-sets`` certificate
with no set to refute, its repair of 0 changes that walk), 1 on the puzzle's own
unsolvability certificate, accepted by the independent checker (no repair can have fewer
than 1 change), and the repair itself is verified by the pipeline; more on the
``change-sets`` certificate the repair search made
(:mod:`trailkit.solvers.tools.repair.fewest_certificate`: every smaller set of allowed
changes refuted). Where none could be made, the answer is "unknown" and says what the
number rests on.
"""

from __future__ import annotations

from trailkit.models.answer import Status
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.pipeline.claims import fewest_changes_claim
from trailkit.solvers.pipeline.proving import Proof, claim_document
from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

__all__ = ["prove_fewest_changes"]


def prove_fewest_changes(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                         spec_path: str | None = None) -> Proof:
    """``solved`` with the checked ``fewest-changes`` claim (its value: the number of
    changes) and the certificate file's content (for 0 changes, the puzzle's walk);
    ``unknown`` when the search stopped, found no repair within the rules, or the claim is
    not certified."""
    result = repair(puzzle, limits=limits)
    if result.status in (RepairStatus.UNKNOWN, RepairStatus.NO_REPAIR) or \
            result.changes is None:
        return Proof(Status.UNKNOWN, reason=result.reason or result.proof or
                     "no repair within the spec's rules was found")
    claim = result.claim or fewest_changes_claim(result.changes, result.original,
                                                 minimal=result.minimal, proof=result.proof)
    if not claim.checked:
        return Proof(Status.UNKNOWN, reason=claim.why, claim=claim)
    document = None if claim.certificate is None else \
        claim_document(spec_path, "fewest-changes", claim.certificate, changes=claim.value)
    return Proof(Status.SOLVED, claim.certificate, document, claim=claim,
                 decided_by=result.method or "repair")
