"""Proof sizes and checking times on the balanced family (``trailkit generate balanced``).

Run: ``python tests/bench/bench_balanced.py [SPEC...]`` (default: the ``*balanced*-no``
specs of ``specs/bench``). For each spec and each SAT encoding the backend alone
solves it (no structural pre-check: nothing short applies to this family anyway, and
no cross-check), then trailkit's checker checks its certificate, timed apart: the
solve time (with proof logging), the proof's lemmas, the cut clauses (transition
encoding) and the checking time. One run each.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from trailkit.models.checking.certificates import check_certificate
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend

BACKENDS = ("sat/position", "sat/transition")  # plain sat picks by the estimates
LIMITS = Limits(time_limit=300)


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    specs = sys.argv[1:] or sorted(str(p.relative_to(root))
                                   for p in (root / "specs/bench").glob("*balanced*-no.yaml"))
    print("| spec | edges | backend | status | solve s | lemmas | cuts | check s |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in specs:
        puzzle = load_spec(root / spec)
        for backend in BACKENDS:
            began = time.perf_counter()
            answer = get_backend(backend).solve(puzzle, LIMITS)
            solve_s = time.perf_counter() - began
            cert = answer.certificate
            lemmas = cuts = check = "-"
            if cert is not None and cert.kind == "drup":
                lemmas = f"{cert.data['proof_lemmas']:,}"
                cuts = str(len(cert.data.get("cuts", []))) if "cuts" in cert.data else "-"
                began = time.perf_counter()
                problems = check_certificate(puzzle, cert)
                check = f"{time.perf_counter() - began:.2f}" + (" REJECTED" if problems else "")
            print(f"| {Path(spec).name} | {puzzle.num_edges} | {backend} | "
                  f"{answer.status.value} | {solve_s:.2f} | {lemmas} | {cuts} | {check} |",
                  flush=True)


if __name__ == "__main__":
    main()
