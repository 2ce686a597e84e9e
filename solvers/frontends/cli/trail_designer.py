"""``trailkit design trail``: a one-stroke figure with a number of drawings in a range.

Parses the field (``--layout grid:ROWS,COLS`` or ``--from SPEC``) and ``--solutions
MIN..MAX``, calls :func:`~trailkit.solvers.tools.design.trail_design.make_trails` and
writes each figure as a spec (atomically, never over an input). Exit 0 when every
figure was made, 3 when none was found in time (or none can exist), 2 for bad options.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import (
    Exit,
    add_json,
    add_out,
    examples,
    positive_float,
)
from trailkit.solvers.frontends.cli.output import say

__all__ = ["design_files", "register_trail", "write_and_show"]


def register_trail(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``design trail`` to ``design``'s kinds."""
    q = kinds.add_parser("trail", help="choose a figure's lines so its number of one-stroke "
                                       "drawings is in a range",
                         **examples("trailkit design trail --layout grid:3,4 --solutions "
                                    "20..60 --out figure.yaml",
                                    "trailkit design trail --layout grid:4,4 --solutions "
                                    "100..1000 --count 3 --out figure.yaml"))
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--layout", metavar="grid:ROWS,COLS",
                       help="a new square grid of points; lines join touching points")
    where.add_argument("--from", dest="from_spec", metavar="SPEC",
                       help="keep a spec's nodes, layout and line places; choose lines")
    q.add_argument("--solutions", default="1..1000000", metavar="MIN..MAX",
                   help="the number of one-stroke drawings, as trailkit count gives it "
                        "(default 1..1000000)")
    q.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    q.add_argument("--count", type=int, default=1, metavar="N",
                   help="make N different figures: FILE-1.yaml ... FILE-N.yaml")
    q.add_argument("--time-limit", type=positive_float, default=60.0, metavar="S",
                   help="search for at most S seconds in all (default 60; then exit 3)")
    add_out(q, "FILE.yaml", "the designed spec", stdout=False)
    add_json(q, "what was designed")
    q.set_defaults(run=cmd_design_trail)


def design_files(out: str, count: int) -> list[str]:
    """Where ``count`` designs go: ``out``, or FILE-1.yaml ... FILE-N.yaml."""
    if count == 1:
        return [out]
    path = Path(out)
    return [str(path.with_name(f"{path.stem}-{i}{path.suffix or '.yaml'}"))
            for i in range(1, count + 1)]


def _range(text: str) -> tuple[int, int]:
    """``MIN..MAX`` (or one number) read, checked: exit 2 with what to write."""
    low, dots, high = text.partition("..")
    high = high if dots else low
    if not low.strip().isdigit() or not high.strip().isdigit() \
            or not 1 <= int(low) <= int(high):
        raise TrailkitError(f"--solutions {text}: write MIN..MAX with 1 <= MIN <= MAX, "
                            "e.g. 100..500")
    return int(low), int(high)


def _field(args: argparse.Namespace) -> Any:
    from trailkit.solvers.tools.design.fields import field_of, grid_field

    try:
        if args.from_spec is not None:
            from trailkit.models.spec import load_spec

            return field_of(load_spec(args.from_spec))
        shape, _, size = args.layout.partition(":")
        rows, _, cols = size.partition(",")
        if shape != "grid" or not rows.strip().isdigit() or not cols.strip().isdigit():
            raise ValueError(f"cannot read {args.layout!r}: write grid:ROWS,COLS "
                             "(e.g. grid:3,4)")
        return grid_field(int(rows), int(cols))
    except ValueError as exc:
        raise TrailkitError(f"--layout/--from: {exc}") from None


def cmd_design_trail(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.figure_design import trail_json, trail_text
    from trailkit.solvers.support.files import refuse_overwrite
    from trailkit.solvers.tools.design.trail_design import make_trails

    if not args.out:
        raise TrailkitError("design needs --out FILE.yaml: where to write the spec")
    low, high = _range(args.solutions)
    if not 1 <= args.count <= 1000:
        raise TrailkitError("--count N: from 1 to 1000 designs")
    field = _field(args)
    files = design_files(args.out, args.count)
    for f in files:
        refuse_overwrite(f, [args.from_spec] if args.from_spec else [],
                         allow_existing=args.force)
    where = f"--layout {args.layout}" if args.layout else f"--from {args.from_spec}"
    made = make_trails(field, low, high, seed=args.seed, how_many=args.count,
                       time_limit=args.time_limit,
                       made=f"trailkit design trail {where} --solutions {low}..{high}")
    return write_and_show(made, files, args.json, trail_json, trail_text)


def write_and_show(made: Any, files: list[str], as_json: bool, to_json: Any, to_text: Any
                   ) -> int:
    """Write each design that has a text to its file (atomically), say what was made in
    JSON or words (``to_json``, ``to_text``: the presenter's), and pick the exit code:
    0 when every target was met, 3 otherwise."""
    from trailkit.solvers.frontends.presenter.design import overall
    from trailkit.solvers.support.files import atomic_write
    from trailkit.solvers.tools.design.certify_design import DesignStatus

    written: list[str | None] = []
    for m, f in zip(made, files, strict=False):
        if m.text is not None:
            atomic_write(f, m.text)
        written.append(f if m.text is not None else None)
    if as_json:
        output.emit_json(to_json(made, written))
    else:
        say(to_text(made, written))
    return Exit.OK if overall(made) is DesignStatus.DESIGNED else Exit.UNKNOWN
