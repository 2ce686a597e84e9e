"""The repaired spec: the author's YAML with the changes made in place (``repair --out``).

The spec text is edited, not regenerated, so its comments, layout and order survive:
an added edge becomes one more item of ``edges:`` (or ``dominoes:``), in the list's own
style and with a comment saying it was added; a removed item is commented out in a
block list (dropped from a flow list); a recoloured edge gets its new colour. The
``expect:`` block is replaced by what the repaired puzzle is now known to do, and a
comment at the top says what changed. The ``name:`` gets ``(repaired: green edge AA-AB
added)`` after it, and the ``description:`` says that trailkit repaired the puzzle, by
which changes, and what was known of the original (that it had no solution), then
quotes the author's description of it; a spec without them gets both, after its
``trailkit:`` line. Positions come from the composed YAML's marks, and the edits are
made from the end of the text backwards so that none moves another. The result is a
spec that loads (the caller checks it before writing).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from pathlib import PurePath

import yaml

from trailkit.models.formats.textformats import yaml_text
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec.board import Board
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["apply_edits", "board_edges", "change_edits", "repaired_spec_text"]

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


#: Changes named one by one in a repaired spec's name; more are counted.
NAMED_CHANGES = 3


def _plain(text: str) -> str:
    return text


def _compose(text: str) -> yaml.MappingNode:
    """The YAML node tree of a spec's text (a mapping: the spec was read before)."""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(root, yaml.MappingNode):
        raise ValueError("a spec is a YAML mapping")
    return root


def repaired_spec_text(text: str, puzzle: Puzzle, changes: Sequence[Change], *,
                       spec: str, expect: str, original: str = "had no solution",
                       words: Callable[[str], str] = _plain) -> str:
    """``text`` (the spec of ``puzzle``) with ``changes`` made, ``expect:`` set to
    ``expect`` (a YAML flow mapping), and a header comment, the name and the description
    saying what changed and that the original (the file ``spec``) ``original``; see the
    module docstring. ``words`` puts the sentences in the puzzle's own words (planks,
    dominoes)."""
    root = _compose(text)
    top = {k.value: (k, v) for k, v in root.value}
    edits = change_edits(text, puzzle, changes, root=root)
    if "expect" in top:
        value = top["expect"][1]
        edits.append((value.start_mark.index, value.end_mark.index, expect))
    else:
        edits.append((len(text), len(text), ("" if text.endswith("\n") else "\n")
                      + f"expect: {expect}\n"))
    edits += _about_edits(text, top, puzzle, changes, spec=spec, original=original,
                          words=words)
    text = apply_edits(text, edits)
    what = words("; ".join(c.describe(puzzle) for c in changes))
    header = (f"# Repaired by trailkit repair from {spec}: {what} "
              f"({_count(len(changes))}).\n")
    return header + text


def change_edits(text: str, puzzle: Puzzle, changes: Sequence[Change], *,
                 root: yaml.MappingNode | None = None, note: str | None = "trailkit repair"
                 ) -> list[tuple[int, int, str]]:
    """The text edits (start, end, replacement) that make ``changes`` in ``text``, the
    spec of ``puzzle``: an added edge is one more item of the list in its own style,
    a recoloured one gets its new colour, a removed one is commented out in a block list
    (with ``note=None`` its line goes) and dropped from a flow list; items added to a
    block list say ``# added by NOTE``. Apply them with :func:`apply_edits`."""
    if root is None:
        root = _compose(text)
    top = {k.value: (k, v) for k, v in root.value}
    key = "dominoes" if puzzle.kind == "domino-chain" else "edges"
    board = board_edges(puzzle)
    if board and (key not in top or any(c.edge is not None and c.edge < board
                                        for c in changes if c.op is not Op.ADD)):
        raise ValueError("the spec's board makes its moves, which are not written in the "
                         "spec to be edited; write the edges out under 'edges:' instead")
    if key not in top:
        raise ValueError(f"the spec keeps its {key} in a side file; edits need them inline")
    seq = top[key][1]
    if not isinstance(seq, yaml.SequenceNode):
        raise ValueError(f"the spec's {key} are not a YAML list")
    flow = bool(seq.flow_style)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    for change in changes:
        if change.op is Op.ADD or change.edge is None:
            continue
        item = seq.value[change.edge - board]  # the written edges follow the board's
        if change.op is Op.REMOVE:
            edits.append(_removal(text, item, flow, note))
        else:
            recolour = _recolouring(text, item, change)
            if recolour is not None:
                edits.append(recolour)
    added = [c for c in changes if c.op is Op.ADD]
    if added:
        edits.append(_additions(text, seq, puzzle, added, note))
    return edits


def board_edges(puzzle: Puzzle) -> int:
    """How many of the puzzle's first edges a ``board:`` made (0 without one)."""
    board = puzzle.meta.get("board")
    if not board:
        return 0
    return len(Board(board["cols"], board["rows"], board["moves"]).edges)


def _removal(text: str, item: yaml.Node, flow: bool, note: str | None
             ) -> tuple[int, int, str]:
    """The edit that removes list ``item``: dropped from a flow list, its line gone
    (``note=None``) or commented out in a block list."""
    start, end = item.start_mark.index, item.end_mark.index
    if flow:
        # drop the item and the comma after it (or before it, for the last one)
        after = text.find(",", end)
        close = text.find("]", end)
        if 0 <= after < close:
            return start, after + 1, ""
        before = text.rfind(",", 0, start)
        return before if before >= 0 else start, end, ""
    line_start = text.rfind("\n", 0, start) + 1
    if note is None:  # the whole line goes
        line_end = text.find("\n", end)
        return line_start, len(text) if line_end < 0 else line_end + 1, ""
    return line_start, line_start, f"# removed by {note}:\n# "


def _recolouring(text: str, item: yaml.Node, change: Change) -> tuple[int, int, str] | None:
    """The edit that gives list ``item`` its new colour (``None``: a mapping without a
    colour key, left as it is)."""
    if isinstance(item, yaml.MappingNode):
        entries = {k.value: v for k, v in item.value}
        node = entries.get("colour") or entries.get("color")
        if node is None:
            return None
        return node.start_mark.index, node.end_mark.index, _quoted(change.colour or "")
    if isinstance(item, yaml.SequenceNode):
        node = item.value[-1]
        return node.start_mark.index, node.end_mark.index, _quoted(change.colour or "")
    start, end = item.start_mark.index, item.end_mark.index
    words = text[start:end].strip("'\"").split()
    words[-1] = change.colour or words[-1]
    return start, end, " ".join(words)


def _additions(text: str, seq: yaml.SequenceNode, puzzle: Puzzle, added: Sequence[Change],
               note: str | None) -> tuple[int, int, str]:
    """The edit that appends the ``added`` edges to list ``seq``, in its own style."""
    if seq.flow_style:
        close = seq.end_mark.index - 1
        body = "".join(f", {_item(puzzle, c, True)}" for c in added)
        return close, close, body if seq.value else body[2:]
    last = seq.value[-1]
    indent = last.start_mark.column - 2
    line_end = text.find("\n", last.end_mark.index)
    line_end = len(text) if line_end < 0 else line_end
    lines = "".join(f"\n{' ' * indent}- {_item(puzzle, c, False)}"
                    + (f"  # added by {note}" if note else "") for c in added)
    return line_end, line_end, lines


def apply_edits(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """``text`` with the (start, end, replacement) ``edits`` made, from the end of the
    text backwards so that none moves another."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _count(n: int) -> str:
    return f"{n} change{'s' if n != 1 else ''}"


def _tally(changes: Sequence[Change], words: Callable[[str], str]) -> str:
    """Many changes counted by kind: ``3 dominoes added, 2 removed``."""
    parts: list[str] = []
    for op, done in ((Op.ADD, "added"), (Op.REMOVE, "removed"), (Op.RECOLOUR, "recoloured")):
        n = sum(1 for c in changes if c.op is op)
        if n:
            noun = "" if parts else words(" edge" if n == 1 else " edges")
            parts.append(f"{n}{noun} {done}")
    return ", ".join(parts)


def _about_edits(text: str, top: dict[str, tuple[yaml.Node, yaml.Node]], puzzle: Puzzle,
                 changes: Sequence[Change], *, spec: str, original: str,
                 words: Callable[[str], str]) -> list[tuple[int, int, str]]:
    """The edits of ``name:`` and ``description:`` (see the module docstring)."""
    done = [words(c.outcome(puzzle)) for c in changes]
    short = ", ".join(done) if len(done) <= NAMED_CHANGES else _tally(changes, words)
    old_name = str(top["name"][1].value) if "name" in top else PurePath(spec).stem
    name = f"{old_name} (repaired: {short})"
    about = (f"Repaired by trailkit repair from {spec}: {'; '.join(done)} "
             f"({_count(len(done))}). The puzzle as written there {original}.")
    if "description" in top:
        before = " ".join(str(top["description"][1].value).split())
        about += f" Before the repair its description read: {before}"
    edits = []
    for key, value in (("name", yaml_text(name)), ("description", _folded(about))):
        if key in top:
            node = top[key][1]
            end = node.end_mark.index
            style = node.style if isinstance(node, yaml.ScalarNode) else None
            if style not in (">", "|") and value.endswith("\n") \
                    and text[end:end + 1] == "\n":
                end += 1  # a one-line value becomes a block: its line break is the block's
            if style in (">", "|") and not value.endswith("\n"):
                value += "\n"
            edits.append((node.start_mark.index, end, value))
    missing = "".join(f"{key}: {value}" + ("" if value.endswith("\n") else "\n")
                      for key, value in (("name", yaml_text(name)),
                                         ("description", _folded(about)))
                      if key not in top)
    if missing:
        first = top["trailkit"][1] if "trailkit" in top else None
        at = 0 if first is None else text.find("\n", first.end_mark.index) + 1 or len(text)
        edits.append((at, at, missing))
    return edits


def _folded(text: str) -> str:
    """``text`` as a folded block scalar (``>`` and indented lines), read back as itself."""
    lines = textwrap.wrap(text, width=86, break_long_words=False, break_on_hyphens=False)
    return ">\n" + "".join(f"  {line}\n" for line in lines)
