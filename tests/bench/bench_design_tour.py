"""``trailkit design tour`` (issue 44's target): a 9 x 9 Hidato (king moves) with a
unique solution and at most 30% of its cells given, designed in under 5 s (median over
10 seeds).

Run: ``python tests/bench/bench_design_tour.py [SEEDS] [MIN..MAX]`` (default 10 seeds,
0..SEEDS-1, and ``--givens 20..24``: 24 of 81 cells is 29.6%). Each seed runs the whole
design as the command does: a path, givens taken away while the direct backend's tour
search finds no second path, the spec written, read back, solved and verified by the
pipeline, its uniqueness asked again on the spec as written. The table gives the
median and the slowest wall time, how many seeds met the targets within the time limit
(60 s), the givens kept and the removals tested. Each design is checked once more here:
its givens at most 30% of the cells and on the path the pipeline solves.
"""

from __future__ import annotations

import statistics
import sys
import time

from trailkit.models.answer import Status
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.certify_design import DesignStatus
from trailkit.solvers.tools.design.tour_design import TourAsk, make_tours


def main(seeds: int, low: int, high: int) -> None:
    ask = TourAsk(9, 9, "king", (low, high), unique=True)
    times, givens, tests, met = [], [], [], 0
    for seed in range(seeds):
        t0 = time.perf_counter()
        (made,) = make_tours(ask, seed=seed, how_many=1, time_limit=60.0, made="bench")
        times.append(time.perf_counter() - t0)
        if made.status is not DesignStatus.DESIGNED or made.puzzle is None:
            print(f"seed {seed}: {made.status.value} {made.lacks}", file=sys.stderr)
            continue
        met += 1
        puzzle = made.puzzle
        assert len(puzzle.at) <= 0.3 * 81, len(puzzle.at)
        answer = solve(puzzle)
        assert answer.status is Status.SOLVED and answer.walk is not None
        assert all(answer.walk.nodes[q - 1] == v for v, q in puzzle.at.items())
        givens.append(len(puzzle.at))
        tests.append(made.measures["removals_tried"])
    print("| case | seeds met | median s | slowest s | givens | removals tested |")
    print("|---|---|---|---|---|---|")
    print(f"| 9x9 king, --givens {low}..{high} --unique | {met}/{seeds} | "
          f"{statistics.median(times):.2f} | {max(times):.2f} | "
          f"{min(givens, default=0)}..{max(givens, default=0)} | "
          f"{statistics.median(tests) if tests else 0} |")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    lo, _, hi = (sys.argv[2] if len(sys.argv) > 2 else "20..24").partition("..")
    main(n, int(lo), int(hi))
