"""Text to a composed YAML node tree, never to Python objects; every failure located.

The YAML is *composed* (never constructed), so no Python object is ever built from a
tag, duplicated keys are seen (PyYAML would silently keep the last one), and each
scalar keeps the text the author wrote. Characters YAML forbids are found first and
located by line and column (PyYAML gives only a byte position).

>>> compose("kind: trail\\n", "s.yaml").value[0][1].value
'trail'
>>> [str(p) for p in control_characters("a\\x00b\\n", "s.yaml")][0][:42]
's.yaml:1:2: error: a NUL byte (U+0000) is '
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.errors import Location, SpecError
from trailkit.models.spec.syntax import yaml_problem
from trailkit.models.spec.vocabulary import MAX_PROBLEMS, NOT_PRINTABLE

__all__ = ["compose", "control_characters", "line_column"]

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PRINTABLE_ASCII = bytes([9, 10, 13, *range(32, 127)])
"""The ASCII bytes a YAML file may hold."""


def line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text``."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def control_characters(text: str, source: str, *, in_yaml: bool = True) -> list[SpecError]:
    """A located problem for each character YAML does not allow in a file (control
    characters, NUL bytes), which the YAML reader reports only as a byte position.
    Side files (``in_yaml=False``) are held to the same rule: a name never hides one."""
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return []  # the common case: every byte allowed (bytes.translate runs in C)
    out: list[SpecError] = []
    for match in NOT_PRINTABLE.finditer(text):
        if len(out) == MAX_PROBLEMS:
            break
        char = match.group()
        line, column = line_column(text, match.start())
        if char == "\x00":
            what = "a NUL byte (U+0000)"
        else:
            what = f"the control character U+{ord(char):04X}"
        escape = (f" (inside a double-quoted string it can be written as the escape "
                  f"\"\\u{ord(char):04x}\")" if in_yaml else "")
        where = "a YAML file" if in_yaml else "an edge list"
        out.append(SpecError(f"{what} is not allowed in {where}; delete it{escape}",
                             Location(source, line, column)))
    return out


def compose(text: str, source: str) -> yaml.Node:
    """The root node of YAML ``text``; raise a located :class:`SpecError` when it is not
    YAML, is nested too deeply, or is empty."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(source, mark.line + 1, mark.column + 1) if mark else Location(source)
        raise yaml_problem(text, source, exc, loc) from None
    except yaml.reader.ReaderError as exc:  # a character the pre-check let through
        index = text.find(chr(exc.character)) if isinstance(exc.character, int) else -1
        loc = Location(source, *line_column(text, index)) if index >= 0 else Location(source)
        raise SpecError(f"the character U+{exc.character:04X} is not allowed in YAML; "
                        "delete it", loc) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"malformed YAML: {exc}", Location(source)) from None
    except RecursionError:
        raise SpecError("the YAML is nested too deeply", Location(source)) from None
    if root is None:
        raise SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                        Location(source, 1, 1))
    return root
