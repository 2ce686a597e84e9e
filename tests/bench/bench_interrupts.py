"""How long one Ctrl-C takes to stop trailkit, per backend and phase (a plain script).

    python tests/bench/bench_interrupts.py [--trials N] [--load N] [--only TEXT]

Every case presses Ctrl-C (SIGINT to trailkit's process group) once the phase has
begun: the first trial at the sign itself, the others at a random moment up to
``window`` seconds into the phase, and reports the seconds from the Ctrl-C to the exit
(median and worst over the trials) and the median as a ratio to the pure-Python peer,
``direct``'s search, measured in the same run. Every trial must end with exit code 130
and leave nothing running (:mod:`ctrl_c`), or the script says so. ``--load N`` runs N
busy loops beside (``python -c "while True: pass"``), for the loaded machine.

``--solvers`` measures instead, for every python-sat solver, how long ``solve_limited``
takes to return after ``interrupt()`` (one second into the K6 formula), or says that
the solver cannot be interrupted (those run in a child process that is killed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctrl_c import ctrl_c, write_slow_puzzles

SPECS = Path(__file__).resolve().parents[2] / "specs"

#: (name, command with {puzzle} placeholders, the sign to wait for, window in seconds).
CASES = [
    ("direct: search", ["solve", "{longest-k8}", "--backend", "direct"],
     "solving with direct", 3.0),
    ("cpsat: building", ["solve", "{k61-ring}", "--backend", "cpsat", "--crosscheck", "none"],
     "building with cpsat", 1.5),
    ("cpsat: search", ["solve", "{k12}", "--backend", "cpsat", "--precheck", "off",
                       "--crosscheck", "none"], "solving with cpsat", 3.0),
    ("sat (cadical195, a child): building", ["solve", "{trail-200}", "--backend", "sat",
                                             "--crosscheck", "none"],
     "building with cadical195", 3.0),
    ("sat (cadical195, a child): search", ["solve", "{k6}", "--backend", "sat", "--precheck",
                                           "off", "--crosscheck", "none"],
     "solving with cadical195", 3.0),
    ("sat:glucose4 (interrupt()): building", ["solve", "{trail-200}", "--backend",
                                              "sat:glucose4", "--crosscheck", "none"],
     "building with glucose4", 3.0),
    ("sat:glucose4 (interrupt()): search", ["solve", "{k6}", "--backend", "sat:glucose4",
                                            "--precheck", "off", "--crosscheck", "none"],
     "solving with glucose4", 3.0),
    ("sat (cadical195, a child): search, big formula",
     ["solve", "{trail-200}", "--backend", "sat", "--crosscheck", "none"],
     "solving with cadical195", 3.0),
    ("sat:glucose4: search, big formula (1.4 GB)",
     ["solve", "{trail-200}", "--backend", "sat:glucose4", "--crosscheck", "none"],
     "solving with glucose4", 3.0),
    ("sat:lingeling (a child): search", ["solve", "{k6}", "--backend", "sat:lingeling",
                                         "--precheck", "off", "--crosscheck", "none"],
     "solving with lingeling", 3.0),
    ("sat/transition: search", ["solve", "{trail-200}", "--backend", "sat/transition",
                                "--crosscheck", "none"], "solving with cadical195", 3.0),
    ("count, sat:glucose4", ["count", "{k7-ring}", "--backend", "sat:glucose4"],
     "solving with glucose4", 3.0),
    ("count, cpsat", ["count", "{k7-ring}", "--backend", "cpsat", "--method", "enumerate"],
     "solving with cpsat", 3.0),
    ("prove --drup, sat", ["prove", "{k6}", "--drup"], "solving with cadical195", 3.0),
    ("compare direct,sat", ["compare", str(SPECS / "koenigsberg.yaml"), "{k6}", "--backends",
                            "direct,sat", "--precheck", "off"], "solving with sat on", 3.0),
    ("repair (cpsat)", ["repair", str(SPECS / "bench" / "hard-alternating-12-no.yaml")],
     "solving with cpsat", 3.0),
    ("explain (cpsat)", ["explain", "{k12}"], "solving with cpsat", 2.0),
]


def interrupt_latencies(k6: str) -> None:
    """How fast each python-sat solver honours ``interrupt()``."""
    import threading
    import time

    from trailkit.models.formulas.position_encoding import encode
    from trailkit.models.spec import load_spec
    from trailkit.solvers.backends.sat.runner import available_solvers, can_interrupt, new_solver

    puzzle = load_spec(k6)
    clauses, _ = encode(puzzle, puzzle.num_edges)
    for name in available_solvers():
        try:
            interruptible = can_interrupt(name)
        except Exception as exc:  # not built into this python-sat
            print(f"{name:12} not available ({type(exc).__name__})")
            continue
        if not interruptible:
            print(f"{name:12} interrupt() not implemented: runs in a child process")
            continue
        solver = new_solver(name, clauses)
        thread = threading.Thread(target=lambda s=solver: s.solve_limited(expect_interrupt=True))
        thread.start()
        time.sleep(1.0)
        asked = time.monotonic()
        solver.interrupt()
        thread.join(10)
        took = time.monotonic() - asked
        print(f"{name:12} " + ("still running 10 s after interrupt()" if thread.is_alive()
                               else f"returned {took * 1000:.1f} ms after interrupt()"))
        if not thread.is_alive():
            solver.delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--load", type=int, default=0, metavar="N",
                        help="busy loops to run beside")
    parser.add_argument("--only", default="", help="only the cases whose name has TEXT")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solvers", action="store_true",
                        help="measure python-sat's interrupt() per solver instead")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(args.load)]
    try:
        with tempfile.TemporaryDirectory() as folder:
            puzzles = write_slow_puzzles(Path(folder))
            if args.solvers:
                interrupt_latencies(puzzles["k6"])
                return
            print(f"{args.trials} trials per case, {args.load} busy loop(s) beside, load "
                  f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            print(f"{'case':44} {'median s':>9} {'worst s':>8} {'x direct':>9}  notes")
            peer = None
            for name, command, sign, window in CASES:
                if args.only not in name:
                    continue
                argv = [part.format(**puzzles) for part in command]
                times, notes = [], []
                for trial in range(args.trials):
                    after = 0.0 if trial == 0 else rng.uniform(0, window)
                    run = ctrl_c(argv, f"trailkit: {sign}", after=after)
                    times.append(run.seconds)
                    if run.code != 130 or "Traceback" in run.err:
                        notes.append(f"exit {run.code} at +{after:.1f} s")
                    if "building" in sign and "solving with" in run.err:
                        notes.append(f"+{after:.1f} s was already solving")
                median = statistics.median(times)
                if name.startswith("direct"):
                    peer = median
                ratio = f"{median / peer:9.1f}" if peer else f"{'-':>9}"
                print(f"{name:44} {median:9.2f} {max(times):8.2f} {ratio}  "
                      f"{'; '.join(notes)}", flush=True)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


if __name__ == "__main__":
    main()
