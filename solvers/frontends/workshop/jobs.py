"""What one run of the workshop does, in its worker process: solve, count, prove, repair,
explain or inspect a spec text, or design puzzles to order, and describe the outcome
(with its picture) as plain JSON data.

The outcome's ``text`` and ``answer`` are the command line's words and JSON for the same
answer, from :mod:`trailkit.solvers.frontends.presenter` (the spec named by the job's
``source``); the rest is what the page needs beside them (the picture, the steps, each
repair's changes to apply).

A job is a :class:`Job`; :func:`run_job` is what the forked worker calls (see
:mod:`trailkit.solvers.frontends.workshop.runs`), so nothing here may rely on the server's state.
Every answer comes out of the same pipeline as the command line's (verified,
cross-checked, certified), and every picture is drawn as ``trailkit draw`` draws it:
``--solve`` for a walk, ``--certificate`` for a proof or an explanation, ``--repair``
for a repair (the repaired puzzle with its walk, the changes emphasised), ``--inspect``
for an inspection. A design (:mod:`.designs`) is a run too: its candidates come back as
spec texts, each with its picture, and nothing is written anywhere.

>>> out = run_job(Job("solve", "trailkit: 1\\nkind: trail\\nedges: [a b, b c]\\n"))
>>> out["status"], out["length"], [s["to"] for s in out["steps"]]
('solved', 2, ['b', 'c'])
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trailkit.models.answer import Answer, Status
from trailkit.models.errors import SpecError, TrailkitError
from trailkit.models.puzzle import Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.presenter.plain import plain_json
from trailkit.solvers.frontends.presenter.proofs import claims_instead, prove_json, prove_text
from trailkit.solvers.frontends.presenter.repairs import (
    change_words,
    repaired_walk_words,
)
from trailkit.solvers.frontends.presenter.results import answer_json, answer_text, walk_size
from trailkit.solvers.frontends.presenter.verbs import (
    claim_verb,
    count_verb,
    explain_verb,
    inspect_verb,
    repair_verb,
)

if TYPE_CHECKING:
    from trailkit.solvers.frontends.presenter.design_options import DesignAsk
    from trailkit.solvers.frontends.workshop.designs import TourDesign

__all__ = ["OPS", "Job", "run_job"]

#: What a run can be asked to do with the spec in the editor.
OPS = ("solve", "count", "prove", "repair", "explain", "inspect")


@dataclass(frozen=True)
class Job:
    """One run: ``op`` on the spec ``text`` (named ``source``; side files are read from
    ``base_dir``), with ``backend`` (``None``: the default), ``time_limit`` seconds,
    for a repair the page's ``rules`` on top of the spec's ``repair:`` block
    (``add``: layout, any or none; ``recolour``, ``remove``: true or false), and for a
    count whether to count ``failures`` (and early failures) too, for a prove the
    ``claim`` to certify (one of ``prove --claim``'s), and for a design
    (``op`` ``design``) what is asked (``design``: a checked
    :class:`~trailkit.solvers.frontends.presenter.design_options.DesignAsk`, or a
    :class:`~trailkit.solvers.frontends.workshop.designs.TourDesign`; with
    ``from_spec`` the field is ``text``'s)."""

    op: str
    text: str
    source: str = "scratch.yaml"
    base_dir: str | None = None
    backend: str | None = None
    time_limit: float = 10.0
    rules: dict[str, Any] = field(default_factory=dict)
    failures: bool = False
    design: DesignAsk | TourDesign | None = None
    claim: str = "unsolvable"


def run_job(job: Job) -> dict[str, Any]:
    """Do ``job`` and return its outcome as JSON data: always ``op`` and ``status``
    (``solved``, ``unsolvable``, ``unknown``, ``error``...), and ``text`` (what to say),
    ``answer`` (the command line's JSON), ``svg`` (the picture), and what the op finds
    (``steps``, ``repairs``)."""
    try:
        if job.op == "design":
            from trailkit.solvers.frontends.workshop.designs import design

            if job.design is None:
                raise TrailkitError("a design run needs what to design")
            return {"op": job.op, **design(job.design, job.text, time_limit=job.time_limit,
                                           source=job.source, base_dir=job.base_dir)}
        base = Path(job.base_dir) if job.base_dir else None
        puzzle = load_spec_text(job.text, source=job.source, base_dir=base)
        limits = Limits(time_limit=job.time_limit)
        out = _OPS[job.op](puzzle, job, limits)
    except SpecError as exc:
        out = {"status": "error", "text": str(exc)}
    except TrailkitError as exc:
        out = {"status": "error", "text": f"error: {exc}"}  # the command line's words
    return {"op": job.op, **out}


def _title(puzzle: Puzzle, job: Job) -> str:
    return puzzle.name or job.source


def _answer_json(puzzle: Puzzle, answer: Answer, job: Job) -> dict[str, Any]:
    """A solved, unsolvable or unknown answer: the command line's words and JSON, with
    its picture and steps."""
    from trailkit.solvers.tools.drawing import draw_svg
    from trailkit.solvers.tools.drawing.html import walk_steps

    certificate = answer.certificate
    return {"status": answer.status.value, "backend": answer.backend,
            "length": answer.length, "optimal": answer.optimal,
            "text": answer_text(puzzle, answer, job.source),
            "answer": plain_json(answer_json(puzzle, answer, job.source)),
            "time_s": round(answer.time_s, 6),
            "certificate": None if certificate is None else certificate.kind,
            "steps": walk_steps(puzzle, answer),
            "steps_text": None if answer.length is None else walk_size(puzzle, answer.length),
            "svg": draw_svg(puzzle, answer, title=_title(puzzle, job))}


def _solve(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    from trailkit.solvers.pipeline import solve

    return _answer_json(puzzle, solve(puzzle, job.backend, limits), job)


def _count(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    said = count_verb(puzzle, job.source, job.backend, limits, failures=job.failures)
    return {"status": "solved" if said.result.complete else "unknown",
            "text": said.text, "answer": said.data}


def _prove(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    """``trailkit prove`` (``--claim`` the job's): the claim's words and JSON, and the
    puzzle drawn with the unsolvability certificate where one was the answer. A
    solvable puzzle asked to be proven unsolvable gets the claims that do apply to it
    (``next_claim``: the first, for the page's picker)."""
    from trailkit.solvers.pipeline.proving import prove
    from trailkit.solvers.tools.drawing import draw_svg

    if job.claim != "unsolvable":
        said = claim_verb(puzzle, job.source, job.claim, limits)
        proof = said.result
        drawn = proof.certificate if proof.status is Status.UNSOLVABLE and \
            job.claim != "minimal-core" else None  # a core's picture is explain's
        return {"status": proof.status.value, "claim": job.claim,
                "text": said.text, "answer": said.data,
                "certificate": None if proof.certificate is None else proof.certificate.kind,
                "svg": draw_svg(puzzle, certificate=drawn, title=_title(puzzle, job))}
    proof = prove(puzzle, job.backend or "sat", limits)
    svg = draw_svg(puzzle, certificate=proof.certificate, title=_title(puzzle, job)) \
        if proof.certificate is not None else None
    others = claims_instead(puzzle) if proof.status is Status.SOLVED else []
    out: dict[str, Any] = {
        "status": proof.status.value, "claim": job.claim,
        "text": prove_text(proof, instead=others),
        "answer": prove_json(proof, job.source),
        "certificate": None if proof.certificate is None else proof.certificate.kind,
        "svg": svg}
    if proof.status is Status.SOLVED:
        out["next_claim"] = others[0] if others else None
    return out


def _explain(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    from trailkit.solvers.tools.drawing import draw_svg

    said = explain_verb(puzzle, job.source, limits)
    found = said.result
    answer = found.answer
    svg = draw_svg(puzzle, None if answer.status is Status.UNSOLVABLE else answer,
                   certificate=answer.certificate, title=_title(puzzle, job))
    return {"status": found.status.value, "text": said.text,
            "answer": plain_json(said.data), "svg": svg}


def _rules(puzzle: Puzzle, given: dict[str, Any]) -> RepairRules:
    """The spec's ``repair:`` rules, with what the page chose on top."""
    rules = puzzle.repair or RepairRules.default(has_layout=bool(puzzle.layout))
    if given.get("add") in ("layout", "any", "none"):
        rules = replace(rules, add=given["add"])
    return rules.with_(recolour=given.get("recolour"), remove=given.get("remove"))


def _repair(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    from trailkit.solvers.tools.drawing import Emphasis, draw_svg
    from trailkit.solvers.tools.repair.changes import changes_json

    outcome = repair_verb(puzzle, job.source, _rules(puzzle, job.rules), limits)
    found = outcome.result
    repairs = []
    for item in found.repairs:
        said = change_words(puzzle, item.changes)
        emphasis = Emphasis.from_changes(item.changes, note=f"Repair: {said}")
        repairs.append({"changes": changes_json(puzzle, item.changes), "text": said,
                        "apply": [{"op": c.op.value, "u": c.u, "v": c.v, "colour": c.colour,
                                   "edge": c.edge, "directed": c.directed}
                                  for c in item.changes],
                        "length": item.answer.length,
                        "walk_text": repaired_walk_words(puzzle, item.answer.length),
                        "svg": draw_svg(item.puzzle, item.answer, emphasis=emphasis,
                                        title=_title(puzzle, job))})
    return {"status": found.status.value, "repairs": repairs,
            "svg": repairs[0]["svg"] if repairs else None,
            "text": outcome.text, "answer": plain_json(outcome.data)}


def _inspect(puzzle: Puzzle, job: Job, limits: Limits) -> dict[str, Any]:
    """``trailkit inspect``'s words and JSON, and ``draw --inspect``'s picture: the walk,
    each critical plank marked, each costly one shaded by what it costs (on a board, the
    givens' verdicts and the ``caption`` that counts them)."""
    from trailkit.solvers.frontends.presenter.inspect import inspect_view, measure_rows
    from trailkit.solvers.tools.drawing import draw_svg
    from trailkit.solvers.tools.drawing.html import walk_steps

    said = inspect_verb(puzzle, job.source, limits)
    found, text, data = said.result, said.text, said.data
    answer, view = found.answer, inspect_view(found)
    return {"status": found.status.value, "text": text, "answer": plain_json(data),
            "caption": view.caption if view is not None else "",
            "critical": [f.edge for f in found.critical],
            "costly": [f.edge for f in found.costly],
            "measures": [{"key": k, "words": w, "value": v} for k, w, v in measure_rows(found)],
            "steps": walk_steps(puzzle, answer),
            "steps_text": None if answer.length is None else walk_size(puzzle, answer.length),
            "svg": draw_svg(puzzle, answer, inspect=view,
                            title=_title(puzzle, job))}


_OPS = {"solve": _solve, "count": _count, "prove": _prove, "repair": _repair,
        "explain": _explain, "inspect": _inspect}
