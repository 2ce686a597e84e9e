"""Reading a DRAT proof file, text or binary, into the text lines trailkit's checker reads.

Text DRAT is one lemma per line (``1 -2 0``; deletions ``d 1 -2 0``). Binary DRAT (what
CaDiCaL and Kissat write unless told ``--no-binary``) is a byte ``a`` (added) or ``d``
(deleted) per clause, then each literal ``l`` as the unsigned number ``2|l| + (l < 0)``
in 7-bit groups, low group first, the high bit marking that more follow, and a zero
byte at the end of the clause. A text proof never holds a zero byte and never begins
with ``a``: that tells the two apart.

>>> read_drat(b"1 -2 0\\nd 1 0\\n0\\n")
['1 -2 0', 'd 1 0', '0']
>>> read_drat(bytes([0x61, 2, 5, 0, 0x64, 2, 0, 0x61, 0]))
['1 -2 0', 'd 1 0', '0']
"""

from __future__ import annotations

import time

__all__ = ["DratError", "DratTimeUp", "is_binary", "read_drat"]

#: Lines read between two looks at the clock (a look costs far less than the lines).
_LINES_PER_LOOK = 4096


class DratError(ValueError):
    """The proof file is neither text nor binary DRAT."""


class DratTimeUp(Exception):
    """The deadline passed before the whole proof was read (a big proof takes seconds)."""


def _look(deadline: float | None, lines: int) -> None:
    """Raise :class:`DratTimeUp` when ``deadline`` (``time.monotonic()``) has passed,
    looking at the clock once every :data:`_LINES_PER_LOOK` lines."""
    if deadline is not None and lines % _LINES_PER_LOOK == 0 and time.monotonic() > deadline:
        raise DratTimeUp(f"the time limit was reached after reading {lines:,} lines of "
                         "the proof")


def is_binary(data: bytes) -> bool:
    """Binary DRAT: it begins with ``a`` or holds a zero byte."""
    return data[:1] == b"a" or b"\x00" in data[:65536]


def read_drat(data: bytes, limit: int | None = None,
              deadline: float | None = None) -> list[str]:
    """The proof's lines as text (at most ``limit`` + 1 of them, so a caller can tell a
    proof over its limit); :class:`DratError` when it is malformed, :class:`DratTimeUp`
    when ``deadline`` (``time.monotonic()``; ``None``: none) passes first."""
    if not is_binary(data):
        lines: list[str] = []
        for raw in data.decode("ascii", errors="replace").splitlines():
            line = raw.strip()
            if line and not line.startswith("c"):
                _look(deadline, len(lines))
                lines.append(line)
                if limit is not None and len(lines) > limit:
                    break
        return lines
    return _binary(data, limit, deadline)


def _binary(data: bytes, limit: int | None, deadline: float | None) -> list[str]:
    lines: list[str] = []
    i, n = 0, len(data)
    while i < n and (limit is None or len(lines) <= limit):
        _look(deadline, len(lines))
        mode = data[i]
        if mode not in (0x61, 0x64):
            raise DratError(f"byte {i} of the binary DRAT proof is {mode:#x}, not 'a' or 'd'")
        i += 1
        literals: list[str] = []
        while True:
            value, shift = 0, 0
            while True:
                if i >= n:
                    raise DratError("the binary DRAT proof ends inside a clause")
                byte = data[i]
                i += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            if value == 0:
                break
            literals.append(str(-(value >> 1) if value & 1 else value >> 1))
        body = " ".join([*literals, "0"])
        lines.append(("d " + body) if mode == 0x64 else body)
    return lines
