"""Big uniform edge lists read in one compiled pass over their bytes: no string per word.

A million-line edge list (``edges_file:``, or a spec's inline ``edges:`` list once the
fast reader has cut out its items) is almost always *uniform*: every line ``u v`` or
every line ``u v colour``, no comments, arrows or blank lines. Cutting such a text
with ``str.split`` makes three million small strings, and numbering the node names
through a dict then costs far more time and memory than the solving
(``docs/benchmarks.md``). :func:`scan_edges` instead walks the bytes once in a compiled
kernel (:func:`trailkit.models.support.jit.kernel`) that cuts the words and gives each a key
(the word itself when short, else a hash), then numbers the keys in an
open-addressing table (node names and colours apart), in order of first appearance,
exactly as the line-by-line reading numbers them; words keyed by a hash are then
compared byte for byte with the first word of their number. Only the distinct names
ever become Python strings. (Cutting and numbering are separate loops on purpose:
the numbering loop is so small that the processor overlaps its random reads of the
table, which a loop that also cuts does not allow: measured in ``docs/benchmarks.md``.)

Anything that is not uniform gives ``None`` and the caller reads the text line by
line (:func:`trailkit.models.formats.textformats.parse_edge_columns`), so every problem is
reported, located, by that one reader; this module never judges a text.

>>> scanned = scan_edges("a b red\\nb c blue\\nc a red\\n")
>>> scanned.names, scanned.ends.tolist(), scanned.colour_names, scanned.colours.tolist()
(['a', 'b', 'c'], [0, 1, 1, 2, 2, 0], ['red', 'blue'], [0, 1, 0])
>>> scan_edges("a b\\n\\nb c\\n") is None  # a blank line: read line by line
True
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from trailkit.models.support.deadline import on_time
from trailkit.models.support.jit import kernel

__all__ = ["ScannedEdges", "byte_table", "scan_bytes", "scan_edges"]

_ODD_SPACE = re.compile(r"[^\S \t\n]")
"""Whitespace other than spaces, tabs and newlines (``\\r``, no-break spaces, ``\\x85``):
where ``str.split`` would cut a line differently from a cut at spaces and tabs."""


def byte_table(allowed: bytes) -> np.ndarray:
    """A 256-entry table, 1 at each byte of ``allowed``: which bytes a scan accepts."""
    table = np.zeros(256, dtype=np.uint8)
    table[np.frombuffer(allowed, dtype=np.uint8)] = 1
    return table


_ANY_BYTE = byte_table(bytes([9, 10, *range(32, 256)]).replace(b"#", b""))
"""What an edge list's lines may hold: anything but control bytes and ``#`` (a comment,
for the line reader)."""

class ScannedEdges(NamedTuple):
    """A uniform edge list, numbered.

    ``names`` are the distinct node names in order of first appearance; ``ends[2 * i]``
    and ``ends[2 * i + 1]`` are the numbers (into ``names``) of line ``i``'s two ends.
    ``colours[i]`` numbers line ``i``'s third word in ``colour_names`` (also in order of
    first appearance), or ``colours`` is ``None`` when the lines have two words.
    """

    names: list[str]
    ends: np.ndarray
    colour_names: list[str]
    colours: np.ndarray | None

    @property
    def lines(self) -> int:
        return len(self.ends) // 2


def scan_edges(text: str, widest: int = 3, lead: int = 0) -> ScannedEdges | None:
    """The numbered columns of ``text`` when every line has the same number of words, two
    or (``widest`` 3) three, separated by spaces or tabs; ``None`` for anything else
    (comments, arrows, blank lines, ragged lines, control characters, unusual
    whitespace), which the caller reads line by line.

    With ``lead``, each line starts with the same ``lead`` bytes of spaces and dashes,
    which are not read (a YAML list item's indentation and ``- ``: the spec reader scans
    its inline list in place); a line without them is refused."""
    if not text or (not text.isascii() and ("→" in text or _ODD_SPACE.search(text))):
        return None
    return scan_bytes(text.encode("utf-8"), widest, lead)


def scan_bytes(raw: bytes, widest: int = 3, lead: int = 0, allowed: np.ndarray = _ANY_BYTE,
               first: np.ndarray | None = None, lines: int | None = None
               ) -> ScannedEdges | None:
    """:func:`scan_edges` of the UTF-8 bytes ``raw``, which may hold only the bytes of the
    table ``allowed`` (:func:`byte_table`; by default anything but control bytes and
    ``#``), and each line's first byte after its lead one of ``first`` (by default
    ``allowed``): a caller that has the bytes already (and their ``lines``, counted
    with a last line that lacks its newline), and rules of its own (the fast reader's
    plain YAML items), makes no other pass over them."""
    if not raw:
        return None
    if not raw.endswith(b"\n"):
        raw += b"\n"
    data = np.frombuffer(raw, dtype=np.uint8)
    if lines is None:
        lines = raw.count(b"\n")
    nodes = _Words(2 * lines)
    colours = _Words(lines if widest == 3 else 0)
    width, hashed = _cut.sized(lines)(data, lead, allowed, allowed if first is None else first,
                                      *nodes.arrays, *colours.arrays)
    if not width:
        return None
    on_time("the edge list")
    node_numbers = _Numbered(data, *nodes.arrays, hashed)
    if node_numbers.numbers is None:
        return None
    if width == 2:
        return ScannedEdges(node_numbers.words, node_numbers.numbers, [], None)
    on_time("the edge list")
    colour_numbers = _Numbered(data, *colours.arrays, hashed)
    if colour_numbers.numbers is None:
        return None
    return ScannedEdges(node_numbers.words, node_numbers.numbers, colour_numbers.words,
                        colour_numbers.numbers)


class _Words:
    """Room for ``size`` words: where each starts and stops in the text, its key, and
    the hash that spreads it over a table."""

    def __init__(self, size: int) -> None:
        self.arrays = (np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
                       np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int32))


class _Numbered:
    """The words at ``starts``/``stops`` of ``data`` numbered by key in order of first
    appearance: ``numbers`` (``None`` if two different words share a hash key) and the
    distinct ``words`` as strings."""

    def __init__(self, data: np.ndarray, starts: np.ndarray, stops: np.ndarray,
                 keys: np.ndarray, spread: np.ndarray, hashed: bool) -> None:
        size = len(keys)
        numbers, firsts, count = _number.sized(size)(keys, spread)
        firsts = firsts[:count]
        if hashed and not _same_words.sized(size)(data, starts, stops, numbers,
                                                  starts[firsts]):
            self.numbers: np.ndarray | None = None
            self.words: list[str] = []
            return
        self.numbers = numbers
        self.words = _strings(data, starts, stops, firsts)


def _strings(data: np.ndarray, starts: np.ndarray, stops: np.ndarray,
             firsts: np.ndarray) -> list[str]:
    """The words ``data[starts[i]:stops[i]]`` for ``i`` in ``firsts``, as strings: copied
    one after another, each with a newline, by a compiled loop, then cut by one
    ``split`` (no slice or index array per word)."""
    if not len(firsts):
        return []
    gathered: np.ndarray = _gather.sized(len(firsts))(data, starts, stops, firsts)
    return gathered.tobytes().decode("utf-8").split("\n")[:-1]


@kernel
def _gather(data: np.ndarray, starts: np.ndarray, stops: np.ndarray,
            firsts: np.ndarray) -> np.ndarray:
    """The bytes of the words ``firsts`` names, each followed by a newline."""
    size = 0
    for i in firsts:
        size += stops[i] - starts[i] + 1
    out = np.empty(size, dtype=np.uint8)
    k = 0
    for i in firsts:
        for j in range(starts[i], stops[i]):
            out[k] = data[j]
            k += 1
        out[k] = 10
        k += 1
    return out


_EMPTY = -1
"""A free slot of a word table."""

_EXACT = 7
"""Words of at most this many bytes are their own key (bytes and length packed into 59
bits), so telling them apart needs no look at the text; longer ones are keyed by a hash
(with bit 62 set) and compared byte for byte afterwards."""


@kernel
def _cut(data: np.ndarray, lead: int, allowed: np.ndarray, first: np.ndarray,
         starts: np.ndarray, stops: np.ndarray,
         keys: np.ndarray, spread: np.ndarray, colour_starts: np.ndarray, colour_stops: np.ndarray,
         colour_keys: np.ndarray, colour_spread: np.ndarray) -> tuple[int, bool]:
    """Cut newline-terminated ``data`` into lines of words (at spaces and tabs): line
    ``i``'s first two words at ``2 * i`` and ``2 * i + 1`` of the node arrays, its third
    (if the colour arrays have room) at ``i`` of those: where it starts and stops, its
    key, and a 31-bit hash to spread it over a table. Returns ``(words per line,
    whether any word is keyed by a hash)``, or a width of 0 when a line is blank, has
    one word or more than there is room for, differs in width from the first line,
    holds a byte the table ``allowed`` refuses or an arrow ``->``, does not start with
    the first line's ``lead`` spaces and dashes (skipped), or goes on after them with a
    byte the table ``first`` refuses.

    Every step stays inside int64 whether the kernel runs compiled or interpreted (the
    two give the same keys).
    """
    widest = 3 if len(colour_keys) else 2
    width = 0
    line = 0
    word = 0  # words so far on this line
    start = -1  # where the current word started; -1 between words
    packed = 0
    h1 = 0
    h2 = 0
    hashed = False
    skip = lead  # bytes of the line's lead still to skip
    fresh = True  # the next byte is the first after the lead
    for i in range(len(data)):
        c = int(data[i])
        if skip:  # the same spaces and dashes as the first line's
            if (c != 32 and c != 45) or c != data[lead - skip]:
                return 0, False
            skip -= 1
            continue
        if fresh:
            fresh = False
            if not first[c]:
                return 0, False
        if not allowed[c] or (c == 62 and i and data[i - 1] == 45):
            return 0, False
        if c == 10 or c == 32 or c == 9:
            if start >= 0:
                if word >= widest:
                    return 0, False
                h2 ^= h2 >> 13
                h2 = (h2 * 0x5BD1E995) & 0x7FFFFFFF
                h2 ^= h2 >> 16
                length = i - start
                if length <= _EXACT:
                    key = (length << 56) | packed
                else:
                    hashed = True
                    key = (1 << 62) | (h1 << 31) | h2
                if word < 2:
                    at = 2 * line + word
                    keys[at] = key
                    starts[at] = start
                    stops[at] = i
                    spread[at] = h2
                else:
                    colour_keys[line] = key
                    colour_starts[line] = start
                    colour_stops[line] = i
                    colour_spread[line] = h2
                word += 1
                start = -1
            if c == 10:
                if word < 2 or (width and word != width):
                    return 0, False
                width = word
                line += 1
                word = 0
                skip = lead
                fresh = True
        else:
            if start < 0:
                start = i
                packed = 0
                h1 = 0
                h2 = 0
            if i - start < _EXACT:
                packed = (packed << 8) | c
            h1 = (h1 * 1000003 + c) & 0x7FFFFFFF
            h2 = (h2 * 2654435 + c) & 0x7FFFFFFF
    return width, hashed


@kernel
def _number(keys: np.ndarray, spread: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """``(numbers, firsts, count)``: ``numbers[i]`` numbers ``keys[i]`` in order of first
    appearance, ``firsts[n]`` is where number ``n`` first appears, ``count`` how many
    there are. An open-addressing table (slot from ``spread``), kept at most half full
    by doubling."""
    size = 1 << 10
    table_keys = np.full(size, _EMPTY, dtype=np.int64)
    table_numbers = np.empty(size, dtype=np.int32)
    numbers = np.empty(len(keys), dtype=np.int32)
    firsts = np.empty(len(keys), dtype=np.int32)
    count = 0
    for i in range(len(keys)):
        key = keys[i]
        mask = size - 1
        slot = spread[i] & mask
        while True:
            found = table_keys[slot]
            if found == key:
                numbers[i] = table_numbers[slot]
                break
            if found == _EMPTY:
                table_keys[slot] = key
                table_numbers[slot] = count
                numbers[i] = count
                firsts[count] = i
                count += 1
                break
            slot = (slot + 1) & mask
        if 2 * count > size:  # double the table: every key goes to its new slot
            size *= 2
            bigger_keys = np.full(size, _EMPTY, dtype=np.int64)
            bigger_numbers = np.empty(size, dtype=np.int32)
            for n in range(count):
                at = spread[firsts[n]] & (size - 1)
                while bigger_keys[at] != _EMPTY:
                    at = (at + 1) & (size - 1)
                bigger_keys[at] = keys[firsts[n]]
                bigger_numbers[at] = n
            table_keys = bigger_keys
            table_numbers = bigger_numbers
    return numbers, firsts, count


@kernel
def _same_words(data: np.ndarray, starts: np.ndarray, stops: np.ndarray,
                numbers: np.ndarray, first_starts: np.ndarray) -> bool:
    """Whether every word longer than :data:`_EXACT` bytes equals, byte for byte, the
    first word of its number (which starts at ``first_starts[number]``): a hash
    collision, however unlikely, never merges two names."""
    for i in range(len(starts)):
        start = starts[i]
        length = stops[i] - start
        if length <= _EXACT:
            continue
        first = first_starts[numbers[i]]
        for k in range(length):
            if data[first + k] != data[start + k]:
                return False
    return True
