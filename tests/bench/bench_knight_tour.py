"""Benchmark: a knight's tour by the direct backend, the whole command timed (run on demand).

    python tests/bench/bench_knight_tour.py --sizes 8,30 --repeat 5
    python tests/bench/bench_knight_tour.py --sizes 8 --closed

Targets (issue 43): an 8x8 knight's tour in under 0.5 s for the whole command after the
first run's compile, 30x30 in under 5 s. Each measurement is a fresh process (its wall
time is what a user waits for: Python's start, importing trailkit, building the board,
the search, the verifier; the ``trailkit`` line also says how long importing trailkit and
the solve itself took inside the process: the machine's load weighs on the import). Methods:

* ``trailkit``   -- ``trailkit solve`` of a ``kind: tour`` spec with a ``board:`` when the
  spec reader knows those keys, else the same pipeline from ``python -c`` (the board
  built by ``Puzzle.build``, then :func:`trailkit.solvers.pipeline.solving.solve`: the
  backend, the verifier and its checks);
* ``warnsdorff`` -- the peer in the same run: Warnsdorff's rule in plain Python, no
  backtracking (it may fail; the table says whether it found a tour).

The first run of each method is a warm-up (Numba compiles the kernels and caches them
then); the table shows the median wall time of the runs after it, and the ratio to the
first method.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TRAILKIT = """
import sys, time
t0 = time.perf_counter()
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline.solving import solve
size, closed = int(sys.argv[1]), sys.argv[2] == "1"
name = lambda x, y: f"{x}_{y}"
edges = [(name(x, y), name(x + dx, y + dy)) for x in range(size) for y in range(size)
         for dx, dy in ((1, 2), (2, 1), (2, -1), (1, -2))
         if 0 <= x + dx < size and 0 <= y + dy < size]
puzzle = Puzzle.build(kind="tour", edges=edges, visit=NodeVisit.EVERY_ONCE,
                      use=EdgeUse.AT_MOST_ONCE, closed=closed)
t1 = time.perf_counter()
answer = solve(puzzle, limits=Limits(time_limit=60))
t2 = time.perf_counter()
ok = answer.walk is not None and answer.verified
print(("ok" if ok else answer.status.value)
      + f" (import {t1 - t0:.3f} s, build+solve+verify {t2 - t1:.3f} s)")
"""

WARNSDORFF = """
import sys
size, closed = int(sys.argv[1]), sys.argv[2] == "1"
jumps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
def moves(x, y):
    return [(x + a, y + b) for a, b in jumps if 0 <= x + a < size and 0 <= y + b < size]
seen = {(0, 0)}
here = (0, 0)
path = [here]
while len(path) < size * size:
    options = [m for m in moves(*here) if m not in seen]
    if not options:
        break
    here = min(options, key=lambda m: sum(1 for k in moves(*m) if k not in seen))
    seen.add(here)
    path.append(here)
done = len(path) == size * size and (not closed or path[0] in moves(*path[-1]))
print("ok" if done else "failed")
"""

SPEC = """trailkit: 1
kind: tour
closed: {closed}
board: {{size: [{size}, {size}], moves: knight}}
"""


def spec_command(size: int, closed: bool, folder: Path) -> list[str] | None:
    """``trailkit solve`` of a board spec, or ``None`` when the spec reader refuses it
    (the board keys are not there yet)."""
    spec = folder / f"knight-{size}-{int(closed)}.yaml"
    spec.write_text(SPEC.format(size=size, closed=str(closed).lower()))
    command = [sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve", str(spec)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    return command if done.returncode == 0 else None


def timed(command: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    out = (done.stdout.strip().splitlines() or [done.stderr.strip()[-200:]])[-1]
    return time.perf_counter() - t0, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,30")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--closed", action="store_true")
    args = parser.parse_args()
    closed = "1" if args.closed else "0"
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(int, args.sizes.split(",")):
            cli = spec_command(size, args.closed, Path(tmp))
            methods = {
                "trailkit" + (" (cli)" if cli else " (pipeline)"):
                    cli or [sys.executable, "-c", TRAILKIT, str(size), closed],
                "warnsdorff": [sys.executable, "-c", WARNSDORFF, str(size), closed],
            }
            first = None
            for name, command in methods.items():
                timed(command)  # the warm-up: Numba compiles and caches here
                runs = [timed(command) for _ in range(args.repeat)]
                median = statistics.median(t for t, _ in runs)
                first = first or median
                print(f"{size}x{size} {'closed' if args.closed else 'open'}  {name:<20} "
                      f"median {median:7.3f} s  x{median / first:5.2f}  "
                      f"result {runs[-1][1]}", flush=True)


if __name__ == "__main__":
    main()
