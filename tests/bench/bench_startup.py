"""Benchmark: how long ``trailkit`` takes to start, against Python importing what it needs.

Run on demand: ``python tests/bench/bench_startup.py`` (``--runs 15`` for steadier
medians). Two pairs, each command and its yardstick started in turn (A B A B ...) as
fresh processes, so that a machine whose speed drifts slows both alike:

* ``trailkit --version`` against ``python -c "import yaml"`` (target: within 2x);
* ``trailkit solve specs/nikolaus.yaml`` against ``python -c "import yaml, numpy"``
  (target: within 1.5x).

Printed per command: the median CPU (user + system) and wall seconds of its runs, and
the median of the per-pair ratios command / yardstick. CPU is the steadier figure on a
shared machine. The targets are issue 30's; nothing here passes or fails.

The children run with Python's bytecode cache (``__pycache__``), as an installed
trailkit does: ``PYTHONDONTWRITEBYTECODE`` is removed from their environment, else
every start would compile trailkit's sixty-odd modules from source again (about a
third more CPU for ``solve``). ``--keep-env`` keeps the variable as it is set (a cache
already written is still read).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRAILKIT = str(Path(sys.executable).with_name("trailkit"))

#: (command, yardstick, target ratio)
PAIRS: tuple[tuple[list[str], list[str], float], ...] = (
    ([TRAILKIT, "--version"], [sys.executable, "-c", "import yaml"], 2.0),
    ([TRAILKIT, "solve", "specs/nikolaus.yaml"], [sys.executable, "-c", "import yaml, numpy"],
     1.5),
)


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU and wall seconds of one fresh process running ``command`` (output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, env=env,
                          stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def compare(command: list[str], yardstick: list[str], runs: int,
            env: dict[str, str]) -> dict[str, float]:
    """Run the two in turn ``runs`` times (after one warm-up each): the medians."""
    run_once(command, env)
    run_once(yardstick, env)
    a_cpu, a_wall, b_cpu, b_wall, cpu_ratio, wall_ratio = [], [], [], [], [], []
    for _ in range(runs):
        ac, aw = run_once(command, env)
        bc, bw = run_once(yardstick, env)
        a_cpu.append(ac)
        a_wall.append(aw)
        b_cpu.append(bc)
        b_wall.append(bw)
        cpu_ratio.append(ac / bc if bc else float("inf"))
        wall_ratio.append(aw / bw)
    med = statistics.median
    return {"cpu": med(a_cpu), "wall": med(a_wall), "base_cpu": med(b_cpu),
            "base_wall": med(b_wall), "cpu_ratio": med(cpu_ratio),
            "wall_ratio": med(wall_ratio)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9,
                        help="pairs of fresh processes per command (at least 7; default 9)")
    parser.add_argument("--keep-env", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE as set (no bytecode cache written)")
    args = parser.parse_args()
    runs = max(7, args.runs)
    env = dict(os.environ)
    if not args.keep_env:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    cache = "not written" if env.get("PYTHONDONTWRITEBYTECODE") else "written"
    print(f"{runs} runs each, in turn with the yardstick; bytecode cache {cache}; load "
          f"average {os.getloadavg()[0]:.2f}; medians")
    print(f"{'command':<40} {'cpu s':>7} {'wall s':>7}   {'yardstick':<34} {'cpu s':>7} "
          f"{'wall s':>7}  {'cpu x':>6} {'wall x':>6} {'target':>6}")
    for command, yardstick, target in PAIRS:
        m = compare(command, yardstick, runs, env)
        name = " ".join(["trailkit", *command[1:]])
        base = "python " + " ".join(f'"{w}"' if " " in w else w for w in yardstick[1:])
        print(f"{name:<40} {m['cpu']:7.3f} {m['wall']:7.3f}   {base:<34} {m['base_cpu']:7.3f} "
              f"{m['base_wall']:7.3f}  {m['cpu_ratio']:6.2f} {m['wall_ratio']:6.2f} "
              f"{target:6.1f}")


if __name__ == "__main__":
    main()
