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
from pathlib import Path

from trailkit.models.errors import SpecError, SpecWarning, TrailkitError
from trailkit.models.spec import lint_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import Exit, examples, positive_float
from trailkit.solvers.frontends.cli.output import say, warn
from trailkit.solvers.frontends.presenter.problems import (
    LintFinding,
    finding_lines,
    lint_json,
    lint_summary,
)
from trailkit.solvers.support.specfiles import find_specs
from trailkit.solvers.tools.expect_check import EXPECT_TIME_S

__all__ = ["register"]


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


def _lint(path: Path, check_expect: bool, limits: Limits) -> LintFinding:
    from trailkit.solvers.tools.expect_check import expectation_problems

    found = lint_spec(path)
    finding = LintFinding(path, [p for p in found if not isinstance(p, SpecWarning)],
                          [p for p in found if isinstance(p, SpecWarning)])
    if check_expect and not finding.problems:
        try:
            checked = expectation_problems(path, limits)
            finding.expectations, finding.undecided = checked.mismatches, checked.undecided
        except TrailkitError as exc:  # e.g. a backend refusing the puzzle
            finding.problems.append(exc if isinstance(exc, SpecError) else SpecError(str(exc)))
    return finding


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
        output.emit_json(lint_json(findings, code == Exit.OK))
        return code
    for finding in findings:
        output.use_names(finding.path)  # its names stay apart on an ASCII console
        for to_stderr, line in finding_lines(finding, args.format == "parsable"):
            warn(line) if to_stderr else say(line)
    if args.format == "text":
        say(lint_summary(findings))
    return code
