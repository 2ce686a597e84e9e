"""The answer of a command whose spec could not be read within ``--time-limit``.

A time limit counts the reading of the spec (CONTRACT 1.4 §7: "a time limit is kept
within a second of wall time (the answer says ``unknown``)"); a million-line spec can
take longer than the limit to read. Then there is no puzzle, yet the answer is the
command's own object saying ``unknown`` (exit 3), never ``trailkit-error/1``, which is
for input that is wrong: ``solve`` a ``trailkit-result/1``, ``count`` a
``trailkit-count/1`` ("at least 0"), ``prove`` a ``trailkit-prove/1``. The spec's
``name`` and ``kind`` come from its header lines
(:func:`~trailkit.models.spec.peek.peek_header`); what the lines did not say is null.

>>> from trailkit.models.spec.peek import SpecHeader
>>> said = unread_json("result", "big.yaml", SpecHeader("Big", "trail"),
...                    "the time limit was reached while reading the edge list",
...                    backend="auto", time_s=1.2)
>>> said["format"], said["status"], said["kind"], said["verified"]
('trailkit-result/1', 'unknown', 'trail', False)
"""

from __future__ import annotations

from typing import Any

from trailkit.models.spec.peek import SpecHeader
from trailkit.solvers.frontends.presenter.proofs import PROVE_FORMAT
from trailkit.solvers.frontends.presenter.results import COUNT_FORMAT, RESULT_FORMAT

__all__ = ["UNREAD_FORMATS", "unread_json", "unread_text"]

UNREAD_FORMATS = ("result", "count", "prove")
"""The answers a command can give without its spec (the ``unread`` of its parser)."""

READING = "reading"
"""``decided_by`` of an answer that ended while the spec was read."""


def unread_json(answer: str, spec: str, header: SpecHeader, reason: str, *,
                backend: str, time_s: float, method: str = "auto",
                claim: str | None = None) -> dict[str, Any]:
    """The ``unknown`` object of the answer ``answer`` (one of :data:`UNREAD_FORMATS`)
    for ``spec``, which ``reason`` stopped being read after ``time_s`` seconds."""
    if answer == "count":
        return {"format": COUNT_FORMAT, "spec": spec, "name": header.name,
                "kind": header.kind, "backend": backend, "status": "unknown",
                "complete": False, "method": method if method == "exact" else "enumerate",
                "solutions": 0, "reason": reason, "time_s": round(time_s, 6)}
    if answer == "prove":
        said: dict[str, Any] = {"format": PROVE_FORMAT, "spec": spec, "status": "unknown",
                                "certificate": None, "decided_by": READING,
                                "reason": reason, "out": None}
        if claim is not None and claim != "unsolvable":
            said["claims"] = [{"claim": claim, "certificate": None, "checked": False,
                               "why": reason}]
        return said
    return {"format": RESULT_FORMAT, "spec": spec, "name": header.name,
            "kind": header.kind, "backend": backend, "status": "unknown", "steps": [],
            "start": None, "length": None, "optimal": None, "certificate": None,
            "verified": False, "decided_by": READING, "crosscheck": None,
            "reason": reason, "time_s": round(time_s, 6), "claims": []}


def unread_text(reason: str) -> str:
    """The line that says it on standard error: unknown, and what gives it time."""
    return (f"trailkit: unknown: {reason} (no answer; a longer --time-limit gives the "
            "reading time to finish)")
