"""``trailkit lint``: validate specs (files or whole folders), optionally against ``expect:``.

Problems are printed as ``file:line:column: error: message`` (one per spec), like
yamllint; the exit code is 0 when every spec is clean, 2 when one is unusable and 4
when a spec's ``expect:`` block disagrees with what trailkit finds (with --expect).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec

__all__ = ["find_specs", "lint_paths"]

SPEC_SUFFIXES = (".yaml", ".yml")


def find_specs(paths: Iterable[str]) -> list[Path]:
    """The spec files named by ``paths``: files as given, folders searched recursively."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in SPEC_SUFFIXES
                            and p.is_file())
        else:
            found.append(path)
    return found


def expectation_problems(path: Path) -> list[str]:
    """Solve (and count, if the spec expects counts) and compare with ``expect:``."""
    from trailkit.solvers.counting import count
    from trailkit.solvers.pipeline import solve
    from trailkit.solvers.report import expectation_mismatches

    puzzle = load_spec(path)
    if not puzzle.expect:
        return []
    problems = expectation_mismatches(puzzle, answer=solve(puzzle))
    if {"solutions", "failures", "early_failures"} & set(puzzle.expect):
        wants_failures = bool({"failures", "early_failures"} & set(puzzle.expect))
        problems += expectation_mismatches(puzzle, count=count(puzzle, failures=wants_failures))
    return problems


def lint_paths(paths: Iterable[str], *, check_expect: bool = False) -> int:
    """Lint every spec under ``paths``; print one line per spec; return the exit code."""
    specs = find_specs(paths)
    if not specs:
        print("trailkit lint: no .yaml or .yml specs found", file=sys.stderr)
        return 2
    code = 0
    for path in specs:
        try:
            load_spec(path)
            problems = expectation_problems(path) if check_expect else []
        except TrailkitError as exc:
            print(str(exc), file=sys.stderr)
            code = max(code, 2)
            continue
        if problems:
            for problem in problems:
                print(f"{path}: expect: {problem}", file=sys.stderr)
            code = max(code, 4)
        else:
            print(f"{path}: ok")
    return code
