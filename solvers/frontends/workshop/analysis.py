"""What the page shows as the author types: every problem ``lint`` would report, located,
and the drawing of the spec when it loads, with what editing on the picture needs.

This is the keystroke path. It runs in an analyser process
(:mod:`trailkit.solvers.frontends.workshop.analyser`), never in the server's event loop: reading
and drawing most specs takes milliseconds, but laying out a big one takes seconds, and
the analyser's budget bounds it. Anything that searches (solve, count, repair) goes to a
worker (:mod:`trailkit.solvers.frontends.workshop.runs`).

>>> out = analyse("trailkit: 1\\nkind: trail\\nnodes: [a, b]\\nedges: [a b]\\nstart: bb\\n")
>>> [(p["line"], p["column"]) for p in out["problems"]], out["svg"] is None
([(5, 8)], True)
>>> "did you mean 'b'" in out["problems"][0]["message"]
True
>>> out = analyse("trailkit: 1\\nkind: trail\\nnodes: [a, b]\\nedges: [a b, b cc]\\n")
>>> [(p["column"], p["token_column"], p["token_length"]) for p in out["problems"]]
[(14, 16, 2)]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trailkit.models.errors import SpecError
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import lint_spec_text, load_spec_text
from trailkit.solvers.frontends.presenter.problems import problem_json

__all__ = ["analyse"]


def analyse(text: str, source: str = "scratch.yaml", base_dir: Path | None = None, *,
            on_problems: Callable[[list[dict[str, Any]]], None] | None = None
            ) -> dict[str, Any]:
    """Lint ``text``; when it loads, draw it and describe it for editing on the picture.
    ``on_problems`` is given the problems as soon as lint has found them, before the
    drawing (the part that can take long), so an analysis stopped at its budget still
    says what is wrong.

    Returns ``problems`` (each with ``line``, ``column``, ``message``, ``level``: errors
    and warnings, in file order), ``svg`` (``None`` while the spec has errors) and
    ``puzzle`` (``kind``, ``nodes`` with their layout positions, ``edges`` with their
    ends, colour and direction, ``colours``), and ``time_ms``, the server's time.
    """
    started = time.perf_counter()
    problems = lint_spec_text(text, source, base_dir)
    out: dict[str, Any] = {"problems": [problem_json(p, text) for p in problems],
                           "svg": None, "puzzle": None}
    if on_problems is not None:
        on_problems(out["problems"])
    if not any(p.level == "error" for p in problems):
        from trailkit.solvers.tools.drawing import draw_svg

        try:
            puzzle = load_spec_text(text, source, base_dir)
            out["svg"] = draw_svg(puzzle, title=puzzle.name or source)
            out["puzzle"] = describe(puzzle)
        except SpecError as exc:  # lint and load agree; this is a belt for the braces
            out["problems"].append(problem_json(exc, text))
    out["time_ms"] = round((time.perf_counter() - started) * 1000, 2)
    return out


def describe(puzzle: Puzzle) -> dict[str, Any]:
    """What editing on the picture needs: the positions the drawing used (in the spec's
    ``layout:`` units), every edge's ends, colour and direction, the colours; and the
    ``claims`` Prove can be asked of the puzzle (its picker's choices); the givens
    (``at``: node -> position) and holes (``avoid``) a click on a board's cell edits."""
    from trailkit.models.palette import palette
    from trailkit.solvers.pipeline.claim_rules import claims_that_apply
    from trailkit.solvers.tools.drawing.layout import node_positions

    claims = claims_that_apply(puzzle)
    if puzzle.kind == "domino-chain":
        return {"kind": puzzle.kind, "nodes": [], "edges": [], "colours": [],
                "layout": "none", "claims": claims}
    positions, method = node_positions(puzzle)
    colours = list(puzzle.colours.names) if puzzle.colours is not None \
        else list(puzzle.colour_names)
    names = puzzle.nodes
    return {"kind": puzzle.kind, "layout": method,
            "nodes": [{"name": n, "x": round(float(x), 4), "y": round(float(y), 4)}
                      for n, (x, y) in zip(names, positions.tolist(), strict=True)],
            "edges": [{"u": names[puzzle.tail[e]], "v": names[puzzle.head[e]],
                       "colour": puzzle.colour_name(e), "directed": puzzle.is_directed(e)}
                      for e in range(puzzle.num_edges)],
            "colours": colours, "claims": claims,
            "at": {names[v]: k for v, k in puzzle.at.items()},
            "avoid": [names[v] for v in sorted(puzzle.avoid)],
            "paint": {name: paint.hex for name, paint in palette(colours).items()}}
