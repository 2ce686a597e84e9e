"""The repaired spec: the author's YAML with the changes made in place (``repair --out``).

The spec text is edited, not regenerated, so its comments, layout and order survive:
an added edge becomes one more item of ``edges:`` (or ``dominoes:``), in the list's own
style and with a comment saying it was added; a removed item is commented out in a
block list (dropped from a flow list); a recoloured edge gets its new colour. The
``expect:`` block is replaced by what the repaired puzzle is now known to do, and a
comment at the top says what changed. Positions come from the composed YAML's marks,
and the edits are made from the end of the text backwards so that none moves another.
The result is a spec that loads (the caller checks it before writing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import yaml

from trailkit.models.puzzle import Puzzle
from trailkit.models.textformats import yaml_text
from trailkit.solvers.repair.changes import Change, Op

__all__ = ["repaired_spec_text"]

_PLAIN = re.compile(r"[A-Za-z0-9_.\-]+")


def _quoted(text: str) -> str:
    return yaml_text(text)


def _item(puzzle: Puzzle, change: Change, flow: bool) -> str:
    """The list item for an added edge, in the spec's plainest form."""
    parts = [change.u, change.v] + ([change.colour] if change.colour else [])
    if puzzle.kind == "domino-chain":
        return f"[{_quoted(change.u)}, {_quoted(change.v)}]"
    if all(_PLAIN.fullmatch(p) and yaml.safe_load(p) == p for p in parts):
        text = " ".join([change.u, "->", *parts[1:]] if change.directed else parts)
        return text
    if change.directed:
        colour = f", colour: {_quoted(change.colour)}" if change.colour else ""
        return (f"{{from: {_quoted(change.u)}, to: {_quoted(change.v)}{colour}, "
                "directed: true}")
    return "[" + ", ".join(_quoted(p) for p in parts) + "]"


def repaired_spec_text(text: str, puzzle: Puzzle, changes: Sequence[Change], *,
                       spec: str, expect: str, what: str | None = None) -> str:
    """``text`` (the spec of ``puzzle``) with ``changes`` made, ``expect:`` set to
    ``expect`` (a YAML flow mapping) and a header comment saying ``what`` changed
    (default: the changes described); see the module docstring."""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    top = {k.value: (k, v) for k, v in root.value}
    key = "dominoes" if puzzle.kind == "domino-chain" else "edges"
    if key not in top:
        raise ValueError(f"the spec keeps its {key} in a side file; --out needs them inline")
    seq = top[key][1]
    flow = bool(seq.flow_style)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    for change in changes:
        if change.op is Op.ADD or change.edge is None:
            continue
        item = seq.value[change.edge]
        start, end = item.start_mark.index, item.end_mark.index
        if change.op is Op.REMOVE:
            if flow:
                # drop the item and the comma after it (or before it, for the last one)
                after = text.find(",", end)
                close = text.find("]", end)
                if 0 <= after < close:
                    edits.append((start, after + 1, ""))
                else:
                    before = text.rfind(",", 0, start)
                    edits.append((before if before >= 0 else start, end, ""))
            else:
                line_start = text.rfind("\n", 0, start) + 1
                edits.append((line_start, line_start, "# removed by trailkit repair:\n# "))
        else:
            original = text[start:end]
            if isinstance(item, yaml.MappingNode):
                entries = {k.value: v for k, v in item.value}
                node = entries.get("colour") or entries.get("color")
                if node is not None:
                    edits.append((node.start_mark.index, node.end_mark.index,
                                  _quoted(change.colour or "")))
                continue
            if isinstance(item, yaml.SequenceNode):
                node = item.value[-1]
                edits.append((node.start_mark.index, node.end_mark.index,
                              _quoted(change.colour or "")))
                continue
            words = original.strip("'\"").split()
            words[-1] = change.colour or words[-1]
            edits.append((start, end, " ".join(words)))
    added = [c for c in changes if c.op is Op.ADD]
    if added:
        if flow:
            close = seq.end_mark.index - 1
            body = "".join(f", {_item(puzzle, c, True)}" for c in added)
            edits.append((close, close, body if seq.value else body[2:]))
        else:
            last = seq.value[-1]
            indent = last.start_mark.column - 2
            line_end = text.find("\n", last.end_mark.index)
            line_end = len(text) if line_end < 0 else line_end
            lines = "".join(f"\n{' ' * indent}- {_item(puzzle, c, False)}"
                            f"  # added by trailkit repair" for c in added)
            edits.append((line_end, line_end, lines))
    if "expect" in top:
        value = top["expect"][1]
        edits.append((value.start_mark.index, value.end_mark.index, expect))
    else:
        edits.append((len(text), len(text), ("" if text.endswith("\n") else "\n")
                      + f"expect: {expect}\n"))
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    what = what or "; ".join(c.describe(puzzle) for c in changes)
    header = (f"# Repaired by trailkit repair from {spec}: {what} "
              f"({len(changes)} change{'s' if len(changes) != 1 else ''}).\n")
    return header + text
