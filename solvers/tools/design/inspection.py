"""``trailkit inspect``: which edges a solvable puzzle cannot lose, and how hard it is.

For a solvable puzzle, each edge is one of three:

* **critical**: without it the puzzle has no walk at all. Each comes with that
  unsolvability's certificate, made as ``solve`` makes one
  (:func:`~trailkit.solvers.pipeline.certify.find_certificate`) and accepted by the
  independent checker of ``models/checking/``;
* **costly** (walks that may reuse edges): without it the shortest walk is longer
  (``length_without``), that length a ``shortest`` claim of the puzzle without it,
  certified by its own ``layers`` (or saying why not and what it rests on);
* the rest: the puzzle loses nothing without it (:class:`Unharmed`): it keeps a walk,
  verified (once-only walks), or its shortest length, each certified (reusable walks:
  the walk shown avoids the edges off it, and the puzzle's ``layers`` certificate holds
  for the puzzle without any one of them, checked for each).

For a reusable walk only the edges of one shortest walk can be critical or costly (a
walk that avoids an edge survives its loss), so one pass over the states
(:mod:`.states`) plus one search per distinct edge of that walk answers it: the
restored tyre puzzle's 25 steps, not its 84 planks. For once-only walks each edge is
taken away in turn and the puzzle solved again by the pipeline.

The difficulty measures (defined with a worked example in docs/inspect.md) are, for
reusable walks, the shortest length, the number of shortest walks, the situations a
walker can reach, the traps among them and the trap steps of the walk shown; for
once-only walks the counts of ``count --failures``: solutions, failures, early
failures, and early failures per solution.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from trailkit.models.answer import Answer, Claim, Status, Walk
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline import count, solve
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.claims import (
    STATE_LIMIT,
    answer_claims,
    found_shortest_claim,
    shortest_claim,
    unique_claim,
)
from trailkit.solvers.pipeline.policy import time_left
from trailkit.solvers.support.interrupts import passed_on
from trailkit.solvers.tools.design.inspect_parts import (
    EdgeFinding,
    GivenFinding,
    Givens,
    TimeUp,
    Unharmed,
    check_time,
    without_edge,
)
from trailkit.solvers.tools.design.node_inspection import NodeFindings, inspect_nodes
from trailkit.solvers.tools.design.states import StateSummary, summarise, trap_steps, walk_states

__all__ = ["MEASURE_BUDGET_S", "EdgeFinding", "GivenFinding", "Givens", "InspectStatus",
           "Inspection", "Unharmed", "inspect_puzzle", "without_edge"]

#: How long the measures' count of solutions and failures may take when no time limit is
#: given: every failure is a walk, and there can be far more of them than the rest of an
#: inspection costs (a 72-edge circuit: minutes), so past this they say "not counted".
#: The checks of the edges a reusable walk loses nothing without get as long.
MEASURE_BUDGET_S = 10.0


class InspectStatus(StrEnum):
    """What the inspection could say about the puzzle as a whole."""

    SOLVABLE = "solvable"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Inspection:
    """What ``inspect`` found (see the module docstring). ``answer`` is the puzzle's
    own answer, as ``solve`` gives it; ``measures`` the difficulty measures by name;
    ``unique`` is ``None`` when it is not known; ``reason`` says why a status is
    unknown or what was left undone; ``partial`` when a limit stopped the inspection
    part way: ``critical`` and ``costly`` are then the edges found before it stopped
    (``looked_at`` of ``to_look_at`` edges looked at), the others not yet known."""

    status: InspectStatus
    answer: Answer
    critical: tuple[EdgeFinding, ...] = ()
    costly: tuple[EdgeFinding, ...] = ()
    unique: bool | None = None
    measures: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""
    time_s: float = 0.0
    claims: tuple[Claim, ...] = ()
    unharmed: Unharmed | None = None
    partial: bool = False
    looked_at: int = 0
    to_look_at: int = 0
    givens: Givens | None = None

    @property
    def reusable(self) -> bool:
        """Whether the measures are those of a walk that may reuse its edges."""
        return "shortest_length" in self.measures


def inspect_puzzle(puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Inspection:
    """Inspect ``puzzle`` (see the module docstring): first solved by the pipeline;
    an unsolvable or undecided puzzle is answered with that answer alone. A puzzle with
    node rules is inspected by :func:`~.node_inspection.inspect_nodes`."""
    started = time.perf_counter()
    answer = solve(puzzle, limits=limits)
    if answer.status is not Status.SOLVED:
        status = (InspectStatus.UNSOLVABLE if answer.status is Status.UNSOLVABLE
                  else InspectStatus.UNKNOWN)
        return Inspection(status, answer, reason=answer.reason,
                          time_s=time.perf_counter() - started)
    reusable = puzzle.use is EdgeUse.ANY and not puzzle.closed and not puzzle.has_node_rules
    run = _inspect_nodes if puzzle.has_node_rules else \
        _inspect_reusable if reusable else _inspect_once
    try:
        found = run(puzzle, answer, limits, started)
    except TimeUp as exc:
        found = Inspection(InspectStatus.UNKNOWN, answer, exc.critical, exc.costly,
                           reason=str(exc), partial=True, looked_at=exc.done,
                           to_look_at=exc.total)
    return replace(found, answer=answer, time_s=time.perf_counter() - started)


def _inspect_nodes(puzzle: Puzzle, answer: Answer, limits: Limits,
                   started: float) -> Inspection:
    """Critical edges and givens of a puzzle with node rules (:mod:`.node_inspection`)."""
    found: NodeFindings = inspect_nodes(puzzle, answer, limits, started)
    return Inspection(InspectStatus.SOLVABLE, answer, found.critical, (), found.unique,
                      found.measures, claims=found.claims, unharmed=found.unharmed,
                      givens=found.givens)


def _inspect_reusable(puzzle: Puzzle, answer: Answer, limits: Limits,
                      started: float) -> Inspection:
    """Critical and costly edges of a reusable walk: only the shown walk's edges can be
    either, each looked at with one pass over the states of the puzzle without it."""
    summary = summarise(puzzle)
    if summary.length != answer.length:
        raise VerificationFailure(f"the state search finds a shortest walk of "
                                  f"{summary.length} steps, the solver {answer.length}")
    assert answer.walk is not None and summary.length is not None
    edges = list(dict.fromkeys(answer.walk.edges))
    critical: list[EdgeFinding] = []
    costly: list[EdgeFinding] = []
    kept: list[Claim] = []
    for done, e in enumerate(edges):
        left = check_time(limits, started, done, len(edges), (critical, costly))
        less = without_edge(puzzle, e)
        length = summarise(less).length
        if length is None:
            certificate, maker = find_certificate(less, get_backend("direct"), left)
            critical.append(EdgeFinding(e, certificate, certificate is not None, maker))
            continue
        claim = _length_without(less, length)
        if length > summary.length:
            costly.append(EdgeFinding(e, length_without=length, claim=claim))
        else:
            kept.append(claim)
    claims = (shortest_claim(puzzle, answer.walk), unique_claim(puzzle, answer.walk))
    every = len(edges)  # all looked at: what stops now is the check of the rest
    unharmed = _unharmed_reusable(puzzle, answer.walk, set(edges), claims[0], kept,
                                  _measure_limits(check_time(limits, started, every, every,
                                                              (critical, costly))))
    unique = summary.shortest_walks == 1
    if claims[1].value is not None and claims[1].value is not unique:
        raise VerificationFailure(f"the state search counts {summary.shortest_walks} "
                                  f"shortest walks, the unique claim says {claims[1].value}")
    return Inspection(InspectStatus.SOLVABLE, answer, tuple(critical), tuple(costly),
                      unique, _reusable_measures(puzzle, summary, answer), claims=claims,
                      unharmed=unharmed)


def _length_without(less: Puzzle, length: int) -> Claim:
    """The shortest length of ``less`` (a puzzle without one edge), ``length`` by the
    state search, as a ``shortest`` claim: certified by its own ``layers``, or why not;
    a certified length other than the search's is a loud failure."""
    claim = found_shortest_claim(less, rests_on="the state search", state_limit=STATE_LIMIT)
    if claim.checked and claim.value != length:
        raise VerificationFailure(f"the state search finds a shortest walk of {length} "
                                  f"steps without an edge, its certificate {claim.value}")
    return claim if claim.checked else replace(claim, value=length)


def _unharmed_reusable(puzzle: Puzzle, walk: Walk, on_walk: set[int], shortest: Claim,
                       kept: list[Claim], limits: Limits) -> Unharmed:
    """What the edges neither critical nor costly rest on, for a reusable walk: those on
    the walk shown each by their own certified length (``kept``); those off it by the
    walk shown, which avoids them, and the puzzle's ``shortest`` certificate, which the
    independent checker accepts for the puzzle without each (fewer edges reach no more
    states), checked one by one within ``limits`` (without a time limit, within
    :data:`MEASURE_BUDGET_S`)."""
    off = [e for e in range(puzzle.num_edges) if e not in on_walk]
    edges, length = len(off) + len(kept), len(walk)
    what = f"each keeps a shortest walk of {plural(length, 'step')}"
    unchecked = next((c for c in kept if not c.checked), None)
    if unchecked is not None:
        return Unharmed(edges, False, f"{what}: {unchecked.why}")
    if off and (not shortest.checked or shortest.certificate is None):
        return Unharmed(edges, False, f"{what}: {shortest.why}")
    began = time.perf_counter()
    for done, e in enumerate(off):
        if time_left(limits, began) == 0:
            limit = "the time limit was" if limits.time_limit != MEASURE_BUDGET_S else \
                f"the {MEASURE_BUDGET_S:g} s inspect gives these checks were"
            return Unharmed(edges, False, f"{what}: not certified ({limit} reached after "
                            f"{done} of the {len(off)} edges off the walk shown); rests on "
                            "the state search")
        assert shortest.certificate is not None
        found = layers_verdict(without_edge(puzzle, e), shortest.certificate.data,
                               exact=False)  # without an edge, states are reached later
        if found.problems:
            raise VerificationFailure(f"the shortest walk's certificate fails without "
                                      f"{puzzle.describe_edge(e)}: {found.problems[0]}")
    return Unharmed(edges, True, f"{what}: a layers certificate for each, accepted by the "
                    "independent checker")


def _reusable_measures(puzzle: Puzzle, summary: StateSummary,
                       answer: Answer) -> dict[str, Any]:
    """The measures of docs/inspect.md for a reusable walk."""
    assert answer.walk is not None
    states = walk_states(puzzle, summary, answer.walk)
    return {"shortest_length": summary.length, "shortest_walks": summary.shortest_walks,
            "situations": summary.reached, "traps": len(summary.traps),
            "trap_steps": trap_steps(summary, states)}


def _inspect_once(puzzle: Puzzle, answer: Answer, limits: Limits,
                  started: float) -> Inspection:
    """Critical edges of a once-only walk, each edge taken away and the puzzle solved
    again; whether the walk is the only one (the ``unique`` claim's refutation); the
    measures from a count of solutions and failures, within :data:`MEASURE_BUDGET_S`
    when no time limit is given (past it they say so: the edges found stand)."""
    assert answer.walk is not None
    critical: list[EdgeFinding] = []
    for e in range(puzzle.num_edges):
        left = check_time(limits, started, e, puzzle.num_edges, (critical, []))
        less = solve(without_edge(puzzle, e), limits=left)
        if less.status is Status.UNKNOWN:
            raise TimeUp(f"without edge {puzzle.edge_id(e)} the puzzle was not decided "
                          f"({less.reason})", (critical, []), e, puzzle.num_edges)
        if less.status is Status.UNSOLVABLE:
            critical.append(EdgeFinding(e, less.certificate, bool(less.certificate_checked),
                                        less.reason))
        elif not less.verified:  # a walk is shown only verified: a bug
            raise VerificationFailure(f"without edge {puzzle.edge_id(e)} the puzzle's walk "
                                      "is not verified")
    unharmed = Unharmed(puzzle.num_edges - len(critical), True, "each leaves a walk, "
                        "verified by the independent checker")
    every = puzzle.num_edges  # all looked at: what stops now is the claims or measures
    claims = answer_claims(puzzle, answer, unique=True,
                           limits=check_time(limits, started, every, every, (critical, [])))
    measures, unique = _once_measures(puzzle, _measure_limits(
        check_time(limits, started, every, every, (critical, []))))
    said = next((c for c in claims if c.claim == "unique" and c.checked), None)
    if said is not None:
        if unique is not None and unique is not said.value:
            raise VerificationFailure(f"the count says unique is {unique}, the certified "
                                      f"claim {said.value}")
        unique = bool(said.value)
    return Inspection(InspectStatus.SOLVABLE, answer, tuple(critical), (), unique, measures,
                      reason=str(measures.get("not_counted", "")), claims=claims,
                      unharmed=unharmed)


def _measure_limits(left: Limits) -> Limits:
    """The limits of the measures' count: the time ``left``, or :data:`MEASURE_BUDGET_S`."""
    if left.time_limit is None:
        return replace(left, time_limit=MEASURE_BUDGET_S)
    return left


def _once_measures(puzzle: Puzzle, limits: Limits) -> tuple[dict[str, Any], bool | None]:
    """Solutions, failures, early failures and early failures per solution (the count of
    ``count --failures``), and whether the solution is unique; ``not_counted`` (why)
    when the count stopped at its limit."""
    try:
        counted = passed_on(count(puzzle, "direct", limits, failures=True))
    except UnsupportedPuzzle as exc:
        return {"not_counted": str(exc)}, None
    if not counted.complete:
        why = (counted.reason or "").split(";")[0]
        return {"not_counted": f"the count of solutions and failures stopped ({why}); "
                               "a longer --time-limit counts further"}, None
    ratio = (counted.early_failures / counted.solutions
             if counted.solutions and counted.early_failures is not None else None)
    return ({"solutions": counted.solutions, "failures": counted.failures,
             "early_failures": counted.early_failures,
             "early_failures_per_solution": ratio}, counted.solutions == 1)
