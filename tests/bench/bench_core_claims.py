"""What certifying a core costs ``explain`` (issue 32): with and without its certificate.

Run: ``python tests/bench/bench_core_claims.py [REPEAT]`` (default 5). For each bundled
spec whose explanation has a core (Königsberg, the double-nine set, and the bench specs
whose cores once rested on CP-SAT alone), ``explain`` is timed as it is (the core's
``odd-nodes``, ``odd-cuts`` or ``walk-core-v1`` refutation made and checked with every
witness) and with the core left uncertified (its certification step skipped), runs
interleaved, medians reported with their ratio.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

from trailkit.models.spec import load_spec
from trailkit.models.support.words import plural
from trailkit.solvers.tools.repair import cores
from trailkit.solvers.tools.repair.explanation import explain

ROOT = Path(__file__).resolve().parents[2]
SPECS = ["specs/koenigsberg.yaml", "specs/dominoes/double-nine.yaml",
         "specs/bench/small-trail-10-no.yaml", "specs/bench/small-alternating-6-no.yaml",
         "specs/bench/hard-alternating-12-no.yaml", "specs/bench/hard-alternating-14-no.yaml"]


def _uncertified(puzzle: Any, core: Any, *_: Any) -> Any:
    return core


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    certify = cores._certified
    explain(load_spec(ROOT / SPECS[0]))  # imports and compiled kernels, once
    print("| spec | core | certificate | with (s) | without (s) | ratio |")
    print("|---|---|---|---|---|---|")
    for name in SPECS:
        puzzle = load_spec(ROOT / name)
        times: dict[bool, list[float]] = {True: [], False: []}
        kind = "none"
        for _ in range(repeat):
            for certified in (True, False):
                cores._certified = certify if certified else _uncertified  # type: ignore[assignment]
                began = time.perf_counter()
                found = explain(puzzle)
                times[certified].append(time.perf_counter() - began)
                if certified and found.core is not None and found.core.certificate:
                    kind = found.core.certificate.kind
        cores._certified = certify  # type: ignore[assignment]
        core = found.core
        with_, without = (statistics.median(times[c]) for c in (True, False))
        print(f"| {name} | {plural(len(core.edges), 'edge') if core else '-'} | {kind} | "
              f"{with_:.3f} | {without:.3f} | {with_ / without:.2f} |", flush=True)


if __name__ == "__main__":
    main()
