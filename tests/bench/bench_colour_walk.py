"""Benchmark: the direct backend's colour-walk search against a NetworkX product graph.

Run as ``python tests/bench/bench_colour_walk.py [PLANKS ...]`` (default 100000 and
1000000). For each size it builds a random colour-walk puzzle -- PLANKS undirected
planks between PLANKS // 3 random tyres, each plank red, blue or green at random,
colours following red -> blue -> green -> red, start at tyre 0, goal at the last
tyre -- and times, in the same run, three times each (the median is reported):

* ``direct``: :func:`trailkit.solvers.backends.direct.reachability.solve_reusable`;
* ``networkx``: the seed's method -- a directed product graph with one node per
  (tyre, last colour) plus a start node and a goal sink, then ``nx.shortest_path``.

Both must find walks of the same length (checked), and the direct walk is verified.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.reachability import solve_reusable

COLOURS = ("red", "blue", "green")


def random_puzzle(planks: int, seed: int = 1) -> Puzzle:
    """PLANKS random planks on PLANKS // 3 tyres with random colours, start 0, goal n - 1."""
    rng = random.Random(seed)
    n = max(2, planks // 3)
    tail = [rng.randrange(n) for _ in range(planks)]
    head = [rng.randrange(n) for _ in range(planks)]
    colour = [rng.randrange(3) for _ in range(planks)]
    return Puzzle(kind="colour-walk", nodes=tuple(f"t{i}" for i in range(n)), tail=tail,
                  head=head, colour=colour, colour_names=COLOURS,
                  colours=ColourRule.from_cycle(COLOURS), use=EdgeUse.ANY,
                  start=frozenset({0}), end=frozenset({n - 1}),
                  objective=Objective.SHORTEST)


def networkx_length(p: Puzzle) -> int | None:
    """Shortest walk length by the product-graph method, or ``None`` when there is none."""
    g = nx.DiGraph()
    (s,), (t,) = p.start, p.end
    for u, v, c in zip(p.tail, p.head, p.colour, strict=True):
        prev = (c - 1) % 3
        for a, b in ((u, v), (v, u)):
            g.add_edge((a, prev), (b, c))
            if a == s:
                g.add_edge("start", (b, c))
    for c in range(3):
        g.add_edge((t, c), "goal")
    try:
        return len(nx.shortest_path(g, "start", "goal")) - 2
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main(sizes: list[int]) -> None:
    print(f"{'planks':>9} {'tyres':>8} {'length':>6} {'direct s':>9} {'networkx s':>10} "
          f"{'speed-up':>8}")
    for planks in sizes:
        p = random_puzzle(planks)
        t_direct, answer = timed(lambda p=p: solve_reusable(p, Limits()))
        t_nx, nx_len = timed(lambda p=p: networkx_length(p))
        assert answer.length == nx_len, (answer.length, nx_len)
        if answer.walk is not None:
            assert not verify(p, answer.walk)
        print(f"{planks:>9} {p.num_nodes:>8} {answer.length!s:>6} {t_direct:>9.2f} "
              f"{t_nx:>10.2f} {t_nx / t_direct:>7.1f}x", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100_000, 1_000_000])
