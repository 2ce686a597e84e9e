"""Benchmark: the direct backend against NetworkX on large puzzles (run on demand).

    python tests/bench/bench_direct.py --sizes 10000,100000,1000000 --repeat 3
    python tests/bench/bench_direct.py --sizes 1000000 --nx-max 100000   # skip NetworkX there

Euler circuits: random connected Eulerian multigraphs (a random closed walk of |E|
steps, its steps shuffled), "dense" over ~1,000 nodes and "sparse" over ~|E|/3.3
nodes, self-loops and parallel edges included. Methods:

* ``direct``        — ``solve_euler`` only (the Puzzle arrays already built);
* ``direct+build``  — ``Puzzle.build`` from the (u, v) name pairs, then ``solve_euler``;
* ``networkx``      — ``MultiGraph.add_edges_from`` + ``list(eulerian_circuit(G, keys=True))``.

Colour walks (``--colour``, only when :mod:`trailkit.solvers.backends.direct.reachability`
exists): a random plank graph with colours red → blue → green, shortest walk from
node 0 to the last node; ``direct`` (``solve_reusable``) against NetworkX
``shortest_path`` on the (node, last colour) product graph, building included.

Every measurement runs in its own subprocess, so its peak memory is its own: the
table shows the median wall time (and its ratio to the first method), the median
CPU time of the process (steadier on a shared machine) and the largest growth of
the peak resident set (``ru_maxrss``) over the run, beyond what generating the
input took.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

COLOURS = ("red", "blue", "green")


# ------------------------------------------------------------------ inputs
def eulerian_edges(size: int, nodes: int, seed: int) -> list[tuple[int, int]]:
    """``size`` edges forming one random closed walk over ``nodes`` nodes, shuffled."""
    rng = random.Random(seed)
    walk = [rng.randrange(nodes) for _ in range(size)]
    edges = list(zip(walk, walk[1:] + walk[:1], strict=True))
    rng.shuffle(edges)
    return edges


def node_count(shape: str, size: int) -> int:
    return 1000 if shape == "dense" else max(2, int(size / 3.3))


def plank_edges(size: int, nodes: int, seed: int) -> list[tuple[int, int, str]]:
    """``size`` random coloured two-way planks over ``nodes`` nodes."""
    rng = random.Random(seed)
    return [(rng.randrange(nodes), rng.randrange(nodes), rng.choice(COLOURS))
            for _ in range(size)]


# ----------------------------------------------------------------- methods
def run_direct(edges: list[tuple[int, int]], nodes: int) -> Callable[[], Any]:
    from trailkit.models.puzzle import Puzzle
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.direct.euler import solve_euler

    puzzle = Puzzle(kind="trail", nodes=tuple(map(str, range(nodes))),
                    tail=[u for u, _ in edges], head=[v for _, v in edges], closed=True)
    return lambda: _expect_solved(solve_euler(puzzle, Limits()), len(edges))


def run_direct_build(edges: list[tuple[int, int]], nodes: int) -> Callable[[], Any]:
    from trailkit.models.puzzle import Puzzle
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.direct.euler import solve_euler

    def go() -> Any:
        puzzle = Puzzle.build(kind="trail", edges=edges, closed=True)
        return _expect_solved(solve_euler(puzzle, Limits()), len(edges))

    return go


def run_networkx(edges: list[tuple[int, int]], nodes: int) -> Callable[[], Any]:
    import networkx as nx

    def go() -> Any:
        graph = nx.MultiGraph()
        graph.add_edges_from(edges)
        circuit = list(nx.eulerian_circuit(graph, keys=True))
        if len(circuit) != len(edges):
            raise RuntimeError("networkx returned a short circuit")
        return circuit

    return go


def run_direct_colour(planks: list[tuple[int, int, str]], nodes: int) -> Callable[[], Any]:
    from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.direct.reachability import solve_reusable  # type: ignore[import-not-found]

    def go() -> Any:
        puzzle = Puzzle.build(kind="colour-walk", edges=planks, nodes=map(str, range(nodes)),
                              colours=ColourRule.from_cycle(COLOURS), start=["0"],
                              end=[str(nodes - 1)], use=EdgeUse.ANY,
                              objective=Objective.SHORTEST)
        answer = solve_reusable(puzzle, Limits())
        return None if answer.walk is None else len(answer.walk)

    return go


def run_networkx_colour(planks: list[tuple[int, int, str]], nodes: int) -> Callable[[], Any]:
    import networkx as nx

    after = {c: COLOURS[(i + 1) % len(COLOURS)] for i, c in enumerate(COLOURS)}
    before = {v: k for k, v in after.items()}

    def go() -> Any:
        graph = nx.DiGraph()  # states (node, colour of the last step); (0, None) = start
        for u, v, c in planks:
            graph.add_edge((u, before[c]), (v, c))
            graph.add_edge((v, before[c]), (u, c))
            for a, b in ((u, v), (v, u)):
                if a == 0:
                    graph.add_edge((0, None), (b, c))
        goal = nodes - 1
        for c in COLOURS:
            graph.add_edge((goal, c), "goal")
        if goal == 0:
            graph.add_edge((0, None), "goal")
        graph.add_node((0, None))
        try:
            return len(nx.shortest_path(graph, (0, None), "goal")) - 2
        except nx.NetworkXNoPath:
            return None

    return go


def _expect_solved(answer: Any, size: int) -> int:
    if answer.walk is None or len(answer.walk) != size:
        raise RuntimeError(f"direct did not solve the benchmark puzzle: {answer.reason}")
    return len(answer.walk)


METHODS: dict[str, tuple[str, Callable[..., Callable[[], Any]]]] = {
    "direct": ("euler", run_direct),
    "direct+build": ("euler", run_direct_build),
    "networkx": ("euler", run_networkx),
    "direct-colour": ("colour", run_direct_colour),
    "networkx-colour": ("colour", run_networkx_colour),
}


# ----------------------------------------------------------------- workers
def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def worker(job: dict[str, Any]) -> dict[str, Any]:
    """One measurement in this process: build the input, time the method once."""
    family, maker = METHODS[job["method"]]
    nodes = node_count(job["shape"], job["size"])
    if family == "euler":
        data: Any = eulerian_edges(job["size"], nodes, job["seed"])
    else:
        data = plank_edges(job["size"], nodes, job["seed"])
    run = maker(data, nodes)
    base = _maxrss_mib()
    started, cpu = time.perf_counter(), time.process_time()
    result = run()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"time": elapsed, "cpu": cpu, "extra_mib": _maxrss_mib() - base,
            "result": result if isinstance(result, int | None) else len(result)}


def measure(job: dict[str, Any]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(job)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# -------------------------------------------------------------------- main
def bench(methods: list[str], sizes: list[int], shapes: list[str], repeat: int,
          nx_max: int) -> None:
    print(f"{'case':<24}{'method':<17}{'median s':>10}{'vs direct':>11}{'cpu s':>9}"
          f"{'extra MiB':>11}")
    for size in sizes:
        for shape in shapes:
            medians: dict[str, float] = {}
            for method in methods:
                if method.startswith("networkx") and size > nx_max:
                    print(f"{shape + ' ' + str(size):<24}{method:<17}{'skipped':>10}")
                    continue
                runs = [measure({"method": method, "shape": shape, "size": size,
                                 "seed": seed}) for seed in range(repeat)]
                med = statistics.median(r["time"] for r in runs)
                base = medians.setdefault(methods[0], med)
                medians[method] = med
                mem = max(r["extra_mib"] for r in runs)
                cpu = statistics.median(r["cpu"] for r in runs)
                print(f"{shape + ' ' + str(size):<24}{method:<17}{med:>10.3f}"
                      f"{med / base:>10.1f}x{cpu:>9.3f}{mem:>11.1f}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="edge counts, comma separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (median shown)")
    parser.add_argument("--shapes", default="dense,sparse", help="dense and/or sparse")
    parser.add_argument("--nx-max", type=int, default=10**9,
                        help="skip NetworkX above this many edges")
    parser.add_argument("--colour", action="store_true",
                        help="also benchmark colour walks")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    print(f"python {sys.version.split()[0]}, {args.repeat} runs per case, "
          "each in its own process")
    bench(["direct", "direct+build", "networkx"], sizes, shapes, args.repeat, args.nx_max)
    if args.colour:
        if importlib.util.find_spec("trailkit.solvers.backends.direct.reachability") is None:
            print("colour walks skipped: the direct backend's reachability is not there")
        else:
            bench(["direct-colour", "networkx-colour"], sizes, shapes, args.repeat,
                  args.nx_max)


if __name__ == "__main__":
    main()
