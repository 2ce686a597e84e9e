"""Edits made on the picture, written back into the author's YAML text.

Each edit changes only the few characters it must, so the author's comments, order and
style survive (as ``repair --out`` keeps them: :mod:`trailkit.solvers.tools.repair.specedit`
makes the edge changes, this module adds moving a node and reversing an edge):

* ``move``: the node's ``layout:`` entry becomes ``[x, y]`` (a new entry when the
  node has none; a whole ``layout:`` block, from the positions the drawing used, when
  the spec has none or says ``auto``);
* ``add``: one more item of ``edges:`` in the list's own style;
* ``recolour``, ``remove``: the edge's colour changes, or its item goes;
* ``reverse``: the edge's two ends swap (a one-way edge then runs the other way);
* ``changes``: a repair's changes, as :func:`trailkit.solvers.tools.repair.specedit.change_edits`
  makes them;
* ``given``, ``hole``: a cell's given set or cleared, a cell made a hole or brought
  back (:mod:`.board_edits`).

>>> text = "trailkit: 1\\nkind: trail\\n# the house\\nedges:\\n  - a b\\n  - b c\\n"
>>> print(edit_text(text, {"kind": "add", "u": "c", "v": "a"}), end="")
trailkit: 1
kind: trail
# the house
edges:
  - a b
  - b c
  - c a
>>> print(edit_text(text, {"kind": "reverse", "edge": 1}).splitlines()[-1])
  - c b
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from trailkit.models.errors import TrailkitError
from trailkit.models.formats.textformats import yaml_text
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.workshop.board_edits import (
    BOARD_EDIT_KINDS,
    board_edits,
    new_entry,
)
from trailkit.solvers.tools.repair.changes import Change, Op
from trailkit.solvers.tools.repair.specedit import apply_edits, board_edges, change_edits

__all__ = ["EDIT_KINDS", "edit_text"]

EDIT_KINDS = ("move", "add", "recolour", "remove", "reverse", "changes", *BOARD_EDIT_KINDS)
_Edit = tuple[int, int, str]


def edit_text(text: str, edit: dict[str, Any], base_dir: Path | None = None) -> str:
    """``text`` with ``edit`` made (see the module docstring); the text must load (else
    :class:`TrailkitError` says why), but for a board's cell edits, which need only its
    cells (a hole may leave a given past the last position: the next click mends it).
    The result may not load (deleting a start's only edge): the page then shows what is
    wrong, located, as it does for what is typed."""
    kind = edit.get("kind")
    if kind not in EDIT_KINDS:
        raise TrailkitError(f"unknown edit {kind!r}; edits are {', '.join(EDIT_KINDS)}")
    if kind in BOARD_EDIT_KINDS:
        return apply_edits(text, board_edits(text, edit, base_dir))
    puzzle = load_spec_text(text, base_dir=base_dir)
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(root, yaml.MappingNode):  # load_spec_text refused these already
        raise TrailkitError("the spec is not a YAML mapping")
    try:
        if kind == "move":
            edits = _move(text, root, puzzle, edit)
        elif kind == "reverse":
            edits = _reverse(text, root, _edge(puzzle, edit) - board_edges(puzzle))
        else:
            edits = change_edits(text, puzzle, _changes(puzzle, edit), root=root, note=None)
    except (KeyError, TypeError, ValueError) as exc:
        raise TrailkitError(f"cannot make that edit: {exc}") from None
    return apply_edits(text, edits)


def _edge(puzzle: Puzzle, edit: dict[str, Any]) -> int:
    e = edit.get("edge")
    if not isinstance(e, int) or not 0 <= e < puzzle.num_edges:
        raise TrailkitError(f"no edge {e!r} in the puzzle (it has {puzzle.num_edges})")
    return e


def _changes(puzzle: Puzzle, edit: dict[str, Any]) -> list[Change]:
    """The edge changes an ``add``, ``recolour``, ``remove`` or ``changes`` edit makes."""
    names = puzzle.nodes
    kind = edit["kind"]
    if kind == "changes":
        return [_change(puzzle, c) for c in edit.get("changes", [])]
    if kind == "add":
        return [_change(puzzle, {**edit, "op": "add"})]
    e = _edge(puzzle, edit)
    u, v = names[puzzle.tail[e]], names[puzzle.head[e]]
    if kind == "remove":
        return [Change(Op.REMOVE, u, v, edge=e)]
    colour = edit.get("colour")
    if puzzle.colours is not None and colour not in puzzle.colours.names:
        raise TrailkitError(f"unknown colour {colour!r} (colours are "
                            f"{', '.join(puzzle.colours.names)})")
    return [Change(Op.RECOLOUR, u, v, colour=colour, edge=e)]


def _change(puzzle: Puzzle, given: dict[str, Any]) -> Change:
    """One change from its JSON (``op``, ``u``, ``v``, ``colour``, ``edge``, ``directed``)."""
    op = Op(given["op"])
    u, v = str(given["u"]), str(given["v"])
    for name in (u, v):
        if name not in puzzle.nodes:
            raise TrailkitError(f"{name!r} is no node of the puzzle")
    edge = given.get("edge")
    if op is not Op.ADD and (not isinstance(edge, int) or not 0 <= edge < puzzle.num_edges):
        raise TrailkitError(f"no edge {edge!r} in the puzzle")
    return Change(op, u, v, colour=given.get("colour") or None, edge=edge,
                  directed=bool(given.get("directed")))


def _number(x: float) -> str:
    """A coordinate as a person writes it: ``3``, ``6.928``, ``-1.5``."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _move(text: str, root: yaml.Node, puzzle: Puzzle, edit: dict[str, Any]) -> list[_Edit]:
    node = str(edit["node"])
    if node not in puzzle.nodes:
        raise TrailkitError(f"{node!r} is no node of the puzzle")
    point = f"[{_number(float(edit['x']))}, {_number(float(edit['y']))}]"
    top = {k.value: (k, v) for k, v in root.value}
    layout = top.get("layout", (None, None))[1]
    if isinstance(layout, yaml.MappingNode):
        entries = {k.value: (k, v) for k, v in layout.value}
        if node in entries:
            value = entries[node][1]
            return [(value.start_mark.index, value.end_mark.index, point)]
        return [new_entry(text, layout, f"{yaml_text(node)}: {point}")]
    # no layout yet (or auto): write every node where the drawing put it
    positions = {**{str(k): v for k, v in (edit.get("positions") or {}).items()},
                 node: [edit["x"], edit["y"]]}
    missing = [n for n in puzzle.nodes if n not in positions]
    if missing:
        raise TrailkitError(f"no position for {', '.join(missing[:5])}")
    block = "".join(f"  {yaml_text(n)}: [{_number(float(positions[n][0]))}, "
                    f"{_number(float(positions[n][1]))}]\n" for n in puzzle.nodes)
    if layout is not None:  # layout: auto
        key = top["layout"][0]
        end = text.find("\n", layout.end_mark.index)
        return [(key.start_mark.index, len(text) if end < 0 else end + 1,
                 "layout:\n" + block)]
    return [(len(text), len(text), ("" if text.endswith("\n") or not text else "\n")
             + "layout:\n" + block)]


def _reverse(text: str, root: yaml.Node, e: int) -> list[_Edit]:
    if e < 0:
        raise TrailkitError("that edge is a move of the spec's board, which is not written "
                            "in the spec; write the edges out under 'edges:' to edit it")
    top = {k.value: v for k, v in root.value}
    seq = top.get("edges")
    if not isinstance(seq, yaml.SequenceNode):
        raise TrailkitError("the spec keeps its edges in a side file; edits need them inline")
    item = seq.value[e]
    if isinstance(item, yaml.MappingNode):
        ends = {k.value: v for k, v in item.value}
        a, b = ends["from"], ends["to"]
    elif isinstance(item, yaml.SequenceNode):
        a, b = item.value[0], item.value[1]
    else:
        start, end = item.start_mark.index, item.end_mark.index
        written = text[start:end]
        quote = written[0] if written[:1] in "'\"" else ""
        words = written.strip("'\"").split()
        i, j = (0, 2) if len(words) > 2 and words[1] == "->" else (0, 1)
        words[i], words[j] = words[j], words[i]
        return [(start, end, quote + " ".join(words) + quote)]
    first, second = text[a.start_mark.index:a.end_mark.index], \
        text[b.start_mark.index:b.end_mark.index]
    return [(a.start_mark.index, a.end_mark.index, second),
            (b.start_mark.index, b.end_mark.index, first)]
