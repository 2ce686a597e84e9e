"""Benchmark: the two SAT formulas of walks through every node, side by side.

Run: ``python tests/bench/bench_node_encodings.py [--sizes 20,50,100,200] [--seeds 3]
[--limit 60]``. Instances: random graphs G(n, p) near the threshold of Hamiltonicity,
p = (ln n + ln ln n + 0.37) / n (about half of them have a Hamiltonian cycle), asked
for a closed walk through every node once (``visit: every-once``, ``closed: true``).
For each, ``node-positions-v1`` (a literal per node and position,
:mod:`trailkit.models.formulas.node_positions`) and ``node-cuts-v1`` (arc literals and
lazily added cut clauses, :mod:`trailkit.models.formulas.node_cuts`) are built and
solved by CaDiCaL 1.9.5 within the limit (no proof logging): the clauses each has (for
the cuts: the base formula, then the cuts added), and the time to build and solve: the
CPU time of this process (CaDiCaL runs in it), which a busy machine does not inflate,
and the wall time. The position formula is not built past its size estimate of 4 GB.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from trailkit.models.encodings.sizes import node_rule_size
from trailkit.models.formulas.node_cuts import encode_cuts
from trailkit.models.formulas.node_positions import encode_node_prefix, node_horizon
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.sat.hamilton_cuts import solve_cuts
from trailkit.solvers.backends.sat.node_walks import search_nodes
from trailkit.solvers.backends.sat.runner import DEFAULT_SOLVER, Deadline, Verdict

MAX_MB = 4000


def near_threshold(n: int, seed: int) -> Puzzle:
    """G(n, p) at the threshold of Hamiltonicity, as a closed every-once puzzle."""
    rng = random.Random(seed)
    p = (math.log(n) + math.log(math.log(n)) + 0.37) / n
    edges = [(str(u), str(v)) for u in range(n) for v in range(u + 1, n) if rng.random() < p]
    return Puzzle.build(edges=edges, nodes=[str(v) for v in range(n)],
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True)


def _verdict(status: Verdict) -> str:
    return {Verdict.SAT: "tour", Verdict.UNSAT: "none"}.get(status, "timeout")


def _times(began: tuple[float, float]) -> str:
    cpu, wall = time.process_time() - began[0], time.perf_counter() - began[1]
    return f"{cpu:.2f} s ({wall:.1f} s)"


def _now() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def positions(puzzle: Puzzle, limit: float) -> tuple[str, str, str]:
    """(verdict, clauses, CPU and wall seconds) with node-positions-v1 (the formula built
    once to count it, and again by the search)."""
    if node_rule_size(puzzle).megabytes() > MAX_MB:
        return "too big", f"~{node_rule_size(puzzle).clauses:,}", "-"
    clauses, _ = encode_node_prefix(puzzle, node_horizon(puzzle))
    count = len(clauses) + 1
    del clauses
    began = _now()
    outcome = search_nodes(puzzle, DEFAULT_SOLVER, Deadline(limit), proof=False)
    return _verdict(outcome.status), f"{count:,}", _times(began)


def cuts(puzzle: Puzzle, limit: float) -> tuple[str, str, int, str]:
    """(verdict, clauses base + cuts, rounds, CPU and wall seconds) with node-cuts-v1."""
    base, _ = encode_cuts(puzzle)
    began = _now()
    outcome = solve_cuts(puzzle, DEFAULT_SOLVER, Deadline(limit))
    added = outcome.stats.get("cuts", 0)
    return (_verdict(outcome.status), f"{len(base):,} + {added:,}",
            int(outcome.stats.get("rounds", 0)), _times(began))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="20,50,100,200")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0)
    args = parser.parse_args()
    print("| n | edges | answer | node-positions-v1 clauses | CPU (wall) | node-cuts-v1 "
          "clauses (base + cuts) | rounds | CPU (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        for seed in range(args.seeds):
            puzzle = near_threshold(n, seed)
            p_verdict, p_clauses, p_time = positions(puzzle, args.limit)
            c_verdict, c_clauses, rounds, c_time = cuts(puzzle, args.limit)
            known = {p_verdict, c_verdict} - {"timeout", "too big"}
            if len(known) > 1:
                raise SystemExit(f"the formulas disagree on n={n} seed={seed}")
            answer = known.pop() if known else "unknown"
            print(f"| {n} | {puzzle.num_edges} | {answer} | {p_clauses} | "
                  f"{p_time}{' stopped' if p_verdict == 'timeout' else ''} | "
                  f"{c_clauses} | {rounds} | "
                  f"{c_time}{' stopped' if c_verdict == 'timeout' else ''} |", flush=True)


if __name__ == "__main__":
    main()
