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
from functools import partial
from pathlib import Path
from typing import Any

from trailkit.models.answer import Status
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.design_command import design_files, write_and_show
from trailkit.solvers.frontends.cli.options import (
    Exit,
    add_json,
    add_out,
    add_spec,
    command_s,
    command_time_left,
    examples,
    positive_float,
)
from trailkit.solvers.frontends.cli.output import say, use_names
from trailkit.solvers.frontends.cli.tour_designer import register_tour
from trailkit.solvers.frontends.cli.trail_designer import register_trail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``inspect`` and ``design``."""
    p = sub.add_parser("inspect", help="which edges a solvable puzzle cannot lose, which "
                       "make its walk longer, which givens (at:) keep its solution unique, "
                       "and measures of how hard it is",
                       **examples("trailkit inspect specs/tyre-puzzle/restored.yaml",
                                  "trailkit inspect specs/nikolaus.yaml --json"))
    add_spec(p)
    add_json(p, "the inspection")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="give up after S seconds (answer: unknown, exit code 3; default: "
                        "none)")
    p.add_argument("--out", metavar="DIR",
                   help="write each critical and costly edge's certificate to the folder "
                        "DIR: without-E.yaml (the spec without edge E) and without-E.json, "
                        "and each redundant given G's (without-given-G.yaml, .json), for "
                        "trailkit check-certificate (atomically, as a set)")
    p.add_argument("--force", action="store_true",
                   help="replace the files of an earlier --out DIR (refused otherwise)")
    p.set_defaults(run=cmd_inspect)
    _register_design(sub)


def cmd_inspect(args: argparse.Namespace) -> int:
    from trailkit.models.spec import load_spec
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.frontends.presenter.verbs import inspect_verb
    from trailkit.solvers.tools.design.inspection import InspectStatus

    puzzle = load_spec(args.spec)
    use_names(puzzle)
    folder = _out_folder(puzzle, args) if args.out else None
    said = inspect_verb(puzzle, args.spec,
                        Limits(time_limit=command_time_left(args.time_limit)),
                        clock=command_s)  # the command's wall time, as printed
    result, text, data = said.result, said.text, said.data
    written = _write_files(puzzle, result, args) \
        if folder is not None and result.status is InspectStatus.SOLVABLE else None
    if written is not None:
        text += "\n" + written[0]
        data["out"] = {"folder": args.out, "files": written[1]}
    if args.json:
        output.emit_json(data)
    else:
        say(text)
    if result.status is InspectStatus.SOLVABLE:
        return Exit.OK
    return Exit.UNSOLVABLE if result.answer.status is Status.UNSOLVABLE else Exit.UNKNOWN


def _out_folder(puzzle: Any, args: argparse.Namespace) -> Path:
    """The folder ``inspect --out`` writes, refused (exit 2) before any work when it cannot
    be: the current folder, a folder holding the spec, files of an earlier ``--out``
    without ``--force``, or a spec whose edges are not inline and that has no givens."""
    from trailkit.models.errors import TrailkitError
    from trailkit.solvers.support.files import check_folder
    from trailkit.solvers.tools.design.inspect_files import edges_inline

    folder = Path(args.out)
    if folder.resolve() == Path.cwd().resolve() or \
            Path(args.spec).resolve().parent == folder.resolve():
        raise TrailkitError(f"refusing to write --out {args.out}: it is the current folder "
                            "or holds the spec; name a folder of its own")
    why = edges_inline(puzzle, Path(args.spec).read_text(encoding="utf-8"))
    if why and not puzzle.at:  # with givens, their files are written all the same
        raise TrailkitError(f"inspect --out writes the spec without each edge, and {why}")
    check_folder(folder, _ours(folder), allow_existing=args.force, option="--out")
    return folder


def _ours(folder: Path) -> list[str]:
    """The files of an earlier ``inspect --out`` in ``folder`` (replaced with ``--force``)."""
    from trailkit.solvers.tools.design.inspect_files import FILE_PATTERN

    if not folder.is_dir():
        return []
    return [p.name for p in folder.iterdir() if FILE_PATTERN.fullmatch(p.name)]


def _write_files(puzzle: Any, result: Any, args: argparse.Namespace
                 ) -> tuple[str, list[str]]:
    """Write ``inspect --out``'s files (as one set); what to say of them, and their names."""
    from trailkit.solvers.support.files import write_folder
    from trailkit.solvers.tools.design.inspect_files import inspection_files

    text = Path(args.spec).read_text(encoding="utf-8")
    made = inspection_files(puzzle, text, result, args.spec)
    folder = Path(args.out)
    write_folder(folder, {name: partial(str, content) for name, content in made.files.items()},
                 {*made.files, *_ours(folder)})
    pairs = sorted(name for name in made.files if name.endswith(".yaml"))
    lines = [f"certificates written to {folder}: {len(pairs)} specs without an edge or a "
             "given, each with its certificate"]
    if pairs:
        first = folder / pairs[0]
        lines.append(f"  check one: trailkit check-certificate {first} "
                     f"{first.with_suffix('.json')}")
    lines += [f"  {'' if ident.startswith('given ') else 'edge '}{ident}: no file ({why})"
              for ident, why in made.missing.items()]
    return "\n".join(lines), sorted(made.files)


def _register_design(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("design", help="make puzzles to order: a field's planks coloured so "
                       "the walk is long, unique, robust (each property certified), tours "
                       "with numbered givens",
                       **examples("trailkit design colour-walk --layout hex:5,8 "
                                  "--min-length 20 --unique --out tyres.yaml",
                                  "trailkit design colour-walk --from specs/tyre-puzzle/"
                                  "restored.yaml --unique --robust --out mine.yaml"))
    kinds = p.add_subparsers(dest="design_kind", metavar="KIND", required=True,
                             help="what to design: colour-walk, trail, tour")
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
    q.add_argument("--colours", "--colors", metavar="LIST",
                   help="the colour cycle (default: the --from spec's, else red,blue,green)")
    q.add_argument("--start", metavar="NODE",
                   help="the start node (default: the spec's, else the first)")
    q.add_argument("--goal", metavar="NODE",
                   help="the goal node (default: the spec's, else the last)")
    _add_targets(q)
    _add_search(q)
    add_out(q, "FILE.yaml", "the designed spec", stdout=False)
    add_json(q, "what was designed")
    q.set_defaults(run=cmd_design)
    register_trail(kinds)
    register_tour(kinds)


def _add_targets(q: argparse.ArgumentParser) -> None:
    """The options of ``design colour-walk`` that say what the design must achieve: the
    shortest walk's length, uniqueness, robustness, traps (each certified)."""
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


def _add_search(q: argparse.ArgumentParser) -> None:
    """The options of ``design colour-walk`` that steer the search: how sparse the field,
    the random seed, how many designs, how long, and what to do when time runs out."""
    q.add_argument("--thin", type=float, default=0.0, metavar="P",
                   help="leave out up to this share of the touching pairs (0 to 0.9)")
    q.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    q.add_argument("--count", type=int, default=1, metavar="N",
                   help="make N different designs: FILE-1.yaml ... FILE-N.yaml")
    q.add_argument("--time-limit", type=positive_float, default=60.0, metavar="S",
                   help="search for at most S seconds in all (default 60; then exit 3)")
    q.add_argument("--best-effort", action="store_true",
                   help="when the time runs out, write the best found, saying what it lacks")


def _ask(args: argparse.Namespace) -> Any:
    """The design the options ask for (checked by the presenter, as the workshop's)."""
    from trailkit.solvers.frontends.presenter.design_options import DesignAsk

    return DesignAsk(layout=args.layout, source=args.from_spec, colours=args.colours,
                     start=args.start, goal=args.goal, min_length=args.min_length,
                     max_length=args.max_length, unique=args.unique, robust=args.robust,
                     thin=args.thin, seed=args.seed, count=args.count,
                     traps=args.traps, trap_steps=args.trap_steps)


def cmd_design(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.design import design_json, design_text
    from trailkit.solvers.tools.design.certify_design import make_designs

    ask = _ask(args)
    ask.check()
    files = design_files(args.out, args.count, [args.from_spec] if args.from_spec else [],
                         force=args.force)
    spec = None
    if args.from_spec is not None:
        from trailkit.models.spec import load_spec

        spec = load_spec(args.from_spec)
    field = ask.field(spec)
    targets, names = ask.targets(field)
    made = make_designs(field, targets, names, seed=args.seed, how_many=args.count,
                        time_limit=args.time_limit, made=ask.made_by(),
                        best_effort=args.best_effort)
    return write_and_show(made, files, args.json, design_json, design_text)
