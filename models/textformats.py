"""Plain-text edge lists: the plank format of the tyre puzzle, and domino lists.

One edge per line, ``U V`` or ``U V colour``; ``#`` starts a comment; blank lines
are ignored. Domino lists accept ``1 2``, ``1|2`` or ``1:2`` per line. These
readers serve ``trailkit import`` and the ``edges_file:`` fast path for big specs.

>>> lines = parse_edge_lines("# start\\nA E red\\nB C blue  # note\\n", "p.txt")
>>> [(e.u, e.v, e.colour, e.line) for e in lines]
[('A', 'E', 'red', 2), ('B', 'C', 'blue', 3)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trailkit.models.errors import Location, SpecError

__all__ = ["EdgeLine", "decode_utf8", "find_repeats", "parse_domino_lines", "parse_edge_columns",
           "parse_edge_lines"]


@dataclass(frozen=True, slots=True)
class EdgeLine:
    """One edge read from a text file, with the 1-based line it came from."""

    u: str
    v: str
    colour: str | None
    line: int


def parse_edge_columns(text: str, source: str, *, allow_colour: bool = True
                       ) -> tuple[list[str], list[str], list[str | None], list[int]]:
    """Read ``U V [colour]`` lines into columns ``(us, vs, colours, line_numbers)``.

    The fast path for million-edge files: no object per edge. Raises
    :class:`SpecError` at the first bad line.
    """
    us: list[str] = []
    vs: list[str] = []
    colours: list[str | None] = []
    numbers: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        fields = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        width = len(fields)
        if width == 2 or (width == 3 and allow_colour):
            us.append(fields[0])
            vs.append(fields[1])
            colours.append(fields[2] if width == 3 else None)
            numbers.append(number)
        elif width:
            want = "'U V' or 'U V colour'" if allow_colour else "'U V'"
            raise SpecError(f"expected {want} but found {width} field(s): {raw.strip()!r}",
                            Location(source, number, 1))
    return us, vs, colours, numbers


def parse_edge_lines(text: str, source: str, *, allow_colour: bool = True) -> list[EdgeLine]:
    """Read ``U V [colour]`` lines; raise :class:`SpecError` at the first bad line."""
    return [EdgeLine(*row) for row in zip(*parse_edge_columns(text, source,
                                                              allow_colour=allow_colour),
                                          strict=True)]


def decode_utf8(data: bytes, source: str) -> str:
    """Decode file bytes as UTF-8 (a BOM is allowed); a located error says where it fails."""
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
