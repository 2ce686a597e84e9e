"""The ``minimal-core`` claim as a certificate file, and its proof for outside checkers.

``explain`` shows a core with its claim; here the same core becomes what ``prove --claim
minimal-core --out`` writes: a ``trailkit-certificate/1`` document (claim
``minimal-core``) holding a ``core`` certificate (the core's edge ids, the argument that
no walk uses all of it, one witness walk per member), which ``check-certificate`` checks
against the spec as it is then
(:func:`~trailkit.models.checking.core_certificates.core_verdict`). With ``drup`` the
argument is always a refutation of the core's formula ``walk-core-v1``, whose files
(``formula.cnf``, its comments saying what the refutation means, and the proof) ``prove
--proof-dir`` writes for drat-trim and cake_lpr as for every other refutation.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, a c, a d]\\n")
>>> proof = prove_minimal_core(p, drup=True)
>>> proof.status.value, proof.document["claim"], proof.certificate.data["unsolvable"]["encoding"]
('unsolvable', 'minimal-core', 'walk-core-v1')
"""

from __future__ import annotations

from trailkit.models.answer import Certificate, Status
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.pipeline.proving import Proof, claim_document
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.core_proof import core_data
from trailkit.solvers.tools.repair.cores import find_core

__all__ = ["prove_minimal_core"]


def prove_minimal_core(puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
                       spec_path: str | None = None, drup: bool = False) -> Proof:
    """A minimal core of ``puzzle`` with its ``core`` certificate, accepted by the
    independent checker: ``unsolvable`` with the certificate and its file's content;
    ``solved`` when the puzzle has a walk (no core); ``unknown`` with the reason when
    the core or its certificate could not be had within ``limits``, or when cores do not
    apply (reusable edges)."""
    if puzzle.use is EdgeUse.ANY:
        return Proof(Status.UNKNOWN, reason="reusable edges have no cores: more edges never "
                     "hurt (explain shows the reachable situations instead)")
    answer = solve(puzzle, limits=limits)
    if answer.status is Status.SOLVED:
        return Proof(Status.SOLVED, length=answer.length, reason="the puzzle has a verified "
                     "walk: there is no core")
    if answer.status is not Status.UNSOLVABLE:
        return Proof(Status.UNKNOWN, reason=answer.reason)
    core = find_core(puzzle, limits, drup=drup)
    if core is None:
        return Proof(Status.UNKNOWN, reason="no core could be found within the limits")
    claim = core.claim()
    if core.certificate is None or not claim.checked:
        return Proof(Status.UNKNOWN, reason=claim.why, claim=claim)
    data = core_data(puzzle, core.edges, core.certificate, core.witnesses)
    certificate = Certificate("core", data, f"a minimal core of "
                              f"{plural(len(core.edges), 'edge')}: {claim.holds}")
    document = claim_document(spec_path, "minimal-core", certificate)
    return Proof(Status.UNSOLVABLE, certificate, document, claim=claim,
                 decided_by=answer.decided_by)
