"""``trailkit inspect`` (and ``trailkit design``): what a puzzle depends on, puzzles to order.

``inspect`` parses its options, calls
:func:`~trailkit.solvers.tools.design.inspection.inspect_puzzle` and prints what the
presenter (:mod:`trailkit.solvers.frontends.presenter.inspect`) makes of it. Exit codes:
0 inspected (a solvable puzzle), 1 unsolvable (as ``solve``), 3 unknown within the
limits. (The module is not called ``inspect.py``: the presenter's module has that name,
and no two modules share one.)
"""

from __future__ import annotations

import argparse

from trailkit.models.answer import Status
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import (
    Exit,
    add_json,
    add_spec,
    examples,
    positive_float,
)
from trailkit.solvers.frontends.cli.output import say, use_names

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``inspect``."""
    p = sub.add_parser("inspect", help="which edges a solvable puzzle cannot lose, which "
                       "make its walk longer, and measures of how hard it is",
                       **examples("trailkit inspect specs/tyre-puzzle/restored.yaml",
                                  "trailkit inspect specs/nikolaus.yaml --json"))
    add_spec(p)
    add_json(p, "the inspection")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="give up after S seconds (answer: unknown, exit code 3; default: "
                        "none)")
    p.set_defaults(run=cmd_inspect)


def cmd_inspect(args: argparse.Namespace) -> int:
    from trailkit.models.spec import load_spec
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.frontends.cli.report import answer_json, answer_text
    from trailkit.solvers.frontends.presenter.inspect import inspect_json, inspect_text
    from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

    puzzle = load_spec(args.spec)
    use_names(puzzle)
    result = inspect_puzzle(puzzle, Limits(time_limit=args.time_limit))
    solvable = result.status is InspectStatus.SOLVABLE
    if args.json:
        answer = None if solvable else answer_json(puzzle, result.answer, args.spec)
        output.emit_json(inspect_json(puzzle, result, args.spec, answer))
    else:
        answer = None if solvable else answer_text(puzzle, result.answer, args.spec)
        say(inspect_text(puzzle, result, args.spec, answer))
    if solvable:
        return Exit.OK
    return Exit.UNSOLVABLE if result.answer.status is Status.UNSOLVABLE else Exit.UNKNOWN
