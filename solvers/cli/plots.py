"""Plots for ``trailkit compare --plot`` (matplotlib is an optional extra: ``trailkit[plot]``).

* the cactus plot of the SAT competitions: for each backend, the instances it decided
  (solved or proved unsolvable), sorted by time: the further right and lower, the better;
* the per-instance scatter of two backends: one point per spec, time of the first
  backend against time of the second; points above the diagonal favour the first.
  Runs without an answer (timeout, memout, crash, unknown) sit on the border at the
  largest time seen, so they stay visible.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.solvers.extras import pip_install

__all__ = ["cactus_plot", "require_matplotlib", "scatter_plot"]

_DECIDED = ("solved", "unsolvable")


def require_matplotlib() -> Any:
    """Return ``matplotlib.pyplot`` (headless), or raise a clear error naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TrailkitError(f"--plot needs matplotlib: {pip_install('trailkit[plot]')}") from None
    return plt


def cactus_plot(rows: list[Any], path: str) -> None:
    """Instances decided (solved or proven unsolvable) against time, one line per backend."""
    plt = require_matplotlib()
    times: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if row.status in _DECIDED and row.time_s is not None:
            times[row.backend].append(row.time_s)
    figure, axes = plt.subplots(figsize=(6, 4))
    for backend, values in sorted(times.items()):
        values.sort()
        axes.step(range(1, len(values) + 1), values, where="post", label=backend, marker=".")
    axes.set_xlabel("instances decided")
    axes.set_ylabel("time (s)")
    axes.set_yscale("log")
    axes.set_title("trailkit compare: cactus plot")
    if times:
        axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def scatter_plot(rows: list[Any], first: str, second: str, path: str) -> None:
    """One point per spec: ``first``'s time (x) against ``second``'s time (y), log-log."""
    plt = require_matplotlib()
    by_spec: dict[str, dict[str, Any]] = defaultdict(dict)
    for row in rows:
        by_spec[row.spec][row.backend] = row
    times = [r.time_s for r in rows if r.time_s is not None and r.status in _DECIDED]
    ceiling = max(times, default=1.0) * 2
    floor = min(times, default=0.001) / 2

    def value(row: Any) -> float:
        ok = row is not None and row.status in _DECIDED and row.time_s is not None
        return max(row.time_s, floor) if ok else ceiling

    points = [(value(pair.get(first)), value(pair.get(second)), pair)
              for pair in by_spec.values()]
    figure, axes = plt.subplots(figsize=(5, 5))
    for status, marker in (("solved", "o"), ("unsolvable", "x")):
        chosen = [(x, y) for x, y, pair in points
                  if any(getattr(r, "status", "") == status for r in pair.values())]
        if chosen:
            axes.scatter([x for x, _ in chosen], [y for _, y in chosen], marker=marker,
                         label=status)
    axes.plot([floor, ceiling], [floor, ceiling], color="grey", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(floor, ceiling * 1.2)
    axes.set_ylim(floor, ceiling * 1.2)
    axes.set_xlabel(f"{first} time (s)")
    axes.set_ylabel(f"{second} time (s)")
    axes.set_title(f"{first} vs {second} (no answer: top/right edge)")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
