"""What certifying a count of reusable walks costs: direct's count against its ``layers``.

Run: ``python tests/bench/bench_count_layers.py``. For the restored tyre puzzle, every
bundled colour walk (``specs/``, ``specs/bench/``) and every other bundled spec whose
edges may be reused, it times direct's count of the shortest walks (its breadth-first
search per start, ``bfs-shortest-paths``; run once before timing) and, apart, the count
certificate: the layers made with their walks counted
(:func:`~trailkit.solvers.pipeline.layered_count.reusable_count_claim`, which has the
independent checker accept them) and the check alone
(:func:`~trailkit.models.checking.certificates.verdict`); a median of 5 runs each. A
puzzle without a walk is certified by its unsolvability certificate instead (``closed-set``).
It prints each spec's times and the ratio (certificate made and checked) / (count), and
the median ratio.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trailkit.models.checking.certificates import verdict
from trailkit.models.puzzle import EdgeUse
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import NO_LIMITS
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.layered_count import reusable_count_claim

ROOT = Path(__file__).resolve().parents[2]


def median_s(work: Callable[[], Any]) -> tuple[float, Any]:
    """Median seconds of ``work()`` over 5 runs."""
    times, value = [], None
    for _ in range(5):
        began = time.perf_counter()
        value = work()
        times.append(time.perf_counter() - began)
    return statistics.median(times), value


def main() -> None:
    direct = get_backend("direct")
    ratios = []
    for path in sorted(ROOT.glob("specs/**/*.yaml")):
        puzzle = load_spec(path)
        if puzzle.use is not EdgeUse.ANY:
            continue
        direct.count(puzzle, NO_LIMITS)  # compiled and warm
        counting, result = median_s(lambda p=puzzle: direct.count(p, NO_LIMITS))
        certifying, claim = median_s(lambda p=puzzle: reusable_count_claim(p))
        name = str(path.relative_to(ROOT))
        if not claim.checked:
            print(f"{name:48} {result.solutions:>6,}  count {counting:8.4f} s  not "
                  f"certified: {claim.why}")
            continue
        assert claim.value == result.solutions, (claim.value, result.solutions)
        checking, checked = median_s(lambda p=puzzle, c=claim: verdict(p, c.certificate))
        assert checked.accepted, checked.problems
        ratio = certifying / max(counting, 1e-6)
        ratios.append(ratio)
        print(f"{name:48} {result.solutions:>6,}  {claim.certificate.kind:10}  count "
              f"{counting * 1000:8.1f} ms  certify {certifying * 1000:8.1f} ms  (check "
              f"{checking * 1000:8.1f} ms)  ratio {ratio:5.2f}")
    if ratios:
        print(f"median ratio (certificate made and checked / count): "
              f"{statistics.median(ratios):.2f} over {len(ratios)} specs")


if __name__ == "__main__":
    main()
