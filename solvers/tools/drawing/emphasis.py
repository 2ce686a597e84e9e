"""What a repair changed, as plain data the drawing can emphasise.

The repair library (``trailkit repair``) reports changes as the contract's JSON:
``{"op": "add" | "remove" | "recolour", "from": u, "to": v, "colour": c,
"old_colour": c0, "edge": id}``, and in Python as its ``Change`` objects (attributes
``op``, ``u``, ``v``, ``colour``, ``old_colour``, ``edge``). :meth:`Emphasis.from_changes`
reads either, so a repaired puzzle is drawn with ``draw_svg(best.puzzle, best.answer,
emphasis=Emphasis.from_changes(best.changes))`` (or from ``repair --json``'s
``changes``). The objects are read by their attributes, not their class: the drawing
is a lower layer than the repair library and never imports it.

A mark goes on one edge, found by its index, never by its two ends: a multigraph has
parallel edges (Königsberg's bridges), and a mark on the wrong one tells a wrong
answer. :meth:`Emphasis.place` finds the indices in the puzzle drawn, the repaired one,
which the repair library and ``repair --out`` build alike: the kept edges in their
order and with their ids, then the added edges in the order of the changes. So the
k-th of ``n`` added edges is edge ``m - n + k`` of the ``m`` drawn, and a recoloured
edge is the one its change names (``edge``: the index in the puzzle as given for a
``Change``, the id in the JSON), moved down by the removed edges before it. An index
whose edge lacks the mark's ends and colour is not trusted: the mark then goes on the
one edge that has them, or on none (with a note) when there are several.

>>> e = Emphasis.from_changes([{"op": "add", "from": "AA", "to": "AB", "colour": "green"}])
>>> e.added[0].tail, e.added[0].head, e.added[0].colour, e.is_empty
('AA', 'AB', 'green', False)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import Puzzle

__all__ = ["EdgeMark", "Emphasis", "Placed"]


@dataclass(frozen=True, slots=True)
class EdgeMark:
    """One changed edge: its ends (node names, either order), its colour (``None`` for an
    uncoloured edge), for a recoloured edge the colour it had before, and for a
    recoloured or removed edge the edge its change names (``edge``: an index into the
    puzzle as given, or an id as the JSON writes it; ``None`` for an added edge)."""

    tail: str
    head: str
    colour: str | None = None
    old_colour: str | None = None
    edge: int | str | None = None

    def matches(self, tail: str, head: str, colour: str | None) -> bool:
        """Whether an edge with these ends (either order) and ``colour`` is this one."""
        return {tail, head} == {self.tail, self.head} and colour == self.colour


@dataclass(frozen=True, slots=True)
class Placed:
    """A mark and where it is drawn: ``change`` is ``add``, ``recolour`` or ``remove``;
    ``edge`` the index of the marked edge in the puzzle drawn (``None``: not found there,
    or removed from it, when the removed edge's own name is ``mark.edge``)."""

    change: str
    mark: EdgeMark
    edge: int | None
    why: str = ""


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
            tail, head, colour, old, edge = fields
            lists[op].append(EdgeMark(str(tail), str(head),
                                      None if colour is None else str(colour),
                                      None if old is None else str(old),
                                      None if op == "add" else _edge_name(edge)))
        return cls(tuple(lists["add"]), tuple(lists["recolour"]), tuple(lists["remove"]), note)

    def place(self, puzzle: Puzzle) -> list[Placed]:
        """Every mark with the index of its edge in ``puzzle``, the repaired puzzle drawn
        (see the module docstring): added, then recoloured, then removed."""
        m, n_add = puzzle.num_edges, len(self.added)
        taken: set[int] = set()
        out = []
        for k, mark in enumerate(self.added):
            out.append(_settle(puzzle, "add", mark, m - n_add + k, taken))
        gone = sorted(mark.edge for mark in self.removed if isinstance(mark.edge, int))
        for mark in self.recoloured:
            guess: int | None = None
            if isinstance(mark.edge, int):
                guess = mark.edge - bisect_left(gone, mark.edge)
            elif isinstance(mark.edge, str):
                guess = next((e for e in range(m) if str(puzzle.edge_id(e)) == mark.edge),
                             None)
            out.append(_settle(puzzle, "recolour", mark, guess, taken))
        out += [Placed("remove", mark, None) for mark in self.removed]
        return out


def _settle(puzzle: Puzzle, change: str, mark: EdgeMark, guess: int | None,
            taken: set[int]) -> Placed:
    """``mark`` on edge ``guess`` when that edge has its ends and colour, else on the
    only untaken edge that has them, else on none (``why`` says so)."""
    def fits(e: int) -> bool:
        return e not in taken and mark.matches(puzzle.nodes[puzzle.tail[e]],
                                               puzzle.nodes[puzzle.head[e]],
                                               puzzle.colour_name(e))

    if guess is None or not 0 <= guess < puzzle.num_edges or not fits(guess):
        alike = [e for e in range(puzzle.num_edges) if fits(e)]
        what = "added" if change == "add" else "recoloured"
        if not alike:
            return Placed(change, mark, None, f"(The {what} edge {mark.tail}–{mark.head} "
                                              "is not in this puzzle.)")
        if len(alike) > 1:
            return Placed(change, mark, None, f"(The {what} edge {mark.tail}–{mark.head} is "
                                              f"one of {len(alike)} alike; the changes do "
                                              "not say which, so none is marked.)")
        guess = alike[0]
    taken.add(guess)
    return Placed(change, mark, guess)


def _edge_name(edge: Any) -> int | str | None:
    """An edge as a change names it: an index (an int) or an id (text), else ``None``."""
    if edge is None or isinstance(edge, bool):
        return None
    return edge if isinstance(edge, int) else str(edge)


def _fields(change: Mapping[str, Any] | Any) -> tuple[str, tuple[Any, Any, Any, Any, Any]]:
    """The op and (from, to, colour, old colour, edge) of one change, JSON or object."""
    if isinstance(change, Mapping):
        if "from" not in change or "to" not in change:
            raise TrailkitError(f"a repair change needs 'from' and 'to': {dict(change)!r}")
        return str(change.get("op", "")), (
            change["from"], change["to"], change.get("colour", change.get("color")),
            change.get("old_colour", change.get("old_color")), change.get("edge"))
    op = getattr(change, "op", None)
    tail = getattr(change, "u", getattr(change, "tail", None))
    head = getattr(change, "v", getattr(change, "head", None))
    if op is None or tail is None or head is None:
        raise TrailkitError(f"a repair change needs op, u and v (or their JSON form "
                            f"with from and to): {change!r}")
    op = getattr(op, "value", op)  # an enum member reads as its value
    return str(op), (tail, head, getattr(change, "colour", None),
                     getattr(change, "old_colour", None), getattr(change, "edge", None))
