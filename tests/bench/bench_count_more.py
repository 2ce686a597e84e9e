"""What certifying a count with empty walks or under an objective costs (issue 32).

Run: ``python tests/bench/bench_count_more.py``. For a few at-most-once puzzles (the
bundled longest train, and grids whose walks may be empty or must be the shortest or
longest) it times direct's count alone (``Backend.count``) and, apart, the ``count``
claim by refutation (``count_claim``: the walks listed by the SAT backend with proof
logging, then checked by the independent checker), a median of 3 runs each, and prints
both, their ratio and the number certified.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.refuted_claims import count_claim

ROOT = Path(__file__).resolve().parents[2]


def grid(rows: int, cols: int, extra: str) -> Puzzle:
    """A rows × cols grid of points joined to their neighbours, edges used at most once."""
    edges = [f"p{r}_{c} p{r}_{c + 1}" for r in range(rows) for c in range(cols - 1)]
    edges += [f"p{r}_{c} p{r + 1}_{c}" for r in range(rows - 1) for c in range(cols)]
    return load_spec_text(f"trailkit: 1\nkind: walk\nuse: at-most-once\n{extra}"
                          f"edges: [{', '.join(edges)}]\n")


def median_time(job: Callable[[], Any], runs: int = 3) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        began = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - began)
    return statistics.median(times), result


def main() -> None:
    cases = {
        "longest-train (objective: longest)": load_spec(
            ROOT / "specs" / "dominoes" / "longest-train.yaml"),
        "grid 2x3, empty walks allowed": grid(2, 3, ""),
        "grid 3x3 corner to corner, shortest": grid(
            3, 3, "objective: shortest\nstart: p0_0\nend: p2_2\n"),
        "grid 2x4, longest": grid(2, 4, "objective: longest\n"),
    }
    direct = get_backend("direct")
    print("| puzzle | solutions | count (s) | certificate made and checked (s) | ratio |")
    print("|---|---|---|---|---|")
    for name, puzzle in cases.items():
        counted_s, counted = median_time(lambda p=puzzle: direct.count(p))
        claim_s, claim = median_time(lambda p=puzzle: count_claim(p, by_refutation=True))
        assert claim.checked and claim.value == counted.solutions, (name, claim.why)
        print(f"| {name} | {counted.solutions} | {counted_s:.3f} | {claim_s:.3f} | "
              f"{claim_s / counted_s:.0f}x |")


if __name__ == "__main__":
    main()
