"""The one pipeline every answer goes through: solve, verify, check, cross-check.

::

    Puzzle ──backend.solve──▶ Answer ──verify / check certificate──▶ ──cross-check──▶

* A walk is shown only after :func:`trailkit.models.verify.verify` accepted it.
* "Unsolvable" is said only with a certificate that the independent checker
  accepted, or with the agreement of two backends, and the answer says which.
* A disagreement, a walk that fails the checker or a rejected certificate raises
  :class:`VerificationFailure` (exit code 4): it is a bug and must be loud.
* A limit reached is ``unknown``, never a guess.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> answer = solve(p)
>>> answer.status.value, answer.verified, answer.length
('solved', True, 3)
"""

from __future__ import annotations

import time

from trailkit.models.answer import Answer, CrossCheck, Status
from trailkit.models.certificates import check_certificate
from trailkit.models.errors import BackendUnavailable, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.verify import verify
from trailkit.solvers.base import Backend, Limits
from trailkit.solvers.registry import get_backend

__all__ = ["AUTO", "check_answer", "default_backend", "solve"]

AUTO = "auto"
#: The work limit given to a second backend that only confirms or cross-checks.
CROSSCHECK_WORK_LIMIT = 2_000_000


def default_backend(puzzle: Puzzle) -> str:
    """``direct`` where a direct algorithm exists for the puzzle (every kind today)."""
    del puzzle
    return "direct"


def solve(puzzle: Puzzle, backend: str | Backend | None = None, limits: Limits = Limits(),
          crosscheck: str | None = AUTO) -> Answer:
    """Solve ``puzzle`` with ``backend`` and return a verified, checked, cross-checked answer.

    ``crosscheck`` names the second backend; ``"auto"`` uses ``direct`` for every other
    backend (and a second backend to confirm an unsolvable answer that has no
    certificate); ``None`` turns the cross-check off (confirmation still happens).
    """
    engine = get_backend(backend or default_backend(puzzle)) if not isinstance(
        backend, Backend) else backend
    started = time.perf_counter()
    answer = _structural_shortcut(puzzle, engine)
    if answer is None:
        answer = engine.solve(puzzle, limits)
    answer = answer.with_(time_s=time.perf_counter() - started)
    answer = check_answer(puzzle, answer)

    second_name = _second_backend(engine.name, crosscheck, answer)
    if second_name is not None:
        answer = _cross_check(puzzle, answer, second_name, limits)
    return answer


def _structural_shortcut(puzzle: Puzzle, engine: Backend) -> Answer | None:
    """For exactly-once puzzles, try the one-line structural arguments before any search.

    Parity arguments are hard for resolution (a SAT solver needs minutes for an Euler
    trail in K6); the certificate is one line.
    """
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or engine.name == "direct":
        return None
    try:
        from trailkit.solvers.direct.structural import structural_certificate
    except ImportError:  # pragma: no cover - the direct backend ships with trailkit
        return None
    certificate = structural_certificate(puzzle)
    if certificate is None:
        return None
    return Answer.unsolvable(engine.name, certificate,
                             reason="structural pre-check (no solver call needed)")


def check_answer(puzzle: Puzzle, answer: Answer) -> Answer:
    """Verify a walk or check a certificate; raise :class:`VerificationFailure` on failure."""
    if answer.status is Status.SOLVED:
        if answer.walk is None:
            raise VerificationFailure(f"backend {answer.backend} said solved but gave no walk")
        try:
            problems = verify(puzzle, answer.walk)
        except (IndexError, TypeError) as exc:  # a malformed walk is a backend bug too
            problems = [f"malformed walk: {exc!r}"]  # type: ignore[list-item]
        if problems:
            listing = "; ".join(str(p) for p in problems[:5])
            raise VerificationFailure(
                f"backend {answer.backend} returned a walk that breaks the puzzle's rules: "
                f"{listing}")
        return answer.with_(verified=True)
    if answer.status is Status.UNSOLVABLE and answer.certificate is not None:
        problems_text = check_certificate(puzzle, answer.certificate)
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


def _second_backend(first: str, crosscheck: str | None, answer: Answer) -> str | None:
    needs_confirmation = answer.status is Status.UNSOLVABLE and not answer.certificate_checked
    if crosscheck == AUTO:
        if first.split(":")[0] != "direct":
            return "direct"
        return "cpsat" if needs_confirmation else None
    if crosscheck is None:
        if needs_confirmation:
            return "cpsat" if first.split(":")[0] != "cpsat" else "direct"
        return None
    return crosscheck


def _cross_check(puzzle: Puzzle, answer: Answer, second_name: str, limits: Limits) -> Answer:
    """Ask ``second_name`` too; agreement confirms, disagreement is a loud failure."""
    try:
        second = get_backend(second_name)
    except BackendUnavailable as exc:
        if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
            return _unconfirmed(answer, f"no second backend to confirm it ({exc})")
        return answer.with_(crosscheck=CrossCheck(second_name, Status.UNKNOWN, False, str(exc)))
    second_limits = Limits(time_limit=limits.time_limit, workers=limits.workers,
                           seed=limits.seed,
                           work_limit=limits.work_limit or CROSSCHECK_WORK_LIMIT)
    other = check_answer(puzzle, second.solve(puzzle, second_limits))
    if Status.UNKNOWN in (answer.status, other.status):
        check = CrossCheck(second.name, other.status, False,
                           "undecided: one side reached a limit")
        if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
            return _unconfirmed(answer.with_(crosscheck=check),
                                f"{second.name} could not confirm it within its limit")
        return answer.with_(crosscheck=check)
    if answer.status is not other.status:
        raise VerificationFailure(
            f"backends disagree: {answer.backend} says {answer.status.value}"
            f"{_because(answer)}, {second.name} says {other.status.value}{_because(other)}")
    detail = ""
    if answer.status is Status.SOLVED and answer.optimal and other.optimal \
            and answer.length != other.length:
        raise VerificationFailure(
            f"backends disagree on the shortest length: {answer.backend} proves "
            f"{answer.length}, {second.name} proves {other.length}")
    if answer.status is Status.UNSOLVABLE and not answer.certificate_checked:
        if other.certificate_checked and other.certificate is not None:
            answer = answer.with_(certificate=other.certificate, certificate_checked=True,
                                  verified=True)
        detail = f"confirmed: {answer.backend} and {second.name} both find no walk"
        answer = answer.with_(reason=f"{answer.reason}; {detail}".strip("; "),
                              verified=True)
    return answer.with_(crosscheck=CrossCheck(second.name, other.status, True, detail))


def _unconfirmed(answer: Answer, why: str) -> Answer:
    """An unsolvable claim with neither certificate nor second opinion is only ``unknown``."""
    return Answer(Status.UNKNOWN, answer.backend, reason=f"{answer.backend} found no walk "
                  f"({answer.reason}), but {why}", stats=answer.stats,
                  crosscheck=answer.crosscheck, time_s=answer.time_s)


def _because(answer: Answer) -> str:
    if answer.status is Status.SOLVED and answer.walk is not None:
        return f" (a verified walk of {len(answer.walk)} steps)"
    if answer.certificate is not None:
        return f" ({answer.certificate.kind} certificate)"
    return f" ({answer.reason})" if answer.reason else ""
