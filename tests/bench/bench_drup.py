"""Benchmark: trailkit's DRUP checker against drat-trim on the same proof files.

Run on demand: ``python tests/bench/bench_drup.py [--repeat 3] [--drat-trim PATH]
[--quick] [--big] [--lrat] [--keep DIR]``.

The proofs are logged by python-sat's solvers and written, with their CNF, to a
temporary folder (``--keep DIR``: to DIR, kept, so the same files can be re-timed):
the pigeonhole formula PHP(9) (10 pigeons, 9 holes,
``pysat.examples.genhard.PHP(9)``) and a random 3-SAT formula with 230 variables at
4.26 clauses per variable (seed 0, unsatisfiable; the same formula as
``bench_sat.py --checker``), each refuted by CaDiCaL 1.9.5 and by Glucose 4
(``--quick``: PHP(8) and n=200 instead, seconds rather than minutes).

Each measurement is a fresh process: trailkit's is a small ``python -c`` that reads
the CNF and calls :func:`trailkit.models.checking.drup.check_drup` on the proof file's path
(read in blocks, as a certificate's side file is, and as drat-trim reads its file;
process start, imports, reading, parsing, checking and exit included; it ends as the
``trailkit`` command does, its heap frozen so the exit does not collect it); drat-trim's is
``drat-trim CNF PROOF`` (its default backward mode, core-first). Times are medians of
``--repeat`` runs, trailkit's and drat-trim's taken in turn (a slow spell of the shared
machine falls on both); ``MB`` is the child's peak resident set (``RUSAGE_CHILDREN`` of a
one-child wrapper). Ratios are trailkit over drat-trim, of medians in this same run;
the targets are 1.2x in time and 2x in memory. Both must say VERIFIED (the ``ok``
column). ``check s`` is the median time of trailkit's check alone, inside its process
(no interpreter start, imports or Numba's loading of its compiled code; reading the
proof file included, reading the CNF not).

``--lrat`` adds a second table: trailkit checking and writing LRAT
(:func:`trailkit.models.checking.drup.drup_to_lrat`, the file written) against ``drat-trim CNF PROOF
-L FILE``, and the small LRAT checker (:mod:`trailkit.models.checking.lrat`) on trailkit's LRAT file
and on drat-trim's. ``--big`` adds PHP(10) refuted by CaDiCaL, a proof of over a million
lemmas, for the memory target (in both tables: the memory target holds with LRAT
written too, against ``drat-trim -L``).

drat-trim is found as ``--drat-trim PATH``, else ``$DRAT_TRIM``, else on ``PATH``; it
is third-party code and never part of this repository. Without it the table still shows
trailkit's numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from pysat.examples.genhard import PHP
from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sat import random_3sat  # the checker benchmark's formula

TIME_TARGET = 1.2
MEMORY_TARGET = 2.0
SOLVERS = [("CaDiCaL", "cadical195"), ("Glucose", "glucose4")]
BUILD_HINT = ("build it from drat-trim's public C source (github.com/marijnheule/drat-trim): "
              "cc -O2 -o drat-trim drat-trim.c, then pass --drat-trim PATH or set $DRAT_TRIM")

# Runs argv[1:] as one child; prints [wall s, peak RSS MiB, the child's stdout] as JSON.
WRAPPER = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
run = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
took = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps([took, peak, run.stdout]))
"""

# trailkit's side: read the CNF and the proof file, check, say VERIFIED as drat-trim does
# (without the certificates' cap on proof lines: PHP(10)'s proof has 4.6 million).
TRAILKIT = """
import gc, sys, time
from pathlib import Path
from trailkit.models.checking.drup import check_drup
clauses, clause = [], []
for line in Path(sys.argv[1]).read_text().splitlines():
    if line and line[0] not in "cp":
        for x in map(int, line.split()):
            if x:
                clause.append(x)
            else:
                clauses.append(clause)
                clause = []
t0 = time.perf_counter()
ok, message = check_drup(clauses, Path(sys.argv[2]), max_lemmas=10**9)
print(f"c check {time.perf_counter() - t0:.3f} s: {message}")
print("s VERIFIED" if ok else "s NOT VERIFIED")
gc.freeze()  # ends as the trailkit command does (trailkit.solvers.frontends.cli.main)
"""


# --lrat: trailkit writes the LRAT proof (drup_to_lrat) as drat-trim -L does.
TRAILKIT_LRAT = """
import gc, sys, time
from pathlib import Path
from trailkit.models.checking.drup import drup_to_lrat
from trailkit.models.checking.lrat import read_dimacs
_, clauses = read_dimacs(Path(sys.argv[1]).read_text())
t0 = time.perf_counter()
with open(sys.argv[3], "wb") as out:  # written a block at a time, as drat-trim -L does
    ok, message, _ = drup_to_lrat(clauses, Path(sys.argv[2]), max_lemmas=10**9,
                                  write=out.write)
print(f"c check {time.perf_counter() - t0:.3f} s: {message}")
print("s VERIFIED" if ok else "s NOT VERIFIED")
gc.freeze()  # ends as the trailkit command does (trailkit.solvers.frontends.cli.main)
"""

# --lrat: trailkit's small LRAT checker on an LRAT file (its own, or drat-trim's).
LRAT_CHECK = """
import gc, sys, time
from trailkit.models.checking.lrat import check_lrat_files
t0 = time.perf_counter()
ok, message = check_lrat_files(sys.argv[1], sys.argv[2])
print(f"c check {time.perf_counter() - t0:.3f} s: {message}")
print("s VERIFIED" if ok else "s NOT VERIFIED")
gc.freeze()  # ends as the trailkit command does (trailkit.solvers.frontends.cli.main)
"""


def instances(quick: bool, big: bool) -> list[tuple[str, list[list[int]]]]:
    """The formulas, named; ``big`` adds PHP(10), whose CaDiCaL proof has over a million
    lemmas (for the memory target)."""
    if quick:
        return [("PHP(8)", PHP(8).clauses), ("3-SAT n=200", random_3sat(200, 1))]
    return [("PHP(9)", PHP(9).clauses), ("3-SAT n=230", random_3sat(230, 0))] + (
        [("PHP(10)", PHP(10).clauses)] if big else [])


def write_proof(folder: Path, label: str, clauses: list[list[int]], solver: str,
                name: str) -> tuple[str, Path, Path, int] | None:
    """Write ``clauses`` and ``solver``'s refutation of them; None if satisfiable."""
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        proof = s.get_proof()
    stem = f"{label}-{solver}".replace(" ", "").replace("=", "").replace("(", "").replace(")", "")
    cnf, drup = folder / f"{stem}.cnf", folder / f"{stem}.drup"
    num_vars = max(abs(x) for c in clauses for x in c)
    cnf.write_text(f"p cnf {num_vars} {len(clauses)}\n"
                   + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses))
    drup.write_text("\n".join(proof) + "\n")
    lemmas = sum(1 for line in proof if not line.startswith("d"))
    return f"{label} {name}", cnf, drup, lemmas


def run_once(command: list[str]) -> tuple[float, float, str]:
    """One fresh process of ``command``: wall time (s), peak RSS (MiB), its output.
    Python may keep its byte-code cache, as in any installation: with
    ``PYTHONDONTWRITEBYTECODE`` set (as on this project's machines) every process would
    compile trailkit's modules again, 0.06 s that no installed trailkit spends."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    took, peak, out = json.loads(subprocess.run(
        [sys.executable, "-c", WRAPPER, *command], check=True, capture_output=True,
        text=True, env=env).stdout)
    return took, peak, out


def measure_side_by_side(commands: list[list[str]], repeat: int
                         ) -> list[tuple[float, float, bool, list[str]]]:
    """For each command: the median wall time (s), the largest peak RSS (MiB), whether
    every run said VERIFIED, and every run's output. The commands' runs are taken in
    turn (one of each, then the next round), so that a slow spell of the shared machine
    falls on all of them rather than on whichever ran then: ratios compare like with
    like."""
    runs: list[list[tuple[float, float, str]]] = [[] for _ in commands]
    for _ in range(repeat):
        for command, done in zip(commands, runs, strict=True):
            done.append(run_once(command))
    return [(statistics.median(t for t, _, _ in done), max(p for _, p, _ in done),
             all(any(line.strip() == "s VERIFIED" for line in out.splitlines())
                 for _, _, out in done), [out for _, _, out in done])
            for done in runs]


def check_seconds(outs: list[str]) -> str:
    """The median of the check times trailkit's runs report (without process start,
    imports and reading the files)."""
    return f"{statistics.median(float(o.split('c check ')[1].split(' s')[0]) for o in outs):.2f}"


def find_peer(given: str | None) -> Path | None:
    """drat-trim's executable: ``--drat-trim``, ``$DRAT_TRIM``, or ``PATH``."""
    for candidate in (given, os.environ.get("DRAT_TRIM"), shutil.which("drat-trim")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def lrat_table(jobs: list[tuple[str, Path, Path, int]], peer: Path | None,
               repeat: int) -> None:
    """trailkit writing LRAT against ``drat-trim -L``, and trailkit's LRAT checker on
    both LRAT files."""
    print(f"\n# LRAT: writing it (trailkit drup_to_lrat / drat-trim -L), then checking "
          f"it with models/checking/lrat.py (on trailkit's file / on drat-trim's); medians of "
          f"{repeat}")
    print(f"{'instance':<22} {'trailkit -L s':>13} {'MB':>5} {'drat-trim -L s':>14} "
          f"{'MB':>5} {'time':>6} {'memory':>6}  {'lrat.py s':>9} {'MB':>5} "
          f"{'on drat-trim':>12}  ok")
    ours, checker = [sys.executable, "-c", TRAILKIT_LRAT], [sys.executable, "-c", LRAT_CHECK]
    for label, cnf, drup, _ in jobs:
        mine, theirs = drup.with_suffix(".trailkit.lrat"), drup.with_suffix(".drat-trim.lrat")
        writers, checks = [[*ours, str(cnf), str(drup), str(mine)]], [[*checker, str(cnf),
                                                                         str(mine)]]
        if peer is not None:
            writers.append([str(peer), str(cnf), str(drup), "-L", str(theirs)])
            checks.append([*checker, str(cnf), str(theirs)])
        written = measure_side_by_side(writers, repeat)
        checked = measure_side_by_side(checks, repeat)  # the files exist now
        (t_ours, mb_ours, ok_ours, _), (t_check, mb_check, ok_check, _) = written[0], checked[0]
        row = f"{label:<22} {t_ours:>13.2f} {mb_ours:>5.0f} "
        if peer is None:
            print(f"{row}{'-':>14} {'-':>5} {'-':>6} {'-':>6}  {t_check:>9.2f} "
                  f"{mb_check:>5.0f} {'-':>12}  {ok_ours and ok_check}", flush=True)
            continue
        (t_peer, mb_peer, ok_peer, _), (t_other, _, ok_other, _) = written[1], checked[1]
        ok = ok_ours and ok_check and ok_peer and ok_other
        print(f"{row}{t_peer:>14.2f} {mb_peer:>5.0f} {t_ours / t_peer:>5.2f}x "
              f"{mb_ours / mb_peer:>5.2f}x  {t_check:>9.2f} {mb_check:>5.0f} "
              f"{t_other:>12.2f}  {'yes' if ok else 'NO'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--drat-trim", dest="drat_trim", default=None,
                        help="drat-trim's executable")
    parser.add_argument("--quick", action="store_true", help="smaller formulas")
    parser.add_argument("--big", action="store_true",
                        help="add PHP(10) (CaDiCaL: over a million lemmas; minutes)")
    parser.add_argument("--lrat", action="store_true",
                        help="also time writing LRAT against drat-trim -L, and the LRAT "
                             "checker")
    parser.add_argument("--keep", metavar="DIR", default=None,
                        help="write the CNF and proof files to DIR and keep them "
                             "(to re-time the same files), instead of a temporary folder")
    args = parser.parse_args()
    peer = find_peer(args.drat_trim)
    if peer is None:
        print(f"# drat-trim not found: only trailkit's numbers; {BUILD_HINT}")
    else:
        print(f"# drat-trim: {peer}")
    ours = [sys.executable, "-c", TRAILKIT]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        jobs = []
        for label, clauses in instances(args.quick, args.big):
            for name, solver in SOLVERS[:1] if label == "PHP(10)" else SOLVERS:
                job = write_proof(folder, label, clauses, solver, name)
                if job is None:
                    print(f"# {label} is satisfiable: skipped")
                    break
                jobs.append(job)
        subprocess.run([*ours, str(jobs[0][1]), str(jobs[0][2])], check=True,
                       capture_output=True)  # compile the kernel, or load its cache
        print(f"# medians of {args.repeat} fresh processes; ratios trailkit / drat-trim; "
              f"targets {TIME_TARGET}x time, {MEMORY_TARGET}x memory")
        print(f"{'instance':<22} {'lemmas':>8} {'trailkit s':>10} {'MB':>5} {'drat-trim s':>11} "
              f"{'MB':>5} {'time':>6} {'memory':>6}  {'ok':<5} check s")
        for label, cnf, drup, lemmas in jobs:
            commands = [[*ours, str(cnf), str(drup)]]
            if peer is not None:
                commands.append([str(peer), str(cnf), str(drup)])
            measured = measure_side_by_side(commands, args.repeat)
            t_ours, mb_ours, ok_ours, outs = measured[0]
            check = check_seconds(outs) if ok_ours else "-"
            if peer is None:
                print(f"{label:<22} {lemmas:>8,} {t_ours:>10.2f} {mb_ours:>5.0f} {'-':>11} "
                      f"{'-':>5} {'-':>6} {'-':>6}  {'yes' if ok_ours else 'NO':<5} {check}",
                      flush=True)
                continue
            t_peer, mb_peer, ok_peer, _ = measured[1]
            agree = "yes" if ok_ours and ok_peer else f"NO ({ok_ours}/{ok_peer})"
            print(f"{label:<22} {lemmas:>8,} {t_ours:>10.2f} {mb_ours:>5.0f} {t_peer:>11.2f} "
                  f"{mb_peer:>5.0f} {t_ours / t_peer:>5.2f}x {mb_ours / mb_peer:>5.2f}x  "
                  f"{agree:<5} {check}", flush=True)
        if args.lrat:
            lrat_table(jobs, peer, args.repeat)


if __name__ == "__main__":
    main()
