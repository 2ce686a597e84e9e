"""The ``repair:`` block of a spec read into :class:`~trailkit.models.repair_rules.
RepairRules` (what a repair may change, CONTRACT.md v1.1, section 1; its keys ``add``,
``colours``, ``recolour``, ``remove`` and ``protect`` are shown in
:mod:`trailkit.models.repair_rules`).

Read after the edges and the layout, so node names and the colour palette are known: a
protected node or a candidate edge's end that names no node, a colour outside the rule,
or ``add: layout`` without a ``layout:`` is a located error (with a "did you mean" hint
where one helps). Without ``add:`` new edges go between touching nodes when the spec
has a ``layout:``, else between any two (:meth:`~trailkit.models.repair_rules.
RepairRules.default`). The rules themselves live in :mod:`trailkit.models.repair_rules`,
which the solvers import without the spec reader.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> reader.number_names(["a", "b"])
[0, 1]
>>> read_repair_rules(reader, compose("{add: [a b], protect: b}", "s.yaml"), None,
...                   has_layout=False).describe()
'1 candidate edges; nothing touching b'
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.repair_rules import ADD_MODES, CandidateEdge, RepairRules
from trailkit.models.spec.edges.forms import read_edge
from trailkit.models.spec.messages import hint
from trailkit.models.spec.state import SpecReader

__all__ = ["read_repair_rules"]

_KEYS = ("add", "colours", "recolour", "remove", "protect")


def read_repair_rules(reader: SpecReader, node: yaml.Node, palette: tuple[str, ...] | None,
                      *, has_layout: bool = True) -> RepairRules:
    """Read the ``repair:`` mapping ``node``; ``palette`` holds the rule's colours."""
    entries = reader.mapping(node, "repair")
    reader.check_keys(entries, _KEYS, "repair", "repair")
    rules: dict[str, Any] = {}
    if "add" in entries:
        rules["add"] = _read_add(reader, entries["add"][1], palette, has_layout)
    else:
        rules["add"] = RepairRules.default(has_layout=has_layout).add
    if "colours" in entries:
        colours = _read_colours(reader, entries["colours"][1], palette)
        if colours is not None:
            rules["colours"] = colours
    for key in ("recolour", "remove"):
        if key in entries:
            rules[key] = reader.boolean(entries[key][1], f"repair.{key}")
    if "protect" in entries:
        value = entries["protect"][1]
        items = reader.sequence(value, "repair.protect") \
            if isinstance(value, yaml.SequenceNode) else [value]
        rules["protect"] = frozenset(_node_name(reader, item, f"repair.protect[{i}]")
                                     for i, item in enumerate(items))
    return RepairRules(**rules)


def _read_add(reader: SpecReader, value: yaml.Node, palette: tuple[str, ...] | None,
              has_layout: bool) -> str | tuple[CandidateEdge, ...]:
    """``add:``: a mode of :data:`ADD_MODES`, or candidate edges written as ``edges:``."""
    if isinstance(value, yaml.SequenceNode):
        candidates = []
        for i, item in enumerate(reader.sequence(value, "repair.add")):
            path = f"repair.add[{i}]"
            u, v, c, one_way, _ = read_edge(reader, item, path)
            _node_name(reader, item, path, u)
            _node_name(reader, item, path, v)
            if c is not None:
                c = _colour_name(reader, item, path, c, palette)
            candidates.append(CandidateEdge(u, v, c, one_way))
        return tuple(candidates)
    mode = reader.choice(value, "repair.add", ADD_MODES)
    if mode == "layout" and not has_layout:
        raise reader.fail(value, "repair.add is 'layout', but the spec has no "
                          "'layout:' block of node positions; add one, or use "
                          "'any' or a list of candidate edges")
    return mode


def _read_colours(reader: SpecReader, value: yaml.Node, palette: tuple[str, ...] | None
                  ) -> tuple[str, ...] | None:
    """``colours:``: ``any`` (``None``), one colour or a list, each of the rule."""
    if isinstance(value, yaml.SequenceNode):
        return tuple(
            _colour_name(reader, item, f"repair.colours[{i}]",
                         reader.scalar_text(item, f"repair.colours[{i}]"), palette)
            for i, item in enumerate(reader.sequence(value, "repair.colours")))
    if reader.scalar_text(value, "repair.colours") != "any":
        text = reader.scalar_text(value, "repair.colours")
        return (_colour_name(reader, value, "repair.colours", text, palette),)
    return None


def _node_name(reader: SpecReader, item: yaml.Node, path: str, name: str | None = None) -> str:
    name = reader.name_text(item, path) if name is None else name
    if name not in reader.node_index:
        raise reader.fail(item, f"{path} names {name!r}, which is no node of the puzzle"
                          f"{hint(name, reader.node_names)}")
    return str(name)


def _colour_name(reader: SpecReader, item: yaml.Node, path: str, text: str,
                 palette: tuple[str, ...] | None) -> str:
    if palette is None or text not in palette:
        choices = ", ".join(palette) if palette else "none: the puzzle has no colours"
        raise reader.fail(item, f"unknown colour {text!r} in {path}"
                          f"{hint(text, palette or ())} (colours are {choices})")
    return text
