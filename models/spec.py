"""The YAML spec language (v1): load, validate with located errors, lower to a :class:`Puzzle`.

Every error names the file, line and column and says what to do::

    specs/p.yaml:12:5: error: unknown colour "teal" in edges[3] (colours are red, blue, green)

The YAML is *composed* (never constructed), so no Python object is ever built from
a tag, duplicated keys are seen (PyYAML would silently keep the last one), alias
expansion is bounded ("billion laughs"), and each scalar in a node position keeps
the text the author wrote: a tyre named ``NO`` never becomes ``False`` and the
domino ``1:2`` never becomes 62.

The reader collects problems and goes on where it safely can (as yamllint does): a bad
edge is one problem and the edges after it are still read. :func:`check_spec` returns
every problem of a file; :func:`load_spec` raises the first one it meets.

A name that matches nothing is a typo until the spec says otherwise: with ``nodes:``
every edge end, ``start``, ``end``, ``goal`` and ``layout:`` key must be listed there;
a colour that a colour rule names must be on an edge (or be a key of the transition
table). ``layout: auto`` asks a drawing for a computed layout: the puzzle's ``layout``
stays ``None`` and ``meta["layout"]`` is ``"auto"``.

>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> p.kind, p.num_edges, p.closed
('trail', 3, True)
>>> [e.message for e in check_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, c]\\n")]
["edges[1] has one end ('c'); an edge needs two, like 'a b' or 'a b red'"]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np
import yaml

from trailkit.models import jit
from trailkit.models.edge_scan import ScannedEdges, scan_edges
from trailkit.models.errors import Location, SpecError, SpecWarning
from trailkit.models.hints import closest, one_edit_away
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.textformats import (
    EdgeTextError,
    decode_utf8,
    edge_from_fields,
    looks_like_edge_list,
    parse_domino_lines,
    parse_edge_columns,
)

__all__ = ["KINDS", "MAX_INT_DIGITS", "MAX_PROBLEMS", "MAX_SPEC_BYTES", "check_spec",
           "check_spec_text", "lint_spec", "lint_spec_text", "load_spec", "load_spec_text"]

MAX_SPEC_BYTES = 50 * 1024 * 1024
MAX_INT_DIGITS = 4000
"""Whole numbers in a spec have at most this many digits (Python refuses to convert more
than 4,300 digits, and no count or id needs as many)."""
KINDS = ("trail", "domino-chain", "colour-walk", "walk")
DEFAULT_COLOURS = ("red", "blue", "green")

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YAML = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_COMMON_KEYS = ("trailkit", "name", "description", "kind", "layout", "expect", "repair")
_KEYS = {
    "trail": ("nodes", "edges", "edges_file", "closed", "start", "end"),
    "domino-chain": ("nodes", "dominoes", "dominoes_file", "closed"),
    "colour-walk": ("nodes", "edges", "edges_file", "colours", "first", "start", "goal", "end"),
    "walk": ("nodes", "edges", "edges_file", "use", "colours", "first", "start", "end", "goal",
             "closed", "objective"),
}
_EXPECT_KEYS = ("status", "solutions", "failures", "early_failures", "length", "repair")
_SYNONYMS = {"color": "colour", "colors": "colours"}
# Keys one kind spells another way (``goal`` is a colour walk's ``end``): an unknown key
# that is one of these is pointed at the key the kind has, whatever its spelling.
_MEANS = {"goal": "end", "end": "goal", "target": "end", "finish": "end", "begin": "start",
          "source": "start", "from": "start", "to": "end", "planks": "edges",
          "colors": "colours", "ring": "closed", "circuit": "closed", "cycle": "colours"}
MAX_PROBLEMS = 100
"""Reading stops after this many problems (a million-edge file without colours would
otherwise give a million), like a compiler's "too many errors"."""
# The characters YAML allows in a stream (YAML 1.1, as PyYAML's reader checks them).
_NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                            "\U00010000-\U0010ffff]")
_T = TypeVar("_T")


# ------------------------------------------------------------------ the API
def load_spec(path: str | Path) -> Puzzle:
    """Load and validate the spec file at ``path``; raise the first :class:`SpecError` found
    if it is unusable (see :func:`check_spec` for all of them)."""
    puzzle, found = _read_path(Path(path))
    return _loaded(puzzle, found)


def check_spec(path: str | Path) -> list[SpecError]:
    """Every problem the spec file at ``path`` has, in file order; empty when it loads.

    Each :class:`SpecError` carries its ``location`` (file, line, column: a problem in an
    ``edges_file:`` is located in that file), its ``message`` and, where it concerns one
    entry, its key ``path`` (``edges[3]``, ``layout.x``). Reading goes on after a problem
    wherever the rest can still be checked, so three independent mistakes give three
    problems; a problem that leaves the rest unreadable (malformed YAML, an unknown
    ``kind``) is the only one reported, and reading stops after :data:`MAX_PROBLEMS`.
    """
    return _in_file_order(_errors(_read_path(Path(path))[1]))


def lint_spec(path: str | Path) -> list[SpecError]:
    """Every problem and every warning (:class:`SpecWarning`: a spec that loads, with
    something worth a look, like a cycle colour on no edge) of the spec file at
    ``path``, in file order; each says its ``level``."""
    return _in_file_order(_read_path(Path(path))[1])


def load_spec_text(text: str, source: str = "<string>", base_dir: Path | None = None) -> Puzzle:
    """Validate spec ``text`` (``source`` names it in messages); raise the first problem.

    ``base_dir`` is the folder that ``edges_file:`` and ``dominoes_file:`` are read from.
    """
    puzzle, found = _read_text(text, source, base_dir)
    return _loaded(puzzle, found)


def check_spec_text(text: str, source: str = "<string>",
                    base_dir: Path | None = None) -> list[SpecError]:
    """Every problem of spec ``text``, in file order (see :func:`check_spec`)."""
    return _in_file_order(_errors(_read_text(text, source, base_dir)[1]))


def lint_spec_text(text: str, source: str = "<string>",
                   base_dir: Path | None = None) -> list[SpecError]:
    """Every problem and warning of spec ``text``, in file order (see :func:`lint_spec`)."""
    return _in_file_order(_read_text(text, source, base_dir)[1])


def _errors(found: list[SpecError]) -> list[SpecError]:
    """The problems among ``found``, without the warnings."""
    return [p for p in found if not isinstance(p, SpecWarning)]


def _loaded(puzzle: Puzzle | None, found: list[SpecError]) -> Puzzle:
    """The puzzle a reading gave, or its first problem raised (warnings do not count)."""
    errors = _errors(found)
    if errors or puzzle is None:
        raise errors[0]
    return puzzle


def _in_file_order(problems: list[SpecError]) -> list[SpecError]:
    """The spec's own problems by line and column, then those located in side files."""
    first_file = problems[0].location.file if problems and problems[0].location else None

    def key(problem: SpecError) -> tuple[bool, str, int, int]:
        loc = problem.location or Location("")
        return (loc.file != first_file, loc.file, loc.line or 0, loc.column or 0)

    return sorted(problems, key=key)


def _read_path(path: Path) -> tuple[Puzzle | None, list[SpecError]]:
    name = str(path)
    try:
        size = path.stat().st_size
    except (OSError, ValueError) as exc:
        return None, [SpecError(f"cannot read the spec: {_os_reason(exc)}", Location(name))]
    if path.is_dir():
        return None, [SpecError("is a folder, not a spec file", Location(name))]
    if size > MAX_SPEC_BYTES:
        return None, [SpecError(
            f"the spec is {size / 2**20:.0f} MB, over the {MAX_SPEC_BYTES // 2**20} MB limit; "
            "put big edge lists in a plain text file and reference it with 'edges_file:'",
            Location(name))]
    try:
        text = decode_utf8(path.read_bytes(), name)
    except OSError as exc:
        return None, [SpecError(f"cannot read the spec: {_os_reason(exc)}", Location(name))]
    except SpecError as exc:
        return None, [exc]
    return _read_text(text, name, path.parent)


def _os_reason(exc: Exception) -> str:
    return str(getattr(exc, "strerror", None) or exc)


_CONTENT_LINE = re.compile(r"^\s*[^\s#]", re.MULTILINE)
"""A line that is neither blank nor a comment (found without cutting the text into
lines, which costs a tenth of a second on a million-line spec)."""


def _read_text(text: str, source: str, base_dir: Path | None
               ) -> tuple[Puzzle | None, list[SpecError]]:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SPEC_BYTES:
        return None, [SpecError("the spec is over the 50 MB limit", Location(source))]
    if _CONTENT_LINE.search(text) is None:  # nothing but blank lines and comments
        return None, [SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                                Location(source, 1, 1))]
    problems = _control_characters(text, source)
    if problems:
        return None, problems
    fast = _read_fast(text, source, base_dir)
    if fast is not None:
        return fast
    return _read_full(text, source, base_dir)


def _read_full(text: str, source: str, base_dir: Path | None
               ) -> tuple[Puzzle | None, list[SpecError]]:
    """Read checked ``text`` with the full reader: all of it composed as YAML."""
    try:
        root = _compose(text, source)
    except SpecError as exc:
        return None, [exc]
    if not isinstance(root, yaml.MappingNode):
        listed = _edge_list_hint(text, source)
        if listed is not None:
            return None, [listed]
    return _SpecReader(source, base_dir, budget=_budget(text)).read_all(root)


def _budget(text: str) -> int:
    """How many YAML nodes reading ``text`` may visit (bounds alias expansion)."""
    return 10 * len(text) + 10_000


# ------------------------------------------------------------ the fast reader
# The characters of the items the fast reader takes: plain YAML text in any context that
# no resolver or indicator can touch (no ':', '#', ',', quotes, brackets, '&', '*', '!',
# tabs); each item starts with a letter, digit or '_'.
_ITEM_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-> \n"
_NOT_FIRST = re.compile(r"[^A-Za-z0-9_]")  # what no item starts with
_NOT_FIRST_AFTER = re.compile(r"\n[^A-Za-z0-9_]")
_EDGES_KEY = re.compile(r"edges[ \t]*:")
_BLOCK_HEAD = re.compile(r"edges:[ ]*\n( *)- ")
_FLOW_HEAD = re.compile(r"edges: *\[")
_FLOW_TAIL = re.compile(r"\] *(?:\n|\Z)")
_NEXT_KEY = re.compile(r"[^\s#\-]|\Z")
_BLOCK_END = re.compile(r"\n[^ ]")  # the end of an indented block sequence
_BLOCK_END_0 = re.compile(r"\n(?!- )")  # the end of one at the left margin


class _InlineEdges(NamedTuple):
    """A spec's inline edge list as the fast reader cut it out: ``lines``, each line
    starting with the ``lead`` bytes of its list item's indentation and ``- `` (none for
    a flow list), and the ``line`` of ``edges:``."""

    lines: str
    lead: int
    line: int



def _plain_items(lines: str, lead: int) -> bool:
    """Whether every line of ``lines`` is, after its ``lead`` bytes, an item the fast
    reader takes (see above)."""
    if not lines or not lines.isascii():
        return False
    after = _NOT_FIRST_AFTER if not lead else re.compile(
        re.escape("\n" + lines[:lead]) + "[^A-Za-z0-9_]")
    return not (lines.encode("ascii").translate(None, _ITEM_BYTES)
                or _NOT_FIRST.match(lines, lead) or after.search(lines))


def _inline_edges(text: str) -> tuple[str, _InlineEdges] | None:
    """``(text with the list replaced by [], the list's lines)`` when the spec's one
    top-level ``edges:`` list is, in the common big form, a
    block sequence of plain ``u v [colour]`` / ``u -> v`` items, one a line (as
    ``trailkit generate`` writes), or a one-line flow sequence of them; else ``None``.

    The placeholder keeps every other line where it was, so the YAML reader still
    locates everything else. Whether ``edges:`` really is the top-level key the scan
    took it for is checked on the composed tree (the reader's ``inline_edges``). Plain
    string operations and NumPy only: a regular expression over a million lines takes
    a second.
    """
    starts = [0] if text.startswith("edges") else []
    found = text.find("\nedges")
    while found >= 0:
        starts.append(found + 1)
        found = text.find("\nedges", found + 1)
    keys = [at for at in starts if _EDGES_KEY.match(text, at)]
    if len(keys) != 1:
        return None
    at = keys[0]
    line = text.count("\n", 0, at) + 1
    stop = text.find("\n", at)
    stop = len(text) if stop < 0 else stop + 1
    flow = _FLOW_HEAD.match(text, at)
    if flow is not None:
        close = text.rfind("]", at, stop)
        if close < 0 or not _FLOW_TAIL.fullmatch(text, close, stop):
            return None
        edges = "\n".join(item.strip() for item in text[flow.end():close].split(","))
        if not _plain_items(edges, 0):
            return None
        return text[:at] + "edges: []" + text[close + 1:], _InlineEdges(edges, 0, line)
    head = _BLOCK_HEAD.match(text, at)
    if head is None:
        return None
    prefix = "\n" + head.group(1) + "- "
    after = (_BLOCK_END if head.group(1) else _BLOCK_END_0).search(text, stop - 1)
    end = len(text) if after is None else after.start() + 1
    region = text[stop:end]
    newlines = region.count("\n")
    lines = newlines + (not region.endswith("\n"))
    first = prefix[1:]  # each line starts with the prefix (no copy of the region made)
    if (not region.startswith(first) or 1 + region.count(prefix) != lines
            or not _NEXT_KEY.match(text, end)):
        return None  # a line of another indentation, or what follows is no top-level key
    if not _plain_items(region, len(first)):
        return None
    return (text[:at] + "edges: []\n" + "\n" * newlines + text[end:],
            _InlineEdges(region, len(first), line))


def _read_fast(text: str, source: str, base_dir: Path | None
               ) -> tuple[Puzzle, list[SpecError]] | None:
    """The puzzle of a spec whose big inline ``edges:`` list :func:`_inline_edges` can
    take, read with the YAML reader composing only the rest and the list taken as an
    edge list (as ``edges_file:`` is); ``None`` when it cannot, or when anything at all
    is wrong with the spec: then the full reader reads it, so every problem is the one
    it reports, with its location, and the fast reader only ever answers specs that
    load (the tests check that both readers give the same puzzle)."""
    scanned = _inline_edges(text)
    if scanned is None:
        return None
    rest, edges = scanned
    try:
        root = _compose(rest, source)
    except SpecError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    reader = _SpecReader(source, base_dir, budget=_budget(text))
    reader.inline_edges = edges
    puzzle, found = reader.read_all(root)
    return None if puzzle is None or _errors(found) else (puzzle, found)


# --------------------------------------------------------------------- parsing
def _line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text``."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


_PRINTABLE_ASCII = bytes([9, 10, 13, *range(32, 127)])
"""The ASCII bytes a YAML file may hold."""


def _control_characters(text: str, source: str, *, in_yaml: bool = True) -> list[SpecError]:
    """A located problem for each character YAML does not allow in a file (control
    characters, NUL bytes), which the YAML reader reports only as a byte position.
    Side files (``in_yaml=False``) are held to the same rule: a name never hides one."""
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return []  # the common case: every byte allowed (bytes.translate runs in C)
    out = []
    for match in _NOT_PRINTABLE.finditer(text):
        if len(out) == MAX_PROBLEMS:
            break
        char = match.group()
        line, column = _line_column(text, match.start())
        if char == "\x00":
            what = "a NUL byte (U+0000)"
        else:
            what = f"the control character U+{ord(char):04X}"
        escape = (f" (inside a double-quoted string it can be written as the escape "
                  f"\"\\u{ord(char):04x}\")" if in_yaml else "")
        where = "a YAML file" if in_yaml else "an edge list"
        out.append(SpecError(f"{what} is not allowed in {where}; delete it{escape}",
                             Location(source, line, column)))
    return out


def _compose(text: str, source: str) -> yaml.Node:
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(source, mark.line + 1, mark.column + 1) if mark else Location(source)
        raise _yaml_problem(text, source, exc, loc) from None
    except yaml.reader.ReaderError as exc:  # a character the pre-check let through
        index = text.find(chr(exc.character)) if isinstance(exc.character, int) else -1
        loc = Location(source, *_line_column(text, index)) if index >= 0 else Location(source)
        raise SpecError(f"the character U+{exc.character:04X} is not allowed in YAML; "
                        "delete it", loc) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"malformed YAML: {exc}", Location(source)) from None
    except RecursionError:
        raise SpecError("the YAML is nested too deeply", Location(source)) from None
    if root is None:
        raise SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                        Location(source, 1, 1))
    return root


def _yaml_problem(text: str, source: str, exc: yaml.MarkedYAMLError, loc: Location
                  ) -> SpecError:
    """The message for a YAML syntax error: tabs in indentation and plain edge lists given
    as a spec are named as such; anything else as the YAML parser says it."""
    lines = text.splitlines()
    row = lines[loc.line - 1] if loc.line and loc.line <= len(lines) else ""
    at = row[loc.column - 1:loc.column] if loc.column else ""
    indent = row[:len(row) - len(row.lstrip(" \t"))]
    if "\t" in indent and (at == "\t" or "tab" in (exc.problem or "")):
        column = indent.index("\t") + 1
        return SpecError("YAML forbids tabs for indentation; indent with spaces (set your "
                         "editor to insert spaces for the Tab key)",
                         Location(source, loc.line, column))
    listed = _edge_list_hint(text, source)
    if listed is not None:
        return listed
    explained = _explain_yaml_problem(lines, source, exc)
    if explained is not None:
        return explained
    what = exc.problem or "malformed YAML"
    if exc.context and "document" in exc.context:
        what = f"{exc.context}, {what}"
    return SpecError(f"malformed YAML: {what}", loc)


_OPENERS = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}")}


def _explain_yaml_problem(lines: list[str], source: str, exc: yaml.MarkedYAMLError
                          ) -> SpecError | None:
    """The common YAML mistakes in words, located where the mistake is rather than where
    the parser gave up: a bracket or quote never closed (located at the opening), a line
    indented unlike the keys around it. ``None`` for anything else."""
    problem, context = exc.problem or "", exc.context or ""
    opened, stuck = exc.context_mark, exc.problem_mark
    if opened is None or stuck is None:
        return _indented_too_far(lines, source, problem, stuck)
    where = f"line {stuck.line + 1}, column {stuck.column + 1}"
    for what, (left, right) in _OPENERS.items():
        if context.endswith(what) and "did not find expected" in problem:
            return SpecError(
                f"malformed YAML: this {left!r} is not closed: YAML reached {where} still "
                f"looking for a ',' or {right!r}; close it with {right!r} (and quote an item "
                "that holds a comma or a bracket)",
                Location(source, opened.line + 1, opened.column + 1))
    if context.endswith("quoted scalar") and "end of stream" in problem:
        quote = lines[opened.line][opened.column:opened.column + 1] if opened.line < len(
            lines) else '"'
        return SpecError(f"malformed YAML: this {quote} is never closed; end the text with "
                         f"{quote}", Location(source, opened.line + 1, opened.column + 1))
    if context.endswith("block mapping") and "expected key" in problem \
            and stuck.line < len(lines):
        row = lines[stuck.line]
        indent = len(row) - len(row.lstrip(" "))
        if indent != opened.column:
            keys = ("are not indented" if opened.column == 0
                    else f"are indented by {_spaces(opened.column)}")
            return SpecError(
                f"malformed YAML: line {stuck.line + 1} is indented by {_spaces(indent)}, "
                f"but the keys around it {keys} (as on line {opened.line + 1}); YAML reads "
                "indentation as structure: indent it as they are",
                Location(source, stuck.line + 1, 1))
    return None


def _indented_too_far(lines: list[str], source: str, problem: str, stuck: Any
                      ) -> SpecError | None:
    """``key: value`` on a line indented deeper than a plain ``key: value`` above it."""
    if stuck is None or "mapping values are not allowed" not in problem \
            or stuck.line >= len(lines):
        return None
    row = lines[stuck.line]
    indent = len(row) - len(row.lstrip(" "))
    above = next((lines[i] for i in range(stuck.line - 1, -1, -1)
                  if lines[i].strip() and not lines[i].lstrip().startswith("#")), None)
    if above is None or indent <= len(above) - len(above.lstrip(" ")):
        return None
    return SpecError(f"malformed YAML: line {stuck.line + 1} is indented deeper than the "
                     "line above it, so YAML reads it as part of that line's value; indent "
                     "it as the keys around it", Location(source, stuck.line + 1, 1))


def _spaces(n: int) -> str:
    return f"{n} space{'s' if n != 1 else ''}"


def _edge_list_hint(text: str, source: str) -> SpecError | None:
    """A located suggestion to import ``text`` when it is a plain plank, domino or edge
    list rather than a YAML spec; ``None`` when it does not look like one."""
    listed = looks_like_edge_list(text)
    if listed is None:
        return None
    kind, line = listed
    advice = {
        "planks": f"trailkit import planks {source} --start START --goal GOAL",
        "dominoes": f"trailkit import dominoes {source}",
        "edges": f"trailkit import dominoes {source} (for a ring of pieces), or name it from "
                 "a spec with 'edges_file:'",
    }[kind]
    what = {"planks": "a plank list ('A E red' per line)",
            "dominoes": "a domino list ('1 2' per line)",
            "edges": "a plain edge list ('a b' per line)"}[kind]
    return SpecError(f"this is {what}, not a YAML spec; turn it into a spec with: {advice}",
                     Location(source, line, 1))


def _hint(word: str, choices: Any) -> str:
    """`` (did you mean 'x'?)`` for the choice :func:`~trailkit.models.hints.closest` to
    ``word``, cut short for a message, or ``""``."""
    match = closest(word, choices)
    return f" (did you mean {_short(match)!r}?)" if match else ""


def _shown(names: Any, limit: int = 8) -> str:
    """``a, b, c`` or the first few names and how many more."""
    names = list(names)
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(str(n) for n in names[:limit]) + more


class _Numbering(dict[str, int]):
    """Node numbers by name that gives the next number to a name it has not seen (the
    fast reader numbers a million edge ends with one C-level lookup each)."""

    def __missing__(self, name: str) -> int:
        number = self[name] = len(self)
        return number


class _Fatal(SpecError):
    """A problem after which the rest of the spec cannot be read (e.g. the alias budget)."""


class _SpecReader:
    """Walks the composed YAML node tree, checking as it goes; one instance per spec.

    Problems are collected in :attr:`problems`: :meth:`guard` runs one part of the
    reading, records the :class:`SpecError` it raises and stands in a default, so the
    parts after it are still checked.
    """

    def __init__(self, source: str, base_dir: Path | None, budget: int) -> None:
        self.source = source
        self.base_dir = base_dir
        self.budget = budget
        self._node_index: dict[str, int] = {}
        self._unindexed = 0  # node_names[-_unindexed:] are not in _node_index yet
        self._lookups = 0  # node_number calls answered from node_names
        self.node_names: list[str] = []
        self.declared: dict[str, yaml.Node] | None = None  # the `nodes:` list, when given
        self.problems: list[SpecError] = []
        self.warnings: list[SpecWarning] = []  # remarks on a spec that still loads
        self.nodes_complete = True  # false once a bad `nodes:` entry was skipped
        # False once an edge or domino could not even be read (its names and colour
        # unknown); a known edge that breaks a rule still brings in its names and colour.
        self.edges_complete = True
        self.edge_colours: set[str] = set()  # every colour word written on an edge
        self.rule_colours: dict[str, tuple[yaml.Node, str]] = {}  # named by the rule: where
        self.rule_keys: set[str] = set()  # the keys of a transition table
        self.cycle: tuple[str, ...] = ()  # the colours of a cycle rule, in order
        # The big inline `edges:` list as edge-list text and its line, when the fast
        # reader took it out of the YAML (see _read_fast); None for the full reader.
        self.inline_edges: _InlineEdges | None = None

    # ------------------------------------------------------------ plumbing
    def loc(self, node: yaml.Node) -> Location:
        mark = node.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)

    def fail(self, where: yaml.Node | Location, message: str, path: str = "") -> SpecError:
        loc = where if isinstance(where, Location) else self.loc(where)
        return SpecError(message, loc, path)

    def record(self, problem: SpecError, path: str = "") -> None:
        """Keep ``problem`` (its key path defaulting to ``path``) and go on reading, up to
        :data:`MAX_PROBLEMS`."""
        if not problem.path:
            problem.path = path
        self.problems.append(problem)
        if len(self.problems) >= MAX_PROBLEMS:
            raise _Fatal(f"{MAX_PROBLEMS} problems so far; reading stopped here: fix these "
                         "first", problem.location, problem.path)

    def warn(self, where: yaml.Node, message: str, path: str = "") -> None:
        """Keep a warning: worth a look, but the spec still loads."""
        self.warnings.append(SpecWarning(message, self.loc(where), path))

    def guard(self, path: str, default: _T, read: Callable[[], _T]) -> _T:
        """``read()``, or ``default`` after recording the problem it raised."""
        try:
            return read()
        except _Fatal:
            raise
        except SpecError as exc:
            self.record(exc, path)
            return default

    def spend(self, node: yaml.Node, amount: int = 1) -> None:
        self.budget -= amount
        if self.budget < 0:
            raise _Fatal("the spec expands to far more data than it holds (YAML "
                         "anchors/aliases used to blow it up); write the data out instead",
                         self.loc(node))

    def check_tag(self, node: yaml.Node, path: str) -> None:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            ok = tag in _PLAIN_TAGS
        elif isinstance(node, yaml.SequenceNode):
            ok = tag == _YAML + "seq"
        else:
            ok = tag == _YAML + "map"
        if not ok:
            raise self.fail(node, f"the YAML tag {tag!r} at {path} is not allowed in a spec; "
                            "remove the tag and write plain data", path)

    def mapping(self, node: yaml.Node, path: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """A mapping's entries by key text, rejecting non-text keys; a duplicated key is
        recorded as a problem and its first value kept."""
        self.check_tag(node, path)
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{path} must be a mapping of 'key: value' lines", path)
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            self.spend(key_node, 2)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
                raise self.fail(key_node, f"keys in {path} must be plain words", path)
            key = str(_SYNONYMS.get(key_node.value, key_node.value))
            if key in out:
                first = self.loc(out[key][0])
                self.record(self.fail(key_node, f"the key {key!r} appears twice in {path} "
                                      f"(first on line {first.line}); YAML would silently "
                                      "keep only the last: remove one"), path)
                continue
            out[key] = (key_node, value_node)
        return out

    def check_keys(self, entries: dict[str, tuple[yaml.Node, yaml.Node]], allowed: Any,
                   path: str, what: str, *, keep_going: bool = False) -> None:
        """Reject keys not in ``allowed``; with ``keep_going`` each is recorded (and then
        ignored) instead of stopping at the first."""
        for key, (key_node, _) in list(entries.items()):
            if key not in allowed:
                meant = _MEANS.get(key)
                hint = (f" (did you mean {meant!r}?)" if meant in allowed
                        else _hint(key, allowed))
                problem = self.fail(key_node, f"unknown key {_short(key)!r} in {path}"
                                    f"{hint}; {what} accepts "
                                    f"{', '.join(allowed)}",
                                    key if path == "the spec" else f"{path}.{key}")
                if not keep_going:
                    raise problem
                self.record(problem)
                del entries[key]

    def sequence(self, node: yaml.Node, path: str) -> list[yaml.Node]:
        self.check_tag(node, path)
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{path} must be a list", path)
        self.spend(node, len(node.value))
        return node.value

    def scalar_text(self, node: yaml.Node, path: str) -> str:
        self.check_tag(node, path)
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{path} must be a single value, not a list or mapping", path)
        self.spend(node)
        return str(node.value)

    def name_text(self, node: yaml.Node, path: str, what: str = "node name") -> str:
        """A node name or pip: the text as written (see the module docstring)."""
        text = self.scalar_text(node, path)
        if node.tag == _YAML + "null" and not getattr(node, "style", None):
            shown = f"'{text}'" if text else "''"
            raise self.fail(node, f"{path} is empty (YAML reads {shown} as null) where a {what} "
                            f"belongs; write the name, quoted if it is {shown}: \"{text}\"", path)
        if not text.strip():
            raise self.fail(node, f"{path} is an empty {what}; give it a name", path)
        return text

    def string(self, node: yaml.Node, path: str) -> str:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "str":
            raise self.fail(node, f"{path} must be text; quote it: \"{text}\"", path)
        return text

    def boolean(self, node: yaml.Node, path: str) -> bool:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "bool":
            raise self.fail(node, f"{path} must be true or false, not {_short(text)!r}", path)
        return text.lower() in ("true", "yes", "on", "y")

    def integer(self, node: yaml.Node, path: str, minimum: int = 0) -> int:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "int" or not re.fullmatch(r"[-+]?[0-9]+", text):
            raise self.fail(node, f"{path} must be a whole number, not {_short(text)!r}", path)
        digits = len(text.lstrip("+-").lstrip("0"))
        if digits > MAX_INT_DIGITS:
            raise self.fail(node, f"{path} is a number of {digits:,} digits, more than the "
                            f"{MAX_INT_DIGITS:,} a spec may use; check the value", path)
        value = int(text)
        if value < minimum:
            raise self.fail(node, f"{path} must be at least {minimum}", path)
        return value

    def number(self, node: yaml.Node, path: str) -> float:
        text = self.scalar_text(node, path)
        if node.tag not in (_YAML + "int", _YAML + "float"):
            raise self.fail(node, f"{path} must be a number, not {_short(text)!r}", path)
        if text.lower().lstrip("+-") in (".inf", ".nan"):
            raise self.fail(node, f"{path} must be a finite number, not {text!r}", path)
        try:
            value = float(text.replace("_", ""))
        except ValueError:
            raise self.fail(node, f"{path} must be a plain number, not {_short(text)!r}",
                            path) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise self.fail(node, f"{path} must be a finite number, not {_short(text)!r}", path)
        return value

    def choice(self, node: yaml.Node, path: str, choices: tuple[str, ...]) -> str:
        text = self.scalar_text(node, path)
        if text not in choices:
            raise self.fail(node, f"{path} must be one of {', '.join(choices)}, not "
                            f"{_short(text)!r}{_hint(text, choices)}", path)
        return text

    def node_id(self, name: str) -> int:
        index = self.node_index.get(name)
        if index is None:
            index = self.node_index[name] = len(self.node_names)
            self.node_names.append(name)
        return index

    def number_names(self, names: Iterable[str]) -> list[int]:
        """The node number of each of ``names``, new names numbered next in order of
        appearance (one C-level lookup per name: the fast path of million-edge lists)."""
        index = self.node_index
        known = len(index)
        numbering = _Numbering(index)
        codes = list(map(numbering.__getitem__, names))
        new = list(islice(numbering.items(), known, None))
        index.update(new)
        self.node_names.extend(name for name, _ in new)
        return codes

    @property
    def node_index(self) -> dict[str, int]:
        """Node numbers by name, including the names a scanned edge list brought in
        (indexed only now: a dict of 333,333 names takes 0.15 s, and a colour walk asks
        it only for its start and goal, see :meth:`node_number`)."""
        if self._unindexed:
            first = len(self.node_names) - self._unindexed
            self._node_index.update(zip(self.node_names[first:],
                                        range(first, len(self.node_names)), strict=True))
            self._unindexed = 0
        return self._node_index

    def node_number(self, name: str) -> int | None:
        """The number of node ``name``, or ``None``: the first few questions after a
        scanned edge list are answered by searching its names (a few milliseconds each)
        rather than by indexing them all."""
        if self._unindexed and self._lookups < 8:
            self._lookups += 1
            known = self._node_index.get(name)
            if known is not None:
                return known
            first = len(self.node_names) - self._unindexed
            try:
                return self.node_names.index(name, first)
            except ValueError:
                return None
        return self.node_index.get(name)

    def edge_end(self, name: str, where: yaml.Node | Location, path: str) -> int:
        """The node an edge (or domino) ends at; with ``nodes:`` it must be listed there
        (unless an entry of ``nodes:`` could not be read: it may have been this name)."""
        if self.declared is not None and self.nodes_complete and name not in self.declared:
            raise self.fail(where, f"{path} ends at {_short(name)!r}, which is not listed in "
                            f"'nodes:'{_hint(name, self.declared)}; fix the name, or add it "
                            "to 'nodes:'", path)
        return self.node_id(name)

    @property
    def names_known(self) -> bool:
        """Whether every node name is known, so a name that matches none is a typo (after a
        skipped entry it may be the name that entry would have brought in)."""
        if self.declared is not None:
            return self.nodes_complete
        return self.edges_complete and self.nodes_complete

    # ------------------------------------------------------------- the spec
    def read_all(self, root: yaml.Node) -> tuple[Puzzle | None, list[SpecError]]:
        """The puzzle and its warnings, or ``None`` and every problem and warning found."""
        try:
            puzzle = self.read_spec(root)
        except SpecError as exc:  # one that leaves the rest unreadable
            self.problems.append(exc)
            puzzle = None
        if self.problems:
            return None, [*self.problems, *self.warnings]
        return puzzle, list(self.warnings)

    def read(self, root: yaml.Node) -> Puzzle:
        """The puzzle; raise the first problem found."""
        return _loaded(*self.read_all(root))

    def read_spec(self, root: yaml.Node) -> Puzzle:
        """Read the whole spec, recording problems; raise only those that stop the reading
        (no mapping, an unsupported version, no or an unknown ``kind``)."""
        top = self.mapping(root, "the spec")
        if "trailkit" not in top:
            self.record(self.fail(root, "missing required key 'trailkit' (the spec format "
                                  "version); add 'trailkit: 1' as the first line"))
        else:
            version_node = top["trailkit"][1]
            if self.scalar_text(version_node, "trailkit") != "1":
                raise self.fail(version_node, f"unsupported spec version "
                                f"{_short(version_node.value)!r}; this trailkit reads "
                                "'trailkit: 1'", "trailkit")
        if "kind" not in top:
            raise self.fail(root, f"missing required key 'kind'; choose one of {', '.join(KINDS)}")
        kind_node = top["kind"][1]
        if self.scalar_text(kind_node, "kind") == "color-walk":
            kind_node.value = "colour-walk"
        kind = self.choice(kind_node, "kind", KINDS)
        self.check_keys(top, (*_COMMON_KEYS, *_KEYS[kind]), "the spec", f"kind {kind!r}",
                        keep_going=True)
        rules: dict[str, Any] = {"kind": kind}
        for key in ("name", "description"):
            if key in top:
                rules[key] = self.guard(key, None, lambda k=key: self.scalar_text(top[k][1], k))
        if "nodes" in top and not self.attempt("nodes",
                                               lambda: self.read_nodes(top["nodes"][1])):
            self.nodes_complete = False
        lower: Callable[[dict[str, tuple[yaml.Node, yaml.Node]], yaml.Node], dict[str, Any]] = {
            "trail": self.lower_trail,
            "domino-chain": self.lower_dominoes,
            "colour-walk": self.lower_colour_walk,
            "walk": self.lower_walk,
        }[kind]
        rules.update(lower(top, root))
        self.check_closed(top, rules)
        if "expect" in top:
            rules["expect"] = self.guard("expect", None,
                                         lambda: self.read_expect(top["expect"][1]))
        if "layout" in top:
            layout = self.guard("layout", None, lambda: self.read_layout(top["layout"][1]))
            if layout == "auto":
                rules["meta"] = {"layout": "auto"}
            else:
                rules["layout"] = layout
        if "repair" in top:
            from trailkit.models.repair_rules import read_repair_rules

            repair = self.guard("repair", None, lambda: read_repair_rules(
                self, top["repair"][1], rules.get("colour_names"),
                has_layout="layout" in rules))
            if repair is not None:
                rules["repair"] = repair
        return Puzzle(nodes=tuple(self.node_names), source=self.source, **rules)

    def read_nodes(self, node: yaml.Node) -> None:
        """``nodes:``: it declares the nodes; a name listed twice is a problem."""
        items = self.sequence(node, "nodes")
        self.declared = {}
        for i, item in enumerate(items):
            path = f"nodes[{i}]"
            name = self.guard(path, None, lambda item=item, path=path:
                              self.name_text(item, path))
            if name is None:
                self.nodes_complete = False
            elif name in self.declared:
                first = self.loc(self.declared[name]).line
                self.record(self.fail(item, f"node {_short(name)!r} is listed twice in 'nodes:' "
                                      f"(first on line {first}); remove one"), path)
            else:
                self.declared[name] = item
                self.node_id(name)

    def check_closed(self, top: dict, rules: dict[str, Any]) -> None:
        """``closed: true`` with no node both an allowed start and an allowed end is a
        contradiction in the spec, not a puzzle without solutions."""
        if not rules.get("closed") or "closed" not in top:
            return
        start, end = rules.get("start"), rules.get("end")
        if start is None or end is None or start & end:
            return
        names = self.node_names

        def listing(chosen: frozenset[int]) -> str:
            return _shown(sorted(names[v] for v in chosen)) or "none"

        self.record(self.fail(top["closed"][1], "closed: true asks for a walk that ends where "
                              f"it starts, but no allowed start ({listing(start)}) is an "
                              f"allowed end ({listing(end)}); allow a common node, or set "
                              "closed: false", "closed"))

    def read_expect(self, node: yaml.Node) -> dict[str, Any]:
        entries = self.mapping(node, "expect")
        self.check_keys(entries, _EXPECT_KEYS, "expect", "expect", keep_going=True)
        out: dict[str, Any] = {}
        for key, (_, value) in entries.items():
            path = f"expect.{key}"
            if key == "status":
                read: Callable[[], Any] = lambda v=value, p=path: self.choice(  # noqa: E731
                    v, p, ("solved", "unsolvable", "unknown"))
            else:
                read = lambda v=value, p=path: self.integer(v, p)  # noqa: E731
            result = self.guard(path, None, read)
            if result is not None:
                out[key] = result
        return out

    def read_layout(self, node: yaml.Node) -> dict[str, tuple[float, float]] | str:
        """Positions by node name, or ``"auto"`` (a drawing computes them); every key must
        name a node of the puzzle."""
        if isinstance(node, yaml.ScalarNode) and node.value == "auto":
            return "auto"
        if isinstance(node, yaml.ScalarNode):
            raise self.fail(node, "layout must be 'auto' or a mapping of node positions like "
                            f"{{a: [0, 1]}}, not {_short(node.value)!r}"
                            f"{_hint(node.value, ['auto'])}", "layout")
        out: dict[str, tuple[float, float]] = {}
        for name, (key_node, value) in self.mapping(node, "layout").items():
            path = f"layout.{name}"
            position = self.guard(path, None, lambda n=key_node, v=value, p=path:
                                  self.read_position(n, v, p))
            if position is not None:
                out[key_node.value] = position
        return out

    def read_position(self, key_node: yaml.Node, value: yaml.Node, path: str
                      ) -> tuple[float, float]:
        name = key_node.value
        if name not in self.node_index and self.names_known:
            where = "is not listed in 'nodes:'" if self.declared is not None \
                else "is not a node of the puzzle"
            choices = self.declared if self.declared is not None else self.node_names
            raise self.fail(key_node, f"layout names {_short(name)!r}, which {where}"
                            f"{_hint(name, choices)}; fix the name or remove the entry", path)
        items = self.sequence(value, path)
        if len(items) != 2:
            raise self.fail(value, f"{path} must be a position [x, y]", path)
        return self.number(items[0], f"{path}[0]"), self.number(items[1], f"{path}[1]")

    # ---------------------------------------------------------- the kinds
    def read_flag(self, top: dict, key: str, default: bool) -> bool:
        if key not in top:
            return default
        return self.guard(key, default, lambda: self.boolean(top[key][1], key))

    def lower_trail(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        graph = self.read_edges(top, root, palette=None)
        return {**graph, "use": EdgeUse.EXACTLY_ONCE,
                "closed": self.read_flag(top, "closed", False),
                "start": self.read_ends(top, "start"), "end": self.read_ends(top, "end")}

    def lower_dominoes(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        tail: list[int] = []
        head: list[int] = []

        def add(a: str, b: str, where: yaml.Node | Location, path: str) -> None:
            u = self.edge_end(a, where, path)
            tail.append(u)
            head.append(self.edge_end(b, where, path))

        if "dominoes" in top and "dominoes_file" in top:
            self.record(self.fail(top["dominoes_file"][0], "give 'dominoes' or "
                                  "'dominoes_file', not both"))
        if "dominoes_file" in top and "dominoes" not in top:
            side = self.guard("dominoes_file", None, lambda: self.read_side_file(
                top["dominoes_file"][1], "dominoes_file"))
            lines = self.guard("dominoes_file", None, lambda: parse_domino_lines(
                side[1], side[0])) if side else None  # type: ignore[index]
            self.edges_complete = lines is not None
            for line in lines or []:
                path = f"dominoes_file line {line.line}"
                where = Location(side[0], line.line, 1)  # type: ignore[index]
                self.attempt(path, lambda a=line.u, b=line.v, w=where, p=path: add(a, b, w, p))
        elif "dominoes" in top:
            self.read_entries(top["dominoes"][1], "dominoes", self.read_domino,
                              lambda pips, item, path, _: add(pips[0], pips[1], item, path))
        elif "dominoes_file" not in top:
            self.record(self.fail(root, "missing required key 'dominoes' for kind "
                                  "'domino-chain', e.g. dominoes: [[1, 2], \"2|3\", [3, 1]]"))
        return {"tail": tail, "head": head, "use": EdgeUse.EXACTLY_ONCE,
                "closed": self.read_flag(top, "closed", True)}

    def read_domino(self, node: yaml.Node, path: str) -> tuple[str, str]:
        if isinstance(node, yaml.SequenceNode):
            items = self.sequence(node, path)
            if len(items) != 2:
                raise self.fail(node, f"{path} must have two pips, like [1, 2]; it has "
                                f"{len(items)}")
            return self.name_text(items[0], f"{path}[0]", "pip"), \
                self.name_text(items[1], f"{path}[1]", "pip")
        text = self.scalar_text(node, path)
        pips = [p for p in re.split(r"\s*[|:]\s*|\s+", text.strip()) if p]
        if len(pips) != 2:
            raise self.fail(node, f"{path} must be a domino like [1, 2] or \"1|2\", not "
                            f"{_short(text)!r}")
        return pips[0], pips[1]

    def lower_colour_walk(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        rule: ColourRule | None = ColourRule.from_cycle(DEFAULT_COLOURS)
        if "colours" in top:  # a list is the cyclic order; the walk kind's mappings work too
            rule = self.guard("colours", None, lambda: self.read_rule(top["colours"][1]))
        # With an unreadable rule, edge colours and `first` cannot be checked against it.
        graph = self.read_edges(top, root, palette=rule.names if rule else None,
                                need_colour=True)
        self.check_rule_colours()
        for key in ("start", "goal"):
            if key not in top and not (key == "goal" and "end" in top):
                self.record(self.fail(root, f"missing required key {key!r} for kind "
                                      "'colour-walk'"))
        return {**graph, "use": EdgeUse.ANY, "colours": rule,
                "colour_names": rule.names if rule else (),
                "first": self.read_first(top, rule) if rule else None,
                "start": self.read_ends(top, "start"), "end": self.read_goal(top),
                "objective": Objective.SHORTEST}

    def lower_walk(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        rule = self.guard("colours", None, lambda: self.read_rule(top["colours"][1])) \
            if "colours" in top else None
        graph = self.read_edges(top, root, palette=rule.names if rule else None,
                                need_colour=rule is not None)
        self.check_rule_colours()
        use = self.guard("use", EdgeUse.EXACTLY_ONCE, lambda: EdgeUse(self.choice(
            top["use"][1], "use", tuple(u.value for u in EdgeUse)))) \
            if "use" in top else EdgeUse.EXACTLY_ONCE
        objective = self.guard("objective", Objective.ANY, lambda: Objective(self.choice(
            top["objective"][1], "objective", tuple(o.value for o in Objective)))) \
            if "objective" in top else Objective.ANY
        if objective is Objective.LONGEST and use is not EdgeUse.AT_MOST_ONCE:
            self.record(self.fail(top["objective"][1], "objective 'longest' needs 'use: "
                                  "at-most-once' (with reusable edges a walk can be as long "
                                  "as you like)"), "objective")
        if "first" in top and rule is None and "colours" not in top:
            self.record(self.fail(top["first"][0], "'first' needs a colour rule; add "
                                  "'colours:'"))
        return {**graph, "use": use, "colours": rule, "objective": objective,
                "first": self.read_first(top, rule) if rule else None,
                "closed": self.read_flag(top, "closed", False),
                "start": self.read_ends(top, "start"), "end": self.read_goal(top),
                **({"colour_names": rule.names} if rule else {})}

    # ------------------------------------------------------------ colours
    def read_palette(self, node: yaml.Node, path: str) -> tuple[str, ...]:
        items = self.sequence(node, path)
        names = [self.scalar_text(item, f"{path}[{i}]") for i, item in enumerate(items)]
        if not names:
            raise self.fail(node, f"{path} must list at least one colour")
        for i, name in enumerate(names):
            if name in names[:i]:
                raise self.fail(node.value[i], f"colour {_short(name)!r} is listed twice in "
                                f"{path}")
            self.rule_colours.setdefault(name, (items[i], f"{path}[{i}]"))
        self.cycle = tuple(names)
        return self.cycle

    def read_rule(self, node: yaml.Node) -> ColourRule:
        if isinstance(node, yaml.SequenceNode):
            return ColourRule.from_cycle(self.read_palette(node, "colours"))
        entries = self.mapping(node, "colours")
        self.check_keys(entries, ("cycle", "transitions"), "colours", "colours")
        if len(entries) != 1:
            raise self.fail(node, "colours needs exactly one of 'cycle: [...]' or "
                            "'transitions: {colour: [next colours]}'")
        if "cycle" in entries:
            return ColourRule.from_cycle(self.read_palette(entries["cycle"][1], "colours.cycle"))
        table_node = entries["transitions"][1]
        table: dict[str, list[str]] = {}
        raw = self.mapping(table_node, "colours.transitions")
        names: list[str] = list(raw)
        self.rule_keys = set(raw)
        for name, (key, value) in raw.items():
            self.rule_colours.setdefault(name, (key, f"colours.transitions.{name}"))
            path = f"colours.transitions.{name}"
            items = self.sequence(value, path)
            targets = [self.scalar_text(t, f"{path}[{i}]") for i, t in enumerate(items)]
            for i, target in enumerate(targets):
                self.rule_colours.setdefault(target, (items[i], f"{path}[{i}]"))
            names += [t for t in targets if t not in names]
            table[name] = targets
        return ColourRule.from_transitions(names, table)

    def check_rule_colours(self) -> None:
        """A colour the rule names that is on no edge is a typo when it is one edit away
        from a colour on edges (``gren`` beside ``green``), or when a transition leads to
        it and it is no key of the table (the walk would be stuck there); else it is
        allowed (a cycle may name a colour no plank has: the walk never gets past it),
        with a warning for ``lint``."""
        if not self.edges_complete:
            return  # a skipped edge may have carried it
        on_edges = _shown(sorted(self.edge_colours)) or "none"
        for name, (node, path) in self.rule_colours.items():
            if name in self.edge_colours:
                continue
            typo = one_edit_away(name, self.edge_colours)
            if typo is not None:
                self.record(self.fail(node, f"colour {_short(name)!r} in {path} is on no "
                                      f"edge (did you mean {_short(typo)!r}?); fix the "
                                      f"colour (colours on edges: {on_edges})", path))
            elif name not in self.rule_keys:
                if path.startswith("colours.transitions"):
                    hint = _hint(name, sorted(self.edge_colours | self.rule_keys))
                    self.record(self.fail(
                        node, f"colour {_short(name)!r} in {path} is on no edge{hint}; every "
                        "colour a transition leads to must be on some edge or be a key of "
                        f"the table (colours on edges: {on_edges})", path))
                else:
                    before = self.cycle[self.cycle.index(name) - 1]
                    self.warn(node, f"colour {_short(name)!r} in {path} is on no edge, so a "
                              f"walk can never go on after a {_short(before)!r} step (colours "
                              f"on edges: {on_edges}); fine if that is meant", path)
            else:
                self.warn(node, f"colour {_short(name)!r} (a key of colours.transitions) "
                          f"is on no edge, so its row never applies (colours on edges: "
                          f"{on_edges})", path)

    def read_first(self, top: dict, rule: ColourRule) -> frozenset[int] | None:
        if "first" not in top:
            return None
        return self.guard("first", None, lambda: self.read_first_colours(top["first"][1], rule))

    def read_first_colours(self, node: yaml.Node, rule: ColourRule) -> frozenset[int] | None:
        items = self.sequence(node, "first") if isinstance(node, yaml.SequenceNode) else [node]
        chosen: set[int] = set()
        for i, item in enumerate(items):
            text = self.scalar_text(item, f"first[{i}]" if len(items) > 1 else "first")
            if text == "any" and len(items) == 1:
                return None
            if text not in rule.names:
                raise self.fail(item, f"unknown colour {_short(text)!r} in first"
                                f"{_hint(text, rule.names)} (colours are "
                                f"{_shown(rule.names)})")
            chosen.add(rule.names.index(text))
        return frozenset(chosen)

    # -------------------------------------------------------------- edges
    def read_edges(self, top: dict, root: yaml.Node, palette: tuple[str, ...] | None,
                   need_colour: bool = False) -> dict[str, Any]:
        """Read ``edges`` (or ``edges_file``) into the parallel arrays of a :class:`Puzzle`.

        A bad edge is recorded and left out; the ones after it are still read.
        """
        tail: list[int] = []
        head: list[int] = []
        colour: list[int] = []
        directed: list[bool] = []
        ids: list[Any] = []  # empty after a whole edge list, whose ids are its positions
        kept: dict[str, tuple[list[int], np.ndarray]] = {}  # see Puzzle.edge_arrays
        labels: list[str] = list(palette or ())
        label_index = {name: i for i, name in enumerate(labels)}
        seen_ids: dict[str, yaml.Node | Location] = {}

        def colour_id(name: str | None, where: yaml.Node | Location, path: str) -> int:
            if name is None:
                if need_colour:
                    raise self.fail(where, f"{path} has no colour, but the puzzle's colour "
                                    "rule needs one on every edge; add it, like 'A B red'")
                return -1
            index = label_index.get(name)
            if index is None:
                if palette is not None:
                    raise self.fail(where, f"unknown colour {_short(name)!r} in {path}"
                                    f"{_hint(name, palette)} (colours are {_shown(palette)})")
                index = label_index[name] = len(labels)
                labels.append(name)
            return index

        def add(edge: tuple[str, str, str | None, bool, Any], where: yaml.Node | Location,
                path: str, default_id: int) -> None:
            u_name, v_name, c, one_way, edge_id = edge
            if c is not None:
                self.edge_colours.add(c)
            u = self.edge_end(u_name, where, path)
            v = self.edge_end(v_name, where, path)
            c_id = colour_id(c, where, path)
            edge_id = default_id if edge_id is None else edge_id
            key = str(edge_id)
            if key in seen_ids:
                first = seen_ids[key]
                line = (first if isinstance(first, Location) else self.loc(first)).line
                raise self.fail(where, f"edge id {_short(key)!r} is used twice (first at line "
                                f"{line}); ids must be unique")
            seen_ids[key] = where
            tail.append(u)
            head.append(v)
            colour.append(c_id)
            directed.append(one_way)
            ids.append(edge_id)

        def take(scanned: ScannedEdges | None, shown: str, first_line: int) -> bool:
            """Take the columns of the compiled scan (:func:`scan_edges`) when it could
            read the text and every name and colour in it is one the spec allows; else
            ``False``, and the line-by-line reading says what is wrong."""
            nonlocal tail, head, directed, ids
            if scanned is None or (scanned.colours is None and need_colour):
                return False
            if palette is not None and not set(scanned.colour_names) <= set(palette):
                return False
            index = self.node_index
            if (self.declared is not None and self.nodes_complete
                    and not all(name in index for name in scanned.names)):
                return False
            ends = scanned.ends
            if index:  # numbers after the names known already
                ends = np.array(self.number_names(scanned.names), dtype=np.int64)[ends]
            else:  # indexed when first needed (see node_index)
                self.node_names.extend(scanned.names)
                self._unindexed = len(scanned.names)
            if scanned.colours is not None:
                self.edge_colours.update(scanned.colour_names)
                for name in scanned.colour_names:  # without a palette, new colours join
                    if name not in label_index:
                        colour_id(name, Location(shown, first_line, 1), "this line")
                codes = np.array([label_index[name] for name in scanned.colour_names],
                                 dtype=np.int64)
                colour_codes = codes[scanned.colours]
                colour.extend(colour_codes.tolist())
            tails = np.ascontiguousarray(ends[0::2], dtype=np.int64)
            heads = np.ascontiguousarray(ends[1::2], dtype=np.int64)
            tail, head = tails.tolist(), heads.tolist()
            kept.update(tail=(tail, tails), head=(head, heads))
            if scanned.colours is not None:
                kept["colour"] = (colour, colour_codes)
            directed = [False] * scanned.lines
            ids = []
            return True

        def columns(text: str, shown: str, first_line: int = 1, lead: int = 0) -> None:
            """Take the edges of edge-list ``text`` (each line after its first ``lead``
            bytes, see :class:`_InlineEdges`) column by column, checking each new name
            and colour once: the fast path of million-edge lists (the ids are the line
            positions, never repeated). Problems are located at ``shown``'s lines."""
            nonlocal tail, head, directed, ids

            def bad_line(problem: SpecError) -> None:
                self.record(problem, "edges_file")
                self.edges_complete = False

            if text.count("\n") >= jit.COMPILE_FROM and take(scan_edges(text, lead=lead),
                                                               shown, first_line):
                return
            if lead:  # the line reader reads the items alone
                text = text[lead:].replace("\n" + text[:lead], "\n")
            us, vs, names, numbers, arrows = parse_edge_columns(
                text, shown, allow_arrow=True, on_error=bad_line)
            before = len(self.problems)
            index = self.node_index
            ends: list[str] = [""] * (2 * len(us))
            ends[0::2], ends[1::2] = us, vs
            codes: list[int] | None = None
            if self.declared is None or not self.nodes_complete:
                codes = self.number_names(ends)
            else:  # every name must be declared (and so is known): report each miss
                for u, v, number in zip(us, vs, numbers, strict=True):
                    for name in (u, v):
                        if name not in index:
                            self.attempt("edges_file", lambda n=name, at=number: self.edge_end(
                                n, Location(shown, at + first_line - 1, 1), "this line"))
            if need_colour or any(c is not None for c in names):
                self.edge_colours.update(c for c in set(names) if c is not None)
                if palette is None:  # each new colour word joins the labels, in order
                    for name in dict.fromkeys(names):
                        if name is not None and name not in label_index:
                            colour_id(name, Location(shown, first_line, 1), "this line")
                lookup: dict[str | None, int] = dict(label_index)
                if not need_colour:
                    lookup[None] = -1
                colour.extend(map(lookup.get, names))  # type: ignore[arg-type]
                if None in colour:  # a missing or unknown colour: name by name, as ever
                    colour.clear()
                    for name, number in zip(names, numbers, strict=True):
                        known = label_index.get(name) if name is not None else None
                        colour.append(known if known is not None else self.guard(
                            "edges_file", -1, lambda n=name, at=number + first_line - 1:
                            colour_id(n, Location(shown, at, 1), "this line")))
            if len(self.problems) == before:
                tail = codes[0::2] if codes is not None else list(map(index.__getitem__, us))
                head = codes[1::2] if codes is not None else list(map(index.__getitem__, vs))
                directed = arrows
                ids = []

        if "edges" in top and "edges_file" in top:
            self.record(self.fail(top["edges_file"][0], "give 'edges' or 'edges_file', not "
                                  "both"))
        if "edges" in top and self.inline_edges is not None:
            # the fast reader's edges (see _read_fast); the list in the tree is its
            # placeholder, which must be where the scan found the list
            inline = self.inline_edges
            node = top["edges"][1]
            if not (isinstance(node, yaml.SequenceNode) and not node.value
                    and node.start_mark.line + 1 == inline.line):
                raise _Fatal("the fast reader's edge list is not the spec's", self.loc(node))
            text = inline.lines
            items = text.count("\n") + (not text.endswith("\n"))  # one a line
            self.spend(node, 2 * items)  # what the full reader spends on them
            columns(text, self.source, inline.line + 1, inline.lead)
        elif "edges" in top:
            self.read_entries(top["edges"][1], "edges", self.read_edge, add)
        elif "edges_file" in top:
            side = self.guard("edges_file", None, lambda: self.read_side_file(
                top["edges_file"][1], "edges_file"))
            if side is None:
                self.edges_complete = False
            else:
                columns(side[1], side[0])
        else:
            self.record(self.fail(root, "missing required key 'edges', e.g. edges: [a b, b c]"))
        out: dict[str, Any] = {"tail": tail, "head": head}
        if any(c >= 0 for c in colour) or need_colour:
            out["colour"] = colour
            out["colour_names"] = tuple(labels)
        if kept:
            out["edge_arrays"] = {name: kept[name] for name in kept if name in out}
        if any(directed):
            out["directed"] = directed
        if ids and ids != list(range(len(ids))):  # ids are ints and texts: positions pass
            out["edge_ids"] = ids
        return out

    def read_entries(self, node: yaml.Node, key: str, read: Callable[[yaml.Node, str], _T],
                     use: Callable[[_T, yaml.Node, str, int], None]) -> None:
        """Read each item of the list ``key`` (edges, dominoes) with ``read`` and hand it to
        ``use`` with its node, key path and position. An item that cannot be read is
        recorded and leaves :attr:`edges_complete` false (its names are unknown); one that
        ``use`` rejects is recorded too, and the items after either are still read."""
        items = self.guard(key, None, lambda: self.sequence(node, key))
        self.edges_complete = items is not None
        for i, item in enumerate(items or []):
            path = f"{key}[{i}]"
            entry = None
            try:  # as guard() does, without two closures per item (specs list 10^5 edges)
                entry = read(item, path)
                use(entry, item, path, i)
            except _Fatal:
                raise
            except SpecError as exc:
                self.record(exc, path)
                if entry is None:
                    self.edges_complete = False

    def attempt(self, path: str, action: Callable[[], object]) -> bool:
        """Run ``action``; ``False`` after recording the problem it raised (as :meth:`guard`)."""
        return self.guard(path, False, lambda: action() or True)

    def read_edge(self, node: yaml.Node, path: str) -> tuple[str, str, str | None, bool, Any]:
        """One edge as ``(u, v, colour, one_way, id)`` from any of its three written forms."""
        if isinstance(node, yaml.MappingNode):
            entries = self.mapping(node, path)
            self.check_keys(entries, ("from", "to", "colour", "directed", "id"), path, "an edge")
            for key in ("from", "to"):
                if key not in entries:
                    raise self.fail(node, f"{path} is missing {key!r}; an edge needs 'from' and "
                                    "'to'")
            u = self.name_text(entries["from"][1], f"{path}.from")
            v = self.name_text(entries["to"][1], f"{path}.to")
            colour_entry = entries.get("colour")
            c = self.scalar_text(colour_entry[1], f"{path}.colour") if colour_entry else None
            one_way = self.boolean(entries["directed"][1], f"{path}.directed") \
                if "directed" in entries else False
            edge_id: Any = None
            if "id" in entries:
                id_node = entries["id"][1]
                text = self.scalar_text(id_node, f"{path}.id")
                edge_id = self.integer(id_node, f"{path}.id") \
                    if id_node.tag == _YAML + "int" and text.isdigit() else text
            return u, v, c, one_way, edge_id
        if isinstance(node, yaml.SequenceNode):
            items = self.sequence(node, path)
            parts = [self.name_text(x, f"{path}[{j}]") for j, x in enumerate(items)]
        else:
            parts = self.scalar_text(node, path).split()
            if not parts:
                raise self.fail(node, f"{path} is empty; write 'u v' or 'u v colour'")
        try:
            u, v, c, one_way = edge_from_fields(parts)
        except EdgeTextError as exc:
            raise self.fail(node, f"{path} {exc}") from None
        return u, v, c, one_way, None

    def read_side_file(self, node: yaml.Node, key: str) -> tuple[str, str] | None:
        """``(name as shown, text)`` of the plain-text side file named by ``key``, relative to
        the spec's folder only; ``None`` when its control characters were recorded."""
        name = self.string(node, key)
        bad = _NOT_PRINTABLE.search(name) or re.search(r"[\x00-\x1f\x7f]", name)
        if bad:
            raise self.fail(node, f"the file name in '{key}' holds the control character "
                            f"U+{ord(bad.group()):04X} (at character {bad.start() + 1}); "
                            "write the plain file name")
        if self.base_dir is None:
            raise self.fail(node, f"'{key}' only works in a spec loaded from a file")
        base = self.base_dir.resolve()
        try:
            target = (base / name).resolve()
        except (OSError, ValueError) as exc:
            raise self.fail(node, f"cannot read {_short(name)!r}: {_os_reason(exc)}") from None
        if not target.is_relative_to(base):
            raise self.fail(node, f"'{key}' must name a file inside the spec's folder {base}")
        try:
            data = target.read_bytes()
        except (OSError, ValueError) as exc:
            raise self.fail(node, f"cannot read {_short(name)!r}: {_os_reason(exc)}") from None
        shown = str(self.base_dir / name)
        text = decode_utf8(data, shown)
        stray = _control_characters(text, shown, in_yaml=False)
        for problem in stray:
            self.record(problem, key)
        return None if stray else (shown, text)

    # ---------------------------------------------------------- endpoints
    def read_ends(self, top: dict, key: str) -> frozenset[int] | None:
        if key not in top:
            return None
        return self.guard(key, None, lambda: self.read_node_set(top[key][1], key))

    def read_goal(self, top: dict) -> frozenset[int] | None:
        if "goal" in top and "end" in top:
            self.record(self.fail(top["goal"][0], "'goal' and 'end' mean the same; keep one"))
        return self.read_ends(top, "goal" if "goal" in top else "end")

    def read_node_set(self, node: yaml.Node, key: str) -> frozenset[int] | None:
        items = self.sequence(node, key) if isinstance(node, yaml.SequenceNode) else [node]
        if not items:
            raise self.fail(node, f"{key} is an empty list: no node is allowed; name at least "
                            "one node, or write 'any'", key)
        chosen = set()
        for i, item in enumerate(items):
            path = f"{key}[{i}]" if isinstance(node, yaml.SequenceNode) else key
            name = self.name_text(item, path)
            if name == "any" and not isinstance(node, yaml.SequenceNode):
                return None
            number = self.node_number(name)
            if number is None:
                if not self.names_known:
                    continue  # it may be an end of an edge that was left out
                if self.declared is not None:
                    raise self.fail(item, f"{path} names {_short(name)!r}, which is not listed "
                                    f"in 'nodes:'{_hint(name, self.declared)}; fix the name, "
                                    "or add it to 'nodes:'", path)
                raise self.fail(item, f"{path} names {_short(name)!r}, which appears nowhere in "
                                f"the spec{_hint(name, self.node_names)}; list it under "
                                "'nodes:' if it really has no edges", path)
            chosen.add(number)
        return frozenset(chosen)


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message (a pasted megabyte stays out)."""
    return text if len(text) <= limit else f"{text[:limit - 3]}..."
