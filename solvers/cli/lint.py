"""``trailkit lint``: validate specs (files or whole folders), optionally against ``expect:``.

Problems are printed as ``file:line:column: error: message`` (one per spec), like
yamllint; the exit code is 0 when every spec is clean, 2 when one is unusable and 4
when a spec's ``expect:`` block disagrees with what trailkit finds (with --expect).
"""

from __future__ import annotations

import argparse

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec
from trailkit.solvers.cli.options import Exit
from trailkit.solvers.cli.output import say, warn
from trailkit.solvers.specfiles import find_specs

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``lint``."""
    p = sub.add_parser("lint", help="validate specs (files or folders)")
    p.add_argument("specs", nargs="+", metavar="SPEC", help="spec files or folders of specs")
    p.add_argument("--expect", action="store_true",
                   help="also solve (and count) each spec and check its expect: block")
    p.set_defaults(run=cmd_lint)


def cmd_lint(args: argparse.Namespace) -> int:
    """Lint every spec under the paths given; one line per spec; the exit code."""
    from trailkit.solvers.pipeline.expectations import expectation_problems

    specs = find_specs(args.specs)
    if not specs:
        warn("trailkit lint: no .yaml or .yml specs found")
        return Exit.INPUT
    code = Exit.OK
    for path in specs:
        try:
            load_spec(path)
            problems = expectation_problems(path) if args.expect else []
        except TrailkitError as exc:
            warn(str(exc))
            code = max(code, Exit.INPUT)
            continue
        if problems:
            for problem in problems:
                warn(f"{path}: expect: {problem}")
            code = max(code, Exit.INCONSISTENT)
        else:
            say(f"{path}: ok")
    return code
