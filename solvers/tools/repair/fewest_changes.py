"""``repair``: the fewest changes that make an impossible puzzle solvable, each checked.

The methods, by the puzzle's rules (the ``repair:`` block or the caller's
:class:`~trailkit.models.repair_rules.RepairRules` say which changes are allowed):

* reusable edges, open walk: one forward and one backward search over (node,
  colour-phase) states screen every single add or recolouring at once
  (:mod:`trailkit.solvers.tools.repair.reusable`);
* plain Euler trails with free additions: the direct count by parity and pieces
  (:mod:`trailkit.solvers.tools.repair.parity`);
* everything else, and more than one change: CP-SAT over the walk model with optional
  candidates (:mod:`trailkit.solvers.tools.repair.optimise`), or, with ``backend="direct"``,
  change sets tried size by size (:mod:`trailkit.solvers.tools.repair.size_by_size`).

Under node rules (``visit``, ``via``, ``avoid``, ``at``) only the size-by-size search
applies, each changed puzzle solved by direct, which obeys them: the state screen, the
Euler count and the optimisers' models know only the edge rules (``backend`` ``cpsat``
and ``sat`` are refused there).

Every repair is applied and its puzzle solved again by the pipeline, so each comes
with a verified walk (the shortest one for reusable edges). ``minimal`` is true only
when proven: with one change, by the original's checked certificate; with more, by a
lower bound that the repair meets (parity, pieces), by every smaller change set
refuted, or by two methods agreeing on the optimum. ``proof`` says which, or what is
proven otherwise.

Of the repairs with the fewest changes, the one shown (and listed first) is the one
that keeps the puzzle hardest (CONTRACT 1.3, section 6): the longest verified walk
(the shortest walk of the repaired puzzle where edges are reusable or the objective is
shortest, the longest under ``objective: longest``; an empty walk last), then the
fewest new crossings in the drawing of the spec's ``layout:``
(:mod:`trailkit.solvers.tools.repair.crossings`), then the candidates listed first
(:mod:`trailkit.solvers.tools.repair.candidates` orders them), so the same spec always shows
the same repair. A designer repairing a puzzle wants it kept a puzzle: the shortest
walk, asked for before, proposed a new plank from start to goal. The state search
(which stops only when no candidate left can have a longer walk) and the size-by-size
search see every repair of their size; CP-SAT's optimum is one change set, shown as
found (with ``all_repairs`` its list is ranked like the others).

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nclosed: true\\nedges: [a b, b c]\\n")
>>> r = repair(p)
>>> r.status.value, r.changes, r.minimal, r.repairs[0].changes[0].describe(p)
('repaired', 1, True, 'add a new edge a-c')
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from trailkit.models.answer import Answer, Certificate, Claim, Status
from trailkit.models.errors import BackendUnavailable, UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.solvers.backends.base import NO_LIMITS, Limits, Optimum
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.candidates import candidate_changes
from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes
from trailkit.solvers.tools.repair.parity import (
    INFINITE,
    change_lower_bound,
    direct_additions,
    direct_additions_apply,
    odd_nodes,
)
from trailkit.solvers.tools.repair.size_by_size import Level

if TYPE_CHECKING:
    from trailkit.solvers.tools.repair.reusable import Screened

__all__ = ["REPAIR_BACKENDS", "Repair", "RepairResult", "RepairStatus", "rank_repairs", "repair",
           "repair_mismatches"]

#: The methods ``repair(backend=...)`` accepts: ``auto`` picks per puzzle.
REPAIR_BACKENDS = ("auto", "direct", "cpsat", "sat")
#: Change sets the size-by-size search may try per level.
SEARCH_BUDGET = 3000
#: Change sets the search may try per level to confirm CP-SAT's optimum.
CONFIRM_BUDGET = 20_000
#: At most this many repairs are listed by ``all_repairs``.
MAX_LISTED = 200


class RepairStatus(StrEnum):
    """The contract's ``status`` of a repair answer."""

    REPAIRED = "repaired"
    SOLVABLE = "solvable"
    NO_REPAIR = "no-repair"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Repair:
    """One repair: the ``changes``, the repaired ``puzzle`` and its verified ``answer``.

    For drawings: :attr:`added`, :attr:`removed` and :attr:`recoloured` give the edges
    by index (added ones in the repaired puzzle, the others in the original).
    """

    changes: tuple[Change, ...]
    puzzle: Puzzle
    answer: Answer

    @property
    def added(self) -> tuple[int, ...]:
        """Indices, in :attr:`puzzle` (the repaired one), of the added edges: the last ones."""
        n_add = sum(1 for c in self.changes if c.op is Op.ADD)
        m = self.puzzle.num_edges
        return tuple(range(m - n_add, m))

    @property
    def removed(self) -> tuple[int, ...]:
        """Indices, in the original puzzle, of the removed edges."""
        return tuple(c.edge for c in self.changes if c.op is Op.REMOVE and c.edge is not None)

    @property
    def recoloured(self) -> tuple[int, ...]:
        """Indices, in the original puzzle, of the recoloured edges."""
        return tuple(c.edge for c in self.changes
                     if c.op is Op.RECOLOUR and c.edge is not None)


@dataclass(frozen=True)
class RepairResult:
    """What ``repair`` found (see the module docstring).

    ``changes`` is the fewest number of changes found (``None`` when none was found);
    ``repairs`` one repair with that many changes, or every one with ``all_repairs``
    (``complete_list`` says whether the list is known to hold them all); ``proof`` says
    in words what is proven about minimality (or about there being no repair);
    ``original`` is the answer for the puzzle as given. ``claim`` is the
    ``fewest-changes`` claim of 2 or more changes, with its ``change-sets`` certificate
    when the independent checker accepted one (``None`` for fewer changes: the pipeline's
    :func:`~trailkit.solvers.pipeline.claims.fewest_changes_claim` says those).
    """

    status: RepairStatus
    puzzle: Puzzle
    rules: RepairRules
    original: Answer
    changes: int | None = None
    minimal: bool = False
    proof: str = ""
    repairs: tuple[Repair, ...] = ()
    candidates: int = 0
    method: str = ""
    complete_list: bool = False
    reason: str = ""
    time_s: float = 0.0
    stats: dict[str, object] = field(default_factory=dict)
    claim: Claim | None = None


def repair(puzzle: Puzzle, rules: RepairRules | None = None, *,
           max_changes: int | None = None, all_repairs: bool = False,
           backend: str = "auto", limits: Limits = NO_LIMITS, certify: bool = True
           ) -> RepairResult:
    """Find the fewest allowed changes that make ``puzzle`` solvable (module docstring).

    ``rules`` default to the spec's ``repair:`` block (else: add an edge between touching
    nodes of the spec's ``layout:``, or any edge without one);
    ``max_changes`` bounds the search; ``backend`` is one of :data:`REPAIR_BACKENDS`.
    On a puzzle with node rules only ``auto`` and ``direct`` apply (module docstring).
    ``certify=False`` leaves out the ``fewest-changes`` certificate of a repair (``claim``
    ``None``): for a caller that shows the repair and never its claim (``draw --repair``),
    to whom that proof was time spent for nothing.
    """
    if backend not in REPAIR_BACKENDS:
        raise UnsupportedPuzzle(f"unknown repair backend {backend!r}; choose from "
                                f"{', '.join(REPAIR_BACKENDS)}")
    began = time.perf_counter()
    rules = rules or puzzle.repair or RepairRules.default(has_layout=bool(puzzle.layout))
    original = solve(puzzle, limits=limits)
    base: dict[str, Any] = {"puzzle": puzzle, "rules": rules, "original": original}
    if original.status is not Status.UNSOLVABLE:
        return _needs_none(original, base, began, limits)
    changes = candidate_changes(puzzle, rules)
    why_zero = _why_unsolvable(original)
    bound, bound_why = _lower_bound(puzzle, changes)
    common: dict[str, Any] = {**base, "candidates": len(changes)}
    beyond = _beyond_reach(changes, bound, bound_why or why_zero, max_changes)
    if beyond is not None:
        return RepairResult(RepairStatus.NO_REPAIR, **common, minimal=True, proof=beyond,
                            method="bound", time_s=time.perf_counter() - began)
    if limits.time_limit is not None:  # the search has what the first solve left
        limits = replace(limits, time_limit=max(
            0.01, limits.time_limit - (time.perf_counter() - began)))
    finder = _Finder(puzzle, rules, changes, limits, all_repairs, max_changes, backend,
                     why_zero, bound, bound_why)
    result = finder.run()
    claim = _certified(finder, result, original) if certify else None
    return RepairResult(**common, **result, claim=claim, time_s=time.perf_counter() - began)


def _needs_none(original: Answer, base: dict[str, Any], began: float,
                limits: Limits) -> RepairResult:
    """The answer when the puzzle as given is not proven unsolvable: already solvable (no
    change needed: the ``fewest-changes`` claim of 0 rests on a ``change-sets``
    certificate with no set to refute, whose repair of 0 changes is the verified walk,
    as ``prove --claim fewest-changes`` makes it), or undecided (no repair can be proven
    needed either)."""
    from trailkit.solvers.tools.repair.fewest_certificate import fewest_claim

    if original.status is Status.SOLVED and original.walk is not None:
        puzzle, rules = base["puzzle"], base["rules"]
        claim = fewest_claim(puzzle, rules, candidate_changes(puzzle, rules), [], puzzle,
                             original.walk, original, limits, minimal=True, rests_on="")
        return RepairResult(RepairStatus.SOLVABLE, **base, changes=0, minimal=True,
                            proof="the puzzle is already solvable: no change is needed",
                            claim=claim, time_s=time.perf_counter() - began)
    return RepairResult(RepairStatus.UNKNOWN, **base,
                        reason=f"the puzzle as given is undecided: {original.reason}",
                        time_s=time.perf_counter() - began)


def _lower_bound(puzzle: Puzzle, changes: Sequence[Change]) -> tuple[int, str]:
    """The fewest changes any repair needs, by parity and pieces, and why: what the
    candidates can do (add, remove) and the odd nodes none of them touches decide it."""
    return change_lower_bound(
        puzzle, has_add=any(c.op is Op.ADD for c in changes),
        has_remove=any(c.op is Op.REMOVE for c in changes),
        fixed_odd=_untouched_odd(puzzle, changes))


def _beyond_reach(changes: Sequence[Change], bound: int, why: str, max_changes: int | None
                  ) -> str | None:
    """Why no repair exists, when that shows before any search: no change is allowed, the
    lower ``bound`` (for the reason ``why``) is infinite, or it exceeds ``max_changes``;
    ``None`` when a search must decide."""
    if changes and bound < INFINITE and (max_changes is None or max(bound, 1) <= max_changes):
        return None
    proof = ("no change is allowed (no candidate edge, recolouring or removal fits the "
             "repair rules)" if not changes else why)
    if changes and bound < INFINITE:
        proof += f", and at most {max_changes} changes are allowed"
    return proof


def rank_repairs(puzzle: Puzzle, candidates: Sequence[Change], repairs: Sequence[Repair]
                 ) -> tuple[Repair, ...]:
    """``repairs`` best first (module docstring): the longest verified walk, then the
    fewest new crossings in the drawing, then the order of ``candidates``."""
    from trailkit.solvers.tools.repair.crossings import NewCrossings

    order = {change: i for i, change in enumerate(candidates)}
    lengths = Counter(r.answer.length or 0 for r in repairs)
    crossings = NewCrossings(puzzle) if max(lengths.values(), default=0) > 1 else None

    def key(r: Repair) -> tuple[int, int, tuple[int, ...]]:
        n = r.answer.length or 0
        # crossings only break a tie of lengths: counted only where there is one
        drawn = crossings.count(r.changes) if crossings and lengths[n] > 1 else 0
        return (-n, drawn, tuple(sorted(order.get(c, len(order)) for c in r.changes)))

    return tuple(sorted(repairs, key=key))


def _at_most(item: Screened) -> int:
    """The longest a screened candidate's shortest walk can be: the walk that crosses the
    new edge once (its ``estimate``), unbounded when there is none."""
    return INFINITE if item.estimate is None else int(item.estimate)


def _why_unsolvable(answer: Answer) -> str:
    if answer.certificate_checked and answer.certificate is not None:
        return (f"the puzzle as given has no walk ({answer.certificate.kind} certificate "
                "checked)")
    return f"the puzzle as given has no walk ({answer.reason})"


def _untouched_odd(puzzle: Puzzle, changes: Sequence[Change]) -> int:
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return 0
    touched = {name for c in changes if c.op is not Op.RECOLOUR for name in c.touches()}
    return sum(1 for v in odd_nodes(puzzle) if puzzle.nodes[v] not in touched)


class _Search:
    """The state one repair search shares between its methods: the puzzle, the candidate
    changes and limits; the record of what is refuted so far (every set of at most
    ``refuted`` changes fails, for the reasons in ``refuted_how``), from which the proof
    words are composed; and the making of the verified, ranked repairs every method ends
    with. The methods themselves are in :class:`_Optimising` and :class:`_Finder`."""

    def __init__(self, puzzle: Puzzle, rules: RepairRules, changes: list[Change],
                 limits: Limits, all_repairs: bool, max_changes: int | None, backend: str,
                 why_zero: str, bound: int, bound_why: str) -> None:
        self.puzzle = puzzle
        self.rules = rules
        self.changes = changes
        self.limits = limits
        self.all = all_repairs
        self.cap = max_changes
        self.backend = backend
        self.why_zero = why_zero
        self.bound = max(bound, 1)
        self.bound_why = bound_why
        self.deadline = None if limits.time_limit is None else \
            time.monotonic() + limits.time_limit
        #: every set of at most ``refuted`` changes is known not to repair the puzzle
        self.refuted = self.bound - 1
        self.refuted_how = [why_zero] + ([bound_why] if bound > 1 else [])
        self.stopped = ""
        #: the checked certificate of each change set (candidate indices) the search refuted
        self.certificates: dict[tuple[int, ...], Certificate] = {}

    # ------------------------------------------------------------ what is refuted
    def proof_so_far(self) -> str:
        """Why no repair has fewer than ``refuted + 1`` changes."""
        return "; ".join(self.refuted_how)

    def note_refuted(self, level: Level) -> None:
        """Record that every set of ``level.size`` changes was refuted, and the
        certificates that show it."""
        self.certificates.update(level.refutations)
        how = f"{level.certified} with a checked certificate" + (
            f", {level.confirmed} by two backends agreeing" if level.confirmed else "")
        self.refuted_how.append(f"all {level.tried} sets of {level.size} changes refuted "
                                f"({how})")
        self.refuted = level.size

    def minimality(self, k: int, agreeing: str = "") -> tuple[bool, str]:
        """Whether ``k`` changes is proven the fewest, and how."""
        if k == 1:
            return True, self.why_zero
        if k <= self.bound and self.bound_why:
            return True, self.bound_why
        if agreeing:
            return True, agreeing
        return False, ""

    # ------------------------------------------------------------ outcome
    def repaired(self, sets: Sequence[tuple[Change, ...]], method: str, *, proven: bool,
                 proof: str, complete_list: bool = False,
                 answers: Sequence[Answer | None] = ()) -> dict[str, Any]:
        repairs = []
        for i, chosen in enumerate(sets):
            known = answers[i] if i < len(answers) else None
            repairs.append(self.check(chosen, known))
        return {"status": RepairStatus.REPAIRED, "changes": len(sets[0]), "minimal": proven,
                "proof": proof, "repairs": self.ranked(repairs), "method": method,
                "complete_list": complete_list}

    def ranked(self, repairs: Sequence[Repair]) -> tuple[Repair, ...]:
        """``repairs`` best first (:func:`rank_repairs`); only the best unless every one
        is wanted."""
        best = rank_repairs(self.puzzle, self.changes, repairs)
        return best if self.all else best[:1]

    def check(self, chosen: tuple[Change, ...], known: Answer | None = None) -> Repair:
        """Apply ``chosen`` and solve the repaired puzzle: a verified walk, or a loud bug."""
        fixed = apply_changes(self.puzzle, chosen)
        answer = known if known is not None and known.verified else solve(fixed, "direct",
                                                                           self.limits)
        if answer.status is not Status.SOLVED or not answer.verified:
            if answer.status is Status.UNKNOWN:
                answer = solve(fixed, "cpsat", self.limits)
            if answer.status is not Status.SOLVED:
                raise VerificationFailure(
                    f"a repair ({'; '.join(c.describe(self.puzzle) for c in chosen)}) does "
                    f"not make the puzzle solvable: {answer.status.value} ({answer.reason})")
        return Repair(tuple(chosen), fixed, answer)


class _Optimising(_Search):
    """The optimisers' part of a repair search: CP-SAT's or RC2's optimum, every repair of
    its size, and what makes it proven (the sizes below refuted by search, or the other
    optimiser agreeing), apart from the search order that :class:`_Finder` keeps."""

    def optimise(self, *, exclude: Sequence[Sequence[int]] = (), cost: int | None = None,
                 at_most: int | None = None) -> Optimum:
        """CP-SAT's optimum, told every size already refuted, within the time left."""
        from trailkit.solvers.tools.repair.optimise import optimise_changes

        limits = self.limits
        if self.deadline is not None:
            left = max(0.01, self.deadline - time.monotonic())
            limits = Limits(time_limit=left, work_limit=limits.work_limit,
                            workers=limits.workers, seed=limits.seed)
        return optimise_changes(self.puzzle, self.changes, limits, exclude=exclude,
                                cost=cost, at_most=at_most, at_least=self.refuted + 1)

    def maxsat(self, **kwargs: object) -> Optimum:
        """RC2's optimum over the position encoding (small once-only puzzles)."""
        from trailkit.solvers.tools.repair.maxsat import maxsat_changes

        return maxsat_changes(self.puzzle, self.changes, **kwargs)  # type: ignore[arg-type]  # limits passed through

    def second_optimum(self, primary: str, k: int) -> str:
        """The other optimiser's optimum, when it agrees with ``k``: the words to say so."""
        other = "cpsat" if primary == "sat" else "sat"
        if other == "sat" and self.puzzle.use is EdgeUse.ANY:
            return ""
        try:
            opt = self.optimise(at_most=k) if other == "cpsat" else self.maxsat(at_most=k)
        except (BackendUnavailable, ImportError):
            return ""
        if opt.status == "optimal" and opt.cost is not None and opt.cost < k:
            raise VerificationFailure(f"{primary} proves {k} changes the fewest, {other} "
                                      f"repairs with {opt.cost}")
        if opt.status == "optimal" and opt.cost == k:
            return "CP-SAT and RC2 (MaxSAT) agree on the optimum"
        return ""

    def optimised(self, primary: str = "cpsat") -> dict[str, Any] | None:
        """The optimiser's optimum; every repair of that size with ``all_repairs``."""
        solve_with: Callable[..., Optimum] = self.maxsat if primary == "sat" else self.optimise
        opt = solve_with(at_most=self.cap)
        if opt.status == "infeasible":
            return self.none_possible(primary)
        if opt.status not in ("optimal", "feasible") or opt.cost is None:
            return None
        k = opt.cost
        sets, complete = self.every_optimum(solve_with, opt, k)
        proven, proof = self.optimum_proof(primary, opt, k)
        return self.repaired(sets, primary, proven=proven, proof=proof, complete_list=complete)

    def none_possible(self, primary: str) -> dict[str, Any]:
        """The answer when the optimiser proved that no allowed change set (within the cap)
        repairs the puzzle: said to rest on that optimiser alone, since no checker saw it."""
        limit = "" if self.cap is None else f" with at most {self.cap} changes"
        fewer = f"{self.proof_so_far()}; " if self.refuted > 0 else ""
        who = "RC2 (MaxSAT)" if primary == "sat" else "CP-SAT"
        return {"status": RepairStatus.NO_REPAIR, "minimal": True, "method": primary,
                "proof": f"{fewer}{who} proved that no set of the allowed changes{limit} "
                         f"makes the puzzle solvable (this last step rests on {who} "
                         "alone)"}

    def every_optimum(self, solve_with: Callable[..., Optimum], opt: Optimum, k: int
                      ) -> tuple[list[tuple[Change, ...]], bool]:
        """The optimum's change set and, with ``all_repairs``, the others of its size ``k``
        (each found by asking again with the earlier ones excluded, up to
        :data:`MAX_LISTED`); and whether the list is known to hold them all."""
        sets = [tuple(self.changes[i] for i in opt.chosen)]
        complete = False
        if self.all:
            seen = [opt.chosen]
            while len(seen) < MAX_LISTED:
                more = solve_with(exclude=seen, at_most=k)
                if more.status not in ("optimal", "feasible") or more.cost != k:
                    complete = more.status == "infeasible"
                    break
                seen.append(more.chosen)
                sets.append(tuple(self.changes[i] for i in more.chosen))
        return sets, complete

    def optimum_proof(self, primary: str, opt: Optimum, k: int) -> tuple[bool, str]:
        """Whether the optimiser's ``k`` changes is proven the fewest, and the words: an
        optimum alone is not trusted, so the sizes below are refuted by search or a second
        optimiser must agree (both tried here when the optimum is above the bound)."""
        who = "RC2's" if primary == "sat" else "CP-SAT's"
        agree = ""
        if k > self.refuted + 1 and opt.status == "optimal":
            self.confirm_below(k)
            if k > self.refuted + 1:
                agree = self.second_optimum(primary, k)
        if k == self.refuted + 1:
            return True, self.proof_so_far() + (
                f"; {who} optimum agrees" if len(self.refuted_how) > 1 else "")
        if agree:
            return True, f"{self.proof_so_far()}; {agree}"
        if opt.status == "optimal":
            return False, (
                f"{self.proof_so_far()}; {who} optimum is {k} changes, but no second method "
                "confirmed the sizes in between, so it is not called minimal")
        return False, (f"{self.proof_so_far()}; fewer than {k} changes were not "
                       "ruled out within the limits")

    def confirm_below(self, k: int) -> None:
        """A second method for CP-SAT's optimum ``k``: refute the sizes in between, each
        with a larger budget than the first pass; stops at the first it cannot settle."""
        from trailkit.solvers.tools.repair.size_by_size import try_level

        for size in range(self.refuted + 1, k):
            level = try_level(self.puzzle, self.changes, size, self.limits,
                              budget=CONFIRM_BUDGET, want_all=False, deadline=self.deadline)
            if level.found:
                raise VerificationFailure(f"CP-SAT's optimum is {k} changes, but a repair "
                                          f"with {size} exists")
            if not level.complete:
                return
            self.note_refuted(level)


class _Finder(_Optimising):
    """One repair search: tries the methods in order, collects repairs and proofs."""

    def run(self) -> dict[str, Any]:
        puzzle = self.puzzle
        if puzzle.has_node_rules:
            return self.node_rule_levels()
        if puzzle.use is EdgeUse.ANY and not puzzle.closed and self.backend != "cpsat":
            found = self.single_reusable()
            if found is not None:
                return found
        if direct_additions_apply(puzzle, self.rules) and not self.all \
                and self.backend != "cpsat":
            found = self.euler_direct()
            if found is not None:
                return found
        if self.backend == "sat" and puzzle.use is EdgeUse.ANY:
            raise UnsupportedPuzzle("the sat repair model (MaxSAT) is for edges used at most "
                                    "or exactly once; use --backend auto, direct or cpsat")
        found = self.levels(cheap_only=self.backend != "direct")
        if found is not None or self.backend == "direct":
            return found or self.undecided()
        try:
            found = self.optimised("sat" if self.backend == "sat" else "cpsat")
        except (BackendUnavailable, ImportError) as exc:
            if self.backend != "auto":
                raise BackendUnavailable(f"repair with {self.backend} needs its solver "
                                         f"library: {exc}") from None
            found = None
        return found or self.undecided()

    def single_reusable(self) -> dict[str, Any] | None:
        """Reusable open walks: screen every single change at once, confirm by search."""
        from trailkit.solvers.tools.repair.reusable import screen_single_changes, state_distances

        dist = state_distances(self.puzzle)
        screened = screen_single_changes(self.puzzle, self.changes, dist)
        found: list[Repair] = []
        longest = -1  # the longest shortest walk found so far
        # a walk crossing the new edge once has the estimate's length, so a candidate's
        # shortest walk is at most that; with the largest first, the search stops at the
        # first whose estimate is shorter than a walk found (ties still count: the
        # drawing's crossings and the spec order rank them)
        for item in sorted(screened, key=lambda it: (-_at_most(it), it.order)):
            if not self.all and _at_most(item) < longest:
                break
            fixed = apply_changes(self.puzzle, [item.change])
            answer = solve(fixed, "direct", self.limits)
            if answer.status is Status.SOLVED:
                found.append(Repair((item.change,), fixed, answer))
                longest = max(longest, answer.length or 0)
        if not found:
            self.refuted = 1  # failed the necessary test, or refuted by a checked search
            self.refuted_how.append(f"each of the {len(self.changes)} single changes refuted "
                                    f"({len(screened)} by a search of the changed puzzle, "
                                    "the others by the state distances)")
            return None
        _, proof = self.minimality(1)
        return {"status": RepairStatus.REPAIRED, "changes": 1, "minimal": True,
                "proof": proof, "repairs": self.ranked(found), "method": "state search",
                "complete_list": self.all,
                "stats": {"screened": len(screened), "states": len(dist.forward)}}

    def euler_direct(self) -> dict[str, Any] | None:
        """Plain Euler trails with free additions: the count by parity and pieces."""
        adds = tuple(direct_additions(self.puzzle))
        if not adds or (self.cap is not None and len(adds) > self.cap):
            return None
        if math.comb(len(self.changes), len(adds)) <= SEARCH_BUDGET:
            return None  # few enough sets to try them all: the search ranks them (the one
            # shown is then the first of what --all lists, not just one pairing)
        proven, proof = self.minimality(len(adds))
        if not proven:
            try:
                opt = self.optimise(at_most=len(adds))
            except (BackendUnavailable, ImportError):
                opt = None
            if opt is not None and opt.status == "optimal" and opt.cost == len(adds):
                proven, proof = True, (f"the direct count (parity and pieces) and CP-SAT's "
                                       f"optimum agree on {len(adds)} changes")
            elif opt is not None and opt.status == "optimal" and opt.cost is not None \
                    and opt.cost < len(adds):
                raise VerificationFailure(f"the direct Euler count says {len(adds)} additions "
                                          f"but CP-SAT repairs with {opt.cost}")
            else:
                proof = (f"the direct count by parity and pieces gives {len(adds)}; no second "
                         "method confirmed it")
        return self.repaired([adds], "direct Euler count", proven=proven, proof=proof)

    def levels(self, *, cheap_only: bool, default_cap: int = 3) -> dict[str, Any] | None:
        """Change sets size by size, from the smallest not yet refuted; with ``cheap_only``
        only while a size has few enough sets, leaving the rest to the optimiser; else up
        to ``max_changes`` or ``default_cap`` changes."""
        from trailkit.solvers.tools.repair.size_by_size import try_level

        cap = self.cap if self.cap is not None else (
            default_cap if not cheap_only else INFINITE)
        size = self.refuted + 1
        while size <= min(cap, len(self.changes)):
            if cheap_only and math.comb(len(self.changes), size) > SEARCH_BUDGET:
                return None
            # every set of the size is tried, even after a repair is found: the best of
            # them is the one shown
            level = try_level(self.puzzle, self.changes, size, self.limits,
                              budget=SEARCH_BUDGET, want_all=True, deadline=self.deadline)
            if level.found:
                # every smaller size is refuted: 0 by the original's answer, those below
                # the bound by the bound, the others level by level
                return self.repaired([tuple(self.changes[i] for i in combo)
                                      for combo, _ in level.found], "search", proven=True,
                                     proof=self.proof_so_far(),
                                     complete_list=self.all and level.complete,
                                     answers=[a for _, a in level.found])
            if not level.complete:
                self.stopped = (f"the {size}-change sets could not all be tried within the "
                                f"limits ({level.tried} tried)")
                return None
            self.note_refuted(level)
            size += 1
        if size > len(self.changes) or (self.cap is not None and size > self.cap):
            limit = f"at most {self.cap}" if self.cap is not None and self.cap < len(
                self.changes) else "any number of"
            return {"status": RepairStatus.NO_REPAIR, "minimal": True, "method": "search",
                    "proof": f"{self.proof_so_far()}: no repair with {limit} changes exists"}
        self.stopped = f"repairs with more than {self.refuted} changes were not searched"
        return None

    def node_rule_levels(self) -> dict[str, Any]:
        """Node rules: change sets size by size, each changed puzzle solved by direct,
        which obeys them (the state screen, the Euler count and the optimisers' models
        know only the edge rules, so none of them may find or refute a repair here)."""
        if self.backend not in ("auto", "direct"):
            raise UnsupportedPuzzle(
                f"repair --backend {self.backend} does not take node rules (visit, via, "
                "avoid, at) into account; use --backend auto or direct, which try the "
                "change sets size by size")
        return self.levels(cheap_only=False, default_cap=INFINITE) or self.undecided()

    def undecided(self) -> dict[str, Any]:
        return {"status": RepairStatus.UNKNOWN, "method": "search",
                "reason": f"{self.proof_so_far()}; {self.stopped or 'the optimiser gave up'}"}


def _certified(finder: _Finder, result: dict[str, Any], original: Answer) -> Claim | None:
    """The ``fewest-changes`` claim of a repair of 1 or more changes, with its
    ``change-sets`` certificate made in the time the search left (``None`` for no change,
    or no repair). One change too: the puzzle's unsolvability certificate alone is only
    a lower bound, and the certificate also shows the repair allowed, with its walk."""
    if result["status"] is not RepairStatus.REPAIRED or result["changes"] < 1:
        return None
    from trailkit.solvers.tools.repair.fewest_certificate import fewest_claim

    left = None if finder.deadline is None else max(0.0, finder.deadline - time.monotonic())
    best = result["repairs"][0]
    return fewest_claim(finder.puzzle, finder.rules, finder.changes, best.changes,
                        best.puzzle, best.answer.walk, original,
                        replace(finder.limits, time_limit=left), minimal=result["minimal"],
                        rests_on=result["proof"], known=finder.certificates)


def repair_mismatches(puzzle: Puzzle, result: RepairResult) -> list[str]:
    """What differs from the spec's ``expect: {repair: N}`` (only what ``result`` proves:
    a proven fewest number, a repair with fewer changes, or proof that none exists)."""
    wanted = (puzzle.expect or {}).get("repair")
    if wanted is None or result.status is RepairStatus.UNKNOWN:
        return []
    if result.status is RepairStatus.NO_REPAIR:
        return [f"expected repair {wanted}, but no repair exists ({result.proof})"]
    got = result.changes or 0
    if got != wanted and (result.minimal or got < wanted):
        return [f"expected repair {wanted}, got {got}"]
    return []
