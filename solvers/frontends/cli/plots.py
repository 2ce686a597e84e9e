"""Plots for ``trailkit compare --plot`` (matplotlib is an optional extra: ``trailkit[plot]``).

* the cactus plot of the SAT competitions: for each backend, the instances it decided
  (solved or proved unsolvable), sorted by time: the further right and lower, the better;
* the per-instance scatter of two backends: one point per spec, time of the first
  backend against time of the second; points above the diagonal favour the first.
  Runs without an answer (timeout, memout, crash, unknown) sit on the border at the
  largest time seen, so they stay visible.
"""

from __future__ import annotations

import io
from collections import defaultdict
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.models.support.words import plural
from trailkit.solvers.support.extras import pip_install
from trailkit.solvers.support.files import atomic_write

__all__ = ["cactus_plot", "report_cactus", "report_scatter", "require_matplotlib", "scatter_plot",
           "write_png"]

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


def write_png(figure: Any, path: str, **options: Any) -> None:
    """Save ``figure`` as a PNG at ``path`` atomically, through
    :func:`~trailkit.solvers.support.files.atomic_write` (so only a regular file is replaced):
    matplotlib would write into whatever ``path`` names, a device or a FIFO included."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=120, **options)
    atomic_write(path, buffer.getvalue())


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
    write_png(figure, path)
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
    write_png(figure, path)
    plt.close(figure)


# ------------------------------------------------------------------ trailkit report
#: A marker per backend, so the lines read in greyscale too (tints: the Okabe–Ito palette).
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")


def _styles(names: list[str]) -> dict[str, tuple[str, str]]:
    """(tint, marker) per backend: Okabe–Ito tints in order, one marker each."""
    from trailkit.models.palette import palette

    # names that happen to be colour words must not take that colour's tint: by position
    paint = palette([f"backend {i}" for i in range(len(names))])
    return {name: (paint[f"backend {i}"].hex, _MARKERS[i % len(_MARKERS)])
            for i, name in enumerate(names)}


def _save(figure: Any, plt: Any, path: str, names: list[str]) -> None:
    """Write the PNG; its ``Description`` names every backend drawn (tests read it)."""
    figure.tight_layout()
    write_png(figure, path, metadata={"Description": "backends: " + ", ".join(names)})
    plt.close(figure)


def report_cactus(scores: Any, path: str) -> list[str]:
    """The cactus plot of a campaign's ranking: per backend, its decided instances sorted
    by time (x: instances decided, y: time, log); returns the backends it names."""
    plt = require_matplotlib()
    names = [b.name for b in scores.backends]
    styles = _styles(names)
    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    for name in names:
        values = sorted(t for t in scores.times[name].values() if t is not None)
        tint, marker = styles[name]
        axes.plot(range(1, len(values) + 1), values, label=name, color=tint, marker=marker,
                  markersize=4, linewidth=1.2, drawstyle="steps-post")
    if scores.limits:
        axes.axhline(max(scores.limits.values()), color="grey", linestyle="--", linewidth=0.8,
                     label="time limit")
    axes.set_xlabel("instances decided")
    axes.set_ylabel("wall time (s)")
    axes.set_yscale("log")
    axes.set_xlim(0, max(scores.instances, 1) + 0.5)
    axes.set_title(f"cactus plot: {plural(scores.instances, 'instance')}")
    axes.legend()
    _save(figure, plt, path, names)
    return names


def report_scatter(scores: Any, first: str, second: str, path: str) -> list[str]:
    """One point per instance, ``first``'s time (x) against ``second``'s (y), log axes;
    an instance one of them did not decide sits on the time limit, which is drawn."""
    plt = require_matplotlib()
    limit = max(scores.limits.values(), default=1.0)
    times = [t for name in (first, second) for t in scores.times[name].values() if t]
    floor = min(times, default=limit / 1000) / 2
    figure, axes = plt.subplots(figsize=(5, 5))
    styles = _styles([first, second])
    xs, ys, kinds = [], [], []
    for inst in scores.times[first]:
        tx, ty = scores.times[first][inst], scores.times[second].get(inst)
        xs.append(max(tx, floor) if tx is not None else limit)
        ys.append(max(ty, floor) if ty is not None else limit)
        kinds.append((tx is None) or (ty is None))
    for missing, marker, label in ((False, styles[first][1], "both decided"),
                                   (True, "x", "one did not decide (on the limit)")):
        chosen = [(x, y) for x, y, k in zip(xs, ys, kinds, strict=True) if k is missing]
        if chosen:
            axes.scatter([x for x, _ in chosen], [y for _, y in chosen], marker=marker,
                         color=styles[first][0] if not missing else styles[second][0],
                         label=label)
    axes.plot([floor, limit], [floor, limit], color="grey", linewidth=0.8)
    axes.axvline(limit, color="grey", linestyle="--", linewidth=0.8)
    axes.axhline(limit, color="grey", linestyle="--", linewidth=0.8, label="time limit")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(floor, limit * 1.5)
    axes.set_ylim(floor, limit * 1.5)
    axes.set_xlabel(f"{first} wall time (s)")
    axes.set_ylabel(f"{second} wall time (s)")
    axes.set_title(f"{first} vs {second}: below the diagonal, {second} is faster")
    axes.legend(fontsize="small")
    _save(figure, plt, path, [first, second])
    return [first, second]
