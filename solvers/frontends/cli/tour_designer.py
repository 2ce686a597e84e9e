"""``trailkit design tour``: Hidato, Numbrix, Signpost and knight's-tour puzzles to
order.

Parses the board (``--board COLSxROWS``, ``--moves``) and the targets (``--givens
MIN..MAX``, ``--unique``), calls
:func:`~trailkit.solvers.tools.design.tour_design.make_tours` and writes each puzzle as a
spec (atomically, never over an input or an existing file without ``--force``). Exit 0
when every puzzle was made, 3 when none was found in time (or none can exist), 2 for
bad options.
"""

from __future__ import annotations

import argparse

from trailkit.solvers.frontends.cli.design_command import design_files, write_and_show
from trailkit.solvers.frontends.cli.options import add_json, add_out, examples, positive_float
from trailkit.solvers.frontends.presenter.design_options import TOUR_MOVES, tour_ask

__all__ = ["register_tour"]


def register_tour(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``design tour`` to ``design``'s kinds."""
    q = kinds.add_parser("tour", help="a path through every cell of a board, with givens "
                                      "(Hidato, Numbrix, Signpost)",
                         **examples("trailkit design tour --board 9x9 --moves king "
                                    "--givens 20..24 --unique --out hidato.yaml",
                                    "trailkit design tour --board 6x6 --moves orthogonal "
                                    "--unique --count 3 --out numbrix.yaml"))
    q.add_argument("--board", required=True, metavar="COLSxROWS",
                   help="the board's size, e.g. 9x9")
    q.add_argument("--moves", required=True, choices=TOUR_MOVES,
                   help="a step between cells: king (Hidato), orthogonal (Numbrix), "
                        "knight, diagonal; arrows (Signpost: each cell's arrow points "
                        "along the ray where the next number lies)")
    q.add_argument("--givens", metavar="MIN..MAX",
                   help="how many cells keep their number (default: as few as stay "
                        "unique with --unique, else a third of the cells)")
    q.add_argument("--unique", action="store_true",
                   help="exactly one path through the givens")
    q.add_argument("--symmetric", action="store_true",
                   help="givens placed symmetrically (a half turn of the board maps the "
                        "given cells onto given cells)")
    q.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    q.add_argument("--count", type=int, default=1, metavar="N",
                   help="make N different puzzles: FILE-1.yaml ... FILE-N.yaml")
    q.add_argument("--time-limit", type=positive_float, default=60.0, metavar="S",
                   help="search for at most S seconds in all (default 60; then exit 3)")
    q.add_argument("--best-effort", action="store_true",
                   help="when the time runs out, write the best found, saying what it lacks")
    add_out(q, "FILE.yaml", "the designed spec", stdout=False)
    add_json(q, "what was designed")
    q.set_defaults(run=cmd_design_tour)


def cmd_design_tour(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.board_design import tour_json, tour_text
    from trailkit.solvers.tools.design.tour_design import make_tours

    ask, made_by = tour_ask(args.board, args.moves, args.givens, unique=args.unique,
                            symmetric=args.symmetric)
    files = design_files(args.out, args.count, [], force=args.force)
    made = make_tours(ask, seed=args.seed, how_many=args.count, time_limit=args.time_limit,
                      made=made_by, best_effort=args.best_effort)
    return write_and_show(made, files, args.json, tour_json, tour_text)
