"""YAML syntax errors in words, located where the mistake is.

PyYAML says where it gave up ("expected ',' or ']', but got '<stream end>'"); a
newcomer needs where the mistake is and what to do: a bracket or quote never closed is
located where it opened, a line indented unlike the keys around it says so, tabs in
indentation are named, and a plain edge list given as a spec is named as such
(:class:`~trailkit.models.errors.NotASpec`: the front ends name the import that makes a
spec of it).

>>> edge_list_hint("1 2\\n2 3\\n3 1\\n", "ring.txt").list_kind
'dominoes'
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.errors import Location, NotASpec, SpecError
from trailkit.models.formats.textformats import looks_like_edge_list

__all__ = ["edge_list_hint", "yaml_problem"]

_OPENERS = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}")}


def yaml_problem(text: str, source: str, exc: yaml.MarkedYAMLError, loc: Location
                 ) -> SpecError:
    """The message for a YAML syntax error: tabs in indentation and plain edge lists given
    as a spec are named as such; anything else as the YAML parser says it."""
    lines = text.splitlines()
    row = lines[loc.line - 1] if loc.line and loc.line <= len(lines) else ""
    at = row[loc.column - 1:loc.column] if loc.column else ""
    indent = row[:len(row) - len(row.lstrip(" \t"))]
    if "\t" in indent and (at == "\t" or "tab" in (exc.problem or "")):
        column = indent.index("\t") + 1
        return SpecError("YAML forbids tabs for indentation; indent with spaces (set your "
                         "editor to insert spaces for the Tab key)",
                         Location(source, loc.line, column))
    listed = edge_list_hint(text, source)
    if listed is not None:
        return listed
    explained = _explain_yaml_problem(lines, source, exc)
    if explained is not None:
        return explained
    what = exc.problem or "malformed YAML"
    if exc.context and "document" in exc.context:
        what = f"{exc.context}, {what}"
    return SpecError(f"malformed YAML: {what}", loc)


def _explain_yaml_problem(lines: list[str], source: str, exc: yaml.MarkedYAMLError
                          ) -> SpecError | None:
    """The common YAML mistakes in words, located where the mistake is rather than where
    the parser gave up: a bracket or quote never closed (located at the opening), a line
    indented unlike the keys around it. ``None`` for anything else."""
    problem, context = exc.problem or "", exc.context or ""
    opened, stuck = exc.context_mark, exc.problem_mark
    if opened is None or stuck is None:
        return _indented_too_far(lines, source, problem, stuck)
    where = f"line {stuck.line + 1}, column {stuck.column + 1}"
    for what, (left, right) in _OPENERS.items():
        if context.endswith(what) and "did not find expected" in problem:
            return SpecError(
                f"malformed YAML: this {left!r} is not closed: YAML reached {where} still "
                f"looking for a ',' or {right!r}; close it with {right!r} (and quote an item "
                "that holds a comma or a bracket)",
                Location(source, opened.line + 1, opened.column + 1))
    if context.endswith("quoted scalar") and "end of stream" in problem:
        quote = lines[opened.line][opened.column:opened.column + 1] if opened.line < len(
            lines) else '"'
        return SpecError(f"malformed YAML: this {quote} is never closed; end the text with "
                         f"{quote}", Location(source, opened.line + 1, opened.column + 1))
    if context.endswith("block mapping") and "expected key" in problem \
            and stuck.line < len(lines):
        return _indented_unlike_the_keys(lines, source, opened, stuck)
    return None


def _indented_unlike_the_keys(lines: list[str], source: str, opened: Any, stuck: Any
                              ) -> SpecError | None:
    """A line of a block mapping indented by more or less than the mapping's keys."""
    row = lines[stuck.line]
    indent = len(row) - len(row.lstrip(" "))
    if indent == opened.column:
        return None
    keys = ("are not indented" if opened.column == 0
            else f"are indented by {_spaces(opened.column)}")
    return SpecError(
        f"malformed YAML: line {stuck.line + 1} is indented by {_spaces(indent)}, "
        f"but the keys around it {keys} (as on line {opened.line + 1}); YAML reads "
        "indentation as structure: indent it as they are",
        Location(source, stuck.line + 1, 1))


def _indented_too_far(lines: list[str], source: str, problem: str, stuck: Any
                      ) -> SpecError | None:
    """``key: value`` on a line indented deeper than a plain ``key: value`` above it."""
    if stuck is None or "mapping values are not allowed" not in problem \
            or stuck.line >= len(lines):
        return None
    row = lines[stuck.line]
    indent = len(row) - len(row.lstrip(" "))
    above = next((lines[i] for i in range(stuck.line - 1, -1, -1)
                  if lines[i].strip() and not lines[i].lstrip().startswith("#")), None)
    if above is None or indent <= len(above) - len(above.lstrip(" ")):
        return None
    return SpecError(f"malformed YAML: line {stuck.line + 1} is indented deeper than the "
                     "line above it, so YAML reads it as part of that line's value; indent "
                     "it as the keys around it", Location(source, stuck.line + 1, 1))


def _spaces(n: int) -> str:
    return f"{n} space{'s' if n != 1 else ''}"


def edge_list_hint(text: str, source: str) -> NotASpec | None:
    """A located :class:`NotASpec` when ``text`` is a plain plank, domino or edge list
    rather than a YAML spec; ``None`` when it does not look like one."""
    listed = looks_like_edge_list(text)
    if listed is None:
        return None
    kind, line = listed
    what = {"planks": "a plank list ('A E red' per line)",
            "dominoes": "a domino list ('1 2' per line)",
            "edges": "a plain edge list ('a b' per line)"}[kind]
    return NotASpec(what, kind, Location(source, line, 1))
