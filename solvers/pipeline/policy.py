"""The rules every verb shares: which backend by default, who cross-checks, what limits.

Written once here so that ``solve``, ``count``, ``prove`` (and the verbs built on
them) cannot drift apart.

>>> from trailkit.models.puzzle import Puzzle
>>> default_backend(Puzzle.build(edges=[("a", "b")]))
'direct'
>>> second_opinion(get_backend("cpsat"), AUTO, needs_confirmation=False)
'direct'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from trailkit.models.answer import Certificate
from trailkit.models.errors import BackendUnavailable, UnsupportedPuzzle
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.registry import BackendName, backend_names, get_backend

__all__ = ["AUTO", "CLAIM_SECONDS", "CROSSCHECK_FACTOR", "CROSSCHECK_FLOOR_S",
           "CROSSCHECK_WORK_LIMIT", "PRECHECK", "ClaimLimits", "capped",
           "checked_within", "count_second_opinion", "default_backend", "engine_for",
           "ignores_node_rules", "obeys_node_rules",
           "second_limits", "second_opinion", "time_left", "time_up"]

#: ``crosscheck="auto"``: let the policy choose the second backend.
AUTO = "auto"
#: The stage name an answer found by the structural pre-check is stamped with.
PRECHECK = "pre-check"
#: The work limit given to a second backend that only confirms or cross-checks, in its
#: own unit (search nodes for direct, conflicts for CP-SAT: see ``Backend.work_unit``).
CROSSCHECK_WORK_LIMIT = 2_000_000
#: A second opinion the policy chose on a walk the independent checker verified is a
#: bonus, not what the answer rests on: it gets at most this many times the answer's own
#: time (and at least :data:`CROSSCHECK_FLOOR_S`), so a slow second backend never costs
#: the user many times the answer (direct's cross-check of CP-SAT's 1.5 s tour of
#: TSPLIB's alb1000 ran 48 s before saying "undecided").
CROSSCHECK_FACTOR = 10.0
CROSSCHECK_FLOOR_S = 10.0

CLAIM_SECONDS = 20.0
"""The most time ``solve`` and ``count`` spend certifying a claim by refutation."""


@dataclass(frozen=True, slots=True)
class ClaimLimits(Limits):
    """:class:`Limits` whose time limit is the :data:`CLAIM_SECONDS` a claim gets that
    the user did not ask to prove (``solve``'s and ``count``'s own claims), not one the
    user set: a claim it stops says so (:func:`time_up`)."""


def time_up(limits: Limits, doing: str) -> str:
    """Why a claim stopped ``doing`` (``before the refutation``), naming the limit that
    stopped it: the claim's own :data:`CLAIM_SECONDS` (``limits`` a
    :class:`ClaimLimits` at that bound), or the time limit the user set; never a limit
    that was not set (without one, the search was interrupted)."""
    if limits.time_limit is None:
        return f"the search was interrupted {doing}"
    if isinstance(limits, ClaimLimits) and limits.time_limit >= CLAIM_SECONDS:
        return (f"the {CLAIM_SECONDS:g} s that solve and count give a claim of their own "
                f"ran out {doing}; trailkit prove --claim takes as long as it needs")
    return f"the time limit was reached {doing}"


def default_backend(puzzle: Puzzle) -> str:
    """``direct`` where a direct algorithm exists for the puzzle (every kind today), else
    ``cpsat`` (the contract's rule)."""
    del puzzle
    return "direct"


def capped(limits: Limits) -> Limits:
    """``limits`` with at most :data:`CLAIM_SECONDS` to certify a claim the user did not
    ask to prove (``solve``'s and ``count``'s own claims): a :class:`ClaimLimits`, so a
    claim it stops says which limit did; a shorter limit of the user's comes first."""
    left = limits.time_limit
    if left is not None and left < CLAIM_SECONDS:
        return limits
    return ClaimLimits(CLAIM_SECONDS, limits.work_limit, limits.workers, limits.seed,
                       limits.memory_mb)


def engine_for(puzzle: Puzzle, backend: str | BackendName | Backend | None,
               limits: Limits = NO_LIMITS) -> Backend:
    """The backend to run: ``backend`` itself, the one it names, or the default.

    Refuses (:class:`UnsupportedPuzzle`, an input error) a work limit the backend
    cannot honour, and a puzzle with node rules the backend does not obey, rather than
    ignoring them silently.
    """
    engine = backend if isinstance(backend, Backend) else get_backend(
        backend or default_backend(puzzle))
    if not obeys_node_rules(puzzle, engine):
        others = _obeying_backends()
        raise UnsupportedPuzzle(ignores_node_rules(engine) + (
            f"; use {' or '.join(others)}" if others else
            "; no backend of this trailkit does"))
    if limits.work_limit is not None and not engine.honours_work_limit:
        raise UnsupportedPuzzle(f"the {engine.name} backend has no work limit; use "
                                "--time-limit instead")
    return engine


def obeys_node_rules(puzzle: Puzzle, engine: Backend) -> bool:
    """May ``engine`` be asked about ``puzzle``: it has no node rules, or the backend
    obeys them (else its walks, counts and verdicts are those of another puzzle)."""
    return not puzzle.has_node_rules or engine.supports_node_rules


def ignores_node_rules(engine: Backend) -> str:
    """Why ``engine`` may not be asked about a puzzle with node rules."""
    return (f"the {engine.name} backend does not handle node rules (visit, via, avoid, at) "
            "yet")


def _obeying_backends() -> list[str]:
    """The registered backends that obey node rules (those installed here)."""
    out = []
    for name in backend_names():
        try:
            if get_backend(name).supports_node_rules:
                out.append(name)
        except BackendUnavailable:
            continue
    return out


def second_opinion(engine: Backend, crosscheck: str | None, *,
                   needs_confirmation: bool, puzzle: Puzzle | None = None) -> str | None:
    """The backend that checks ``engine``'s answer to a solve, or ``None``.

    ``"auto"``: ``direct`` checks every other backend; when ``direct`` itself answered
    "unsolvable" without a certificate, ``cpsat`` confirms. ``None`` (no cross-check):
    only such an uncertified "unsolvable" is still confirmed. A name: that backend.
    For a ``puzzle`` with node rules, a backend chosen here that does not obey them is
    passed over for the next that does (the one named by the user is kept: the
    cross-check then says why it could not run).
    """
    chosen = _chosen_opinion(engine, crosscheck, needs_confirmation)
    if chosen is None or puzzle is None or not puzzle.has_node_rules or crosscheck not in (
            AUTO, None):
        return chosen
    obeying = _obeying_backends()
    if chosen in obeying:
        return chosen
    other = next((name for name in obeying if name != engine.family), None)
    if other is not None:
        return other
    return chosen if needs_confirmation else None  # it declines: the answer says so


def _chosen_opinion(engine: Backend, crosscheck: str | None,
                    needs_confirmation: bool) -> str | None:
    """:func:`second_opinion` by the backends' names alone."""
    if crosscheck == AUTO:
        if engine.family != "direct":
            return "direct"
        return "cpsat" if needs_confirmation else None
    if crosscheck is None:
        if needs_confirmation:
            return "cpsat" if engine.family != "cpsat" else "direct"
        return None
    return crosscheck


def count_second_opinion(engine: Backend, crosscheck: str | None) -> str | None:
    """The backend that recounts ``engine``'s count: ``direct`` for the others on
    ``"auto"``, nobody on ``None``, else the one named."""
    if crosscheck == AUTO:
        return "direct" if engine.family != "direct" else None
    return crosscheck


def time_left(limits: Limits, started: float) -> float | None:
    """What is left of ``limits.time_limit`` (``None``: no limit) for a command that
    began at ``started`` (``time.perf_counter()``): ``--time-limit`` bounds the whole
    command, its pre-check and second opinion included, not each part."""
    if limits.time_limit is None:
        return None
    return max(0.0, limits.time_limit - (time.perf_counter() - started))


def second_limits(limits: Limits, started: float | None = None, *,
                  bonus_after: float | None = None) -> Limits:
    """The limits of a second opinion: the same (the time left of a command that began
    at ``started``), with a work limit where none was given; ``bonus_after``, the time a
    verified answer took, bounds a cross-check that only adds to it
    (:data:`CROSSCHECK_FACTOR`)."""
    left = limits.time_limit if started is None else time_left(limits, started)
    if bonus_after is not None:
        bound = max(CROSSCHECK_FLOOR_S, CROSSCHECK_FACTOR * bonus_after)
        left = bound if left is None else min(left, bound)
    return Limits(time_limit=left, workers=limits.workers, seed=limits.seed,
                  work_limit=limits.work_limit or CROSSCHECK_WORK_LIMIT,
                  memory_mb=limits.memory_mb)


#: Below this many seconds left, a proof is checked interpreted when the checker's
#: kernels are not compiled yet (nor cached): compiling them takes 10 to 30 s, and a
#: compiler cannot be stopped at a deadline.
COMPILE_S = 30.0
#: How a DRUP check stopped by its time limit begins its one problem.
UNCHECKED = "unchecked: the time limit"


def checked_within(puzzle: Puzzle, certificate: Certificate, left: float | None,
                   progress: Callable[[str], None] | None = None) -> list[str]:
    """The independent checker's problems with ``certificate`` (empty: accepted), a
    ``drup`` proof checked within ``left`` seconds (``None``: no limit): a check stopped
    there says :data:`UNCHECKED` (the proof of a 3 s solve was checked for 4 s more)."""
    from trailkit.models.checking.certificates import check_certificate

    if left is None or certificate.kind != "drup" or \
            certificate.data.get("proof_format") == "lrat":
        return check_certificate(puzzle, certificate, progress=progress)
    if left <= 0:  # rebuilding the formula alone would take a second or more
        return [f"{UNCHECKED} was reached before the proof check began"]
    from trailkit.models.checking import drup
    from trailkit.models.support import jit

    with jit.interpreted(left < COMPILE_S and drup.will_compile()):
        return drup.check_drup_certificate(puzzle, certificate, time_limit=left,
                                           progress=progress)
