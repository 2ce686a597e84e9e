"""What a repair changed, as plain data the drawing can emphasise.

The repair library (``trailkit repair``) reports changes as the contract's JSON:
``{"op": "add" | "remove" | "recolour", "from": u, "to": v, "colour": c,
"old_colour": c0}``. :meth:`Emphasis.from_changes` reads exactly that, so a repaired
puzzle is drawn with ``draw_svg(repaired, answer, emphasis=Emphasis.from_changes(
repair["changes"]))`` without the drawing knowing how repairs are found. Edges are
named by their endpoints (either order) and colour, never by internal indices, because
an added plank has no index in the original puzzle.

>>> e = Emphasis.from_changes([{"op": "add", "from": "AA", "to": "AB", "colour": "green"}])
>>> e.added[0].tail, e.added[0].head, e.added[0].colour, e.is_empty
('AA', 'AB', 'green', False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trailkit.models.errors import TrailkitError

__all__ = ["EdgeMark", "Emphasis"]


@dataclass(frozen=True, slots=True)
class EdgeMark:
    """One changed edge: its ends (node names, either order), its colour (``None`` for an
    uncoloured edge) and, for a recoloured edge, the colour it had before."""

    tail: str
    head: str
    colour: str | None = None
    old_colour: str | None = None

    def matches(self, tail: str, head: str, colour: str | None) -> bool:
        """Whether an edge with these ends (either order) and ``colour`` is this one."""
        return {tail, head} == {self.tail, self.head} and colour == self.colour


@dataclass(frozen=True, slots=True)
class Emphasis:
    """Edges a repair ``added``, ``recoloured`` (``colour`` is the new colour) or
    ``removed``; ``note`` is a line the picture shows under its title."""

    added: tuple[EdgeMark, ...] = ()
    recoloured: tuple[EdgeMark, ...] = ()
    removed: tuple[EdgeMark, ...] = ()
    note: str = ""

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.recoloured or self.removed)

    @classmethod
    def from_changes(cls, changes: Iterable[Mapping[str, Any]], note: str = "") -> Emphasis:
        """Read the contract's repair ``changes`` list (see the module docstring)."""
        lists: dict[str, list[EdgeMark]] = {"add": [], "recolour": [], "remove": []}
        for change in changes:
            op = str(change.get("op", ""))
            if op == "recolor":
                op = "recolour"
            if op not in lists:
                raise TrailkitError(f"unknown repair change {op!r}; expected add, remove or "
                                    "recolour")
            colour = change.get("colour", change.get("color"))
            old = change.get("old_colour", change.get("old_color"))
            lists[op].append(EdgeMark(str(change["from"]), str(change["to"]),
                                      None if colour is None else str(colour),
                                      None if old is None else str(old)))
        return cls(tuple(lists["add"]), tuple(lists["recolour"]), tuple(lists["remove"]), note)
