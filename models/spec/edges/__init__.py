"""The edges of a spec (``edges:`` or ``edges_file:``) lowered to a Puzzle's arrays.

Each written form has its own reader: the entries of an ``edges:`` list
(:mod:`~trailkit.models.spec.edges.forms`: strings, lists, mappings), a whole edge list
as text (:mod:`~trailkit.models.spec.edges.columns`: an ``edges_file:``, read through
:mod:`~trailkit.models.spec.edges.side_files`, or the big inline list the fast reader
cut out); all add to one :class:`~trailkit.models.spec.edges.collector.EdgeCollector`.
A bad edge is recorded and left out; the ones after it are still read.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("edges: [a b, b c red]", "s.yaml")
>>> read_edges(reader, reader.mapping(root, "the spec"), root, palette=None)
{'tail': [0, 1], 'head': [1, 2], 'colour': [-1, 0], 'colour_names': ('red',)}
"""

from __future__ import annotations

from functools import partial
from typing import Any

import yaml

from trailkit.models.spec.board import read_board
from trailkit.models.spec.edges.collector import EdgeCollector
from trailkit.models.spec.edges.columns import read_columns
from trailkit.models.spec.edges.forms import read_edge
from trailkit.models.spec.edges.side_files import read_side_file
from trailkit.models.spec.state import InlineEdges, SpecReader
from trailkit.models.spec.typed import Entries, Fatal

__all__ = ["read_edges"]


def read_edges(reader: SpecReader, top: Entries, root: yaml.Node,
               palette: tuple[str, ...] | None, need_colour: bool = False) -> dict[str, Any]:
    """Read ``edges`` (or ``edges_file``) into the parallel arrays of a :class:`Puzzle`
    (see :meth:`EdgeCollector.lowered`); ``palette``: the colours the rule allows
    (``None``: any), ``need_colour``: every edge must have one. A ``board:`` gives the
    first edges, its cells' layout and ``meta["board"]``."""
    edges = EdgeCollector(reader, palette, need_colour)
    extra = _board_edges(reader, edges, top)
    if "edges" in top and "edges_file" in top:
        reader.record(reader.fail(top["edges_file"][0], "give 'edges' or 'edges_file', not "
                                  "both"))
    if "edges" in top and reader.inline_edges is not None:
        _read_inline(edges, top["edges"][1], reader.inline_edges)
    elif "edges" in top:
        reader.read_entries(top["edges"][1], "edges", partial(read_edge, reader),
                            edges.add_entry)
    elif "edges_file" in top:
        side = reader.guard("edges_file", None, lambda: read_side_file(
            reader, top["edges_file"][1], "edges_file"))
        if side is None:
            reader.edges_complete = False
        else:
            read_columns(edges, side[1], side[0])
    elif "board" not in top:
        reader.record(reader.fail(root, "missing required key 'edges', e.g. edges: [a b, b c]"))
    return {**edges.lowered(), **extra}


def _board_edges(reader: SpecReader, edges: EdgeCollector, top: Entries) -> dict[str, Any]:
    """Add the board's cells and moves (first, so the written edges' ids follow); its
    layout and ``meta`` entry, or nothing without a board."""
    board = reader.guard("board", None, lambda: read_board(reader, top))
    if board is None:
        if "board" in top:
            reader.edges_complete = False  # its cells are unknown
        return {}
    where = top["board"][0]
    if edges.need_colour:
        reader.record(reader.fail(where, "a board's moves have no colour, but the colour rule "
                                  "needs one on every edge; write the edges out with their "
                                  "colours instead", "board"))
        return {}
    numbers = reader.number_names(board.cells)
    reader.board_corners = (board.cells[0], board.cells[-1])
    if reader.declared is not None:
        for name in board.cells:
            reader.declared.setdefault(name, where)
    edges.add_board([(numbers[u], numbers[v]) for u, v in board.edges], where)
    return {"layout": board.layout(), "meta": {"board": board.meta()}}


def _read_inline(edges: EdgeCollector, node: yaml.Node, inline: InlineEdges) -> None:
    """The fast reader's edges; the list in the tree is its placeholder, which must be
    where the scan found the list."""
    reader = edges.reader
    if not (isinstance(node, yaml.SequenceNode) and not node.value
            and node.start_mark.line + 1 == inline.line):
        raise Fatal("the fast reader's edge list is not the spec's", reader.loc(node))
    reader.spend(node, 2 * inline.items)  # what the full reader spends on them
    read_columns(edges, inline.lines, reader.source, inline.line + 1, inline.lead,
                 scanned=inline.scan if inline.scanned else False)
