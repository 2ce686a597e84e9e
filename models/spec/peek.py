"""A spec's name and kind without reading it: what an answer needs to say which puzzle
it is about when the spec itself could not be read in time.

``--time-limit`` counts the reading of a big spec (CONTRACT 1.4 §7); when it runs out
while a million-line edge list is being read there is no puzzle, yet the answer is still
the command's own object saying ``unknown`` (a ``trailkit-result/1`` names the spec's
``name`` and ``kind``). Both are top-level keys, written in the first lines of every
spec trailkit or a person writes; :func:`peek_header` finds them by their lines alone
(a key at the start of a line, its value a plain or quoted scalar), never composing the
document. What it cannot find it leaves ``None``: the peek says nothing the spec did not
say, and it decides nothing about the spec's validity.

>>> import tempfile, pathlib
>>> spec = pathlib.Path(tempfile.mkdtemp()) / "s.yaml"
>>> _ = spec.write_text("trailkit: 1\\nname: 'Big path'  # generated\\nkind: trail\\n"
...                     "edges:\\n  - a b\\n")
>>> peek_header(spec)
SpecHeader(name='Big path', kind='trail')
>>> _ = spec.write_text("{trailkit: 1, kind: trail, edges: [a b]}\\n")  # flow style
>>> peek_header(spec)
SpecHeader(name=None, kind=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

__all__ = ["SpecHeader", "peek_header"]

_TOP_KEY = re.compile(rb"^(name|kind)[ \t]*:[ \t]*([^\r\n]*)$", re.MULTILINE)


@dataclass(frozen=True)
class SpecHeader:
    """A spec's ``name`` and ``kind`` as its lines say them (``None``: not found)."""

    name: str | None = None
    kind: str | None = None


def peek_header(path: str | Path) -> SpecHeader:
    """The top-level ``name`` and ``kind`` of the spec file ``path``, each the first
    line that sets it (``None`` where no line does, the file cannot be read, or the value
    is no one-line scalar)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return SpecHeader()
    found: dict[str, str] = {}
    for match in _TOP_KEY.finditer(data):
        key = match.group(1).decode()
        if key not in found:
            value = _scalar(match.group(2))
            if value is not None:
                found[key] = value
        if len(found) == 2:
            break
    return SpecHeader(found.get("name"), found.get("kind"))


def _scalar(raw: bytes) -> str | None:
    """The text of a one-line YAML scalar (a trailing comment dropped), or ``None``."""
    try:
        value = yaml.safe_load(raw.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError):
        return None
    if isinstance(value, (dict, list)) or value is None or value == "":
        return None
    return str(value)
