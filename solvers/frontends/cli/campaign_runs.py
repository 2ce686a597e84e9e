"""``trailkit compare --db / --rerun / --cluster``: the campaign's options checked, its
file opened, its progress line drawn; the runs are
:func:`trailkit.solvers.campaigns.campaign.run_campaign`'s."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from trailkit.models.errors import TrailkitError
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.campaigns.campaign import Campaign, Progress, run_campaign
from trailkit.solvers.campaigns.isolation import Row
from trailkit.solvers.campaigns.store import check_campaign_file, open_store
from trailkit.solvers.frontends.cli.output import warn

__all__ = ["ProgressLine", "run_into_db"]


class ProgressLine:
    """One line on stderr, redrawn as runs end, only when stderr is a terminal: runs done
    of those to run (and of all), by status, the elapsed time and an estimate of the rest."""

    def __init__(self, workers: str = "") -> None:
        self.shown = sys.stderr.isatty()
        self.workers = workers
        self.drawn = False

    def __call__(self, state: Progress) -> None:
        if not self.shown:
            return
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(state.by_status.items()))
        eta = state.eta_s
        left = "" if eta is None else f", about {_duration(eta)} left"
        kept = state.total - state.to_run
        earlier = f" ({kept} kept from the file)" if kept else ""
        sys.stderr.write(f"\r{state.done}/{state.to_run} runs{earlier}: {statuses}; "
                         f"{_duration(time.monotonic() - state.started)}{left}"
                         f"{self.workers}\x1b[K")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s"


def run_into_db(args: argparse.Namespace, specs: list[str], backends: list[str],
                limits: Limits, unavailable: Callable[[list[str]], dict[str, str]],
                on_row: Callable[[list[Row]], None] | None) -> Campaign:
    """Run the campaign of ``compare``'s arguments (``--db``, else a file in memory)."""
    if args.rerun and not args.db:
        raise TrailkitError("--rerun redoes runs kept in a --db file: name one with --db")
    if args.db:  # a file that is not trailkit's, or is damaged: refused before a cluster starts
        check_campaign_file(Path(args.db))
    with ExitStack() as stack:
        execute = None
        line = ProgressLine()
        if args.cluster:
            from trailkit.solvers.campaigns.cluster import connect

            cluster = stack.enter_context(connect(args.cluster))
            execute = cluster.executor(limits, memory_mb=limits.memory_mb,
                                       precheck=args.precheck == "on", cpu_s=args.cpu_limit)
            line.workers = f"; {cluster.workers()} workers"
        store = open_store(args.db or ":memory:")
        stack.callback(store.close)
        result = run_campaign(store, specs, backends, limits, args.repeat,
                              rerun=args.rerun or "missing", jobs=args.jobs,
                              memory_mb=limits.memory_mb, precheck=args.precheck == "on",
                              unavailable=unavailable, cpu_limit=args.cpu_limit,
                              execute=execute, progress=line, on_row=on_row)
        line.close()
    if args.db:
        kept = result.kept
        warn(f"{result.runs_done} run(s) written to {args.db}"
             + (f", {kept} kept from earlier" if kept else ""))
    return result
