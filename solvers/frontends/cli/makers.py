"""The commands that make files: ``generate``, ``export`` and ``import``.

Every output is written atomically, never over an input file, and never over an
existing file without ``--force``.
"""

from __future__ import annotations

import argparse

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB
from trailkit.solvers.frontends.cli.options import Exit, add_out, add_spec, examples, positive_int
from trailkit.solvers.frontends.cli.output import use_names, warn, write_raw
from trailkit.solvers.support.files import atomic_write, refuse_overwrite, spec_inputs
from trailkit.solvers.tools.generate import KINDS

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``generate``, ``export`` and ``import``."""
    _add_generate(sub)
    _add_export(sub)
    _add_import(sub)


def _add_generate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("generate", help="write a random puzzle spec, reproducible from a seed",
                       **examples("trailkit generate trail --size 40 --seed 1 --solvable no "
                                  "--out t40.yaml",
                                  "trailkit generate tour --size 100 --seed 3 --out t100.yaml"))
    p.add_argument("kind", choices=KINDS, metavar="KIND",
                   help=f"the family of puzzle: {', '.join(KINDS)}")
    p.add_argument("--size", type=positive_int, required=True, metavar="N",
                   help="dominoes: highest pip; trail, alternating: nodes; "
                        "colour-walk: side of the hexagon of tyres; balanced: tyres; "
                        "tour: nodes (a random graph where about half have a tour)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--solvable", choices=("yes", "no", "any"), default="any",
                   help="promise (kept by construction and confirmed by the direct "
                        "backend, sat/transition for balanced; then the spec gets an "
                        "expect: block)")
    add_out(p, "SPEC.yaml", "the spec")
    p.set_defaults(run=cmd_generate)


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="write the puzzle as a SAT (DIMACS) or CP-SAT model, "
                                      "or as a graph (Graphviz DOT, GraphML, NetworkX JSON, "
                                      "TSPLIB HCP)",
                       **examples("trailkit export specs/nikolaus.yaml --format dimacs --out n.cnf",
                                  "kissat n.cnf > model.txt; trailkit solve specs/nikolaus.yaml "
                                  "--from-model model.txt",
                                  "trailkit export specs/koenigsberg.yaml --format dot > k.dot",
                                  "trailkit export tour.yaml --format hcp --out tour.hcp"))
    add_spec(p)
    p.add_argument("--format", required=True,
                   choices=("dimacs", "cpsat", "mzn", "dot", "graphml", "json-graph", "hcp"),
                   help="dimacs: CNF with comment lines naming every variable (run any SAT "
                        "solver, then solve --from-model); cpsat: the CP-SAT model as protobuf "
                        "text; mzn: the MiniZinc model, data included; dot: Graphviz; "
                        "graphml: Gephi, yEd, igraph; json-graph: NetworkX node-link JSON; "
                        "hcp: TSPLIB's Hamiltonian cycle file (a tour without via, avoid, at "
                        "or one-way edges)")
    add_out(p, "FILE", "the model")
    p.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help="memory the model may take to build, in MB (0: none; default "
                        f"{DEFAULT_MEMORY_MB}): a dimacs or cpsat model estimated to need "
                        "more is not built (exit code 3)")
    p.set_defaults(run=cmd_export)


def _add_import(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("import", help="turn a plank or domino list, or a TSPLIB Hamiltonian "
                                      "cycle file, into a YAML spec",
                       **examples("trailkit import planks puzzle.txt --start A --goal T "
                                  "--out puzzle.yaml",
                                  "trailkit import dominoes hand.txt --open --out hand.yaml",
                                  "trailkit import hcp graph1.hcp --out graph1.yaml"))
    isub = p.add_subparsers(dest="what", metavar="WHAT", parser_class=type(p),
                            help="what the file lists: planks, dominoes or hcp")
    isub.required = True
    q = isub.add_parser("planks", help="'U V colour' per line, '#' comments",
                        **examples("trailkit import planks puzzle.txt --start A --goal T "
                                   "--out puzzle.yaml"))
    q.add_argument("file", metavar="FILE.txt", help="the plank list: 'U V colour' per line")
    q.add_argument("--start", required=True, metavar="TYRE", help="the tyre the walk starts on")
    q.add_argument("--goal", required=True, metavar="TYRE", help="the tyre the walk must reach")
    q.add_argument("--colours", "--colors", default="red,blue,green", metavar="C1,C2,...",
                   help="the colour cycle, in order (default: red,blue,green)")
    q.add_argument("--name", help="the spec's name (default: the file's name)")
    add_out(q, "SPEC.yaml", "the spec")
    q.add_argument("--keep-repeats", action="store_true",
                   help="keep a plank that is listed twice as two planks")
    q.set_defaults(run=cmd_import)
    q = isub.add_parser("dominoes", help="'1 2' or '1|2' per line",
                        **examples("trailkit import dominoes set.txt --out ring.yaml",
                                   "trailkit import dominoes hand.txt --open --out hand.yaml "
                                   "&& trailkit solve hand.yaml"))
    q.add_argument("file", metavar="FILE.txt", help="the domino list: '1 2', '1|2' or '1:2' "
                   "per line")
    q.add_argument("--name", help="the spec's name (default: the file's name)")
    q.add_argument("--open", action="store_true", help="a line of dominoes, not a ring")
    add_out(q, "SPEC.yaml", "the spec")
    q.set_defaults(run=cmd_import)
    _add_import_hcp(isub)


def _add_import_hcp(isub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    q = isub.add_parser("hcp", help="a TSPLIB Hamiltonian cycle file (TYPE : HCP), as FHCP "
                                    "and TSPLIB ship them",
                        **examples("trailkit import hcp graph1.hcp --out graph1.yaml "
                                   "&& trailkit solve graph1.yaml"))
    q.add_argument("file", metavar="FILE.hcp", help="the HCP file: TYPE : HCP, DIMENSION, "
                   "EDGE_DATA_FORMAT : EDGE_LIST, the edges as pairs of node numbers")
    q.add_argument("--name", help="the spec's name (default: the file's NAME)")
    add_out(q, "SPEC.yaml", "the spec")
    q.set_defaults(run=cmd_import)


def cmd_generate(args: argparse.Namespace) -> int:
    from trailkit.solvers.tools.generate import generate

    if args.out:
        refuse_overwrite(args.out, [], allow_existing=args.force)
    made = generate(args.kind, args.size, args.seed, args.solvable)
    if args.out:
        atomic_write(args.out, made.text)
        promise = f", {made.status} (confirmed by {made.confirmed_by})" if made.status else ""
        warn(f"wrote {args.out}{promise}")
    else:
        write_raw(made.text)
    return Exit.OK


def cmd_export(args: argparse.Namespace) -> int:
    if args.out:
        refuse_overwrite(args.out, spec_inputs(args.spec, [args.out]),
                         allow_existing=args.force)
    from trailkit.solvers.frontends.cli.assignments import export_model, export_size_problem
    from trailkit.solvers.tools.interchange import GRAPH_FORMATS, export_graph

    puzzle = load_spec(args.spec)
    use_names(puzzle)  # names stay apart on a console that cannot show them
    if args.format in GRAPH_FORMATS:
        text = export_graph(puzzle, args.format)
    else:
        if args.memory_limit < 0:
            raise TrailkitError("--memory-limit must be a number of MB, or 0 for none")
        too_big = export_size_problem(puzzle, args.format, args.memory_limit or None)
        if too_big is not None:
            warn(f"unknown: {too_big}")
            return Exit.UNKNOWN
        text = export_model(puzzle, args.format)
    if args.out:
        atomic_write(args.out, text)
    else:
        write_raw(text)
    return Exit.OK


def flag(option: str) -> str:
    """How the command line spells a setting a library message names: ``--keep-repeats``."""
    return "--" + option.replace("_", "-")


def cmd_import(args: argparse.Namespace) -> int:
    from trailkit.models.formats.hcp import import_hcp
    from trailkit.models.formats.list_import import import_dominoes, import_planks

    if args.what == "hcp":
        text, warnings = import_hcp(args.file, name=args.name)
    elif args.what == "planks":
        colours = [c.strip() for c in args.colours.split(",") if c.strip()]
        text, warnings = import_planks(args.file, start=args.start, goal=args.goal,
                                       colours=colours, name=args.name,
                                       keep_repeats=args.keep_repeats, spell=flag)
    else:
        text, warnings = import_dominoes(args.file, name=args.name, closed=not args.open)
    for warning in warnings:
        warn(warning)
    if args.out:
        refuse_overwrite(args.out, [args.file], allow_existing=args.force)
        atomic_write(args.out, text)
        warn(f"wrote {args.out}")
    else:
        write_raw(text)
    return Exit.OK
