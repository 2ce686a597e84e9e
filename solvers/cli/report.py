"""Formatting answers for people (text) and scripts (the contract's JSON)."""

from __future__ import annotations

import re
from typing import Any

from trailkit.models.answer import Answer, Status
from trailkit.models.counting import CountResult
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.pipeline.expectations import expectation_mismatches

__all__ = ["COUNT_FORMAT", "RESULT_FORMAT", "answer_json", "answer_text", "count_json",
           "count_text", "in_puzzle_words"]

RESULT_FORMAT = "trailkit-result/1"
COUNT_FORMAT = "trailkit-count/1"


_WORDS = {
    "domino-chain": {"nodes": "pips", "Nodes": "Pips", "node": "pip", "Node": "Pip",
                     "edges": "dominoes", "Edges": "Dominoes", "edge": "domino",
                     "Edge": "Domino", "a loop": "a double", "walk": "chain"},
    "colour-walk": {"edges": "planks", "Edges": "Planks", "edge": "plank", "Edge": "Plank"},
}


def in_puzzle_words(puzzle: Puzzle, text: str) -> str:
    """Say ``text`` in the puzzle's own words: dominoes and pips, planks, ..."""
    words = _WORDS.get(puzzle.kind)
    if not words:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in
                                           sorted(words, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: words[m.group(1)], text)


def answer_json(puzzle: Puzzle, answer: Answer, spec: str | None) -> dict[str, Any]:
    """The contract's ``trailkit-result/1`` object (section 3 of CONTRACT.md)."""
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
        "steps": walk.steps_json(puzzle) if walk is not None else [],
        "start": puzzle.nodes[walk.nodes[0]] if walk is not None else None,
        "length": answer.length,
        "optimal": answer.optimal,
        "certificate": certificate,
        "verified": bool(answer.verified),
        "decided_by": answer.decided_by or answer.backend,
        "crosscheck": answer.crosscheck.to_json() if answer.crosscheck else None,
        "reason": answer.reason or None,
        "time_s": round(answer.time_s, 6),
    }
    mismatches = expectation_mismatches(puzzle, answer=answer)
    if puzzle.expect:
        out["expect"] = {"ok": not mismatches, "mismatches": mismatches}
    return out


def _walk_line(puzzle: Puzzle, answer: Answer) -> str:
    walk = answer.walk
    assert walk is not None  # only called for solved answers
    names = puzzle.nodes
    if puzzle.kind == "domino-chain":
        return " ".join(f"[{names[walk.nodes[i]]}|{names[walk.nodes[i + 1]]}]"
                        for i in range(len(walk.edges)))
    parts = [names[walk.nodes[0]]]
    for i, e in enumerate(walk.edges):
        colour = puzzle.colour_name(e)
        arrow = f" -{colour}-> " if colour else " -> "
        parts.append(arrow + names[walk.nodes[i + 1]])
    return "".join(parts)


def answer_text(puzzle: Puzzle, answer: Answer, spec: str | None) -> str:
    """A few lines a puzzle fan can read."""
    title = puzzle.name or spec or "puzzle"
    lines = [f"{title} ({puzzle.kind}{', ' + spec if spec and puzzle.name else ''})"]
    took = f"{answer.time_s:.3f} s"
    if answer.status is Status.SOLVED:
        assert answer.walk is not None
        size = "dominoes" if puzzle.kind == "domino-chain" else "steps"
        extreme = "longest" if puzzle.wants_longest else "shortest"
        best = f" (proven {extreme})" if answer.optimal else ""
        lines.append(f"solved by {answer.backend} in {took}: {len(answer.walk)} {size}{best}, "
                     "verified by the independent checker")
        lines.append("  " + _walk_line(puzzle, answer) if answer.walk.edges
                     else f"  the empty walk at {puzzle.nodes[answer.walk.nodes[0]]}")
    elif answer.status is Status.UNSOLVABLE:
        lines.append(f"unsolvable, according to {answer.backend} in {took}")
        explanation = ""
        if answer.certificate is not None:
            explanation = in_puzzle_words(puzzle, answer.certificate.explanation)
            lines.append("  " + explanation)
            if answer.certificate_checked:
                lines.append(f"  ({answer.certificate.kind} certificate accepted by the "
                             "independent checker)")
        reason = in_puzzle_words(puzzle, answer.reason)
        if reason and reason != explanation:
            lines.append(f"  {reason}")
    else:
        lines.append(f"unknown after {took} with {answer.backend}: {answer.reason}")
    if answer.crosscheck is not None:
        cc = answer.crosscheck
        verdict = "agrees" if cc.agrees else "undecided"
        lines.append(f"cross-check: {cc.backend} says {cc.status.value} ({verdict})")
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
        "method": result.method,
        "solutions": result.solutions,
    }
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
    mismatches = expectation_mismatches(puzzle, count=result)
    if puzzle.expect:
        out["expect"] = {"ok": not mismatches, "mismatches": mismatches}
    return out


def count_text(puzzle: Puzzle, result: CountResult, spec: str | None, failures: bool) -> str:
    title = puzzle.name or spec or "puzzle"
    bound = "" if result.complete else "at least "
    lines = [f"{title} ({puzzle.kind}): counted by {result.backend} ({result.method})"]
    lines.append(f"  solutions:      {bound}{result.solutions}")
    if failures:
        lines.append(f"  failures:       {bound}{result.failures}")
        lines.append(f"  early failures: {bound}{result.early_failures}")
    if not result.complete:
        lines.append(f"  incomplete: {result.reason}")
    if result.per_start:
        lines.append("  by start node:")
        width = max(len(n) for n in result.per_start)
        header = f"    {'start':<{width}}  solutions"
        if failures:
            header += "  failures  early failures"
        lines.append(header)
        for name, row in result.per_start.items():
            line = f"    {name:<{width}}  {row.solutions:>9}"
            if failures:
                line += f"  {row.failures or 0:>8}  {row.early_failures or 0:>14}"
            lines.append(line)
    cc = result.stats.get("crosscheck")
    if cc:
        lines.append(f"cross-check: {cc['backend']} counts {cc['solutions']} "
                     f"({'agrees' if cc['agrees'] else 'undecided'})")
    for problem in expectation_mismatches(puzzle, count=result):
        lines.append(f"warning: the spec's expect block differs: {problem}")
    return "\n".join(lines)
