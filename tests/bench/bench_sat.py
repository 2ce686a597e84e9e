"""Benchmark of the sat backend: solve, prove and check times side by side.

Run: ``python tests/bench/bench_sat.py [--quick | --checker]``. Instances: the double-six domino
ring, random Eulerian multigraphs (50/100/200 edges, solvable), alternating
red/blue circuits (30-100 edges, solvable, and unsolvable with one colour
flipped), small unsolvable parity and colour instances; solvers side by side. For
UNSAT answers it logs the DRUP proof (lemmas), builds the certificate and checks it
with trailkit's checker (lemmas/s). It also compares cardinality encodings and
times the checker on pigeonhole and random 3-SAT proofs of 30,000 to 300,000 lemmas
from three solvers, and the compiled checker against itself interpreted
(``--checker`` runs only that part, uncapped in total). Total time is capped.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time

from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.answer import Status
from trailkit.models.checking.drup import check_drup, check_drup_certificate
from trailkit.models.formulas.position_encoding import CARDINALITIES, encode
from trailkit.models.puzzle import ColourRule, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.sat import SatBackend

SOLVERS = ["cadical195", "glucose4", "maplechrono", "kissat404"]
LIMIT = 10.0  # seconds per solve or prove
BUDGET = 300.0  # seconds for the whole run
CHECK_LIMIT = 30.0  # seconds per proof check in the table
REPEAT = 3  # checker timings are medians of this many runs
START = time.monotonic()


def over_budget() -> bool:
    return time.monotonic() - START > BUDGET


def dominoes(n: int) -> Puzzle:
    pairs = [(str(a), str(b)) for a in range(n + 1) for b in range(a, n + 1)]
    return Puzzle.build(kind="domino-chain", edges=pairs, closed=True)


def random_eulerian(m: int, n: int, seed: int) -> Puzzle:
    """A closed random walk of ``m`` steps on ``n`` nodes: every degree is even."""
    rng = random.Random(seed)
    walk = [rng.randrange(n) for _ in range(m)]
    edges = [(f"v{walk[i]}", f"v{walk[(i + 1) % m]}") for i in range(m)]
    return Puzzle.build(kind="trail", edges=edges, closed=True)


def alternating(m: int, n: int, seed: int, *, flip: bool) -> Puzzle:
    """A closed walk coloured red, blue, red, ... (``m`` even); ``flip`` recolours one
    edge, so red and blue no longer balance and no alternating circuit exists."""
    rng = random.Random(seed)
    walk = [rng.randrange(n) for _ in range(m)]
    colours = ["red" if i % 2 == 0 else "blue" for i in range(m)]
    if flip:
        colours[2 * rng.randrange(m // 2) + 1] = "red"  # a blue edge turns red
    edges = [(f"v{walk[i]}", f"v{walk[(i + 1) % m]}", colours[i]) for i in range(m)]
    order = sorted(range(m), key=lambda _: rng.random())  # hide the walk order
    rule = ColourRule.from_cycle(["red", "blue"])
    return Puzzle.build(kind="walk", edges=[edges[i] for i in order], colours=rule,
                        closed=True)


def parity(extra: int, seed: int) -> Puzzle:
    """A random Eulerian graph plus two edges between fresh pairs: four odd nodes."""
    base = random_eulerian(extra, 5, seed)
    edges = [(base.nodes[u], base.nodes[v]) for u, v in zip(base.tail, base.head, strict=True)]
    return Puzzle.build(kind="trail", edges=[*edges, ("v0", "v1"), ("v2", "v3")])


INSTANCES = [
    ("double-six dominoes (28)", dominoes(6)),
    ("random Eulerian 50", random_eulerian(50, 15, 1)),
    ("random Eulerian 100", random_eulerian(100, 25, 2)),
    ("random Eulerian 200", random_eulerian(200, 40, 3)),
    ("alternating 30 solvable", alternating(30, 8, 4, flip=False)),
    ("alternating 60 solvable", alternating(60, 12, 5, flip=False)),
    ("alternating 100 solvable", alternating(100, 20, 6, flip=False)),
    ("alternating 12 unsolvable", alternating(12, 4, 7, flip=True)),
    ("alternating 20 unsolvable", alternating(20, 6, 8, flip=True)),
    ("alternating 30 unsolvable", alternating(30, 8, 8, flip=True)),
    ("parity 10+2 unsolvable", parity(10, 9)),
    ("parity 14+2 unsolvable", parity(14, 10)),
]


def bench_instances() -> None:
    print(f"{'instance':28} {'solver':12} {'status':10} {'solve s':>8} {'lemmas':>8} "
          f"{'prove s':>8} {'check s':>8} {'lemmas/s':>9} cert")
    for label, puzzle in INSTANCES:
        for name in SOLVERS:
            if over_budget():
                print("(time budget reached)")
                return
            backend = SatBackend(name)
            t0 = time.monotonic()
            answer = backend.solve(puzzle, Limits(time_limit=LIMIT))
            solve_s = time.monotonic() - t0
            row = f"{label:28} {name:12} {answer.status.value:10} {solve_s:8.2f}"
            if answer.status is not Status.UNSOLVABLE or name == "kissat404":
                print(row)
                continue
            t0 = time.monotonic()
            cert = backend.prove(puzzle, Limits(time_limit=LIMIT))
            prove_s = time.monotonic() - t0
            if cert is None:
                print(f"{row} {'-':>8} {prove_s:8.2f}  (no certificate)")
                continue
            lemmas = cert.data["proof_lemmas"]
            t0 = time.monotonic()
            problems = check_drup_certificate(puzzle, cert, time_limit=CHECK_LIMIT)
            check_s = time.monotonic() - t0
            if not problems:
                verdict = "accepted"
            elif problems[0].startswith("unchecked"):
                verdict = f"unchecked (over the {CHECK_LIMIT:.0f} s check cap)"
            else:
                verdict = "REJECTED " + problems[0]
            print(f"{row} {lemmas:8} {prove_s:8.2f} {check_s:8.2f} "
                  f"{lemmas / max(check_s, 1e-9):9.0f} {verdict}")


def bench_cardinality() -> None:
    print("\ncardinality encodings (cadical195; clauses, vars, solve s)")
    for label, puzzle in [INSTANCES[2], INSTANCES[5], INSTANCES[7]]:
        for card in ["seqcounter", "ladder", "totalizer", "pairwise"]:
            if over_budget():
                return
            assert card in CARDINALITIES
            clauses, vmap = encode(puzzle, puzzle.num_edges, cardinality=card)
            t0 = time.monotonic()
            with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as s:
                result = s.solve()
                proof = len(s.get_proof() or []) if not result else 0
            print(f"  {label:28} {card:11} {len(clauses):8} {vmap.num_vars:7} "
                  f"{time.monotonic() - t0:7.2f} {'sat' if result else f'unsat, {proof} lines'}")


CHECKER_SOLVERS = ["cadical195", "glucose4", "lingeling"]
CHECKER_CAP = 60.0  # seconds per check: the target for a 100,000-lemma proof


def random_3sat(n: int, seed: int) -> list[list[int]]:
    """A random 3-SAT formula at the threshold (4.26 clauses per variable)."""
    rng = random.Random(seed)
    return [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)]
            for _ in range(int(4.26 * n))]


def checker_formulas() -> list[tuple[str, list[list[int]]]]:
    """Pigeonhole and random 3-SAT formulas whose refutations run to 30,000-300,000
    lemmas (the random ones are kept only when unsatisfiable)."""
    return [("PHP(8)", PHP(8).clauses), ("PHP(9)", PHP(9).clauses),
            ("3-SAT n=200 #1", random_3sat(200, 1)), ("3-SAT n=230 #0", random_3sat(230, 0)),
            ("3-SAT n=230 #1", random_3sat(230, 1))]


def refutation(clauses: list[list[int]], name: str) -> list[str] | None:
    """``name``'s DRUP refutation of ``clauses`` (None if they are satisfiable)."""
    with Solver(name=name, bootstrap_with=clauses, with_proof=True) as s:
        return None if s.solve() else s.get_proof()


INTERPRETED = """
import json, sys, time
from trailkit.models.checking.drup import check_drup
clauses, proof = json.load(sys.stdin)
t0 = time.perf_counter()
ok, message = check_drup(clauses, proof)
print(json.dumps([ok, time.perf_counter() - t0]))
"""


def interpreted_seconds(clauses: list[list[int]], proof: list[str]) -> float | None:
    """Seconds the same kernel takes with Numba switched off (None if it failed)."""
    run = subprocess.run([sys.executable, "-c", INTERPRETED], input=json.dumps([clauses, proof]),
                         capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    if run.returncode != 0:
        return None
    ok, seconds = json.loads(run.stdout)
    return seconds if ok else None


def bench_checker() -> None:
    """The checker (backward, the default) on proofs of three solvers, then the
    compiled kernel against the very same kernel interpreted, on small proofs.

    lemmas/s counts the proof's lemmas per second of checking (what a user waits
    for, parsing included); "checked" is how many lemmas were RUP-checked
    (backward skips lemmas no conflict uses). Medians of ``REPEAT`` runs.
    """
    check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"])  # compile, or load the cache
    print(f"\nchecker on solver proofs (backward, cap {CHECKER_CAP:.0f} s, median of {REPEAT})")
    print(f"  {'formula':16} {'solver':11} {'lines':>8} {'lemmas':>8} {'checked':>8} "
          f"{'check s':>7} {'lemmas/s':>8}  result")
    for label, clauses in checker_formulas():
        for name in CHECKER_SOLVERS:
            if over_budget():
                return
            proof = refutation(clauses, name)
            if proof is None:
                print(f"  {label:16} satisfiable, skipped")
                break
            lemmas = sum(1 for line in proof if not line.startswith("d"))
            times, ok, message = [], False, ""
            for _ in range(REPEAT):
                t0 = time.monotonic()
                ok, message = check_drup(clauses, proof, time_limit=CHECKER_CAP)
                times.append(time.monotonic() - t0)
            took = statistics.median(times)
            checked = message.split("(")[-1].split(" of")[0] if ok else "-"
            rate = f"{lemmas / took:8.0f}" if ok else f"{'-':>8}"
            print(f"  {label:16} {name:11} {len(proof):8} {lemmas:8} {checked:>8} {took:7.2f} "
                  f"{rate}  {'accepted' if ok else 'NOT accepted: ' + message}", flush=True)
    print("\ncompiled kernel against the same kernel interpreted (NUMBA_DISABLE_JIT=1)")
    for holes, name in [(5, "cadical195"), (6, "cadical195"), (6, "glucose4")]:
        clauses = PHP(holes).clauses
        proof = refutation(clauses, name)
        assert proof is not None
        compiled = statistics.median(_timed(clauses, proof) for _ in range(REPEAT))
        slow = interpreted_seconds(clauses, proof)
        ratio = f"{slow / compiled:6.0f}x" if slow else "failed"
        print(f"  PHP({holes}) {name:11} {len(proof):7} lines  compiled {compiled:7.3f} s  "
              f"interpreted {slow or float('nan'):7.2f} s  -> {ratio}", flush=True)


def _timed(clauses: list[list[int]], proof: list[str]) -> float:
    """Seconds one (compiled) check of ``proof`` takes."""
    t0 = time.perf_counter()
    check_drup(clauses, proof)
    return time.perf_counter() - t0


if __name__ == "__main__":
    if "--checker" in sys.argv:  # only the checker comparison
        BUDGET = float("inf")
        bench_checker()
        sys.exit()
    if "--quick" in sys.argv:
        INSTANCES[:] = INSTANCES[:3]
    bench_cardinality()
    bench_checker()
    bench_instances()
    print(f"\ntotal {time.monotonic() - START:.0f} s")
