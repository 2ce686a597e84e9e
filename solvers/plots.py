"""Cactus plots for ``trailkit compare --plot`` (matplotlib is an optional extra)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from trailkit.models.errors import TrailkitError

__all__ = ["cactus_plot"]


def cactus_plot(rows: list[Any], path: str) -> None:
    """Instances solved (solved or proven unsolvable) against time, one line per backend."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TrailkitError("--plot needs matplotlib: pip install 'trailkit[plot]'") from None
    times: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if row.status in ("solved", "unsolvable") and row.time_s is not None:
            times[row.backend].append(row.time_s)
    figure, axes = plt.subplots(figsize=(6, 4))
    for backend, values in sorted(times.items()):
        values.sort()
        axes.step(range(1, len(values) + 1), values, where="post", label=backend, marker=".")
    axes.set_xlabel("instances decided")
    axes.set_ylabel("time (s)")
    axes.set_yscale("log")
    axes.set_title("trailkit compare: cactus plot")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
