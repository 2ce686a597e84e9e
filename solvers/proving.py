"""``trailkit prove`` and ``trailkit check-certificate``: certificates as files.

A certificate file is self-contained JSON::

    {"format": "trailkit-certificate/1", "trailkit": "0.1.0",
     "spec": "specs/koenigsberg.yaml", "spec_sha256": "...",
     "certificate": {"type": "parity", "nodes": ["A", "B", "C", "D"], "explanation": "..."}}

Checking never trusts the file: the certificate is re-checked against the spec as it
is now (a DRUP certificate's formula is re-derived from the spec and must match).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trailkit.models.answer import Certificate, Status
from trailkit.models.certificates import check_certificate
from trailkit.models.errors import TrailkitError, VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.base import Limits
from trailkit.solvers.pipeline import solve
from trailkit.solvers.registry import get_backend
from trailkit.solvers.version import trailkit_version

__all__ = ["CERTIFICATE_FORMAT", "ProofOutcome", "check_certificate_file", "prove"]

CERTIFICATE_FORMAT = "trailkit-certificate/1"


@dataclass(frozen=True)
class ProofOutcome:
    """What ``prove`` found: the file to write (if any), a summary, text and exit code."""

    document: dict[str, Any] | None
    summary: dict[str, Any]
    text: str
    exit_code: int


def _sha256(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def prove(puzzle: Puzzle, backend: str, limits: Limits, *, spec_path: str | None,
          drup: bool = False) -> ProofOutcome:
    """Find a checkable certificate that ``puzzle`` has no walk.

    Structural certificates come first (they are one line); otherwise, or always with
    ``drup``, ``backend`` (a SAT backend) is asked for a DRUP proof, which is checked
    before it is written. That is also tried when direct reaches its limit: a
    checked proof settles the question, and without one the answer stays unknown.
    """
    answer = solve(puzzle, "direct", limits)
    summary: dict[str, Any] = {"format": "trailkit-prove/1", "spec": spec_path,
                               "status": answer.status.value}
    if answer.status is Status.SOLVED:
        return ProofOutcome(None, {**summary, "certificate": None},
                            f"solvable: a verified walk of {answer.length} steps exists, so "
                            "there is nothing to prove (trailkit solve shows it)", 0)
    certificate = answer.certificate if answer.certificate_checked and not drup else None
    if certificate is None:
        # Also when direct gave up: a proof the checker accepts settles the question.
        engine = get_backend(backend)
        if not engine.supports_proof:
            raise TrailkitError(f"backend {backend!r} makes no proofs; use sat or sat:NAME")
        certificate = engine.prove(puzzle, limits)
        if certificate is not None:
            problems = check_certificate(puzzle, certificate)
            if problems:
                raise VerificationFailure(f"{backend} made a proof the checker rejects: "
                                          f"{'; '.join(problems[:3])}")
            summary["status"] = Status.UNSOLVABLE.value
    if certificate is None and answer.status is Status.UNKNOWN:
        return ProofOutcome(None, {**summary, "certificate": None},
                            f"unknown: {answer.reason}", 3)
    if certificate is None:
        return ProofOutcome(None, {**summary, "certificate": None},
                            f"unsolvable ({answer.reason}), but no checkable certificate could "
                            "be made within the limits", 3)
    document = {"format": CERTIFICATE_FORMAT, "trailkit": trailkit_version(), "spec": spec_path,
                "spec_sha256": _sha256(spec_path), "certificate": certificate.to_json()}
    summary.update(certificate={"type": certificate.kind, "checked": True})
    text = (f"unsolvable: {certificate.explanation}\n"
            f"({certificate.kind} certificate accepted by the independent checker)")
    return ProofOutcome(document, summary, text, 1)


def check_certificate_file(puzzle: Puzzle, path: str, *, spec_path: str | None = None,
                           progress: Callable[[str], None] | None = None
                           ) -> tuple[bool, str]:
    """Check the certificate file at ``path`` against ``puzzle``: ``(accepted, message)``.

    Accepts a ``trailkit-certificate/1`` document, a ``trailkit-result/1`` answer
    (its ``certificate`` field) or a bare certificate object. ``progress`` receives
    a line now and then while a long DRUP proof is checked.
    """
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TrailkitError(f"cannot read the certificate {path}: {exc}") from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        return False, (f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); a "
                       "truncated or damaged file?")
    if not isinstance(obj, dict):
        return False, f"{path}: expected a JSON object"
    body = obj.get("certificate", obj) if obj.get("format") != "trailkit-certificate/1" \
        else obj.get("certificate")
    if not isinstance(body, dict) or "type" not in body:
        return False, f"{path}: no certificate found (expected a 'type' field)"
    certificate = Certificate.from_json(body)
    problems = check_certificate(puzzle, certificate, progress=progress)
    if problems:
        return False, f"{certificate.kind} certificate: " + "; ".join(problems[:5])
    note = ""
    recorded = obj.get("spec_sha256")
    if recorded and spec_path and recorded != _sha256(spec_path):
        note = " (the spec file changed since the certificate was made; it still holds)"
    return True, f"{certificate.kind} certificate holds: {certificate.explanation}{note}"
