"""Everything trailkit prints goes through here: JSON on stdout, text that any
console can show, and a status line on a terminal.

Text is made safe twice: control characters from a spec (a ``name:`` holding
``\\x1b[2J``) are shown escaped, never sent to the terminal, and characters the
console's encoding cannot show (``→`` on an ASCII or cp1252 console) get ASCII
spellings instead of a crash.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable
from typing import Any, TextIO

import orjson

from trailkit.models.jsontext import StepsJson

__all__ = ["clear_status_line", "emit_json", "plain_json", "say", "status_line", "warn"]

_ASCII = {"→": "->", "←": "<-", "—": "--", "–": "-", "×": "x", "…": "...", "≥": ">=",
          "≤": "<=", "≠": "!=", "·": "."}


def _safe(text: str, stream: TextIO) -> str:
    """``text`` with control characters escaped and spelt in the stream's encoding."""
    text = "".join(ch if ch in "\n\t" or (ch.isprintable()) else
                   ch.encode("unicode_escape").decode("ascii") for ch in text)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        for fancy, plain in _ASCII.items():
            text = text.replace(fancy, plain)
        text = "".join(_spelt(ch, encoding) for ch in text)
    return text


def _spelt(ch: str, encoding: str) -> str:
    """``ch`` if the console can show it, else its letter without accents (ö -> o),
    else an escape (``\\u2192``)."""
    try:
        ch.encode(encoding)
        return ch
    except UnicodeEncodeError:
        base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                       if not unicodedata.combining(c))
        try:
            base.encode(encoding)
            return base or ch.encode("ascii", "backslashreplace").decode("ascii")
        except UnicodeEncodeError:
            return ch.encode("ascii", "backslashreplace").decode("ascii")


def say(text: str = "", *, end: str = "\n") -> None:
    """Print ``text`` on standard output, safely (see the module docstring)."""
    sys.stdout.write(_safe(text, sys.stdout) + end)


def warn(text: str) -> None:
    """Print ``text`` on standard error, safely."""
    sys.stderr.write(_safe(text, sys.stderr) + "\n")


def write_raw(text: str) -> None:
    """Write a file's content (a generated spec, an exported model) to standard output."""
    sys.stdout.write(text)


def emit_json(obj: Any) -> None:
    """One JSON document on standard output, indented.

    orjson writes it (far faster than the standard library's indenting encoder on a
    million-step walk: ``docs/benchmarks.md``), with each walk's ``steps`` as the text
    :class:`~trailkit.models.jsontext.StepsJson` writes from the walk's arrays, written
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


def plain_json(obj: Any) -> Any:
    """``obj`` with every :class:`~trailkit.models.jsontext.StepsJson` in it replaced by
    the list its text decodes to: the document as a reader of the output sees it (what
    the test suite validates against the schemas)."""
    if isinstance(obj, StepsJson):
        return orjson.loads(obj.to_bytes())
    if isinstance(obj, dict):
        return {key: plain_json(value) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain_json(value) for value in obj]
    return obj


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
