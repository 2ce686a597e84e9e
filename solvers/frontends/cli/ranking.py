"""``trailkit report FILE.sqlite``: the ranking of a campaign file (text, ``--json`` as
``trailkit-report/1``, ``--csv``), its plots, and exit 4 when backends disagree.

The scores are :func:`trailkit.solvers.campaigns.scores.score`'s.
"""

from __future__ import annotations

import argparse
import csv
import io
from dataclasses import asdict
from pathlib import Path
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.models.support.words import plural
from trailkit.solvers.campaigns.scores import Scores, score
from trailkit.solvers.campaigns.store import open_store
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import Exit, examples
from trailkit.solvers.frontends.cli.output import say, warn, write_raw
from trailkit.solvers.support.extras import pip_install

__all__ = ["REPORT_FORMAT", "register", "report_json", "report_text"]

REPORT_FORMAT = "trailkit-report/1"


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
    p.set_defaults(run=run_report)


def report_json(scores: Scores, path: str, versions: list[str]) -> dict[str, Any]:
    """The ``trailkit-report/1`` object."""
    return {"format": REPORT_FORMAT, "file": path, "instances": scores.instances,
            "versions": versions,
            "backends": [asdict(b) for b in scores.backends],
            "vbs": {"solved": scores.vbs_solved, "par2": scores.vbs_par2},
            "pairwise": [asdict(p) for p in scores.pairs],
            "disagreements": [asdict(d) for d in scores.disagreements]}


def _aligned(headers: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h)
              for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths)),
            *(fmt.format(*line).rstrip() for line in lines)]


def report_text(scores: Scores, path: str, versions: list[str]) -> str:
    """The ranking as text: the backends and the virtual best, the pairwise wins, and
    the disagreements with every answer."""
    out = [f"{path}: {plural(scores.instances, 'instance')}, written by trailkit "
           f"{', '.join(versions) or 'unknown'}", ""]
    ranked = sorted(scores.backends, key=lambda b: (-b.solved, b.par2, b.name))
    out += _aligned(["backend", "solved", "par2 s", "unique", "vbs share"],
                    [[b.name, str(b.solved), f"{b.par2:.3f}", str(b.unique),
                      f"{b.vbs_share:.0%}"] for b in ranked]
                    + [["(virtual best)", str(scores.vbs_solved), f"{scores.vbs_par2:.3f}",
                        "", ""]])
    if scores.pairs:
        out += ["", "pairwise: A decided faster than B (or alone) on N instances; "
                "median of B's time / A's where both decided"]
        out += _aligned(["A", "B", "N faster", "both", "median B/A"],
                        [[p.a, p.b, str(p.faster), str(p.both),
                          "-" if p.median_ratio is None else f"{p.median_ratio:.2f}"]
                         for p in scores.pairs])
    if scores.disagreements:
        out += ["", f"BACKENDS DISAGREE on {plural(len(scores.disagreements), 'instance')}:"]
        for d in scores.disagreements:
            out.append(f"  {d.spec}: {d.reason}")
            for a in d.answers:
                length = "" if a["length"] is None else f" length {a['length']}"
                optimal = " (optimal)" if a["optimal"] else ""
                out.append(f"    {a['backend']} (repeat {a['repeat']}): {a['status']}"
                           f"{length}{optimal}" + (f": {a['detail']}" if a["detail"] else ""))
    return "\n".join(out)


def _csv(scores: Scores) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["backend", "solved", "par2", "unique", "vbs_share"])
    for b in scores.backends:
        writer.writerow([b.name, b.solved, b.par2, b.unique, b.vbs_share])
    writer.writerow(["(virtual best)", scores.vbs_solved, scores.vbs_par2, "", ""])
    return buffer.getvalue()


def _plots(scores: Scores, args: argparse.Namespace) -> None:
    """Draw the asked plots (matplotlib checked before any is drawn)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise TrailkitError(f"--plot needs matplotlib: {pip_install('trailkit[plot]')}")
    from trailkit.solvers.frontends.cli.plots import report_cactus, report_scatter
    from trailkit.solvers.support.files import check_output

    for plot in args.plot:  # every one before the first is drawn
        check_output(plot, "--plot")
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
        write_raw(_csv(scores))
    else:
        say(report_text(scores, args.db, versions))
    if args.plot:
        _plots(scores, args)
    return Exit.INCONSISTENT if scores.disagreements else Exit.OK
