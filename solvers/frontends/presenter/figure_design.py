"""``trailkit design trail`` in words and in ``trailkit-design/1`` JSON.

One :class:`~trailkit.solvers.tools.design.certify_design.Made` per figure tried: its
file, its number of lines (``length``) and of one-stroke drawings (``solutions``), and
what the count rests on (direct's exact count, not certified), or what it lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trailkit.solvers.frontends.presenter.design import DESIGN_FORMAT, overall
from trailkit.solvers.tools.design.certify_design import DesignStatus, Made

__all__ = ["trail_json", "trail_text"]


def trail_json(made: Sequence[Made], files: Sequence[str | None]) -> dict[str, Any]:
    """The ``trailkit-design/1`` object of figures (``files[i]``: where figure ``i`` was
    written, ``None``: not written)."""
    return {"format": DESIGN_FORMAT, "kind": "trail", "status": overall(made).value,
            "designs": [{"file": f, "status": m.status.value, "length": m.length,
                         "shortest_walks": None,
                         "solutions": m.walks if m.text is not None else None,
                         "seed": m.seed, "claims": list(m.claims), "lacks": list(m.lacks),
                         "tries": m.tries, "time_s": round(m.time_s, 6)}
                        for m, f in zip(made, files, strict=True)]}


def trail_text(made: Sequence[Made], files: Sequence[str | None]) -> str:
    """A few lines per figure."""
    lines = []
    for m, f in zip(made, files, strict=True):
        if m.status is DesignStatus.IMPOSSIBLE:
            lines.append(f"no design: {m.lacks[0]}")
            continue
        took = f"{m.tries:,} tries, {m.time_s:.2f} s"
        if m.status is DesignStatus.DESIGNED:
            lines.append(f"designed {f} (seed {m.seed}; {took}): {m.length} lines, "
                         f"{m.walks:,} one-stroke drawings")
        else:
            lines.append(f"no design (seed {m.seed}; {took}): {m.lacks[0]}")
            continue
        lines += [f"  {claim}" for claim in m.claims]
    return "\n".join(lines)
