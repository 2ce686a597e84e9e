"""``nodes:`` and ``layout:``: the names a spec declares, and where a drawing puts them.

With ``nodes:`` every edge end, ``start``, ``end``, ``goal`` and ``layout:`` key must be
listed there; a name listed twice is a problem. ``layout: auto`` asks a drawing for a
computed layout (the caller keeps it as ``meta["layout"] = "auto"``).

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, budget=100)
>>> read_nodes(reader, compose("[a, b, a]", "s.yaml")); reader.node_names
['a', 'b']
>>> reader.problems[0].message
"node 'a' is listed twice in 'nodes:' (first on line 1); remove one"
"""

from __future__ import annotations

from functools import partial

import yaml

from trailkit.models.spec.messages import hint
from trailkit.models.spec.state import SpecReader
from trailkit.models.support.hints import short

__all__ = ["read_layout", "read_nodes"]


def read_nodes(reader: SpecReader, node: yaml.Node) -> None:
    """``nodes:``: it declares the nodes; a name listed twice is a problem."""
    items = reader.sequence(node, "nodes")
    reader.declared = {}
    for i, item in enumerate(items):
        path = f"nodes[{i}]"
        name = reader.guard(path, None, partial(reader.name_text, item, path))
        if name is None:
            reader.nodes_complete = False
        elif name in reader.declared:
            first = reader.loc(reader.declared[name]).line
            reader.record(reader.fail(item, f"node {short(name)!r} is listed twice in 'nodes:' "
                                      f"(first on line {first}); remove one"), path)
        else:
            reader.declared[name] = item
            reader.node_id(name)


def read_layout(reader: SpecReader, node: yaml.Node) -> dict[str, tuple[float, float]] | str:
    """Positions by node name, or ``"auto"`` (a drawing computes them); every key must
    name a node of the puzzle."""
    if isinstance(node, yaml.ScalarNode) and node.value == "auto":
        return "auto"
    if isinstance(node, yaml.ScalarNode):
        raise reader.fail(node, "layout must be 'auto' or a mapping of node positions like "
                          f"{{a: [0, 1]}}, not {short(node.value)!r}"
                          f"{hint(node.value, ['auto'])}", "layout")
    out: dict[str, tuple[float, float]] = {}
    for name, (key_node, value) in reader.mapping(node, "layout").items():
        path = f"layout.{name}"
        position = reader.guard(path, None,
                                partial(_read_position, reader, key_node, value, path))
        if position is not None:
            out[key_node.value] = position
    return out


def _read_position(reader: SpecReader, key_node: yaml.Node, value: yaml.Node, path: str
                   ) -> tuple[float, float]:
    name = key_node.value
    if name not in reader.node_index and reader.names_known:
        where = "is not listed in 'nodes:'" if reader.declared is not None \
            else "is not a node of the puzzle"
        choices = reader.declared if reader.declared is not None else reader.node_names
        raise reader.fail(key_node, f"layout names {short(name)!r}, which {where}"
                          f"{hint(name, choices)}; fix the name or remove the entry", path)
    items = reader.sequence(value, path)
    if len(items) != 2:
        raise reader.fail(value, f"{path} must be a position [x, y]", path)
    return reader.number(items[0], f"{path}[0]"), reader.number(items[1], f"{path}[1]")
