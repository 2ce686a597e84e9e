"""``repair`` and ``explain`` answers in words and in the contract's JSON
(``trailkit-repair/1``, ``trailkit-explain/1``), for the command line and the workshop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import in_puzzle_words, plural
from trailkit.solvers.frontends.presenter.claim_words import fewest_words
from trailkit.solvers.frontends.presenter.results import walk_lines, walk_size
from trailkit.solvers.pipeline.claims import fewest_changes_claim

if TYPE_CHECKING:
    from trailkit.models.answer import Answer
    from trailkit.solvers.tools.repair.changes import Change
    from trailkit.solvers.tools.repair.explanation import Explanation
    from trailkit.solvers.tools.repair.fewest_changes import Repair, RepairResult

__all__ = ["EXPLAIN_FORMAT", "REPAIR_FORMAT", "change_words", "explain_json",
           "explain_text", "repair_json", "repair_text", "repaired_walk_words", "words"]

REPAIR_FORMAT = "trailkit-repair/1"
EXPLAIN_FORMAT = "trailkit-explain/1"


def words(puzzle: Puzzle, text: str) -> str:
    """``text`` in the puzzle's own words (dominoes, not edges, in a domino chain)."""
    return in_puzzle_words(puzzle, text)


def _walk_lines(puzzle: Puzzle, answer: Answer) -> list[str]:
    """The walk as the solve command shows it (:func:`~trailkit.solvers.frontends.
    presenter.results.walk_lines`: wrapped ten steps a line, step numbers right-aligned),
    every line indented alike to sit under a repair."""
    if answer.walk is None or not answer.walk.edges:
        return ["     the empty walk"]
    return ["   " + line for line in walk_lines(puzzle, answer)]


def repair_text(result: RepairResult, spec: str) -> str:
    """The repair answer for people; an edge added beside an existing one is said to be
    walked twice (a line drawn twice, a second bridge)."""
    from trailkit.solvers.tools.repair.fewest_changes import RepairStatus

    puzzle = result.puzzle
    title = puzzle.name or spec
    lines = [f"{title} ({puzzle.kind}, {spec})"]
    if result.status is RepairStatus.SOLVABLE:
        lines.append(f"already solvable: a verified walk of "
                     f"{plural(result.original.length or 0, 'step')} exists; nothing to repair")
        return "\n".join(lines)
    if result.status is RepairStatus.UNKNOWN:
        lines.append(f"unknown: {result.reason}")
        return "\n".join(lines)
    original = result.original
    if original.certificate is not None:
        lines.append("unsolvable as given: " + words(puzzle, original.certificate.explanation))
    lines.append(words(puzzle, f"allowed changes: {result.rules.describe()} "
                                f"({result.candidates} candidates)"))
    if result.status is RepairStatus.NO_REPAIR:
        return "\n".join(lines + _no_repair_lines(result))
    how_many = (f"{len(result.repairs)} repairs" if len(result.repairs) > 1 else "repair")
    proven = fewest_words(_fewest(result))
    lines.append(f"{how_many} with {plural(result.changes or 0, 'change')} ({proven}; "
                 f"{result.method}, {result.time_s:.3f} s):")
    lines += _repair_lines(result)
    if result.minimal:
        lines.append(words(puzzle, f"no repair with fewer changes exists: {result.proof}"))
    else:
        lines.append(words(puzzle, f"not proven minimal: {result.proof}"))
    if result.repairs and not result.complete_list and len(result.repairs) > 1:
        lines.append("(the list may not hold every repair of this size)")
    return "\n".join(lines)


def _no_repair_lines(result: RepairResult) -> list[str]:
    """Why no repair exists; where only layout neighbours may be joined, how to allow more."""
    puzzle = result.puzzle
    lines = [words(puzzle, f"no repair: {result.proof}")]
    if result.rules.add == "layout":
        lines.append(words(puzzle, "(new edges only between touching nodes of the layout, "
                                    "the default for a spec with one; --add any allows "
                                    "any two)"))
    return lines


def _repair_lines(result: RepairResult) -> list[str]:
    """Each repair (numbered when there are several): its changes in words, an edge added
    beside an existing one said to be walked twice, then its verified walk."""
    from trailkit.solvers.tools.repair.changes import Op

    puzzle = result.puzzle
    lines: list[str] = []
    joined = {frozenset((puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]))
              for e in range(puzzle.num_edges)}

    def said(change: Change) -> str:
        text = change.describe(puzzle)
        if change.op is Op.ADD and frozenset((change.u, change.v)) in joined:
            text += " (beside an existing one: walk that way twice)"
        return text

    for i, item in enumerate(result.repairs, 1):
        prefix = f"{i}. " if len(result.repairs) > 1 else ""
        lines.append("  " + prefix + words(puzzle, "; ".join(said(c) for c in item.changes)))
        best = "a shortest walk" if item.answer.optimal and \
            item.puzzle.use is EdgeUse.ANY else "a walk"
        size = walk_size(puzzle, item.answer.length or 0)
        lines.append(f"     {best} in the repaired puzzle, {size}, "
                     "verified by the independent checker:")
        lines += _walk_lines(item.puzzle, item.answer)
    return lines


def repair_json(result: RepairResult, spec: str) -> dict[str, Any]:
    """The contract's ``trailkit-repair/1`` object."""
    puzzle = result.puzzle
    original = result.original
    certificate = None
    if original.certificate is not None:
        certificate = {**original.certificate.to_json(),
                       "checked": bool(original.certificate_checked)}
    return {
        "format": REPAIR_FORMAT, "spec": spec, "name": puzzle.name, "kind": puzzle.kind,
        "status": result.status.value, "changes": result.changes,
        "minimal": bool(result.minimal), "proof": result.proof or None,
        "claims": [] if result.changes is None else [_fewest(result).to_json()],
        "method": result.method or None, "candidates": result.candidates,
        "all": bool(result.complete_list),
        "repairs": [_repair_json(puzzle, r) for r in result.repairs],
        "original": {"status": original.status.value, "certificate": certificate},
        "reason": result.reason or None,
        "time_s": round(result.time_s, 6),
    }


def _fewest(result: RepairResult) -> Any:
    """The ``fewest-changes`` claim of a repair, and what it rests on: the one the repair
    made (2 or more changes), else the pipeline's (0 or 1)."""
    if result.claim is not None:
        return result.claim
    return fewest_changes_claim(result.changes, result.original, minimal=result.minimal,
                                proof=result.proof)


def _core_claims(core: Any) -> list[dict[str, Any]]:
    """The ``minimal-core`` claim of an explanation's core, when it has one."""
    if core is None or not core.edges:
        return []
    return [core.claim().to_json()]


def _summary(certificate: dict[str, Any]) -> dict[str, Any]:
    """A certificate as ``explain --json`` shows it: a refutation without its formula and
    proof (thousands of lines; their SHA-256 and sizes stay)."""
    return {k: v for k, v in certificate.items() if k not in ("cnf", "proof", "variables")}


def _repair_json(puzzle: Puzzle, item: Repair) -> dict[str, Any]:
    """One repair of ``trailkit-repair/1``: its changes (to ``puzzle``, the original) and
    the verified walk they allow."""
    from trailkit.solvers.tools.repair.changes import changes_json

    walk = item.answer.walk
    assert walk is not None  # a repair's answer is verified and solved: it has a walk
    return {"changes": changes_json(puzzle, item.changes),
            "status": item.answer.status.value, "length": item.answer.length,
            "optimal": item.answer.optimal, "start": item.puzzle.nodes[walk.nodes[0]],
            "steps": walk.steps_json(item.puzzle), "verified": bool(item.answer.verified)}


def explain_json(found: Explanation, spec: str) -> dict[str, Any]:
    """The contract's ``trailkit-explain/1`` object."""
    puzzle = found.puzzle
    answer = found.answer
    certificate = None
    if answer.certificate is not None:
        certificate = {**answer.certificate.to_json(), "checked": bool(answer.certificate_checked)}
    core = None
    if found.core is not None:
        c = found.core
        core = {"edges": [puzzle.edge_id(e) for e in c.edges], "minimal": c.minimal,
                "smallest": c.smallest,
                "certificate": None if c.certificate is None else
                {**_summary(c.certificate.to_json()), "checked": True},
                "witnesses": [w.steps_json(puzzle) for w in c.witnesses]}
    return {"format": EXPLAIN_FORMAT, "spec": spec, "name": puzzle.name, "kind": puzzle.kind,
            "status": found.status.value, "certificate": certificate, "core": core,
            "node_core": _node_core_json(found),
            "claims": _core_claims(found.core) + ([found.node_core.claim().to_json()]
                                                  if found.node_core is not None else []),
            "situations": None if found.situations is None else
            found.situations.to_json(puzzle),
            "text": words(puzzle, found.text), "time_s": round(found.time_s, 6)}


def _node_core_json(found: Explanation) -> dict[str, Any] | None:
    """The core of node rules (CONTRACT 1.4 section 7's rules, one node each), when the
    explanation has one."""
    c, puzzle = found.node_core, found.puzzle
    if c is None:
        return None
    return {"rules": [rule.to_json(puzzle) for rule in c.rules], "of": c.total,
            "minimal": c.minimal,
            "certificate": None if c.certificate is None else
            {**_summary(c.certificate.to_json()), "checked": True},
            "witnesses": [w.steps_json(puzzle) for w in c.witnesses]}


def explain_text(found: Explanation, spec: str) -> str:
    """The explanation for people: the spec, the verdict, then why."""
    puzzle = found.puzzle
    title = puzzle.name or spec
    return f"{title} ({puzzle.kind}, {spec})\n{found.status.value}\n" + words(puzzle, found.text)


def change_words(puzzle: Puzzle, changes: Sequence[Change]) -> str:
    """One repair's changes in a line (what a button that applies it says)."""
    from trailkit.solvers.tools.repair.changes import describe_changes

    return words(puzzle, describe_changes(puzzle, changes))


def repaired_walk_words(puzzle: Puzzle, length: int | None) -> str:
    """``a walk of 7 steps``: the walk a repair leads to."""
    return words(puzzle, "a walk of " + walk_size(puzzle, length or 0))
