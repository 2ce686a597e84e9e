"""What a campaign costs beyond its runs (a plain script; ratios measured in one run).

    nice python tests/bench/bench_campaign.py [--runs 1000] [--rerun-runs 3000]
                                              [--cluster-runs 8] [--run-s 2]

1. **Harness per run**: ``--runs`` runs of the 10-edge spec ``small-trail-10-yes`` with
   ``direct`` (``--repeat``), one worker, into a fresh file: the campaign's wall time per
   run minus the run's own solve time (measured in the child), that is fork, reading
   the spec, the pipe, reaping, and the row written. Target: at most 20 ms.
2. **A finished campaign, rerun**: a file holding ``--rerun-runs`` finished runs (the
   corpus ``specs/bench`` under enough repeats, rows written as a campaign writes them),
   the same campaign again: no run may start; the library's time, and the whole
   ``trailkit compare ... --db`` command's (interpreter and imports included). Target:
   under 1 s.
3. **Cluster against local workers**: ``--cluster-runs`` CPU-bound runs (``direct`` on
   ``hard-balanced-12-no``, which runs to its ``--run-s`` limit), with ``--jobs 2`` and
   with ``--cluster local:2``, each as the whole command; also the cluster's time
   without starting it. Target: within 15%.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.campaigns.campaign import _record, run_campaign
from trailkit.solvers.campaigns.plan import options_json, plan, spec_sha256
from trailkit.solvers.campaigns.store import open_store
from trailkit.solvers.support.specfiles import find_specs

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "specs" / "bench"
TRAILKIT = [sys.executable, "-m", "trailkit.solvers.frontends.cli"]


def harness(runs: int, folder: Path) -> None:
    spec = str(BENCH / "small-trail-10-yes.yaml")
    store = open_store(folder / "harness.sqlite")
    started = time.perf_counter()
    done = run_campaign(store, [spec], ["direct"], Limits(), runs)
    wall = time.perf_counter() - started
    rows = store.rows()
    store.close()
    solve = sum(r["solve_s"] for r in rows) / len(rows)
    child = sum(r["wall_s"] for r in rows) / len(rows)
    per_run = wall / done.runs_done
    print(f"harness: {done.runs_done} runs of small-trail-10-yes (direct) in {wall:.2f} s: "
          f"{per_run * 1000:.1f} ms per run, of which the solve {solve * 1000:.1f} ms; "
          f"harness {(per_run - solve) * 1000:.1f} ms per run (target <= 20 ms; fork to "
          f"reap {(child - solve) * 1000:.1f} ms, the rest the row and the loop)")


def rerun(runs: int, folder: Path) -> None:
    specs = [str(p) for p in find_specs([BENCH])]
    backends = ["direct", "cpsat"]
    repeat = max(1, runs // (len(specs) * len(backends)))
    db = folder / "rerun.sqlite"
    store = open_store(db)
    limits = Limits(time_limit=60.0, memory_mb=DEFAULT_MEMORY_MB)  # as the command's
    keys = plan(specs, backends, options_json(limits, precheck=True), repeat,
                {s: spec_sha256(s) for s in specs})
    for key in keys:  # as a campaign writes them, without running anything
        store.write(_record(key, {"status": "solved", "wall_s": 0.1, "cpu_s": 0.1,
                                  "time_s": 0.05, "length": 3}, 60.0))

    def refuse(*_: object) -> None:
        raise AssertionError("a finished campaign started a run")

    started = time.perf_counter()
    done = run_campaign(store, specs, backends, limits, repeat, execute=refuse)
    library = time.perf_counter() - started
    store.close()
    command = [*TRAILKIT, "compare", str(BENCH), "--backends", ",".join(backends),
               "--repeat", str(repeat), "--time-limit", "60", "--db", str(db)]
    started = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    whole = time.perf_counter() - started
    started = time.perf_counter()
    subprocess.run([*TRAILKIT, "--version"], capture_output=True, check=True)
    bare = time.perf_counter() - started
    assert "0 run(s) written" in out.stderr, out.stderr
    print(f"rerun: a finished campaign of {len(keys)} runs: {done.runs_started} started; "
          f"library {library:.3f} s, the whole command {whole:.2f} s of which "
          f"'trailkit --version' alone takes {bare:.2f} s (target < 1 s)")


def cluster(runs: int, run_s: float) -> None:
    spec = str(BENCH / "hard-balanced-12-no.yaml")
    base = [*TRAILKIT, "compare", spec, "--backends", "direct", "--repeat", str(runs),
            "--time-limit", str(run_s)]
    times = {}
    for name, extra in (("--jobs 2", ["--jobs", "2"]), ("--cluster local:2",
                                                         ["--cluster", "local:2"])):
        started = time.perf_counter()
        subprocess.run([*base, *extra], capture_output=True, check=True)
        times[name] = time.perf_counter() - started
    from trailkit.solvers.campaigns.cluster import connect

    with connect("local:2") as dask:
        execute = dask.executor(Limits(time_limit=run_s), memory_mb=None, precheck=True)
        store = open_store(":memory:")
        started = time.perf_counter()
        run_campaign(store, [spec], ["direct"], Limits(time_limit=run_s), runs,
                     execute=execute)
        runs_only = time.perf_counter() - started
    ratio = times["--cluster local:2"] / times["--jobs 2"]
    print(f"cluster: {runs} runs of {run_s:g} s: --jobs 2 {times['--jobs 2']:.2f} s, "
          f"--cluster local:2 {times['--cluster local:2']:.2f} s (ratio {ratio:.2f}, target "
          f"<= 1.15), of which the runs on the started cluster {runs_only:.2f} s "
          f"(ratio {runs_only / times['--jobs 2']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rerun-runs", type=int, default=3000)
    parser.add_argument("--cluster-runs", type=int, default=8)
    parser.add_argument("--run-s", type=float, default=2.0)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        harness(args.runs, Path(folder))
        sys.stdout.flush()
        rerun(args.rerun_runs, Path(folder))
    sys.stdout.flush()
    cluster(args.cluster_runs, args.run_s)


if __name__ == "__main__":
    main()
