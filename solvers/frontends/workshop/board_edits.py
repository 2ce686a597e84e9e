"""Edits made on a board's picture, written into the author's YAML text: a cell's given
(``at:``) set or cleared, a cell made a hole (``avoid:``) or brought back.

As :mod:`.edits` does for the graph picture, each edit changes only the characters it
must, so comments, key order and style survive: a given's number is changed in place,
a new entry or item joins its mapping or list in the list's own style (flow or block),
a cleared one goes with its comma or its line (and the key with it when it was the
last); a spec without ``at:`` or ``avoid:`` gets one, in flow style, on the line after
its ``board:``. A cell is never both a given and a hole: making a given cell a hole
clears its given, and numbering a hole brings the cell back. The spec need not load:
making a hole may leave a given past the last position, and the next click (clearing
that given) mends it; the cells are then the ones its ``board:`` names.

>>> from trailkit.solvers.frontends.workshop.edits import edit_text
>>> text = ("trailkit: 1\\nkind: tour\\nboard: {size: [3, 3], moves: king}\\n# givens\\n"
...         "at: {a1: 1, c3: 9}\\n")
>>> print(edit_text(text, {"kind": "given", "node": "b2", "position": 5}), end="")
trailkit: 1
kind: tour
board: {size: [3, 3], moves: king}
# givens
at: {a1: 1, c3: 9, b2: 5}
>>> print(edit_text(text, {"kind": "hole", "node": "a1", "hole": True}), end="")
trailkit: 1
kind: tour
board: {size: [3, 3], moves: king}
avoid: [a1]
# givens
at: {c3: 9}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from trailkit.models.errors import SpecError, TrailkitError
from trailkit.models.formats.textformats import yaml_text
from trailkit.models.spec import load_spec_text
from trailkit.models.spec.board import Board
from trailkit.models.spec.vocabulary import MAX_BOARD_CELLS

__all__ = ["BOARD_EDIT_KINDS", "board_edits", "new_entry"]

#: The edits made by clicking a board's cells.
BOARD_EDIT_KINDS = ("given", "hole")
_Edit = tuple[int, int, str]
_Top = dict[str, tuple[yaml.Node, yaml.Node]]


def board_edits(text: str, edit: dict[str, Any], base_dir: Path | None = None
                ) -> list[_Edit]:
    """The text edits (start, end, replacement) that make a ``given`` edit (``node``,
    ``position``: a whole number, or ``None`` to clear it) or a ``hole`` edit (``node``,
    ``hole``: true to make the cell a hole, false to bring it back)."""
    root, cells = _cells(text, base_dir)
    node = str(edit.get("node"))
    if node not in cells:
        raise TrailkitError(f"{node!r} is no cell of the puzzle")
    top: _Top = {k.value: (k, v) for k, v in root.value}
    if edit["kind"] == "hole":
        if not isinstance(edit.get("hole"), bool):
            raise TrailkitError("a hole edit says 'hole': true (make it a hole) or false")
        if not edit["hole"]:
            return _dropped(text, top, "avoid", node)
        return _item_added(text, top, "avoid", node) + _dropped(text, top, "at", node)
    position = edit.get("position")
    if position is None:
        return _dropped(text, top, "at", node)
    if isinstance(position, bool) or not isinstance(position, int) or position < 1:
        raise TrailkitError(f"a given is a whole number from 1, not {position!r}")
    given = top["at"][1].value if "at" in top and isinstance(top["at"][1], yaml.MappingNode) \
        else []
    holder = next((k.value for k, v in given if isinstance(v, yaml.ScalarNode)
                   and v.value.strip() == str(position) and k.value != node), None)
    if holder is not None:
        raise TrailkitError(f"{position} is given to {holder} already; clear it there first")
    return _entry_set(text, top, "at", node, str(position)) + _dropped(text, top, "avoid", node)


def _cells(text: str, base_dir: Path | None) -> tuple[yaml.MappingNode, list[str]]:
    """The spec's YAML, and its cells: the puzzle's nodes, or, when it does not load,
    the cells its ``board:`` names."""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        root = None
    if not isinstance(root, yaml.MappingNode):
        raise TrailkitError("the spec is not a YAML mapping; fix what the page lists first")
    try:
        return root, list(load_spec_text(text, base_dir=base_dir).nodes)
    except SpecError:
        pass
    try:
        board = {k.value: v for k, v in root.value}["board"]
        size = {k.value: v for k, v in board.value}["size"]
        cols, rows = (int(n.value) for n in size.value)
        if not 1 <= cols * rows <= MAX_BOARD_CELLS or cols < 1:
            raise ValueError(size)
    except (AttributeError, KeyError, TypeError, ValueError):
        raise TrailkitError("the spec does not load and has no board: to name its cells; "
                            "fix what the page lists first") from None
    return root, Board(cols, rows, "king").cells


def _entry_set(text: str, top: _Top, key: str, name: str, value: str) -> list[_Edit]:
    """``name: value`` in the mapping under ``key``: its value replaced, or a new entry."""
    if key not in top:
        return [_key_added(text, top, f"{key}: {{{yaml_text(name)}: {value}}}")]
    mapping = top[key][1]
    if not isinstance(mapping, yaml.MappingNode):
        raise TrailkitError(f"'{key}:' is not a mapping of cells to numbers; write it as "
                            f"{key}: {{a1: 1}}")
    for k, v in mapping.value:
        if k.value == name:
            return [(v.start_mark.index, v.end_mark.index, value)]
    return [new_entry(text, mapping, f"{yaml_text(name)}: {value}")]


def _item_added(text: str, top: _Top, key: str, name: str) -> list[_Edit]:
    """``name`` as one more item of the list under ``key`` (nothing when it is one)."""
    if key not in top:
        return [_key_added(text, top, f"{key}: [{yaml_text(name)}]")]
    seq = top[key][1]
    if not isinstance(seq, yaml.SequenceNode):
        raise TrailkitError(f"'{key}:' is not a list of cells; write it as {key}: [a1]")
    if any(item.value == name for item in seq.value):
        return []
    if seq.flow_style or not seq.value:
        close = seq.end_mark.index - 1
        return [(close, close, (", " if seq.value else "") + yaml_text(name))]
    last = seq.value[-1]
    end = _line_end(text, _content_end(last))
    return [(end, end, "\n" + " " * (last.start_mark.column - 2) + "- " + yaml_text(name))]


def _dropped(text: str, top: _Top, key: str, name: str) -> list[_Edit]:
    """The entry or item ``name`` of the mapping or list under ``key`` removed (with the
    key when it was the only one); nothing when it is not there."""
    if key not in top:
        return []
    holder = top[key][1]
    if isinstance(holder, yaml.MappingNode):
        spans = [(k, v) for k, v in holder.value if k.value == name]
    elif isinstance(holder, yaml.SequenceNode):
        spans = [(item, item) for item in holder.value if item.value == name]
    else:
        return []
    if not spans:
        return []
    first, last = spans[0]
    if len(holder.value) == 1:  # the last one: the key goes too
        line_start = text.rfind("\n", 0, top[key][0].start_mark.index) + 1
        return [(line_start, _line_end(text, _content_end(holder), past=True), "")]
    start, end = first.start_mark.index, last.end_mark.index
    if not holder.flow_style:
        return [(text.rfind("\n", 0, start) + 1, _line_end(text, end, past=True), "")]
    after, close = text.find(",", end), holder.end_mark.index - 1
    if 0 <= after < close:  # the item and its comma, and the spaces after it
        while after + 1 < close and text[after + 1] in " \t":
            after += 1
        return [(start, after + 1, "")]
    return [(text.rfind(",", 0, start), end, "")]  # the last item: the comma before it


def _key_added(text: str, top: _Top, line: str) -> _Edit:
    """A new top-level ``line``: after the ``board:`` entry, else at the end."""
    if "board" in top:
        end = _line_end(text, _content_end(top["board"][1]))
        return (end, end, "\n" + line)
    return (len(text), len(text), ("" if text.endswith("\n") or not text else "\n")
            + line + "\n")


def _content_end(node: yaml.Node) -> int:
    """Where a node's own text ends (a block collection's ``end_mark`` is the start of
    what follows it)."""
    if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style \
            and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(last, tuple) else last)
    return int(node.end_mark.index)


def _line_end(text: str, index: int, past: bool = False) -> int:
    """The end of the line holding ``index`` (``past``: after its newline)."""
    end = text.find("\n", index)
    if end < 0:
        return len(text)
    return end + 1 if past else end


def new_entry(text: str, mapping: yaml.MappingNode, entry: str) -> _Edit:
    """An entry added at the end of a mapping, in its own style."""
    if mapping.flow_style or not mapping.value:
        close = mapping.end_mark.index - 1
        return (close, close, (", " if mapping.value else "") + entry)
    last_key, last_value = mapping.value[-1]
    indent = last_key.start_mark.column
    line_end = _line_end(text, _content_end(last_value))
    return (line_end, line_end, "\n" + " " * indent + entry)
