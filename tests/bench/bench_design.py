"""``trailkit design colour-walk`` on a 40-tyre hexagonal field (issue 34's target).

Run: ``python tests/bench/bench_design.py [SEEDS]`` (default 10 seeds, 0..9). Each case
runs the whole design as the command does (search, spec written and read back, solved,
counted, the shortest and unique claims' layers certificates checked; ``--robust``
also solves without each plank of the walk), one seed at a time, and the table gives
the median and the slowest wall time over the seeds, the median number of tries of
the search, and how many seeds met the targets within the time limit (60 s). Each
design's claims are checked once more here against the pipeline's own count.
"""

from __future__ import annotations

import statistics
import sys
import time

from trailkit.models.spec import load_spec_text
from trailkit.solvers.pipeline import count
from trailkit.solvers.tools.design.certify_design import DesignStatus, make_designs
from trailkit.solvers.tools.design.colour_search import Targets
from trailkit.solvers.tools.design.fields import hex_field

FIELD = hex_field(5, 8)  # 40 tyres, 95 touching pairs
NAMES = ("red", "blue", "green")
CASES = {
    "unique, >= 20 steps": Targets(0, 39, 3, min_length=20, unique=True),
    "unique, >= 30 steps": Targets(0, 39, 3, min_length=30, unique=True),
    "unique, robust, >= 20 steps": Targets(0, 39, 3, min_length=20, unique=True,
                                           robust=True),
}


def main() -> None:
    seeds = range(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
    print("| case | seeds met | median s | slowest s | median tries | lengths |")
    print("|---|---|---|---|---|---|")
    for name, targets in CASES.items():
        times, tries, lengths, met = [], [], [], 0
        for seed in seeds:
            started = time.perf_counter()
            made = make_designs(FIELD, targets, NAMES, seed=seed, how_many=1,
                                time_limit=60, made="bench")[0]
            times.append(time.perf_counter() - started)
            tries.append(made.tries)
            if made.status is DesignStatus.DESIGNED and made.text is not None:
                met += 1
                lengths.append(made.length)
                assert count(load_spec_text(made.text)).solutions == 1
        print(f"| {name} | {met}/{len(seeds)} | {statistics.median(times):.2f} | "
              f"{max(times):.2f} | {statistics.median(tries):,.0f} | "
              f"{min(lengths, default=0)}-{max(lengths, default=0)} |")


if __name__ == "__main__":
    main()
