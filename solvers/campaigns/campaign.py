"""Running a campaign into its file: only the runs the file lacks, each row written as
its run ends, the comparison's rows read back from the file.

The runs are those of :func:`trailkit.solvers.campaigns.isolation.compare` (every backend on every
spec, ``repeat`` times, each in its own worker with its limits); which of them run:

* ``rerun="missing"`` (the default): the runs whose key the file does not hold yet
  (and those stored as ``unavailable``, which may be installed by now);
* ``rerun="failed"``: also those that ended in ``timeout``, ``memout`` or ``crash``;
* ``rerun="all"``: every run.

A redone run replaces its row; a new run's row is kept only if no other campaign
stored that key meanwhile (see :mod:`trailkit.solvers.campaigns.store`). The runs go to
the local workers (``jobs``) or to any other executor with the same shape (a Dask
cluster: :mod:`trailkit.solvers.campaigns.cluster`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.campaigns.isolation import (
    DEFAULT_TIMEOUT_S,
    Row,
    RunResult,
    mark_agreement,
    run_tasks,
    summarise,
)
from trailkit.solvers.campaigns.plan import RunKey, machine, options_json, plan, spec_sha256
from trailkit.solvers.campaigns.store import RunRow, Store

__all__ = ["FAILED", "Campaign", "Executor", "Progress", "run_campaign"]

#: The statuses ``--rerun failed`` redoes: the run ended without an answer of its own.
FAILED = ("timeout", "memout", "crash")
RERUN = ("missing", "failed", "all")

#: Runs (spec, backend) somewhere, calling ``on_result(index, result)`` as each ends.
Executor = Callable[[Sequence[tuple[str, str]], Callable[[int, RunResult], None]], None]


@dataclass
class Progress:
    """How far a campaign is: runs finished (by status) of those it started, and of all."""

    total: int
    to_run: int
    done: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    last: str = ""

    @property
    def eta_s(self) -> float | None:
        """Seconds left at the pace so far (``None`` before the first run ends)."""
        if not self.done:
            return None
        return (time.monotonic() - self.started) / self.done * (self.to_run - self.done)


@dataclass
class Campaign:
    """What a campaign call did: the comparison's rows (from the file, this call's runs
    and the earlier ones), how many runs it had, ran and finished, and whether the user
    interrupted it."""

    rows: list[Row]
    runs_total: int
    runs_started: int
    runs_done: int
    interrupted: bool = False
    versions: list[str] = field(default_factory=list)
    unavailable_rows: int = 0

    @property
    def kept(self) -> int:
        """The campaign's runs already in the file, not run again."""
        return self.runs_total - self.runs_started - self.unavailable_rows


def _needs_run(status: str | None, rerun: str) -> tuple[bool, bool]:
    """(run it, replace its row) for a run whose stored status is ``status``."""
    if status is None:
        return True, False
    if status == "unavailable" or rerun == "all" or (rerun == "failed" and status in FAILED):
        return True, True
    return False, False


def _record(key: RunKey, result: RunResult, time_limit: float) -> RunRow:
    """The ``runs`` row of a finished run."""
    now = time.time()
    started = now - (result.get("wall_s") or 0.0)
    optimal = result.get("optimal")
    checked = result.get("certificate_checked")
    # Machine's keys are columns of runs; mypy cannot know it holds no other (row_sha256)
    return {**machine(), **(result.get("machine") or {}),  # type: ignore[typeddict-item]
            "spec": key.spec, "spec_sha256": key.sha256, "backend": key.backend,
            "options": key.options, "repeat": key.repeat, "status": result["status"],
            "wall_s": result.get("wall_s"), "cpu_s": result.get("cpu_s"),
            "peak_mb": result.get("peak_mb"), "decided_by": result.get("decided_by") or None,
            "length": result.get("length"), "optimal": None if optimal is None else int(optimal),
            "certificate": result.get("certificate"),
            "started_at": datetime.fromtimestamp(started, UTC).isoformat(timespec="milliseconds"),
            "solve_s": result.get("time_s"), "time_limit_s": time_limit,
            "limit_hit": result.get("limit_hit"), "detail": result.get("detail") or None,
            "encoding": result.get("encoding"),
            "certificate_checked": None if checked is None else int(checked),
            "worker": result.get("worker")}


def _result(row: RunRow) -> RunResult:
    """A stored row as the run result :func:`summarise` reads."""
    optimal = row.get("optimal")
    return {"status": row["status"], "length": row.get("length"),
            "optimal": None if optimal is None else bool(optimal),
            "time_s": row.get("solve_s"),
            "peak_mb": row.get("peak_mb"), "detail": row.get("detail") or "",
            "decided_by": row.get("decided_by") or ""}


def comparison_rows(keys: list[RunKey], stored: dict[tuple[str, str, str, int], RunRow],
                    unavailable: dict[str, str]) -> list[Row]:
    """The comparison's rows, (spec, backend) in campaign order, from the stored runs."""
    groups: dict[tuple[str, str], list[RunResult]] = {}
    for key in keys:
        group = groups.setdefault((key.spec, key.backend), [])
        row = stored.get(key.key)
        if row is not None and key.backend not in unavailable:
            group.append(_result(row))
    rows: list[Row] = []
    for (spec, backend), results in groups.items():
        if backend in unavailable:
            rows.append(Row(spec=spec, backend=backend, status="unavailable",
                            detail=unavailable[backend]))
        elif results:
            rows.append(summarise(spec, backend, results))
    for spec in dict.fromkeys(r.spec for r in rows):
        mark_agreement([r for r in rows if r.spec == spec])
    return rows


def _to_run(store: Store, keys: list[RunKey], stored: dict[tuple[str, str, str, int],
            RunRow], rerun: str,
            unavailable: dict[str, str] | Callable[[list[str]], dict[str, str]] | None,
            time_limit: float) -> tuple[list[tuple[RunKey, bool]], dict[str, str], int]:
    """The runs to start (each with whether it replaces a row), the unavailable backends
    (looked for only among those with runs to do), and how many ``unavailable`` rows were
    written for them instead of runs."""
    needed = {key: _needs_run(None if key.key not in stored else stored[key.key]["status"],
                              rerun) for key in dict.fromkeys(keys)}
    if callable(unavailable):
        unavailable = unavailable(list(dict.fromkeys(k.backend for k, (run, _) in needed.items()
                                                     if run)))
    unavailable = unavailable or {}
    todo: list[tuple[RunKey, bool]] = []
    written = 0
    for key, (run, replace) in needed.items():
        if key.backend in unavailable:
            if run:  # no run: a row that says why
                row = _record(key, {"status": "unavailable", "detail": unavailable[key.backend]},
                              time_limit)
                store.write(row, replace=replace)
                stored[key.key] = row
                written += 1
        elif run:
            todo.append((key, replace))
    return todo, unavailable, written


def run_campaign(store: Store, specs: list[str], backends: list[str], limits: Limits,
                 repeat: int = 1, *, rerun: str = "missing", jobs: int = 1,
                 memory_mb: int | None = DEFAULT_MEMORY_MB, precheck: bool = True,
                 unavailable: dict[str, str] | Callable[[list[str]], dict[str, str]] | None
                 = None, cpu_limit: float | None = None,
                 execute: Executor | None = None,
                 progress: Callable[[Progress], None] | None = None,
                 on_row: Callable[[list[Row]], None] | None = None) -> Campaign:
    """Run what the file lacks (see the module's docstring), writing each row as its run
    ends; ``on_row`` sees the comparison's rows after every run, ``progress`` the count.
    ``unavailable`` maps the backends that cannot run here to why, or finds them, given
    the backends that have runs to do (a finished campaign loads no backend)."""
    if rerun not in RERUN:
        raise ValueError(f"rerun must be one of {RERUN}, not {rerun!r}")
    hashes = {s: spec_sha256(s) for s in dict.fromkeys(specs)}
    keys = plan(specs, backends, options_json(limits, precheck=precheck, cpu_limit=cpu_limit),
                repeat, hashes)
    stored = {(r["spec_sha256"], r["backend"], r["options"], r["repeat"]): r
              for r in store.rows()}
    time_limit = limits.time_limit or DEFAULT_TIMEOUT_S
    todo, unavailable, written = _to_run(store, keys, stored, rerun, unavailable, time_limit)
    state = Progress(total=len(keys), to_run=len(todo))
    on_result = _Recorder(store, keys, todo, stored, unavailable, time_limit, state,
                          progress, on_row)
    tasks = [(key.spec, key.backend) for key, _ in todo]
    if execute is None:
        def execute(tasks: Sequence[tuple[str, str]],
                    on_result: Callable[[int, RunResult], None]) -> None:
            run_tasks(tasks, limits, memory_mb, jobs, on_result, precheck=precheck,
                      cpu_s=cpu_limit)
    interrupted = False
    try:
        if tasks:
            execute(tasks, on_result)
    except KeyboardInterrupt:
        interrupted = True
    rows = comparison_rows(keys, stored, unavailable)
    return Campaign(rows, len(keys), len(tasks), state.done, interrupted, store.versions(),
                    written)


@dataclass
class _Recorder:
    """What happens as each run of a campaign ends (called with the run's index in
    ``todo``): its row is written to the store at once, so nothing finished is lost to a
    later crash or Ctrl-C, the count goes on, and ``on_row`` sees the comparison anew."""

    store: Store
    keys: list[RunKey]
    todo: list[tuple[RunKey, bool]]
    stored: dict[tuple[str, str, str, int], RunRow]
    unavailable: dict[str, str]
    time_limit: float
    state: Progress
    progress: Callable[[Progress], None] | None
    on_row: Callable[[list[Row]], None] | None

    def __call__(self, index: int, result: RunResult) -> None:
        """Record the run ``todo[index]`` that ended with ``result``."""
        key, replace = self.todo[index]
        row = _record(key, result, self.time_limit)
        if self.store.write(row, replace=replace) or key.key not in self.stored:
            self.stored[key.key] = row
        state = self.state
        state.done += 1
        state.by_status[row["status"]] = state.by_status[row["status"]] + 1
        state.last = f"{key.spec} / {key.backend}"
        if self.progress is not None:
            self.progress(state)
        if self.on_row is not None:
            self.on_row(comparison_rows(self.keys, self.stored, self.unavailable))
