"""Plain-text edge lists: the plank format of the tyre puzzle, and domino lists.

One edge per line, ``U V`` or ``U V colour`` (``U -> V [colour]`` for a one-way edge
where the caller allows it); ``#`` starts a comment; blank lines are ignored. Domino
lists accept ``1 2``, ``1|2`` or ``1:2`` per line. These readers serve ``trailkit
import`` and the ``edges_file:`` path for big specs. :func:`edge_from_fields` reads the
fields of one edge; the inline ``edges:`` strings of a spec use it too, so a side file
reads every edge form the inline list reads, with the same messages.

>>> lines = parse_edge_lines("# start\\nA E red\\nB C blue  # note\\n", "p.txt")
>>> [(e.u, e.v, e.colour, e.line) for e in lines]
[('A', 'E', 'red', 2), ('B', 'C', 'blue', 3)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from trailkit.models.errors import Location, SpecError

__all__ = ["ARROWS", "EdgeLine", "EdgeTextError", "decode_utf8", "edge_from_fields",
           "find_repeats", "looks_like_edge_list", "parse_domino_lines", "parse_edge_columns",
           "parse_edge_lines", "yaml_text"]

ARROWS = ("->", "→")
"""The words that make ``u -> v`` a one-way edge from ``u`` to ``v``."""


@dataclass(frozen=True, slots=True)
class EdgeLine:
    """One edge read from a text file, with the 1-based line it came from."""

    u: str
    v: str
    colour: str | None
    line: int
    directed: bool = False


class EdgeTextError(ValueError):
    """One edge's fields do not make an edge; ``str()`` is the message without its subject
    (the caller says which edge: ``edges[3]`` or a file's line)."""


def edge_from_fields(fields: list[str], *, allow_colour: bool = True,
                     allow_arrow: bool = True) -> tuple[str, str, str | None, bool]:
    """The edge ``(u, v, colour, one_way)`` that the words ``fields`` of one edge spell.

    ``u v``, ``u v colour``, and (with ``allow_arrow``) ``u -> v`` / ``u -> v colour``
    for a one-way edge. Raises :class:`EdgeTextError` saying what was read and what to
    write instead (an indentation slip that merges two YAML list items shows up here as
    too many fields).

    >>> edge_from_fields(["a", "->", "b", "red"])
    ('a', 'b', 'red', True)
    """
    one_way = len(fields) >= 3 and fields[1] in ARROWS
    if one_way and not allow_arrow:
        raise EdgeTextError(f"is a one-way edge ({' '.join(fields)!r}), but one-way edges "
                            "are not allowed here; write 'U V colour'")
    parts = [fields[0], *fields[2:]] if one_way else fields
    width = 3 if allow_colour else 2
    if len(parts) == 1:
        raise EdgeTextError(f"has one end ({parts[0]!r}); an edge needs two, like 'a b' or "
                            "'a b red'")
    if not 2 <= len(parts) <= width:
        want = "'u v' or 'u v colour'" if allow_colour else "'u v'"
        slip = (" (two items merged into one: is a line indented too far or missing its "
                "'- '?)" if "-" in parts else "")
        raise EdgeTextError(f"has {len(parts)} fields ({' '.join(fields)!r}); write {want}"
                            f"{slip}")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else None, one_way


def parse_edge_columns(text: str, source: str, *, allow_colour: bool = True,
                       allow_arrow: bool = False,
                       on_error: Callable[[SpecError], None] | None = None
                       ) -> tuple[list[str], list[str], list[str | None], list[int], list[bool]]:
    """Read edge lines into columns ``(us, vs, colours, line_numbers, one_way)``.

    Each line is read by :func:`edge_from_fields` (``allow_arrow`` admits ``U -> V``);
    no object per edge, so million-edge files stay small. A bad line raises a located
    :class:`SpecError`, or with ``on_error`` is passed to it and left out (so a linter
    sees every bad line).
    """
    uniform = _uniform_columns(text, 3 if allow_colour else 2)  # the fast path
    if uniform is not None:
        return uniform
    return _line_by_line(text, source, allow_colour, allow_arrow, on_error)


def _line_by_line(text: str, source: str, allow_colour: bool, allow_arrow: bool,
                  on_error: Callable[[SpecError], None] | None
                  ) -> tuple[list[str], list[str], list[str | None], list[int], list[bool]]:
    """:func:`parse_edge_columns` for a text whose lines are not all alike: each line
    read on its own, plain ones inline (no call per line), the others by
    :func:`edge_from_fields` (:func:`_other_line`)."""
    us: list[str] = []
    vs: list[str] = []
    colours: list[str | None] = []
    numbers: list[int] = []
    one_way: list[bool] = []
    widest = 3 if allow_colour else 2
    add_u, add_v, add_colour = us.append, vs.append, colours.append
    add_number, add_arrow = numbers.append, one_way.append
    for number, raw in enumerate(text.splitlines(), start=1):
        fields = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        width = len(fields)
        if width == 2 or (width == widest and fields[1] not in ARROWS):
            # 'u v' / 'u v colour', read as edge_from_fields reads them but without a
            # call per line: the fast path of million-edge files
            add_u(fields[0])
            add_v(fields[1])
            add_colour(fields[2] if width == 3 else None)
            add_number(number)
            add_arrow(False)
            continue
        edge = _other_line(fields, Location(source, number, 1), allow_colour, allow_arrow,
                           on_error) if width else None
        if edge is None:
            continue
        u, v, colour, arrow = edge
        add_u(u)
        add_v(v)
        add_colour(colour)
        add_number(number)
        add_arrow(arrow)
    return us, vs, colours, numbers, one_way


def _other_line(fields: list[str], where: Location, allow_colour: bool, allow_arrow: bool,
                on_error: Callable[[SpecError], None] | None
                ) -> tuple[str, str, str | None, bool] | None:
    """The edge on a line that is not plain ``u v [colour]`` (an arrow, a bad line), by
    :func:`edge_from_fields`; a bad line raises a :class:`SpecError` at ``where``, or is
    passed to ``on_error`` and gives ``None``."""
    try:
        return edge_from_fields(fields, allow_colour=allow_colour, allow_arrow=allow_arrow)
    except EdgeTextError as exc:
        problem = SpecError(f"this line {exc}", where)
        if on_error is None:
            raise problem from None
        on_error(problem)
        return None


_ODD_SPACE = re.compile(r"[^\S \t\n]")
"""Whitespace other than spaces, tabs and newlines (``\\r``, no-break spaces, ``\\x85``):
where ``str.split`` and ``str.splitlines`` would cut differently from a plain reading."""


def _uniform_columns(text: str, widest: int
                     ) -> tuple[list[str], list[str], list[str | None], list[int],
                                list[bool]] | None:
    """The columns of ``text`` when every line is ``u v`` (or every line ``u v colour``,
    ``widest`` 3), with no comment, blank line, arrow or unusual whitespace: NumPy counts
    the words of every line at once and one ``split`` cuts them, instead of a loop over
    the lines (the common case of million-edge files). ``None`` for anything else; the
    caller then reads it line by line, to the same result."""
    if not text or "#" in text or "->" in text or "→" in text:
        return None
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    newline = data == 10
    gap = newline | (data == 32) | (data == 9)
    if ((data < 32) & ~gap).any() or (not text.isascii() and _ODD_SPACE.search(text)):
        return None
    words = text.split()
    starts = ~gap
    starts[1:] &= gap[:-1]
    first = np.flatnonzero(starts)  # where each word starts
    ends = np.flatnonzero(newline)  # where each line ends
    lines = len(ends) + (not text.endswith("\n"))
    for width in (2, 3)[:widest - 1]:
        if len(words) != width * lines or len(first) != len(words):
            continue
        # each line's first word after the previous line's end, its last before its own
        after = first[0::width][1:] > ends[:lines - 1]
        before = first[width - 1::width][:len(ends)] < ends
        if not (after.all() and before.all()):
            continue
        colours: list[str | None] = [None] * lines if width == 2 else list(words[2::width])
        return (words[0::width], words[1::width], colours, list(range(1, lines + 1)),
                [False] * lines)
    return None


def parse_edge_lines(text: str, source: str, *, allow_colour: bool = True,
                     allow_arrow: bool = False) -> list[EdgeLine]:
    """Read edge lines (see :func:`parse_edge_columns`); raise :class:`SpecError` at the
    first bad line."""
    us, vs, colours, numbers, one_way = parse_edge_columns(
        text, source, allow_colour=allow_colour, allow_arrow=allow_arrow)
    return [EdgeLine(*row) for row in zip(us, vs, colours, numbers, one_way, strict=True)]


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def _wide_encoding(data: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` when ``data`` looks like such a file: a byte order mark,
    or the NUL bytes that text mostly of ASCII has in one of every two (or three of every
    four) byte positions."""
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if len(head) < 4 or head.count(0) * 3 < len(head):
        return None

    def mostly_nul(step: int, offset: int) -> bool:
        part = head[offset::step]
        return part.count(0) * 4 >= len(part) * 3

    if sum(mostly_nul(4, k) for k in range(4)) >= 3:
        return "UTF-32"
    if mostly_nul(2, 0) or mostly_nul(2, 1):
        return "UTF-16"
    return None


def decode_utf8(data: bytes, source: str) -> str:
    """Decode file bytes as UTF-8 (a BOM is allowed); a located error says where it fails.

    A UTF-16 or UTF-32 file (Windows editors write them) is named as such, with what to
    do, rather than reported as stray NUL bytes.
    """
    wide = _wide_encoding(data)
    if wide is not None:
        raise SpecError(f"this file is {wide}; save it as UTF-8 (in most editors: "
                        "'Save with encoding' or 'Encoding: UTF-8')", Location(source, 1, 1))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SpecError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                        "save it as UTF-8", Location(source, line, column)) from None


_DOMINO_SPLIT = re.compile(r"\s*[|:]\s*|\s+")


def parse_domino_lines(text: str, source: str) -> list[EdgeLine]:
    """Read one domino per line as ``1 2``, ``1|2`` or ``1:2`` (``#`` comments allowed)."""
    out: list[EdgeLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip().strip("[]")
        if not body:
            continue
        pips = [p for p in _DOMINO_SPLIT.split(body) if p]
        if len(pips) != 2:
            raise SpecError(f"a domino needs two pips, like '1|2', not {raw.strip()!r}",
                            Location(source, number, 1))
        out.append(EdgeLine(pips[0], pips[1], None, number))
    return out


_PLANK_LINE = re.compile(r"\S+\s+\S+\s+\S+")
_PAIR_LINE = re.compile(r"\S+\s+\S+")
_DOMINO_LINE = re.compile(r"\[?\s*\d+\s*(?:[|:]|\s)\s*\d+\s*\]?")


def looks_like_edge_list(text: str) -> tuple[str, int] | None:
    """What plain list ``text`` reads as, rather than a YAML spec: ``("dominoes", line)``
    (``1 2``, ``1|2`` per line), ``("planks", line)`` (``A E red``) or ``("edges", line)``
    (``a b``), with the line of its first entry; ``None`` when it is none of these.

    Lets the spec reader suggest ``trailkit import`` when such a file is given as a spec.

    >>> looks_like_edge_list("# start\\nA E red\\nB C blue\\n")
    ('planks', 2)
    """
    entries = [(number, raw.split("#", 1)[0].strip())
               for number, raw in enumerate(text.splitlines()[:2000], start=1)]
    entries = [(number, body) for number, body in entries if body]
    if not entries or any(body.split()[0].endswith(":") or body[0] in "-{&*!%"
                          for _, body in entries):
        return None  # YAML keys, list items or flow mappings: a (broken) spec, not a list
    first = entries[0][0]
    for kind, pattern in (("dominoes", _DOMINO_LINE), ("planks", _PLANK_LINE),
                          ("edges", _PAIR_LINE)):
        if all(pattern.fullmatch(body) for _, body in entries):
            return kind, first
    return None


def find_repeats(edges: list[EdgeLine]) -> list[tuple[EdgeLine, EdgeLine]]:
    """Pairs ``(first, repeat)`` of lines that name the same edge (either direction)."""
    seen: dict[tuple[str, str, str | None], EdgeLine] = {}
    repeats = []
    for edge in edges:
        key = (min(edge.u, edge.v), max(edge.u, edge.v), edge.colour)
        if key in seen:
            repeats.append((seen[key], edge))
        else:
            seen[key] = edge
    return repeats


_PLAIN_SCALAR = re.compile(r"[A-Za-z0-9_.\-]+(?: [A-Za-z0-9_.\-]+)*")


def yaml_text(text: str) -> str:
    """``text`` as a YAML scalar that reads back as exactly this string (quoted if needed),
    for the specs trailkit writes (imports, repairs).

    >>> yaml_text("AA AB green"), yaml_text("NO"), yaml_text("1:2")
    ('AA AB green', '"NO"', '"1:2"')
    """
    import json

    import yaml

    if _PLAIN_SCALAR.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)
