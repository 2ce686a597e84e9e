"""``trailkit compare``: the table, CSV and JSON of a backend comparison, its progress
bar, and its exit code (4 when backends disagree, 2 when a spec could not be read).

The runs themselves, each in its own worker process, are in
:mod:`trailkit.solvers.campaigns.isolation`.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from trailkit.models.errors import TrailkitError
from trailkit.solvers.backends.registry import BackendName, backend_names
from trailkit.solvers.campaigns.campaign import Campaign
from trailkit.solvers.campaigns.isolation import (
    DECIDED,
    DEFAULT_TIMEOUT_S,
    Comparison,
    Row,
    compare,
    disagreements,
    unavailable_backends,
)
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import (
    BACKEND_HELP,
    Exit,
    add_limits,
    add_out,
    add_precheck,
    examples,
    limits_from,
    positive_float,
    positive_int,
)
from trailkit.solvers.frontends.cli.output import say, warn, write_raw
from trailkit.solvers.support.extras import pip_install
from trailkit.solvers.support.files import atomic_write, check_outputs
from trailkit.solvers.support.specfiles import find_specs

__all__ = ["register", "scatter_path", "table"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``compare``."""
    p = sub.add_parser("compare", help="run several backends on specs and tabulate",
                       **examples("trailkit compare specs/bench --backends direct,cpsat,sat "
                                  "--precheck off --time-limit 30",
                                  "trailkit compare specs/bench --db runs.sqlite --time-limit 30"
                                  "   # rerun: only what is missing",
                                  "trailkit compare specs/bench --db runs.sqlite "
                                  "--cluster local:2"))
    p.add_argument("specs", nargs="+", metavar="SPEC", help="spec files or folders of specs")
    p.add_argument("--backends", default=",".join(backend_names()),
                   help=f"comma-separated, from {BACKEND_HELP} (default: all; one that cannot "
                        "be loaded here gets 'unavailable' rows)")
    p.add_argument("--repeat", type=positive_int, default=1, metavar="N",
                   help="run each backend N times per spec; rows give the median time")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help="print the rows as one trailkit-compare/1 JSON object")
    fmt.add_argument("--csv", action="store_true", help="print the rows as CSV")
    add_out(p, "FILE", "the rows (JSON/CSV by flag or by .json/.csv suffix; rewritten "
            "after every finished row so Ctrl-C loses nothing; the table still goes to "
            "standard output)", stdout=False, replaced="the --out and --plot files if they exist")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw a cactus plot, and with two backends a scatter plot "
                        "FILE-scatter.png (needs matplotlib: pip install 'trailkit[plot]')")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="run N worker processes at once (default 1: steadier times)")
    _add_campaign_options(p)
    add_limits(p, run_time_limit=DEFAULT_TIMEOUT_S)
    add_precheck(p)
    p.set_defaults(run=run_compare)


def _add_campaign_options(p: argparse.ArgumentParser) -> None:
    """The options that make a comparison a campaign: runs kept in a file as they end
    (and redone only as asked), a CPU limit per run, and the runs spread on a cluster."""
    p.add_argument("--db", metavar="FILE.sqlite",
                   help="keep every run in this SQLite file as it ends (table 'runs'); run "
                        "again, only the runs it lacks are run; 'trailkit report' ranks it")
    p.add_argument("--rerun", choices=("failed", "all"), metavar="WHICH",
                   help="with --db: also redo the runs that ended in timeout, memout or "
                        "crash (failed), or every run (all)")
    p.add_argument("--cpu-limit", type=positive_float, metavar="S",
                   help="processor seconds a run may use (RLIMIT_CPU; default: its wall "
                        "limit times --workers); a run it ends is a timeout by 'cpu'")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run on a Dask cluster: tcp://HOST:8786 (a running 'dask scheduler') "
                        "or local:N (N local worker processes); needs "
                        "pip install 'trailkit[cluster]'")


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self) -> None:
        self.shown = sys.stderr.isatty()
        self.started = time.monotonic()
        self.drawn = False

    def step(self, done: int, total: int, last: str) -> None:
        if self.shown and total:
            width = 30
            filled = width * done // total
            elapsed = time.monotonic() - self.started
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                             f"runs, {total - done} left, {elapsed:.0f} s  ({last[:40]})\x1b[K")
            sys.stderr.flush()
            self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table (what ``trailkit compare`` prints)."""
    headers = ["spec", "backend", "status", "decided by", "length", "median s", "min-max s",
               "peak MB", "agrees"]
    lines = [[r.spec, r.backend, r.status, r.decided_by or "-",
              "" if r.length is None else str(r.length),
              "" if r.time_s is None else f"{r.time_s:.3f}",
              "" if r.time_min_s is None else f"{r.time_min_s:.3f}-{r.time_max_s:.3f}",
              "" if r.peak_mb is None else f"{r.peak_mb:.0f}",
              {True: "yes", False: "NO", None: "-"}[r.agrees]] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*headers), fmt.format(*("-" * w for w in widths)),
           *(fmt.format(*line) for line in lines)]
    notes = list(dict.fromkeys(_note(r) for r in rows
                               if r.status not in (*DECIDED, "unknown") and r.detail))
    if notes:
        out += ["", *notes]
    specs = disagreements(rows)
    if specs:
        out += ["", f"BACKENDS DISAGREE on {len(specs)} spec(s): {', '.join(specs)}"]
    return "\n".join(line.rstrip() for line in out)


def _note(row: Row) -> str:
    """The line under the table that says why a row did not decide: a spec that cannot
    be read once (its located message, the same for every backend), others per run."""
    if row.status == "unavailable":
        return f"{row.backend}: unavailable: {row.detail}"
    if row.status == "error":
        located = row.detail.startswith(f"{row.spec}:")
        return row.detail if located else f"{row.spec}: error: {row.detail}"
    return f"{row.spec} / {row.backend}: {row.status}: {row.detail}"


COMPARE_FORMAT = "trailkit-compare/1"


def row_json(row: Row) -> dict[str, object]:
    """A row as plain data: times rounded to microseconds, memory to 0.1 MB."""
    out = asdict(row)
    for key in ("time_s", "time_min_s", "time_max_s"):
        if out[key] is not None:
            out[key] = round(out[key], 6)
    return out


def _csv(rows: list[Row]) -> str:
    """The rows as CSV: ``true``/``false`` and empty cells, as spreadsheets read them."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(Row.__dataclass_fields__),
                            lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("true" if v is True else "false" if v is False else v)
                         for k, v in row_json(row).items()})
    return buffer.getvalue()


def compare_json(rows: list[Row]) -> dict[str, object]:
    """The ``trailkit-compare/1`` object: the rows and the specs backends disagree on."""
    return {"format": COMPARE_FORMAT, "rows": [row_json(r) for r in rows],
            "disagreements": disagreements(rows)}


def _json(rows: list[Row]) -> str:
    return json.dumps(compare_json(rows), indent=1) + "\n"


def _format(args: argparse.Namespace) -> str:
    """``json``, ``csv`` or ``table``: from the flags, else from the --out file's suffix."""
    if args.json:
        return "json"
    if args.csv:
        return "csv"
    suffix = Path(args.out).suffix.lower() if args.out else ""
    return {".json": "json", ".csv": "csv"}.get(suffix, "table")


_RENDER: dict[str, Callable[[list[Row]], str]] = {
    "json": _json, "csv": _csv, "table": lambda rows: table(rows) + "\n"}


def run_compare(args: argparse.Namespace) -> int:
    """The ``compare`` command: returns the exit code (4 when backends disagree)."""
    specs = [str(p) for p in find_specs(args.specs)]
    if not specs:
        raise TrailkitError("no specs to compare")
    backends = _backend_names(args.backends)
    campaign = bool(args.db or args.cluster or args.rerun or args.cpu_limit)
    # a campaign loads only the backends it has runs for (a finished one: none)
    unavailable = {} if campaign else _unavailable(backends)
    fmt = _format(args)
    _check_outputs(args, specs, backends)
    render = _RENDER[fmt]

    def write_out(rows: list[Row]) -> None:
        atomic_write(args.out, render(rows))

    result = _runs(args, specs, backends, _unavailable if campaign else unavailable,
                   write_out if args.out else None)
    rows = result.rows
    if args.out:
        write_out(rows)
        if fmt != "table":
            say(table(rows))
        warn(f"rows written to {args.out}")
    else:
        if fmt == "json":
            output.emit_json(compare_json(rows))
        else:
            (say if fmt == "table" else write_raw)(render(rows).rstrip("\n") + "\n")
    if args.plot and rows:
        _plot(rows, backends, args.plot)
    if result.interrupted:
        warn(f"trailkit compare: interrupted after {result.runs_done} of "
             f"{result.runs_total} runs; the finished rows are above")
        return Exit.INTERRUPTED
    if disagreements(rows):
        return Exit.INCONSISTENT
    return Exit.INPUT if any("error" in r.status.split("/") for r in rows) else Exit.OK


def _backend_names(listed: str) -> list[str]:
    """The backends ``--backends`` lists, each once in its order; an empty list or an
    unknown name is an input error (exit 2) before anything runs."""
    backends = list(dict.fromkeys(b.strip() for b in listed.split(",") if b.strip()))
    if not backends:
        raise TrailkitError("--backends names no backend")
    for name in backends:  # an unknown name is exit 2 before anything runs
        BackendName.parse(name)
    return backends


def _plot(rows: list[Row], backends: list[str], path: str) -> None:
    """Draw the cactus plot of ``rows`` to ``path`` and, with two backends, their scatter
    plot beside it (matplotlib is imported only here: most runs draw nothing)."""
    from trailkit.solvers.frontends.cli.plots import cactus_plot, scatter_plot

    cactus_plot(rows, path)
    warn(f"cactus plot written to {path}")
    if len(backends) == 2:
        scatter = scatter_path(path)
        scatter_plot(rows, backends[0], backends[1], scatter)
        warn(f"scatter plot written to {scatter}")


def _unavailable(backends: list[str]) -> dict[str, str]:
    """The backends that cannot be loaded here (each said on stderr), with the reason."""
    unavailable = unavailable_backends(backends)
    for name, why in unavailable.items():
        warn(f"trailkit compare: backend {name} is unavailable, its rows say so: {why}")
    return unavailable


def _runs(args: argparse.Namespace, specs: list[str], backends: list[str],
          unavailable: dict[str, str] | Callable[[list[str]], dict[str, str]],
          on_row: Callable[[list[Row]], None] | None) -> Comparison | Campaign:
    """The runs: a campaign (``--db``, ``--cluster``, ...) or a plain comparison."""
    limits = limits_from(args, per_run=True)
    if callable(unavailable):
        from trailkit.solvers.frontends.cli.campaign_runs import run_into_db

        return run_into_db(args, specs, backends, limits, unavailable, on_row)
    progress = _Progress()
    result = compare(specs, backends, limits, args.repeat, on_row, jobs=args.jobs,
                     memory_mb=limits.memory_mb, unavailable=unavailable,
                     precheck=args.precheck == "on", progress=progress.step)
    progress.close()
    return result


def _check_outputs(args: argparse.Namespace, specs: list[str], backends: list[str]) -> None:
    """Refuse (exit 2) before any run an ``--out``, ``--db`` or ``--plot`` (and its
    scatter side file) that cannot be written as a regular file, is a spec or the campaign
    file, or exists without ``--force``; and ``--plot`` without matplotlib."""
    outputs = [(args.out, "--out")] if args.out else []
    if args.plot:
        outputs += [(plot, "--plot") for plot in
                    [args.plot] + [scatter_path(args.plot)] * (len(backends) == 2)]
    if args.db:  # written, but also read: the campaign file is an input of the rest
        check_outputs([(args.db, "--db")], specs, force=True)
    check_outputs(outputs, specs + [args.db] * bool(args.db), force=args.force)
    if args.plot:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # fail before the runs, not after;
            # imported only after them, so the forked workers do not carry it (peak MB)
            raise TrailkitError(f"--plot needs matplotlib: {pip_install('trailkit[plot]')}")


def scatter_path(plot: str) -> str:
    """``out.png`` -> ``out-scatter.png``: where the two-backend scatter plot goes."""
    path = Path(plot)
    return str(path.with_name(f"{path.stem}-scatter{path.suffix or '.png'}"))
