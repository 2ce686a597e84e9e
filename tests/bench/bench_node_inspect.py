"""``trailkit inspect`` of a designed tour puzzle (issue 44's target): a 9 x 9 Hidato
(king moves) designed with ``--unique`` and inspected in under 10 s (median over seeds).

Run: ``python tests/bench/bench_node_inspect.py [SEEDS]`` (default 5 seeds, 0..SEEDS-1).
Each seed designs the puzzle as ``trailkit design tour --board 9x9 --moves king --unique
--seed S`` does (not timed), then times the whole inspection as the command runs it
without ``--time-limit``: the puzzle solved, each edge of its walk taken away and solved
again, each given taken away and the tour search run, the rating, then the refutations
within their 5 s. The table gives the median and the slowest wall time, and over the
seeds the givens found essential, redundant or undecided, the critical edges and how many
of them were certified, the rating, and this process's CPU seconds (a loaded machine's
wall time says little; the refutations' solver runs in a child process, not counted
there, within its 5 s of wall time). Each inspection is checked once more here: its
essential givens each come with a second path that obeys every other given.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace

from trailkit.models.checking.verify import verify
from trailkit.solvers.tools.design.certify_design import DesignStatus
from trailkit.solvers.tools.design.inspection import inspect_puzzle
from trailkit.solvers.tools.design.tour_design import TourAsk, make_tours


def main(seeds: int) -> None:
    times: list[float] = []
    rows = []
    for seed in range(seeds):
        (made,) = make_tours(TourAsk(9, 9, "king", None, unique=True), seed=seed,
                             how_many=1, time_limit=120.0, made="bench")
        if made.status is not DesignStatus.DESIGNED or made.puzzle is None:
            print(f"seed {seed}: {made.status.value} {made.lacks}", file=sys.stderr)
            continue
        puzzle = made.puzzle
        t0, c0 = time.perf_counter(), time.process_time()
        result = inspect_puzzle(puzzle)
        times.append(time.perf_counter() - t0)
        cpu = time.process_time() - c0
        assert result.givens is not None
        found = result.givens.findings
        for g in found:
            if g.essential:
                assert g.second is not None
                fewer = replace(puzzle, at={v: q for v, q in puzzle.at.items() if v != g.node})
                assert not verify(fewer, g.second)
        rows.append((seed, sum(bool(g.essential) for g in found),
                     sum(g.essential is False for g in found),
                     sum(g.essential is None for g in found), len(result.critical),
                     sum(f.checked for f in result.critical), result.measures.get("rating"),
                     times[-1], cpu))
    print("| seed | essential | redundant | undecided | critical | certified | rating | s | "
          "cpu s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) if not isinstance(x, float) else f"{x:.2f}"
                                for x in row) + " |")
    if times:
        print(f"\nmedian {statistics.median(times):.2f} s, slowest {max(times):.2f} s "
              f"over {len(times)} seeds")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
