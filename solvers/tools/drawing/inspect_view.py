"""What ``inspect`` found, as plain data the drawing marks (see :mod:`.inspect_marks`).

The command line runs the inspection (a library of the drawing's own layer, which the
drawing never imports) and passes the critical and costly edges by their indices; for a
tour puzzle also each given's verdict (essential, redundant, undecided) and a caption in
words (the counts and the rating), which a board draws (:mod:`.board_inspect`).

>>> view = InspectView((InspectMark(3, "critical"), InspectMark(5, "costly", 31)), 25)
>>> view.extra(view.marks[1]), view.is_empty
(6, False)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GivenMark", "InspectMark", "InspectView"]


@dataclass(frozen=True, slots=True)
class InspectMark:
    """One edge ``inspect`` found: ``kind`` is ``critical`` (no walk without it) or
    ``costly`` (the shortest walk is ``length_without`` steps without it)."""

    edge: int
    kind: str
    length_without: int | None = None


@dataclass(frozen=True, slots=True)
class GivenMark:
    """One given (``node``'s ``at:``) and its ``verdict``: ``essential`` (without it a
    second solution), ``redundant`` (still unique without it) or ``undecided``."""

    node: int
    verdict: str


@dataclass(frozen=True, slots=True)
class InspectView:
    """The marks to draw, and the shortest walk's length with every edge (``None`` when
    the walk may not reuse edges: then no edge is costly); ``givens`` the verdicts on a
    tour puzzle's givens and ``caption`` what was found in words (empty: none)."""

    marks: tuple[InspectMark, ...] = ()
    shortest: int | None = None
    givens: tuple[GivenMark, ...] = ()
    caption: str = ""

    @property
    def is_empty(self) -> bool:
        return not self.marks

    def extra(self, mark: InspectMark) -> int:
        """How many steps longer the shortest walk is without ``mark``'s edge (0 when
        not known)."""
        if mark.length_without is None or self.shortest is None:
            return 0
        return mark.length_without - self.shortest
