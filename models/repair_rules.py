"""The ``repair:`` block of a spec: what a repair may change (CONTRACT.md v1.1, section 1).

::

    repair:
      add: layout        # layout | any | none | a list of candidate edges like `edges:`
                         # (default: layout when the spec has a layout:, else any)
      colours: any       # colours a new edge may have: any colour of the rule, or a list
      recolour: false    # an existing edge may change colour
      remove: false      # an edge may be left out (a domino put aside)
      protect: [T]       # no change may touch these nodes

This module holds the rules as data, for the solvers that repair a puzzle; the block is
read, every mistake located (``file:line:col``) like any other spec error, by
:mod:`trailkit.models.spec.repair_block` (so this module imports nothing of the spec reader,
and the reader depends on it, never the other way). The result is a frozen
:class:`RepairRules` kept on :attr:`Puzzle.repair`; the command line's flags override
it field by field (:meth:`RepairRules.with_`).

>>> RepairRules().add, RepairRules().recolour
('any', False)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ADD_MODES", "CandidateEdge", "RepairRules"]

#: The named ways of choosing new edges (a list of candidate edges is the fourth).
ADD_MODES = ("layout", "any", "none")


@dataclass(frozen=True, slots=True)
class CandidateEdge:
    """One edge a repair may add, by node names; ``colour`` ``None``: any allowed colour."""

    u: str
    v: str
    colour: str | None = None
    directed: bool = False


@dataclass(frozen=True, slots=True)
class RepairRules:
    """What a repair may change.

    ``add`` is ``"layout"`` (pairs of nodes that touch in the layout and have no edge yet),
    ``"any"`` (any pair of distinct nodes), ``"none"``, or a tuple of
    :class:`CandidateEdge`. ``colours`` ``None`` allows every colour of the rule for new
    edges. ``protect`` names nodes no change may touch.
    """

    add: str | tuple[CandidateEdge, ...] = "any"
    colours: tuple[str, ...] | None = None
    recolour: bool = False
    remove: bool = False
    protect: frozenset[str] = frozenset()

    @classmethod
    def default(cls, *, has_layout: bool) -> RepairRules:
        """The rules where the spec says nothing of new edges (no ``repair:`` block, or one
        without ``add:``): edges between touching nodes when the spec has a ``layout:``,
        since a new plank must lie where the puzzle's pieces are; else any new edge
        (CONTRACT 1.3, section 6).

        >>> RepairRules.default(has_layout=True).add, RepairRules.default(has_layout=False).add
        ('layout', 'any')
        """
        return cls(add="layout" if has_layout else "any")

    def with_(self, **changes: Any) -> RepairRules:
        """A copy with some fields replaced (the command line's overrides)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def describe(self) -> str:
        """The rules in one line, for reports."""
        if isinstance(self.add, tuple):
            add = f"{len(self.add)} candidate edges"
        else:
            add = {"layout": "edges between touching nodes", "any": "any new edge",
                   "none": "no new edges"}[self.add]
        parts = [add]
        if self.colours is not None:
            parts.append("colours " + ", ".join(self.colours))
        if self.recolour:
            parts.append("recolouring")
        if self.remove:
            parts.append("removing edges")
        if self.protect:
            parts.append("nothing touching " + ", ".join(sorted(self.protect)))
        return "; ".join(parts)

