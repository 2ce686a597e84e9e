"""The fast reader of big inline ``edges:`` lists: only the rest of the spec is composed
as YAML, and the list is read as an edge list (as ``edges_file:`` is).

Composing a million-line ``edges:`` list builds a million YAML nodes (seconds and
gigabytes); a spec as ``trailkit generate`` writes it (``- u v`` per line, or one flow
line) is cut out with plain string operations instead, a ``[]`` placeholder left where
it was (every other line stays where it was, so everything else is still located),
and read column by column (:mod:`trailkit.models.spec.edges.columns`).

It answers only specs that load: :func:`read_fast` gives ``None`` when it cannot take
the list, or when anything at all is wrong with the spec; then the full reader reads
it, so every problem is the one it reports, with its location (the tests check that
both readers give the same puzzle and warnings).

Specs under :data:`FAST_FROM` characters never come here (see
:func:`trailkit.models.spec.reading.read_text`): for them the full reader is as fast.

>>> text = "trailkit: 1\\nkind: trail\\nedges:\\n  - a b\\n  - b c\\n"
>>> puzzle, warnings = read_fast(text, "s.yaml", None)
>>> puzzle.num_edges, puzzle.nodes, warnings
(2, ('a', 'b', 'c'), [])
>>> read_fast(text.replace("b c", "b 'c'"), "s.yaml", None) is None  # a quote: YAML's
True
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from trailkit.models.errors import SpecError
from trailkit.models.formats.edge_scan import ScannedEdges, byte_table, scan_bytes
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec.composing import compose
from trailkit.models.spec.document import errors_of, read_document
from trailkit.models.spec.state import InlineEdges, SpecReader
from trailkit.models.spec.typed import budget_for
from trailkit.models.support import jit
from trailkit.models.support.deadline import on_time

__all__ = ["FAST_FROM", "inline_edges", "read_fast"]

FAST_FROM = 64 * 1024
"""Specs of at least this many characters (about 5,000 plain edges) try the fast reader;
smaller ones are read by the full reader alone, so every small spec takes the one code
path that every error test exercises.

Why this number (figures in ``docs/benchmarks.md``, from
``python tests/bench/bench_spec_paths.py``): the fast reader is quicker from a few dozen
edges on, but under 64 KiB what it saves is a few percent of the time any ``trailkit``
command takes to start; from there on the full reader's time grows into what a person
waits for. Declining a spec costs the fast reader one scan. Tests lower it (to 0) to
reach the fast reader with small specs."""

# The characters of the items the fast reader takes: plain YAML text in any context that
# no resolver or indicator can touch (no ':', '#', ',', quotes, brackets, '&', '*', '!',
# tabs); each item starts with a letter, digit or '_'.
_ITEM_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-> \n"
_FIRST_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_ITEM_TABLE, _FIRST_TABLE = byte_table(_ITEM_BYTES), byte_table(_FIRST_BYTES)
_NOT_FIRST = re.compile(r"[^A-Za-z0-9_]")  # what no item starts with
_NOT_FIRST_AFTER = re.compile(r"\n[^A-Za-z0-9_]")
_EDGES_KEY = re.compile(r"edges[ \t]*:")
_BLOCK_HEAD = re.compile(r"edges:[ ]*\n( *)- ")
_FLOW_HEAD = re.compile(r"edges: *\[")
_FLOW_TAIL = re.compile(r"\] *(?:\n|\Z)")
# blank or comment lines, then a key or the end (a comment may end the text)
_NEXT_KEY = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\n)*(?:[^\s#\-]|[ \t]*#[^\n]*\Z|\Z)")
_BLOCK_END = re.compile(r"\n[^ ]")  # the end of an indented block sequence
_BLOCK_END_0 = re.compile(r"\n(?!- )")  # the end of one at the left margin


def read_fast(text: str, source: str, base_dir: Path | None
              ) -> tuple[Puzzle, list[SpecError]] | None:
    """The puzzle and warnings of a spec whose inline ``edges:`` list
    :func:`inline_edges` can take, or ``None`` (see the module docstring)."""
    scanned = inline_edges(text)
    if scanned is None:
        return None
    rest, edges = scanned
    on_time("the spec")
    try:
        root = compose(rest, source)
    except SpecError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    reader = SpecReader(source, base_dir, budget=budget_for(text))
    reader.inline_edges = edges
    puzzle, found = read_document(reader, root)
    return None if puzzle is None or errors_of(found) else (puzzle, found)


def inline_edges(text: str) -> tuple[str, InlineEdges] | None:
    """``(text with the list replaced by [], the list's lines)`` when the spec's one
    top-level ``edges:`` list is, in the common big form, a block sequence of plain
    ``u v [colour]`` / ``u -> v`` items, one a line (as ``trailkit generate`` writes),
    or a one-line flow sequence of them; else ``None``.

    Whether ``edges:`` really is the top-level key the scan took it for is checked on
    the composed tree (:mod:`trailkit.models.spec.edges`). Plain string operations, and
    for a big list the compiled scan (:func:`_scanned`): a regular expression over a
    million lines is far slower, and each pass over them costs tens of milliseconds.
    """
    at = _edges_key(text, 0)
    if at < 0:
        return None
    line = text.count("\n", 0, at) + 1
    stop = text.find("\n", at)
    stop = len(text) if stop < 0 else stop + 1
    flow = _FLOW_HEAD.match(text, at)
    cut = (_flow_list(text, at, flow.end(), stop, line) if flow is not None
           else _block_list(text, at, stop, line))
    # a second edges: key (searched in what is left, not the million lines of the list)
    return None if cut is None or _edges_key(cut[0], at + 1) >= 0 else cut


def _edges_key(text: str, begin: int) -> int:
    """Where the first ``edges:`` key at the start of a line is, from ``begin`` on (-1:
    none)."""
    if begin == 0 and _EDGES_KEY.match(text):
        return 0
    found = text.find("\nedges", begin)
    while found >= 0 and not _EDGES_KEY.match(text, found + 1):
        found = text.find("\nedges", found + 1)
    return found + 1 if found >= 0 else -1


def _flow_list(text: str, at: int, opened: int, stop: int, line: int
               ) -> tuple[str, InlineEdges] | None:
    """``edges: [a b, b c]`` on the one line from ``at`` to ``stop``, its items from
    ``opened`` on."""
    close = text.rfind("]", at, stop)
    if close < 0 or not _FLOW_TAIL.fullmatch(text, close, stop):
        return None
    edges = "\n".join(item.strip() for item in text[opened:close].split(","))
    if not _plain_items(edges, 0):
        return None
    return (text[:at] + "edges: []" + text[close + 1:],
            InlineEdges(edges, 0, line, edges.count("\n") + 1))


def _block_list(text: str, at: int, stop: int, line: int) -> tuple[str, InlineEdges] | None:
    """``edges:`` at ``at`` and a ``- u v`` item a line from ``stop`` on."""
    head = _BLOCK_HEAD.match(text, at)
    if head is None:
        return None
    prefix = "\n" + head.group(1) + "- "
    after = (_BLOCK_END if head.group(1) else _BLOCK_END_0).search(text, stop - 1)
    end = len(text) if after is None else after.start() + 1
    region = text[stop:end]
    first = prefix[1:]  # each line starts with the prefix (no copy of the region made)
    if not region.startswith(first) or not region.isascii() or not _NEXT_KEY.match(text, end):
        return None  # what follows is no top-level key
    raw = region.encode("ascii")
    newlines = raw.count(b"\n")
    lines = newlines + (not raw.endswith(b"\n"))
    scanned, scan = _scanned(raw, lines, len(first))
    if scan is None and (1 + region.count(prefix) != lines
                         or not _plain_items(region, len(first))):
        return None  # a line of another indentation, or an item YAML reads otherwise
    return (text[:at] + "edges: []\n" + "\n" * newlines + text[end:],
            InlineEdges(region, len(first), line, lines, scanned, scan))


def _scanned(raw: bytes, lines: int, lead: int) -> tuple[bool, ScannedEdges | None]:
    """``(scanned, scan)``: from :data:`~trailkit.models.support.jit.COMPILE_FROM` lines
    on, the big list's items scanned in place (:func:`~trailkit.models.formats.edge_scan.
    scan_bytes`) with this reader's own rules (every line after its ``lead`` a plain
    item: its bytes, its first byte), so that one compiled pass checks and numbers
    them; a scan that refuses them leaves the checks to :func:`_plain_items` and the
    reading to the line reader (on lines that pass those checks the scan refuses what
    the edge list's own scan would)."""
    if lines < jit.COMPILE_FROM:
        return False, None
    return True, scan_bytes(raw, lead=lead, allowed=_ITEM_TABLE, first=_FIRST_TABLE,
                            lines=lines)


def _plain_items(lines: str, lead: int) -> bool:
    """Whether every line of ``lines`` is, after its ``lead`` bytes, an item the fast
    reader takes (see above)."""
    if not lines or not lines.isascii():
        return False
    after = _NOT_FIRST_AFTER if not lead else re.compile(
        re.escape("\n" + lines[:lead]) + "[^A-Za-z0-9_]")
    return not (lines.encode("ascii").translate(None, _ITEM_BYTES)
                or _NOT_FIRST.match(lines, lead) or after.search(lines))
