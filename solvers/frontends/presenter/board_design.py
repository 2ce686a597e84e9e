"""``trailkit design tour`` in words and in ``trailkit-design/1`` JSON.

One :class:`~trailkit.solvers.tools.design.certify_design.Made` per puzzle tried: its
file, its number of steps (``length``: one fewer than the cells), its givens among the
cells, and what its uniqueness rests on (the ``unique`` claim's certificate, or why
there is none and the search it rests on instead), or what it lacks. The layout of the
words and the keys shared with the other kinds are :mod:`.design`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trailkit.solvers.frontends.presenter.design import (
    DESIGN_FORMAT,
    design_entry,
    design_lines,
    overall,
)
from trailkit.solvers.tools.design.certify_design import Made

__all__ = ["tour_json", "tour_text"]


def tour_json(made: Sequence[Made], files: Sequence[str | None]) -> dict[str, Any]:
    """The ``trailkit-design/1`` object of tour puzzles (``files[i]``: where puzzle ``i``
    was written, ``None``: not written); ``solutions`` is 1 with uniqueness asked for,
    else null (not counted)."""
    return {"format": DESIGN_FORMAT, "kind": "tour", "status": overall(made).value,
            "designs": [{**design_entry(m, f), "shortest_walks": None,
                         "solutions": m.walks if m.text is not None and m.walks else None}
                        for m, f in zip(made, files, strict=True)]}


def _headline(m: Made) -> str:
    """``24 givens of 81 cells, one solution``."""
    givens, cells = m.measures.get("givens", 0), m.measures.get("cells", 0)
    return (f"{givens} given{'' if givens == 1 else 's'} of {cells} cells"
            f"{', one solution' if m.walks == 1 else ''}")


def tour_text(made: Sequence[Made], files: Sequence[str | None]) -> str:
    """A few lines per puzzle."""
    return design_lines(made, files, _headline, "; --best-effort writes the best found")
