"""Checking certificate files (``check-certificate``), apart from making them.

A certificate file is JSON (:mod:`trailkit.solvers.pipeline.proving` writes it)::

    {"format": "trailkit-certificate/1", "trailkit": "0.1.0",
     "spec": "specs/koenigsberg.yaml", "spec_sha256": "...",
     "certificate": {"type": "parity", "nodes": ["A", "B", "C", "D"], "explanation": "..."}}

Checking never trusts the file: the certificate is re-checked against the spec as it
is now (a DRUP certificate's formula is re-derived from the spec and must match).

Why a module of its own: ``check-certificate`` needs the checkers and nothing that
makes certificates. Importing :mod:`~trailkit.solvers.pipeline.proving` loads the
backends, the solving pipeline and every claim's maker (a third of a second of a
command that should take well under one, issue 45); this module loads only the
independent checker's entry, and each checker kind when its certificate comes
(:func:`trailkit.models.checking.certificates.verdict` imports them lazily too).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import Verdict, verdict
from trailkit.models.checking.claim_table import Proven, mismatch, proven, stated
from trailkit.models.errors import Location, SpecError, TrailkitError
from trailkit.models.formats.inputs import InputRefused, read_bounded
from trailkit.models.puzzle import Puzzle

__all__ = ["MAX_CERTIFICATE_BYTES", "CertificateCheck", "check_certificate_file",
           "spec_sha256"]

MAX_CERTIFICATE_BYTES = 1 << 30
"""A certificate file over this size is refused (big proofs go to a side file)."""

@dataclass(frozen=True)
class CertificateCheck:
    """The verdict on a certificate file: ``accepted``, and the checker's message; when
    accepted, the ``claim`` the checker found proven and its ``value`` (the length, the
    number of solutions or of changes; ``None`` for ``unsolvable``, ``unique`` and
    ``minimal-core``)."""

    accepted: bool
    message: str
    kind: str = ""
    claim: str | None = None
    value: int | None = None


def spec_sha256(path: str | None) -> str | None:
    """The SHA-256 of the file at ``path`` (the spec a certificate was made from), or
    ``None`` without a readable one."""
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _side_proof(body: dict[str, Any], path: str) -> dict[str, Any] | str:
    """``body`` with the proof its ``proof_file`` names (its path: the checkers read the
    file in pieces, never holding it whole), or why the side file does not match the hash
    the certificate gives."""
    name = str(body["proof_file"])
    if Path(name).name != name or name in ("", ".", ".."):
        raise SpecError(f"proof_file {name!r} must be a file name next to the certificate",
                        Location(path))
    side = Path(path).parent / name
    try:
        if side.exists() and not side.is_file():  # a FIFO or a device: never read
            raise TrailkitError(f"the certificate's proof file {side} is not a regular file")
        with side.open("rb") as file:
            digest = hashlib.file_digest(file, "sha256").hexdigest()
    except OSError as exc:
        raise TrailkitError(f"cannot read the certificate's proof file {side}: "
                            f"{exc.strerror or exc}") from None
    if digest != body.get("proof_sha256"):
        return (f"the proof file {side} does not match the SHA-256 the certificate gives "
                "(changed or replaced since it was written)")
    return {**body, "proof": side}


def _read_document(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The certificate file at ``path`` (a ``trailkit-certificate/1`` document, an answer
    or a bare certificate) and the certificate in it; :class:`SpecError` when it is no
    such thing."""
    try:
        raw = read_bounded(path, MAX_CERTIFICATE_BYTES).decode("utf-8")
    except (InputRefused, UnicodeDecodeError) as exc:
        raise TrailkitError(f"cannot read the certificate {path}: {exc}") from None
    obj = _json_document(raw, path)
    if not isinstance(obj, dict):
        raise SpecError("expected a JSON object (a trailkit-certificate/1 file)",
                        Location(path))
    body = obj.get("certificate", obj) if obj.get("format") != "trailkit-certificate/1" \
        else obj.get("certificate")
    if not isinstance(body, dict) or "type" not in body:
        raise SpecError("no certificate found (expected a 'type' field, as trailkit prove "
                        "--out writes)", Location(path))
    return obj, body


#: The most digits a number in a certificate file may have: Python's own limit on turning
#: text into an integer, which no certificate trailkit writes comes near (it could not
#: write a longer one either).
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


def _json_document(raw: str, path: str) -> Any:
    """The JSON document ``raw`` (the file ``path``), or a located :class:`SpecError`: not
    JSON, nested deeper than the reader goes, or a number longer than :data:`MAX_DIGITS`
    digits (each was an internal error, exit 4)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SpecError(f"not valid JSON ({exc.msg}); a truncated or damaged certificate "
                        "file?", Location(path, exc.lineno, exc.colno)) from None
    except RecursionError:
        raise SpecError("the JSON is nested too deeply to read; a damaged certificate file?",
                        Location(path)) from None
    except ValueError:  # the only other: an integer too long to read
        long = re.search(rf"\d{{{MAX_DIGITS + 1},}}", raw)
        where = Location(path) if long is None else Location(
            path, raw.count("\n", 0, long.start()) + 1,
            long.start() - raw.rfind("\n", 0, long.start()))
        digits = "" if long is None else f" ({len(long.group()):,} digits)"
        raise SpecError(f"a number too long to read{digits}: a certificate's numbers have "
                        f"at most {MAX_DIGITS:,} digits; a damaged certificate file?",
                        where) from None


def check_certificate_file(puzzle: Puzzle, path: str, *, spec_path: str | None = None,
                           progress: Callable[[str], None] | None = None
                           ) -> CertificateCheck:
    """Check the certificate file at ``path`` against ``puzzle``.

    A file that cannot be read as a certificate raises :class:`SpecError` (input
    trouble); a certificate whose claim does not hold comes back ``accepted=False``.

    On acceptance the message says what the checker verified, in its own words
    (:mod:`trailkit.models.checking.check_words`), never the file's ``explanation``.

    Accepts a ``trailkit-certificate/1`` document, a ``trailkit-result/1`` answer
    (its ``certificate`` field) or a bare certificate object; a proof in a side file
    (``proof_file``, next to ``path``) must match ``proof_sha256`` and is read in pieces.
    ``progress`` receives a line now and then while a long DRUP proof is checked.
    """
    obj, body = _read_document(path)
    if "proof_file" in body:
        read = _side_proof(body, path)
        if isinstance(read, str):
            return CertificateCheck(False, f"{body['type']} certificate: {read}",
                                    str(body["type"]))
        body = read
    certificate = Certificate.from_json(body)
    checked = _kind_verdict(puzzle, certificate, progress)
    if checked.problems:
        return CertificateCheck(False, f"{certificate.kind} certificate: "
                                + "; ".join(checked.problems[:5]), certificate.kind)
    # what the certificate proves is the checker's to say; the file's words must match it
    found = proven(puzzle, certificate)
    wrong = mismatch(puzzle, found, stated(obj, body)) or (
        "" if found.primary else f"a {found.kind} certificate proves no claim on its own")
    if wrong:
        return CertificateCheck(False, f"{certificate.kind} certificate: {wrong}",
                                certificate.kind)
    return _accepted(obj, body, certificate, checked, found, spec_path)


def _kind_verdict(puzzle: Puzzle, certificate: Certificate,
                  progress: Callable[[str], None] | None) -> Verdict:
    """The independent checker's verdict on ``certificate``, by the checker of its kind
    (change sets and cores have their own; the rest go through :func:`verdict`)."""
    if certificate.kind == "change-sets":
        from trailkit.models.checking.change_sets import change_sets_verdict

        return change_sets_verdict(puzzle, certificate.data)
    if certificate.kind == "core":
        from trailkit.models.checking.core_certificates import core_verdict

        return core_verdict(puzzle, certificate.data)
    return verdict(puzzle, certificate, progress=progress)


def _accepted(obj: dict[str, Any], body: dict[str, Any], certificate: Certificate,
              checked: Verdict, found: Proven, spec_path: str | None) -> CertificateCheck:
    """The acceptance of a certificate whose checker and claim agreed: the checker's
    words, a note when the spec file changed since (the certificate still holds), and
    the claim the file states (else the certificate's first)."""
    note = ""
    recorded = obj.get("spec_sha256")
    if recorded and spec_path and recorded != spec_sha256(spec_path):
        note = " (the spec file changed since the certificate was made; it still holds)"
    claim = next((s.claim for s in stated(obj, body) if s.claim in found.claims),
                 found.primary)
    # the checker's own words, never the file's explanation (which it does not trust)
    return CertificateCheck(True, f"{certificate.kind} certificate holds: "
                            f"{checked.holds}{note}", certificate.kind, claim,
                            found.claims.get(claim))
