"""``inspect`` of a puzzle with node rules: the edges and the givens it cannot lose.

Under node rules (``visit``, ``via``, ``avoid``, ``at``) a walk that avoids an edge
survives its loss, so only the edges of the walk shown can be **critical**: each is
taken away in turn and the puzzle solved again by the direct backend (its walk
verified by the independent checker, or its exhaustive search finding none). Where
direct's exhaustive tour search found the walk shown to be the only one, every edge of
it is critical by that same search (the one walk uses it), with no search per edge.
The edges off the walk lose the puzzle nothing: the walk shown, verified, uses none of
them.

For an open path through every node (Hidato, Numbrix, Signpost: direct's tour search
applies) whose solution is the only one, each **given** (``at:``) is taken away in turn:
**essential** when a second path appears (verified by the independent checker),
**redundant** when the tour search finds none. A given whose search reached its limit
is decided, where the refutations' time reaches it, by the refutation that certifies a
redundant one (a second path it finds, verified, makes the given essential). A puzzle
with a second solution has no given it cannot lose in this sense: said, and the givens
skipped.

What only a refutation certifies (the puzzle's ``unique`` claim, each redundant given's
``unique`` claim of the puzzle without it, as ``prove --claim unique`` makes it, and
each critical edge's unsolvability where no short node-rule certificate applies: the
node cut, degree, avoided-edge and given-positions certificates come first) is made
last, in that order, within the time left (:data:`REFUTE_BUDGET_S` without a time
limit: on the formula with the givens' distances a refutation of a 9×9 Hidato, made
and checked, takes about half a second, so the budget reaches some of its 80 edges);
what the time did not reach says "not certified" and what it rests on (direct's
exhaustive search). The
measures: the rating of :mod:`.tour_reasoning` for open paths through every node, and
the number of solutions of a puzzle that has more than one, counted within the time
left.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trailkit.models.answer import Answer, Claim, Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.hamilton import tour_applies
from trailkit.solvers.backends.direct.node_structural import node_rule_certificate
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline import count
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.claims import answer_claims
from trailkit.solvers.pipeline.refuted_claims import only_walk_claim
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
from trailkit.solvers.tools.design.tour_givens import TEST_MOVES, Only, only_path
from trailkit.solvers.tools.design.tour_reasoning import (
    rate_tour,
    rating_words,
    reasoning_applies,
)

__all__ = ["REFUTE_BUDGET_S", "NodeFindings", "inspect_nodes"]

REFUTE_BUDGET_S = 5.0
"""How long the refutations may take in all when no time limit is given."""

GIVEN_MOVES = TEST_MOVES
"""The most moves the tour search makes without one given: a design's test makes as
many (twenty times as many decided one more given of a 9x9 Hidato's 23 and tripled the
time), so a given the design kept because its test reached its limit stays undecided."""

_SEARCH = "direct's exhaustive search"


@dataclass(frozen=True)
class NodeFindings:
    """What the inspection of a node-rule puzzle found (see the module docstring)."""

    critical: tuple[EdgeFinding, ...]
    unharmed: Unharmed
    unique: bool | None
    claims: tuple[Claim, ...]
    givens: Givens | None
    measures: Mapping[str, Any]


class _Budget:
    """The time the refutations have: the limit's time left, or :data:`REFUTE_BUDGET_S`."""

    def __init__(self, limits: Limits, started: float) -> None:
        now = time.perf_counter()
        self.limited = limits.time_limit is not None
        span = (limits.time_limit - (now - started)) if limits.time_limit is not None \
            else REFUTE_BUDGET_S
        self.deadline = now + max(span, 0.0)

    def left(self) -> Limits | None:
        """The limits of the next refutation; ``None`` once the time is spent."""
        left = self.deadline - time.perf_counter()
        return Limits(time_limit=left) if left > 0.05 else None

    def why(self) -> str:
        """Why a refutation was not made: the time was spent, in words."""
        spent = "the time limit was reached" if self.limited else \
            f"the {REFUTE_BUDGET_S:g} s inspect gives refutations were spent"
        return f"not certified ({spent}; a longer --time-limit certifies further)"

    def said(self, claim: Claim) -> Claim:
        """``claim``, its "time limit reached" said as this budget's when no time limit
        was given (the refutation's limit was the budget's, not the user's)."""
        if claim.checked or self.limited or "time limit" not in claim.why:
            return claim
        return dataclasses.replace(claim, why=f"{self.why()}; rests on {_SEARCH}")


def inspect_nodes(puzzle: Puzzle, answer: Answer, limits: Limits,
                  started: float) -> NodeFindings:
    """Inspect ``puzzle`` (node rules, solved: ``answer``); see the module docstring.
    Raises :class:`TimeUp` when ``limits`` stop the look at the edges."""
    walk = answer.walk
    assert walk is not None
    path = tuple(int(v) for v in walk.nodes)
    open_tour = tour_applies(puzzle) and not puzzle.closed
    only, second = only_path(puzzle, path, _seconds(limits, started)) if open_tour \
        else (Only.UNKNOWN, None)
    critical = list(dict.fromkeys(walk.edges)) if only is Only.UNIQUE else \
        _critical_edges(puzzle, walk, limits, started)
    decided = _decide_givens(puzzle, path, only, limits, started) if puzzle.at else None
    budget = _Budget(limits, started)
    claims = _unique_claims(puzzle, answer, second, budget)
    unique = _unique(only, claims)
    givens = None if decided is None else Givens(
        tuple(_certify_given(puzzle, walk, g, budget) for g in decided.findings),
        decided.skipped)
    found = tuple(_certify_edge(puzzle, e, budget) for e in critical)
    unharmed = Unharmed(puzzle.num_edges - len(found), True, (
        "each leaves a walk: the walk shown, verified by the independent checker, uses "
        "none of those off it, and without each of the others a walk was found again and "
        "verified"))
    return NodeFindings(found, unharmed, unique, claims, givens,
                        _measures(puzzle, unique, budget))


def _seconds(limits: Limits, started: float) -> float:
    """The seconds one tour search may take: the time left, or a day (its own work
    limit stops it first)."""
    if limits.time_limit is None:
        return 86_400.0
    return limits.time_limit - (time.perf_counter() - started)


def _critical_edges(puzzle: Puzzle, walk: Walk, limits: Limits, started: float
                    ) -> list[int]:
    """The edges of ``walk`` without which the direct backend finds no walk; each
    other's walk is verified (a walk that fails the checker is a bug, raised)."""
    edges = list(dict.fromkeys(walk.edges))
    direct = get_backend("direct")
    critical: list[int] = []
    for done, e in enumerate(edges):
        found = [EdgeFinding(c, maker=_SEARCH) for c in critical]
        left = check_time(limits, started, done, len(edges), (found, []))
        less = without_edge(puzzle, e)
        got = direct.solve(less, left)
        if got.status is Status.UNSOLVABLE:
            critical.append(e)
        elif got.status is Status.SOLVED and got.walk is not None:
            problems = verify(less, got.walk)
            if problems:
                raise VerificationFailure(f"without edge {puzzle.edge_id(e)} direct's walk "
                                          f"breaks the rules: {problems[0]}")
        else:
            raise TimeUp(f"without edge {puzzle.edge_id(e)} the puzzle was not decided "
                         f"({got.reason})", (found, []), done, len(edges))
    return critical


def _decide_givens(puzzle: Puzzle, path: tuple[int, ...], only: Only, limits: Limits,
                   started: float) -> Givens:
    """Each given essential (a second path, verified) or, pending its certificate,
    redundant; skipped, saying why, when the puzzle is not an open tour with one path."""
    if not (tour_applies(puzzle) and not puzzle.closed):
        return Givens(skipped="givens are looked at in open paths through every node "
                      "(Hidato, Numbrix, Signpost)")
    if only is not Only.UNIQUE:
        return Givens(skipped="the puzzle has a second solution (verified): no given "
                      "keeps it unique" if only is Only.SECOND else
                      "whether the solution is unique was not decided within the limits")
    findings = []
    for v, q in sorted(puzzle.at.items(), key=lambda item: item[1]):
        fewer = dataclasses.replace(puzzle, at={w: p for w, p in puzzle.at.items() if w != v})
        said, second = only_path(fewer, path, max(_seconds(limits, started), 0.001),
                                 GIVEN_MOVES)
        essential = {Only.SECOND: True, Only.UNIQUE: False}.get(said)
        claim = None if essential is not None else Claim(
            "unique", False, why=f"not decided: direct's tour search reached its limit "
            f"({GIVEN_MOVES:,} moves, or the time limit)")
        findings.append(GivenFinding(v, q, essential, second, claim))
    return Givens(tuple(findings))


def _unique_claims(puzzle: Puzzle, answer: Answer, second: Walk | None,
                   budget: _Budget) -> tuple[Claim, ...]:
    """The puzzle's ``unique`` claim: a second walk the tour search found (verified),
    or the pipeline's refutation within the budget, or why not."""
    if second is not None:
        return (Claim("unique", True, value=False, witness=second,
                      holds="a second walk, verified by the independent checker"),)
    left = budget.left()
    if left is None:
        return (Claim("unique", False, why=f"{budget.why()}; rests on {_SEARCH}"),)
    return tuple(budget.said(c) for c in answer_claims(puzzle, answer, unique=True,
                                                      limits=left) if c.claim == "unique")


def _unique(only: Only, claims: tuple[Claim, ...]) -> bool | None:
    """Whether the solution is unique: the certified claim, else the tour search; the
    two disagreeing is a bug, raised."""
    said = next((c for c in claims if c.checked), None)
    searched = {Only.UNIQUE: True, Only.SECOND: False}.get(only)
    if said is not None and searched is not None and said.value is not searched:
        raise VerificationFailure(f"the tour search says unique is {searched}, the "
                                  f"certified claim {said.value}")
    return bool(said.value) if said is not None else searched


def _certify_given(puzzle: Puzzle, walk: Walk, given: GivenFinding,
                   budget: _Budget) -> GivenFinding:
    """A redundant given with its ``unique`` claim of the puzzle without it, by
    refutation within the budget (or why not); an undecided one (the tour search reached
    its limit) decided by the same refutation where it ends: a second walk (verified)
    makes it essential, a certificate redundant. A second walk without a given the
    search found redundant is a bug, raised."""
    if given.essential:
        return given
    fewer = dataclasses.replace(
        puzzle, at={w: p for w, p in puzzle.at.items() if w != given.node})
    left = budget.left()
    if left is None:
        return given if given.essential is None else dataclasses.replace(
            given, claim=Claim("unique", False, why=f"{budget.why()}; rests on {_SEARCH}"))
    claim = budget.said(only_walk_claim(fewer, walk, left, rests_on=_SEARCH))
    if claim.checked and claim.value is not True:
        if given.essential is None and claim.witness is not None:
            return dataclasses.replace(given, essential=True, second=claim.witness,
                                       claim=None)
        raise VerificationFailure("the tour search found no second path without a given, "
                                  "the refutation one")
    if given.essential is None and not claim.checked:
        return given  # still undecided: the search's limit says why
    return dataclasses.replace(given, essential=False, claim=claim)


def _certify_edge(puzzle: Puzzle, e: int, budget: _Budget) -> EdgeFinding:
    """A critical edge with the certificate that the puzzle without it has no walk: a
    short node-rule certificate, else a refutation within the budget, else why not."""
    less = without_edge(puzzle, e)
    left = budget.left()
    if left is not None:
        certificate, maker = find_certificate(less, get_backend("direct"), left)
        if certificate is not None:
            return EdgeFinding(e, certificate, True, maker)
        return EdgeFinding(e, None, False, f"not certified ({maker}); rests on {_SEARCH}")
    short = node_rule_certificate(less)
    if short is not None and not check_certificate(less, short):
        return EdgeFinding(e, short, True, "the structural check of the node rules")
    return EdgeFinding(e, None, False, f"{budget.why()}; rests on {_SEARCH}")


def _measures(puzzle: Puzzle, unique: bool | None, budget: _Budget) -> dict[str, Any]:
    """The rating of an open path through every node (docs/inspect.md), and the
    solutions of a puzzle with more than one, counted within the time left."""
    measures: dict[str, Any] = {}
    if not reasoning_applies(puzzle):
        rated = rate_tour(puzzle)
        measures.update(cells=rated.cells, givens=rated.givens, deduced=rated.deduced,
                        search_depth=rated.search_depth,
                        rating=rating_words(rated.search_depth))
    left = budget.left()
    if unique is False and left is not None:
        counted = passed_on(count(puzzle, "direct", left))
        measures["solutions"] = counted.solutions if counted.complete else \
            f"at least {counted.solutions:,} (the count stopped at the time left)"
    return measures
