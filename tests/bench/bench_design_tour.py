"""``trailkit design tour`` (issue 44's targets): a 9 x 9 Hidato (king moves) with a
unique solution and at most 30% of its cells given, and a 7 x 7 Signpost (``--moves
arrows``, unique), each designed in under 5 s (median over 10 seeds).

Run: ``python tests/bench/bench_design_tour.py [SEEDS] [MIN..MAX]`` (default 10 seeds,
0..SEEDS-1, and the Hidato's ``--givens 20..24``: 24 of 81 cells is 29.6%; the Signpost
keeps as few givens as stay unique). Each seed runs the whole design as the command
does: a path, givens taken away while the direct backend's tour search finds no second
path, the spec written, read back, solved and verified by the pipeline, its uniqueness
certified (the pipeline's refutation, checked). The table gives the median and the
slowest wall time, the median CPU time (this process and the children the pipeline
forks for the SAT solver: the measure a loaded machine distorts least), how many
seeds met the targets within the time limit (60 s), the givens kept and the removals
tested, and the load average when the run ended (the machine may be shared). Each
design is checked once more here: its givens on the path the pipeline solves (the
Hidato's at most 30% of the cells).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from trailkit.models.answer import Status
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.certify_design import DesignStatus
from trailkit.solvers.tools.design.tour_design import TourAsk, make_tours


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _case(ask: TourAsk, seeds: int, label: str) -> str:
    """One table row: ``ask`` designed for each seed."""
    walls, cpus, givens, tests, met = [], [], [], [], 0
    for seed in range(seeds):
        t0, c0 = time.perf_counter(), _cpu()
        (made,) = make_tours(ask, seed=seed, how_many=1, time_limit=60.0, made="bench")
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
        if made.status is not DesignStatus.DESIGNED or made.puzzle is None:
            print(f"{label} seed {seed}: {made.status.value} {made.lacks}", file=sys.stderr)
            continue
        met += 1
        puzzle = made.puzzle
        if ask.givens is not None:
            assert len(puzzle.at) <= 0.3 * ask.cells, len(puzzle.at)
        answer = solve(puzzle)
        assert answer.status is Status.SOLVED and answer.walk is not None
        assert all(answer.walk.nodes[q - 1] == v for v, q in puzzle.at.items())
        givens.append(len(puzzle.at))
        tests.append(made.measures["removals_tried"])
    return (f"| {label} | {met}/{seeds} | {statistics.median(walls):.2f} | "
            f"{max(walls):.2f} | {statistics.median(cpus):.2f} | "
            f"{min(givens, default=0)}..{max(givens, default=0)} | "
            f"{statistics.median(tests) if tests else 0} |")


def main(seeds: int, low: int, high: int) -> None:
    make_tours(TourAsk(4, 4, "king", unique=True), seed=0, how_many=1, time_limit=60.0,
               made="warm-up")  # the compiled kernels loaded once, as in a session
    rows = [_case(TourAsk(9, 9, "king", (low, high), unique=True), seeds,
                  f"9x9 king, --givens {low}..{high} --unique"),
            _case(TourAsk(7, 7, "arrows", unique=True), seeds, "7x7 arrows, --unique")]
    print("| case | seeds met | median s | slowest s | median CPU s | givens | "
          "removals tested |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    lo, _, hi = (sys.argv[2] if len(sys.argv) > 2 else "20..24").partition("..")
    main(n, int(lo), int(hi))
