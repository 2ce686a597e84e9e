"""``trailkit design`` (issue 34's targets): colour walks on a 40-tyre hexagonal field,
one-stroke figures on square grids.

Run: ``python tests/bench/bench_design.py [SEEDS]`` (default 10 seeds, 0..SEEDS-1). Each
case runs the whole design as the command does, one seed at a time: for colour walks the
search, the spec written and read back, solved, counted, the shortest and unique claims'
layers certificates checked, the traps measured again by inspect's state passes
(``--robust`` also solves without each plank of the walk); for figures the search, the
spec read back, solved, counted again, the count certified by the count claim (at most
20 s of it), failures counted again, one start certified by solving from elsewhere. The
tables give the median and the slowest wall time over the seeds, the median number of
tries, how many seeds met the targets within the time limit (60 s), and for figures how
many counts were certified. Each design is checked once more here against the
pipeline's own count.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from trailkit.models.spec import load_spec_text
from trailkit.solvers.pipeline import count
from trailkit.solvers.tools.design.certify_design import DesignStatus, Made, make_designs
from trailkit.solvers.tools.design.colour_search import Targets
from trailkit.solvers.tools.design.fields import grid_field, hex_field
from trailkit.solvers.tools.design.trail_design import make_trails

FIELD = hex_field(5, 8)  # 40 tyres, 95 touching pairs
NAMES = ("red", "blue", "green")
CASES = {
    "unique, >= 20 steps": Targets(0, 39, 3, min_length=20, unique=True),
    "unique, >= 30 steps": Targets(0, 39, 3, min_length=30, unique=True),
    "unique, robust, >= 20 steps": Targets(0, 39, 3, min_length=20, unique=True,
                                           robust=True),
    "unique, >= 20 steps, traps 0..0": Targets(0, 39, 3, min_length=20, unique=True,
                                               traps=(0, 0)),
    "unique, >= 20 steps, traps 30..40, trap steps 8..12": Targets(
        0, 39, 3, min_length=20, unique=True, traps=(30, 40), trap_steps=(8, 12)),
}
FIGURES: dict[str, Callable[[int], Made]] = {
    "grid:4,4, solutions 100..1000": lambda seed: make_trails(
        grid_field(4, 4), 100, 1000, seed=seed, how_many=1, time_limit=60, made="bench")[0],
    "grid:5,5, solutions 1000..10000": lambda seed: make_trails(
        grid_field(5, 5), 1000, 10000, seed=seed, how_many=1, time_limit=60,
        made="bench")[0],
    "grid:3,4, failures 100..1000": lambda seed: make_trails(
        grid_field(3, 4), seed=seed, how_many=1, time_limit=60, made="bench",
        failures=(100, 1000))[0],
    "grid:4,4, unique start": lambda seed: make_trails(
        grid_field(4, 4), seed=seed, how_many=1, time_limit=60, made="bench",
        unique_start=True)[0],
}


def _colour_walks(seeds: range) -> None:
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


def _figures(seeds: range) -> None:
    print("| case | seeds met | counts certified | median s | slowest s | median tries |")
    print("|---|---|---|---|---|---|")
    for name, make in FIGURES.items():
        times, tries, met, certified = [], [], 0, 0
        for seed in seeds:
            started = time.perf_counter()
            made = make(seed)
            times.append(time.perf_counter() - started)
            tries.append(made.tries)
            if made.status is DesignStatus.DESIGNED and made.text is not None:
                met += 1
                certified += all(c.checked for c in made.certificates)
                assert count(load_spec_text(made.text)).solutions == made.walks
        print(f"| {name} | {met}/{len(seeds)} | {certified}/{met} | "
              f"{statistics.median(times):.2f} | {max(times):.2f} | "
              f"{statistics.median(tries):,.0f} |")


def main() -> None:
    seeds = range(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
    _colour_walks(seeds)
    print()
    _figures(seeds)


if __name__ == "__main__":
    main()
