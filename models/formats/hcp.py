"""TSPLIB's Hamiltonian cycle files (``TYPE : HCP``) in and out: what ``trailkit import
hcp`` reads and ``trailkit export --format hcp`` writes.

The format is TSPLIB's (Reinelt, "TSPLIB 95", section 1.1), as the FHCP challenge set
and TSPLIB ship their Hamiltonian cycle problems: ``KEY : VALUE`` lines (``NAME``,
``COMMENT``, ``TYPE : HCP``, ``DIMENSION``, ``EDGE_DATA_FORMAT : EDGE_LIST``), then
``EDGE_DATA_SECTION`` with the edges as pairs of node numbers 1..DIMENSION, ended by
``-1`` and ``EOF``. Some published files lack the ``-1`` or the ``EOF``: the end of the
file ends the section then. Every mistake is a :class:`SpecError` naming the file, line
and column. The spec written is ``kind: tour`` (CONTRACT section 7) with nodes ``"1"``
.. ``"n"`` in the file's order, so a file read, exported and read again is the same
graph, node for node.

>>> graph = parse_hcp("NAME : tri\\nTYPE : HCP\\nDIMENSION : 3\\n"
...                   "EDGE_DATA_FORMAT : EDGE_LIST\\nEDGE_DATA_SECTION\\n"
...                   "1 2\\n2 3\\n3 1\\n-1\\nEOF\\n", "tri.hcp")
>>> graph.name, graph.dimension, graph.edges
('tri', 3, [(1, 2), (2, 3), (3, 1)])
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from trailkit.models.errors import Location, SpecError, TrailkitError
from trailkit.models.formats.inputs import InputRefused, read_bounded
from trailkit.models.formats.textformats import decode_utf8, yaml_text
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.hints import did_you_mean

__all__ = ["MAX_HCP_BYTES", "HcpGraph", "hcp_refusal", "hcp_text", "import_hcp", "parse_hcp"]

MAX_HCP_BYTES = 50 * 1024 * 1024
"""A file over this size is refused: the spec made of it would be over the spec limit."""

_KEYS = ("NAME", "COMMENT", "TYPE", "DIMENSION", "EDGE_DATA_FORMAT")
_SECTION = "EDGE_DATA_SECTION"
_TOKEN = re.compile(r"\S+")
_SECTION_LINE = re.compile(rf"{_SECTION}\s*:?", re.IGNORECASE)


@dataclass
class HcpGraph:
    """What an HCP file says: its name, comment, number of nodes and edges (1-based pairs
    in the file's order), and remarks worth a warning."""

    name: str | None = None
    comment: str | None = None
    dimension: int = 0
    edges: list[tuple[int, int]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def import_hcp(path: str, *, name: str | None = None) -> tuple[str, list[str]]:
    """Return ``(spec_text, warnings)`` for the HCP file at ``path``; raise
    :class:`SpecError` (located) on a file that is not one."""
    try:
        data = read_bounded(path, MAX_HCP_BYTES)
    except InputRefused as exc:
        raise SpecError(f"cannot read the file: {exc}; name a TSPLIB .hcp file",
                        Location(path)) from None
    graph = parse_hcp(decode_utf8(data, path), path)
    return _spec_text(graph, path, name), graph.warnings


def parse_hcp(text: str, path: str) -> HcpGraph:
    """The graph an HCP file's ``text`` holds (``path`` names it in messages)."""
    graph = HcpGraph()
    lines = text.splitlines()
    seen: dict[str, int] = {}
    at = 0
    while at < len(lines):
        raw = lines[at]
        at += 1
        stripped = raw.strip()
        if not stripped:
            continue
        if _SECTION_LINE.fullmatch(stripped):
            _check_header(graph, seen, path, at)
            _read_pairs(graph, _tokens(lines, at, path))
            _note_repeats(graph, path)
            return graph
        if stripped.upper() == "EOF":
            break
        _header_line(graph, seen, raw, at, path)
    _check_header(graph, seen, path, at)
    raise SpecError(f"no {_SECTION}: the edges follow a line '{_SECTION}' after the header",
                    Location(path, max(1, len(lines))))


def _header_line(graph: HcpGraph, seen: dict[str, int], raw: str, line: int,
                 path: str) -> None:
    """One ``KEY : VALUE`` line of the header, recorded in ``graph``."""
    column = len(raw) - len(raw.lstrip()) + 1
    if ":" not in raw:
        raise SpecError(f"expected 'KEY : VALUE' (one of {', '.join(_KEYS)}) or "
                        f"'{_SECTION}', found {raw.strip()[:40]!r}", Location(path, line, column))
    key, value = (part.strip() for part in raw.split(":", 1))
    upper = key.upper()
    if upper not in _KEYS:
        raise SpecError(f"unknown keyword {key!r}{did_you_mean(upper, [*_KEYS, _SECTION])}; an "
                        f"HCP file's header has {', '.join(_KEYS)}", Location(path, line, column))
    if upper in seen:
        raise SpecError(f"{upper} is given twice (first on line {seen[upper]}); keep one",
                        Location(path, line, column))
    seen[upper] = line
    after = raw.split(":", 1)[1]
    where = Location(path, line, raw.index(":") + 2 + len(after) - len(after.lstrip()))
    if upper == "NAME":
        graph.name = value
    elif upper == "COMMENT":
        graph.comment = value
    elif upper == "TYPE" and value.upper() != "HCP":
        raise SpecError(f"TYPE is {value!r}: import hcp reads Hamiltonian cycle problems, "
                        "'TYPE : HCP' (a TSP or ATSP file has edge weights, which a tour "
                        "here does not)", where)
    elif upper == "EDGE_DATA_FORMAT" and value.upper() != "EDGE_LIST":
        raise SpecError(f"EDGE_DATA_FORMAT is {value!r}: import hcp reads 'EDGE_DATA_FORMAT : "
                        "EDGE_LIST' (the edges as pairs of node numbers)", where)
    elif upper == "DIMENSION":
        if not value.isdigit() or int(value) < 1:
            raise SpecError(f"DIMENSION must be the number of nodes (a whole number 1 or "
                            f"more), not {value!r}", where)
        graph.dimension = int(value)


def _check_header(graph: HcpGraph, seen: dict[str, int], path: str, line: int) -> None:
    """The header says ``TYPE : HCP`` and the ``DIMENSION`` before the edges."""
    for key in ("TYPE", "DIMENSION"):
        if key not in seen:
            what = "'TYPE : HCP'" if key == "TYPE" else "'DIMENSION : N' (the number of nodes)"
            raise SpecError(f"no {key} before the edges: an HCP file's header says {what}",
                            Location(path, line))


def _tokens(lines: list[str], at: int, path: str) -> Iterator[tuple[str, Location]]:
    """Every word from line ``at`` (0-based: the line after the section keyword) on, with
    where it stands."""
    for number in range(at + 1, len(lines) + 1):
        for match in _TOKEN.finditer(lines[number - 1]):
            yield match.group(), Location(path, number, match.start() + 1)


def _read_pairs(graph: HcpGraph, tokens: Iterator[tuple[str, Location]]) -> None:
    """The edge pairs up to ``-1``, ``EOF`` or the end of the file (either end mark may be
    missing); after ``-1`` only ``EOF`` may follow."""
    pending: tuple[int, Location] | None = None  # a node waiting for its partner
    ended = False
    for token, where in tokens:
        if token.upper() == "EOF" or (token == "-1" and pending is not None):
            break
        if ended:
            raise SpecError(f"{token[:20]!r} after the -1 that ends the edges; only "
                            "'EOF' may follow", where)
        if token == "-1":
            ended = True
            continue
        node = _node(token, graph.dimension, where)
        if pending is None:
            pending = (node, where)
        else:
            graph.edges.append((pending[0], node))
            pending = None
    if pending is not None:
        raise SpecError(f"node {pending[0]} has no partner: the edges are pairs 'U V'",
                        pending[1])


def _node(token: str, dimension: int, where: Location) -> int:
    """A node number of an edge pair, 1..``dimension``."""
    if not token.isdigit():
        raise SpecError(f"expected a node number, found {token[:20]!r}; the edges are pairs "
                        "of numbers 1..DIMENSION, ended by -1", where)
    node = int(token)
    if not 1 <= node <= dimension:
        raise SpecError(f"node {node} is outside 1..{dimension} (DIMENSION is {dimension})",
                        where)
    return node


def _note_repeats(graph: HcpGraph, path: str) -> None:
    """A warning for edges listed twice and for loops (both kept: the file says them)."""
    seen: set[tuple[int, int]] = set()
    repeats = loops = 0
    for u, v in graph.edges:
        key = (min(u, v), max(u, v))
        repeats += key in seen
        loops += u == v
        seen.add(key)
    if repeats:
        graph.warnings.append(f"{path}: warning: {repeats} edge(s) listed twice; kept as "
                              "parallel edges (a tour uses at most one of them)")
    if loops:
        graph.warnings.append(f"{path}: warning: {loops} loop(s) (an edge from a node to "
                              "itself); kept, though no tour uses one")


def _spec_text(graph: HcpGraph, path: str, name: str | None) -> str:
    """The ``kind: tour`` spec of ``graph``: nodes ``"1"`` .. ``"n"``, edges one a line,
    the file's ``COMMENT`` as its ``description`` (and where it came from as a YAML
    comment, so a file exported and imported again is the same spec)."""
    nodes = ", ".join(f'"{k}"' for k in range(1, graph.dimension + 1))
    out = ["trailkit: 1",
           f"# Imported from {Path(path).name} by trailkit import hcp",
           f"name: {yaml_text(name or graph.name or Path(path).stem)}"]
    if graph.comment:  # the file's COMMENT, as export writes it back
        out.append(f"description: {yaml_text(graph.comment)}")
    out += ["kind: tour", f"nodes: [{nodes}]"]
    if graph.edges:
        out.append("edges:")
        out += [f"  - {u} {v}" for u, v in graph.edges]
    else:
        out.append("edges: []")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ out
def hcp_refusal(puzzle: Puzzle) -> str | None:
    """Why ``puzzle`` cannot be written as an HCP file (``None``: it can). HCP says one
    thing: find a cycle through every node of an undirected graph."""
    if puzzle.visit is not NodeVisit.EVERY_ONCE or not puzzle.closed:
        return ("HCP files hold Hamiltonian cycles: the spec must be a closed tour "
                "(kind: tour, or visit: every-once with closed: true)")
    for key, nodes in (("via", puzzle.via), ("avoid", puzzle.avoid), ("at", puzzle.at)):
        if nodes:
            names = [puzzle.nodes[v] for v in sorted(nodes)]
            shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            return (f"the spec has '{key}:' ({shown}), which an HCP file cannot say; remove "
                    "it to export the plain tour")
    if puzzle.any_directed:
        return "the spec has one-way edges; an HCP file's edges are undirected"
    if puzzle.colours is not None:
        return "the spec has a colour rule, which an HCP file cannot say"
    if puzzle.use is not EdgeUse.AT_MOST_ONCE:
        return (f"the spec has 'use: {puzzle.use.value}'; an HCP tour uses each edge at most "
                "once")
    return None


def hcp_text(puzzle: Puzzle) -> str:
    """The HCP file of ``puzzle``, nodes numbered 1..n in the puzzle's order; raise
    :class:`TrailkitError` saying why when it has rules HCP cannot say."""
    why = hcp_refusal(puzzle)
    if why is not None:
        raise TrailkitError(f"cannot export as hcp: {why}")
    name = _one_line(puzzle.name or "puzzle")
    comment = _one_line(puzzle.description or "written by trailkit export --format hcp")
    out = [f"NAME : {name}", f"COMMENT : {comment}", "TYPE : HCP",
           f"DIMENSION : {puzzle.num_nodes}", "EDGE_DATA_FORMAT : EDGE_LIST", _SECTION]
    out += [f"{t + 1} {h + 1}" for t, h in zip(puzzle.tail, puzzle.head, strict=True)]
    out += ["-1", "EOF"]
    return "\n".join(out) + "\n"


def _one_line(text: str) -> str:
    """``text`` on one line (a TSPLIB value ends at the line's end)."""
    return " ".join(text.split())
