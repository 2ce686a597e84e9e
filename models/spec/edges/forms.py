"""One edge of an ``edges:`` list, in each of its three written forms.

* a string ``"u v"``, ``"u v colour"``, ``"u -> v"`` (one-way) or ``"u -> v colour"``;
* a list ``[u, v]`` or ``[u, v, colour]`` (each item a name as written: ``[NO, 1:2]``);
* a mapping ``{from: u, to: v, colour: c, directed: true, id: e7}``.

Each gives ``(u, v, colour, one_way, id)`` (``colour`` and ``id`` ``None`` when not
written). The repair block's candidate edges are read by the same code.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> [read_edge(reader, item, "edges") for item in compose(
...     "[a -> b red, [b, c], {from: c, to: a, id: 7}]", "s.yaml").value]
[('a', 'b', 'red', True, None), ('b', 'c', None, False, None), ('c', 'a', None, False, 7)]
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.formats.textformats import EdgeTextError, edge_from_fields
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.vocabulary import YAML

__all__ = ["Edge", "edge_from_list", "edge_from_mapping", "edge_from_text", "read_edge"]

Edge = tuple[str, str, str | None, bool, Any]
"""``(u, v, colour or None, one_way, id or None)``."""
_MAPPING_KEYS = ("from", "to", "colour", "directed", "id")


def read_edge(reader: SpecReader, node: yaml.Node, path: str) -> Edge:
    """One edge from whichever of its three forms ``node`` is written in."""
    if isinstance(node, yaml.MappingNode):
        return edge_from_mapping(reader, node, path)
    if isinstance(node, yaml.SequenceNode):
        return edge_from_list(reader, node, path)
    return edge_from_text(reader, node, path)


def edge_from_text(reader: SpecReader, node: yaml.Node, path: str) -> Edge:
    """``"u v [colour]"`` or ``"u -> v [colour]"``."""
    parts = reader.scalar_text(node, path).split()
    if not parts:
        raise reader.fail(node, f"{path} is empty; write 'u v' or 'u v colour'")
    return _from_fields(reader, node, path, parts)


def edge_from_list(reader: SpecReader, node: yaml.Node, path: str) -> Edge:
    """``[u, v]`` or ``[u, v, colour]``, each item a name as written."""
    items = reader.sequence(node, path)
    parts = [reader.name_text(x, f"{path}[{j}]") for j, x in enumerate(items)]
    return _from_fields(reader, node, path, parts)


def _from_fields(reader: SpecReader, node: yaml.Node, path: str, parts: list[str]) -> Edge:
    try:
        u, v, c, one_way = edge_from_fields(parts)
    except EdgeTextError as exc:
        raise reader.fail(node, f"{path} {exc}") from None
    return u, v, c, one_way, None


def edge_from_mapping(reader: SpecReader, node: yaml.Node, path: str) -> Edge:
    """``{from: u, to: v}`` with optional ``colour``, ``directed`` and ``id`` (an id
    written as digits is a whole number, any other id its text)."""
    entries = reader.mapping(node, path)
    reader.check_keys(entries, _MAPPING_KEYS, path, "an edge")
    for key in ("from", "to"):
        if key not in entries:
            raise reader.fail(node, f"{path} is missing {key!r}; an edge needs 'from' and "
                              "'to'")
    u = reader.name_text(entries["from"][1], f"{path}.from")
    v = reader.name_text(entries["to"][1], f"{path}.to")
    colour_entry = entries.get("colour")
    c = reader.scalar_text(colour_entry[1], f"{path}.colour") if colour_entry else None
    one_way = reader.boolean(entries["directed"][1], f"{path}.directed") \
        if "directed" in entries else False
    edge_id: Any = None
    if "id" in entries:
        id_node = entries["id"][1]
        text = reader.scalar_text(id_node, f"{path}.id")
        edge_id = reader.integer(id_node, f"{path}.id") \
            if id_node.tag == YAML + "int" and text.isdigit() else text
    return u, v, c, one_way, edge_id
