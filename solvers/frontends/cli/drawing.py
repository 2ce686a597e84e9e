"""``trailkit draw``: a picture of the puzzle, its walk or its certificate, as SVG, PNG
or a self-contained HTML page (chosen by the ``--out`` suffix).

The pictures are made by :mod:`trailkit.solvers.tools.drawing`; this module only solves when
asked, picks the format and writes the file (atomically, never over the spec, never
over an existing file without ``--force``). Exit 0 whenever the picture was written,
whatever the puzzle's answer (the contract). ``--repair`` runs ``trailkit repair`` (with
the spec's ``repair:`` rules) and draws the repaired puzzle with its walk, the added or
repainted edges emphasised (:class:`~trailkit.solvers.tools.drawing.Emphasis`).
``--inspect`` runs ``trailkit inspect`` and draws the walk with the critical and costly
edges marked (:class:`~trailkit.solvers.tools.drawing.InspectView`). A ``.pdf`` of a
tour puzzle on a board is a worksheet (:mod:`~trailkit.solvers.tools.drawing.worksheet`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from trailkit.models.answer import Answer, Status
from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli.options import (
    BACKEND_HELP,
    Exit,
    add_limits,
    add_spec,
    examples,
    limits_from,
)
from trailkit.solvers.frontends.cli.output import use_names, warn
from trailkit.solvers.support.files import atomic_write, refuse_overwrite, spec_inputs

if TYPE_CHECKING:
    from trailkit.solvers.tools.drawing import Emphasis, InspectView

__all__ = ["FORMATS", "register"]

#: The ``--out`` suffixes ``draw`` understands.
FORMATS = (".svg", ".png", ".html", ".pdf")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``draw``."""
    p = sub.add_parser("draw", help="draw the puzzle, a solution, a certificate or a repair "
                                    "(SVG, PNG or an HTML page with a step control)",
                       **examples("trailkit draw specs/tyre-puzzle/restored.yaml --solve "
                                  "--out walk.svg",
                                  "trailkit draw specs/tyre-puzzle/original.yaml --repair "
                                  "--out repair.html",
                                  "trailkit draw specs/koenigsberg.yaml --certificate "
                                  "--out why.png",
                                  "trailkit draw specs/tyre-puzzle/restored.yaml --inspect "
                                  "--out inspect.svg"))
    add_spec(p)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--solve", action="store_true",
                      help="solve first and draw the (shortest) walk on top")
    what.add_argument("--certificate", action="store_true",
                      help="draw why the puzzle is impossible (odd nodes, components, the "
                           "closed set of reachable states)")
    what.add_argument("--repair", action="store_true",
                      help="repair an impossible puzzle (the fewest changes its repair: rules "
                           "allow) and draw the repaired one with its walk, the changes "
                           "emphasised")
    what.add_argument("--inspect", action="store_true",
                      help="inspect a solvable puzzle (as trailkit inspect) and draw its walk "
                           "with the critical edges marked and the costly ones shaded by how "
                           "much longer the walk gets without them")
    p.add_argument("--backend", default=None, help=f"one of {BACKEND_HELP} (default: direct)")
    p.add_argument("--out", required=True, metavar="FILE.svg|.png|.html|.pdf",
                   help="the picture to write; the suffix chooses the format (.pdf: a "
                        "printable page of the puzzle and its rules, a second page with "
                        "what --solve, --certificate or --repair drew)")
    p.add_argument("--paper", choices=("a4", "letter"), default=None,
                   help="the paper size of a .pdf (default: a4)")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    add_limits(p)
    p.set_defaults(run=cmd_draw)


def cmd_draw(args: argparse.Namespace) -> int:
    from trailkit.solvers.tools.drawing import html_page

    suffix = Path(args.out).suffix.lower()
    if suffix not in FORMATS:
        raise TrailkitError(f"--out {args.out}: the file name must end in "
                            f"{', '.join(FORMATS)} (it chooses the format)")
    if args.paper and suffix != ".pdf":
        raise TrailkitError(f"--paper applies to a .pdf --out, not {suffix}")
    refuse_overwrite(args.out, spec_inputs(args.spec, [args.out]), allow_existing=args.force)
    puzzle = load_spec(args.spec)
    use_names(puzzle)  # names stay apart on a console that cannot show them
    found = puzzle  # as the spec has it: a PDF's first page, the puzzle alone
    emphasis = inspected = None
    if args.repair:
        puzzle, answer, emphasis = _repaired(puzzle, args)
    elif args.inspect:
        answer, inspected = _inspected(puzzle, args)
    else:
        answer = _answer(puzzle, args) if args.solve or args.certificate else None
    title = puzzle.name or Path(args.spec).name
    svg = _picture(puzzle, answer, args.certificate, suffix, title, emphasis, inspected)
    if suffix == ".svg":
        atomic_write(args.out, svg)
    elif suffix == ".png":
        atomic_write(args.out, _png(svg))
    elif suffix == ".pdf":
        solved = answer if args.solve and answer and answer.status is Status.SOLVED else None
        atomic_write(args.out, _pdf(found, svg if answer or emphasis else None, title,
                                    args.paper or "a4", solved))
    else:
        atomic_write(args.out, html_page(puzzle, svg, answer))
    warn(f"wrote {args.out}")
    return Exit.OK


def _picture(puzzle: Puzzle, answer: Answer | None, certificate: bool, suffix: str,
             title: str, emphasis: Emphasis | None, inspected: InspectView | None) -> str:
    """The SVG to write: with ``certificate``, the answer's certificate drawn (or, where
    there is none, the walk, saying so on stderr); else the puzzle with its walk, repair
    or inspection. A big figure for PNG is drawn simplified (the rasteriser's limit)."""
    from trailkit.solvers.tools.drawing import draw_svg
    from trailkit.solvers.tools.drawing.png import SIMPLIFY_EDGES as PNG_SIMPLIFY_EDGES

    simplify = True if suffix == ".png" and puzzle.num_edges > PNG_SIMPLIFY_EDGES else None
    if certificate and answer is not None:
        svg = draw_svg(puzzle, None if answer.status is Status.UNSOLVABLE else answer,
                       certificate=answer.certificate, simplify=simplify, title=title)
        if answer.status is Status.SOLVED:
            warn("trailkit: the puzzle is solvable, so there is no certificate; drawing "
                 "its walk")
        elif answer.certificate is None:
            warn(f"trailkit: no certificate to draw ({answer.reason or answer.status})")
        return svg
    return draw_svg(puzzle, answer, simplify=simplify, title=title, emphasis=emphasis,
                    inspect=inspected)


def _repaired(puzzle: Puzzle, args: argparse.Namespace
              ) -> tuple[Puzzle, Answer | None, Emphasis | None]:
    """The repaired puzzle, its verified walk and the changes to emphasise; the puzzle
    itself (with its walk, or none) when it needs no repair or has none."""
    from trailkit.solvers.frontends.presenter.repairs import change_words
    from trailkit.solvers.tools.drawing import Emphasis
    from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

    found = repair(puzzle, backend=args.backend or "auto", limits=limits_from(args),
                   certify=False)  # the drawing shows no claim: its proof is not made
    if found.status is RepairStatus.SOLVABLE:
        warn("trailkit: the puzzle is already solvable, so there is nothing to repair; "
             "drawing its walk")
        return puzzle, found.original, None
    if not found.repairs:
        warn(f"trailkit: no repair to draw ({found.reason or found.proof or found.status})")
        return puzzle, None, None
    best = found.repairs[0]
    note = f"Repair: {change_words(puzzle, best.changes)}"
    return (best.puzzle, best.answer,
            Emphasis.from_changes(best.changes, note=note))


def _inspected(puzzle: Puzzle, args: argparse.Namespace
               ) -> tuple[Answer, InspectView | None]:
    """The puzzle's answer and, for a solvable puzzle, what ``inspect`` found, as the
    plain data the drawing marks (the drawing never imports the inspection)."""
    from trailkit.solvers.frontends.presenter.inspect import inspect_view
    from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

    found = inspect_puzzle(puzzle, limits_from(args))
    if found.status is not InspectStatus.SOLVABLE:
        warn(f"trailkit: nothing to inspect ({found.reason or found.status}); drawing "
             "the answer")
    return found.answer, inspect_view(found)


def _png(svg: str) -> bytes:
    """The PNG of ``svg``; says how to get a bigger picture when even the largest PNG
    shows its step numbers smaller than the smallest that reads on screen."""
    from trailkit.solvers.tools.drawing import render_png
    from trailkit.solvers.tools.drawing.png import MIN_STEP_PX, png_step_px

    px = png_step_px(svg)
    if 'class="step"' in svg and px < MIN_STEP_PX:
        warn(f"trailkit: the step numbers are {px:.1f} px on this PNG, its largest size; "
             "the SVG (--out FILE.svg) or the HTML page (--out FILE.html) zooms to any size")
    return render_png(svg)


def _pdf(puzzle: Puzzle, drawn: str | None, title: str, paper: str,
         solved: Answer | None) -> bytes:
    """The printable pages: the puzzle alone, as the spec has it (never the repaired
    one), with its rules in words, then ``drawn`` (the walk, certificate or repair)
    when there is one. A tour puzzle on a board is a worksheet instead, with the
    ``solved`` tour (``--solve``) as its solution page."""
    from trailkit.solvers.tools.drawing import draw_svg
    from trailkit.solvers.tools.drawing.board_picture import board_of
    from trailkit.solvers.tools.drawing.printable import (
        printed_pages,
        render_pdf,
        rules_in_words,
    )
    from trailkit.solvers.tools.drawing.worksheet import takes_worksheet, worksheet_pages

    shape = board_of(puzzle)
    if shape is not None and takes_worksheet(puzzle):
        walk = solved.walk if solved is not None else None
        pages = worksheet_pages(puzzle, shape, walk, paper, title=title,
                                verified=bool(solved and solved.verified))
        if walk is not None:
            drawn = None
    else:
        pages = printed_pages(draw_svg(puzzle, title=title), paper, heading="The rules",
                              lines=rules_in_words(puzzle))
    if drawn is not None:
        pages += printed_pages(drawn, paper)
    return render_pdf(pages)


def _answer(puzzle: Puzzle, args: argparse.Namespace) -> Answer:
    from trailkit.solvers.pipeline import solve

    return solve(puzzle, args.backend, limits_from(args))
