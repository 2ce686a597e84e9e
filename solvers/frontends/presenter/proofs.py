"""``prove`` and ``check-certificate`` answers in words and in the contract's JSON
(``trailkit-prove/1``, ``trailkit-check/1``), for the command line and the workshop."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trailkit.models.answer import Status
from trailkit.models.support.words import plural
from trailkit.solvers.pipeline.claim_rules import claims_that_apply

if TYPE_CHECKING:
    from trailkit.models.puzzle import Puzzle
    from trailkit.solvers.pipeline.certificate_check import CertificateCheck
    from trailkit.solvers.pipeline.proving import Proof

__all__ = ["CHECK_FORMAT", "PROVE_FORMAT", "check_json", "check_text", "claims_instead",
           "prove_json", "prove_text"]

PROVE_FORMAT = "trailkit-prove/1"
CHECK_FORMAT = "trailkit-check/1"


def prove_json(proof: Proof, spec: str | None, out: str | None = None) -> dict[str, Any]:
    """The ``trailkit-prove/1`` object; ``out`` is the certificate file written, if any."""
    return {"format": PROVE_FORMAT, "spec": spec, "status": proof.status.value,
            "certificate": None if proof.certificate is None else
            {"type": proof.certificate.kind, "checked": True},
            "decided_by": proof.decided_by, "reason": proof.reason or None,
            "out": out if proof.document is not None else None}


def claims_instead(puzzle: Puzzle) -> list[str]:
    """What can be proven of a puzzle that has a walk, in place of ``unsolvable``: the
    claims that apply to it but ``unsolvable`` and ``minimal-core`` (both need no walk)."""
    return [c for c in claims_that_apply(puzzle) if c not in ("unsolvable", "minimal-core")]


def prove_text(proof: Proof, out: str | None = None, side: Path | None = None,
               proof_files: Sequence[Path] = (), instead: Sequence[str] = ()) -> str:
    """What was proved, for people: a solvable puzzle needs no proof (the claims
    ``instead`` can be proven of it: :func:`claims_instead`), an unsolvable one is said
    with its checked certificate (and the files written: the certificate ``out`` with its
    proof's ``side`` file, and the ``proof_files`` for outside checkers)."""
    if proof.status is Status.SOLVED:
        said = (f"solvable: a verified walk of {plural(proof.length or 0, 'step')} exists, "
                "so there is nothing to prove (trailkit solve shows it)")
        return said + (f"\nwhat can be proven of it instead: {', '.join(instead)}"
                       if instead else "")
    if proof.certificate is None:
        return proof.reason if proof.reason.startswith("unsolvable") else \
            f"unknown: {proof.reason}"
    lines = [f"unsolvable: {proof.certificate.explanation}",
             f"({proof.certificate.kind} certificate accepted by the independent checker)"]
    if out is not None:
        beside = f" (its proof in {side})" if side is not None else ""
        lines.append(f"certificate written to {out}{beside}")
    if proof_files:
        lines.append(f"proof files written: {', '.join(map(str, proof_files))}")
    return "\n".join(lines)


def check_json(verdict: CertificateCheck, spec: str | None, certificate: str) -> dict[str, Any]:
    """The ``trailkit-check/1`` object: the verdict on the certificate file."""
    return {"format": CHECK_FORMAT, "spec": spec, "certificate": certificate,
            "accepted": verdict.accepted, "message": verdict.message, "type": verdict.kind,
            "claim": verdict.claim, "value": verdict.value}


_UNITS = {"count": "solution", "shortest": "step", "longest": "step",
          "fewest-changes": "change"}


def check_text(verdict: CertificateCheck) -> str:
    """``accepted: ...`` or ``rejected: ...``: the checker's own sentence; when accepted,
    the claim it found proven, with its value (``claim proven: count, 88 solutions``)."""
    if not verdict.accepted:
        return "rejected: " + verdict.message
    claim = verdict.claim or ""
    value = "" if verdict.value is None or claim not in _UNITS else \
        f", {plural(verdict.value, _UNITS[claim])}"
    return f"accepted: {verdict.message}\nclaim proven: {claim}{value}"
