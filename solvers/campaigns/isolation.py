"""Comparing backends: every backend on every spec, each run in its own worker process.

A run that hangs, runs out of memory or crashes becomes a row marked ``timeout``,
``memout`` or ``crash`` and the comparison goes on. Rows report the median time
(with min and max over ``--repeat`` runs), the peak memory of the worker, and whether
the backends agree (same status; same length where both prove it optimal).
The time is the time of the stage that decided the answer (the backend, or the
structural pre-check: rows say which in ``decided_by``; ``precheck=False`` lets the
backend decide everything), measured by the pipeline: an unsolvable answer without a
certificate is still confirmed by a second backend (the pipeline never lets it
through otherwise), but that confirmation is not charged to the row.
The command line (:mod:`trailkit.solvers.frontends.cli.compare`) draws the table and the
progress bar; this module returns rows.

How a run is isolated (POSIX only: ``fork``, ``resource``; the forked worker itself is
:mod:`trailkit.solvers.support.workers`, which the workshop's runs use too):

* each run is a forked child with ``RLIMIT_AS`` set to ``--memory-limit`` MB; it
  sends one JSON object back through a pipe and exits;
* the parent kills a child that is still running ``GRACE_S`` seconds after its time
  limit (``timeout``), and ``RLIMIT_CPU`` ends one that has used as much processor time
  (``timeout`` too: ``limit_hit`` says ``wall`` or ``cpu``); a child that dies without
  answering is a ``crash``, or a ``memout`` when it raised :class:`MemoryError` or its
  last words on stderr speak of memory (C++ ``std::bad_alloc``, "Cannot allocate memory");
* ``jobs=N`` keeps N children running at once (times are then noisier);
* children ignore Ctrl-C and die with the parent (so does a child's own helper
  process, :func:`trailkit.solvers.backends.sat.runner.run_guarded`); on Ctrl-C the parent kills
  the running children at once and keeps every finished row;
* the parent gives the sign ``solving`` (:mod:`trailkit.solvers.support.signs`) with
  ``BACKEND on SPEC`` as each run starts.

``on_row`` sees the rows after every finished run, so a caller can keep a file
that always holds every finished row, and an interrupt loses nothing finished.
"""

from __future__ import annotations

import os
import select
import signal
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Required, TypedDict, cast

from trailkit.models.errors import BackendUnavailable, TrailkitError, VerificationFailure
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.campaigns.plan import Machine
from trailkit.solvers.support.interrupts import interrupts_held
from trailkit.solvers.support.signs import SOLVING, sign
from trailkit.solvers.support.workers import (
    GRACE_S,
    Worker,
    finish_worker,
    start_worker,
)

__all__ = ["Comparison", "Row", "RunResult", "compare", "disagreements", "mark_agreement",
           "run_one", "run_tasks", "summarise", "unavailable_backends"]

#: Wall-clock limit of a run when no ``--time-limit`` is given.
DEFAULT_TIMEOUT_S = 300.0
#: Statuses that are an answer (the others say why there is none).
DECIDED = ("solved", "unsolvable")


@dataclass
class Row:
    """One (spec, backend) line of the comparison.

    ``status`` is an answer status (``solved``, ``unsolvable``, ``unknown``) or what
    stopped the run: ``timeout``, ``memout``, ``crash``, ``error`` (bad input),
    ``wrong`` (the answer failed the independent checker: a bug) or ``unavailable``
    (the backend cannot be loaded here). Repeats that end differently are joined by
    ``/`` (``solved/timeout``).
    """

    spec: str
    backend: str
    status: str
    length: int | None = None
    optimal: bool | None = None
    time_s: float | None = None
    time_min_s: float | None = None
    time_max_s: float | None = None
    peak_mb: float | None = None
    agrees: bool | None = None
    detail: str = ""
    runs: int = 0
    decided_by: str = ""


class RunResult(TypedDict, total=False):
    """One run's result, plain JSON data: what its worker sent (``status`` always; the
    rest when it answered), completed by the parent with the worker's ``peak_mb``,
    ``wall_s``, ``cpu_s`` and ``limit_hit`` (see :func:`finish_worker`), and on a
    cluster with the ``machine`` (host, CPU) and ``worker`` that ran it."""

    status: Required[str]
    detail: str
    length: int | None
    optimal: bool | None
    time_s: float | None
    decided_by: str
    encoding: str | None
    certificate: str | None
    certificate_checked: bool | None
    peak_mb: float | None
    wall_s: float
    cpu_s: float
    limit_hit: str | None
    machine: Machine
    worker: str


# ------------------------------------------------------------------ one run
def _solve_once(spec: str, backend: str, limits: Limits, precheck: bool) -> RunResult:
    """Solve once (in the child) and describe the outcome as plain JSON data."""
    try:
        from trailkit.models.spec import load_spec
        from trailkit.solvers.pipeline import solve

        puzzle = load_spec(spec)
        answer = solve(puzzle, backend, limits, crosscheck=None, precheck=precheck)
        # the backend's own time: a second backend that confirms an unsolvable answer
        # without a certificate (the pipeline insists) is not charged to this one
        certificate = answer.certificate
        return {"status": answer.status.value, "length": answer.length,
                "optimal": answer.optimal, "time_s": answer.time_s, "detail": answer.reason,
                "decided_by": answer.decided_by, "encoding": answer.stats.get("encoding"),
                "certificate": None if certificate is None else certificate.kind,
                "certificate_checked": bool(answer.certificate_checked)
                if certificate is not None else None}
    except MemoryError:
        return {"status": "memout", "detail": "out of memory (MemoryError)"}
    except VerificationFailure as exc:
        return {"status": "wrong", "detail": str(exc)}
    except TrailkitError as exc:
        return {"status": "error", "detail": str(exc)}
    except Exception as exc:  # a crash of the backend: report it, do not stop the comparison
        return {"status": "crash", "detail": f"{type(exc).__name__}: {exc}"}


def _start(index: int, spec: str, backend: str, limits: Limits,
           memory_mb: int | None, precheck: bool, cpu_s: float | None = None) -> Worker:
    """Fork a worker that solves once under an address-space limit and pipes back JSON;
    its processor-time limit is ``cpu_s``, else the wall limit times the solver threads."""
    wall = (limits.time_limit or DEFAULT_TIMEOUT_S) + GRACE_S
    return start_worker(lambda: _solve_once(spec, backend, limits, precheck),
                        wall_s=wall, memory_mb=memory_mb, index=index,
                        cpu_s=cpu_s or wall * max(1, limits.workers),
                        limit_s=limits.time_limit or DEFAULT_TIMEOUT_S)


def run_one(spec: str, backend: str, limits: Limits,
            memory_mb: int | None = DEFAULT_MEMORY_MB, *, precheck: bool = True,
            cpu_s: float | None = None) -> RunResult:
    """Run one solve in a fresh process with a hard wall-clock, CPU and memory limit."""
    results = _run_all([(spec, backend)], limits, memory_mb, jobs=1, precheck=precheck,
                       cpu_s=cpu_s)
    return results[0]


def run_tasks(tasks: Sequence[tuple[str, str]], limits: Limits, memory_mb: int | None,
              jobs: int, on_result: Callable[[int, RunResult], None] | None = None,
              *, precheck: bool = True, cpu_s: float | None = None
              ) -> dict[int, RunResult]:
    """Run ``tasks`` (spec, backend), each once in its own worker, at most ``jobs`` at a
    time; ``on_result(index, result)`` as each finishes (a campaign writes its row there).
    On ``KeyboardInterrupt`` the running workers are killed and the exception goes on."""
    return _run_all(tasks, limits, memory_mb, jobs, on_result, precheck=precheck, cpu_s=cpu_s)


def _preload() -> None:
    """Import in the parent what every run's child imports (the spec reader, the
    pipeline), and read one tiny spec (a first read fills the reader's lazy tables): the
    forked children inherit all of it instead of doing it once per run."""
    import trailkit.solvers.pipeline  # noqa: F401
    from trailkit.models.spec import load_spec_text

    load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\n")


def _run_all(tasks: Sequence[tuple[str, str]], limits: Limits, memory_mb: int | None,
             jobs: int, on_result: Callable[[int, RunResult], None] | None = None,
             *, precheck: bool = True, cpu_s: float | None = None
             ) -> dict[int, RunResult]:
    """Run ``tasks`` (spec, backend) with at most ``jobs`` workers; results by task index.

    On ``KeyboardInterrupt`` the running workers are killed and the exception goes on;
    ``on_result`` has already seen every finished run.
    """
    results: dict[int, RunResult] = {}
    if tasks:
        _preload()
    pending = list(range(len(tasks)))[::-1]
    running: dict[int, Worker] = {}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                index = pending.pop()
                spec, backend = tasks[index]
                with interrupts_held():  # the child is known before a Ctrl-C unwinds
                    child = _start(index, spec, backend, limits, memory_mb, precheck, cpu_s)
                    running[child.fd] = child
                sign(SOLVING, f"{backend} on {spec}")
            _collect(running, results, on_result)
    finally:
        for child in running.values():
            os.kill(child.pid, signal.SIGKILL)
            os.waitpid(child.pid, 0)
            os.close(child.fd)
            child.stderr.close()
    return results


def _collect(running: dict[int, Worker], results: dict[int, RunResult],
             on_result: Callable[[int, RunResult], None] | None) -> None:
    """One look at the ``running`` workers (by pipe): read what each wrote, and finish
    each that is done (its pipe closed) or over its deadline (killed), its result put in
    ``results`` and shown to ``on_result`` at once. Waits at most 50 ms for a pipe."""
    readable, _, _ = select.select(list(running), [], [], 0.05)
    now = time.monotonic()
    for fd, child in list(running.items()):
        done = killed = False
        if fd in readable:
            chunk = os.read(fd, 65536)
            child.data += chunk
            done = not chunk
        if not done and now > child.deadline:
            os.kill(child.pid, signal.SIGKILL)
            done = killed = True
        if done:
            del running[fd]
            index = child.index
            # the worker ran _solve_once: its JSON is a RunResult
            results[index] = cast(RunResult, finish_worker(child, killed=killed))
            if on_result is not None:
                on_result(index, results[index])


# ------------------------------------------------------------------ many runs
@dataclass
class Comparison:
    """The rows finished so far, and whether the user interrupted the comparison."""

    rows: list[Row]
    runs_done: int
    runs_total: int
    interrupted: bool = False


def compare(specs: list[str], backends: list[str], limits: Limits, repeat: int,
            on_row: Callable[[list[Row]], None] | None = None, *, jobs: int = 1,
            memory_mb: int | None = DEFAULT_MEMORY_MB,
            unavailable: dict[str, str] | None = None, precheck: bool = True,
            progress: Callable[[int, int, str], None] | None = None) -> Comparison:
    """Run every backend on every spec ``repeat`` times; rows in (spec, backend) order.

    ``on_row`` is called with all rows finished so far whenever one more finishes;
    ``progress`` with (runs done, runs in all, the run just finished);
    ``unavailable`` maps backends that cannot run here to the reason (one row each
    per spec, no run).
    """
    unavailable = unavailable or {}
    runnable = [b for b in backends if b not in unavailable]
    groups = [(s, b) for s in specs for b in runnable]
    tasks = [group for group in groups for _ in range(repeat)]
    tally = _Tally(specs, backends, repeat, unavailable, tasks, on_row, progress)
    interrupted = False
    try:
        _run_all(tasks, limits, memory_mb, jobs, tally.on_result, precheck=precheck)
    except KeyboardInterrupt:
        interrupted = True
        tally.keep_unfinished()
        if on_row is not None:
            on_row(tally.ordered())
    return Comparison(tally.ordered(), tally.runs_done, len(tasks), interrupted)


class _Tally:
    """The rows of a comparison as its runs end: each (spec, backend) gets its row when
    its ``repeat`` runs are in (``on_row`` then sees every row so far, in order, with the
    agreement marked), and ``progress`` hears of every run."""

    def __init__(self, specs: list[str], backends: list[str], repeat: int,
                 unavailable: dict[str, str], tasks: list[tuple[str, str]],
                 on_row: Callable[[list[Row]], None] | None,
                 progress: Callable[[int, int, str], None] | None) -> None:
        self.specs, self.repeat, self.tasks = specs, repeat, tasks
        self.on_row, self.progress = on_row, progress
        self.runs: dict[tuple[str, str], list[RunResult]] = {g: [] for g in tasks}
        self.finished: dict[tuple[str, str], Row] = {
            (s, b): Row(spec=s, backend=b, status="unavailable", detail=unavailable[b])
            for s in specs for b in backends if b in unavailable}
        self.order = {g: i for i, g in enumerate((s, b) for s in specs for b in backends)}
        self.runs_done = 0

    def ordered(self) -> list[Row]:
        """The finished rows in (spec, backend) order, each spec's agreement marked."""
        rows = sorted(self.finished.values(), key=lambda r: self.order[(r.spec, r.backend)])
        for spec in self.specs:
            _agreement([r for r in rows if r.spec == spec])
        return rows

    def on_result(self, index: int, result: RunResult) -> None:
        """Count the run ``tasks[index]`` that ended with ``result``."""
        group = self.tasks[index]
        self.runs[group].append(result)
        self.runs_done += 1
        if self.progress is not None:
            self.progress(self.runs_done, len(self.tasks), f"{Path(group[0]).name} / {group[1]}")
        if len(self.runs[group]) == self.repeat:
            self.finished[group] = _summarise(*group, self.runs[group])
            if self.on_row is not None:
                self.on_row(self.ordered())

    def keep_unfinished(self) -> None:
        """After an interruption: a row for each group with some of its runs done, saying
        how many (what finished is kept, never lost)."""
        for group, done in self.runs.items():
            if done and group not in self.finished:
                self.finished[group] = _summarise(*group, done)
                self.finished[group].detail += (
                    f" (interrupted after {len(done)} of {self.repeat} runs)")


def summarise(spec: str, backend: str, runs: list[RunResult]) -> Row:
    """One row from the repeated runs (results of :func:`run_tasks`) of a backend on a spec."""
    return _summarise(spec, backend, runs)


def mark_agreement(rows: list[Row]) -> None:
    """Set ``agrees`` on the rows of one spec (see :func:`compare`)."""
    _agreement(rows)


def _summarise(spec: str, backend: str, runs: list[RunResult]) -> Row:
    """One row from the repeated runs of a backend on a spec (median time, max memory)."""
    times = [t for r in runs if (t := r.get("time_s")) is not None]
    statuses = sorted({r["status"] for r in runs})
    first = next((r for r in runs if r["status"] in DECIDED), runs[0])
    peaks = [p for r in runs if (p := r.get("peak_mb"))]
    return Row(spec=spec, backend=backend, status="/".join(statuses),
               length=first.get("length"), optimal=first.get("optimal"),
               time_s=statistics.median(times) if times else None,
               time_min_s=min(times) if times else None,
               time_max_s=max(times) if times else None,
               peak_mb=max(peaks) if peaks else None,
               detail=first.get("detail") or "", runs=len(runs),
               decided_by=first.get("decided_by") or "")


def _agreement(rows: list[Row]) -> None:
    """Mark the rows of one spec: do the backends that answered agree?

    They disagree when one says solved and another unsolvable (also across repeats of
    one backend), when proven-optimal lengths differ, or when an answer failed the
    independent checker (``wrong``). With fewer than two answers there is nothing to
    compare (``None``), unless an answer was wrong.
    """
    wrong = any("wrong" in r.status.split("/") for r in rows)
    decided = [r for r in rows if set(r.status.split("/")) & set(DECIDED)]
    statuses = {s for r in decided for s in r.status.split("/") if s in DECIDED}
    lengths = {r.length for r in decided if r.status == "solved" and r.optimal}
    agree = len(statuses) <= 1 and len(lengths) <= 1 and not wrong
    for row in rows:
        if wrong or not agree:
            row.agrees = False if (row in decided or "wrong" in row.status) else None
        else:
            row.agrees = True if row in decided and len(decided) > 1 else None


def disagreements(rows: list[Row]) -> list[str]:
    """The specs on which the backends disagree (exit code 4)."""
    return sorted({r.spec for r in rows if r.agrees is False})


def unavailable_backends(backends: list[str]) -> dict[str, str]:
    """Fail on unknown names (listing the known ones); return the ones that cannot be
    loaded here, with the reason."""
    unavailable = {}
    for name in backends:
        try:
            get_backend(name)
        except BackendUnavailable as exc:
            if "unknown backend" in str(exc) or "takes no" in str(exc):
                raise
            unavailable[name] = str(exc)
    return unavailable
