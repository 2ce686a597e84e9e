"""Where a walk may start and end: ``start:``, ``end:`` / ``goal:`` (one node, a list,
or ``any``), and ``closed: true`` checked against them.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> reader.number_names(["a", "b"])
[0, 1]
>>> top = reader.mapping(compose("start: [b]", "s.yaml"), "the spec")
>>> read_ends(reader, top, "start"), read_ends(reader, top, "end")
(frozenset({1}), None)
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.errors import SpecError
from trailkit.models.spec.messages import hint, shown
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.support.hints import short

__all__ = ["check_closed", "read_ends", "read_goal"]


def read_ends(reader: SpecReader, top: Entries, key: str) -> frozenset[int] | None:
    """The nodes ``key`` (``start``, ``end``, ``goal``) allows; ``None``: any node."""
    if key not in top:
        return None
    return reader.guard(key, None, lambda: _read_node_set(reader, top[key][1], key))


def read_goal(reader: SpecReader, top: Entries) -> frozenset[int] | None:
    """``goal`` or ``end`` (the same; both is a problem)."""
    if "goal" in top and "end" in top:
        reader.record(reader.fail(top["goal"][0], "'goal' and 'end' mean the same; keep one"))
    return read_ends(reader, top, "goal" if "goal" in top else "end")


def _read_node_set(reader: SpecReader, node: yaml.Node, key: str) -> frozenset[int] | None:
    listed = isinstance(node, yaml.SequenceNode)
    items = reader.sequence(node, key) if listed else [node]
    if not items:
        raise reader.fail(node, f"{key} is an empty list: no node is allowed; name at least "
                          "one node, or write 'any'", key)
    chosen = set()
    for i, item in enumerate(items):
        path = f"{key}[{i}]" if listed else key
        name = reader.name_text(item, path)
        if name == "any" and not listed:
            return None
        number = reader.node_number(name)
        if number is None:
            if not reader.names_known:
                continue  # it may be an end of an edge that was left out
            raise _unknown_end(reader, item, path, name)
        chosen.add(number)
    return frozenset(chosen)


def _unknown_end(reader: SpecReader, item: yaml.Node, path: str, name: str) -> SpecError:
    """The problem of an end that names no node."""
    if reader.declared is not None:
        return reader.fail(item, f"{path} names {short(name)!r}, which is not listed "
                           f"in 'nodes:'{hint(name, reader.declared)}; fix the name, "
                           "or add it to 'nodes:'", path)
    return reader.fail(item, f"{path} names {short(name)!r}, which appears nowhere in "
                       f"the spec{hint(name, reader.node_names)}; list it under "
                       "'nodes:' if it really has no edges", path)


def check_closed(reader: SpecReader, top: Entries, rules: dict[str, Any]) -> None:
    """``closed: true`` with no node both an allowed start and an allowed end is a
    contradiction in the spec, not a puzzle without solutions."""
    written = next((k for k in ("closed", "end", "goal") if k in top), None)
    if not rules.get("closed") or written is None:  # closed by the kind (a tour) or not
        return
    start, end = rules.get("start"), rules.get("end")
    if start is None or end is None or start & end:
        return
    names = reader.node_names

    def listing(chosen: frozenset[int]) -> str:
        return shown(sorted(names[v] for v in chosen)) or "none"

    reader.record(reader.fail(top[written][1], "closed: true asks for a walk that ends where "
                              f"it starts, but no allowed start ({listing(start)}) is an "
                              f"allowed end ({listing(end)}); allow a common node, or set "
                              "closed: false", written))
