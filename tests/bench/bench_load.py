"""Benchmark: loading big specs, inline YAML edges against the ``edges_file`` fast path.

Run on demand: ``python tests/bench/bench_load.py --sizes 10000,100000,1000000``.
Each measurement runs in a fresh process (median of ``--repeat``); peak memory is the
child's maximum resident set size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import resource, sys, time
from trailkit.models.spec import load_spec
from trailkit.solvers.pipeline import solve
t0 = time.perf_counter()
p = load_spec(sys.argv[1])
t1 = time.perf_counter()
a = solve(p)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, a.status.value, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def eulerian_edges(m: int, n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random closed walk of ``m`` steps over ``n`` nodes: its edges form an Eulerian graph."""
    walk = [rng.randrange(n) for _ in range(m)]
    return [(walk[i], walk[(i + 1) % m]) for i in range(m)]


def write_specs(folder: Path, m: int) -> tuple[Path, Path]:
    edges = eulerian_edges(m, max(3, m // 1000), random.Random(m))
    lines = [f"v{u} v{v}" for u, v in edges]
    (folder / "edges.txt").write_text("\n".join(lines) + "\n")
    side = folder / "side.yaml"
    side.write_text("trailkit: 1\nkind: trail\nclosed: true\nedges_file: edges.txt\n")
    inline = folder / "inline.yaml"
    inline.write_text("trailkit: 1\nkind: trail\nclosed: true\nedges:\n"
                      + "".join(f"  - {line}\n" for line in lines))
    return inline, side


def measure(spec: Path, repeat: int) -> tuple[float, float, str, float]:
    loads, solves, peaks, status = [], [], [], ""
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", CHILD, str(spec)], check=True,
                             capture_output=True, text=True).stdout.split()
        loads.append(float(out[0]))
        solves.append(float(out[1]))
        status = out[2]
        peaks.append(int(out[3]) / 1024)
    return statistics.median(loads), statistics.median(solves), status, max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'edges':>9} {'form':<12} {'load s':>8} {'solve s':>8} {'status':<8} {'peak MB':>8}")
    for m in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            inline, side = write_specs(Path(tmp), m)
            for label, spec in (("yaml inline", inline), ("edges_file", side)):
                load, solve, status, peak = measure(spec, args.repeat)
                print(f"{m:>9} {label:<12} {load:>8.3f} {solve:>8.3f} {status:<8} {peak:>8.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
