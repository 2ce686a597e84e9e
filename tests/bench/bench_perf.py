"""Benchmark: trailkit's direct kernels against NetworkX and a plain C Hierholzer, and
the exact counts of K9 and the double-eight domino set (run on demand).

    python tests/bench/bench_perf.py                      # everything, NetworkX once
    python tests/bench/bench_perf.py --repeat 3 --nx-repeat 3
    python tests/bench/bench_perf.py --only dense,k9 --no-networkx

Instances (the foundation issue's, generated with fixed seeds):

* ``dense``: a random Eulerian multigraph, 10^6 edges on 1,000 nodes (one random
  closed walk, its steps shuffled; loops and parallel edges included);
* ``sparse``: the same on 500,000 nodes;
* ``colour``: 10^6 random coloured planks on 333,333 tyres, red → blue → green,
  shortest walk from tyre 0 to the last one (``bench_colour_walk.random_puzzle``);
* ``k9``, ``double-eight``: ``count_euler_circuits`` on K9 and on K9 plus a loop at
  every node (the dominoes 0-0 .. 8-8).

Columns: ``direct`` is trailkit's solve on the Puzzle that today's spec reader
builds (edge lists; turning them into arrays included), median of ``--repeat``
runs after one warm-up call on the same instance; ``cold`` is that first call in
a fresh process (Numba's import and cached machine code included); ``arrays`` is
the solve on a Puzzle holding NumPy arrays (what the fast reader will hand over).
``networkx`` is ``eulerian_circuit`` on a ``MultiGraph`` (building included) or
``shortest_path`` on the (tyre, last colour) product graph. ``C`` is
``tests/bench/hierholzer.c`` (compiled here with ``cc -O2``), parse of the same
edges as a text file included. Every measurement runs in its own process; ``MiB``
is its peak resident set beyond what generating the input took (C: its whole
peak). Ratios are of medians measured in this same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZE = 10**6
NODES = {"dense": 1000, "sparse": 500_000}
K9_CIRCUITS = 911_520_057_021_235_200  # OEIS A135388
DOUBLE_EIGHT = 10_752_728_122_249_860_612_096_000  # lines of the whole set (Tarry 1886)
INSTANCES = ("dense", "sparse", "colour", "k9", "double-eight")


# ----------------------------------------------------------------- workers
def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _euler_puzzle(shape: str, arrays: bool) -> Any:
    import numpy as np
    from bench_direct import eulerian_edges

    from trailkit.models.puzzle import Puzzle

    n = NODES[shape]
    edges = eulerian_edges(SIZE, n, 0)
    tail, head = [u for u, _ in edges], [v for _, v in edges]
    if arrays:
        tail, head = np.array(tail), np.array(head)
    return Puzzle(kind="trail", nodes=tuple(map(str, range(n))), tail=tail, head=head,
                  closed=True)


def _complete(n: int, loops: bool) -> Any:
    from trailkit.models.puzzle import Puzzle

    return Puzzle.build(kind="domino-chain" if loops else "trail", closed=True,
                        edges=[(str(a), str(b)) for a in range(n)
                               for b in range(a if loops else a + 1, n)])


def worker(job: dict[str, Any]) -> dict[str, Any]:
    """One method on one instance in this process: ``cold`` first call, then ``runs``."""
    instance, method = job["instance"], job["method"]
    if instance in NODES and method == "networkx":
        import networkx as nx
        from bench_direct import eulerian_edges

        edges = eulerian_edges(SIZE, NODES[instance], 0)

        def run() -> Any:
            graph = nx.MultiGraph()
            graph.add_edges_from(edges)
            return len(list(nx.eulerian_circuit(graph, keys=True)))
    elif instance in NODES:
        from trailkit.solvers.backends.base import Limits
        from trailkit.solvers.backends.direct.euler import solve_euler

        puzzle = _euler_puzzle(instance, method == "arrays")

        def run() -> Any:
            answer = solve_euler(puzzle, Limits())
            return None if answer.walk is None else len(answer.walk)
    elif instance == "colour":
        from bench_colour_walk import networkx_length, random_puzzle

        puzzle = random_puzzle(SIZE)
        if method == "networkx":
            def run() -> Any:
                return networkx_length(puzzle)
        else:
            from trailkit.solvers.backends.base import Limits
            from trailkit.solvers.backends.direct.reachability import solve_reusable

            def run() -> Any:
                answer = solve_reusable(puzzle, Limits())
                return None if answer.walk is None else len(answer.walk)
    else:
        from trailkit.solvers.backends.direct.exact_count import count_euler_circuits

        puzzle = _complete(9, instance == "double-eight")

        def run() -> Any:
            return str(count_euler_circuits(puzzle) * (puzzle.num_edges
                                                       if instance == "double-eight" else 1))
    base = _maxrss_mib()
    times = []
    result = None
    for _ in range(job["runs"] + (method != "networkx")):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    cold = times.pop(0) if method != "networkx" else None
    return {"cold": cold, "times": times, "result": result, "mib": _maxrss_mib() - base}


def measure(job: dict[str, Any]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(job)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def measure_c(binary: Path, shape: str, folder: Path, runs: int) -> dict[str, Any]:
    """The C reference on the instance written as text: its own clock, its peak RSS."""
    from bench_direct import eulerian_edges

    path = folder / f"{shape}.txt"
    if not path.exists():
        edges = eulerian_edges(SIZE, NODES[shape], 0)
        path.write_text(f"{NODES[shape]} {len(edges)}\n"
                        + "".join(f"{u} {v}\n" for u, v in edges))
    times, peak, steps = [], 0.0, 0
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _C_RUNNER, str(binary), str(path)],
                              check=True, capture_output=True, text=True)
        steps, seconds, mib = done.stdout.split()
        times.append(float(seconds))
        peak = max(peak, float(mib))
    return {"times": times, "result": int(steps), "mib": peak}


_C_RUNNER = """
import resource, subprocess, sys
out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True).stdout.split()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(out[0], out[1], peak)
"""


# -------------------------------------------------------------------- main
def _cell(value: float | None, fmt: str = "{:.3f}") -> str:
    return "-" if value is None else fmt.format(value)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of trailkit and C")
    parser.add_argument("--nx-repeat", type=int, default=1, help="timed runs of NetworkX")
    parser.add_argument("--no-networkx", action="store_true", help="leave NetworkX out")
    parser.add_argument("--only", default=",".join(INSTANCES), help="instances, comma separated")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    only = args.only.split(",")
    folder = Path(tempfile.mkdtemp(prefix="trailkit-bench-"))
    binary = folder / "hierholzer"
    cc = shutil.which("cc")
    if cc is not None:
        subprocess.run([cc, "-O2", "-o", str(binary), str(HERE / "hierholzer.c")], check=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; medians of {args.repeat} "
          f"(NetworkX: {args.nx_repeat}); seconds")
    header = (f"{'instance':<14}{'direct':>8}{'cold':>8}{'arrays':>8}{'networkx':>10}"
              f"{'C':>8}{'direct/C':>10}{'arrays/C':>10}{'nx/direct':>10}{'MiB':>7}"
              f"{'nx MiB':>8}{'C MiB':>7}  result")
    print(header)
    print("-" * len(header))
    try:
        for instance in only:
            row: dict[str, Any] = {}
            direct = measure({"instance": instance, "method": "direct", "runs": args.repeat})
            row["direct"] = statistics.median(direct["times"])
            arrays = nx = c = None
            if instance in NODES:
                arrays = measure({"instance": instance, "method": "arrays",
                                  "runs": args.repeat})
                if cc is not None:
                    c = measure_c(binary, instance, folder, args.repeat)
            if (instance in NODES or instance == "colour") and not args.no_networkx:
                nx = measure({"instance": instance, "method": "networkx",
                              "runs": args.nx_repeat})
            med = {name: None if r is None else statistics.median(r["times"])
                   for name, r in (("arrays", arrays), ("nx", nx), ("c", c))}
            result = direct["result"]
            if instance == "k9":
                result = f"{int(result):,} circuits" + ("" if int(result) == K9_CIRCUITS
                                                         else " WRONG")
            elif instance == "double-eight":
                result = f"{int(result):,} lines" + ("" if int(result) == DOUBLE_EIGHT
                                                     else " WRONG")
            else:
                agree = all(r is None or r["result"] == direct["result"]
                            for r in (arrays, nx, c))
                result = f"{result:,} steps" + ("" if agree else " DISAGREE")
            print(f"{instance:<14}{_cell(row['direct']):>8}{_cell(direct['cold']):>8}"
                  f"{_cell(med['arrays']):>8}{_cell(med['nx']):>10}{_cell(med['c']):>8}"
                  f"{_cell(med['c'] and row['direct'] / med['c'], '{:.1f}x'):>10}"
                  f"{_cell(med['c'] and med['arrays'] and med['arrays'] / med['c'], '{:.1f}x'):>10}"
                  f"{_cell(med['nx'] and med['nx'] / row['direct'], '{:.0f}x'):>10}"
                  f"{_cell(direct['mib'], '{:.0f}'):>7}"
                  f"{_cell(nx and nx['mib'], '{:.0f}'):>8}"
                  f"{_cell(c and c['mib'], '{:.0f}'):>7}  {result}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
