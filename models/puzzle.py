"""The one intermediate form every puzzle kind lowers to: a general *walk* puzzle.

A :class:`Puzzle` is a multigraph (nodes by index, edges as parallel arrays so a
million-edge puzzle stays small and fast) plus the rules a walk must obey:

* ``use``: every edge exactly once, at most once, or any number of times;
* ``colours``: which edge colour may follow which (a cycle or a transition table);
* ``first``: the colours the first step may have;
* ``start`` / ``end``: the node sets a walk may start and end in (``None`` = any);
* ``closed``: the walk ends where it started, and with a colour rule the colour
  order also holds across the join (the ring could be walked round again);
* ``objective``: any walk, a shortest one, or a longest one (at-most-once walks);
* the node rules: ``visit`` (how often a node may hold a position of the walk: any
  number of times, at most once, or every node not avoided exactly once), ``via``
  (nodes the walk must pass), ``avoid`` (nodes it must not pass) and ``at`` (a node
  given a position, numbered from 1 at the start; a closed walk's return to its start
  is no new position).

Backends see only this form, so a new puzzle kind is a few lines of lowering in
:mod:`trailkit.models.spec` and a new backend works for every kind.

>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> p.num_nodes, p.num_edges, p.node_name(p.tail[1])
(3, 3, 'b')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

__all__ = ["ColourRule", "EdgeUse", "NodeVisit", "Objective", "Puzzle"]


class EdgeUse(StrEnum):
    """How often a walk may use each edge."""

    EXACTLY_ONCE = "exactly-once"
    AT_MOST_ONCE = "at-most-once"
    ANY = "any"


class NodeVisit(StrEnum):
    """How often a walk may pass each node (hold one of its positions)."""

    ANY = "any"
    AT_MOST_ONCE = "at-most-once"
    EVERY_ONCE = "every-once"  # at most once, and every node not avoided: Hamiltonian


class Objective(StrEnum):
    """What makes one walk better than another."""

    ANY = "any"
    SHORTEST = "shortest"
    LONGEST = "longest"  # at-most-once walks: the most edges one walk can use


@dataclass(frozen=True, slots=True)
class ColourRule:
    """Which colour may follow which, by colour index.

    ``successors[c]`` is the set of colours allowed right after a step of colour ``c``.
    ``cycle`` holds the cyclic order when the rule was written as one (for messages).

    >>> rule = ColourRule.from_cycle(["red", "blue", "green"])
    >>> rule.allows(0, 1), rule.allows(1, 0), rule.allows(2, 0)
    (True, False, True)
    """

    names: tuple[str, ...]
    successors: tuple[frozenset[int], ...]
    cycle: tuple[str, ...] | None = None

    @classmethod
    def from_cycle(cls, names: Sequence[str]) -> ColourRule:
        n = len(names)
        succ = tuple(frozenset({(i + 1) % n}) for i in range(n))
        return cls(tuple(names), succ, tuple(names))

    @classmethod
    def from_transitions(
        cls, names: Sequence[str], table: Mapping[str, Iterable[str]]
    ) -> ColourRule:
        index = {name: i for i, name in enumerate(names)}
        succ = tuple(frozenset(index[b] for b in table.get(a, ())) for a in names)
        return cls(tuple(names), succ, None)

    def allows(self, before: int, after: int) -> bool:
        return after in self.successors[before]

    def index(self, name: str) -> int:
        return self.names.index(name)

    def describe(self) -> str:
        if self.cycle is not None:
            return " → ".join([*self.cycle, self.cycle[0]])
        parts = []
        for i, name in enumerate(self.names):
            nxt = ", ".join(self.names[j] for j in sorted(self.successors[i])) or "nothing"
            parts.append(f"{name} → {nxt}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Puzzle:
    """A walk puzzle in the intermediate form (see the module docstring).

    Edge ``e`` runs between ``tail[e]`` and ``head[e]`` (node indices); it is one-way
    from tail to head when ``directed[e]`` is true. ``colour[e]`` is an index into
    ``colour_names`` (or -1 for an uncoloured edge; a colour rule uses the same
    indices), and ``edge_ids[e]`` is the id the spec gave it (its 0-based position
    unless written). ``kind`` is the spec kind the puzzle came from; backends must not
    depend on it, only reporting does.

    ``layout`` holds the node positions a spec gave (for drawings); a spec that says
    ``layout: auto`` leaves it ``None`` and sets ``meta["layout"] = "auto"``, asking a
    drawing to compute positions. A puzzle may have no nodes at all (an empty set of
    dominoes); its only walk is :meth:`Walk.nowhere <trailkit.models.answer.Walk.nowhere>`.
    """

    kind: str
    nodes: tuple[str, ...]
    tail: Sequence[int]
    head: Sequence[int]
    directed: Sequence[bool] | None = None
    colour: Sequence[int] | None = None
    colour_names: tuple[str, ...] = ()
    edge_ids: Sequence[Any] | None = None
    use: EdgeUse = EdgeUse.EXACTLY_ONCE
    colours: ColourRule | None = None
    first: frozenset[int] | None = None
    start: frozenset[int] | None = None
    end: frozenset[int] | None = None
    closed: bool = False
    objective: Objective = Objective.ANY
    name: str | None = None
    description: str | None = None
    source: str | None = None
    expect: Mapping[str, Any] | None = None
    layout: Mapping[str, tuple[float, float]] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    visit: NodeVisit = NodeVisit.ANY
    via: frozenset[int] = frozenset()
    avoid: frozenset[int] = frozenset()
    at: Mapping[int, int] = field(default_factory=dict)
    """Given positions: node index to its position (1 is the start)."""
    repair: Any = None  # the spec's repair: block (models.repair_rules.RepairRules) or None
    edge_arrays: Mapping[str, tuple[Sequence[int], np.ndarray]] = field(
        default_factory=dict, compare=False, repr=False)
    """NumPy copies of edge lists (``"tail"``, ``"head"``, ``"colour"``) that the spec
    reader had anyway, each with the list it copies: see :meth:`int_array`."""

    # ----------------------------------------------------------------- sizes
    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    @property
    def num_edges(self) -> int:
        return len(self.tail)

    def int_array(self, name: str) -> np.ndarray:
        """Edge list ``name`` (``"tail"``, ``"head"`` or ``"colour"``) as an int64 array,
        for the compiled algorithms: the copy the spec reader kept when it is a copy of
        this very list (so a million-item list is not converted back), else
        converted now. Treat it as read-only: it may be shared."""
        values = getattr(self, name)
        kept = self.edge_arrays.get(name)
        if kept is not None and kept[0] is values:
            return kept[1]
        if isinstance(values, np.ndarray):
            return values.astype(np.int64, copy=False)
        return np.fromiter(values, dtype=np.int64, count=len(values))

    @property
    def has_node_rules(self) -> bool:
        """Does any node rule (``visit``, ``via``, ``avoid``, ``at``) restrict the walk?"""
        return bool(self.visit is not NodeVisit.ANY or self.via or self.avoid or self.at)

    # ------------------------------------------------------------- questions
    def node_name(self, v: int) -> str:
        return self.nodes[v]

    def node_index(self, name: str) -> int:
        return self.nodes.index(name)

    def edge_id(self, e: int) -> int | str:
        """Edge ``e``'s id: its 0-based position, or, when the spec names any edge's id,
        the id as text for every edge (so one spec's ids are all of one type)."""
        return e if self.edge_ids is None else str(self.edge_ids[e])

    def is_directed(self, e: int) -> bool:
        return bool(self.directed is not None and self.directed[e])

    @property
    def any_directed(self) -> bool:
        return self.directed is not None and any(self.directed)

    @property
    def all_directed(self) -> bool:
        return self.directed is not None and all(self.directed)

    def colour_name(self, e: int) -> str | None:
        """The colour written on edge ``e``, or ``None`` for an uncoloured edge."""
        if self.colour is None:
            return None
        c = self.colour[e]
        return None if c < 0 else self.colour_names[c]

    # ------------------------------------------------------- the rules, once
    # The backends ask these; the verifier (models/checking/verify.py) keeps its own reading.
    def may_start(self, v: int) -> bool:
        """May a walk start at node ``v``?"""
        return self.start is None or v in self.start

    def may_end(self, v: int) -> bool:
        """May a walk end at node ``v``?"""
        return self.end is None or v in self.end

    def degrees(self) -> list[int]:
        """Edge ends at each node (a self-loop counts twice), whatever the directions."""
        deg = [0] * self.num_nodes
        for ends in (self.tail, self.head):
            for v, c in Counter(ends).items():
                deg[v] += c
        return deg

    def oriented_edges(self) -> list[tuple[int, int]]:
        """Every (edge, orientation) a step may take: orientation 0 runs tail to head, 1
        head to tail (two-way edges that are no loop); edges a colour rule makes
        unusable are left out."""
        out = []
        for e in range(self.num_edges):
            if not self.usable(e):
                continue
            out.append((e, 0))
            if not self.is_directed(e) and self.tail[e] != self.head[e]:
                out.append((e, 1))
        return out

    def start_nodes(self) -> list[int]:
        """The nodes a walk may start at, in index order."""
        return list(range(self.num_nodes)) if self.start is None else sorted(self.start)

    def end_nodes(self) -> list[int]:
        """The nodes a walk may end at, in index order."""
        return list(range(self.num_nodes)) if self.end is None else sorted(self.end)

    def usable(self, e: int) -> bool:
        """May a walk step along edge ``e`` at all? (Under a colour rule an uncoloured
        edge never can.)"""
        return self.colours is None or (self.colour is not None and self.colour[e] >= 0)

    def colour_may_follow(self, before: int, after: int) -> bool:
        """May a step of colour ``after`` come right after one of colour ``before``
        (colour indices; -1 is uncoloured)? Without a colour rule, always."""
        rule = self.colours
        return rule is None or (before >= 0 and after >= 0 and rule.allows(before, after))

    def may_come_first(self, colour: int) -> bool:
        """May a step of this colour be the walk's first step?"""
        return self.colours is None or self.first is None or colour in self.first

    def empty_walk_nodes(self) -> list[int]:
        """The nodes on which the empty walk (no step) solves the puzzle, in index order:
        none when there are edges and every edge must be used or the walk must close. The
        empty walk holds one position, its node's: the node rules must allow that."""
        if self.num_edges and (self.use is EdgeUse.EXACTLY_ONCE or self.closed):
            return []
        return [v for v in range(self.num_nodes)
                if self.may_start(v) and self.may_end(v) and self.may_stand_alone(v)]

    def may_stand_alone(self, v: int) -> bool:
        """Do the node rules allow a walk whose one position is node ``v``?"""
        if not self.has_node_rules:
            return True
        if v in self.avoid or not self.via <= {v}:
            return False
        if any(node != v or position != 1 for node, position in self.at.items()):
            return False
        return self.visit is not NodeVisit.EVERY_ONCE or all(
            u == v or u in self.avoid for u in range(self.num_nodes))

    @property
    def wants_longest(self) -> bool:
        """``objective: longest`` on an at-most-once puzzle (elsewhere it means nothing:
        an exactly-once walk has one length, a reusable one none that is longest)."""
        return self.objective is Objective.LONGEST and self.use is EdgeUse.AT_MOST_ONCE

    def describe_edge(self, e: int) -> str:
        arrow = "->" if self.is_directed(e) else "-"
        colour = self.colour_name(e)
        text = f"{self.nodes[self.tail[e]]}{arrow}{self.nodes[self.head[e]]}"
        return f"edge {self.edge_id(e)} ({text}{', ' + colour if colour else ''})"

    # ------------------------------------------------------------ building
    @classmethod
    def build(
        cls,
        *,
        kind: str = "walk",
        edges: Iterable[Sequence[Any]],
        nodes: Iterable[str] = (),
        directed: Iterable[bool] | None = None,
        colours: ColourRule | None = None,
        colour_names: Sequence[str] = (),
        start: Iterable[str] | None = None,
        end: Iterable[str] | None = None,
        first: Iterable[str] | None = None,
        via: Iterable[str] = (),
        avoid: Iterable[str] = (),
        at: Mapping[str, int] | None = None,
        **rules: Any,
    ) -> Puzzle:
        """Build a puzzle from ``(u, v)`` or ``(u, v, colour)`` tuples of node names.

        A convenience for tests and the Python API; specs go through
        :func:`trailkit.models.spec.load_spec`, which validates and locates errors.
        """
        index, tail, head, colour, palette = _numbered(nodes, edges, colours, colour_names)
        directed_list = list(directed) if directed is not None else None
        return cls(
            kind=kind,
            nodes=tuple(index),
            tail=tail,
            head=head,
            directed=directed_list,
            colour=colour,
            colour_names=tuple(palette),
            colours=colours,
            **_indexed_rules(index, colours, start=start, end=end, first=first, via=via,
                             avoid=avoid, at=at),
            **rules,
        )


def _indexed_rules(index: Mapping[str, int], colours: ColourRule | None, *,
                   start: Iterable[str] | None, end: Iterable[str] | None,
                   first: Iterable[str] | None, via: Iterable[str], avoid: Iterable[str],
                   at: Mapping[str, int] | None) -> dict[str, Any]:
    """:meth:`Puzzle.build`'s rules that name nodes (and first colours), as the indices
    a :class:`Puzzle` holds; an unknown name raises :class:`KeyError`."""
    return {
        "start": None if start is None else frozenset(index[str(s)] for s in start),
        "end": None if end is None else frozenset(index[str(s)] for s in end),
        "first": None if first is None or colours is None
        else frozenset(colours.index(c) for c in first),
        "via": frozenset(index[str(v)] for v in via),
        "avoid": frozenset(index[str(v)] for v in avoid),
        "at": {index[str(v)]: int(p) for v, p in (at or {}).items()},
    }


def _numbered(nodes: Iterable[str], edges: Iterable[Sequence[Any]],
              colours: ColourRule | None, colour_names: Sequence[str]
              ) -> tuple[dict[str, int], list[int], list[int], list[int] | None, list[str]]:
    """Number the nodes (``nodes`` first, then each edge's ends as they come) and the
    colours of :meth:`Puzzle.build`'s edges: the node index (in number order), tails,
    heads, edge colours (``None`` when no edge has one and there is no rule) and the
    colour names."""
    index: dict[str, int] = {}

    def node(name: Any) -> int:
        return index.setdefault(str(name), len(index))

    for name in nodes:
        node(name)
    palette = list(colours.names if colours is not None else colour_names)
    tail: list[int] = []
    head: list[int] = []
    colour: list[int] = []
    any_colour = False
    for edge in edges:
        tail.append(node(edge[0]))
        head.append(node(edge[1]))
        if len(edge) > 2 and edge[2] is not None:
            if str(edge[2]) not in palette:
                if colours is not None:
                    raise ValueError(f"colour {edge[2]!r} is not in the colour rule")
                palette.append(str(edge[2]))
            colour.append(palette.index(str(edge[2])))
            any_colour = True
        else:
            colour.append(-1)
    return index, tail, head, colour if any_colour or colours is not None else None, palette
