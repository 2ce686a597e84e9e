"""``colours:`` (the colour rule: a cycle, or a transition table) and ``first:``, and the
check that every colour a rule names is one the edges carry.

A colour the rule names that is on no edge is a typo when it is one edit away from a
colour on edges (``gren`` beside ``green``), or when a transition leads to it and it is
no key of the table (the walk would be stuck there); else it is allowed (a cycle may
name a colour no plank has: the walk never gets past it), with a warning for ``lint``.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> read_rule(SpecReader("s.yaml", None, 100), compose("[red, blue]", "s.yaml")).names
('red', 'blue')
"""

from __future__ import annotations

import yaml

from trailkit.models.puzzle import ColourRule
from trailkit.models.spec.messages import hint, shown
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.support.hints import one_edit_away, short

__all__ = ["check_rule_colours", "read_first", "read_rule"]


def read_rule(reader: SpecReader, node: yaml.Node) -> ColourRule:
    """``colours:``: a list (the cyclic order), ``{cycle: [...]}`` or
    ``{transitions: {colour: [next colours]}}``."""
    if isinstance(node, yaml.SequenceNode):
        return ColourRule.from_cycle(_read_palette(reader, node, "colours"))
    entries = reader.mapping(node, "colours")
    reader.check_keys(entries, ("cycle", "transitions"), "colours", "colours")
    if len(entries) != 1:
        raise reader.fail(node, "colours needs exactly one of 'cycle: [...]' or "
                          "'transitions: {colour: [next colours]}'")
    if "cycle" in entries:
        return ColourRule.from_cycle(_read_palette(reader, entries["cycle"][1],
                                                   "colours.cycle"))
    return _read_transitions(reader, entries["transitions"][1])


def _read_palette(reader: SpecReader, node: yaml.Node, path: str) -> tuple[str, ...]:
    items = reader.sequence(node, path)
    names = [reader.scalar_text(item, f"{path}[{i}]") for i, item in enumerate(items)]
    if not names:
        raise reader.fail(node, f"{path} must list at least one colour")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise reader.fail(node.value[i], f"colour {short(name)!r} is listed twice in "
                              f"{path}")
        reader.rule_colours.setdefault(name, (items[i], f"{path}[{i}]"))
    reader.cycle = tuple(names)
    return reader.cycle


def _read_transitions(reader: SpecReader, table_node: yaml.Node) -> ColourRule:
    table: dict[str, list[str]] = {}
    raw = reader.mapping(table_node, "colours.transitions")
    names: list[str] = list(raw)
    reader.rule_keys = set(raw)
    for name, (key, value) in raw.items():
        reader.rule_colours.setdefault(name, (key, f"colours.transitions.{name}"))
        path = f"colours.transitions.{name}"
        items = reader.sequence(value, path)
        targets = [reader.scalar_text(t, f"{path}[{i}]") for i, t in enumerate(items)]
        for i, target in enumerate(targets):
            reader.rule_colours.setdefault(target, (items[i], f"{path}[{i}]"))
        names += [t for t in targets if t not in names]
        table[name] = targets
    return ColourRule.from_transitions(names, table)


def check_rule_colours(reader: SpecReader) -> None:
    """Each colour the rule names that is on no edge: a problem or a warning (see the
    module docstring); nothing after an edge was skipped (it may have carried it)."""
    if not reader.edges_complete:
        return  # a skipped edge may have carried it
    on_edges = shown(sorted(reader.edge_colours)) or "none"
    for name, (node, path) in reader.rule_colours.items():
        if name in reader.edge_colours:
            continue
        typo = one_edit_away(name, reader.edge_colours)
        if typo is not None:
            reader.record(reader.fail(node, f"colour {short(name)!r} in {path} is on no "
                                      f"edge (did you mean {short(typo)!r}?); fix the "
                                      f"colour (colours on edges: {on_edges})", path))
        elif name not in reader.rule_keys:
            _off_the_edges(reader, name, node, path, on_edges)
        else:
            reader.warn(node, f"colour {short(name)!r} (a key of colours.transitions) "
                        f"is on no edge, so its row never applies (colours on edges: "
                        f"{on_edges})", path)


def _off_the_edges(reader: SpecReader, name: str, node: yaml.Node, path: str,
                   on_edges: str) -> None:
    """A colour of the rule, no key of a table, on no edge: a problem where a transition
    leads to it, a warning in a cycle."""
    if path.startswith("colours.transitions"):
        suggestion = hint(name, sorted(reader.edge_colours | reader.rule_keys))
        reader.record(reader.fail(
            node, f"colour {short(name)!r} in {path} is on no edge{suggestion}; every "
            "colour a transition leads to must be on some edge or be a key of "
            f"the table (colours on edges: {on_edges})", path))
    else:
        before = reader.cycle[reader.cycle.index(name) - 1]
        reader.warn(node, f"colour {short(name)!r} in {path} is on no edge, so a "
                    f"walk can never go on after a {short(before)!r} step (colours "
                    f"on edges: {on_edges}); fine if that is meant", path)


def read_first(reader: SpecReader, top: Entries, rule: ColourRule) -> frozenset[int] | None:
    """``first:``: the colours a walk may start with (``None``: any)."""
    if "first" not in top:
        return None
    return reader.guard("first", None,
                        lambda: _read_first_colours(reader, top["first"][1], rule))


def _read_first_colours(reader: SpecReader, node: yaml.Node, rule: ColourRule
                        ) -> frozenset[int] | None:
    items = reader.sequence(node, "first") if isinstance(node, yaml.SequenceNode) else [node]
    chosen: set[int] = set()
    for i, item in enumerate(items):
        text = reader.scalar_text(item, f"first[{i}]" if len(items) > 1 else "first")
        if text == "any" and len(items) == 1:
            return None
        if text not in rule.names:
            raise reader.fail(item, f"unknown colour {short(text)!r} in first"
                              f"{hint(text, rule.names)} (colours are "
                              f"{shown(rule.names)})")
        chosen.add(rule.names.index(text))
    return frozenset(chosen)
