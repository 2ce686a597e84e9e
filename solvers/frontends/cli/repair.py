"""``trailkit repair`` and ``trailkit explain``: the fewest changes, and why it is impossible.

The commands parse options, call :func:`~trailkit.solvers.tools.repair.fewest_changes.repair` and
:func:`~trailkit.solvers.tools.repair.explanation.explain`, and format what they return as
text or as the contract's ``trailkit-repair/1`` / ``trailkit-explain/1`` JSON (in the
words of :mod:`trailkit.solvers.frontends.presenter.repairs`). Exit
codes: repair 0 (a verified repair, or already solvable), 1 (proven: no repair within
the limits), 3 (undecided); explain 1 (explained an unsolvable puzzle), 0 (solvable),
3 (undecided).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from trailkit.models.answer import Status
from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import Puzzle
from trailkit.models.repair_rules import CandidateEdge, RepairRules
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.models.support.hints import did_you_mean
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import (
    Exit,
    add_json,
    add_limits,
    add_out,
    add_spec,
    examples,
    limits_from,
)
from trailkit.solvers.frontends.cli.output import say, use_names, warn
from trailkit.solvers.frontends.presenter.repairs import (
    words,
)
from trailkit.solvers.support.files import atomic_write, refuse_overwrite, spec_inputs

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``repair`` and ``explain``."""
    _register_repair(sub)
    _register_explain(sub)


def _register_repair(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``repair``: the changes the search may make, and how it searches."""
    from trailkit.solvers.tools.repair.fewest_changes import REPAIR_BACKENDS

    p = sub.add_parser("repair", help="the fewest changes that make an impossible puzzle "
                       "solvable, each with a verified walk",
                       **examples("trailkit repair specs/tyre-puzzle/original.yaml",
                                  "trailkit repair specs/koenigsberg.yaml --remove --all",
                                  "trailkit repair specs/tyre-puzzle/original.yaml --recolour "
                                  "--json",
                                  "trailkit repair specs/tyre-puzzle/original.yaml --out "
                                  "fixed.yaml && trailkit solve fixed.yaml"))
    add_spec(p)
    p.add_argument("--add", metavar="layout|any|none|FILE",
                   help="new edges: between touching nodes of the layout, any pair, none, "
                        "or the candidates in FILE ('u v [colour]' per line)")
    p.add_argument("--colours", "--colors", metavar="any|LIST",
                   help="colours a new edge may have: any (default) or a comma list")
    p.add_argument("--recolour", "--recolor", action="store_true", default=None,
                   help="an existing edge may change colour")
    p.add_argument("--remove", action="store_true", default=None,
                   help="an edge may be left out (a domino put aside, a bridge closed)")
    p.add_argument("--protect", metavar="NODE,...", help="no change may touch these nodes")
    p.add_argument("--max-changes", type=int, metavar="K",
                   help="look for repairs of at most K changes")
    p.add_argument("--all", action="store_true", help="list every repair with the fewest "
                   "changes")
    p.add_argument("--backend", default="auto", choices=REPAIR_BACKENDS,
                   help="auto (default): the direct methods where they apply, else CP-SAT")
    add_json(p, "the repairs")
    add_out(p, "REPAIRED.yaml", "the spec with the repair shown applied (comments kept)",
            stdout=False)
    add_limits(p)
    p.set_defaults(run=cmd_repair)


def _register_explain(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``explain``."""
    p = sub.add_parser("explain", help="why an impossible puzzle is impossible: the "
                       "certificate in words and a minimal core",
                       **examples("trailkit explain specs/koenigsberg.yaml",
                                  "trailkit explain specs/tyre-puzzle/original.yaml --json"))
    add_spec(p)
    add_json(p, "the explanation")
    add_limits(p)
    p.set_defaults(run=cmd_explain)


# ------------------------------------------------------------------ options
def _names(puzzle: Puzzle, text: str, what: str) -> list[str]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        if name not in puzzle.nodes:
            raise TrailkitError(f"{what} names {name!r}, which is no node of the puzzle"
                                f"{did_you_mean(name, puzzle.nodes)}")
    return names


def _colours(puzzle: Puzzle, text: str) -> tuple[str, ...] | None:
    if text == "any":
        return None
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    palette = puzzle.colours.names if puzzle.colours is not None else ()
    for name in names:
        if name not in palette:
            raise TrailkitError(f"--colours: unknown colour {name!r} (the puzzle's colours "
                                f"are {', '.join(palette) or 'none'})")
    return names


def _candidates(puzzle: Puzzle, path: str) -> tuple[CandidateEdge, ...]:
    from trailkit.models.formats.inputs import InputRefused, read_bounded
    from trailkit.models.formats.list_import import MAX_LIST_BYTES
    from trailkit.models.formats.textformats import decode_utf8, parse_edge_lines

    try:
        data = read_bounded(path, MAX_LIST_BYTES)
    except InputRefused as exc:
        raise TrailkitError(f"--add: cannot read {path}: {exc}") from None
    lines = parse_edge_lines(decode_utf8(data, path), path)
    palette = puzzle.colours.names if puzzle.colours is not None else None
    out = []
    for line in lines:
        for name in (line.u, line.v):
            if name not in puzzle.nodes:
                raise TrailkitError(f"{path}:{line.line}: {name!r} is no node of the puzzle")
        if line.colour is not None and palette is not None and line.colour not in palette:
            raise TrailkitError(f"{path}:{line.line}: unknown colour {line.colour!r} "
                                f"(colours are {', '.join(palette)})")
        out.append(CandidateEdge(line.u, line.v, line.colour))
    return tuple(out)


def rules_from(args: argparse.Namespace, puzzle: Puzzle) -> RepairRules:
    """The spec's ``repair:`` rules with the command line's flags applied on top."""
    from dataclasses import replace

    rules = puzzle.repair or RepairRules.default(has_layout=bool(puzzle.layout))
    if args.add is not None:
        rules = replace(rules, add=args.add if args.add in ("layout", "any", "none")
                        else _candidates(puzzle, args.add))
    if args.colours is not None:
        rules = replace(rules, colours=_colours(puzzle, args.colours))
    if args.protect is not None:
        rules = replace(rules, protect=frozenset(_names(puzzle, args.protect, "--protect")))
    return rules.with_(recolour=args.recolour, remove=args.remove)


# ------------------------------------------------------------------- repair
def cmd_repair(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.verbs import repair_verb
    from trailkit.solvers.tools.repair.fewest_changes import RepairStatus

    puzzle = load_spec(args.spec)
    use_names(puzzle)  # names stay apart on a console that cannot show them
    if args.max_changes is not None and args.max_changes < 0:
        raise TrailkitError("--max-changes must be 0 or more")
    if args.out:
        added = [args.add] if args.add not in (None, "layout", "any", "none") else []
        refuse_overwrite(args.out, spec_inputs(args.spec, [args.out]) + added,
                         allow_existing=args.force)
    said = repair_verb(puzzle, args.spec, rules_from(args, puzzle), limits_from(args),
                       max_changes=args.max_changes, all_repairs=args.all,
                       backend=args.backend)
    result = said.result
    if args.out:
        _write_repaired(args, puzzle, result)
    if args.json:
        output.emit_json(said.data)
    else:
        say(said.text)
    return {RepairStatus.REPAIRED: Exit.OK, RepairStatus.SOLVABLE: Exit.OK,
            RepairStatus.NO_REPAIR: Exit.UNSOLVABLE}.get(result.status, Exit.UNKNOWN)


def _write_repaired(args: argparse.Namespace, puzzle: Puzzle, result: Any) -> None:
    from trailkit.solvers.tools.repair.specedit import repaired_spec_text

    if not result.repairs:
        warn(f"trailkit repair: nothing written to {args.out}: there is no repair to apply")
        return
    first = result.repairs[0]
    expect = "{status: solved" + (f", length: {first.answer.length}"
                                  if first.answer.optimal else "") + "}"
    text = Path(args.spec).read_text(encoding="utf-8")
    certificate = result.original.certificate
    why = (f" ({certificate.kind} certificate checked)" if certificate is not None
           and result.original.certificate_checked else
           f" ({result.original.reason})" if result.original.reason else "")
    try:
        out_text = repaired_spec_text(
            text, puzzle, first.changes, spec=args.spec, expect=expect,
            original=f"had no solution{why}", words=lambda t: words(puzzle, t))
    except ValueError as exc:
        raise TrailkitError(f"cannot write the repaired spec: {exc}") from None
    load_spec_text(out_text, source=args.out, base_dir=Path(args.spec).parent)
    atomic_write(args.out, out_text)


# ------------------------------------------------------------------ explain
def cmd_explain(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.verbs import explain_verb

    puzzle = load_spec(args.spec)
    use_names(puzzle)  # names stay apart on a console that cannot show them
    said = explain_verb(puzzle, args.spec, limits_from(args))
    if args.json:
        output.emit_json(said.data)
    else:
        say(said.text)
    return {Status.UNSOLVABLE: Exit.UNSOLVABLE, Status.SOLVED: Exit.OK}.get(
        said.result.status, Exit.UNKNOWN)
