"""Hamiltonian cycles on random graphs near the threshold: trailkit's ``cpsat`` against a
plain CP-SAT ``AddCircuit`` script and LKH (the ``elkai`` package), peers in one run.

Run: ``python tests/bench/bench_circuit.py [N ...] [--seeds K] [--repeat R]`` (default
N = 100 200 500 1000, 3 seeds, 3 runs each; ``pip install elkai`` for the LKH column,
left out with a note when it is missing), or ``--hcp FILE ...`` for TSPLIB's HCP
instances (``alb1000.hcp`` ... ``alb5000.hcp``, read by trailkit's own HCP reader) in
place of the random graphs, with ``--time-limit S`` per run (default 60).

Each graph is G(n, m), simple and undirected, with m = n (ln n + ln ln n) / 2 edges, the
threshold where about half the graphs have a Hamiltonian cycle. What is timed:

* ``trailkit``: the ``cpsat`` backend alone (``CpSatBackend().solve``) on the puzzle
  ``Puzzle.build(edges, visit=every-once, use=at-most-once, closed=True)`` (a ``kind:
  tour``), model building and the decoding of the walk included; the puzzle is built
  before the clock starts (the spec reader is not what is measured here);
* ``plain``: the script the OR-Tools documentation suggests: one ``AddCircuit`` over both
  arcs of every edge, built and solved, CP-SAT's default parameters;
* ``plain-lin0``: the same script with ``linearization_level = 0``, the parameter
  trailkit's model sets when there is no objective (so the two compare model and
  overheads alone);
* ``LKH``: ``elkai.DistanceMatrix(...).solve_tsp(runs=1)`` on weights 1 for an edge and 2
  for a non-edge (a tour of weight n is a Hamiltonian cycle; LKH proves no absence), one
  run (it takes seconds where the others take fractions), the full matrix included.

With ``--min-degree 2`` only graphs whose every node has degree two or more are drawn
(about half of the threshold's graphs have a node of degree one, which both CP-SAT
columns refute at once: trailkit before building its model, the plain script in
presolve).

Every CP-SAT run has one worker, seed 0 and a time limit; the answers of the two CP-SAT
columns must agree (a disagreement stops the run). The table gives, per N, the median
over seeds of the median of the repeats, and the ratio trailkit / plain.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ortools.sat.python import cp_model

from trailkit.models.formats.hcp import parse_hcp
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.cpsat import CpSatBackend

TIME_LIMIT = 60.0
Graph = list[tuple[int, int]]


def random_graph(n: int, seed: int, min_degree: int = 0) -> Graph:
    """G(n, m) at the Hamiltonicity threshold, simple and undirected; with
    ``min_degree``, the first of the seed's draws whose every node has that degree."""
    m = round(n * (math.log(n) + math.log(math.log(n))) / 2)
    rng = random.Random(seed)
    while True:
        edges: set[tuple[int, int]] = set()
        while len(edges) < m:
            u, v = rng.sample(range(n), 2)
            edges.add((min(u, v), max(u, v)))
        degree = [0] * n
        for u, v in edges:
            degree[u] += 1
            degree[v] += 1
        if min(degree) >= min_degree:
            return sorted(edges)


def plain_script(n: int, edges: Graph, linearization: int | None = None) -> str:
    """The plain CP-SAT model: AddCircuit over both arcs of every edge (with CP-SAT's
    ``linearization_level`` when given)."""
    model = cp_model.CpModel()
    arcs = []
    for u, v in edges:
        arcs.append((u, v, model.new_bool_var(f"{u}_{v}")))
        arcs.append((v, u, model.new_bool_var(f"{v}_{u}")))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    if linearization is not None:
        solver.parameters.linearization_level = linearization
    status = solver.solve(model)
    return {cp_model.OPTIMAL: "solved", cp_model.FEASIBLE: "solved",
            cp_model.INFEASIBLE: "unsolvable"}.get(status, "unknown")


def trailkit_cpsat(puzzle: Puzzle) -> str:
    limits = Limits(time_limit=TIME_LIMIT, workers=1, seed=0)
    return CpSatBackend().solve(puzzle, limits).status.value


def lkh(n: int, edges: Graph) -> str:
    import elkai

    weight = [[2] * n for _ in range(n)]
    for u, v in edges:
        weight[u][v] = weight[v][u] = 1
    for v in range(n):
        weight[v][v] = 0
    tour = elkai.DistanceMatrix(weight).solve_tsp(runs=1)
    cost = sum(weight[a][b] for a, b in itertools.pairwise(tour))
    return "solved" if cost == n else "no tour found"


def timed(run: Callable[[], str], repeat: int) -> tuple[float, str]:
    times, answer = [], ""
    for _ in range(repeat):
        began = time.perf_counter()
        answer = run()
        times.append(time.perf_counter() - began)
    return statistics.median(times), answer


def hcp_graph(path: str) -> tuple[int, Graph]:
    """The nodes and edges (0-based) of the TSPLIB HCP file at ``path``."""
    graph = parse_hcp(Path(path).read_text(), path)
    return graph.dimension, [(u - 1, v - 1) for u, v in graph.edges]


def instances(args: argparse.Namespace) -> Iterator[tuple[str, int, int, Graph]]:
    """(size column, seed column, n, edges) of every graph the run times."""
    for path in args.hcp:
        n, edges = hcp_graph(path)
        yield Path(path).stem, 0, n, edges
    for n in [] if args.hcp else args.sizes:
        for seed in range(args.seeds):
            yield str(n), seed, n, random_graph(n, seed, args.min_degree)


def main() -> None:
    global TIME_LIMIT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 200, 500, 1000])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--min-degree", type=int, default=0,
                        help="draw again until every node has this degree (2: no graph "
                             "ruled out by a node of degree one)")
    parser.add_argument("--hcp", nargs="+", default=[], metavar="FILE",
                        help="TSPLIB HCP files in place of the random graphs")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT)
    args = parser.parse_args()
    TIME_LIMIT = args.time_limit
    try:
        import elkai  # noqa: F401
        peers = ["trailkit", "plain", "plain-lin0", "LKH"]
    except ImportError:
        print("(elkai is not installed: no LKH column; pip install elkai)")
        peers = ["trailkit", "plain", "plain-lin0"]
    print("| n | edges | seed | answers | " + " | ".join(f"{p} s" for p in peers) + " |")
    print("|---|---|---|---|" + "---|" * len(peers))
    medians: dict[str, dict[str, list[float]]] = {}
    for size, seed, n, edges in instances(args):
        puzzle = Puzzle.build(edges=[(str(u), str(v)) for u, v in edges],
                              nodes=[str(v) for v in range(n)], use=EdgeUse.AT_MOST_ONCE,
                              visit=NodeVisit.EVERY_ONCE, closed=True, kind="tour")
        runs = {"trailkit": lambda p=puzzle: trailkit_cpsat(p),
                "plain": lambda n=n, e=edges: plain_script(n, e),
                "plain-lin0": lambda n=n, e=edges: plain_script(n, e, 0),
                "LKH": lambda n=n, e=edges: lkh(n, e)}
        got = {p: timed(runs[p], 1 if p == "LKH" else args.repeat) for p in peers}
        if "unknown" not in (got["trailkit"][1], got["plain"][1]) and \
                got["trailkit"][1] != got["plain"][1]:
            raise SystemExit(f"n={n} seed={seed}: trailkit says {got['trailkit'][1]}, "
                             f"the plain script {got['plain'][1]}")
        for p in peers:
            medians.setdefault(size, {}).setdefault(p, []).append(got[p][0])
        answers = "/".join(got[p][1] for p in peers)
        print(f"| {size} | {len(edges)} | {seed} | {answers} | "
              + " | ".join(f"{got[p][0]:.3f}" for p in peers) + " |", flush=True)
    print("\n| n | " + " | ".join(f"{p} median s" for p in peers)
          + " | trailkit / plain | trailkit / plain-lin0 |")
    print("|---|" + "---|" * (len(peers) + 2))
    for n, by in medians.items():
        mid = {p: statistics.median(by[p]) for p in peers}
        print(f"| {n} | " + " | ".join(f"{mid[p]:.3f}" for p in peers)
              + f" | {mid['trailkit'] / mid['plain']:.2f} | "
              f"{mid['trailkit'] / mid['plain-lin0']:.2f} |")


if __name__ == "__main__":
    main()
