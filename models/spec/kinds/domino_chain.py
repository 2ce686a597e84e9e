"""Kind ``domino-chain``: every piece once, end to end (a ring unless ``closed:
false``). Pieces are ``[1, 2]`` or ``"1|2"`` / ``"1:2"`` / ``"1 2"`` in ``dominoes:``,
or one a line in a ``dominoes_file:``.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("dominoes: [[1, 2], '2|3', 3:1]\\n", "s.yaml")
>>> rules = lower_dominoes(reader, reader.mapping(root, "the spec"), root)
>>> reader.node_names, rules["tail"], rules["head"], rules["closed"]
(['1', '2', '3'], [0, 1, 2], [1, 2, 0], True)
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import yaml

from trailkit.models.errors import Location
from trailkit.models.formats.textformats import parse_domino_lines
from trailkit.models.puzzle import EdgeUse
from trailkit.models.spec.edges.side_files import read_side_file
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.support.hints import short

__all__ = ["lower_dominoes", "read_domino"]


class _Pieces:
    """The ends of the pieces read so far."""

    def __init__(self, reader: SpecReader) -> None:
        self.reader = reader
        self.tail: list[int] = []
        self.head: list[int] = []

    def add(self, a: str, b: str, where: yaml.Node | Location, path: str) -> None:
        u = self.reader.edge_end(a, where, path)
        self.tail.append(u)
        self.head.append(self.reader.edge_end(b, where, path))

    def add_entry(self, pips: tuple[str, str], item: yaml.Node, path: str, _: int) -> None:
        self.add(pips[0], pips[1], item, path)


def lower_dominoes(reader: SpecReader, top: Entries, root: yaml.Node) -> dict[str, Any]:
    """The :class:`Puzzle` fields of a ``domino-chain`` spec's mapping ``top``."""
    pieces = _Pieces(reader)
    if "dominoes" in top and "dominoes_file" in top:
        reader.record(reader.fail(top["dominoes_file"][0], "give 'dominoes' or "
                                  "'dominoes_file', not both"))
    if "dominoes_file" in top and "dominoes" not in top:
        _read_dominoes_file(pieces, top["dominoes_file"][1])
    elif "dominoes" in top:
        reader.read_entries(top["dominoes"][1], "dominoes", partial(read_domino, reader),
                            pieces.add_entry)
    elif "dominoes_file" not in top:
        reader.record(reader.fail(root, "missing required key 'dominoes' for kind "
                                  "'domino-chain', e.g. dominoes: [[1, 2], \"2|3\", [3, 1]]"))
    return {"tail": pieces.tail, "head": pieces.head, "use": EdgeUse.EXACTLY_ONCE,
            "closed": reader.flag(top, "closed", True)}


def _read_dominoes_file(pieces: _Pieces, node: yaml.Node) -> None:
    reader = pieces.reader
    side = reader.guard("dominoes_file", None, lambda: read_side_file(
        reader, node, "dominoes_file"))
    lines = reader.guard("dominoes_file", None, lambda: parse_domino_lines(
        side[1], side[0])) if side else None
    reader.edges_complete = lines is not None
    for line in lines or []:
        path = f"dominoes_file line {line.line}"
        where = Location(side[0], line.line, 1)  # type: ignore[index]  # side is set: lines came from it
        reader.attempt(path, partial(pieces.add, line.u, line.v, where, path))


def read_domino(reader: SpecReader, node: yaml.Node, path: str) -> tuple[str, str]:
    """The two pips of one piece of ``dominoes:``."""
    if isinstance(node, yaml.SequenceNode):
        items = reader.sequence(node, path)
        if len(items) != 2:
            raise reader.fail(node, f"{path} must have two pips, like [1, 2]; it has "
                              f"{len(items)}")
        return reader.name_text(items[0], f"{path}[0]", "pip"), \
            reader.name_text(items[1], f"{path}[1]", "pip")
    text = reader.scalar_text(node, path)
    pips = [p for p in re.split(r"\s*[|:]\s*|\s+", text.strip()) if p]
    if len(pips) != 2:
        raise reader.fail(node, f"{path} must be a domino like [1, 2] or \"1|2\", not "
                          f"{short(text)!r}")
    return pips[0], pips[1]
