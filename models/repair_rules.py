"""The ``repair:`` block of a spec: what a repair may change (CONTRACT.md v1.1, section 1).

::

    repair:
      add: layout        # layout | any | none | a list of candidate edges like `edges:`
      colours: any       # colours a new edge may have: any colour of the rule, or a list
      recolour: false    # an existing edge may change colour
      remove: false      # an edge may be left out (a domino put aside)
      protect: [T]       # no change may touch these nodes

The reader lives here, not in :mod:`trailkit.models.spec`, so the spec reader calls it
from one place; it uses the spec reader's own checking helpers, so every mistake is
located (``file:line:col``) like any other spec error. The result is a frozen
:class:`RepairRules` kept on :attr:`Puzzle.repair`; the command line's flags
override it field by field (:meth:`RepairRules.with_`).

>>> RepairRules().add, RepairRules().recolour
('any', False)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ADD_MODES", "CandidateEdge", "RepairRules", "read_repair_rules"]

#: The named ways of choosing new edges (a list of candidate edges is the fourth).
ADD_MODES = ("layout", "any", "none")
_KEYS = ("add", "colours", "recolour", "remove", "protect")


@dataclass(frozen=True, slots=True)
class CandidateEdge:
    """One edge a repair may add, by node names; ``colour`` ``None``: any allowed colour."""

    u: str
    v: str
    colour: str | None = None
    directed: bool = False


@dataclass(frozen=True, slots=True)
class RepairRules:
    """What a repair may change.

    ``add`` is ``"layout"`` (pairs of nodes that touch in the layout and have no edge yet),
    ``"any"`` (any pair of distinct nodes), ``"none"``, or a tuple of
    :class:`CandidateEdge`. ``colours`` ``None`` allows every colour of the rule for new
    edges. ``protect`` names nodes no change may touch.
    """

    add: str | tuple[CandidateEdge, ...] = "any"
    colours: tuple[str, ...] | None = None
    recolour: bool = False
    remove: bool = False
    protect: frozenset[str] = frozenset()

    def with_(self, **changes: Any) -> RepairRules:
        """A copy with some fields replaced (the command line's overrides)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def describe(self) -> str:
        """The rules in one line, for reports."""
        if isinstance(self.add, tuple):
            add = f"{len(self.add)} candidate edges"
        else:
            add = {"layout": "edges between touching nodes", "any": "any new edge",
                   "none": "no new edges"}[self.add]
        parts = [add]
        if self.colours is not None:
            parts.append("colours " + ", ".join(self.colours))
        if self.recolour:
            parts.append("recolouring")
        if self.remove:
            parts.append("removing edges")
        if self.protect:
            parts.append("nothing touching " + ", ".join(sorted(self.protect)))
        return "; ".join(parts)


def read_repair_rules(reader: Any, node: Any, palette: tuple[str, ...] | None, *,
                      has_layout: bool = True) -> RepairRules:
    """Read the ``repair:`` mapping ``node`` with the spec reader ``reader``.

    Called after the edges and the layout were read, so node names and the colour
    palette are known: a protected node or a candidate edge's end that names no node, a
    colour outside the rule, or ``add: layout`` without a ``layout:`` is a located error
    (with a "did you mean" hint where one helps).
    """
    from trailkit.models.spec import _hint

    entries = reader.mapping(node, "repair")
    reader.check_keys(entries, _KEYS, "repair", "repair")
    rules: dict[str, Any] = {}
    known = reader.node_index

    def node_name(item: Any, path: str, name: str | None = None) -> str:
        name = reader.name_text(item, path) if name is None else name
        if name not in known:
            raise reader.fail(item, f"{path} names {name!r}, which is no node of the puzzle"
                              f"{_hint(name, reader.node_names)}")
        return str(name)

    def colour_name(item: Any, path: str, text: str) -> str:
        if palette is None or text not in palette:
            choices = ", ".join(palette) if palette else "none: the puzzle has no colours"
            raise reader.fail(item, f"unknown colour {text!r} in {path}"
                              f"{_hint(text, palette or ())} (colours are {choices})")
        return text

    if "add" in entries:
        value = entries["add"][1]
        if type(value).__name__ == "SequenceNode":
            candidates = []
            for i, item in enumerate(reader.sequence(value, "repair.add")):
                path = f"repair.add[{i}]"
                u, v, c, one_way, _ = reader.read_edge(item, path)
                node_name(item, path, u)
                node_name(item, path, v)
                if c is not None:
                    c = colour_name(item, path, c)
                candidates.append(CandidateEdge(u, v, c, one_way))
            rules["add"] = tuple(candidates)
        else:
            rules["add"] = reader.choice(value, "repair.add", ADD_MODES)
            if rules["add"] == "layout" and not has_layout:
                raise reader.fail(value, "repair.add is 'layout', but the spec has no "
                                  "'layout:' block of node positions; add one, or use "
                                  "'any' or a list of candidate edges")
    if "colours" in entries:
        value = entries["colours"][1]
        if type(value).__name__ == "SequenceNode":
            rules["colours"] = tuple(
                colour_name(item, f"repair.colours[{i}]",
                            reader.scalar_text(item, f"repair.colours[{i}]"))
                for i, item in enumerate(reader.sequence(value, "repair.colours")))
        elif reader.scalar_text(value, "repair.colours") != "any":
            text = reader.scalar_text(value, "repair.colours")
            rules["colours"] = (colour_name(value, "repair.colours", text),)
    for key in ("recolour", "remove"):
        if key in entries:
            rules[key] = reader.boolean(entries[key][1], f"repair.{key}")
    if "protect" in entries:
        value = entries["protect"][1]
        items = reader.sequence(value, "repair.protect") \
            if type(value).__name__ == "SequenceNode" else [value]
        rules["protect"] = frozenset(node_name(item, f"repair.protect[{i}]")
                                     for i, item in enumerate(items))
    return RepairRules(**rules)
