"""What ``inspect`` found, drawn on a board (``draw --inspect`` of a tour puzzle).

A board shows its walk as numbers in cells, not as planks, so the graph's halos
(:mod:`.inspect_marks`) do not fit it; here the findings of an
:class:`~trailkit.solvers.tools.drawing.inspect_view.InspectView` become:

- each **essential** given (without it a second solution) ringed in vermillion, a
  ``<circle class="verdict essential" data-verdict=essential data-node=NAME>`` round
  its number; each **redundant** one (still unique without it) written pale, its
  ``<text class="position">`` carrying ``data-verdict=redundant``; an undecided one
  as any given, ``data-verdict=undecided``;
- each **critical** move (no walk without it) a vermillion band under its line,
  between its two cells' centres: a ``<g class="inspect critical" data-inspect=critical
  data-edge=E data-from data-to>`` (not drawn on a Signpost, whose moves are arrows).
  When every move of the walk is critical (as in any puzzle with one solution) no move
  is banded: a band on each says nothing the caption does not;
- the caption (the counts and the rating, in the presenter's words) a note under the
  board, and the legend's entries for the marks drawn.

The picture checker (``tests/picture_check.py``) reads these marks back.
"""

from __future__ import annotations

from collections.abc import Mapping

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.inspect_view import InspectView
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el

__all__ = ["CRITICAL", "PALE", "banded", "critical_moves", "inspect_legend", "verdict_rings",
           "verdicts"]

#: The colour of what the puzzle cannot lose (an essential given, a critical move).
CRITICAL = "#D55E00"
#: The ink of a redundant given's number.
PALE = "#8C8C8C"


def verdicts(view: InspectView | None) -> dict[int, str]:
    """Each given's verdict by node (none without an inspection)."""
    return {} if view is None else {g.node: g.verdict for g in view.givens}


def banded(view: InspectView | None, walk: Walk | None) -> list[int]:
    """The critical moves to band: none when every move of ``walk`` is one."""
    if view is None or walk is None:
        return []
    critical = [m.edge for m in view.marks if m.kind == "critical"]
    return [] if set(walk.edges) <= set(critical) else critical


def critical_moves(puzzle: Puzzle, edges: list[int],
                   centres: Mapping[int, tuple[float, float]], side: float) -> str:
    """A band under each of the critical ``edges``, from one cell's centre to the
    other's (``centres`` by node), drawn before the moves so their lines stay on top."""
    out = []
    for e in edges:
        if not 0 <= e < puzzle.num_edges:
            continue
        a, b = puzzle.tail[e], puzzle.head[e]
        if a not in centres or b not in centres:
            continue
        (x1, y1), (x2, y2) = centres[a], centres[b]
        band = el("path", d=f"M{fmt(x1)} {fmt(y1)}L{fmt(x2)} {fmt(y2)}", fill="none",
                  stroke=CRITICAL, stroke_width=fmt(max(5.0, 0.2 * side)), opacity="0.55",
                  stroke_linecap="round")
        out.append(el("g", band, class_="inspect critical", data_inspect="critical",
                      data_edge=e, data_from=puzzle.nodes[a], data_to=puzzle.nodes[b]))
    return el("g", "".join(out), class_="inspections") if out else ""


def verdict_rings(puzzle: Puzzle, view: InspectView | None,
                  centres: Mapping[int, tuple[float, float]], side: float,
                  cornered: set[int]) -> str:
    """A vermillion ring round each essential given's number, inside its cell: round
    the middle, or in a ``cornered`` cell (a Signpost's, its number small in the
    top-left corner, its arrow in the middle) round that corner."""
    rings = []
    for v, verdict in sorted(verdicts(view).items()):
        if verdict != "essential" or v not in centres:
            continue
        (cx, cy), corner = centres[v], v in cornered
        digits = 0.084 * len(str(puzzle.at.get(v, ""))) * side  # half the corner number
        r = min(digits + 0.12 * side, 0.22 * side) if corner else 0.39 * side
        rings.append(el("circle", cy=fmt(cy - 0.28 * side if corner else cy), r=fmt(r),
                        cx=fmt(max(cx - 0.42 * side + digits, cx - 0.48 * side + r)
                               if corner else cx), fill="none",
                        stroke=CRITICAL, stroke_width=fmt(max(2.0, 0.05 * side)),
                        class_="verdict essential", data_verdict="essential",
                        data_node=puzzle.nodes[v]))
    return el("g", "".join(rings), class_="verdicts") if rings else ""


def inspect_legend(view: InspectView | None, moves_drawn: bool
                   ) -> list[tuple[str, str]]:
    """The legend's entries for the marks drawn: only those the picture has
    (``moves_drawn``: some critical move is banded)."""
    if view is None:
        return []
    found = set(verdicts(view).values())
    items = []
    if "essential" in found:
        items.append((el("circle", cx=21, cy=0, r=10, fill="none", stroke=CRITICAL,
                         stroke_width=2.4)
                      + text_el("7", x=21, y=5, font_size="13", font_weight="bold",
                                text_anchor="middle", fill="#1A1A1A"),
                      "ringed: an essential given (without it, not unique)"))
    if "redundant" in found:
        items.append((text_el("7", x=21, y=5, font_size="14", font_weight="bold",
                              text_anchor="middle", fill=PALE),
                      "pale: a redundant given (unique without it)"))
    if moves_drawn:
        items.append((el("line", x1=4, y1=0, x2=36, y2=0, stroke=CRITICAL, stroke_width=8,
                         opacity="0.55", stroke_linecap="round"),
                      "banded: a critical move (no walk without it)"))
    return items
