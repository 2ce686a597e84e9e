"""Benchmark: plain ``sat`` on dense multigraph Euler trails, against direct in the same run.

Run: ``python tests/bench/bench_dense_trail.py [--sizes 200:10,1000:32,10000:100] [--repeat 3]
[--seed 1] [--backends sat,direct,sat/position] [--time-limit 120] [--out DIR] [--proofs]``.

It writes, for each ``EDGES:NODES``, a closed random Eulerian multigraph: a closed
random walk of EDGES steps on NODES nodes, each edge written in a random direction (a
walk written along its own direction is already balanced tail to head, which a SAT
solver's default phases would find for free), the lines shuffled, in an
``edges_file``; 1,000 edges on 32 nodes have about 62 edge ends per node and bundles
of up to 8 parallel edges. Then it runs ``trailkit solve SPEC --backend B --json`` in a
fresh process per run (the command line's defaults otherwise: the pre-check, the
cross-check by direct, the 4,096 MB memory budget) and reports per spec and backend
the median wall time of ``--repeat`` runs, the largest peak resident memory (the
process and the solver child it forks, from ``os.wait4``), the status, the encoding
the answer names, and the ratio to direct's median in the same run. ``sat/position``
runs only where its estimate fits the memory budget (elsewhere it would answer
``unknown`` at once): of the default sizes, only on 200 edges on 10 nodes. The
targets for plain ``sat`` are checked at the end: 1,000 edges on 32 nodes under 5 s,
10,000 on 100 under 60 s, each under 2 GB.

``--proofs`` also refutes, in this process, closed mixed multigraphs whose two halves
no orientation can balance (:func:`hidden_cut`: no structural certificate applies, the
SAT solver must count) with ``sat/transition``, once with the bundle order clauses of
:mod:`trailkit.models.formulas.parallel_edges` and once without them, and prints the times and
DRUP proof sizes side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trailkit.models.encodings.sizes import position_size
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits

TARGETS = {(1000, 32): 5.0, (10000, 100): 60.0}
"""Seconds plain ``sat`` may take, per (edges, nodes)."""
TARGET_MB = 2048
"""Peak memory plain ``sat`` may take, in MB."""


def write_spec(folder: Path, m: int, n: int, seed: int) -> Path:
    """The closed random Eulerian multigraph of ``m`` edges on ``n`` nodes (see above)."""
    rng = random.Random(seed * 1_000_003 + m)
    walk = [rng.randrange(n) for _ in range(m)]
    lines = []
    for i in range(m):
        u, v = f"v{walk[i]}", f"v{walk[(i + 1) % m]}"
        lines.append(f"{v} {u}" if rng.random() < 0.5 else f"{u} {v}")
    rng.shuffle(lines)
    here = folder / f"dense-{m}-{n}"
    here.mkdir(parents=True, exist_ok=True)
    (here / "edges.txt").write_text("\n".join(lines) + "\n")
    spec = here / f"dense-{m}-{n}.yaml"
    spec.write_text(f"trailkit: 1\nname: closed random Eulerian multigraph, {m} edges, {n} "
                    f"nodes, seed {seed}\nkind: trail\nclosed: true\nedges_file: edges.txt\n")
    return spec


def run_once(spec: Path, backend: str, time_limit: str) -> dict[str, object]:
    """One ``trailkit solve --json`` in a fresh process: wall time, peak MB, the answer."""
    command = [sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve", str(spec),
               "--backend",
               backend, "--json", "--time-limit", time_limit]
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)  # the child and the solver it forks
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    try:
        answer = json.loads(text)
    except ValueError:
        answer = {"status": f"exit {process.returncode}"}
    return {"wall": wall, "peak_mb": usage.ru_maxrss / 1024, "status": answer.get("status"),
            "encoding": answer.get("encoding") or "-", "exit": process.returncode}


def measure(spec: Path, m: int, backends: list[str], repeat: int, time_limit: str
            ) -> list[dict[str, object]]:
    """One row per backend: median and range of the wall times, the largest peak, the
    statuses, the encoding, and the ratio to direct's median."""
    position_mb = position_size(load_spec(spec), m).megabytes()
    rows: list[dict[str, object]] = []
    for backend in backends:
        row: dict[str, object] = {"backend": backend}
        rows.append(row)
        if backend.endswith("/position") and position_mb > DEFAULT_MEMORY_MB:
            row["status"] = f"not run: estimate {position_mb:,.0f} MB"
            continue
        runs = [run_once(spec, backend, time_limit) for _ in range(repeat)]
        walls = [float(r["wall"]) for r in runs]  # type: ignore[arg-type]
        row.update(status="/".join(sorted({str(r["status"]) for r in runs})),
                   encoding=runs[0]["encoding"], median=statistics.median(walls),
                   low=min(walls), high=max(walls),
                   peak=max(float(r["peak_mb"]) for r in runs))  # type: ignore[arg-type]
        print(f"  {spec.name} {backend}: {row['status']} in {row['median']:.2f} s",
              file=sys.stderr, flush=True)
    peer = next((r.get("median") for r in rows if r["backend"] == "direct"), None)
    for row in rows:
        if peer and "median" in row:
            row["ratio"] = float(row["median"]) / float(peer)  # type: ignore[arg-type]
    return rows


def hidden_cut(k: int, one_way: int, inside: int, seed: int) -> Puzzle:
    """Halves S and T of ``k`` nodes: each node of S sends ``one_way`` one-way edges into
    T, each node has about ``inside`` two-way edges inside its half, and ``k * one_way
    // 2`` two-way edges join the halves (parity fixed inside each half). Every node
    alone can balance; the cut cannot (more one-way edges leave S than two-way edges
    could bring back)."""
    rng = random.Random(seed)
    halves = ([f"s{i}" for i in range(k)], [f"t{i}" for i in range(k)])
    edges: list[tuple[str, str]] = []
    directed: list[bool] = []

    def add(u: str, v: str, one: bool) -> None:
        edges.append((u, v) if one or rng.random() < 0.5 else (v, u))
        directed.append(one)

    for s in halves[0]:
        for _ in range(one_way):
            add(s, rng.choice(halves[1]), True)
    for half in halves:
        for i, x in enumerate(half):
            for _ in range(inside // 2):
                add(x, half[(i + 1 + rng.randrange(k - 1)) % k], False)
    for _ in range(k * one_way // 2):
        add(rng.choice(halves[0]), rng.choice(halves[1]), False)
    degree: dict[str, int] = {}
    for u, v in edges:
        degree[u], degree[v] = degree.get(u, 0) + 1, degree.get(v, 0) + 1
    for half in halves:
        odd = [x for x in half if degree.get(x, 0) % 2]
        for a, b in zip(odd[::2], odd[1::2], strict=True):
            add(a, b, False)
    order = list(range(len(edges)))
    rng.shuffle(order)
    return Puzzle.build(kind="walk", edges=[edges[i] for i in order],
                        directed=[directed[i] for i in order], closed=True)


def proofs(time_limit: float) -> None:
    """The hidden-cut refutations with and without the order clauses (see above)."""
    from trailkit.models.formulas import transition_encoding
    from trailkit.solvers.backends.sat import SatBackend

    print("\nrefutations by sat/transition, with and without the bundle order clauses")
    print(f"{'halves':>6}  {'edges':>5}  {'order':<7}  {'status':<10}  {'s':>6}  {'lemmas':>8}")
    keep = transition_encoding.order_clauses
    for k, one_way, inside in ((8, 6, 14), (10, 6, 14), (12, 8, 16)):
        puzzle = hidden_cut(k, one_way, inside, 1)
        for on in (True, False):
            transition_encoding.order_clauses = keep if on else (lambda p, f: [])
            started = time.perf_counter()
            answer = SatBackend("/transition").solve(puzzle, Limits(time_limit=time_limit))
            took = time.perf_counter() - started
            lemmas = answer.certificate.data["proof_lemmas"] if answer.certificate else "-"
            print(f"{k:>6}  {puzzle.num_edges:>5}  {'on' if on else 'off':<7}  "
                  f"{answer.status.value:<10}  {took:6.2f}  {lemmas:>8}", flush=True)
    transition_encoding.order_clauses = keep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200:10,1000:32,10000:100", help="EDGES:NODES,...")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", default="sat,direct,sat/position")
    parser.add_argument("--time-limit", default="120")
    parser.add_argument("--out", default=None, help="folder for the specs (default: a temp)")
    parser.add_argument("--proofs", action="store_true",
                        help="also the refutations with and without the order clauses")
    args = parser.parse_args()
    folder = Path(args.out or tempfile.mkdtemp(prefix="trailkit-dense-"))
    heads = ("edges", "nodes", "backend", "status", "encoding", "median s", "range s",
             "peak MB", "x direct")
    table = [heads]
    verdicts = []
    for size in args.sizes.split(","):
        m, n = (int(x) for x in size.split(":"))
        spec = write_spec(folder, m, n, args.seed)
        for row in measure(spec, m, args.backends.split(","), args.repeat, args.time_limit):
            timed = "median" in row
            table.append((f"{m:,}", str(n), str(row["backend"]), str(row["status"]),
                          str(row.get("encoding", "-")),
                          f"{row['median']:.2f}" if timed else "-",
                          f"{row['low']:.2f}-{row['high']:.2f}" if timed else "-",
                          f"{row['peak']:,.0f}" if timed else "-",
                          f"{row['ratio']:.1f}" if "ratio" in row else "-"))
            limit = TARGETS.get((m, n))
            if row["backend"] == "sat" and limit is not None and timed:
                ok = (row["status"] == "solved" and float(row["median"]) < limit  # type: ignore[arg-type]
                      and float(row["peak"]) < TARGET_MB)  # type: ignore[arg-type]
                verdicts.append(f"target: sat on {m:,} edges, {n} nodes under {limit:.0f} s "
                                f"and {TARGET_MB:,} MB: {'met' if ok else 'MISSED'}")
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]
    print(f"$ python tests/bench/bench_dense_trail.py --sizes {args.sizes} --repeat "
          f"{args.repeat} --seed {args.seed}   (specs in {folder})")
    for row in table:
        print("  ".join(cell.rjust(w) if k in (0, 1, 5, 6, 7, 8) else cell.ljust(w)
                        for k, (cell, w) in enumerate(zip(row, widths, strict=True))))
    print("\n".join(verdicts))
    if args.proofs:
        proofs(float(args.time_limit))


if __name__ == "__main__":
    main()
