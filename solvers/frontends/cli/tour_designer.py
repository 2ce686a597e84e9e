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

from trailkit.models.errors import TrailkitError
from trailkit.models.spec.vocabulary import BOARD_MOVES, MAX_BOARD_CELLS
from trailkit.solvers.frontends.cli.design_command import (
    design_files,
    parse_range,
    write_and_show,
)
from trailkit.solvers.frontends.cli.options import add_json, add_out, examples, positive_float

__all__ = ["board_size", "register_tour"]


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
    q.add_argument("--moves", required=True, choices=(*BOARD_MOVES, "arrows"),
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


def board_size(text: str) -> tuple[int, int]:
    """``COLSxROWS`` read and checked: at least 3 cells (a shorter path has nothing to
    find), at most the spec language's limit; else exit 2 with what to write."""
    cols, x, rows = text.lower().partition("x")
    if not x or not cols.strip().isdigit() or not rows.strip().isdigit():
        raise TrailkitError(f"--board {text}: write COLSxROWS, e.g. 9x9")
    c, r = int(cols), int(rows)
    if c < 1 or r < 1 or not 3 <= c * r <= MAX_BOARD_CELLS:
        raise TrailkitError(f"--board {text}: a board of 3 to {MAX_BOARD_CELLS:,} cells, "
                            "each side at least 1 (e.g. 9x9)")
    return c, r


def cmd_design_tour(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.board_design import tour_json, tour_text
    from trailkit.solvers.tools.design.tour_design import TourAsk, make_tours

    cols, rows = board_size(args.board)
    givens = parse_range("--givens", args.givens, least=0)
    if givens is not None and givens[0] > cols * rows:
        raise TrailkitError(f"--givens {args.givens}: the board has only {cols * rows} "
                            f"cells; give MIN..MAX up to {cols * rows}")
    files = design_files(args.out, args.count, [], force=args.force)
    ask = TourAsk(cols, rows, args.moves, givens, args.unique, args.symmetric)
    asked = [f"--board {cols}x{rows} --moves {args.moves}"]
    asked += [f"--givens {givens[0]}..{givens[1]}"] if givens else []
    asked += [flag for flag, on in (("--unique", args.unique),
                                    ("--symmetric", args.symmetric)) if on]
    made = make_tours(ask, seed=args.seed, how_many=args.count, time_limit=args.time_limit,
                      made=f"trailkit design tour {' '.join(asked)}",
                      best_effort=args.best_effort)
    return write_and_show(made, files, args.json, tour_json, tour_text)
