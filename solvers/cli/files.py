"""The command line's name for :mod:`trailkit.solvers.files` (``--out`` rules), which
moved down a layer so that the workshop server writes files by the same rules."""

from __future__ import annotations

from trailkit.solvers.files import atomic_write, refuse_overwrite

__all__ = ["atomic_write", "refuse_overwrite"]
