"""``trailkit compare``: every backend on every spec, each run in its own worker process.

A run that hangs, runs out of memory or crashes becomes a row marked ``timeout``,
``memout`` or ``crash`` and the comparison goes on. Rows report the median time
(with min and max over ``--repeat`` runs), the peak memory of the worker, and whether
the backends agree (same status; same length where both prove it optimal).
Disagreement is exit code 4.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import multiprocessing as mp
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.solvers.base import Limits
from trailkit.solvers.files import atomic_write
from trailkit.solvers.lint import find_specs

__all__ = ["Row", "run_compare", "run_one"]

#: Seconds a worker may run past its time limit before it is killed as a timeout.
GRACE_S = 5.0
DEFAULT_TIMEOUT_S = 300.0


@dataclass
class Row:
    """One (spec, backend) line of the comparison."""

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


def _worker(spec: str, backend: str, limits: Limits, queue: Any) -> None:
    """Runs in a child process: solve once and report status, length, time, peak memory."""
    from trailkit.models.spec import load_spec
    from trailkit.solvers.pipeline import solve

    try:
        puzzle = load_spec(spec)
        started = time.perf_counter()
        answer = solve(puzzle, backend, limits, crosscheck=None)
        elapsed = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        queue.put({"status": answer.status.value, "length": answer.length,
                   "optimal": answer.optimal, "time_s": elapsed, "peak_mb": peak,
                   "detail": answer.reason})
    except MemoryError:
        queue.put({"status": "memout", "detail": "out of memory"})
    except TrailkitError as exc:
        queue.put({"status": "error", "detail": str(exc)})
    except Exception as exc:  # a crash of the backend: report it, do not stop the comparison
        queue.put({"status": "crash", "detail": f"{type(exc).__name__}: {exc}"})


def run_one(spec: str, backend: str, limits: Limits) -> dict[str, Any]:
    """Run one solve in a fresh process with a hard wall-clock limit."""
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    queue = ctx.Queue()
    process = ctx.Process(target=_worker, args=(spec, backend, limits, queue), daemon=True)
    process.start()
    wall = (limits.time_limit or DEFAULT_TIMEOUT_S) + GRACE_S
    deadline = time.monotonic() + wall
    result: dict[str, Any] | None = None
    while time.monotonic() < deadline:
        try:
            result = queue.get(timeout=0.05)
            break
        except Exception:  # queue.Empty: keep waiting unless the worker died
            if not process.is_alive() and queue.empty():
                break
    if result is None:
        if process.is_alive():
            process.kill()
            process.join()
            return {"status": "timeout", "detail": f"no answer within {wall:.0f} s"}
        process.join()
        code = process.exitcode
        return {"status": "crash", "detail": f"worker exited with code {code}"}
    process.join(timeout=5)
    return result


def compare(specs: list[str], backends: list[str], limits: Limits, repeat: int,
            on_row: Any = None) -> list[Row]:
    """All rows, with agreement filled in per spec."""
    rows: list[Row] = []
    total = len(specs) * len(backends) * repeat
    done = 0
    for spec in specs:
        spec_rows = []
        for backend in backends:
            runs = []
            for _ in range(repeat):
                runs.append(run_one(spec, backend, limits))
                done += 1
                _progress(done, total)
            row = _summarise(spec, backend, runs)
            spec_rows.append(row)
        _agreement(spec_rows)
        for row in spec_rows:
            rows.append(row)
            if on_row is not None:
                on_row(row)
    if total and sys.stderr.isatty():
        print(file=sys.stderr)
    return rows


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        width = 30
        filled = width * done // total
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} runs",
              end="", file=sys.stderr, flush=True)


def _summarise(spec: str, backend: str, runs: list[dict[str, Any]]) -> Row:
    times = [r["time_s"] for r in runs if r.get("time_s") is not None]
    statuses = {r["status"] for r in runs}
    status = runs[0]["status"] if len(statuses) == 1 else "/".join(sorted(statuses))
    first = runs[0]
    return Row(spec=spec, backend=backend, status=status, length=first.get("length"),
               optimal=first.get("optimal"),
               time_s=statistics.median(times) if times else None,
               time_min_s=min(times) if times else None,
               time_max_s=max(times) if times else None,
               peak_mb=max((r.get("peak_mb") or 0.0) for r in runs) or None,
               detail=first.get("detail") or "")


def _agreement(rows: list[Row]) -> None:
    decided = [r for r in rows if r.status in ("solved", "unsolvable")]
    statuses = {r.status for r in decided}
    lengths = {r.length for r in decided if r.status == "solved" and r.optimal}
    agree = len(statuses) <= 1 and len(lengths) <= 1
    for row in rows:
        row.agrees = agree if row in decided and len(decided) > 1 else None


def _table(rows: list[Row]) -> str:
    headers = ["spec", "backend", "status", "length", "median s", "min-max s", "peak MB",
               "agrees"]
    lines = [[r.spec, r.backend, r.status, "" if r.length is None else str(r.length),
              "" if r.time_s is None else f"{r.time_s:.3f}",
              "" if r.time_min_s is None else f"{r.time_min_s:.3f}-{r.time_max_s:.3f}",
              "" if r.peak_mb is None else f"{r.peak_mb:.0f}",
              {True: "yes", False: "NO", None: "-"}[r.agrees]] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    table = [fmt.format(*headers), fmt.format(*("-" * w for w in widths)),
             *(fmt.format(*line) for line in lines)]
    return "\n".join(line.rstrip() for line in table)


def _csv(rows: list[Row]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(asdict(rows[0])) if rows else ["spec"])
    writer.writeheader()
    for row in rows:
        writer.writerow(asdict(row))
    return buffer.getvalue()


def run_compare(args: argparse.Namespace) -> int:
    """The ``compare`` command: returns the exit code (4 when backends disagree)."""
    from trailkit.solvers.registry import get_backend

    specs = [str(p) for p in find_specs(args.specs)]
    if not specs:
        raise TrailkitError("no specs to compare")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for name in backends:
        get_backend(name)  # unknown names fail before any run, listing the known ones
    limits = Limits(time_limit=args.time_limit, work_limit=args.work_limit,
                    workers=args.workers, seed=args.seed)
    rows = compare(specs, backends, limits, args.repeat)
    if args.json:
        text = json.dumps([asdict(r) for r in rows], indent=1) + "\n"
    elif args.csv:
        text = _csv(rows)
    else:
        text = _table(rows) + "\n"
    if args.out:
        atomic_write(args.out, text)
    else:
        sys.stdout.write(text)
    if args.plot:
        from trailkit.solvers.plots import cactus_plot

        cactus_plot(rows, args.plot)
    return 4 if any(r.agrees is False for r in rows) else 0
