"""What an answer claims and what each claim rests on, in words and in JSON (CONTRACT 1.3 §6).

Never a bare "proven": a claim is said proven only with the certificate the independent
checker accepted ("25 steps (proven shortest: layers certificate accepted by the
independent checker)"); otherwise the words say it is not certified, why, and what it
rests on. The JSON is the contract's ``claims`` list: ``{"claim", "certificate",
"checked"[, "why"]}`` for every claim the answer makes, ``unsolvable`` included.

>>> from trailkit.models.answer import Answer, Claim, Walk
>>> a = Answer.solved("direct", Walk((0, 1), (0,)), optimal=True).with_(
...     claims=(Claim("shortest", False, value=1, why="not certified (too big)"),))
>>> claims_json(a)
[{'claim': 'shortest', 'certificate': None, 'checked': False, 'why': 'not certified (too big)'}]
>>> length_note(a)
' (shortest: not certified (too big))'
"""

from __future__ import annotations

from typing import Any

from trailkit.models.answer import Answer, Claim, Status
from trailkit.models.counts import CountResult
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.frontends.presenter.walk_text import walk_block, walk_size

__all__ = ["claim_lines", "claims_json", "count_claims_json", "count_words", "fewest_words",
           "length_note", "per_start_heading", "proof_words", "proved_claim_json",
           "proved_claim_text", "unique_json"]


def claims_json(answer: Answer, puzzle: Puzzle | None = None) -> list[dict[str, Any]]:
    """The answer's ``claims``: its unsolvability (with the certificate it rests on) and
    every claim beyond its walk (a refuted one with its witness, named in ``puzzle``)."""
    out: list[dict[str, Any]] = []
    if answer.status is Status.UNSOLVABLE:
        checked = bool(answer.certificate_checked and answer.certificate is not None)
        entry: dict[str, Any] = {"claim": "unsolvable", "certificate":
                                 answer.certificate.kind if checked and answer.certificate
                                 else None, "checked": checked}
        if not checked:
            entry["why"] = (answer.reason or "no certificate") + \
                "; rests on the agreement of two backends"
        out.append(entry)
    return out + [claim.to_json(puzzle) for claim in answer.claims]


def unique_json(puzzle: Puzzle, answer: Answer) -> dict[str, Any]:
    """``unique`` (true, false, or null when undecided) and, when false, ``other_steps``:
    the second verified walk. Empty when uniqueness was not asked."""
    claim = _claim(answer, "unique")
    if claim is None:
        return {}
    out: dict[str, Any] = {"unique": claim.value if claim.checked else None}
    if claim.witness is not None:
        out["other_steps"] = claim.witness.steps_json(puzzle)
        out["other_start"] = puzzle.nodes[claim.witness.nodes[0]] \
            if claim.witness.nodes else None
    return out


def length_note(answer: Answer) -> str:
    """What the length of a solved answer's walk is said to be, and on what: ``""`` when
    the answer makes no such claim."""
    for claim in answer.claims:
        if claim.claim in ("shortest", "longest"):
            if claim.checked and claim.certificate is not None:
                return f" (proven {claim.claim}: {proof_words(claim)})"
            return f" ({claim.claim}: {claim.why})"
    return ""


def proof_words(claim: Claim) -> str:
    """``layers certificate accepted by the independent checker``."""
    kind = claim.certificate.kind if claim.certificate is not None else "no"
    return f"{kind} certificate accepted by the independent checker"


def claim_lines(puzzle: Puzzle, answer: Answer) -> list[str]:
    """The lines an answer adds for its ``unique`` claim (none when not asked)."""
    claim = _claim(answer, "unique")
    if claim is None:
        return []
    best = "shortest walk" if puzzle.objective is Objective.SHORTEST else \
        "longest walk" if puzzle.wants_longest else "solution"
    if not claim.checked:
        return [f"  unique: {claim.why}"]
    if claim.value:
        return [f"  unique: the only {best} (proven: {proof_words(claim)})"]
    assert claim.witness is not None
    return [f"  not unique: a second {best} of {walk_size(puzzle, len(claim.witness))}, "
            "verified by the independent checker:",
            *("  " + line for line in walk_block(puzzle, claim.witness))]


def _claim(answer: Answer, name: str) -> Claim | None:
    return next((claim for claim in answer.claims if claim.claim == name), None)


def proved_claim_text(puzzle: Puzzle, claim_name: str, status: Status, claim: Claim | None,
                      length: int | None, reason: str) -> str:
    """What ``prove --claim`` found, in words: the claim and its certificate's check."""
    if status is Status.UNSOLVABLE and (claim is None or not claim.checked):
        return f"unsolvable: {reason}"  # (a count of 0 is said below)
    if claim is None or not claim.checked:
        return f"unknown: {claim.why if claim is not None else reason}"
    if claim.claim in ("shortest", "longest"):
        return (f"{claim.claim}: {plural(length or 0, 'step')} ({proof_words(claim)})\n"
                f"  {claim.holds}")
    if claim.claim == "count":
        return f"count: {count_words(claim)}\n  {claim.holds}"
    if claim.claim == "minimal-core" and claim.certificate is not None:
        return (f"minimal core: {plural(int(claim.value or 0), 'edge')} "  # a witness each
                f"({proof_words(claim)})\n"
                f"  {claim.holds}")
    if claim.claim == "fewest-changes":
        rests = f" ({proof_words(claim)})" if claim.certificate is not None else ""
        return f"fewest changes: {plural(claim.value or 0, 'change')}{rests}\n  {claim.holds}"
    if claim.value:
        best = "shortest walk" if puzzle.objective is Objective.SHORTEST else \
            "longest walk" if puzzle.wants_longest else "walk"
        return f"unique: the only {best} ({proof_words(claim)})\n  {claim.holds}"
    assert claim.witness is not None
    return "\n".join(["not unique: " + claim.holds + ":",
                      *walk_block(puzzle, claim.witness)])


def proved_claim_json(claim_name: str, status: Status, claim: Claim | None,
                      length: int | None, puzzle: Puzzle | None = None) -> dict[str, Any]:
    """The ``trailkit-prove/1`` fields of ``prove --claim``: ``claim``, the value it
    states (``length``; ``unique``) and ``claims`` (a refuted one with its witness,
    named in ``puzzle``)."""
    out: dict[str, Any] = {"claim": claim_name,
                           "claims": [] if claim is None else [claim.to_json(puzzle)]}
    if claim is not None and claim.checked:
        out["length"] = length
        if claim.claim == "count":
            out["solutions"] = claim.value
        if claim.claim == "fewest-changes":
            out["changes"] = claim.value
        if claim.claim == "unique":
            out["unique"] = bool(claim.value)
    return out


def proved_claim_document(spec: str | None, proof: Any, claim_name: str,
                          out: str | None, puzzle: Puzzle | None = None) -> dict[str, Any]:
    """The whole ``trailkit-prove/1`` object of ``prove --claim`` (``proof``: the
    pipeline's ``ClaimProof``; ``out``: where its certificate was written, if it was)."""
    certificate = None if proof.certificate is None else {"type": proof.certificate.kind,
                                                          "checked": True}
    return {"format": "trailkit-prove/1", "spec": spec, "status": proof.status.value,
            "certificate": certificate, "decided_by": proof.decided_by,
            "reason": proof.reason or None,
            "out": out if proof.document is not None else None,
            **proved_claim_json(claim_name, proof.status, proof.claim, proof.length,
                                puzzle)}


def fewest_words(claim: Claim) -> str:
    """What a repair's number of changes rests on: ``the fewest, proven: the puzzle as
    given refuted and the repair allowed, change-sets certificate accepted by the
    independent checker``, or ``the fewest not certified (...)``."""
    if not claim.checked:
        return f"the fewest {claim.why}"
    if claim.certificate is None:
        return "the fewest, proven: the puzzle as given has a verified walk"
    if claim.certificate.kind == "change-sets" and claim.value == 1:
        return ("the fewest, proven: the puzzle as given refuted and the repair allowed, "
                f"{proof_words(claim)}")
    if claim.certificate.kind == "change-sets":
        return f"the fewest, proven: every smaller set of changes refuted, {proof_words(claim)}"
    if claim.certificate.data.get("encoding") == "repair-fewer-v1":
        return ("the fewest, proven: the repair formula with fewer changes refuted, "
                f"{proof_words(claim)}")
    return f"the fewest, proven: the original's {proof_words(claim)}"


def count_words(claim: Claim) -> str:
    """``88 solutions (proven count: 88 walks listed, the rest refuted, checked by the
    independent DRUP checker)``, ``88 solutions (proven count: BEST theorem recomputed,
    best-formula certificate accepted by the independent checker)``, ``12 solutions
    (proven count: layers certificate accepted by the independent checker)``, ``0
    solutions (proven: no walk at all, closed-set certificate accepted by the independent
    checker)``, or the number and why it is not certified."""
    if not claim.checked:
        return f"{claim.why}"
    if claim.certificate is not None and claim.certificate.kind == "best-formula":
        return (f"{plural(claim.value or 0, 'solution')} (proven count: BEST theorem "
                "recomputed, best-formula certificate accepted by the independent checker)")
    if claim.certificate is not None and claim.certificate.kind == "layers":
        return f"{plural(claim.value or 0, 'solution')} (proven count: {proof_words(claim)})"
    if not claim.value and claim.certificate is not None and claim.certificate.kind != "drup":
        return f"0 solutions (proven: no walk at all, {proof_words(claim)})"
    if not claim.value:
        return ("0 solutions (proven: no walk at all, refuted and checked by the independent "
                "DRUP checker)")
    data = claim.certificate.data if claim.certificate is not None else {}
    best = {"walk-as-short-v1": ("shortest", "most"), "walk-as-long-v1": ("longest", "least")}
    if data.get("encoding") in best:
        which, bound = best[data["encoding"]]
        steps = plural(int(data.get("length", 0)), "step")
        return (f"{plural(claim.value, 'solution')} (proven count: the {claim.value:,} "
                f"{which} walks, of {steps}, listed, every other walk of at {bound} {steps} "
                "refuted, checked by the independent DRUP checker)")
    return (f"{plural(claim.value, 'solution')} (proven count: "
            f"{plural(claim.value, 'walk')} listed, the rest refuted, checked by the "
            "independent DRUP checker)")


def per_start_heading(result: CountResult) -> str:
    """The heading of a count's table by start node: "each proven" when the certificate of
    the total also certifies each row (a ``layers`` count checked start by start, or no
    walk at all), "each at least" for a count a limit stopped."""
    if not result.complete:
        return "  by start node (each at least):"
    claim = next((c for c in result.claims if c.claim == "count" and c.checked), None)
    if claim is not None and claim.certificate is not None and (
            claim.value == 0 or "per_start" in claim.certificate.data):
        return "  by start node (each proven by the same certificate):"
    return "  by start node:"


def count_claims_json(backend: str, method: str, complete: bool,
                      claim: Claim | None = None, solutions: int | None = None
                      ) -> list[dict[str, Any]]:
    """A count's ``claims``: ``count`` (the number is exact), certified when ``claim`` is
    a checked one, else not certified: it rests on the backend's enumeration or formula,
    and where the count had no claim made, why (past the walks ``count`` lists itself:
    that limit, and whether ``prove --claim count`` lists that many).
    None for a count a limit stopped (a lower bound claims no exact number)."""
    if not complete:
        return []
    if claim is not None:
        return [claim.to_json()]
    how = "formula" if method == "exact" else "enumeration"
    return [{"claim": "count", "certificate": None, "checked": False,
             "why": f"not certified ({_uncounted(solutions)}); rests on {backend}'s {how}"}]


def _uncounted(solutions: int | None) -> str:
    """Why a complete count of ``solutions`` walks has no certificate: the limit it
    passed (never a limit it did not)."""
    from trailkit.solvers.pipeline.counting import AUTO_COUNT
    from trailkit.solvers.pipeline.refuted_claims import COUNT_LIMIT

    if solutions is not None and solutions > COUNT_LIMIT:
        return (f"{solutions:,} walks, past the listing limit: a count certificate lists at "
                f"most {COUNT_LIMIT:,}")
    if solutions is not None and solutions > AUTO_COUNT:
        return (f"{solutions:,} walks, more than the {AUTO_COUNT:,} count lists itself; "
                f"trailkit prove --claim count lists up to {COUNT_LIMIT:,}")
    return "no certificate covers this count"
