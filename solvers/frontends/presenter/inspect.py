"""``trailkit inspect`` in words and in the contract's ``trailkit-inspect/1`` JSON.

The inspection itself (:mod:`trailkit.solvers.tools.design.inspection`) is frozen data;
this module words it for a designer: the critical edges with the certificate that the
puzzle is unsolvable without each, the costly ones with the length they would cost, and
the difficulty measures of docs/inspect.md. A puzzle that is not solvable is worded by
the caller as ``solve`` words it (``answer_text`` / ``answer_json``), given here as is.
"""

from __future__ import annotations

from typing import Any

from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.frontends.presenter.results import answer_json, answer_text
from trailkit.solvers.tools.design.inspection import (
    EdgeFinding,
    GivenFinding,
    Givens,
    Inspection,
    InspectStatus,
)
from trailkit.solvers.tools.design.tour_reasoning import MAX_DEPTH
from trailkit.solvers.tools.drawing import GivenMark, InspectMark, InspectView

__all__ = ["INSPECT_FORMAT", "inspect_json", "inspect_said", "inspect_text", "inspect_view",
           "measure_rows"]

INSPECT_FORMAT = "trailkit-inspect/1"

#: Each measure's line in the text, in order (docs/inspect.md defines them).
_MEASURE_WORDS = {
    "shortest_length": "shortest walk (steps)",
    "shortest_walks": "shortest walks",
    "situations": "situations a walker can reach",
    "traps": "traps (reached, goal lost)",
    "trap_steps": "steps of the walk beside a trap",
    "solutions": "solutions",
    "failures": "failures",
    "early_failures": "early failures",
    "early_failures_per_solution": "early failures per solution",
    "not_counted": "not counted",
    "cells": "cells",
    "givens": "givens",
    "deduced": "cells reasoning alone fills",
    "search_depth": "depth of trial and error needed",
    "rating": "rating",
}

#: A measure that is ``None`` (JSON ``null``) in words: the rating's trial and error
#: went past its deepest level, or past its most trials (docs/inspect.md).
_NONE_WORDS = {"search_depth": f"more than {MAX_DEPTH} (not rated: search)"}


def _edge_json(puzzle: Puzzle, finding: EdgeFinding) -> dict[str, Any]:
    e = finding.edge
    out: dict[str, Any] = {"edge": puzzle.edge_id(e), "from": puzzle.nodes[puzzle.tail[e]],
                           "to": puzzle.nodes[puzzle.head[e]],
                           "colour": puzzle.colour_name(e)}
    if finding.length_without is not None:
        out["length_without"] = finding.length_without
        claim = finding.claim
        if claim is not None:  # that length, the shortest without the edge: certified?
            out.update(certificate=claim.certificate.kind if claim.certificate else None,
                       checked=claim.checked)
            if not claim.checked:
                out["why"] = claim.why
        return out
    certificate = finding.certificate
    out.update(certificate=certificate.kind if certificate else None,
               checked=finding.checked,
               explanation=certificate.explanation if certificate else None)
    if not finding.checked:
        out["why"] = finding.maker
    return out


def _claims(puzzle: Puzzle, result: Inspection) -> list[dict[str, Any]]:
    """The claims the inspection makes: each critical edge's ``unsolvable`` (without it),
    and ``shortest`` and ``unique`` (their layers certificates, for reusable walks; for
    once-only walks ``unique`` rests on the count)."""
    claims: list[dict[str, Any]] = [
        {"claim": "unsolvable", "edge_removed": f.edge, "certificate":
         f.certificate.kind if f.certificate else None, "checked": f.checked}
        for f in result.critical]
    claims += [c.to_json(puzzle) for c in result.claims]
    claims += [{**f.claim.to_json(puzzle), "edge_removed": puzzle.edge_id(f.edge),
                "value": f.length_without} for f in result.costly if f.claim is not None]
    if result.unique is not None and not result.claims:
        claims.append({"claim": "unique", "certificate": None, "checked": False,
                       "why": "rests on the count of solutions by enumeration (direct); "
                              "no certificate is made for it"})
    return claims


def _given_words(puzzle: Puzzle, given: GivenFinding) -> str:
    """One given and what its verdict rests on, in words."""
    where = f"{puzzle.nodes[given.node]} at {given.position}"
    if given.essential:
        return f"{where}: without it a second solution (verified by the independent checker)"
    claim = given.claim
    if claim is not None and claim.checked and claim.certificate is not None:
        return (f"{where}: still unique without it ({claim.certificate.kind} certificate "
                "accepted by the independent checker)")
    state = "still unique without it" if given.essential is False else "undecided"
    return f"{where}: {state} ({claim.why if claim is not None else 'not certified'})"


def _givens_lines(puzzle: Puzzle, givens: Givens) -> list[str]:
    """The essential and redundant givens, or why they were not looked at."""
    if givens.skipped:
        return [f"givens: not looked at ({givens.skipped})"]
    essential = [g for g in givens.findings if g.essential]
    lines = [f"essential: {plural(len(essential), 'given')} the solution needs (without "
             "any one of them it is not unique)"]
    lines += [f"  {_given_words(puzzle, g)}" for g in essential]
    rest = [g for g in givens.findings if not g.essential]
    lines.append(f"redundant: {plural(len(rest), 'given')} the puzzle could lose and "
                 "stay unique" + ("" if all(g.essential is False for g in rest)
                                  else " (or undecided)"))
    lines += [f"  {_given_words(puzzle, g)}" for g in rest]
    return lines


def _givens_json(puzzle: Puzzle, givens: Givens) -> dict[str, Any]:
    """The givens' verdicts in the JSON: each with its node, position and what rests on."""
    if givens.skipped:
        return {"skipped": givens.skipped}
    out: list[dict[str, Any]] = []
    for g in givens.findings:
        item: dict[str, Any] = {"node": puzzle.nodes[g.node], "position": g.position,
                                "essential": g.essential}
        if g.second is not None:
            item["second"] = [puzzle.nodes[v] for v in g.second.nodes]
        if g.claim is not None:
            item["claim"] = g.claim.to_json(puzzle)
        out.append(item)
    return {"essential": [i for i in out if i["essential"]],
            "redundant": [i for i in out if i["essential"] is False],
            "undecided": [i for i in out if i["essential"] is None]}


def _unharmed_json(result: Inspection) -> dict[str, Any] | None:
    """The edges neither critical nor costly: how many, and what that rests on."""
    unharmed = result.unharmed
    if unharmed is None:
        return None
    said = "holds" if unharmed.checked else "why"
    return {"edges": unharmed.edges, "checked": unharmed.checked, said: unharmed.said}


def inspect_json(puzzle: Puzzle, result: Inspection, spec: str | None,
                 answer: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``trailkit-inspect/1`` object (docs/json.md); ``answer`` is the puzzle's
    ``trailkit-result/1`` object, included when the puzzle is not solvable."""
    out: dict[str, Any] = {"format": INSPECT_FORMAT, "spec": spec, "name": puzzle.name,
                           "kind": puzzle.kind, "status": result.status.value}
    if result.status is InspectStatus.SOLVABLE:
        out.update(
            length=result.answer.length,
            critical=[_edge_json(puzzle, f) for f in result.critical],
            costly=[_edge_json(puzzle, f) for f in result.costly],
            unique=result.unique, measures=dict(result.measures), claims=_claims(puzzle, result),
            unharmed=_unharmed_json(result))
        if result.givens is not None:
            out["givens"] = _givens_json(puzzle, result.givens)
    elif answer is not None:
        out["answer"] = answer
    if result.partial:  # stopped by a limit: what was found before it, marked partial
        out.update(partial=True, edges_looked_at=result.looked_at,
                   edges_to_look_at=result.to_look_at,
                   critical=[_edge_json(puzzle, f) for f in result.critical],
                   costly=[_edge_json(puzzle, f) for f in result.costly])
    out["reason"] = result.reason or None
    out["time_s"] = round(result.time_s, 6)
    return out


def inspect_text(puzzle: Puzzle, result: Inspection, spec: str | None,
                 answer: str | None = None) -> str:
    """A designer's lines; ``answer`` is the puzzle's answer as ``solve`` words it,
    shown when the puzzle is not solvable."""
    if result.status is not InspectStatus.SOLVABLE:
        head = [answer] if answer else []
        if result.status is InspectStatus.UNKNOWN and result.answer.status.value == "solved":
            head.append(f"inspection unknown: {result.reason}")
            head += _partial_lines(puzzle, result)
        else:
            head.append("nothing to inspect: inspect looks at solvable puzzles "
                        "(trailkit repair finds what would make it solvable)")
        return "\n".join(head)
    title = puzzle.name or spec or "puzzle"
    lines = [f"{title} ({puzzle.kind}{', ' + spec if spec and puzzle.name else ''})",
             f"solvable: {_walk_words(result)}; inspected in {result.time_s:.3f} s"]
    lines += [_claim_line(c, result.reusable) for c in result.claims]
    lines += _critical_lines(puzzle, result)
    if result.reusable:
        lines += _costly_lines(puzzle, result)
    if result.givens is not None:
        lines += _givens_lines(puzzle, result.givens)
    rest = puzzle.num_edges - len(result.critical) - len(result.costly)
    said = f" ({result.unharmed.said})" if result.unharmed is not None else ""
    lines.append(f"the other {plural(rest, 'edge')}: the puzzle loses nothing without any "
                 f"one of them{said}")
    lines.append("measures (defined in docs/inspect.md):")
    lines += [f"  {words:<32} {shown}" for _, words, shown in measure_rows(result)]
    return "\n".join(lines)


def measure_rows(result: Inspection) -> list[tuple[str, str, str]]:
    """Each difficulty measure as the text shows it: its JSON key, its words, its
    value (the workshop lays them out beside the picture). A measure that is ``None``
    in the JSON is said in words, never as ``None``."""
    return [(key, _MEASURE_WORDS.get(key, key), _shown(key, value))
            for key, value in result.measures.items()]


def _shown(key: str, value: object) -> str:
    """A measure's value as the text shows it."""
    if value is None:
        return _NONE_WORDS.get(key, "not known")
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def _walk_words(result: Inspection) -> str:
    length = plural(result.answer.length or 0, "step")
    if result.reusable:
        only = ", the only shortest walk" if result.unique else ""
        return f"a shortest walk of {length}{only}"
    only = " (the only solution)" if result.unique else ""
    return f"a walk of {length}{only}"


def _partial_lines(puzzle: Puzzle, result: Inspection) -> list[str]:
    """What an inspection stopped by its limit found before it stopped, marked partial:
    the edges not yet looked at may be critical or costly too."""
    if not result.partial:
        return []
    lines = [f"partial: {result.looked_at:,} of {plural(result.to_look_at, 'edge')} looked "
             "at before the limit; the others may be critical or costly too"]
    lines += _critical_lines(puzzle, result, "found so far")
    lines += _costly_lines(puzzle, result, "found so far") if result.costly else []
    return lines


def _critical_lines(puzzle: Puzzle, result: Inspection, so_far: str = "") -> list[str]:
    """The critical edges, each with what its unsolvability rests on (``so_far``: the
    words of a partial inspection, ``found so far``)."""
    lines = [f"critical{' (' + so_far + ')' if so_far else ''}: "
             f"{plural(len(result.critical), 'edge')} the puzzle cannot lose "
             "(without any one of them it has no walk)"]
    for f in result.critical:
        if f.checked and f.certificate is not None:
            why = f"{f.certificate.kind} certificate accepted by the independent checker"
        else:
            why = f.maker if f.maker.startswith("not certified") else \
                f"not certified: {f.maker}"
        lines.append(f"  {puzzle.describe_edge(f.edge)}: {why}")
    return lines


def _length_words(finding: EdgeFinding) -> str:
    """What a costly edge's length without it rests on: ``proven shortest: layers
    certificate accepted by the independent checker``, or why it is not certified."""
    claim = finding.claim
    if claim is None:
        return "not certified; rests on the state search"
    if claim.checked and claim.certificate is not None:
        return (f"proven shortest: {claim.certificate.kind} certificate accepted by the "
                "independent checker")
    return claim.why


def _costly_lines(puzzle: Puzzle, result: Inspection, so_far: str = "") -> list[str]:
    """The costly edges, each with the length of the shortest walk without it."""
    lines = [f"costly{' (' + so_far + ')' if so_far else ''}: "
             f"{plural(len(result.costly), 'edge')} the shortest walk needs (without one "
             "it is longer)"]
    for f in result.costly:
        extra = (f.length_without or 0) - (result.answer.length or 0)
        lines.append(f"  {puzzle.describe_edge(f.edge)}: {f.length_without} steps "
                     f"without it (+{extra}; {_length_words(f)})")
    return lines


def _claim_line(claim: Any, reusable: bool) -> str:
    """``  shortest: layers certificate accepted ...`` (or why it is not certified)."""
    if claim.claim == "unique" and claim.value is False:
        return f"  unique: no (a second {'shortest ' if reusable else ''}walk, verified)"
    if claim.checked and claim.certificate is not None:
        return (f"  {claim.claim}: {claim.certificate.kind} certificate accepted by the "
                "independent checker")
    return f"  {claim.claim}: {claim.why}"


def inspect_said(puzzle: Puzzle, result: Inspection, spec: str | None
                 ) -> tuple[str, dict[str, Any]]:
    """What ``trailkit inspect`` prints, in words and in JSON (the command line and the
    workshop both say this): a puzzle that is not solvable is said as ``solve`` says
    it, with the note that there is nothing to inspect."""
    if result.status is InspectStatus.SOLVABLE:
        return inspect_text(puzzle, result, spec), inspect_json(puzzle, result, spec)
    return (inspect_text(puzzle, result, spec, answer_text(puzzle, result.answer, spec)),
            inspect_json(puzzle, result, spec, answer_json(puzzle, result.answer, spec)))


def inspect_view(result: Inspection) -> InspectView | None:
    """What the drawing marks (``draw --inspect``, the workshop's Inspect): each
    critical edge, and each costly one with its length without it; ``None`` for a
    puzzle that is not solvable (nothing was inspected)."""
    if result.status is not InspectStatus.SOLVABLE:
        return None
    marks = [InspectMark(f.edge, "critical") for f in result.critical]
    marks += [InspectMark(f.edge, "costly", f.length_without) for f in result.costly]
    givens = () if result.givens is None else tuple(
        GivenMark(g.node, _VERDICTS[g.essential]) for g in result.givens.findings)
    return InspectView(tuple(marks), result.measures.get("shortest_length"), givens,
                       _caption(result))


#: A given's verdict as the picture marks it, by ``GivenFinding.essential``.
_VERDICTS = {True: "essential", False: "redundant", None: "undecided"}


def _caption(result: Inspection) -> str:
    """What inspect found on a tour puzzle, in one caption under its board: the givens'
    verdicts, the critical moves and the rating (empty for other puzzles, whose
    pictures say it with their marks and legend)."""
    measures = result.measures
    if result.givens is None and "rating" not in measures:
        return ""
    walk = result.answer.walk
    every = walk is not None and {f.edge for f in result.critical} >= set(walk.edges)
    parts = [plural(len(result.critical), "critical move") + (
        ": every move of the solution" if every else " (banded)")]
    givens = result.givens
    if givens is not None and givens.skipped:
        parts.insert(0, f"givens not judged: {givens.skipped}")
    elif givens is not None:
        found = [_VERDICTS[g.essential] for g in givens.findings]
        redundant = found.count("redundant")
        words = (f"{plural(found.count('essential'), 'essential given')} (ringed), "
                 + (f"{redundant} redundant (pale)" if redundant else "none redundant"))
        undecided = found.count("undecided")
        parts.insert(0, words + (f", {undecided} undecided" if undecided else ""))
    if "rating" in measures:
        parts.append(_rating_words(measures))
    return "Inspect: " + "; ".join(parts) + "."


def _rating_words(measures: Any) -> str:
    """``rating medium: reasoning alone fills 9 of the 21 cells not given, then trial
    and error 1 level deep`` (docs/inspect.md defines the measures)."""
    open_cells = measures.get("cells", 0) - measures.get("givens", 0)
    said = (f"rating {measures['rating']}: reasoning alone fills "
            f"{measures.get('deduced', 0)} of the {plural(open_cells, 'cell')} not given")
    depth = measures.get("search_depth")
    if depth is None:
        return said + f", then search (trial and error more than {MAX_DEPTH} levels deep)"
    return said + (f", then trial and error {plural(depth, 'level')} deep" if depth else "")
