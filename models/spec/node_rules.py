"""The node rules (CONTRACT 1.4 §7): ``visit`` (how often a node may hold a position of
the walk), ``via`` (checkpoints), ``avoid`` (nodes with no position) and ``at`` (a node
given a position, 1 being the start), read after the edges (they name nodes) and
checked against each other: a position below 1, two nodes given one position, a
position past the end of a walk through every node, or a node both required and
avoided is an input error. A position no walk can reach is not: the puzzle is
unsolvable.

>>> from trailkit.models.spec.composing import compose
>>> reader = SpecReader("s.yaml", None, 100)
>>> reader.number_names(["a", "b", "c"])
[0, 1, 2]
>>> top = reader.mapping(compose("visit: every-once\\nat: {a: 1, b: 4}", "s.yaml"), "the spec")
>>> read_node_rules(reader, top, NodeVisit.ANY)["at"]
{0: 1, 1: 4}
>>> p = reader.problems[0]
>>> p.location.line, p.location.column, p.message[:50]
(2, 15, 'at.b is position 4, but a walk that visits every n')
"""

from __future__ import annotations

from functools import partial
from typing import Any

import yaml

from trailkit.models.puzzle import NodeVisit
from trailkit.models.spec.messages import hint
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.spec.vocabulary import VISITS
from trailkit.models.support.hints import short

__all__ = ["read_node_rules"]


def read_node_rules(reader: SpecReader, top: Entries, default: NodeVisit) -> dict[str, Any]:
    """The :class:`Puzzle` fields ``visit``, ``via``, ``avoid`` and ``at`` of ``top``
    (``default``: the kind's ``visit``); only those the spec gives."""
    out: dict[str, Any] = {}
    visit = default
    if "visit" in top:
        visit = reader.guard("visit", default, lambda: NodeVisit(reader.choice(
            top["visit"][1], "visit", VISITS)))
    if visit is not NodeVisit.ANY:
        out["visit"] = visit
    named: dict[str, dict[int, yaml.Node]] = {}
    for key in ("via", "avoid"):
        if key in top:
            none: dict[int, yaml.Node] = {}
            named[key] = reader.guard(key, none, partial(_read_names, reader, top[key][1], key))
            out[key] = frozenset(named[key])
    if "at" in top:
        empty: dict[int, tuple[int, yaml.Node]] = {}
        given = reader.guard("at", empty, partial(_read_at, reader, top["at"][1]))
        named["at"] = {v: where for v, (_, where) in given.items()}
        out["at"] = {v: position for v, (position, _) in given.items()}
        if visit is NodeVisit.EVERY_ONCE:
            _check_last_position(reader, given, len(named.get("avoid", {})))
    _check_avoided(reader, named)
    return out


def _read_names(reader: SpecReader, node: yaml.Node, key: str) -> dict[int, yaml.Node]:
    """The nodes a list (or one name) ``key`` names, each with where it is written; a
    name that matches no node is a problem, with a "did you mean"."""
    listed = isinstance(node, yaml.SequenceNode)
    items = reader.sequence(node, key) if listed else [node]
    chosen: dict[int, yaml.Node] = {}
    for i, item in enumerate(items):
        path = f"{key}[{i}]" if listed else key
        number = reader.guard(path, None, partial(_node, reader, item, path, key))
        if number is not None:
            chosen.setdefault(number, item)
    return chosen


def _node(reader: SpecReader, item: yaml.Node, path: str, key: str) -> int | None:
    """The number of the node ``item`` names (``None``: unknown after a skipped entry)."""
    name = reader.name_text(item, path)
    number = reader.node_number(name)
    if number is not None or not reader.names_known:
        return number
    choices = reader.declared if reader.declared is not None else reader.node_names
    where = "is not listed in 'nodes:'" if reader.declared is not None \
        else "is no node of the puzzle"
    suggestion = hint(name, choices)
    if not suggestion and reader.board_corners is not None:
        first, last = reader.board_corners
        suggestion = f" (the board's cells are {first} to {last})"
    raise reader.fail(item, f"{key} names {short(name)!r}, which {where}{suggestion}; fix "
                      "the name", path)


def _read_at(reader: SpecReader, node: yaml.Node) -> dict[int, tuple[int, yaml.Node]]:
    """``at: {node: position}``: each node's position (at least 1) and where it is
    written; two nodes given one position is a problem."""
    held: dict[int, tuple[str, yaml.Node]] = {}
    out: dict[int, tuple[int, yaml.Node]] = {}
    for name, (key_node, value) in reader.mapping(node, "at").items():
        path = f"at.{name}"
        number = reader.guard(path, None, partial(_node, reader, key_node, path, "at"))
        position: int | None = reader.guard(path, None, partial(_position, reader, value, path))
        if position is None:
            continue
        if position in held:
            first, first_node = held[position]
            reader.record(reader.fail(value, f"at gives position {position} to both "
                                      f"{short(first)!r} (line {reader.loc(first_node).line}) "
                                      f"and {short(name)!r}; a position holds one node", path))
            continue
        held[position] = (name, value)
        if number is not None:
            out[number] = (position, value)
    return out


def _position(reader: SpecReader, value: yaml.Node, path: str) -> int:
    position = reader.integer(value, path, minimum=-(10 ** 9))
    if position < 1:
        raise reader.fail(value, f"{path} is position {position}, but positions are numbered "
                          "from 1 (the walk's start); give a position of at least 1", path)
    return position


def _check_last_position(reader: SpecReader, given: dict[int, tuple[int, yaml.Node]],
                         avoided: int) -> None:
    """Under ``visit: every-once`` the walk has one position per node not avoided."""
    if not reader.names_known:
        return
    last = len(reader.node_names) - avoided
    names = reader.node_names
    for v, (position, where) in given.items():
        if position > last:
            reader.record(reader.fail(
                where, f"at.{short(names[v])} is position {position}, but a walk that visits "
                f"every node once has only {last} positions ({last} nodes not avoided); "
                f"give a position from 1 to {last}", f"at.{names[v]}"))


def _check_avoided(reader: SpecReader, named: dict[str, dict[int, yaml.Node]]) -> None:
    """A node in ``avoid`` that ``via`` or ``at`` requires is a contradiction."""
    avoided = named.get("avoid", {})
    names = reader.node_names
    for key in ("via", "at"):
        both = [v for v in named.get(key, {}) if v in avoided]
        for v in both:
            reader.record(reader.fail(
                named[key][v], f"{short(names[v])!r} is in both '{key}' and 'avoid' (line "
                f"{reader.loc(avoided[v]).line}): a walk cannot both pass it and avoid it; "
                "remove it from one", key))
