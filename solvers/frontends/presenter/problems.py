"""Problems in words and in JSON: what ``lint`` found in specs (``trailkit-lint/1``, the
lines it prints, its summary), each problem as the workshop's page shows it too, and an
input error as ``--json`` reports it (``trailkit-error/1``).

A problem has one JSON form, whoever shows it; the workshop also asks where in its
line the name a message quotes stands (:func:`problem_json` with the spec's text).

>>> from trailkit.models.errors import Location, SpecError
>>> problem = SpecError("unknown node 'bb'", Location("s.yaml", 5, 8))
>>> problem_json(problem)["line"], problem_json(problem)["column"]
(5, 8)
>>> problem_json(problem, "a\\nb\\nc\\nd\\nstart: bb\\n")["token_length"]
2
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trailkit.models.errors import NotASpec, SpecError

__all__ = ["ERROR_FORMAT", "LINT_FORMAT", "LintFinding", "error_json", "finding_lines",
           "lint_json", "lint_summary", "problem_json", "spelled_out"]

LINT_FORMAT = "trailkit-lint/1"
ERROR_FORMAT = "trailkit-error/1"

_QUOTED = re.compile(r"'([^'\n]+)'")
_BEFORE = r"(?<![^\s,\[{:'\"-])"
_AFTER = r"(?![^\s,\]}:'\"#])"


@dataclass
class LintFinding:
    """What lint found in one spec file: its problems and warnings, the ``expect:``
    mismatches and what no backend decided in time."""

    path: Path
    problems: list[SpecError] = field(default_factory=list)
    warnings: list[SpecError] = field(default_factory=list)
    expectations: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Clean: no problem, no mismatch, nothing undecided (warnings allowed)."""
        return not self.problems and not self.expectations and not self.undecided


#: The command that makes a spec of each kind of plain list (``{file}``: the list's path).
_IMPORT_COMMANDS = {
    "planks": "trailkit import planks {file} --start START --goal GOAL",
    "dominoes": "trailkit import dominoes {file}",
    "edges": "trailkit import dominoes {file} (for a ring of pieces), or name it from a "
             "spec with 'edges_file:'",
}


def spelled_out(problem: SpecError) -> SpecError:
    """``problem`` in the command line's words: a plain list given as a spec
    (:class:`NotASpec`) names the command that turns it into one."""
    if not isinstance(problem, NotASpec):
        return problem
    file = problem.location.file if problem.location else "FILE"
    command = _IMPORT_COMMANDS[problem.list_kind].format(file=file)
    return SpecError(f"this is {problem.what}, not a YAML spec; turn it into a spec with: "
                     f"{command}", problem.location, problem.path)


def problem_json(problem: SpecError, text: str | None = None) -> dict[str, Any]:
    """One problem as ``lint --json`` (and the workshop's page) shows it. With the spec's
    ``text``, ``token_column`` and ``token_length`` also say where the name the message
    quotes first stands in its line, at or after the problem's column (the misspelt
    colour of an edge, not the edge's start), so a click on it puts the cursor there."""
    problem = spelled_out(problem)
    location = problem.location
    line = location.line if location else None
    column = location.column if location else None
    out: dict[str, Any] = {"file": location.file if location else None,
                           "line": line, "column": column,
                           "message": problem.message, "path": problem.path or None,
                           "level": problem.level}
    if text is None:
        return out
    out.update(token_column=column, token_length=None)
    named = _QUOTED.search(problem.message)
    if line and column and named:
        lines = text.splitlines()
        written = lines[line - 1] if line <= len(lines) else ""
        found = re.compile(_BEFORE + re.escape(named.group(1)) + _AFTER).search(
            written, column - 1)
        if found:
            out.update(token_column=found.start() + 1, token_length=len(named.group(1)))
    return out


def lint_summary(findings: list[LintFinding]) -> str:
    """``3 specs checked, 2 ok, 1 problem in 1 file(s)``: the line lint ends with."""
    problems = sum(len(f.problems) for f in findings)
    warnings = sum(len(f.warnings) for f in findings)
    expectations = sum(len(f.expectations) for f in findings)
    clean = sum(f.ok for f in findings)
    parts = [f"{len(findings)} spec{'s' if len(findings) != 1 else ''} checked", f"{clean} ok"]
    if problems:
        parts.append(f"{problems} problem{'s' if problems != 1 else ''} in "
                     f"{sum(bool(f.problems) for f in findings)} file(s)")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    if expectations:
        parts.append(f"{expectations} expect: mismatch{'es' if expectations != 1 else ''}")
    return ", ".join(parts)


def lint_json(findings: list[LintFinding], ok: bool) -> dict[str, Any]:
    """The ``trailkit-lint/1`` object."""
    return {"format": LINT_FORMAT, "ok": ok, "summary": lint_summary(findings),
            "specs": [{"spec": str(f.path), "ok": f.ok,
                       "problems": [problem_json(p) for p in f.problems],
                       "warnings": [problem_json(p) for p in f.warnings],
                       "expect": f.expectations,
                       "undecided": f.undecided} for f in findings]}


def _position(problem: SpecError) -> tuple[int, int]:
    """Where a problem is, for printing errors and warnings together in file order."""
    location = problem.location
    return (location.line or 0, location.column or 0) if location else (0, 0)


def finding_lines(finding: LintFinding, parsable: bool) -> list[tuple[bool, str]]:
    """The lines lint prints for one spec, each with whether it is a warning (standard
    error) rather than output: ``file:line:column: error: message`` lines and
    ``file: ok``, or with ``parsable`` one ``file:line:col: [error] message (key.path)``
    line a problem, all on standard output."""
    path = finding.path
    lines: list[tuple[bool, str]] = []
    for found in sorted([*finding.problems, *finding.warnings], key=_position):
        problem = spelled_out(found)
        if parsable:
            where = str(problem.location) if problem.location else str(path)
            key = f" ({problem.path})" if problem.path else ""
            lines.append((False, f"{where}: [{problem.level}] {problem.message}{key}"))
        else:
            lines.append((True, str(problem) if problem.location else f"{path}: {problem}"))
    for mismatch in finding.expectations:
        lines.append((False, f"{path}: [expect] {mismatch}") if parsable
                     else (True, f"{path}: expect: {mismatch}"))
    for open_question in finding.undecided:
        lines.append((False, f"{path}: [undecided] {open_question}") if parsable else
                     (True, f"{path}: expect: undecided within the time limit: "
                            f"{open_question}"))
    if finding.ok and not parsable:
        lines.append((False, f"{path}: ok"))
    return lines


def error_json(error: Exception) -> dict[str, Any]:
    """The ``trailkit-error/1`` object of an input error (what ``--json`` prints on
    stdout, beside the message on stderr): where, and what went wrong."""
    location = getattr(error, "location", None)
    message = getattr(error, "message", None) or str(error)
    return {"format": ERROR_FORMAT,
            "file": getattr(location, "file", None),
            "line": getattr(location, "line", None),
            "column": getattr(location, "column", None),
            "message": message}
