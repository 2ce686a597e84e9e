"""A whole edge list given as text, one ``u v [colour]`` / ``u -> v`` a line: an
``edges_file:``, or a spec's big inline list once the fast reader cut it out (see
:mod:`trailkit.models.spec.fast`).

Such a list is read column by column, each new name and colour checked once: from
:data:`~trailkit.models.support.jit.COMPILE_FROM` lines on through the compiled scan
(:mod:`trailkit.models.formats.edge_scan`) when it can take the text, else by
:func:`~trailkit.models.formats.textformats.parse_edge_columns`, which also locates every bad
line. The ids are the line positions, never repeated.

>>> from trailkit.models.spec.edges.collector import EdgeCollector
>>> from trailkit.models.spec.state import SpecReader
>>> edges = EdgeCollector(SpecReader("s.yaml", None, 100), palette=None, need_colour=False)
>>> read_columns(edges, "a b\\nb -> c\\n", "e.txt")
>>> edges.lowered()
{'tail': [0, 1], 'head': [1, 2], 'directed': [False, True]}
"""

from __future__ import annotations

from functools import partial

from trailkit.models.errors import Location
from trailkit.models.formats.edge_scan import ScannedEdges, scan_edges
from trailkit.models.formats.textformats import parse_edge_columns
from trailkit.models.spec.edges.collector import EdgeCollector
from trailkit.models.spec.state import SpecReader
from trailkit.models.support import jit
from trailkit.models.support.deadline import on_time

__all__ = ["read_columns"]


def read_columns(edges: EdgeCollector, text: str, source: str, first_line: int = 1,
                 lead: int = 0, *, scanned: ScannedEdges | bool | None = True) -> None:
    """Add the edges of edge-list ``text`` (each line after its first ``lead`` bytes, see
    :class:`~trailkit.models.spec.state.InlineEdges`) to ``edges``; problems are located
    at ``source``'s lines, counted from ``first_line``. ``scanned`` is the compiled
    scan's result when the caller made it already (``False``: it refused the text),
    ``True`` when it is to be made here (for a big text)."""
    reader = edges.reader
    if scanned is True:
        scanned = scan_edges(text, lead=lead) if text.count("\n") >= jit.COMPILE_FROM else None
    if scanned is not False and edges.take_scan(scanned, source, first_line):
        return
    on_time("the edge list")
    if lead:  # the line reader reads the items alone
        text = text[lead:].replace("\n" + text[:lead], "\n")
    us, vs, names, numbers, arrows = parse_edge_columns(
        text, source, allow_arrow=True, on_error=edges.reject_line)
    on_time("the edge list")
    before = len(reader.problems)
    codes = _number_ends(reader, us, vs, numbers, source, first_line)
    if edges.need_colour or any(c is not None for c in names):
        _colour_column(edges, names, numbers, source, first_line)
    if len(reader.problems) == before:
        index = reader.node_index
        tail = codes[0::2] if codes is not None else list(map(index.__getitem__, us))
        head = codes[1::2] if codes is not None else list(map(index.__getitem__, vs))
        edges.set_columns(tail, head, arrows)


def _number_ends(reader: SpecReader, us: list[str], vs: list[str], numbers: list[int],
                 source: str, first_line: int) -> list[int] | None:
    """The node numbers of the ends, in order (``u`` of line 1, ``v`` of line 1, ...);
    with a complete ``nodes:`` list instead ``None``, after recording each end it does
    not list."""
    if reader.declared is None or not reader.nodes_complete:
        ends: list[str] = [""] * (2 * len(us))
        ends[0::2], ends[1::2] = us, vs
        return reader.number_names(ends)
    index = reader.node_index  # every name must be declared (and so is known)
    for u, v, number in zip(us, vs, numbers, strict=True):
        for name in (u, v):
            if name not in index:
                reader.attempt("edges_file", partial(
                    reader.edge_end, name, Location(source, number + first_line - 1, 1),
                    "this line"))
    return None


def _colour_column(edges: EdgeCollector, names: list[str | None], numbers: list[int],
                   source: str, first_line: int) -> None:
    """The colour of each line; each missing or unknown one recorded at its line."""
    reader = edges.reader
    reader.edge_colours.update(c for c in set(names) if c is not None)
    if edges.palette is None:  # each new colour word joins the labels, in order
        for name in dict.fromkeys(names):
            if name is not None and name not in edges.label_index:
                edges.colour_id(name, Location(source, first_line, 1), "this line")
    lookup: dict[str | None, int] = {name: i for name, i in edges.label_index.items()}
    if not edges.need_colour:
        lookup[None] = -1
    colour = edges.colour
    colour.extend(map(lookup.get, names))  # type: ignore[arg-type]  # every name was given an id above
    if None in colour:  # a missing or unknown colour: name by name, as ever
        del colour[edges.first_id:]  # a board's moves stay
        for name, number in zip(names, numbers, strict=True):
            known = edges.label_index.get(name) if name is not None else None
            colour.append(known if known is not None else reader.guard(
                "edges_file", -1, partial(edges.colour_id, name,
                                          Location(source, number + first_line - 1, 1),
                                          "this line")))
