"""Changes to a puzzle (add, remove, recolour an edge) and the puzzle with them applied.

A :class:`Change` names nodes and colours by the spec's names, so it reads the same in
text, JSON and drawings; removed and recoloured edges also carry the index of the edge
in the original puzzle (``edge``). :func:`apply_changes` builds the repaired puzzle:
kept edges first, in their order and with their ids, then the added edges, whose ids
continue the original numbering (so a repaired spec written out lists the new edge
last and its position is its id).

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")], closed=True)
>>> q = apply_changes(p, [Change(Op.ADD, "c", "a")])
>>> q.num_edges, q.edge_id(2), q.closed
(3, 2, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from trailkit.models.puzzle import Puzzle

__all__ = ["Change", "Op", "apply_changes", "changes_json", "describe_changes"]


class Op(StrEnum):
    """What a change does."""

    ADD = "add"
    REMOVE = "remove"
    RECOLOUR = "recolour"


@dataclass(frozen=True, slots=True)
class Change:
    """One change: ``op`` on the edge between nodes ``u`` and ``v`` (names).

    ``colour`` is the new edge's colour (add) or the new colour (recolour);
    ``old_colour`` the colour before a recolouring; ``edge`` the original edge's index
    (remove, recolour; ``None`` for an added edge); ``directed``: a one-way new edge.
    """

    op: Op
    u: str
    v: str
    colour: str | None = None
    old_colour: str | None = None
    edge: int | None = None
    directed: bool = False

    def touches(self) -> tuple[str, str]:
        """The two nodes the change touches."""
        return self.u, self.v

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """The contract's change object: ``op``, ``from``, ``to``, ``colour`` (and
        ``old_colour`` for a recolouring, ``edge`` the id for remove and recolour)."""
        out: dict[str, Any] = {"op": self.op.value, "from": self.u, "to": self.v,
                               "colour": self.colour}
        if self.op is Op.RECOLOUR:
            out["old_colour"] = self.old_colour
        if self.edge is not None:
            out["edge"] = puzzle.edge_id(self.edge)
        if self.directed:
            out["directed"] = True
        return out

    def describe(self, puzzle: Puzzle) -> str:
        """The change in words: ``add a new green edge AA-AB`` (the CLI says planks, dominoes)."""
        arrow = "->" if self.directed else "-"
        colour = f"{self.colour} " if self.colour else ""
        if self.op is Op.ADD:
            return f"add a new {colour}edge {self.u}{arrow}{self.v}"
        ident = "" if self.edge is None else f" {puzzle.edge_id(self.edge)}"
        old = f"{self.old_colour} " if self.old_colour else ""
        if self.op is Op.REMOVE:
            return f"remove the {old or colour}edge{ident} {self.u}{arrow}{self.v}"
        return f"recolour the {old}edge{ident} {self.u}{arrow}{self.v} {self.colour}"

    def outcome(self, puzzle: Puzzle) -> str:
        """The change as done, for a repaired spec's name: ``green edge AA-AB added``,
        ``edge 3 A-B removed``, ``blue edge 7 A-E recoloured red``."""
        arrow = "->" if self.directed else "-"
        ident = "" if self.edge is None else f" {puzzle.edge_id(self.edge)}"
        if self.op is Op.ADD:
            colour = f"{self.colour} " if self.colour else ""
            return f"{colour}edge {self.u}{arrow}{self.v} added"
        if self.op is Op.REMOVE:
            was = self.old_colour or self.colour
            return f"{was + ' ' if was else ''}edge{ident} {self.u}{arrow}{self.v} removed"
        was = f"{self.old_colour} " if self.old_colour else ""
        return f"{was}edge{ident} {self.u}{arrow}{self.v} recoloured {self.colour}"


def describe_changes(puzzle: Puzzle, changes: Iterable[Change]) -> str:
    """Several changes in words, joined by ``; ``."""
    return "; ".join(c.describe(puzzle) for c in changes)


def changes_json(puzzle: Puzzle, changes: Iterable[Change]) -> list[dict[str, Any]]:
    """The contract's ``changes`` list."""
    return [c.to_json(puzzle) for c in changes]


def apply_changes(puzzle: Puzzle, changes: Sequence[Change]) -> Puzzle:
    """The puzzle with ``changes`` applied (see the module docstring).

    The result keeps every rule of ``puzzle`` and drops its ``expect:`` block (that
    was about the puzzle as written). Raises ``ValueError`` for a change that does
    not fit the puzzle (an unknown node or colour): a bug in whoever made it.
    """
    removed = {c.edge for c in changes if c.op is Op.REMOVE}
    recoloured = {c.edge: c.colour for c in changes if c.op is Op.RECOLOUR}
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    palette = _Palette(puzzle)
    need_colour = puzzle.colour is not None or any(c.colour for c in changes)
    tail: list[int] = []
    head: list[int] = []
    colour: list[int] = []
    directed: list[bool] = []
    ids: list[Any] = []
    for e in range(puzzle.num_edges):
        if e in removed:
            continue
        tail.append(puzzle.tail[e])
        head.append(puzzle.head[e])
        was = puzzle.colour[e] if puzzle.colour is not None else -1
        colour.append(palette.index(recoloured[e]) if e in recoloured else was)
        directed.append(puzzle.is_directed(e))
        ids.append(puzzle.edge_id(e))
    added = [c for c in changes if c.op is Op.ADD]
    for change, new_id in zip(added, _fresh_ids(puzzle, len(added)), strict=True):
        tail.append(index[change.u])
        head.append(index[change.v])
        colour.append(palette.index(change.colour))
        directed.append(change.directed)
        ids.append(new_id)
    default_ids = all(isinstance(x, int) and x == i for i, x in enumerate(ids))
    return replace(
        puzzle, nodes=tuple(puzzle.nodes), tail=tail, head=head,
        directed=directed if any(directed) else None,
        colour=colour if need_colour else None, colour_names=tuple(palette.names),
        edge_ids=None if default_ids else ids, expect=None,
        meta={**puzzle.meta, "changes": tuple(changes)})


class _Palette:
    """The colour names of a puzzle being changed, in the order of their indices: a
    change may name a colour the puzzle has no edge of yet, which is added at the end,
    unless the puzzle's colour rule fixes the palette (then the change is a bug)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.names = list(puzzle.colour_names)
        self.fixed = puzzle.colours is not None

    def index(self, name: str | None) -> int:
        """The index of colour ``name`` (``-1`` for none), adding it when it is new."""
        if name is None:
            return -1
        if name not in self.names:
            if self.fixed:
                raise ValueError(f"colour {name!r} is not in the colour rule")
            self.names.append(name)
        return self.names.index(name)


def _fresh_ids(puzzle: Puzzle, count: int) -> list[int]:
    """``count`` ids for added edges: the smallest numbers from ``num_edges`` up that no
    edge of ``puzzle`` has as its id (compared as text, as a spec writes them), so that
    every edge keeps an id of its own."""
    used_ids = {str(puzzle.edge_id(e)) for e in range(puzzle.num_edges)}
    next_id = puzzle.num_edges
    fresh: list[int] = []
    for _ in range(count):
        while str(next_id) in used_ids:
            next_id += 1
        fresh.append(next_id)
        used_ids.add(str(next_id))
        next_id += 1
    return fresh
