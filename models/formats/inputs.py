"""Reading an input file with a bound: only a regular file, never more than a cap, in
pieces.

A spec, a side file, a plank list or a certificate is read through here, so that no
input makes trailkit run without end. ``/dev/zero`` reports a size of 0 and never ends;
a FIFO blocks its reader until someone writes. So the file is looked at before it is
opened (a device or a FIFO is refused without being opened), opened without blocking,
looked at again (the same regular file), and read in pieces of :data:`PIECE` bytes until
its end or one byte past the cap, whichever comes first: a file that grows while it is
read stops at the cap as well.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "a.txt")
...     _ = open(path, "w").write("abc")
...     read_bounded(path, 10)
b'abc'
>>> read_bounded("/dev/zero", 10)
Traceback (most recent call last):
  ...
trailkit.models.formats.inputs.InputRefused: it is a character device, not a regular file
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from trailkit.models.errors import TrailkitError

__all__ = ["PIECE", "InputRefused", "TooBig", "kind_of", "megabytes", "read_bounded"]

PIECE = 1 << 20
"""Bytes read at a time."""


class InputRefused(TrailkitError):
    """An input that is not read: what it is, or what the system said (no file name:
    the caller's message names the file its own way)."""


class TooBig(InputRefused):
    """An input over its cap; ``size`` is what is known of its size (at least)."""

    def __init__(self, size: int, cap: int) -> None:
        self.size = size
        self.cap = cap
        super().__init__(f"it is {megabytes(size)}, over the {megabytes(cap)} limit")


def megabytes(size: int) -> str:
    """``size`` bytes in words: ``12 MB`` (``0.5 MB`` under one)."""
    value = size / 2**20
    return f"{value:.0f} MB" if value >= 1 else f"{value:.1g} MB"


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a folder``, ``a FIFO (named pipe)``)."""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))
    for test, words in kinds:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "an unknown kind of file"


def _reason(exc: OSError) -> str:
    return str(exc.strerror or exc)


def read_bounded(path: str | Path, cap: int) -> bytes:
    """The bytes of the regular file at ``path`` (a symbolic link to one is followed), at
    most ``cap`` of them; raises :class:`InputRefused` for anything else (a folder, a
    device, a FIFO, a missing file) and :class:`TooBig` past the cap, without blocking
    and without reading more than ``cap + 1`` bytes."""
    try:
        seen = os.stat(path)
    except (OSError, ValueError) as exc:
        raise InputRefused(_reason(exc) if isinstance(exc, OSError) else str(exc)) from None
    _check(seen, cap)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputRefused(_reason(exc)) from None
    try:
        opened = os.fstat(fd)
        _check(opened, cap)  # the name may have been given to something else meanwhile
        pieces: list[bytes] = []
        total = 0
        while True:
            piece = os.read(fd, min(PIECE, cap + 1 - total))
            if not piece:
                return b"".join(pieces)
            pieces.append(piece)
            total += len(piece)
            if total > cap:
                raise TooBig(total, cap)
    except OSError as exc:
        raise InputRefused(_reason(exc)) from None
    finally:
        os.close(fd)


def _check(seen: os.stat_result, cap: int) -> None:
    """Refuse what is not a regular file, or is over ``cap`` by its size."""
    if not stat.S_ISREG(seen.st_mode):
        raise InputRefused(f"it is {kind_of(seen.st_mode)}, not a regular file")
    if seen.st_size > cap:
        raise TooBig(seen.st_size, cap)
