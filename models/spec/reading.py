"""A spec file or text to ``(puzzle or None, problems and warnings)``: size limits, an
empty text, control characters, then the fast reader for big texts
(:mod:`~trailkit.models.spec.fast`) or the full reader.

>>> puzzle, found = read_text("trailkit: 1\\nkind: trail\\nedges: [a b]\\n", "s.yaml", None)
>>> puzzle.num_edges, found
(1, [])
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from trailkit.models.errors import Location, SpecError
from trailkit.models.formats.inputs import InputRefused, TooBig, megabytes, read_bounded
from trailkit.models.formats.textformats import decode_utf8
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import fast
from trailkit.models.spec.composing import compose, control_characters
from trailkit.models.spec.document import read_document
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.syntax import edge_list_hint
from trailkit.models.spec.typed import budget_for
from trailkit.models.spec.vocabulary import MAX_SPEC_BYTES
from trailkit.models.support.deadline import on_time

__all__ = ["read_full", "read_path", "read_text"]

Reading = tuple[Puzzle | None, list[SpecError]]

_CONTENT_LINE = re.compile(r"^\s*[^\s#]", re.MULTILINE)
"""A line that is neither blank nor a comment (found without cutting the text into
lines, which costs a tenth of a second on a million-line spec)."""


def read_path(path: Path) -> Reading:
    """Read the spec file at ``path`` (its side files relative to its folder): a regular
    file only (a link to one is followed), at most :data:`MAX_SPEC_BYTES`, read in pieces
    (:func:`~trailkit.models.formats.inputs.read_bounded`), so a device or a FIFO is refused at
    once instead of read for ever."""
    name = str(path)
    try:
        data = read_bounded(path, MAX_SPEC_BYTES)
    except TooBig as exc:
        return None, [SpecError(
            f"the spec is {megabytes(exc.size)}, over the {megabytes(MAX_SPEC_BYTES)} limit; "
            "put big edge lists in a plain text file and reference it with 'edges_file:'",
            Location(name))]
    except InputRefused as exc:
        return None, [SpecError(f"cannot read the spec: {exc}; name a spec file",
                                Location(name))]
    on_time("the spec")
    try:
        text = decode_utf8(data, name)
    except SpecError as exc:
        return None, [exc]
    return read_text(text, name, path.parent)


def read_text(text: str, source: str, base_dir: Path | None) -> Reading:
    """Read spec ``text`` (``source`` names it in messages; side files are read from
    ``base_dir``): the fast reader first when the text is at least
    :data:`~trailkit.models.spec.fast.FAST_FROM` characters, else (or when it declines)
    the full reader."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SPEC_BYTES:
        return None, [SpecError("the spec is over the 50 MB limit", Location(source))]
    if _CONTENT_LINE.search(text) is None:  # nothing but blank lines and comments
        return None, [SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                                Location(source, 1, 1))]
    problems = control_characters(text, source)
    if problems:
        return None, problems
    on_time("the spec")
    if len(text) >= fast.FAST_FROM:
        quick = fast.read_fast(text, source, base_dir)
        if quick is not None:
            return quick
    return read_full(text, source, base_dir)


def read_full(text: str, source: str, base_dir: Path | None) -> Reading:
    """Read checked ``text`` with the full reader: all of it composed as YAML."""
    try:
        root = compose(text, source)
    except SpecError as exc:
        return None, [exc]
    on_time("the spec")
    if not isinstance(root, yaml.MappingNode):
        listed = edge_list_hint(text, source)
        if listed is not None:
            return None, [listed]
    return read_document(SpecReader(source, base_dir, budget=budget_for(text)), root)
