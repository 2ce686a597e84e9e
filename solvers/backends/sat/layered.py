"""The layered state encoding for reusable walks: it lives in
:mod:`trailkit.models.encodings.layered_encoding` (the external ``dimacs:COMMAND`` backend writes
it too); named here for the SAT backend's modules."""

from __future__ import annotations

from trailkit.models.encodings.layered_encoding import START, LayeredEncoding

__all__ = ["START", "LayeredEncoding"]
