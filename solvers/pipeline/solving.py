"""The one path every answer takes: pre-check, solve, verify, check, cross-check.

::

    Puzzle ──pre-check──▶ ──backend.solve──▶ Answer ──verify / check certificate──▶
        ──certify (an uncertified "unsolvable" asks for a certificate)──▶ ──cross-check──▶

* A walk is shown only after :func:`trailkit.models.checking.verify.verify` accepted it.
* "Unsolvable" is said only with a certificate that the independent checker
  accepted, or with the agreement of two backends, and the answer says which.
* A disagreement, a walk that fails the checker or a rejected certificate raises
  :class:`VerificationFailure` (exit code 4): it is a bug and must be loud.
* A limit reached is ``unknown``, never a guess.
* Every answer is stamped here, and only here, with ``backend``, ``decided_by`` and
  ``time_s``.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> answer = solve(p)
>>> answer.status.value, answer.verified, answer.length, answer.decided_by
('solved', True, 3, 'direct')
"""

from __future__ import annotations

import time
from dataclasses import replace

from trailkit.models.answer import Answer, CrossCheck, Status, Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import BackendUnavailable, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.registry import BackendName, backend_names, get_backend
from trailkit.solvers.pipeline.certify import certify
from trailkit.solvers.pipeline.claims import answer_claims
from trailkit.solvers.pipeline.policy import (
    AUTO,
    PRECHECK,
    UNCHECKED,
    capped,
    checked_within,
    engine_for,
    ignores_node_rules,
    obeys_node_rules,
    second_limits,
    second_opinion,
    time_left,
)

__all__ = ["check_answer", "precheck", "solve", "solve_all"]


def solve(puzzle: Puzzle, backend: str | BackendName | Backend | None = None,
          limits: Limits = NO_LIMITS, crosscheck: str | None = AUTO, *,
          precheck: bool = True, unique: bool = False) -> Answer:
    """Solve ``puzzle`` with ``backend`` and return a verified, checked, cross-checked answer.

    ``crosscheck`` names the second backend; ``"auto"`` uses ``direct`` for every other
    backend (and a second backend to confirm an unsolvable answer that has no
    certificate); ``None`` turns the cross-check off (confirmation still happens).
    ``precheck=False`` skips the structural pre-check, so the backend decides alone.
    A solved answer carries its ``claims`` (shortest, longest; ``unique`` asks whether
    the walk is the only one), each certified or saying why not
    (:func:`~trailkit.solvers.pipeline.claims.answer_claims`).
    """
    started = time.perf_counter()  # loading the backend (OR-Tools: seconds) counts too
    engine = engine_for(puzzle, backend, limits)
    answer = _precheck_answer(puzzle, engine) if precheck else None
    decided_by = PRECHECK
    if answer is None:
        answer = engine.solve(puzzle, replace(limits, time_limit=time_left(limits, started)))
        decided_by = engine.name
    answer = answer.with_(backend=engine.name, decided_by=decided_by,
                          time_s=time.perf_counter() - started)
    answer = check_answer(puzzle, answer, time_left(limits, started))
    answer = certify(puzzle, answer, engine,
                     replace(limits, time_limit=time_left(limits, started)))

    needs_confirmation = answer.status is Status.UNSOLVABLE and not answer.certificate_checked
    second_name = second_opinion(engine, crosscheck, needs_confirmation=needs_confirmation,
                                 puzzle=puzzle)
    if second_name is not None:
        bonus = answer.time_s if crosscheck == AUTO and answer.status is Status.SOLVED \
            and answer.verified else None
        answer = _cross_check(puzzle, answer, second_name,
                              second_limits(limits, started, bonus_after=bonus))
    return answer.with_(claims=answer_claims(puzzle, answer, unique=unique,
                                             limits=capped(second_limits(limits, started))))


def solve_all(puzzle: Puzzle, limits: Limits = NO_LIMITS,
              crosscheck: str | None = AUTO, *, precheck: bool = True,
              unique: bool = False) -> tuple[list[Answer], dict[str, str]]:
    """Solve with every registered backend in turn: the answers, and the backends that
    could not run here (name -> why). A work limit goes only to the backends that
    honour one. With ``unique``, every solved answer carries one ``unique`` verdict
    (:func:`_one_unique`)."""
    started = time.perf_counter()
    answers: list[Answer] = []
    skipped: dict[str, str] = {}
    for name in backend_names():
        try:
            engine = get_backend(name)
        except BackendUnavailable as exc:
            skipped[name] = str(exc)
            continue
        if not obeys_node_rules(puzzle, engine):
            skipped[name] = ignores_node_rules(engine)
            continue
        own = limits if engine.honours_work_limit else Limits(
            time_limit=limits.time_limit, workers=limits.workers, seed=limits.seed)
        answers.append(solve(puzzle, engine, own, crosscheck, precheck=precheck))
    if unique:
        answers = _one_unique(puzzle, answers, capped(second_limits(limits, started)))
    return answers, skipped


def _one_unique(puzzle: Puzzle, answers: list[Answer], limits: Limits) -> list[Answer]:
    """``answers`` (every backend's), each solved one with the same ``unique`` verdict:
    made once, for the first solved answer's walk, as ``solve --unique`` makes it. A
    backend's walk as good (called optimal, or no objective) other than a walk certified
    unique is a loud failure; where the verdict's second walk is a backend's own walk,
    that backend's second walk is the first answer's."""
    first = next((a for a in answers if a.status is Status.SOLVED and a.walk is not None),
                 None)
    if first is None or first.walk is None:
        return answers
    verdict = next(c for c in answer_claims(puzzle, first, unique=True, limits=limits)
                   if c.claim == "unique")
    out = []
    for answer in answers:
        walk = answer.walk
        if answer.status is not Status.SOLVED or walk is None:
            out.append(answer)
            continue
        same = _same_walk(walk, first.walk)
        if verdict.checked and verdict.value is True and not same and (
                answer.optimal or puzzle.objective is Objective.ANY):
            raise VerificationFailure(
                f"the walk of {first.backend} is certified the only one, but {answer.backend}"
                f" found another, verified: {plural(len(walk), 'step')}")
        own = verdict
        if verdict.witness is not None and _same_walk(walk, verdict.witness):
            own = replace(verdict, witness=first.walk)
        out.append(answer.with_(claims=(*[c for c in answer.claims if c.claim != "unique"],
                                        own)))
    return out


def _same_walk(one: Walk, other: Walk) -> bool:
    """Whether two walks are one: the same start and the same edges in order."""
    return (one.nodes[:1], one.edges) == (other.nodes[:1], other.edges)


def precheck(puzzle: Puzzle) -> Answer | None:
    """The structural pre-check alone: an unsolvable answer with a one-line certificate
    (under node rules: an edge that must be used at an avoided node, the nodes the walk
    must visit in more pieces than it can join; then parity, components, alternation,
    endpoints), or ``None`` when none applies."""
    from trailkit.solvers.backends.direct.node_structural import node_rule_certificate

    certificate = node_rule_certificate(puzzle)
    if certificate is None and puzzle.use is EdgeUse.EXACTLY_ONCE:
        from trailkit.solvers.backends.direct.structural import structural_certificate

        certificate = structural_certificate(puzzle)
    if certificate is None:
        return None
    return Answer.unsolvable(PRECHECK, certificate,
                             reason="structural pre-check (no solver call needed)")


def _precheck_answer(puzzle: Puzzle, engine: Backend) -> Answer | None:
    """The pre-check for the search backends (``direct`` makes the same argument itself,
    as part of its algorithm: its answer is its own).

    Parity arguments are hard for resolution (measured: ``docs/benchmarks.md``); the
    certificate is one line.
    """
    own = engine.family == "direct" and not puzzle.has_node_rules  # node cuts: made here
    return None if own else precheck(puzzle)


def check_answer(puzzle: Puzzle, answer: Answer, time_limit: float | None = None) -> Answer:
    """Verify a walk or check a certificate; raise :class:`VerificationFailure` on failure.
    A DRUP proof is checked within ``time_limit`` (the command's time left): one not
    checked by then proves nothing, like a proof the checker cannot confirm. An unknown
    answer's walk (the best one a search stopped by a limit found) is verified too."""
    if answer.status is Status.SOLVED and answer.walk is None:
        raise VerificationFailure(f"backend {answer.backend} said solved but gave no walk")
    if answer.status is not Status.UNSOLVABLE and answer.walk is not None:
        _verify_walk(puzzle, answer, answer.walk)
        return answer.with_(verified=True)
    if answer.status is Status.UNSOLVABLE and answer.certificate is not None:
        problems_text = checked_within(puzzle, answer.certificate, time_limit)
        if problems_text and problems_text[0].startswith(UNCHECKED):
            return answer.with_(certificate=None, reason=(
                f"{answer.reason}; not certified: the time limit was reached during the "
                "proof check").lstrip("; "))
        if problems_text and answer.certificate.kind == "drup":
            # A solver's proof that trailkit's checker cannot confirm (too big, too slow,
            # or a solver that logs proofs loosely) proves nothing; the claim then needs
            # a second backend, like any unsolvable answer without a certificate.
            return answer.with_(certificate=None, reason=(
                f"{answer.reason}; its DRUP proof was not accepted ({problems_text[0]})"
            ).lstrip("; "))
        if problems_text:
            raise VerificationFailure(
                f"backend {answer.backend} gave a {answer.certificate.kind} certificate the "
                f"independent checker rejects: {'; '.join(problems_text[:5])}")
        return answer.with_(verified=True, certificate_checked=True)
    return answer


def _verify_walk(puzzle: Puzzle, answer: Answer, walk: Walk) -> None:
    """Raise :class:`VerificationFailure` when ``walk``, ``answer``'s, breaks the rules."""
    try:
        problems = verify(puzzle, walk)
    except (IndexError, TypeError) as exc:  # a malformed walk is a backend bug too
        problems = [f"malformed walk: {exc!r}"]  # type: ignore[list-item]  # text, as problems are
    if problems:
        listing = "; ".join(str(p) for p in problems[:5])
        raise VerificationFailure(
            f"backend {answer.backend} returned a walk that breaks the puzzle's rules: "
            f"{listing}")


def _cross_check(puzzle: Puzzle, answer: Answer, second_name: str, limits: Limits) -> Answer:
    """Ask ``second_name`` too, within ``limits`` (the second opinion's: what is left of
    the command's time); agreement confirms, disagreement is a loud failure."""
    try:
        second = get_backend(second_name)
        if not obeys_node_rules(puzzle, second):
            raise BackendUnavailable(ignores_node_rules(second))
    except BackendUnavailable as exc:
        if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
            return _unconfirmed(answer, f"no second backend to confirm it ({exc})")
        return answer.with_(crosscheck=CrossCheck(second_name, Status.UNKNOWN, None,
                                                  f"undecided: {exc}"))
    if puzzle.has_node_rules and not second.supports_node_rules:  # it would ignore them
        why = f"the {second.name} backend does not handle node rules"
        if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
            return _unconfirmed(answer, f"no second backend to confirm it ({why})")
        return answer.with_(crosscheck=CrossCheck(second.name, Status.UNKNOWN, None,
                                                  f"undecided: {why}"))
    if limits.time_limit == 0:  # the command's time is up: no second opinion
        other = Answer(Status.UNKNOWN, second.name, reason="no time left")
    else:
        began = time.perf_counter()
        other = second.solve(puzzle, limits)
        other = check_answer(puzzle, other, time_left(limits, began))
    if Status.UNKNOWN in (answer.status, other.status):
        check = CrossCheck(second.name, other.status, None,
                           "undecided: one side reached a limit")
        if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
            return _unconfirmed(answer.with_(crosscheck=check),
                                f"{second.name} could not confirm it within its limit")
        return answer.with_(crosscheck=check)
    return _agreed(answer, other, second.name)


def _agreed(answer: Answer, other: Answer, second_name: str) -> Answer:
    """``answer`` confirmed by ``other``, the decided answer of backend ``second_name``:
    a disagreement (on solvability, or on a proven shortest length) is a loud
    :class:`VerificationFailure`; agreement on no walk confirms it (taking ``other``'s
    checked certificate when ``answer`` has none)."""
    if answer.status is not other.status:
        raise VerificationFailure(
            f"backends disagree: {answer.backend} says {answer.status.value}"
            f"{_because(answer)}, {second_name} says {other.status.value}{_because(other)}")
    detail = ""
    if answer.status is Status.SOLVED and answer.optimal and other.optimal \
            and answer.length != other.length:
        raise VerificationFailure(
            f"backends disagree on the shortest length: {answer.backend} proves "
            f"{answer.length}, {second_name} proves {other.length}")
    if answer.status is Status.UNSOLVABLE:
        if not answer.certificate_checked and other.certificate_checked \
                and other.certificate is not None:
            answer = answer.with_(certificate=other.certificate, certificate_checked=True,
                                  verified=True)
        detail = f"confirmed: {answer.backend} and {second_name} both find no walk"
        answer = answer.with_(reason=f"{answer.reason}; {detail}".strip("; "),
                              verified=True)
    return answer.with_(crosscheck=CrossCheck(second_name, other.status, True, detail))


def _unconfirmed(answer: Answer, why: str) -> Answer:
    """An unsolvable claim with neither certificate nor second opinion is only ``unknown``."""
    return Answer(Status.UNKNOWN, answer.backend, reason=f"{answer.backend} found no walk "
                  f"({answer.reason}), but {why}", stats=answer.stats,
                  crosscheck=answer.crosscheck, time_s=answer.time_s,
                  decided_by=answer.decided_by)


def _because(answer: Answer) -> str:
    if answer.status is Status.SOLVED and answer.walk is not None:
        return f" (a verified walk of {plural(len(answer.walk), 'step')})"
    if answer.certificate is not None:
        return f" ({answer.certificate.kind} certificate)"
    return f" ({answer.reason})" if answer.reason else ""
