"""``trailkit design trail``: a one-stroke figure with counts in the ranges asked.

Parses the field (``--layout grid:ROWS,COLS`` or ``--from SPEC``) and the targets
(``--solutions MIN..MAX``, ``--failures MIN..MAX``, ``--unique-start``), calls
:func:`~trailkit.solvers.tools.design.trail_design.make_trails` and writes each figure
as a spec (atomically, never over an input). Exit 0 when every figure was made, 3 when
none was found in time (or none can exist), 2 for bad options.
"""

from __future__ import annotations

import argparse

from trailkit.solvers.frontends.cli.design_command import (
    design_field,
    design_files,
    parse_range,
    write_and_show,
)
from trailkit.solvers.frontends.cli.options import add_json, add_out, examples, positive_float

__all__ = ["register_trail"]


def register_trail(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``design trail`` to ``design``'s kinds."""
    q = kinds.add_parser("trail", help="choose a figure's lines so its number of one-stroke "
                                       "drawings (or failures) is in a range",
                         **examples("trailkit design trail --layout grid:3,4 --solutions "
                                    "20..60 --out figure.yaml",
                                    "trailkit design trail --layout grid:3,3 --failures "
                                    "50..100 --unique-start --out one-start.yaml"))
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--layout", metavar="grid:ROWS,COLS",
                       help="a new square grid of points; lines join touching points")
    where.add_argument("--from", dest="from_spec", metavar="SPEC",
                       help="keep a spec's nodes, layout and line places; choose lines")
    q.add_argument("--solutions", default="1..1000000", metavar="MIN..MAX",
                   help="the number of one-stroke drawings, as trailkit count gives it "
                        "(default 1..1000000)")
    q.add_argument("--failures", metavar="MIN..MAX",
                   help="the number of failures (walks stuck before the figure is drawn), "
                        "as trailkit count --failures gives it")
    q.add_argument("--unique-start", action="store_true",
                   help="only one point starts a drawing (some lines made one-way)")
    q.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    q.add_argument("--count", type=int, default=1, metavar="N",
                   help="make N different figures: FILE-1.yaml ... FILE-N.yaml")
    q.add_argument("--time-limit", type=positive_float, default=60.0, metavar="S",
                   help="search for at most S seconds in all (default 60; then exit 3)")
    add_out(q, "FILE.yaml", "the designed spec", stdout=False)
    add_json(q, "what was designed")
    q.set_defaults(run=cmd_design_trail)


def cmd_design_trail(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.figure_design import trail_json, trail_text
    from trailkit.solvers.tools.design.trail_design import make_trails

    low, high = parse_range("--solutions", args.solutions) or (1, 1_000_000)
    failures = parse_range("--failures", args.failures, least=0)
    files = design_files(args.out, args.count, [args.from_spec] if args.from_spec else [],
                         force=args.force)
    field = design_field(args, ("grid",))
    where = f"--layout {args.layout}" if args.layout else f"--from {args.from_spec}"
    asked = [f"--solutions {low}..{high}"]
    asked += [f"--failures {failures[0]}..{failures[1]}"] if failures else []
    asked += ["--unique-start"] if args.unique_start else []
    made = make_trails(field, low, high, seed=args.seed, how_many=args.count,
                       time_limit=args.time_limit, failures=failures,
                       unique_start=args.unique_start,
                       made=f"trailkit design trail {where} {' '.join(asked)}")
    return write_and_show(made, files, args.json, trail_json, trail_text)
