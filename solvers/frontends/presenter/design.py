"""``trailkit design`` in words and in ``trailkit-design/1`` JSON.

A design run (:func:`~trailkit.solvers.tools.design.certify_design.make_designs`)
returns one :class:`~trailkit.solvers.tools.design.certify_design.Made` per design
tried; this module says, for each, the file written, what was certified and, when the
targets were not met, what it lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trailkit.solvers.tools.design.certify_design import DesignStatus, Made

__all__ = ["DESIGN_FORMAT", "design_json", "design_text"]

DESIGN_FORMAT = "trailkit-design/1"


def overall(made: Sequence[Made]) -> DesignStatus:
    """The run's status: the first design that is not ``designed``, else ``designed``."""
    return next((m.status for m in made if m.status is not DesignStatus.DESIGNED),
                DesignStatus.DESIGNED)


def design_json(made: Sequence[Made], files: Sequence[str | None]) -> dict[str, Any]:
    """The ``trailkit-design/1`` object (docs/json.md); ``files[i]`` is where design
    ``i`` was written (``None``: not written)."""
    return {"format": DESIGN_FORMAT, "status": overall(made).value,
            "designs": [{"file": f, "status": m.status.value, "length": m.length,
                         "shortest_walks": m.walks, "seed": m.seed,
                         "claims": list(m.claims), "lacks": list(m.lacks),
                         "tries": m.tries, "time_s": round(m.time_s, 6)}
                        for m, f in zip(made, files, strict=True)]}


def design_text(made: Sequence[Made], files: Sequence[str | None]) -> str:
    """A few lines per design."""
    lines = []
    for m, f in zip(made, files, strict=True):
        if m.status is DesignStatus.IMPOSSIBLE:
            lines.append(f"no design: {m.lacks[0]}")
            continue
        took = f"{m.tries:,} tries, {m.time_s:.2f} s"
        if m.status is DesignStatus.DESIGNED:
            lines.append(f"designed {f} (seed {m.seed}; {took}): shortest walk "
                         f"{m.length} steps")
        elif f is not None:
            lines.append(f"best found written to {f} (seed {m.seed}; {took}): it does NOT "
                         "meet the targets")
        else:
            lines.append(f"no design met the targets before the time ran out (seed "
                         f"{m.seed}; {took}); --best-effort writes the best found")
        lines += [f"  {claim}" for claim in m.claims]
        lines += [f"  lacks: {lack}" for lack in m.lacks]
    return "\n".join(lines)
