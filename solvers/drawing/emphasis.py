"""What a repair changed, as plain data the drawing can emphasise.

The repair library (``trailkit repair``) reports changes as the contract's JSON:
``{"op": "add" | "remove" | "recolour", "from": u, "to": v, "colour": c,
"old_colour": c0}``, and in Python as its ``Change`` objects (attributes ``op``, ``u``,
``v``, ``colour``, ``old_colour``). :meth:`Emphasis.from_changes` reads either, so a
repaired puzzle is drawn with ``draw_svg(best.puzzle, best.answer,
emphasis=Emphasis.from_changes(best.changes))`` (or from ``repair --json``'s
``changes``). The objects are read by their attributes, not their class: the drawing
is a lower layer than the repair library and never imports it. Edges are named by
their endpoints (either order) and colour, never by internal indices, because an added
plank has no index in the original puzzle.

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
    def from_changes(cls, changes: Iterable[Mapping[str, Any] | Any], note: str = ""
                     ) -> Emphasis:
        """Read a repair's ``changes``: the contract's JSON objects or the repair
        library's ``Change`` objects (see the module docstring)."""
        lists: dict[str, list[EdgeMark]] = {"add": [], "recolour": [], "remove": []}
        for change in changes:
            op, fields = _fields(change)
            if op == "recolor":
                op = "recolour"
            if op not in lists:
                raise TrailkitError(f"unknown repair change {op!r}; expected add, remove or "
                                    "recolour")
            tail, head, colour, old = fields
            lists[op].append(EdgeMark(str(tail), str(head),
                                      None if colour is None else str(colour),
                                      None if old is None else str(old)))
        return cls(tuple(lists["add"]), tuple(lists["recolour"]), tuple(lists["remove"]), note)


def _fields(change: Mapping[str, Any] | Any) -> tuple[str, tuple[Any, Any, Any, Any]]:
    """The op and (from, to, colour, old colour) of one change, JSON or object."""
    if isinstance(change, Mapping):
        if "from" not in change or "to" not in change:
            raise TrailkitError(f"a repair change needs 'from' and 'to': {dict(change)!r}")
        return str(change.get("op", "")), (
            change["from"], change["to"], change.get("colour", change.get("color")),
            change.get("old_colour", change.get("old_color")))
    op = getattr(change, "op", None)
    tail = getattr(change, "u", getattr(change, "tail", None))
    head = getattr(change, "v", getattr(change, "head", None))
    if op is None or tail is None or head is None:
        raise TrailkitError(f"a repair change needs op, u and v (or their JSON form "
                            f"with from and to): {change!r}")
    op = getattr(op, "value", op)  # an enum member reads as its value
    return str(op), (tail, head, getattr(change, "colour", None),
                     getattr(change, "old_colour", None))
