"""A walk's ``steps`` list as JSON text, written from its arrays: no dict per step.

The contract's ``steps`` list (:meth:`Walk.steps_json`) is one ``{"from", "to", "edge",
"colour"}`` object per step. Building a million of those dicts and encoding them is
slow; :class:`StepsJson` stands in for the list inside an answer object instead and
writes its text, one step object a line (as the value of a top-level key in an
indented document)::

    [
        {"from": "A", "to": "B", "edge": 0, "colour": null},
        {"from": "B", "to": "C", "edge": 3, "colour": null}
      ]

Each node name, colour and custom id is encoded once into a flat byte table (all of
them quoted in one pass where none needs an escape, as almost every name does; else
each with ``orjson.dumps``: a call per name took 3 s for 300,000 names on a busy
machine), the exact length of the text is summed with NumPy, and one compiled loop
(:func:`trailkit.models.support.jit.kernel`) copies each step's pieces into place; a
short walk is joined from the same pieces in Python. One line a step is also far fewer bytes than
a fully indented list (``docs/benchmarks.md``).

:func:`trailkit.solvers.frontends.cli.output.emit_json` writes :meth:`StepsJson.buffer` straight
after the document's text before it (no copy of the steps); anything that wants the
plain list (the standard library's encoder, a schema check) asks :meth:`StepsJson.to_list`.

>>> from trailkit.models.puzzle import Puzzle
>>> from trailkit.models.answer import Walk
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")])
>>> steps = StepsJson(Walk((0, 1, 2), (0, 1)), p)
>>> print(steps.to_bytes().decode())
[
    {"from": "a", "to": "b", "edge": 0, "colour": null},
    {"from": "b", "to": "c", "edge": 1, "colour": null}
  ]
>>> orjson.loads(steps.to_bytes()) == steps.to_list()
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import orjson

from trailkit.models.support.jit import COMPILE_FROM, kernel

if TYPE_CHECKING:
    from trailkit.models.answer import Step, Walk
    from trailkit.models.puzzle import Puzzle

__all__ = ["StepsJson", "write_steps"]

# The text around the four values of one step, a line each.
_PARTS = (b'{"from": ', b', "to": ', b', "edge": ', b', "colour": ', b"},\n")


def _parts(indent: int) -> tuple[bytes, ...]:
    """``_PARTS`` with each step's line indented by ``indent`` spaces."""
    return (b" " * indent + _PARTS[0], *_PARTS[1:])


class StepsJson:
    """The ``steps`` list of ``walk`` in ``puzzle``, held as the walk until it is written."""

    __slots__ = ("puzzle", "walk")

    def __init__(self, walk: Walk, puzzle: Puzzle) -> None:
        self.walk = walk
        self.puzzle = puzzle

    def __len__(self) -> int:
        return len(self.walk)

    def to_list(self) -> list[Step]:
        """The plain list of step objects (:meth:`Walk.steps_json`)."""
        return self.walk.steps_json(self.puzzle)

    def to_bytes(self) -> bytes:
        """The list's JSON text (see the module docstring)."""
        return bytes(self.buffer())

    def buffer(self, indent: int = 2) -> bytes | memoryview:
        """The list's JSON text, without a copy, for a key indented by ``indent`` spaces
        (its steps two further): a short walk is joined from its dicts (quicker than
        encoding every name of a big puzzle for the table, and than loading Numba); a
        long one is written by the compiled :func:`write_steps`."""
        count = len(self.walk)
        if not count:
            return b"[]"
        if count < COMPILE_FROM:
            dumps = orjson.dumps
            start, to, edge, colour, end = _parts(indent + 2)
            text = b"".join([start + dumps(step["from"]) + to + dumps(step["to"]) + edge
                             + dumps(step["edge"]) + colour + dumps(step["colour"]) + end
                             for step in self.to_list()])
            return b"[\n" + text[:-2] + b"\n" + b" " * indent + b"]"
        return self.written_by(write_steps.compiled, indent)

    def ascii_text(self, indent: int = 2) -> str:
        """The same text with every non-ASCII character escaped (the standard library's
        encoder, for a console that cannot show UTF-8)."""
        if not len(self.walk):
            return "[]"
        pad = " " * (indent + 2)
        lines = ",\n".join(pad + json.dumps(step) for step in self.to_list())
        return "[\n" + lines + "\n" + " " * indent + "]"

    def written_by(self, write: Callable[..., int], indent: int = 2) -> memoryview:
        """The text of a walk of at least one step, by ``write`` (a variant of
        :func:`write_steps`: the tests run the interpreted one too)."""
        count = len(self.walk)
        puzzle = self.puzzle
        nodes, edges = self.walk.node_array, self.walk.edge_array
        names, name_at = _strings_table(puzzle.nodes)
        empty = np.zeros(0, dtype=np.int64)
        # read-only, as the tables are: a writable one is another signature to compile
        ids, id_at = np.frombuffer(b"", dtype=np.uint8), empty
        if puzzle.edge_ids is not None:
            ids, id_at = _strings_table([str(x) for x in puzzle.edge_ids])
        colours, colour_at = _table([b"null", *(orjson.dumps(c) for c in puzzle.colour_names)])
        codes = empty if puzzle.colour is None else np.asarray(puzzle.colour, np.int64) + 1
        parts, part_at = _table(list(_parts(indent + 2)))
        name_len = np.diff(name_at)
        if len(id_at):
            id_len = np.diff(id_at)[edges]
        else:  # decimal digits of each edge index
            id_len = 1 + np.searchsorted(10 ** np.arange(1, 19, dtype=np.int64), edges,
                                         side="right")
        colour_len = np.diff(colour_at)[codes[edges]] if len(codes) else empty
        size = (int(name_len[nodes[:-1]].sum()) + int(name_len[nodes[1:]].sum())
                + int(np.sum(id_len)) + int(np.sum(colour_len) if len(codes) else 4 * count)
                + count * int(part_at[-1]))
        # "[\n", the steps, and "\n" + indent + "]" in place of the last step's ",\n"
        close = b"\n" + b" " * indent + b"]"
        out = np.empty(size + len(close), dtype=np.uint8)
        out[:2] = (91, 10)
        written = write(out[2:], nodes, edges, names, name_at, ids, id_at, codes, colours,
                        colour_at, parts, part_at)
        assert written == size, (written, size)
        out[-len(close):] = np.frombuffer(close, dtype=np.uint8)
        return out.data


#: What JSON must escape in a string (orjson escapes exactly these; all else is UTF-8).
_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def _strings_table(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_table` of the JSON strings of ``texts``, as ``orjson.dumps`` writes each:
    where none needs an escape, quoted and encoded in one pass (their offsets from
    their lengths: characters for ASCII, else each one's UTF-8 bytes).

    >>> flat, at = _strings_table(["a", "bé"])
    >>> bytes(flat), at.tolist()
    (b'"a""b\xc3\xa9"', [0, 3, 8])
    """
    joined = "".join(texts)
    if _ESCAPED.search(joined) is not None:
        return _table([orjson.dumps(text) for text in texts])
    flat = ('"' + '""'.join(texts) + '"').encode() if texts else b""
    lengths = ([len(text) for text in texts] if joined.isascii()
               else [len(text.encode()) for text in texts])
    at = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(np.asarray(lengths, dtype=np.int64) + 2, out=at[1:])
    return np.frombuffer(flat, dtype=np.uint8), at


def _table(encoded: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The byte strings ``encoded`` as one flat ``uint8`` array and their start offsets
    (``len(encoded) + 1`` of them: text ``i`` is ``flat[at[i]:at[i + 1]]``)."""
    at = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in encoded], out=at[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), at


@kernel
def _put(out: np.ndarray, k: int, table: np.ndarray, at: np.ndarray, i: int) -> int:
    """Copy text ``i`` of ``table`` into ``out`` at ``k``; the position after it."""
    for j in range(at[i], at[i + 1]):
        out[k] = table[j]
        k += 1
    return k


@kernel
def _put_int(out: np.ndarray, k: int, value: int) -> int:
    """Write the non-negative ``value`` in decimal into ``out`` at ``k``; the position after."""
    width = 1
    power = 10
    while value >= power:
        width += 1
        power *= 10
    for j in range(width - 1, -1, -1):
        out[k + j] = 48 + value % 10
        value //= 10
    return k + width


@kernel
def write_steps(out: np.ndarray, nodes: np.ndarray, edges: np.ndarray, names: np.ndarray,
                 name_at: np.ndarray, ids: np.ndarray, id_at: np.ndarray, codes: np.ndarray,
                 colours: np.ndarray, colour_at: np.ndarray, parts: np.ndarray,
                 part_at: np.ndarray) -> int:
    """Write every step's object (``_PARTS`` around its values) into ``out``; the length.

    Ids come from the ``ids`` table when it has offsets, else are the edge indices in
    decimal; colours are text ``codes[e]`` of ``colours`` (text 0 is ``null``, the one
    used for every edge when ``codes`` is empty).
    """
    k = 0
    for i in range(len(edges)):
        e = edges[i]
        k = _put(out, k, parts, part_at, 0)
        k = _put(out, k, names, name_at, nodes[i])
        k = _put(out, k, parts, part_at, 1)
        k = _put(out, k, names, name_at, nodes[i + 1])
        k = _put(out, k, parts, part_at, 2)
        k = _put(out, k, ids, id_at, e) if len(id_at) else _put_int(out, k, e)
        k = _put(out, k, parts, part_at, 3)
        k = _put(out, k, colours, colour_at, codes[e] if len(codes) else 0)
        k = _put(out, k, parts, part_at, 4)
    return k
