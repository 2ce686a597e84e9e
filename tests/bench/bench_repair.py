"""Benchmark: repairs and cores, end to end and by method.

Run as ``python tests/bench/bench_repair.py`` (``--quick`` for a short run). Three parts:

1. **The tyre puzzle**, end to end: ``trailkit repair specs/tyre-puzzle/original.yaml
   --all --recolour`` as a subprocess (Python start-up included), median of 5; the goal
   is under 1 s.
2. **Single-change repairs of generated colour walks** with 10,000 and 100,000 planks:
   tyres on a hexagonal grid, every pair of touching tyres joined by a plank coloured by
   its direction (one in five at random), except that every plank crossing the rim of a
   hexagonal region around the goal is taken away (a moat). The moat's missing planks
   are the layout's candidates (a few hundred, in three colours each). Timed: ``repair``
   in the library, from the puzzle to a verified shortest walk in the repaired puzzle;
   goals 2 s and 20 s.
3. **Several changes and cores**, how they grow: closed one-stroke figures from a fixed
   start (so the direct Euler count does not apply) with more and more odd nodes, by
   ``direct`` (change sets tried size by size), ``cpsat`` (CP-SAT with optional
   candidates) and ``sat`` (RC2 MaxSAT over the position encoding, up to 32 edges with
   the candidates), side by side; each tries the cheap sizes set by set first. Then
   cores (deletion with CP-SAT) of such figures and of alternating-colour rings.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from bench_colour_walk import timed

from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.tools.repair.cores import find_core
from trailkit.solvers.tools.repair.fewest_changes import repair

ROOT = Path(__file__).resolve().parents[2]
COLOURS = ("red", "blue", "green")
HEX = ((1, 0), (0, 1), (-1, 1))  # three of the six neighbour directions (axial)


# ---------------------------------------------------------------- part 1
def tyre_end_to_end(repeat: int) -> None:
    cmd = [str(Path(sys.executable).with_name("trailkit")), "repair",
           str(ROOT / "specs/tyre-puzzle/original.yaml"), "--all", "--recolour"]
    t, out = timed(lambda: subprocess.run(cmd, capture_output=True, text=True, check=False),
                   repeat)
    first = next(line for line in out.stdout.splitlines() if "change" in line)
    print(f"tyre repair --all --recolour, end to end: {t:.2f} s (median of {repeat}); "
          f"exit {out.returncode}: {first.strip()}")


# ---------------------------------------------------------------- part 2
def moated_hexagon(planks: int, seed: int = 1) -> Puzzle:
    """A hex grid with about ``planks`` planks and a moat around the goal (module doc)."""
    rng = random.Random(seed)
    side = 1
    while 3 * (3 * side * side) < planks:
        side += 1
    cells = [(q, r) for r in range(-side + 1, side) for q in range(-side + 1, side)
             if abs(q + r) < side]
    index = {c: i for i, c in enumerate(cells)}
    goal = (side // 2, 0)
    radius = max(3, min(side // 3, 25))

    def inside(c: tuple[int, int]) -> bool:
        dq, dr = c[0] - goal[0], c[1] - goal[1]
        return max(abs(dq), abs(dr), abs(dq + dr)) < radius

    tail, head, colour = [], [], []
    for c in cells:
        for d, (dq, dr) in enumerate(HEX):
            other = (c[0] + dq, c[1] + dr)
            if other in index and inside(c) == inside(other):
                tail.append(index[c])
                head.append(index[other])
                # mostly coloured by direction, so that walks spread over the whole grid
                colour.append(d if rng.random() < 0.8 else rng.randrange(3))
    layout = {f"t{i}": (2 * q + r, 1.7320508 * r) for (q, r), i in index.items()}
    return Puzzle(kind="colour-walk", nodes=tuple(f"t{i}" for i in range(len(cells))),
                  tail=tail, head=head, colour=colour, colour_names=COLOURS,
                  colours=ColourRule.from_cycle(COLOURS), use=EdgeUse.ANY,
                  start=frozenset({index[(-(side // 2), 0)]}), end=frozenset({index[goal]}),
                  objective=Objective.SHORTEST, layout=layout)


def single_changes(sizes: list[int]) -> None:
    print(f"\n{'planks':>8} {'tyres':>7} {'candidates':>10} {'screened':>8} {'length':>6} "
          f"{'repair s':>8}")
    for planks in sizes:
        p = moated_hexagon(planks)
        t, result = timed(lambda p=p: repair(p, RepairRules(add="layout")))
        best = result.repairs[0]
        assert result.minimal and verify(best.puzzle, best.answer.walk) == []
        print(f"{p.num_edges:>8} {p.num_nodes:>7} {result.candidates:>10} "
              f"{result.stats.get('screened', '-')!s:>8} {best.answer.length:>6} {t:>8.2f}",
              flush=True)


# ---------------------------------------------------------------- part 3
def odd_figure(nodes: int, odd_pairs: int, seed: int) -> Puzzle:
    """A connected closed figure on ``nodes`` nodes (a ring plus chords), started at node
    0, with ``2 * odd_pairs`` odd nodes."""
    rng = random.Random(seed)
    edges = [(f"n{i}", f"n{(i + 1) % nodes}") for i in range(nodes)]
    picks = rng.sample(range(nodes), 2 * odd_pairs)
    edges += [(f"n{picks[2 * i]}", f"n{picks[2 * i + 1]}") for i in range(odd_pairs)]
    return Puzzle.build(kind="trail", edges=edges, closed=True, start=["n0"])


def several_changes(quick: bool) -> None:
    print(f"\n{'nodes':>5} {'odd':>4} {'cands':>5}  {'direct':>22}  {'cpsat':>22}  "
          f"{'sat':>22}")
    limits = Limits(time_limit=60)
    grid = [(6, 1), (6, 2), (8, 2), (8, 3), (10, 3), (12, 4)] if not quick else [(6, 1),
                                                                                (6, 2)]
    for nodes, pairs in grid:
        p = odd_figure(nodes, pairs, seed=nodes + pairs)
        cells = []
        for backend in ("direct", "cpsat", "sat"):
            t, r = timed(lambda p=p, b=backend: repair(p, RepairRules(), backend=b,
                                                         limits=limits))
            what = f"{r.changes} ({'minimal' if r.minimal else r.status.value})" \
                if r.changes else r.status.value
            cells.append(f"{what:>14} {t:>6.2f} s")
        print(f"{nodes:>5} {2 * pairs:>4} {nodes * (nodes - 1) // 2:>5}  "
              + "  ".join(f"{c:>22}" for c in cells), flush=True)


def alternating_ring(nodes: int, seed: int) -> Puzzle:
    """A closed red/blue alternating walk puzzle on a ring with chords, one chord off."""
    rng = random.Random(seed)
    rule = ColourRule.from_transitions(("red", "blue"), {"red": ["blue"], "blue": ["red"]})
    edges = [(f"n{i}", f"n{(i + 1) % nodes}", ("red", "blue")[i % 2]) for i in range(nodes)]
    for _ in range(nodes // 2):
        a, b = rng.sample(range(nodes), 2)
        edges.append((f"n{a}", f"n{b}", rng.choice(("red", "blue"))))
    return Puzzle.build(kind="walk", edges=edges, colours=rule, closed=True)


def cores(quick: bool) -> None:
    print(f"\n{'puzzle':>22} {'edges':>5} {'core':>4} {'smallest':>8} {'certified':>9} "
          f"{'calls':>5} {'s':>6}")
    rows: list[tuple[str, Puzzle]] = []
    for nodes in ([8, 16] if quick else [8, 16, 32, 64]):
        rows.append((f"figure, {nodes} nodes", odd_figure(nodes, 2, seed=nodes)))
        rows.append((f"alternating, {nodes} nodes", alternating_ring(nodes, seed=nodes)))
    from trailkit.solvers.pipeline.solving import solve

    for label, p in rows:
        if solve(p).status.value != "unsolvable":
            print(f"{label:>22} {p.num_edges:>5} (solvable: no core)")
            continue
        t, core = timed(lambda p=p: find_core(p, Limits(time_limit=60)))
        if core is None:
            print(f"{label:>22} {p.num_edges:>5} undecided {t:>6.2f}")
            continue
        print(f"{label:>22} {p.num_edges:>5} {len(core.edges):>4} {core.smallest!s:>8} "
              f"{core.certified!s:>9} {core.calls:>5} {t:>6.2f}", flush=True)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    tyre_end_to_end(3 if quick else 5)
    single_changes([10_000] if quick else [10_000, 100_000])
    several_changes(quick)
    cores(quick)


if __name__ == "__main__":
    main(sys.argv[1:])
