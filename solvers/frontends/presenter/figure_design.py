"""``trailkit design trail`` in words and in ``trailkit-design/1`` JSON.

One :class:`~trailkit.solvers.tools.design.certify_design.Made` per figure tried: its
file, its number of lines (``length``) and of one-stroke drawings (``solutions``), its
measures (failures, the points that start a drawing), and what its counts rest on (the
count claim's certificate, or why there is none), or what it lacks. The layout of the
words and the keys shared with colour walks are :mod:`.design`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trailkit.models.support.words import plural
from trailkit.solvers.frontends.presenter.design import (
    DESIGN_FORMAT,
    design_entry,
    design_lines,
    overall,
)
from trailkit.solvers.tools.design.certify_design import Made

__all__ = ["trail_json", "trail_text"]


def trail_json(made: Sequence[Made], files: Sequence[str | None]) -> dict[str, Any]:
    """The ``trailkit-design/1`` object of figures (``files[i]``: where figure ``i`` was
    written, ``None``: not written)."""
    return {"format": DESIGN_FORMAT, "kind": "trail", "status": overall(made).value,
            "designs": [{**design_entry(m, f), "shortest_walks": None,
                         "solutions": m.walks if m.text is not None else None}
                        for m, f in zip(made, files, strict=True)]}


def _headline(m: Made) -> str:
    """A figure's lines and drawings, and where its drawings start when only one point
    does."""
    starts = m.measures.get("starts") or []
    only = f", every one starting at {starts[0]}" if len(starts) == 1 else ""
    failures = m.measures.get("failures")
    also = f", {plural(failures, 'failure')}" if failures is not None else ""
    return (f"{plural(m.length or 0, 'line')}, {plural(m.walks, 'one-stroke drawing')}"
            f"{only}{also}")


def trail_text(made: Sequence[Made], files: Sequence[str | None]) -> str:
    """A few lines per figure."""
    return design_lines(made, files, _headline)
