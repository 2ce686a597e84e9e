"""Everything trailkit prints goes through here: JSON on stdout, text that any
console can show, and a status line on a terminal.

Text is made safe twice: control characters from a spec (a ``name:`` holding
``\\x1b[2J``) are shown escaped, never sent to the terminal, and characters the
console's encoding cannot show (``→`` on an ASCII or cp1252 console) get ASCII
spellings instead of a crash.

Those spellings keep names apart. A command that loads a puzzle hands it to
:func:`use_names`; a letter the console cannot show is spelt as usual (``Ü`` as
``Ue``, ``é`` as ``e``) unless that makes two of the puzzle's node names, colours or
edge ids read the same (``Ue`` beside ``Ü``), and then it is escaped (``\\xdc``).
A letter has one spelling in the whole output (walks, tables, messages; stdout and
stderr alike when they share an encoding), so a name reads the same wherever it is
printed.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable, Container, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import orjson

from trailkit.models.formats.jsontext import StepsJson
from trailkit.solvers.frontends.presenter.plain import plain_json

if TYPE_CHECKING:
    from trailkit.models.puzzle import Puzzle

__all__ = ["as_shown", "clear_status_line", "emit_json", "plain_json", "say", "status_line",
           "use_names", "use_names_if_none", "warn"]

_ASCII = {"→": "->", "←": "<-", "—": "--", "–": "-", "×": "x", "…": "...", "≥": ">=",
          "≤": "<=", "≠": "!=", "·": "."}


#: Letters whose accent-free base would change the word: spelt as in German, Danish
#: and the like (``Königsberg`` -> ``Koenigsberg``, not ``Konigsberg``).
_LETTERS = {"Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss",
            "ẞ": "SS", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Ø": "Oe", "ø": "oe",
            "Þ": "Th", "þ": "th", "Ð": "D", "ð": "d", "Đ": "D", "đ": "d", "Ł": "L", "ł": "l",
            "ı": "i"}

#: The puzzle (or spec file) whose names the output keeps apart (see
#: :func:`use_names`), and the spellings chosen for it, per encoding.
_names: list[Puzzle | Path] = []
_spellings: dict[str, dict[str, str]] = {}

#: The largest spec file whose words :func:`use_names` reads (the reader's own limit).
_SPEC_BYTES = 50 * 1024 * 1024


def use_names(source: Puzzle | Path | None) -> None:
    """Keep the names of ``source`` apart in what is printed from now on: a puzzle's
    node names, colours and edge ids; for a spec file that could not be read into a
    puzzle (its problems are being reported), every word and quoted text of the file,
    so that no spelling reads as any of them. ``None``: no names. Cheap: the file is
    read and the spellings chosen only when a console cannot show something printed."""
    _names[:] = [source] if source is not None else []
    _spellings.clear()


def use_names_if_none(spec: str) -> None:
    """:func:`use_names` of the spec file ``spec`` unless some names are in use already
    (a model file's problem after the puzzle loaded keeps the puzzle's names)."""
    if not _names:
        use_names(Path(spec))


def _safe(text: str, stream: TextIO) -> str:
    """``text`` with control characters escaped and spelt in the stream's encoding
    (character by character only where a character needs it: a 60,000-line count table
    is printed after its time limit, and its words must not take a second more)."""
    if not text.replace("\n", "").replace("\t", "").isprintable():
        text = "".join(ch if ch in "\n\t" or (ch.isprintable()) else
                       ch.encode("unicode_escape").decode("ascii") for ch in text)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return text
    except LookupError:  # an encoding Python does not know: plain ASCII then
        encoding = "ascii"
    except UnicodeEncodeError:
        pass
    spelling = _spellings_for(encoding)
    return text.translate({ord(ch): spelling.get(ch) or _spelt(ch, encoding)
                           for ch in set(text) if not _shows(ch, encoding)})


def _spelt(ch: str, encoding: str) -> str:
    """``ch`` if the console can show it, else an ASCII spelling (``→`` -> ``->``,
    ``ö`` -> ``oe``, ``é`` -> ``e``), else an escape (``\\u2192``)."""
    try:
        ch.encode(encoding)
        return ch
    except UnicodeEncodeError:
        pass
    plain = _ASCII.get(ch) or _LETTERS.get(ch)
    if plain is None:
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch)
                        if not unicodedata.combining(c))
    try:
        plain.encode(encoding)
    except UnicodeEncodeError:
        plain = ""
    return plain or _escaped(ch)


def _escaped(ch: str) -> str:
    """``ch`` as an ASCII escape (``\\xdc``, ``\\u2192``): never taken for a letter."""
    return ch.encode("ascii", "backslashreplace").decode("ascii")


def _spellings_for(encoding: str) -> dict[str, str]:
    """How each character of the puzzle's names that ``encoding`` cannot show is
    spelt: as :func:`_spelt` does, except where that would make two names of one kind
    (nodes, colours, edge ids) read the same; the characters of such names are escaped
    instead, until every name reads differently."""
    if encoding in _spellings:
        return _spellings[encoding]
    groups: list[tuple[Container[str], list[str]]] = []  # (every name, those respelt)
    for puzzle in _names:
        for group in _name_groups(puzzle):
            lines = "\n" + "\n".join(group) + "\n"  # one check for a million names
            if _shows(lines, encoding):
                continue
            respelt = [name for name in group if not name.isascii()
                       and not _shows(name, encoding)]
            # a few names are looked up in the text; many, in a set of every name
            every: Container[str] = set(group) if len(respelt) > 64 else _Lines(lines)
            groups.append((every, respelt))
    odd = {ch for ch in set("".join(name for _, names in groups for name in names))
           if not _shows(ch, encoding)}
    spelling = {ch: _spelt(ch, encoding) for ch in odd}
    while clashing := {ch for every, names in groups for ch in _clashes(every, names, spelling)
                       if spelling[ch] != _escaped(ch)}:
        spelling.update((ch, _escaped(ch)) for ch in clashing)
    _spellings[encoding] = spelling
    return spelling


def _name_groups(source: Puzzle | Path) -> list[Sequence[str]]:
    """The names that must read differently, by kind: nodes, colours, edge ids (of a
    spec file: its words and quoted texts, one group, as its names are among them)."""
    if isinstance(source, Path):
        return [_words(source)]
    ids = [] if source.edge_ids is None else [str(i) for i in source.edge_ids]
    return [source.nodes, source.colour_names, ids]


def _words(path: Path) -> list[str]:
    """The words and quoted texts of a spec file (none if it is no readable file)."""
    try:
        if not path.is_file() or path.stat().st_size > _SPEC_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    quoted = re.findall(r"'([^'\n]*)'|\"([^\"\n]*)\"", text)
    return sorted({*re.findall(r"[^\s\[\]{},:#'\"]+", text),
                   *(single or double for single, double in quoted)})


class _Lines:
    """Names one a line (``"\\na\\nb\\n"``), asked ``name in lines`` without a set."""

    def __init__(self, lines: str) -> None:
        self.lines = lines

    def __contains__(self, name: object) -> bool:
        return f"\n{name}\n" in self.lines


def _clashes(every: Container[str], respelt: list[str], spelling: dict[str, str]
             ) -> set[str]:
    """The respelt characters of names in ``respelt`` that would read the same as
    another name (one of ``every`` shown as it is, or another respelt one)."""
    read: dict[str, str] = {}
    clashing: set[str] = set()
    if all(text == _escaped(ch) for ch, text in spelling.items()):
        return clashing  # escapes only: nothing left to change
    table = str.maketrans(spelling)
    for name in respelt:
        text = name.translate(table)
        other = read.setdefault(text, name)
        if other != name or text in every:
            clashing.update(ch for ch in name + other if ch in spelling)
    return clashing


def _shows(text: str, encoding: str) -> bool:
    """Whether ``encoding`` can show ``text`` as it is."""
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def as_shown(text: str) -> str:
    """``text`` as :func:`say` will show it on standard output: for a table that
    lines names up by the width they are printed at (``Ü`` may take two columns)."""
    return _safe(text, sys.stdout)


def say(text: str = "", *, end: str = "\n") -> None:
    """Print ``text`` on standard output, safely (see the module docstring)."""
    sys.stdout.write(_safe(text, sys.stdout) + end)


def warn(text: str) -> None:
    """Print ``text`` on standard error, safely."""
    sys.stderr.write(_safe(text, sys.stderr) + "\n")


def write_raw(text: str) -> None:
    """Write a file's content (a generated spec, an exported model) to standard output.

    Its bytes are UTF-8 whatever the console's encoding, as in the file ``--out``
    writes: the content is data, so it is not respelt for the console (a node ``Ü``
    stays ``Ü`` in ``export ... > k.dot``), and an ASCII console does not make it fail.
    """
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()


def emit_json(obj: Any) -> None:
    """One JSON document on standard output, indented.

    orjson writes it (far faster than the standard library's indenting encoder on a
    million-step walk: ``docs/benchmarks.md``), with each walk's ``steps`` as the text
    :class:`~trailkit.models.formats.jsontext.StepsJson` writes from the walk's arrays, written
    out after the text before it without being copied into the document; the standard
    library takes over for what orjson refuses (integers beyond 64 bits, such as exact
    circuit counts) and for a console that cannot show UTF-8 (it escapes to ASCII).
    """
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    if encoding in ("utf8", "utf8sig"):
        steps: list[StepsJson] = []
        try:
            data = orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE,
                                default=lambda value: _as_fragment(value, steps))
        except TypeError:  # an integer beyond 64 bits
            pass
        else:
            pieces: list[bytes | memoryview] = []
            for text, walk in zip(data.split(_STEPS_MARK), [*steps, None], strict=True):
                pieces += [text] if walk is None else [text, walk.buffer(_indent(text))]
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is not None:
                sys.stdout.flush()
                for piece in pieces:
                    buffer.write(piece)
                buffer.flush()
            else:
                sys.stdout.write(b"".join(pieces).decode("utf-8"))
            return
    sys.stdout.write(_plain_text(obj, ascii_only=encoding not in ("utf8", "utf8sig")) + "\n")


def _plain_text(obj: Any, ascii_only: bool) -> str:
    """``obj`` as the standard library writes it, each walk's steps one a line as
    orjson's path writes them (the walks are marked by a string no answer holds, and
    written the plain way if the marks cannot be told apart)."""
    steps: list[StepsJson] = []

    def mark(value: Any) -> Any:
        if isinstance(value, StepsJson):
            steps.append(value)
            return "\x00"
        return str(value)

    text = json.dumps(obj, indent=2, ensure_ascii=ascii_only, default=mark)
    pieces = text.split(_TEXT_MARK)
    if len(pieces) != len(steps) + 1:
        return json.dumps(obj, indent=2, ensure_ascii=ascii_only, default=_as_plain)
    out = [pieces[0]]
    for walk, piece in zip(steps, pieces[1:], strict=True):
        indent = _indent(out[-1].encode("utf-8"))
        out += [walk.ascii_text(indent) if ascii_only else
                bytes(walk.buffer(indent)).decode("utf-8"), piece]
    return "".join(out)


def _indent(text: bytes) -> int:
    """The indentation of the last line of ``text`` (where a walk's key stands)."""
    line = text[text.rfind(b"\n") + 1:]
    return len(line) - len(line.lstrip(b" "))


_STEPS_MARK = b"\x00"
"""Where a walk's steps go in orjson's text: a byte orjson never writes itself (it
escapes every control character), so splitting at it finds exactly the walks."""

_TEXT_MARK = json.dumps("\x00")
"""Where a walk's steps go in the standard library's text: the string ``"\u0000"``,
which no answer holds (spec text has no control characters; :func:`_plain_text`
checks the count anyway)."""


def _as_fragment(obj: Any, steps: list[StepsJson]) -> Any:
    """orjson's hook for what it cannot encode: steps are marked (and listed, in the
    order orjson meets them) for :func:`emit_json` to write; anything else as ``str``."""
    if isinstance(obj, StepsJson):
        steps.append(obj)
        return orjson.Fragment(_STEPS_MARK)
    return str(obj)


def _as_plain(obj: Any) -> Any:
    """The standard library's hook: steps as their list of objects, else ``str``."""
    return obj.to_list() if isinstance(obj, StepsJson) else str(obj)


def status_line() -> Callable[[str], None] | None:
    """A one-line status display on a terminal (stderr), or ``None`` off a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(text: str) -> None:
        sys.stderr.write(f"\r\033[K  {_safe(text, sys.stderr)}...")
        sys.stderr.flush()

    return show


def clear_status_line() -> None:
    """Erase what :func:`status_line` showed (nothing to do off a terminal)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
