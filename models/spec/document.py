"""A composed spec, top to bottom: its version and kind, the keys the kind accepts, then
the kind's lowering (:mod:`~trailkit.models.spec.kinds`) and the keys every kind
shares (``nodes``, ``expect``, ``layout``, ``repair``), into a :class:`Puzzle`.

Problems are collected as the reading goes (a bad edge is one problem and the edges
after it are still read); only those that leave the rest unreadable (no mapping, an
unsupported version, no or an unknown ``kind``, the alias budget) stop it.

>>> from trailkit.models.spec.composing import compose
>>> text = "trailkit: 1\\nkind: trail\\nedges: [a b, b q]\\nstart: z\\n"
>>> puzzle, found = read_document(SpecReader("s.yaml", None, 1000), compose(text, "s.yaml"))
>>> puzzle, [(p.location.line, p.location.column, p.path) for p in found]
(None, [(4, 8, 'start')])
"""

from __future__ import annotations

from functools import partial
from typing import Any

import yaml

from trailkit.models.errors import SpecError, SpecWarning
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec.endpoints import check_closed
from trailkit.models.spec.expect import read_expect
from trailkit.models.spec.kinds import LOWERINGS
from trailkit.models.spec.node_rules import read_node_rules
from trailkit.models.spec.nodes import read_layout, read_nodes
from trailkit.models.spec.repair_block import read_repair_rules
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.spec.vocabulary import COMMON_KEYS, KEYS, KINDS
from trailkit.models.support.deadline import on_time
from trailkit.models.support.hints import short

__all__ = ["errors_of", "loaded", "read_document"]


def read_document(reader: SpecReader, root: yaml.Node) -> tuple[Puzzle | None, list[SpecError]]:
    """The puzzle and its warnings, or ``None`` and every problem and warning found."""
    try:
        puzzle = _read_spec(reader, root)
    except SpecError as exc:  # one that leaves the rest unreadable
        reader.problems.append(exc)
        puzzle = None
    if reader.problems:
        return None, [*reader.problems, *reader.warnings]
    return puzzle, list(reader.warnings)


def errors_of(found: list[SpecError]) -> list[SpecError]:
    """The problems among ``found``, without the warnings."""
    return [p for p in found if not isinstance(p, SpecWarning)]


def loaded(puzzle: Puzzle | None, found: list[SpecError]) -> Puzzle:
    """The puzzle a reading gave, or its first problem raised (warnings do not count)."""
    errors = errors_of(found)
    if errors or puzzle is None:
        raise errors[0]
    return puzzle


def _read_spec(reader: SpecReader, root: yaml.Node) -> Puzzle:
    """Read the whole spec, recording problems; raise only those that stop the reading."""
    top = reader.mapping(root, "the spec")
    kind = _read_kind(reader, top, root)
    if kind == "tour":
        _fixed_by_tour(reader, top)
    reader.check_keys(top, (*COMMON_KEYS, *KEYS[kind]), "the spec", f"kind {kind!r}",
                      keep_going=True)
    rules: dict[str, Any] = {"kind": kind}
    for key in ("name", "description"):
        if key in top:
            rules[key] = reader.guard(key, None, partial(reader.scalar_text, top[key][1], key))
    if "nodes" in top and not reader.attempt("nodes",
                                             lambda: read_nodes(reader, top["nodes"][1])):
        reader.nodes_complete = False
    rules.update(LOWERINGS[kind](reader, top, root))
    check_closed(reader, top, rules)
    rules.update(read_node_rules(reader, top, NodeVisit.EVERY_ONCE if kind == "tour"
                                 else NodeVisit.ANY))
    _read_shared(reader, top, rules)
    on_time("the spec")
    return Puzzle(nodes=tuple(reader.node_names), source=reader.source, **rules)


def _read_kind(reader: SpecReader, top: Entries, root: yaml.Node) -> str:
    """``trailkit: 1`` (recorded when missing) and the ``kind``."""
    if "trailkit" not in top:
        reader.record(reader.fail(root, "missing required key 'trailkit' (the spec format "
                                  "version); add 'trailkit: 1' as the first line"))
    else:
        version_node = top["trailkit"][1]
        if reader.scalar_text(version_node, "trailkit") != "1":
            raise reader.fail(version_node, f"unsupported spec version "
                              f"{short(version_node.value)!r}; this trailkit reads "
                              "'trailkit: 1'", "trailkit")
    if "kind" not in top:
        raise reader.fail(root, f"missing required key 'kind'; choose one of {', '.join(KINDS)}")
    kind_node = top["kind"][1]
    if reader.scalar_text(kind_node, "kind") == "color-walk":
        kind_node.value = "colour-walk"
    return reader.choice(kind_node, "kind", KINDS)


def _fixed_by_tour(reader: SpecReader, top: Entries) -> None:
    """``visit`` and ``use`` in a tour: the kind fixes both (each recorded, then dropped)."""
    for key in ("visit", "use"):
        if key in top:
            reader.record(reader.fail(top[key][0], f"kind 'tour' fixes '{key}' (every node "
                                      "once, each edge at most once); remove it, or write "
                                      f"kind: walk with the '{key}' you want", key))
            del top[key]


def _read_shared(reader: SpecReader, top: Entries, rules: dict[str, Any]) -> None:
    """``expect``, ``layout`` and ``repair`` (after the edges: they name nodes and colours)."""
    if "expect" in top:
        rules["expect"] = reader.guard("expect", None,
                                       lambda: read_expect(reader, top["expect"][1]))
    if "layout" in top:
        layout = reader.guard("layout", None, lambda: read_layout(reader, top["layout"][1]))
        if layout == "auto":
            rules["meta"] = {**rules.get("meta", {}), "layout": "auto"}
            rules.pop("layout", None)
        elif isinstance(layout, dict):  # a board's grid, with the positions written over it
            rules["layout"] = {**rules.get("layout", {}), **layout}
    if "repair" in top:
        repair = reader.guard("repair", None, lambda: read_repair_rules(
            reader, top["repair"][1], rules.get("colour_names"),
            has_layout="layout" in rules))
        if repair is not None:
            rules["repair"] = repair
