"""What certifying a count made by the formula costs: the count against its certificate.

Run: ``python tests/bench/bench_count_certificate.py``. For every bundled spec the formula
counts (every edge exactly once, no colour rule: ``specs/``, ``specs/bench/``,
``docs/examples/``) and two large grid figures (4 by 5 and 4 by 6 points whose lines wrap
around, a torus: every degree 4), it times direct's exact count (the BEST theorem;
compiled once before timing) and, apart, the ``best-formula`` certificate: made (the
orientation classes counted, then listed) and checked by the independent checker
(``models/checking/best_formula.py``); a median of 5 runs each (one run past a second).
It prints each spec's times and the ratio (certificate made and checked) / (count), the
median ratio, and the specs whose certificate is not made (past 100,000 classes).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.direct.exact_count import exact_count
from trailkit.solvers.backends.direct.orientation_list import (
    formula_applies,
    orientation_certificate,
)

ROOT = Path(__file__).resolve().parents[2]


def torus(rows: int, cols: int) -> Puzzle:
    """A rows × cols grid of points whose lines wrap around (a torus): every degree 4."""
    def name(r: int, c: int) -> str:
        return f"p{r % rows}_{c % cols}"

    edges = [f"{name(r, c)} {name(r, c + 1)}" for r in range(rows) for c in range(cols)]
    edges += [f"{name(r, c)} {name(r + 1, c)}" for r in range(rows) for c in range(cols)]
    return load_spec_text("trailkit: 1\nkind: trail\nedges: [" + ", ".join(edges) + "]\n")


def median_s(work: Callable[[], Any]) -> tuple[float, Any]:
    """Median seconds of ``work()`` over 5 runs (1 when a run takes over a second)."""
    times, value = [], None
    for _ in range(5):
        began = time.perf_counter()
        value = work()
        times.append(time.perf_counter() - began)
        if times[-1] > 1:
            break
    return statistics.median(times), value


def measure(name: str, puzzle: Puzzle) -> float | None:
    if not exact_count(puzzle, 10.0).complete:
        print(f"{name:45} the count takes over 10 s: not measured")
        return None
    counting, result = median_s(lambda: exact_count(puzzle))
    making, data = median_s(lambda: orientation_certificate(puzzle, lambda: result.solutions))
    if isinstance(data, str):
        print(f"{name:45} {result.solutions:>30,}  count {counting:8.4f} s  not made: {data}")
        return None
    certificate = Certificate("best-formula", data, "")
    checking, checked = median_s(lambda: verdict(puzzle, certificate))
    assert checked.accepted, checked.problems
    classes = sum(len(g["orientations"]) for g in data["graphs"])
    ratio = (making + checking) / max(counting, 1e-6)
    print(f"{name:45} {result.solutions:>30,}  {classes:>7,} classes  count {counting:8.4f} s"
          f"  make {making:8.4f} s  check {checking:8.4f} s  ratio {ratio:8.1f}")
    return ratio


def main() -> None:
    exact_count(load_spec(ROOT / "specs" / "dominoes" / "double-six.yaml"))  # compile once
    paths = sorted([*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("docs/examples/*.yaml")])
    ratios = []
    for path in paths:
        try:
            puzzle = load_spec(path)
        except Exception:
            continue
        if not formula_applies(puzzle) or path.name.startswith("hard-"):
            continue
        ratio = measure(str(path.relative_to(ROOT)), puzzle)
        if ratio is not None:
            ratios.append(ratio)
    for rows, cols in ((4, 5), (4, 6)):
        ratio = measure(f"torus grid {rows}x{cols} ({rows * cols} points)", torus(rows, cols))
        if ratio is not None:
            ratios.append(ratio)
    print(f"median ratio (certificate made and checked) / (count): "
          f"{statistics.median(ratios):.1f} over {len(ratios)} counts")


if __name__ == "__main__":
    main()
