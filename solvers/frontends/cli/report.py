"""``trailkit report FILE.sqlite``: the ranking of a campaign file (text, ``--json`` as
``trailkit-report/1``, ``--csv``), its plots, and exit 4 when backends disagree.

The scores are :func:`trailkit.solvers.campaigns.scores.score`'s; the words, the JSON
and the CSV are :mod:`trailkit.solvers.frontends.presenter.scoreboard`'s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from trailkit.models.errors import TrailkitError
from trailkit.solvers.campaigns.scores import Scores, score
from trailkit.solvers.campaigns.store import open_store
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import Exit, examples
from trailkit.solvers.frontends.cli.output import say, warn, write_raw
from trailkit.solvers.frontends.presenter.scoreboard import report_csv, report_json, report_text
from trailkit.solvers.support.extras import pip_install

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report``."""
    p = sub.add_parser("report", help="rank the backends of a compare --db campaign file",
                       description="Rank the backends of a campaign file as solver "
                       "competitions do: decided specs,\nPAR-2, unique decisions, share of "
                       "the virtual best, pairwise wins, and every\ndisagreement with its "
                       "answers (exit 4).",
                       **examples("trailkit report runs.sqlite",
                                  "trailkit report runs.sqlite --json",
                                  "trailkit report runs.sqlite --plot cactus.png "
                                  "--plot scatter.png --pair direct,cpsat"))
    p.add_argument("db", metavar="FILE.sqlite", help="a file 'trailkit compare --db' wrote")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help="print one trailkit-report/1 JSON object")
    fmt.add_argument("--csv", action="store_true", help="print the backends' lines as CSV")
    p.add_argument("--plot", metavar="FILE.png", action="append", default=[],
                   help="draw a cactus plot of all backends, or (a name with 'scatter' in "
                        "it) a scatter plot of two (--pair); may be given more than once "
                        "(needs pip install 'trailkit[plot]')")
    p.add_argument("--pair", metavar="A,B",
                   help="the two backends of a scatter plot (default: the first two)")
    p.add_argument("--force", action="store_true",
                   help="replace the --plot files if they exist (refused otherwise)")
    p.set_defaults(run=run_report)


def _plots(scores: Scores, args: argparse.Namespace) -> None:
    """Draw the asked plots (matplotlib checked before any is drawn)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise TrailkitError(f"--plot needs matplotlib: {pip_install('trailkit[plot]')}")
    from trailkit.solvers.frontends.cli.plots import report_cactus, report_scatter

    names = [b.name for b in scores.backends]
    pair = [n.strip() for n in args.pair.split(",")] if args.pair else names[:2]
    for plot in args.plot:
        if "scatter" in Path(plot).stem:
            unknown = [n for n in pair if n not in names]
            if len(pair) != 2 or unknown:
                raise TrailkitError(f"a scatter plot needs two backends of the file "
                                    f"({', '.join(names)}); --pair names {args.pair or pair}")
            report_scatter(scores, pair[0], pair[1], plot)
            warn(f"scatter plot of {pair[0]} and {pair[1]} written to {plot}")
        else:
            report_cactus(scores, plot)
            warn(f"cactus plot written to {plot}")


def run_report(args: argparse.Namespace) -> int:
    """The ``report`` command: exit 4 when backends disagree, else 0."""
    from trailkit.solvers.support.files import check_outputs

    # every plot checked before the file is read: never the campaign file itself
    check_outputs([(plot, "--plot") for plot in args.plot], [args.db], force=args.force)
    store = open_store(args.db, create=False)
    try:
        rows, versions = store.rows(), store.versions()
    finally:
        store.close()
    if not rows:
        raise TrailkitError(f"{args.db}: no runs yet (write some with "
                            "'trailkit compare SPECS --db FILE.sqlite')")
    scores = score(rows)
    if args.json:
        output.emit_json(report_json(scores, args.db, versions))
    elif args.csv:
        write_raw(report_csv(scores))
    else:
        say(report_text(scores, args.db, versions))
    if args.plot:
        _plots(scores, args)
    return Exit.INCONSISTENT if scores.disagreements else Exit.OK
