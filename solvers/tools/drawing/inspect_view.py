"""What ``inspect`` found, as plain data the drawing marks (see :mod:`.inspect_marks`).

The command line runs the inspection (a library of the drawing's own layer, which the
drawing never imports) and passes the critical and costly edges by their indices.

>>> view = InspectView((InspectMark(3, "critical"), InspectMark(5, "costly", 31)), 25)
>>> view.extra(view.marks[1]), view.is_empty
(6, False)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InspectMark", "InspectView"]


@dataclass(frozen=True, slots=True)
class InspectMark:
    """One edge ``inspect`` found: ``kind`` is ``critical`` (no walk without it) or
    ``costly`` (the shortest walk is ``length_without`` steps without it)."""

    edge: int
    kind: str
    length_without: int | None = None


@dataclass(frozen=True, slots=True)
class InspectView:
    """The marks to draw, and the shortest walk's length with every edge (``None`` when
    the walk may not reuse edges: then no edge is costly)."""

    marks: tuple[InspectMark, ...] = ()
    shortest: int | None = None

    @property
    def is_empty(self) -> bool:
        return not self.marks

    def extra(self, mark: InspectMark) -> int:
        """How many steps longer the shortest walk is without ``mark``'s edge (0 when
        not known)."""
        if mark.length_without is None or self.shortest is None:
            return 0
        return mark.length_without - self.shortest
