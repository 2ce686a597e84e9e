"""Benchmark: counting by memoised enumeration and by exact formulas.

Run: ``python tests/bench/bench_counting.py [--skip-k9]``

* Nikolaus (both variants) with failures, the direct backend;
* the direct backend's enumeration rate (solutions per second) on some trails;
* enumeration rate of every backend (direct, cpsat, sat) on the same small trails;
* exact Euler circuit counts (BEST theorem over Eulerian orientations) for K5, K7,
  K9 and the double-six and double-nine domino sets.

K9 has 3,230,080 Eulerian orientations, each needing an 8×8 exact determinant: a
few seconds with the compiled search (290 s with the reference enumeration); pass
``--skip-k9`` to leave it out.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.enumeration import count_walks
from trailkit.solvers.backends.direct.exact_count import count_euler_circuits, exact_count


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def house(edges: str, nodes: str) -> Puzzle:
    return Puzzle.build(kind="trail", nodes=list(nodes), edges=[tuple(e) for e in edges.split()])


def complete(n: int, *, loops: bool = False, closed: bool = True) -> Puzzle:
    edges = [(str(a), str(b)) for a in range(n) for b in range(a if loops else a + 1, n)]
    return Puzzle.build(kind="trail", edges=edges, closed=closed)


def octahedron(*, open_trail: bool = False) -> Puzzle:
    """K6 minus a perfect matching (12 edges, all degrees 4); with ``open_trail`` one
    edge removed, so the trails run between its two ends."""
    edges = [(str(a), str(b)) for a in range(6) for b in range(a + 1, 6) if b != a + 3]
    return Puzzle.build(kind="trail", edges=edges[1:] if open_trail else edges)


def bench_nikolaus() -> None:
    print("== Nikolaus, direct, with failures ==")
    for label, edges, nodes in (("house", "ab ac bc bd be cd ce de", "abcde"),
                                ("house+X", "ab ac bc bd bx cx ce xd xe de", "abcxde")):
        r, t = timed(lambda e=edges, n=nodes: count_walks(house(e, n), failures=True))
        print(f"{label:10s} solutions={r.solutions} failures={r.failures} "
              f"early={r.early_failures} states={r.stats['states']}  {t * 1000:.1f} ms")


def bench_enumeration() -> None:
    print("== enumeration rate, direct (memoised search; solutions counted per second) ==")
    cases = [("K5 closed", complete(5)), ("K5+loops closed", complete(5, loops=True)),
             ("K7 closed", complete(7)), ("octahedron", octahedron()),
             ("octahedron-1 trail", octahedron(open_trail=True))]
    for label, puzzle in cases:
        r, t = timed(lambda p=puzzle: count_walks(p, Limits(time_limit=30)))
        done = "" if r.complete else " (time limit: lower bound)"
        print(f"{label:16s} m={puzzle.num_edges:2d} solutions={r.solutions:,} "
              f"states={r.stats['states']:,} {t:.2f} s  "
              f"{r.solutions / t:,.0f} solutions/s  {r.stats['states'] / t:,.0f} states/s{done}")
        exact, te = timed(lambda p=puzzle: exact_count(p))
        print(f"{'':16s} exact={exact.solutions:,} ({exact.method}) {te:.3f} s "
              f"agree={exact.solutions == r.solutions or not r.complete}")


def bench_backends() -> None:
    """The same trails counted by every backend: solutions per second, counts compared."""
    from trailkit.solvers.backends.registry import get_backend

    print("== enumeration rate by backend (time limit 60 s each) ==")
    cases = [("house", house("ab ac bc bd be cd ce de", "abcde")),
             ("house+X", house("ab ac bc bd bx cx ce xd xe de", "abcxde")),
             ("K5 closed", complete(5)), ("octahedron", octahedron())]
    names = ["direct", "cpsat", "sat", "sat:glucose4"]
    print(f"{'trail':12s} " + " ".join(f"{n:>24s}" for n in names))
    for label, puzzle in cases:
        cells = []
        for name in names:
            backend = get_backend(name)
            r, t = timed(lambda p=puzzle, b=backend: b.count(p, Limits(time_limit=60)))
            mark = "" if r.complete else "+"
            cells.append(f"{r.solutions:>7,}{mark} {t:6.2f}s {r.solutions / t:>7,.0f}/s")
        print(f"{label:12s} " + " ".join(f"{c:>24s}" for c in cells), flush=True)


def bench_exact(skip_k9: bool) -> None:
    print("== exact Euler circuit counts (cyclic, with a direction) ==")
    cases = [("K5", complete(5)), ("K7", complete(7))]
    if not skip_k9:
        cases.append(("K9", complete(9)))
    cases += [("double-six (K7+loops)", complete(7, loops=True)),
              ("double-nine (K10+loops)", complete(10, loops=True))]
    for label, puzzle in cases:
        circuits, t = timed(lambda p=puzzle: count_euler_circuits(p))
        rings = circuits * puzzle.num_edges
        print(f"{label:24s} m={puzzle.num_edges:2d} circuits={circuits:,} "
              f"rings-with-start={rings:,}  {t:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-k9", action="store_true", help="leave out K9 (seconds)")
    args = parser.parse_args()
    bench_nikolaus()
    bench_enumeration()
    bench_backends()
    bench_exact(args.skip_k9)


if __name__ == "__main__":
    main()
