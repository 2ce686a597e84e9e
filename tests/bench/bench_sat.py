"""Benchmark of the sat backend: solve, prove and check times side by side.

Run: ``python tests/bench/bench_sat.py [--quick | --checker]``. Instances: the double-six domino
ring, random Eulerian multigraphs (50/100/200 edges, solvable), alternating
red/blue circuits (30-100 edges, solvable, and unsolvable with one colour
flipped), small unsolvable parity and colour instances; solvers side by side. For
UNSAT answers it logs the DRUP proof (lemmas), builds the certificate and checks it
with trailkit's checker (lemmas/s). It also compares cardinality encodings and
times the checker, backward and forward, on pigeonhole proofs of 35,000 to 300,000
lemmas (``--checker`` runs only that part, uncapped in total). Total time is capped.
"""

from __future__ import annotations

import random
import sys
import time

from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.answer import Status
from trailkit.models.drup import check_drup, check_drup_certificate
from trailkit.models.puzzle import ColourRule, Puzzle
from trailkit.solvers.base import Limits
from trailkit.solvers.sat import SatBackend
from trailkit.solvers.sat.encode import CARDINALITIES, encode

SOLVERS = ["cadical195", "glucose4", "maplechrono", "kissat404"]
LIMIT = 10.0  # seconds per solve or prove
BUDGET = 300.0  # seconds for the whole run
CHECK_LIMIT = 30.0  # seconds per proof check in the table
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


CHECKER_CASES = [(8, "cadical195"), (9, "cadical195"), (8, "glucose4"), (9, "glucose4")]
CHECKER_CAP = 60.0  # seconds per check: the issue's target for a 100,000-lemma proof


def pigeonhole_proof(holes: int, name: str) -> tuple[list[list[int]], list[str]]:
    """PHP(holes) (holes + 1 pigeons) and ``name``'s DRUP refutation of it."""
    cnf = PHP(holes)
    with Solver(name=name, bootstrap_with=cnf.clauses, with_proof=True) as s:
        s.solve()
        return cnf.clauses, s.get_proof()


def bench_checker() -> None:
    """Backward (default) and forward checking side by side on pigeonhole proofs.

    lemmas/s counts the proof's lemmas per second of checking (what a user waits
    for); "checked" is how many lemmas were RUP-checked (backward skips lemmas no
    conflict uses). A check over the cap reports the line it had reached.
    """
    print(f"\nchecker on pigeonhole proofs (cap {CHECKER_CAP:.0f} s per check)")
    print(f"  {'proof':18} {'lines':>7} {'lemmas':>7} {'mode':8} {'check s':>7} "
          f"{'lemmas/s':>8}  result")
    for holes, name in CHECKER_CASES:
        if over_budget():
            return
        clauses, proof = pigeonhole_proof(holes, name)
        lemmas = sum(1 for line in proof if not line.startswith("d"))
        for backward in (True, False):
            t0 = time.monotonic()
            ok, message = check_drup(clauses, proof, time_limit=CHECKER_CAP, backward=backward)
            took = time.monotonic() - t0
            rate = f"{lemmas / took:8.0f}" if ok else f"{'-':>8}"
            print(f"  PHP({holes}) {name:11} {len(proof):7} {lemmas:7} "
                  f"{'backward' if backward else 'forward':8} {took:7.1f} {rate}  "
                  f"{'accepted' if ok else 'NOT accepted'}: {message}", flush=True)


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
