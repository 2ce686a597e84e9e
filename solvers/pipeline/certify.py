"""A checked certificate for every "unsolvable": ask the backend that can make one.

A backend may find that a puzzle has no walk without producing a certificate: the
direct backend's exhaustive search, CP-SAT's infeasibility, the SAT backend's
incremental search over lengths. Before such an answer is shown, the pipeline asks
for a certificate the independent checker can accept:

* first the short ones: a structural certificate (parity, components, alternation,
  endpoints; exactly once), or the closed set of (node, colour-phase) states of the
  direct backend's reachability search where every edge is reusable: exact for
  reusable edges, and for once-only walks whenever even that relaxation has no walk;
* else, for once-only walks (exactly once, at most once; colour rules or not), a
  DRUP proof from a backend that makes proofs (the answering one if it does, else
  ``sat``): the position encoding (exactly once) or the ``walk-v1`` formula of every
  length (at most once), checked by trailkit's own checker.

When none can be made (a limit, a proof too large to check), the answer keeps its
"unsolvable" only as far as the rest of the pipeline allows (a second backend must
agree) and its ``reason`` says plainly that it has no certificate and why.
"""

from __future__ import annotations

from dataclasses import replace

from trailkit.models.answer import Answer, Certificate, Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.errors import BackendUnavailable, VerificationFailure
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.policy import obeys_node_rules

__all__ = ["certify", "find_certificate"]


def find_certificate(puzzle: Puzzle, engine: Backend, limits: Limits
                     ) -> tuple[Certificate | None, str]:
    """A certificate that ``puzzle`` has no walk, checked; or ``None`` and why not.

    The second item names who made the certificate (or says why there is none).
    Raises :class:`VerificationFailure` if the backend asked finds a walk instead: the
    unsolvable answer being certified was wrong.
    """
    certificate, maker = _structural(puzzle, limits)
    if certificate is None and puzzle.use is EdgeUse.ANY:
        return None, maker
    if certificate is None:
        try:
            prover = engine if engine.supports_proof else get_backend("sat")
        except BackendUnavailable as exc:
            return None, f"no backend that makes proofs is available ({exc})"
        certificate = prover.prove(puzzle, limits)
        maker = prover.name
        if certificate is None:
            return None, (f"{prover.name} made no DRUP proof within the limits (or one too "
                          "large to check)")
    problems = check_certificate(puzzle, certificate)
    if problems:
        if certificate.kind == "drup":  # too big or too slow for the checker: no proof
            return None, f"the DRUP proof of {maker} was not accepted ({problems[0]})"
        raise VerificationFailure(f"{maker} made a {certificate.kind} certificate the "
                                  f"independent checker rejects: {'; '.join(problems[:3])}")
    return certificate, maker


def _structural(puzzle: Puzzle, limits: Limits) -> tuple[Certificate | None, str]:
    """The short certificates first: under node rules the node cuts, then parity and
    its kin (exactly once), then the closed set of states of the relaxation where every
    edge is reusable (exact for reusable edges; for once-only walks it applies when even
    the relaxation has no walk)."""
    from trailkit.solvers.backends.direct.node_structural import node_rule_certificate

    certificate = node_rule_certificate(puzzle)
    if certificate is not None:
        return certificate, "the structural check of the node rules"
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        from trailkit.solvers.backends.direct.structural import structural_certificate

        certificate = structural_certificate(puzzle)
        if certificate is not None:
            return certificate, "the structural check"
    direct = get_backend("direct")
    relaxation = replace(puzzle, use=EdgeUse.ANY)
    if not obeys_node_rules(puzzle, direct):  # no walk even without them: none with them
        relaxation = replace(relaxation, visit=NodeVisit.ANY, via=frozenset(),
                             avoid=frozenset(), at={})
    relaxed = direct.solve(relaxation, limits)
    if relaxed.status is Status.UNSOLVABLE and relaxed.certificate is not None:
        return relaxed.certificate, "direct (reachability of states)"
    exact = puzzle.use is EdgeUse.ANY and relaxation.has_node_rules == puzzle.has_node_rules
    if relaxed.status is Status.SOLVED and exact:
        raise VerificationFailure("an unsolvable answer was to be certified, but the "
                                  "direct backend's reachability search finds a walk")
    return None, f"the direct backend made no closed-set certificate ({relaxed.reason})"


def certify(puzzle: Puzzle, answer: Answer, engine: Backend, limits: Limits) -> Answer:
    """``answer`` with a checked certificate when it says "unsolvable" without one.

    Answers that are not unsolvable, or already carry a checked certificate, are
    returned unchanged. Otherwise the reason says which backend certified it, or that
    there is no certificate, why, and what the answer still rests on.
    """
    if answer.status is not Status.UNSOLVABLE or answer.certificate_checked:
        return answer
    certificate, maker = find_certificate(puzzle, engine, limits)
    found = answer.reason or f"{answer.backend} found no walk"
    if certificate is None:
        return answer.with_(certificate=None, reason=(
            f"{found}; no certificate: {maker}, so this rests on {answer.backend}'s search "
            "alone until a second backend confirms it"))
    return answer.with_(certificate=certificate, certificate_checked=True, verified=True,
                        reason=f"{found}; certificate ({certificate.kind}) made by {maker} "
                        "and checked")
