"""``trailkit inspect`` (and ``trailkit design``): what a puzzle depends on, puzzles to order.

``inspect`` parses its options, calls
:func:`~trailkit.solvers.tools.design.inspection.inspect_puzzle` and prints what the
presenter (:mod:`trailkit.solvers.frontends.presenter.inspect`) makes of it. Exit codes:
0 inspected (a solvable puzzle), 1 unsolvable (as ``solve``), 3 unknown within the
limits. ``design colour-walk`` parses the field and the targets, calls
:func:`~trailkit.solvers.tools.design.certify_design.make_designs` and writes each
design as a spec (atomically, never over an input): exit 0 when every design met every
target, 3 when none was found in time (or none can exist), 2 for bad options.
(The module is not called ``inspect.py``: the presenter's module has that name,
and no two modules share one.)
"""

from __future__ import annotations

import argparse
from typing import Any

from trailkit.models.answer import Status
from trailkit.models.errors import TrailkitError
from trailkit.models.support.hints import did_you_mean
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.design_options import (
    design_field,
    design_files,
    parse_range,
    write_and_show,
)
from trailkit.solvers.frontends.cli.options import (
    Exit,
    add_json,
    add_out,
    add_spec,
    examples,
    positive_float,
)
from trailkit.solvers.frontends.cli.output import say, use_names
from trailkit.solvers.frontends.cli.trail_designer import register_trail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``inspect`` and ``design``."""
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
    _register_design(sub)


def cmd_inspect(args: argparse.Namespace) -> int:
    from trailkit.models.spec import load_spec
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.frontends.presenter.inspect import inspect_json, inspect_text
    from trailkit.solvers.frontends.presenter.results import answer_json, answer_text
    from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

    puzzle = load_spec(args.spec)
    use_names(puzzle)
    result = inspect_puzzle(puzzle, Limits(time_limit=args.time_limit))
    solvable = result.status is InspectStatus.SOLVABLE
    if args.json:
        data = None if solvable else answer_json(puzzle, result.answer, args.spec)
        output.emit_json(inspect_json(puzzle, result, args.spec, data))
    else:
        text = None if solvable else answer_text(puzzle, result.answer, args.spec)
        say(inspect_text(puzzle, result, args.spec, text))
    if solvable:
        return Exit.OK
    return Exit.UNSOLVABLE if result.answer.status is Status.UNSOLVABLE else Exit.UNKNOWN


def _register_design(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("design", help="make puzzles to order: a field's planks coloured so "
                       "the walk is long, unique, robust (each property certified)",
                       **examples("trailkit design colour-walk --layout hex:5,8 "
                                  "--min-length 20 --unique --out tyres.yaml",
                                  "trailkit design colour-walk --from specs/tyre-puzzle/"
                                  "restored.yaml --unique --robust --out mine.yaml"))
    kinds = p.add_subparsers(dest="design_kind", metavar="KIND", required=True,
                             help="what to design: colour-walk, trail")
    q = kinds.add_parser("colour-walk", aliases=["color-walk"],
                         help="choose plank colours for a colour walk",
                         **examples("trailkit design colour-walk --layout hex:5,8 "
                                    "--min-length 20 --unique --out tyres.yaml",
                                    "trailkit design colour-walk --layout grid:4,4 "
                                    "--thin 0.2 --robust --count 3 --out grid.yaml"))
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--layout", metavar="hex:ROWS,COLS|grid:ROWS,COLS",
                       help="a new field of tyres: hexagonal rows or a square grid")
    where.add_argument("--from", dest="from_spec", metavar="SPEC",
                       help="keep a spec's nodes, layout and plank places; choose colours")
    q.add_argument("--colours", "--colors", default="red,blue,green", metavar="LIST",
                   help="the colour cycle (default red,blue,green)")
    q.add_argument("--start", metavar="NODE",
                   help="the start node (default: the spec's, else the first)")
    q.add_argument("--goal", metavar="NODE",
                   help="the goal node (default: the spec's, else the last)")
    q.add_argument("--min-length", type=int, default=1, metavar="L",
                   help="the shortest walk has at least L steps (default 1)")
    q.add_argument("--max-length", type=int, metavar="L",
                   help="the shortest walk has at most L steps")
    q.add_argument("--unique", action="store_true", help="exactly one shortest walk")
    q.add_argument("--robust", action="store_true",
                   help="no critical plank: losing any one leaves the puzzle solvable")
    q.add_argument("--traps", metavar="MIN..MAX",
                   help="reachable (place, colour) situations from which the goal is lost "
                        "(docs/inspect.md)")
    q.add_argument("--trap-steps", metavar="MIN..MAX",
                   help="steps of every shortest walk taken beside a trap")
    q.add_argument("--thin", type=float, default=0.0, metavar="P",
                   help="leave out up to this share of the touching pairs (0 to 0.9)")
    q.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    q.add_argument("--count", type=int, default=1, metavar="N",
                   help="make N different designs: FILE-1.yaml ... FILE-N.yaml")
    q.add_argument("--time-limit", type=positive_float, default=60.0, metavar="S",
                   help="search for at most S seconds in all (default 60; then exit 3)")
    q.add_argument("--best-effort", action="store_true",
                   help="when the time runs out, write the best found, saying what it lacks")
    add_out(q, "FILE.yaml", "the designed spec", stdout=False)
    add_json(q, "what was designed")
    q.set_defaults(run=cmd_design)
    register_trail(kinds)


def _node(field: Any, name: str | None, default: int, what: str) -> int:
    if name is None:
        return default
    if name not in field.nodes:
        raise TrailkitError(f"--{what}: {name!r} is no node of the field (nodes "
                            f"{field.nodes[0]} ... {field.nodes[-1]})"
                            f"{did_you_mean(name, field.nodes)}")
    return int(field.nodes.index(name))


def _targets(args: argparse.Namespace, field: Any) -> tuple[Any, tuple[str, ...]]:
    """The targets, checked: every problem is exit 2 with what to do."""
    from trailkit.solvers.tools.design.colour_search import Targets

    names = tuple(c.strip() for c in args.colours.split(",") if c.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        raise TrailkitError("--colours: give two or more different colours, e.g. "
                            "red,blue,green")
    if args.min_length < 1 or (args.max_length is not None
                               and args.max_length < args.min_length):
        raise TrailkitError("--min-length must be 1 or more, and --max-length at least "
                            "--min-length")
    if not 0 <= args.thin <= 0.9:
        raise TrailkitError("--thin P: a share from 0 to 0.9 of the pairs to leave out")
    start = _node(field, args.start, field.start, "start")
    goal = _node(field, args.goal, field.goal % len(field.nodes), "goal")
    if start == goal:
        raise TrailkitError("--start and --goal name the same node: a walk of no steps "
                            "would solve it; give two different nodes")
    return Targets(start, goal, len(names), args.min_length, args.max_length, args.unique,
                   args.robust, args.thin, parse_range("--traps", args.traps, least=0),
                   parse_range("--trap-steps", args.trap_steps, least=0)), names


def _made_by(args: argparse.Namespace) -> str:
    """The command line that makes the design again (the seed is added per design)."""
    where = f"--layout {args.layout}" if args.layout else f"--from {args.from_spec}"
    words = [f"trailkit design colour-walk {where} --colours {args.colours}"]
    for flag, value in (("--start", args.start), ("--goal", args.goal),
                        ("--max-length", args.max_length)):
        if value is not None:
            words.append(f"{flag} {value}")
    words.append(f"--min-length {args.min_length}")
    words += [flag for flag, on in (("--unique", args.unique), ("--robust", args.robust))
              if on]
    words += [f"{flag} {value}" for flag, value in (("--traps", args.traps),
                                                   ("--trap-steps", args.trap_steps)) if value]
    if args.thin:
        words.append(f"--thin {args.thin:g}")
    return " ".join(words)


def cmd_design(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.design import design_json, design_text
    from trailkit.solvers.tools.design.certify_design import make_designs

    files = design_files(args.out, args.count, [args.from_spec] if args.from_spec else [],
                         force=args.force)
    field = design_field(args, ("hex", "grid"))
    targets, names = _targets(args, field)
    made = make_designs(field, targets, names, seed=args.seed, how_many=args.count,
                        time_limit=args.time_limit, made=_made_by(args),
                        best_effort=args.best_effort)
    return write_and_show(made, files, args.json, design_json, design_text)
