"""Benchmark of the cpsat backend (a plain script, not collected by pytest).

    python tests/bench/bench_cpsat.py [--budget SECONDS] [--seed N]

1. Domino rings: the double-six (28 dominoes) and double-nine (55) sets, time to a
   first ring (the double-nine set has no ring: every pip value has odd degree 11, so
   its time is the time to CP-SAT's infeasibility proof).
2. Random Eulerian multigraphs with 50, 100, 200, 400 edges: time to a first circuit
   with default settings (trailkit's default limits: one worker, seed 0), side by side
   with the same problem written the natural way in CPMpy (``cp.Circuit`` over successor
   variables, one per edge, plus an orientation per edge) on the same CP-SAT. Needs
   ``pip install cpmpy`` (the ``bench`` extra); the column is skipped without it.
3. Exactly-once trails whose colours must alternate red/blue on random graphs of 30 to
   600 edges, solvable (built from a random alternating walk) and unsolvable (two
   colours swapped so that three or more nodes have unequal red and blue degrees, which
   no alternating trail allows): time per instance, 60 s limit each; a series stops at
   its first timeout and the whole script stops at ``--budget`` seconds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from trailkit.models.answer import Status
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.cpsat import CpSatBackend

BACKEND = CpSatBackend()


def dominoes(n: int) -> Puzzle:
    pairs = [(str(a), str(b)) for a in range(n + 1) for b in range(a, n + 1)]
    return Puzzle.build(kind="domino-chain", edges=pairs, closed=True)


def random_walk_edges(rng: random.Random, m: int, n: int, closed: bool) -> list[tuple[str, str]]:
    """The edges of a random walk of ``m`` steps on ``n`` nodes (closed: it returns home)."""
    nodes = [rng.randrange(n) for _ in range(m)]
    if closed:
        nodes.append(nodes[0])
    else:
        nodes.append(rng.randrange(n))
    edges = [(f"v{nodes[i]}", f"v{nodes[i + 1]}") for i in range(m)]
    rng.shuffle(edges)
    return edges


def eulerian(rng: random.Random, m: int) -> Puzzle:
    return Puzzle.build(kind="trail", closed=True,
                        edges=random_walk_edges(rng, m, max(5, m // 5), closed=True))


def timed_solve(puzzle: Puzzle, limits: Limits) -> tuple[float, str]:
    began = time.perf_counter()
    answer = BACKEND.solve(puzzle, limits)
    took = time.perf_counter() - began
    if answer.walk is not None and verify(puzzle, answer.walk):
        return took, "INVALID WALK"
    return took, answer.status.value


# ------------------------------------------------------------------- CPMpy side
def cpmpy_circuit(puzzle: Puzzle, time_limit: float) -> tuple[float, float, str]:
    """The natural CPMpy model: succ[e] is the edge after e, orientation d[e]. Returns
    (total time, solver time, status)."""
    import cpmpy as cp

    began = time.perf_counter()
    m = puzzle.num_edges
    succ = cp.intvar(0, m - 1, shape=m, name="succ")
    d = cp.boolvar(shape=m, name="d")
    hi = puzzle.num_nodes - 1
    start = cp.intvar(0, hi, shape=m, name="start")
    end = cp.intvar(0, hi, shape=m, name="end")
    model = cp.Model(cp.Circuit(succ))
    for e in range(m):
        u, v = puzzle.tail[e], puzzle.head[e]
        model += start[e] == u + (v - u) * d[e]
        model += end[e] == v + (u - v) * d[e]
        model += start[succ[e]] == end[e]
    ok = model.solve("ortools", time_limit=time_limit, num_workers=1, random_seed=0)
    total = time.perf_counter() - began
    return total, model.status().runtime, "solved" if ok else str(model.status().exitstatus)


def have_cpmpy() -> bool:
    try:
        import cpmpy  # noqa: F401
    except ImportError:
        return False
    return True


# ------------------------------------------------------------ alternating trails
ALTERNATE = ColourRule.from_cycle(["red", "blue"])


def alternating(rng: random.Random, m: int, solvable: bool) -> Puzzle:
    """A red/blue alternating trail puzzle with ``m`` edges (see the module docstring)."""
    n = max(4, m // 3)
    while True:
        nodes = [rng.randrange(n) for _ in range(m + 1)]
        edges = [(f"v{nodes[i]}", f"v{nodes[i + 1]}", "red" if i % 2 == 0 else "blue")
                 for i in range(m)]
        if not solvable:
            reds = [i for i, e in enumerate(edges) if e[2] == "red"]
            blues = [i for i, e in enumerate(edges) if e[2] == "blue"]
            i, j = rng.choice(reds), rng.choice(blues)
            edges[i] = (*edges[i][:2], "blue")
            edges[j] = (*edges[j][:2], "red")
            if _colour_imbalance(edges) <= 2:
                continue  # the swap did not make a provable obstruction; try again
        rng.shuffle(edges)
        return Puzzle.build(kind="walk", edges=edges, colours=ALTERNATE)


def _colour_imbalance(edges: list[tuple[str, str, str]]) -> int:
    """Sum over nodes of |red degree - blue degree|; an alternating trail allows at most 2."""
    bal: Counter[str] = Counter()
    for u, v, c in edges:
        sign = 1 if c == "red" else -1
        bal[u] += sign
        bal[v] += sign
    return sum(abs(x) for x in bal.values())


# ---------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alt-sizes", default="30,50,75,100,150,200,300,400,600",
                        help="edge counts of the alternating trails (comma separated)")
    parser.add_argument("--only-alternating", action="store_true",
                        help="skip the domino and Eulerian sections")
    args = parser.parse_args()
    deadline = time.perf_counter() + args.budget
    rng = random.Random(args.seed)
    default = Limits()

    if not args.only_alternating:
        bench_circuits(rng, default)
    bench_alternating(rng, [int(x) for x in args.alt_sizes.split(",")], deadline)


def bench_circuits(rng: random.Random, default: Limits) -> None:
    """Domino rings and random Eulerian multigraphs, CP-SAT against CPMpy's Circuit."""
    print("== domino rings (trailkit default limits: 1 worker, seed 0) ==")
    for n in (6, 9):
        took, status = timed_solve(dominoes(n), Limits(time_limit=60))
        print(f"double-{n:<2} {dominoes(n).num_edges:3d} dominoes  {status:10s} {took:7.3f} s")

    print("\n== random Eulerian multigraphs: time to a first circuit ==")
    cpm = have_cpmpy()
    right = f"{'cpmpy s':>9} {'(solver s)':>10} {'status':>9}" if cpm else "(no cpmpy)"
    print(f"{'edges':>5} {'nodes':>5} {'cpsat s':>9} {'status':>9}   {right}")
    for m in (50, 100, 200, 400):
        puzzle = eulerian(rng, m)
        took, status = timed_solve(puzzle, default)
        line = f"{m:5d} {puzzle.num_nodes:5d} {took:9.3f} {status:>9}   "
        if cpm:
            total, solver_s, cstatus = cpmpy_circuit(puzzle, 60)
            line += f"{total:9.3f} {solver_s:10.3f} {cstatus:>9}"
        print(line)



def bench_alternating(rng: random.Random, sizes: list[int], deadline: float) -> None:
    """Alternating red/blue trails, solvable and unsolvable, until CP-SAT stops answering."""
    print("\n== alternating red/blue exactly-once trails, 60 s limit each ==")
    print(f"{'edges':>5} {'kind':>10} {'status':>10} {'time s':>8}")
    stopped = {True: None, False: None}
    for m in sizes:
        for solvable in (True, False):
            if stopped[solvable] is not None:
                continue
            left = deadline - time.perf_counter()
            if left < 5:
                print(f"{m:5d} {'solvable' if solvable else 'unsolvable':>10}  skipped "
                      "(bench budget used up)")
                continue
            puzzle = alternating(rng, m, solvable)
            took, status = timed_solve(puzzle, Limits(time_limit=min(60.0, left)))
            kind = "solvable" if solvable else "unsolvable"
            print(f"{m:5d} {kind:>10} {status:>10} {took:8.2f}", flush=True)
            expected = Status.SOLVED if solvable else Status.UNSOLVABLE
            if status != expected.value:
                stopped[solvable] = m
    for solvable, m in stopped.items():
        kind = "solvable" if solvable else "unsolvable"
        print(f"{kind}: " + (f"no answer within the limit from {m} edges" if m
                             else "answered at every size tried"))


if __name__ == "__main__":
    main()
