"""Benchmark: the transition encoding against the position encoding and CP-SAT.

Run: ``python tests/bench/bench_transition.py [--sizes 1000,10000] [--time-limit 120]
[--memory-limit 4096] [--out DIR]``. It writes random Eulerian multigraphs (a closed
random walk of ``m`` steps on ``m / 10`` nodes, so about 20 edge ends per node; the
edges in an ``edges_file``) as closed-trail specs, then runs ``trailkit compare`` on
them with ``sat/transition``, ``sat/position`` and ``cpsat``, one run
each, every run in its own worker process with the time and memory limits (the
``peak MB`` column is the worker's peak resident memory). The position encoding and
the CP-SAT circuit model estimate their size first and answer ``unknown`` with the
estimate when it is over the memory limit.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

BACKENDS = "sat/transition,sat/position,cpsat"  # plain sat picks by the estimates


def write_spec(folder: Path, m: int, seed: int) -> Path:
    """A closed random walk of ``m`` steps on ``m // 10`` nodes, as a trail spec."""
    rng = random.Random(seed)
    n = max(3, m // 10)
    walk = [rng.randrange(n) for _ in range(m)]
    lines = [f"v{walk[i]} v{walk[(i + 1) % m]}" for i in range(m)]
    rng.shuffle(lines)
    here = folder / f"eulerian-{m}"
    here.mkdir(parents=True, exist_ok=True)
    (here / "edges.txt").write_text("\n".join(lines) + "\n")
    spec = here / f"eulerian-{m}.yaml"
    spec.write_text(f"trailkit: 1\nname: random Eulerian multigraph, {m} edges, {n} nodes\n"
                    "kind: trail\nclosed: true\nedges_file: edges.txt\n")
    return spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--time-limit", default="120")
    parser.add_argument("--memory-limit", default="4096")
    parser.add_argument("--backends", default=BACKENDS)
    parser.add_argument("--out", default=None, help="folder for the specs (default: a temp)")
    args = parser.parse_args()
    folder = Path(args.out or tempfile.mkdtemp(prefix="trailkit-bench-"))
    specs = [str(write_spec(folder, int(m), seed=m)) for m in args.sizes.split(",")]
    command = [sys.executable, "-m", "trailkit.solvers.frontends.cli", "compare", *specs,
               "--backends", args.backends, "--time-limit", args.time_limit,
               "--memory-limit", args.memory_limit]
    print("$ trailkit " + " ".join(command[3:]), flush=True)
    sys.exit(subprocess.call(command))


if __name__ == "__main__":
    main()
