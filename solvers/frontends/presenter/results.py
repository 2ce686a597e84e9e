"""``solve`` and ``count`` answers in words (for people) and in the contract's JSON
(``trailkit-result/1``, ``trailkit-count/1``), for the command line and the workshop.

A caller that shows names on a console that cannot print them passes ``shown`` (how a
name will look there), so tables line up as printed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trailkit.models.answer import Answer, Claim, CrossCheck, Status
from trailkit.models.counts import CountResult, StartCounts
from trailkit.models.formats.jsontext import StepsJson
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.models.support.words import in_puzzle_words, number, plural
from trailkit.solvers.frontends.presenter.claim_words import (
    claim_lines,
    claims_json,
    count_claims_json,
    count_words,
    length_note,
    per_start_heading,
    unique_json,
)
from trailkit.solvers.frontends.presenter.walk_text import walk_block, walk_size
from trailkit.solvers.pipeline.expectations import expectation_mismatches
from trailkit.solvers.pipeline.policy import PRECHECK

__all__ = ["COUNT_FORMAT", "RESULT_FORMAT", "answer_json", "answer_text", "count_json",
           "count_method", "count_text", "expect_json", "took_text", "walk_lines",
           "walk_size"]

RESULT_FORMAT = "trailkit-result/1"
COUNT_FORMAT = "trailkit-count/1"


def answer_json(puzzle: Puzzle, answer: Answer, spec: str | None) -> dict[str, Any]:
    """The ``trailkit-result/1`` object (docs/json.md)."""
    walk = answer.walk
    certificate = None
    if answer.certificate is not None:
        certificate = {**answer.certificate.to_json(), "checked": bool(answer.certificate_checked)}
        certificate["explanation"] = in_puzzle_words(puzzle, answer.certificate.explanation)
    out: dict[str, Any] = {
        "format": RESULT_FORMAT,
        "spec": spec,
        "name": puzzle.name,
        "kind": puzzle.kind,
        "backend": answer.backend,
        "status": answer.status.value,
        # written from the walk's arrays when printed (no dict per step)
        "steps": StepsJson(walk, puzzle) if walk is not None else [],
        "start": puzzle.nodes[walk.nodes[0]] if walk is not None and walk.nodes else None,
        "length": answer.length,
        "optimal": answer.optimal,
        "certificate": certificate,
        "verified": bool(answer.verified),
        "decided_by": answer.decided_by or answer.backend,
        "crosscheck": answer.crosscheck.to_json() if answer.crosscheck else None,
        "reason": answer.reason or None,
        "time_s": round(answer.time_s, 6),
        "claims": claims_json(answer, puzzle),
        **unique_json(puzzle, answer),
    }
    if answer.stats.get("encoding"):  # the sat backends: which encoding answered
        out["encoding"] = answer.stats["encoding"]
    if "flatten_s" in answer.stats:  # minizinc:SOLVER: flattening apart from solving
        out["minizinc"] = {"flatten_s": answer.stats["flatten_s"],
                           "solve_s": answer.stats.get("solve_s")}
    if puzzle.expect:
        out["expect"] = expect_json(answer.status is not Status.UNKNOWN,
                                     expectation_mismatches(puzzle, answer=answer))
    return out


def expect_json(decided: bool, mismatches: list[str]) -> dict[str, Any]:
    """``{"ok": ..., "mismatches": [...]}``; ``ok`` is null when the result proves nothing
    (an unknown answer, an incomplete count)."""
    return {"ok": (not mismatches) if decided or mismatches else None,
            "mismatches": mismatches}


#: Steps per line of a long walk, and how wide a line may grow.
def walk_lines(puzzle: Puzzle, answer: Answer) -> list[str]:
    """The answer's walk as text (:func:`~.walk_text.walk_block`)."""
    assert answer.walk is not None
    return walk_block(puzzle, answer.walk)


def _decided(answer: Answer) -> str:
    """Who decided the answer, in words."""
    if answer.decided_by == PRECHECK:
        return f"the structural pre-check (before {answer.backend} ran)"
    return answer.decided_by or answer.backend


def _crosscheck_line(cc: CrossCheck) -> str:
    verdict = "agrees" if cc.agrees else "undecided"
    return f"cross-check: {cc.backend} says {cc.status.value} ({verdict})"


def took_text(seconds: float, compiling: float = 0.0) -> str:
    """``0.412 s``, or ``31.8 s, 30.1 s of it compiling`` when kernels compiled.

    >>> took_text(31.84, 30.12)
    '31.840 s, 30.1 s of it compiling'
    """
    spent = f", {compiling:.1f} s of it compiling" if compiling >= 0.05 else ""
    return f"{seconds:.3f} s{spent}"


def answer_text(puzzle: Puzzle, answer: Answer, spec: str | None,
                waited: tuple[float, float] | None = None) -> str:
    """A few lines a puzzle fan can read. ``waited`` (seconds, of them compiling) is the
    time the answer says it took: the wall time the user waited for it; else the
    answer's own time."""
    title = puzzle.name or spec or "puzzle"
    lines = [f"{title} ({puzzle.kind}{', ' + spec if spec and puzzle.name else ''})"]
    took = took_text(*waited) if waited is not None else f"{answer.time_s:.3f} s"
    if answer.status is Status.SOLVED:
        assert answer.walk is not None
        size = walk_size(puzzle, len(answer.walk))
        lines.append(f"solved by {_decided(answer)} in {took}: {size}{length_note(answer)}, "
                     "verified by the independent checker")
        if answer.walk.edges:
            lines += walk_lines(puzzle, answer)
        elif answer.walk.nodes:
            lines.append(f"  the empty walk at {puzzle.nodes[answer.walk.nodes[0]]}")
        else:
            lines.append("  the empty walk (the puzzle has no nodes)")
        lines += claim_lines(puzzle, answer)
    elif answer.status is Status.UNSOLVABLE:
        lines += _unsolvable_lines(puzzle, answer, took)
    else:
        lines.append(f"unknown after {took} with {answer.backend}: {answer.reason}")
        if answer.walk is not None and answer.walk.edges and answer.verified:
            lines.append(f"  the best walk found ({walk_size(puzzle, len(answer.walk))}, "
                         "verified by the independent checker):")
            lines += walk_lines(puzzle, answer)
    if answer.stats.get("flatten_s") is not None and answer.decided_by != PRECHECK:
        solving = answer.stats.get("solve_s")
        lines.append(f"  MiniZinc: flattening {answer.stats['flatten_s']:.3f} s"
                     + ("" if solving is None else f", solving {solving:.3f} s"))
    if answer.crosscheck is not None:
        lines.append(_crosscheck_line(answer.crosscheck))
    for problem in expectation_mismatches(puzzle, answer=answer):
        lines.append(f"warning: the spec's expect block differs: {problem}")
    return "\n".join(lines)


def count_json(puzzle: Puzzle, result: CountResult, spec: str | None,
               failures: bool) -> dict[str, Any]:
    """The contract's ``trailkit-count/1`` object."""
    out: dict[str, Any] = {
        "format": COUNT_FORMAT,
        "spec": spec,
        "name": puzzle.name,
        "kind": puzzle.kind,
        "backend": result.backend,
        "status": "complete" if result.complete else "unknown",
        "complete": result.complete,
        "method": count_method(result),
        "formula": result.method if result.by_formula else None,
        "solutions": result.solutions,
    }
    if "length" in result.stats:
        out["length"] = result.stats["length"]
    if counts_tours(puzzle):
        out["tours"] = result.tours
    if failures:
        out["failures"] = result.failures
        out["early_failures"] = result.early_failures
    if result.per_start is not None:
        out["per_start"] = {
            name: {k: v for k, v in (("solutions", row.solutions), ("failures", row.failures),
                                     ("early_failures", row.early_failures)) if v is not None}
            for name, row in result.per_start.items()}
    if result.reason:
        out["reason"] = result.reason
    out["time_s"] = round(float(result.stats.get("time_s", 0.0)), 6)
    if "crosscheck" in result.stats:
        out["crosscheck"] = result.stats["crosscheck"]
    out["claims"] = count_claims_json(result.backend, out["method"], result.complete,
                                      result.claims[0] if result.claims else None,
                                      result.solutions)
    if puzzle.expect:
        out["expect"] = expect_json(result.complete,
                                     expectation_mismatches(puzzle, count=result))
    return out


_TOURS = " (each cycle once, whatever its start and direction)"
"""What ``tours`` counts (CONTRACT §7), said after the number."""


def counts_tours(puzzle: Puzzle) -> bool:
    """Does a count of ``puzzle`` say its tours (closed walks through every node)?"""
    return puzzle.closed and puzzle.visit is NodeVisit.EVERY_ONCE


def count_method(result: CountResult) -> str:
    """The contract's ``method`` of a count: ``exact`` (a formula), ``pre-check`` (a
    structural certificate: no solution) or ``enumerate``."""
    if result.by_formula:
        return "exact"
    return PRECHECK if result.backend == PRECHECK else "enumerate"


_NO_MISTAKE = " (there is no solution, so no step is the mistake)"
"""Why an unsolvable puzzle has no early failures: a step is the mistake only when the
walk could still be completed before it (docs/counting.md, "A puzzle without a
solution"); said on the line, as 0 early failures reads like a missing count."""


_FAILURES_REST_ON = ("  failures: not certified (no certificate covers failures); they rest on "
                     "{}'s enumeration")
"""What failure counts rest on: only the enumeration counts them, and no certificate
proves them (issue 32 asks to say plainly what is certified and what is not)."""


def _unsolvable_lines(puzzle: Puzzle, answer: Answer, took: str) -> list[str]:
    """The lines of an unsolvable answer: who decided it, its certificate's explanation
    and whether the checker accepted it (or that it rests on two backends' agreement),
    then the answer's reason when it says more."""
    lines = [f"unsolvable, according to {_decided(answer)} in {took}"]
    explanation = ""
    if answer.certificate is not None:
        explanation = in_puzzle_words(puzzle, answer.certificate.explanation)
        lines.append("  " + explanation)
        if answer.certificate_checked:
            lines.append(f"  ({answer.certificate.kind} certificate accepted by the "
                         "independent checker)")
    else:
        lines.append("  no certificate: this rests on the agreement of two backends")
    reason = in_puzzle_words(puzzle, answer.reason)
    if reason and reason != explanation and answer.decided_by != PRECHECK:
        lines.append(f"  {reason}")
    return lines


def count_text(puzzle: Puzzle, result: CountResult, spec: str | None, failures: bool,
               shown: Callable[[str], str] = str) -> str:
    """The counts as a small table a puzzle fan can read (thousands separated); the
    start nodes' column is as wide as ``shown`` makes their names."""
    title = puzzle.name or spec or "puzzle"
    bound = "" if result.complete else "at least "
    lines = [f"{title} ({puzzle.kind}): counted {_counted_how(result)}"]
    low = not result.complete  # a stopped count's numbers are lower bounds: never rounded up
    lines.append(f"  solutions:      {bound}{number(result.solutions, at_least=low)}"
                 f"{_of_length(puzzle, result)}")
    if result.tours is not None:
        lines.append(f"  tours:          {number(result.tours)}{_TOURS}")
    said = result.claims or count_claims_json(result.backend, count_method(result),
                                              result.complete, solutions=result.solutions)
    lines += [f"  count: {count_words(c) if isinstance(c, Claim) else c['why']}"
              for c in said]
    if failures:
        lines.append(f"  failures:       {bound}{number(result.failures or 0, at_least=low)}")
        lines.append(f"  early failures: {bound}"
                     f"{number(result.early_failures or 0, at_least=low)}"
                     + (_NO_MISTAKE if result.complete and not result.solutions else ""))
        if result.complete:
            lines.append(_FAILURES_REST_ON.format(result.backend))
    if not result.complete:
        lines.append(f"  incomplete: {result.reason}")
    counted = result.complete or any(row.solutions or row.failures or row.early_failures
                                     for row in (result.per_start or {}).values())
    if result.per_start and counted:  # (a stopped count's rows of zeros say nothing)
        lines.append(per_start_heading(result))
        lines += _per_start_table(result.per_start, shown, failures, low)
    cc = result.stats.get("crosscheck")
    if cc:
        lines.append(f"cross-check: {cc['backend']} counts {number(cc['solutions'])} "
                     f"({'agrees' if cc['agrees'] else 'undecided'})")
    for problem in expectation_mismatches(puzzle, count=result):
        lines.append(f"warning: the spec's expect block differs: {problem}")
    return "\n".join(lines)


def _counted_how(result: CountResult) -> str:
    """How the count was made, as its heading says it: by a backend's formula, by the
    structural pre-check, or by a backend's enumeration."""
    if result.by_formula:
        return f"by {result.backend}'s formula: {result.method}"
    if result.backend == PRECHECK:
        return f"by the structural pre-check ({result.method.partition(': ')[2]})"
    return f"by {result.backend} ({result.method})"


def _per_start_table(per_start: Mapping[str, StartCounts], shown: Callable[[str], str],
                     failures: bool, low: bool) -> list[str]:
    """The per-start table's lines, columns aligned (names left, numbers right): the
    solutions, and with ``failures`` the failures and early failures too; ``low``: the
    numbers are a stopped count's lower bounds."""
    columns = 3 if failures else 1
    said: dict[int, str] = {}  # most starts share a few numbers (a path's: 0)
    rows = [(shown(name), *(said.get(n) or said.setdefault(n, number(n, at_least=low))
                            for n in (row.solutions or 0, row.failures or 0,
                                      row.early_failures or 0)[:columns]))
            for name, row in per_start.items()]
    heads = ("start", "solutions", "failures", "early failures")[:4 if failures else 2]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    lines = ["    " + "  ".join(f"{h:<{w}}" if i == 0 else f"{h:>{w}}"
                                for i, (h, w) in enumerate(zip(heads, widths, strict=True)))]
    for row in rows:
        lines.append("    " + "  ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}"
                                          for i, (c, w) in enumerate(zip(row, widths,
                                                                         strict=False))))
    return lines


def _of_length(puzzle: Puzzle, result: CountResult) -> str:
    """`` (the longest walks: 7 steps)`` after a count of the walks of the best length:
    under an objective, and where edges may be reused (only the shortest are counted)."""
    length = result.stats.get("length", result.stats.get("shortest_length"))
    reusable = puzzle.use is EdgeUse.ANY
    if length is None or (puzzle.objective is Objective.ANY and not reusable):
        return ""
    best = "shortest" if reusable else puzzle.objective.value
    return f" (the {best} walks: {plural(int(length), 'step')})"
