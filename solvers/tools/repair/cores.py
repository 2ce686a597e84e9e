"""Minimal cores: sets of edges that no walk obeying the rules can all use.

Deletion-based extraction (as in MUS finders like python-sat's ``musx``): start from
every edge (a walk using all of them at most once uses each exactly once, so that set
is a core exactly when the exactly-once puzzle is unsolvable) and drop one edge after
another, keeping it when the rest is no longer a core. Each test asks CP-SAT for a walk
that uses each edge at most once and every edge of the candidate set; a walk found is
the *witness* that the edge it leaves out is necessary. The core left is minimal (each
member necessary); when the numbers are small, every smaller set is tried too, so by
CP-SAT's word it is also a smallest one (:attr:`Core.smallest`; no certificate refutes
the smaller sets, so what trailkit says is "minimal").

Checks (:mod:`trailkit.models.checking.core_certificates`): every witness is verified, and the
core's unsolvability gets an ``odd-nodes`` certificate when that argument applies (it
always does for cores of plain Euler puzzles found here), else ``odd-cuts`` (the same
count over sets of nodes); otherwise a DRUP refutation of
the core's own formula ``walk-core-v1``, within bounds
(:mod:`trailkit.solvers.tools.repair.core_proof`). The whole certificate (core, argument,
witnesses) is then accepted by the independent checker; past a bound the unsolvability
rests on CP-SAT's INFEASIBLE, and :attr:`Core.certified` and :attr:`Core.why` say so.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from trailkit.models.answer import Certificate, Claim, Walk
from trailkit.models.checking.core_certificates import check_odd_nodes, check_witness
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import Limits

__all__ = ["Core", "find_core"]

#: How many CP-SAT calls the search for a smaller core may make.
SMALLER_BUDGET = 300


@dataclass(frozen=True)
class Core:
    """A core (edge indices), its checks and what they rest on.

    ``minimal``: every member is necessary (a verified witness each); ``smallest``: no
    smaller core exists (every smaller set was tried); ``certificate``: the argument that
    no walk uses the whole core (``odd-nodes``, ``odd-cuts``, or ``drup``: a refutation of
    ``walk-core-v1``), accepted by the independent checker with the witnesses (``holds``:
    what it verified, in its words); ``None`` when the core's unsolvability rests on
    CP-SAT alone (``certified`` false; ``why``: why no certificate was made).
    """

    edges: tuple[int, ...]
    minimal: bool
    smallest: bool
    certificate: Certificate | None
    witnesses: tuple[Walk, ...]
    calls: int
    holds: str = ""
    why: str = ""

    @property
    def certified(self) -> bool:
        return self.certificate is not None

    def claim(self) -> Claim:
        """The ``minimal-core`` claim this core makes, and what it rests on."""
        from trailkit.solvers.pipeline.claims import minimal_core_claim

        return minimal_core_claim(self.minimal, self.certificate, len(self.witnesses),
                                  holds=self.holds, why=self.why)


def _walk_using(puzzle: Puzzle, required: Collection[int], limits: Limits,
                deadline: float | None = None) -> tuple[str, Walk | None]:
    """CP-SAT's :func:`~trailkit.solvers.backends.cpsat.choices.walk_using`, imported when first
    asked (it loads OR-Tools, which an explanation by certificate alone never needs),
    within what is left before ``deadline`` (``time.monotonic()``): the time limit is
    the whole search's, not each call's; ``unknown`` once it has passed."""
    from trailkit.solvers.backends.cpsat.choices import walk_using

    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            return "unknown", None
        limits = replace(limits, time_limit=left)
    return walk_using(puzzle, required, limits)


def find_core(puzzle: Puzzle, limits: Limits = Limits(), *, drup: bool = False
              ) -> Core | None:
    """A minimal (when small enough, smallest) core of an unsolvable exactly-once or
    at-most-once puzzle; ``None`` when a CP-SAT call was undecided within ``limits``.
    With ``drup`` its unsolvability is refuted even where ``odd-nodes`` applies (for
    outside checkers, which read only proofs)."""
    if puzzle.use is EdgeUse.ANY:
        raise ValueError("reusable edges have no cores: more edges never hurt")
    deadline = None if limits.time_limit is None else time.monotonic() + limits.time_limit
    calls = 0
    known: list[Walk] = []  # walks found so far: any set one of them uses is no core
    core = _odd_nodes_seed(puzzle)
    if core is None:
        core = list(range(puzzle.num_edges)) if puzzle.use is EdgeUse.EXACTLY_ONCE else []
    witness: dict[int, Walk] = {}
    for e in list(core):
        rest = [f for f in core if f != e]
        status, walk = _walk_using(puzzle, rest, limits, deadline)
        calls += 1
        if status == "unknown":
            return None
        if status == "unsolvable":
            core = rest
        elif walk is not None:
            witness[e] = walk
            known.append(walk)
    smallest = True
    found = _smaller(puzzle, core, limits, known, deadline)
    if found is None:
        smallest = False
    else:
        smaller, more, extra = found
        calls += extra
        if smaller is not None:
            core, witness = smaller, more
    witnesses = _checked_witnesses(puzzle, core, witness)
    return _certified(puzzle, Core(tuple(core), True, smallest, None, witnesses, calls),
                      limits, deadline, drup)


def _checked_witnesses(puzzle: Puzzle, core: list[int], witness: dict[int, Walk]
                       ) -> tuple[Walk, ...]:
    """The witness of each edge of ``core`` (a walk using all the others), in the core's
    order, each passed by the independent checker first: a core is claimed minimal only
    on walks the checker accepted, so a wrong one is a loud bug, not a wrong claim."""
    witnesses = tuple(witness[e] for e in core)
    for e, walk in zip(core, witnesses, strict=True):
        problems = check_witness(puzzle, walk, [f for f in core if f != e])
        if problems:
            raise VerificationFailure(f"a core witness fails the checker: {problems[0]}")
    return witnesses


def _certified(puzzle: Puzzle, core: Core, limits: Limits, deadline: float | None,
               drup: bool) -> Core:
    """``core`` with its certificate (``odd-nodes``, else a refutation within what is left
    before ``deadline``), the whole accepted by the independent checker; or with why
    there is none."""
    from trailkit.solvers.tools.repair.core_proof import (
        checked_core,
        core_data,
        core_refutation,
        odd_cuts_certificate,
    )

    argument: Certificate | str | None = None if drup else \
        _odd_nodes_certificate(puzzle, core.edges) or odd_cuts_certificate(puzzle, core.edges)
    if argument is None:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        argument = core_refutation(puzzle, core.edges, replace(limits, time_limit=left))
    if isinstance(argument, str):
        return replace(core, why=argument)
    data = core_data(puzzle, core.edges, argument, core.witnesses)
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    holds = checked_core(puzzle, data, left)
    if holds is None:
        return replace(core, why="the time limit was reached while its proof was checked")
    return replace(core, certificate=argument, holds=holds)


def _smaller(puzzle: Puzzle, core: Sequence[int], limits: Limits, known: list[Walk],
             deadline: float | None = None
             ) -> tuple[list[int] | None, dict[int, Walk], int] | None:
    """Try every set smaller than ``core``, smallest first, within the budget: the first
    core found with its witnesses, ``(None, {}, calls)`` when none exists, ``None`` when
    the budget does not cover them all. A set some known walk uses all of is skipped."""
    m = puzzle.num_edges
    needed = sum(math.comb(m, s) for s in range(len(core)))
    if needed > SMALLER_BUDGET * 20:
        return None
    used = [set(w.edges) for w in known]
    calls = 0
    for size in range(len(core)):
        for subset in combinations(range(m), size):
            if any(u.issuperset(subset) for u in used):
                continue
            if calls >= SMALLER_BUDGET:
                return None
            status, walk = _walk_using(puzzle, subset, limits, deadline)
            calls += 1
            if walk is not None:
                used.append(set(walk.edges))
            if status == "unknown":
                return None
            if status == "unsolvable":
                witnesses: dict[int, Walk] = {}
                for e in subset:
                    st, walk = _walk_using(puzzle, [f for f in subset if f != e], limits,
                                            deadline)
                    calls += 1
                    if st != "solved" or walk is None:
                        return None  # not minimal: a smaller one came first, so unreachable
                    witnesses[e] = walk
                return list(subset), witnesses, calls
    return None, {}, calls


def _odd_nodes_seed(puzzle: Puzzle) -> list[int] | None:
    """A core by the ``odd-nodes`` argument, when the exactly-once puzzle fails on parity:
    the edges (loops aside) at the fewest-edged odd nodes, one more than a walk has ends."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return None
    at: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e in range(puzzle.num_edges):
        u, v = puzzle.tail[e], puzzle.head[e]
        if u != v:
            at[u].append(e)
            at[v].append(e)
    odd = sorted((v for v in range(puzzle.num_nodes) if len(at[v]) % 2),
                 key=lambda v: (len(at[v]), v))
    need = 1 if puzzle.closed else 3
    if len(odd) < need:
        return None
    return sorted({e for v in odd[:need] for e in at[v]})


def _odd_nodes_certificate(puzzle: Puzzle, core: Sequence[int]) -> Certificate | None:
    """The ``odd-nodes`` argument for ``core``, checked, or ``None`` if it does not apply."""
    members = set(core)
    ends = [0] * puzzle.num_nodes
    outside = [False] * puzzle.num_nodes
    for e in range(puzzle.num_edges):
        if puzzle.tail[e] == puzzle.head[e]:
            continue  # loops never change a parity
        for v in (puzzle.tail[e], puzzle.head[e]):
            ends[v] += 1
            if e not in members:
                outside[v] = True
    nodes = [puzzle.nodes[v] for v in range(puzzle.num_nodes) if ends[v] % 2 and not outside[v]]
    if check_odd_nodes(puzzle, core, nodes):
        return None
    allowed = "returns to its start, so it has no ends" if puzzle.closed else "has two ends"
    where = nodes[0] if len(nodes) == 1 else f"each of these {len(nodes)} nodes"
    text = (f"Every edge at {', '.join(nodes)} (loops aside) is in the core, an odd number at "
            f"each, so a walk that uses the whole core must start or end at {where}; a walk "
            f"{allowed}.")
    return Certificate("odd-nodes", {"nodes": nodes}, text)
