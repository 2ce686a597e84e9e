"""The project's small exception hierarchy.

Every error a user can cause is a :class:`TrailkitError`; the command line turns
them into a one-line message and exit code 2 (input) or 4 (inconsistency), never
a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = [
    "BackendUnavailable",
    "Location",
    "NotASpec",
    "SpecError",
    "SpecWarning",
    "TrailkitError",
    "UnsupportedPuzzle",
    "VerificationFailure",
]


class TrailkitError(Exception):
    """Base class of every error trailkit raises on purpose."""


@dataclass(frozen=True, slots=True)
class Location:
    """A 1-based position in a file (YAML marks are 0-based: add 1 when building one)."""

    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class SpecError(TrailkitError):
    """A puzzle spec (or an imported file) that cannot be used as written.

    ``str(error)`` reads like a compiler message:
    ``specs/p.yaml:12:5: error: unknown colour "teal" in edges[3] (colours are red, blue)``.
    """

    #: How serious it is: ``error`` (the spec cannot be used) or ``warning``.
    level: ClassVar[str] = "error"

    def __init__(self, message: str, location: Location | None = None, path: str = "") -> None:
        self.message = message
        self.location = location
        self.path = path
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.level}: {self.message}"


class NotASpec(SpecError):
    """A plain list (of planks, dominoes or edges) given where a YAML spec belongs.

    ``what`` says what it is ("a plank list ('A E red' per line)") and ``list_kind``
    which list (``planks``, ``dominoes`` or ``edges``), so that a front end can name the
    command that turns it into a spec, in its own words."""

    def __init__(self, what: str, list_kind: str, location: Location | None = None) -> None:
        self.what = what
        self.list_kind = list_kind
        super().__init__(f"this is {what}, not a YAML spec; import it to make a spec of it",
                         location)


class SpecWarning(SpecError):
    """A located remark on a spec that loads: worth a look, never a reason to refuse it
    (``lint`` prints it as ``warning:`` and still exits 0). Never raised, only returned."""

    level = "warning"


class UnsupportedPuzzle(TrailkitError):
    """A backend was asked for something it does not do (e.g. counting reusable walks)."""


class BackendUnavailable(TrailkitError):
    """An unknown backend name, or an optional backend whose library is missing."""


class VerificationFailure(TrailkitError):
    """A backend's answer failed the independent checker or a cross-check: a bug, exit code 4."""
