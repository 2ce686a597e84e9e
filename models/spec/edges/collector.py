"""The edges of one spec gathered into a :class:`~trailkit.models.puzzle.Puzzle`'s
parallel arrays, whichever form they were written in: one :class:`EdgeCollector` per
spec holds the lists and the colour labels, and every edge reader adds to it.

>>> from trailkit.models.errors import Location
>>> from trailkit.models.spec.state import SpecReader
>>> edges = EdgeCollector(SpecReader("s.yaml", None, 100), palette=None, need_colour=False)
>>> edges.add_entry(("a", "b", "red", False, None), Location("s.yaml", 3, 5), "edges[0]", 0)
>>> edges.add_entry(("b", "a", None, True, None), Location("s.yaml", 4, 5), "edges[1]", 1)
>>> fields = edges.lowered()
>>> fields["tail"], fields["head"], fields["colour"], fields["directed"]
([0, 1], [1, 0], [0, -1], [False, True])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import yaml

from trailkit.models.errors import Location, SpecError
from trailkit.models.formats.edge_scan import ScannedEdges
from trailkit.models.spec.edges.forms import Edge
from trailkit.models.spec.messages import hint, shown
from trailkit.models.spec.state import SpecReader
from trailkit.models.support.deadline import on_time
from trailkit.models.support.hints import short

__all__ = ["EdgeCollector"]


class EdgeCollector:
    """Edges as they are read: ``tail``, ``head``, ``colour``, ``directed`` and ``ids``
    (empty after a whole edge list, whose ids are its positions), the colour ``labels``
    (the ``palette`` of the colour rule, else every colour word in order of first
    appearance), and the NumPy arrays a scanned list came as (``kept``, see
    :attr:`Puzzle.edge_arrays`). ``need_colour``: every edge must have a colour.
    """

    def __init__(self, reader: SpecReader, palette: tuple[str, ...] | None,
                 need_colour: bool) -> None:
        self.reader = reader
        self.palette = palette
        self.need_colour = need_colour
        self.tail: list[int] = []
        self.head: list[int] = []
        self.colour: list[int] = []
        self.directed: list[bool] = []
        self.ids: list[Any] = []
        self.kept: dict[str, tuple[list[int], np.ndarray]] = {}
        self.labels: list[str] = list(palette or ())
        self.label_index = {name: i for i, name in enumerate(self.labels)}
        self.seen_ids: dict[str, yaml.Node | Location] = {}
        self.first_id = 0  # a board's edges come first: the written edges' ids follow theirs

    def colour_id(self, name: str | None, where: yaml.Node | Location, path: str) -> int:
        """The label number of colour ``name`` (-1 for none); a new colour joins the labels
        unless there is a palette."""
        if name is None:
            if self.need_colour:
                raise self.reader.fail(where, f"{path} has no colour, but the puzzle's "
                                       "colour rule needs one on every edge; add it, like "
                                       "'A B red'")
            return -1
        index = self.label_index.get(name)
        if index is None:
            if self.palette is not None:
                raise self.reader.fail(where, f"unknown colour {short(name)!r} in {path}"
                                       f"{hint(name, self.palette)} (colours are "
                                       f"{shown(self.palette)})")
            index = self.label_index[name] = len(self.labels)
            self.labels.append(name)
        return index

    def add_entry(self, edge: Edge, where: yaml.Node | Location, path: str,
                  default_id: int) -> None:
        """Add one edge read from the YAML (its id ``default_id`` unless it names one)."""
        reader = self.reader
        u_name, v_name, c, one_way, edge_id = edge
        if c is not None:
            reader.edge_colours.add(c)
        u = reader.edge_end(u_name, where, path)
        v = reader.edge_end(v_name, where, path)
        c_id = self.colour_id(c, where, path)
        edge_id = default_id + self.first_id if edge_id is None else edge_id
        key = str(edge_id)
        if key in self.seen_ids:
            first = self.seen_ids[key]
            line = (first if isinstance(first, Location) else reader.loc(first)).line
            raise reader.fail(where, f"edge id {short(key)!r} is used twice (first at line "
                              f"{line}); ids must be unique")
        self.seen_ids[key] = where
        self.tail.append(u)
        self.head.append(v)
        self.colour.append(c_id)
        self.directed.append(one_way)
        self.ids.append(edge_id)

    def add_board(self, pairs: list[tuple[int, int]], where: yaml.Node) -> None:
        """A board's moves (pairs of node numbers) as the first edges, ids ``0`` ..; the
        edges written after them are numbered on."""
        for u, v in pairs:
            self.seen_ids[str(len(self.tail))] = where
            self.tail.append(u)
            self.head.append(v)
            self.colour.append(-1)
            self.directed.append(False)
            self.ids.append(len(self.ids))
        self.first_id = len(self.tail)

    def reject_line(self, problem: SpecError) -> None:
        """Record a line of an edge list that could not be read (its names are unknown)."""
        self.reader.record(problem, "edges_file")
        self.reader.edges_complete = False

    def set_columns(self, tail: list[int], head: list[int], directed: list[bool]) -> None:
        """The edges of a whole edge list (their ids are their positions, after a
        board's)."""
        board = self.first_id
        self.tail, self.head = self.tail[:board] + tail, self.head[:board] + head
        self.directed, self.ids = self.directed[:board] + directed, []

    def take_scan(self, scanned: ScannedEdges | None, source: str, first_line: int) -> bool:
        """Take the columns of the compiled scan (:func:`~trailkit.models.formats.edge_scan.
        scan_edges`) when it could read the text and every name and colour in it is one
        the spec allows; else ``False``, and the line-by-line reading says what is wrong.
        A colour that joins the labels is located at ``source``'s ``first_line``."""
        reader = self.reader
        if scanned is None or (scanned.colours is None and self.need_colour) or self.first_id:
            return False
        if self.palette is not None and not set(scanned.colour_names) <= set(self.palette):
            return False
        index = reader.node_index
        if (reader.declared is not None and reader.nodes_complete
                and not all(name in index for name in scanned.names)):
            return False
        ends = scanned.ends
        if index:  # numbers after the names known already
            ends = np.array(reader.number_names(scanned.names), dtype=np.int64)[ends]
        else:  # indexed when first needed (see SpecReader.node_index)
            reader.add_unindexed(scanned.names)
        colour_codes = None
        if scanned.colours is not None:
            reader.edge_colours.update(scanned.colour_names)
            for name in scanned.colour_names:  # without a palette, new colours join
                if name not in self.label_index:
                    self.colour_id(name, Location(source, first_line, 1), "this line")
            codes = np.array([self.label_index[name] for name in scanned.colour_names],
                             dtype=np.int64)
            colour_codes = codes[scanned.colours]
            self.colour.extend(colour_codes.tolist())
        on_time("the edge list")
        tails = np.ascontiguousarray(ends[0::2], dtype=np.int64)
        heads = np.ascontiguousarray(ends[1::2], dtype=np.int64)
        self.set_columns(tails.tolist(), heads.tolist(), [False] * scanned.lines)
        self.kept.update(tail=(self.tail, tails), head=(self.head, heads))
        if colour_codes is not None:
            self.kept["colour"] = (self.colour, colour_codes)
        return True

    def lowered(self) -> dict[str, Any]:
        """The :class:`Puzzle` fields of the edges read (colours only when some edge has
        one or the rule needs them; ``directed`` and ``edge_ids`` only when they say
        something)."""
        out: dict[str, Any] = {"tail": self.tail, "head": self.head}
        if any(c >= 0 for c in self.colour) or self.need_colour:
            out["colour"] = self.colour
            out["colour_names"] = tuple(self.labels)
        if self.kept:
            out["edge_arrays"] = {name: self.kept[name] for name in self.kept if name in out}
        if any(self.directed):
            out["directed"] = self.directed
        if self.ids and self.ids != list(range(len(self.ids))):  # ints and texts: positions
            out["edge_ids"] = self.ids
        return out
