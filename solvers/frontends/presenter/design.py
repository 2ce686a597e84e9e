"""``trailkit design`` in words and in ``trailkit-design/1`` JSON.

A design run (:func:`~trailkit.solvers.tools.design.certify_design.make_designs`, or
:func:`~trailkit.solvers.tools.design.trail_design.make_trails` for figures) returns one
:class:`~trailkit.solvers.tools.design.certify_design.Made` per design tried; this
module says, for each, the file written, what was certified, its measures and, when the
targets were not met, what it lacks. :func:`design_entry` and :func:`design_lines` are
the parts both kinds share (:mod:`.figure_design` says figures' own headlines).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trailkit.solvers.tools.design.certify_design import DesignStatus, Made

__all__ = ["DESIGN_FORMAT", "design_entry", "design_json", "design_lines", "design_text",
           "overall"]

DESIGN_FORMAT = "trailkit-design/1"


def overall(made: Sequence[Made]) -> DesignStatus:
    """The run's status: the first design that is not ``designed``, else ``designed``."""
    return next((m.status for m in made if m.status is not DesignStatus.DESIGNED),
                DesignStatus.DESIGNED)


def design_entry(m: Made, file: str | None) -> dict[str, Any]:
    """One design's JSON, the keys both kinds share (docs/json.md)."""
    return {"file": file, "status": m.status.value, "length": m.length, "seed": m.seed,
            "claims": list(m.claims), "lacks": list(m.lacks), "tries": m.tries,
            "time_s": round(m.time_s, 6), "measures": dict(m.measures),
            "certificates": [c.to_json(m.puzzle) for c in m.certificates]}


def design_json(made: Sequence[Made], files: Sequence[str | None]) -> dict[str, Any]:
    """The ``trailkit-design/1`` object (docs/json.md); ``files[i]`` is where design
    ``i`` was written (``None``: not written)."""
    return {"format": DESIGN_FORMAT, "status": overall(made).value,
            "designs": [{**design_entry(m, f), "shortest_walks": m.walks}
                        for m, f in zip(made, files, strict=True)]}


def design_lines(made: Sequence[Made], files: Sequence[str | None],
                 headline: Callable[[Made], str], hint: str = "") -> str:
    """A few lines per design: ``designed FILE (seed; tries, time): headline(m)``, or
    what was written instead, then the claims and what it lacks; ``hint`` follows a
    design not found."""
    lines = []
    for m, f in zip(made, files, strict=True):
        if m.status is DesignStatus.IMPOSSIBLE:
            lines.append(f"no design: {m.lacks[0]}")
            continue
        took = f"{m.tries:,} tries, {m.time_s:.2f} s"
        if m.status is DesignStatus.DESIGNED:
            lines.append(f"designed {f} (seed {m.seed}; {took}): {headline(m)}")
        elif f is not None:
            lines.append(f"best found written to {f} (seed {m.seed}; {took}): it does NOT "
                         "meet the targets")
        else:
            lines.append(f"no design met the targets before the time ran out (seed "
                         f"{m.seed}; {took}){hint}")
        lines += [f"  {claim}" for claim in m.claims]
        lines += [f"  lacks: {lack}" for lack in m.lacks]
    return "\n".join(lines)


def design_text(made: Sequence[Made], files: Sequence[str | None]) -> str:
    """A few lines per colour-walk design."""
    return design_lines(made, files, lambda m: f"shortest walk {m.length} steps",
                        "; --best-effort writes the best found")
