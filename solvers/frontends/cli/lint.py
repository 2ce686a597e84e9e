"""``trailkit lint``: validate specs (files or whole folders), optionally against ``expect:``.

Like yamllint, every problem of every file is reported, each located, followed by a
summary line:

* ``--format text`` (the default): ``file:line:column: error: message`` on standard
  error, ``file: ok`` on standard output for a clean spec, and the summary;
* ``--format parsable``: one problem a line on standard output,
  ``file:line:column: [error] message (key.path)``, for editors and grep;
* ``--format json`` (or ``--json``): one ``trailkit-lint/1`` object.

Warnings (a spec that loads, with something worth a look: a cycle colour on no edge)
are printed the same way with ``warning`` for ``error`` (JSON: each spec's
``warnings``) and do not change the exit code.

The exit code is 0 when every spec is clean (warnings allowed), 2 when one is unusable,
4 when a spec's ``expect:`` block disagrees with what trailkit finds (with ``--expect``),
and 3 when no backend could decide an expectation within ``--time-limit``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trailkit.models.errors import SpecError, SpecWarning, TrailkitError
from trailkit.models.spec import lint_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import Exit, examples, positive_float
from trailkit.solvers.frontends.cli.output import say, warn
from trailkit.solvers.support.specfiles import find_specs
from trailkit.solvers.tools.expect_check import EXPECT_TIME_S

__all__ = ["LINT_FORMAT", "register"]

LINT_FORMAT = "trailkit-lint/1"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lint``."""
    p = sub.add_parser("lint", help="validate specs (files or folders): every problem, located",
                       **examples("trailkit lint specs", "trailkit lint specs --expect",
                                  "trailkit lint my.yaml --format parsable"))
    p.add_argument("specs", nargs="+", metavar="SPEC", help="spec files or folders of specs")
    p.add_argument("--expect", action="store_true",
                   help="also solve (and count) each spec and check its expect: block")
    p.add_argument("--format", choices=("text", "parsable", "json"), default="text",
                   help="text (default): messages and a summary; parsable: one "
                        "'file:line:col: [error] message' line per problem; json: one "
                        "trailkit-lint/1 object")
    p.add_argument("--json", action="store_const", const="json", dest="format",
                   help="the same as --format json")
    p.add_argument("--time-limit", type=positive_float, default=EXPECT_TIME_S, metavar="S",
                   help=f"with --expect: seconds for each spec (default {EXPECT_TIME_S:g}); "
                        "what no backend decides in time is 'undecided' (exit code 3)")
    p.set_defaults(run=cmd_lint)


@dataclass
class _Finding:
    """What lint found in one spec file."""

    path: Path
    problems: list[SpecError] = field(default_factory=list)
    warnings: list[SpecError] = field(default_factory=list)
    expectations: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.expectations and not self.undecided


def _lint(path: Path, check_expect: bool, limits: Limits) -> _Finding:
    from trailkit.solvers.tools.expect_check import expectation_problems

    found = lint_spec(path)
    finding = _Finding(path, [p for p in found if not isinstance(p, SpecWarning)],
                       [p for p in found if isinstance(p, SpecWarning)])
    if check_expect and not finding.problems:
        try:
            checked = expectation_problems(path, limits)
            finding.expectations, finding.undecided = checked.mismatches, checked.undecided
        except TrailkitError as exc:  # e.g. a backend refusing the puzzle
            finding.problems.append(exc if isinstance(exc, SpecError) else SpecError(str(exc)))
    return finding


def _problem_json(problem: SpecError) -> dict[str, Any]:
    location = problem.location
    return {"file": location.file if location else None,
            "line": location.line if location else None,
            "column": location.column if location else None,
            "message": problem.message, "path": problem.path or None,
            "level": problem.level}


def _summary(findings: list[_Finding]) -> str:
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


def _position(problem: SpecError) -> tuple[int, int]:
    """Where a problem is, for printing errors and warnings together in file order."""
    location = problem.location
    return (location.line or 0, location.column or 0) if location else (0, 0)


def cmd_lint(args: argparse.Namespace) -> int:
    """Lint every spec under the paths given; report every problem; the exit code."""
    specs = find_specs(args.specs)
    if not specs:
        raise TrailkitError("lint: no .yaml or .yml specs found")
    limits = Limits(time_limit=args.time_limit)
    findings = [_lint(path, args.expect, limits) for path in specs]
    code = Exit.OK
    if any(f.undecided for f in findings):
        code = Exit.UNKNOWN
    if any(f.expectations for f in findings):
        code = Exit.INCONSISTENT
    if any(f.problems for f in findings):
        code = Exit.INPUT
    if args.format == "json":
        output.emit_json({"format": LINT_FORMAT, "ok": code == Exit.OK,
                          "summary": _summary(findings),
                          "specs": [{"spec": str(f.path), "ok": f.ok,
                                     "problems": [_problem_json(p) for p in f.problems],
                                     "warnings": [_problem_json(p) for p in f.warnings],
                                     "expect": f.expectations,
                                     "undecided": f.undecided} for f in findings]})
        return code
    for finding in findings:
        output.use_names(finding.path)  # its names stay apart on an ASCII console
        for problem in sorted([*finding.problems, *finding.warnings], key=_position):
            if args.format == "parsable":
                where = str(problem.location) if problem.location else str(finding.path)
                key = f" ({problem.path})" if problem.path else ""
                say(f"{where}: [{problem.level}] {problem.message}{key}")
            else:
                warn(str(problem) if problem.location else f"{finding.path}: {problem}")
        for mismatch in finding.expectations:
            line = f"{finding.path}: expect: {mismatch}"
            say(f"{finding.path}: [expect] {mismatch}") if args.format == "parsable" \
                else warn(line)
        for open_question in finding.undecided:
            line = f"{finding.path}: expect: undecided within the time limit: {open_question}"
            say(f"{finding.path}: [undecided] {open_question}") if args.format == "parsable" \
                else warn(line)
        if finding.ok and args.format == "text":
            say(f"{finding.path}: ok")
    if args.format == "text":
        say(_summary(findings))
    return code
