"""Plain-text side files (``edges_file:``, ``dominoes_file:``): named relative to the
spec's folder and never outside it, never the spec itself, a regular file of at most
:data:`MAX_SIDE_FILE_BYTES` read in pieces (a device or
a FIFO is refused, not waited on), decoded as UTF-8, held to YAML's rule on control
characters (a name never hides one); their problems are located in the side file.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> read_side_file(reader, compose("e.txt", "s.yaml"), "edges_file")
Traceback (most recent call last):
  ...
trailkit.models.errors.SpecError: s.yaml:1:1: error: 'edges_file' only works in a spec ...
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from trailkit.models.errors import SpecError
from trailkit.models.formats.inputs import InputRefused, read_bounded
from trailkit.models.formats.textformats import decode_utf8
from trailkit.models.spec.composing import compose, control_characters
from trailkit.models.spec.messages import os_reason
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.vocabulary import NOT_PRINTABLE
from trailkit.models.support.hints import short

__all__ = ["MAX_SIDE_FILE_BYTES", "SIDE_FILE_KEYS", "read_side_file", "side_file_names",
           "side_files_named"]

#: The keys that name a side file.
SIDE_FILE_KEYS = ("edges_file", "dominoes_file")

MAX_SIDE_FILE_BYTES = 256 * 1024 * 1024
"""A side file over this size is refused (ten million edges fit in about a third)."""


def read_side_file(reader: SpecReader, node: yaml.Node, key: str) -> tuple[str, str] | None:
    """``(name as shown, text)`` of the plain-text side file named by ``key``, relative to
    the spec's folder only; ``None`` when its control characters were recorded."""
    name = reader.string(node, key)
    bad = NOT_PRINTABLE.search(name) or re.search(r"[\x00-\x1f\x7f]", name)
    if bad:
        raise reader.fail(node, f"the file name in '{key}' holds the control character "
                          f"U+{ord(bad.group()):04X} (at character {bad.start() + 1}); "
                          "write the plain file name")
    if reader.base_dir is None:
        raise reader.fail(node, f"'{key}' only works in a spec loaded from a file")
    base = reader.base_dir.resolve()
    try:
        target = (base / name).resolve()
    except (OSError, ValueError) as exc:
        raise reader.fail(node, f"cannot read {short(name)!r}: {os_reason(exc)}") from None
    if not target.is_relative_to(base):
        raise reader.fail(node, f"'{key}' must name a file inside the spec's folder {base}")
    if _same_file(target, reader.source):
        raise reader.fail(node, f"'{key}' names the spec itself; name the plain text file "
                          "that holds the list")
    try:
        data = read_bounded(target, MAX_SIDE_FILE_BYTES)
    except InputRefused as exc:
        raise reader.fail(node, f"cannot read {short(name)!r}: {exc}; '{key}' must name "
                          "a plain text file") from None
    shown = str(reader.base_dir / name)
    text = decode_utf8(data, shown)
    stray = control_characters(text, shown, in_yaml=False)
    for problem in stray:
        reader.record(problem, key)
    return None if stray else (shown, text)


def side_files_named(path: str | Path, cap: int) -> list[Path]:
    """The side files the spec file at ``path`` (at most ``cap`` bytes) names at its top,
    in its folder: what a command that reads the spec reads too, and so must never
    write over. None when the spec cannot be read (reading it says why)."""
    try:
        text = decode_utf8(read_bounded(path, cap), str(path))
    except (InputRefused, SpecError):
        return []
    return [Path(path).parent / name for name in side_file_names(text, str(path))]


def side_file_names(text: str, source: str) -> list[str]:
    """The side files spec ``text`` names at its top (``edges_file:``,
    ``dominoes_file:``), as written: relative to the spec's folder. None when the text
    is no YAML mapping (reading it says why)."""
    try:
        top = compose(text, source)
    except SpecError:
        return []
    if not isinstance(top, yaml.MappingNode):
        return []
    return [value.value for key, value in top.value
            if isinstance(key, yaml.ScalarNode) and key.value in SIDE_FILE_KEYS
            and isinstance(value, yaml.ScalarNode) and value.value]


def _same_file(target: Path, source: str) -> bool:
    """Whether ``target`` is the spec file ``source`` (by name or by inode)."""
    try:
        return os.path.samefile(target, source)
    except (OSError, ValueError):
        return False
