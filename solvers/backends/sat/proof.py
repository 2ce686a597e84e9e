"""Turning a solver's DRUP proof into a ``drup`` certificate: the maker lives in
:mod:`trailkit.models.encodings.drup_certificate` (the external ``dimacs:COMMAND`` backend makes
its certificates with it too); named here for the SAT backend's modules."""

from __future__ import annotations

from trailkit.models.encodings.drup_certificate import MAX_PROOF_LINES, make_certificate

__all__ = ["MAX_PROOF_LINES", "make_certificate"]
