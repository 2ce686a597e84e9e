"""The workshop's Design panel: a design request read from the page, and the design run.

:func:`read_design` turns the panel's JSON into a
:class:`~trailkit.solvers.frontends.presenter.design_options.DesignAsk`, refusing a value
of the wrong type or out of range with a message (the server answers 400 before any
worker starts); the checks that need the field (a start or goal that is no node, a spec
without a layout) are the command line's own, made in the worker, and come back as an
``error`` answer in the same words.

:func:`design` is the run itself, in a worker like every run (bounded in time and
memory, stopped when the page goes away): the same
:func:`~trailkit.solvers.tools.design.certify_design.make_designs` as ``trailkit design
colour-walk``, its answer in the command line's words and ``trailkit-design/1`` JSON,
and each design found as a candidate: its spec text and its picture. Nothing is
written: a candidate becomes a file only when the author opens it in the editor and
saves it.

>>> ask = read_design({"layout": "grid:2,3", "min_length": 3, "seed": 1, "count": 2}, "x")
>>> out = design(ask, "", time_limit=10)
>>> out["status"], len(out["candidates"]), out["candidates"][0]["text"].startswith("trailkit: 1")
('designed', 2, True)

A request with ``"kind": "tour"`` asks for ``trailkit design tour`` (``board``
``COLSxROWS``, ``moves``, ``givens`` ``MIN..MAX``, ``unique``, ``symmetric``, ``seed``,
``count``), read by the command line's own reader
(:func:`~trailkit.solvers.frontends.presenter.design_options.tour_ask`); its candidates
are board puzzles, drawn as boards:

>>> ask = read_design({"kind": "tour", "board": "4x3", "moves": "king", "unique": True}, "x")
>>> out = design(ask, "", time_limit=300)  # a first run compiles the tour search
>>> out["status"], out["candidates"][0]["kind"], out["candidates"][0]["solutions"]
('designed', 'tour', 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.presenter.design_options import DesignAsk, tour_ask

if TYPE_CHECKING:
    from trailkit.solvers.tools.design.certify_design import Made
    from trailkit.solvers.tools.design.tour_design import TourAsk

__all__ = ["FROM_SPEC", "MAX_CANDIDATES", "TourDesign", "design", "read_design"]

#: The most candidates one Generate may ask for.
MAX_CANDIDATES = 20
#: The panel's layout that keeps the spec in the editor's field (``--from``).
FROM_SPEC = "spec"
#: The share of a design run's time the search may take; the rest is for certifying
#: and drawing what it found (the worker is killed past the whole limit).
SEARCH_SHARE = 0.7
_INTS = {"min_length": (1, "--min-length"), "max_length": (None, "--max-length"),
         "seed": (0, "--seed"), "count": (1, "--count")}
_FLAGS = ("unique", "robust")
_TEXTS = ("layout", "colours", "start", "goal")
_KEYS = {*_INTS, *_FLAGS, *_TEXTS, "thin", "kind"}
_TOUR_KEYS = {"kind", "board", "moves", "givens", "unique", "symmetric", "seed", "count"}


@dataclass(frozen=True)
class TourDesign:
    """A tour design the panel asks for: the command line's request (``ask``), the
    command line that makes it again (``made_by``), the seed and how many."""

    ask: TourAsk
    made_by: str
    seed: int = 0
    count: int = 1


def read_design(given: Any, source: str) -> DesignAsk | TourDesign:
    """The design the panel asks for (``source``: the spec in the editor, named for the
    "made by" line when the layout is :data:`FROM_SPEC`). Raises
    :class:`~trailkit.models.errors.TrailkitError` with what to change."""
    if not isinstance(given, dict):
        raise TrailkitError("a design request is a JSON object of the panel's fields")
    kind = given.get("kind") or "colour-walk"
    if kind not in ("colour-walk", "tour"):
        raise TrailkitError(f"a design is of kind colour-walk or tour, not {kind!r}")
    fields = _TOUR_KEYS if kind == "tour" else _KEYS
    unknown = sorted(set(given) - fields)
    if unknown:
        raise TrailkitError(f"a design request has no field {unknown[0]!r}; a {kind} "
                            f"design's fields are {', '.join(sorted(fields))}")
    values = _numbers_and_flags(given, ("seed", "count") if kind == "tour" else tuple(_INTS),
                                ("unique", "symmetric") if kind == "tour" else _FLAGS)
    if kind == "tour":
        return _read_tour(given, values)
    for key in _TEXTS:
        value = given.get(key) or None
        if value is not None and not isinstance(value, str):
            raise TrailkitError(f"--{key}: a text, not {value!r}")
        values[key] = value.strip() if value else None
    thin = given.get("thin")
    thin = 0.0 if thin is None else thin
    if isinstance(thin, bool) or not isinstance(thin, int | float):
        raise TrailkitError(f"--thin P: a share from 0 to 0.9, not {thin!r}")
    layout = values.pop("layout") or "hex:5,8"
    ask = DesignAsk(**values, layout=None if layout == FROM_SPEC else layout,
                    source=source if layout == FROM_SPEC else None, thin=float(thin))
    ask.check()
    if ask.count > MAX_CANDIDATES:
        raise TrailkitError(f"--count N: the workshop shows at most {MAX_CANDIDATES} "
                            "candidates at a time (the command line makes more)")
    if ask.layout is not None:
        ask.field()  # a layout that cannot be read is refused now, not in a worker
    return ask


def _numbers_and_flags(given: dict[str, Any], numbers: tuple[str, ...],
                       flags: tuple[str, ...]) -> dict[str, Any]:
    """The request's whole numbers (with their defaults) and true-or-false fields,
    each checked, a bad one refused naming its option."""
    values: dict[str, Any] = {}
    for key in numbers:
        default, option = _INTS[key]
        value = given.get(key)
        value = default if value is None else value
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TrailkitError(f"{option}: a whole number, not {value!r}")
        values[key] = value
    for key in flags:
        if not isinstance(given.get(key, False), bool):
            raise TrailkitError(f"--{key}: true or false, not {given[key]!r}")
        values[key] = given.get(key, False)
    return values


def _read_tour(given: dict[str, Any], values: dict[str, Any]) -> TourDesign:
    """A tour design's fields, read by the command line's reader."""
    texts = {}
    for key in ("board", "moves", "givens"):
        value = given.get(key)
        if value is not None and not isinstance(value, str):
            raise TrailkitError(f"--{key}: a text, not {value!r}")
        texts[key] = value.strip() if value and value.strip() else None
    ask, made_by = tour_ask(texts["board"] or "9x9", texts["moves"] or "king",
                            texts["givens"], unique=values["unique"],
                            symmetric=values["symmetric"])
    if not 1 <= values["count"] <= MAX_CANDIDATES:
        raise TrailkitError(f"--count N: from 1 to {MAX_CANDIDATES} candidates in the "
                            "workshop (the command line makes more)")
    return TourDesign(ask, made_by, values["seed"], values["count"])


def design(ask: DesignAsk | TourDesign, text: str, *, time_limit: float,
           source: str = "scratch.yaml", base_dir: str | None = None) -> dict[str, Any]:
    """Run the design ``ask`` (in a worker; ``text`` is the spec in the editor, whose
    field a design :data:`FROM_SPEC` keeps) within about ``time_limit`` seconds:
    ``status`` (``designed``, ``not-found``, ``impossible``), ``text`` and ``answer``
    (the command line's words and JSON, each design named "candidate K" where the
    command line names its file), and
    ``candidates``: each design found, its spec ``text``, what was certified
    (``said``) and its picture (``svg``)."""
    from trailkit.solvers.frontends.presenter.design import design_json, design_text, overall
    from trailkit.solvers.frontends.presenter.plain import plain_json
    from trailkit.solvers.tools.design.certify_design import make_designs
    from trailkit.solvers.tools.drawing import draw_svg

    if isinstance(ask, TourDesign):
        return _design_tour(ask, time_limit)
    spec = None
    if ask.layout is None:
        spec = load_spec_text(text, source=source,
                              base_dir=Path(base_dir) if base_dir else None)
    field = ask.field(spec)
    targets, names = ask.targets(field)
    made = make_designs(field, targets, names, seed=ask.seed, how_many=ask.count,
                        time_limit=time_limit * SEARCH_SHARE, made=ask.made_by())
    labels = [f"candidate {k}" if m.text is not None else None
              for k, m in enumerate(made, 1)]
    candidates = []
    for m, label in zip(made, labels, strict=True):
        if m.text is None or label is None:
            continue
        puzzle = load_spec_text(m.text, source=label)
        candidates.append({"label": label, "text": m.text, "status": m.status.value,
                           "seed": m.seed, "length": m.length, "shortest_walks": m.walks,
                           "said": design_text([m], [label]),
                           "svg": draw_svg(puzzle, title=puzzle.name or label)})
    return {"status": overall(made).value, "text": design_text(made, labels),
            "answer": plain_json(design_json(made, [None] * len(made))),
            "candidates": candidates}


def _design_tour(ask: TourDesign, time_limit: float) -> dict[str, Any]:
    """``design tour``'s run: its answer in the command line's words and JSON, each
    puzzle made a candidate drawn on its board (the givens in bold)."""
    from trailkit.solvers.frontends.presenter.board_design import tour_json, tour_text
    from trailkit.solvers.frontends.presenter.design import overall
    from trailkit.solvers.frontends.presenter.plain import plain_json
    from trailkit.solvers.tools.design.tour_design import make_tours

    made = make_tours(ask.ask, seed=ask.seed, how_many=ask.count,
                      time_limit=time_limit * SEARCH_SHARE, made=ask.made_by)
    labels = [f"candidate {k}" if m.text is not None else None
              for k, m in enumerate(made, 1)]
    candidates = [_tour_candidate(m, label) for m, label in zip(made, labels, strict=True)
                  if m.text is not None and label is not None]
    return {"status": overall(made).value, "text": tour_text(made, labels),
            "answer": plain_json(tour_json(made, [None] * len(made))),
            "candidates": candidates}


def _tour_candidate(m: Made, label: str) -> dict[str, Any]:
    """One tour puzzle made: its text, what was said of it, its givens and its board."""
    from trailkit.solvers.frontends.presenter.board_design import tour_text
    from trailkit.solvers.tools.drawing import draw_svg

    assert m.text is not None
    puzzle = load_spec_text(m.text, source=label)
    return {"label": label, "kind": "tour", "text": m.text, "status": m.status.value,
            "seed": m.seed, "length": m.length, "givens": m.measures.get("givens"),
            "cells": m.measures.get("cells"), "solutions": m.walks or None,
            "said": tour_text([m], [label]),
            "svg": draw_svg(puzzle, title=puzzle.name or label)}
