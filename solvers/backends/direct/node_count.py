"""Counting walks under node rules exactly, by search with memoisation: the dynamic
programme over subsets (the set of nodes passed, or of edges used, times the node the
walk stands on), computed top down so that only the states a walk can reach are made.

Everything below a state decides its count, so each is counted once and reused:

* ``visit`` other than ``any``: (node, nodes passed, last colour, and for a closed walk
  its start, first colour and first edge); the position is the number of nodes passed;
* ``visit: any`` with edges used at most once: (node, edges used, last colour, start,
  first colour); the nodes passed are the start and the ends of the edges used.

Counts are Python integers, exact at any size. The memo is bounded by the memory limit
(an entry costs about :data:`BYTES_PER_STATE`): past it the search goes on unmemoised,
still exact, only slower. A closed walk through every node with no colour rule and no
given past position 1 is counted from one start only and multiplied by the starts
allowed (each such cycle passes every node, and every rotation obeys the rules).

**Tours** (CONTRACT §7): for a closed walk through every node, the distinct edge sets of
the counted walks. In the multiplied case they are the walks from the one start that use
a one-way edge, plus half of those that use two-way edges only (each is counted in both
directions); otherwise the walks are listed and their edge sets gathered, up to
:data:`TOUR_LISTING`.

A time or work limit (states expanded) or Ctrl-C stops the count: the number is then a
lower bound (the walks completed so far). Failures are not counted under node rules.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> k4 = [(a, b) for a in "abcd" for b in "abcd" if a < b]
>>> r = count_node_walks(Puzzle.build(edges=k4, visit=NodeVisit.EVERY_ONCE, closed=True,
...                                   use="at-most-once"), Limits())
>>> r.solutions, r.tours
(24, 3)
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from trailkit.models.counts import CountResult, StartCounts
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB, Limits
from trailkit.solvers.backends.direct.node_moves import NodeRules
from trailkit.solvers.backends.direct.node_search import NodeWalkSearch, OutOfWork

__all__ = ["BYTES_PER_STATE", "TOUR_LISTING", "count_node_walks"]

BACKEND = "direct"
BYTES_PER_STATE = 300
TOUR_LISTING = 200_000
"""The most walks listed to gather their tours where no formula gives them."""
_CLOCK_EVERY = 2048
_PROGRESS_EVERY = 100_000
INTERRUPTED = "interrupted (Ctrl-C)"
TRIAL_STATES = 100_000
"""Where the table of :mod:`.subset_count` could count a puzzle, the search tries first
with this many states, a few seconds (measured: the dodecahedron's 30 tours in 4,260
states, 0.13 s, the 164 open knight's tours of 4 x 5 in 1.2 s; loading the compiled
table costs 0.5 s, 5 s on a loaded machine, and then it counts 2**20 masks in 0.2 s)."""

#: remaining steps -> (walks, walks on two-way edges only); one key 0 without objective
_Sums = dict[int, tuple[int, int]]


class _Stop(Exception):
    """A limit was reached."""


class _TrialOver(Exception):
    """The first try of the search made :data:`TRIAL_STATES` states."""


def count_node_walks(puzzle: Puzzle, limits: Limits, *,
                     progress: Callable[[int], None] | None = None) -> CountResult:
    """Count the walks of a node-rule puzzle (see the module docstring)."""
    if puzzle.use is EdgeUse.ANY and puzzle.visit is NodeVisit.ANY:
        from trailkit.solvers.backends.direct.node_reusable import count_reusable_nodes

        return count_reusable_nodes(puzzle, limits)
    from trailkit.solvers.backends.direct import subset_count

    started = time.monotonic()
    counter = _Counter(NodeRules.of(puzzle), limits, progress)
    if subset_count.applies(puzzle, limits.memory_mb):
        counter.trial = TRIAL_STATES  # the search first: on sparse graphs it is quicker
        tried = counter.run()
        if tried is not None:
            return tried
        left = None if limits.time_limit is None else \
            max(0.0, limits.time_limit - (time.monotonic() - started))
        try:
            return subset_count.count_by_subsets(puzzle, dataclasses.replace(
                limits, time_limit=left))
        except OverflowError:  # numbers too big for the table: the search's integers
            counter = _Counter(NodeRules.of(puzzle), limits, progress)
    result = counter.run()
    assert result is not None
    return result


@dataclass
class _Frame:
    """A state being counted: the sums of its finished children."""

    sums: _Sums


def _rotation_start(p: Puzzle, allowed: list[int]) -> list[int]:
    """The one start counted when rotations are multiplied: the given start, else the
    first node not avoided (every cycle passes it); none when no start is allowed. A
    question about the puzzle, not the search: apart from :class:`_Counter`."""
    if not allowed:
        return []
    given = [v for v, pos in p.at.items() if pos == 1]
    first = given[0] if given else min(set(range(p.num_nodes)) - p.avoid)
    return [first]


class _Counter:
    """The memoised search of the module docstring."""

    def __init__(self, rules: NodeRules, limits: Limits,
                 progress: Callable[[int], None] | None) -> None:
        p = rules.puzzle
        self.rules, self.p, self.limits, self.progress = rules, p, limits, progress
        self.objective = p.objective if not rules.every else Objective.ANY
        if self.objective is Objective.LONGEST and not (rules.once or rules.edge_once):
            self.objective = Objective.ANY
        self.memo: dict[tuple[int, ...], _Sums] = {}
        self.room = (limits.memory_mb or DEFAULT_MEMORY_MB) * 1_000_000 // BYTES_PER_STATE
        self.frames: list[_Frame] = []
        self.expanded = 0
        self.t0 = time.perf_counter()
        self.deadline = None if limits.time_limit is None else \
            time.monotonic() + limits.time_limit
        self.via_bits = sum(1 << v for v in p.via)
        self.closed_keys = p.closed
        self.trial: int | None = None

    # -------------------------------------------------------------- driver
    def run(self) -> CountResult | None:
        """The count (``None`` when a trial's states ran out: see :data:`TRIAL_STATES`)."""
        p, rules = self.p, self.rules
        allowed = [s for s in range(p.num_nodes) if rules.may_begin(s)]
        rotate = (p.closed and rules.every and p.colours is None
                  and not set(p.at.values()) - {1} and rules.wanted >= 3)
        starts = allowed
        if rotate:  # the cycles from one node, whatever the allowed starts and ends
            starts = _rotation_start(p, allowed)
            self.rules = NodeRules.of(dataclasses.replace(p, start=None, end=None))
        roots: dict[int, _Sums] = {}
        stopped = ""
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, p.num_nodes + p.num_edges + 1000))
        totals: _Sums = {}
        try:
            for s in starts:
                sums = self._root(s)
                roots[s] = sums
                _add_into(totals, sums, keep_lengths=True)
        except _Stop as stop:
            stopped = str(stop)
        except _TrialOver:
            return None
        except KeyboardInterrupt:
            stopped = INTERRUPTED
        finally:
            sys.setrecursionlimit(old_limit)
        return self._result(allowed, rotate, roots, totals, stopped)

    def _root(self, s: int) -> _Sums:
        frame = _Frame({})
        self.frames = [frame]
        if self._solved(s, s, 0, 1 << s, -1, -1, -1):
            frame.sums[0] = (1, 1)
        for e, w, c, one_way in self.rules.moves[s]:
            self._step(frame, s, s, 1 << s, 0, -1, -1, -1, e, w, c, one_way)
        return frame.sums

    # ------------------------------------------------------------- search
    def _step(self, parent: _Frame, start: int, node: int, mask: int, steps: int,
              last: int, first: int, first_edge: int, e: int, w: int, c: int,
              one_way: bool) -> None:
        """Count the walks that go on from ``node`` along ``e`` to ``w`` into ``parent``."""
        r = self.rules
        once = r.once
        if not once and mask >> (self.p.num_nodes + e) & 1:
            return
        if once and r.edge_once and e == first_edge:
            return
        if not r.colour_ok(last, c, steps == 0):
            return
        closing = self.p.closed and w == start
        if once and mask >> w & 1 and not closing:
            return
        if not r.may_land(w, steps + 2, closing=closing):
            return
        new_first = c if steps == 0 else first
        new_edge = e if steps == 0 else first_edge
        if once:
            child_mask = mask if closing else mask | 1 << w
        else:
            child_mask = mask | 1 << w | 1 << (self.p.num_nodes + e)
        if once and closing:
            done = self._solved(w, start, steps + 1, child_mask, c, new_first, new_edge)
            sums: _Sums = {0: (1, 1)} if done else {}
        else:
            sums = self._state(start, w, child_mask, steps + 1, c, new_first, new_edge)
        _add_into(parent.sums, sums, shift=1, one_way=one_way,
                  keep_lengths=self.objective is not Objective.ANY)

    def _state(self, start: int, node: int, mask: int, steps: int, last: int,
               first: int, first_edge: int) -> _Sums:
        key = self._key(start, node, mask, last, first, first_edge)
        found = self.memo.get(key)
        if found is not None:
            return found
        self._tick()
        frame = _Frame({})
        if self.rules.every and self.rules.tour_blocked(node, start, mask):
            if len(self.memo) < self.room:
                self.memo[key] = frame.sums
            return frame.sums
        self.frames.append(frame)
        if self._solved(node, start, steps, mask, last, first, first_edge):
            frame.sums[0] = (1, 1)
        for e, w, c, one_way in self.rules.moves[node]:
            self._step(frame, start, node, mask, steps, last, first, first_edge,
                       e, w, c, one_way)
        self.frames.pop()
        if len(self.memo) < self.room:
            self.memo[key] = frame.sums
        return frame.sums

    def _key(self, start: int, node: int, mask: int, last: int, first: int,
             first_edge: int) -> tuple[int, ...]:
        p, closed = self.p, self.closed_keys
        colour_first = first if closed and p.colours is not None else -1
        if self.rules.once:
            return (node, mask, last, start if closed else -1, colour_first,
                    first_edge if closed and self.rules.edge_once else -1)
        return (node, mask, last, start, colour_first)

    def _solved(self, node: int, start: int, steps: int, mask: int, last: int,
                first: int, first_edge: int) -> bool:
        n = self.p.num_nodes
        nodes = mask & ((1 << n) - 1)
        if not self.rules.once:
            nodes |= 1 << start
        held = bin(nodes).count("1")
        via_held = bin(nodes & self.via_bits).count("1")
        return self.rules.finishes(node, start, steps, held, via_held, last, first)

    def _tick(self) -> None:
        self.expanded += 1
        n = self.expanded
        if self.progress is not None and n % _PROGRESS_EVERY == 0:
            self.progress(self._partial())
        if self.trial is not None and n > self.trial:
            raise _TrialOver
        limit = self.limits.work_limit
        if limit is not None and n > limit:
            raise _Stop(f"work limit of {limit} search states reached")
        if self.deadline is not None and n % _CLOCK_EVERY == 0 \
                and time.monotonic() > self.deadline:
            raise _Stop(f"time limit of {seconds(self.limits.time_limit or 0.0)} reached")

    def _partial(self) -> int:
        """Walks completed so far in the unfinished frames (they are nested, so their
        sums add up without counting a walk twice)."""
        if self.objective is not Objective.ANY:
            return 0
        return sum(self._best(f.sums)[0] for f in self.frames)

    def _best(self, sums: _Sums) -> tuple[int, int]:
        """(walks, two-way walks) of the length the objective counts."""
        if not sums:
            return 0, 0
        if self.objective is Objective.SHORTEST:
            return sums[min(sums)]
        if self.objective is Objective.LONGEST:
            return sums[max(sums)]
        return sums.get(0, (0, 0))

    # ------------------------------------------------------------- result
    def _result(self, allowed: list[int], rotate: bool, roots: dict[int, _Sums],
                totals: _Sums, stopped: str) -> CountResult:
        p = self.p
        length = None
        if self.objective is not Objective.ANY and totals and not stopped:
            length = min(totals) if self.objective is Objective.SHORTEST else max(totals)
        per = {p.nodes[s]: (sums.get(length, (0, 0)) if length is not None
                            else self._best(sums))[0] for s, sums in roots.items()}
        walks, two_way = self._best(totals)
        if stopped:
            walks += self._partial()
        tours = None
        if rotate:
            per = {p.nodes[s]: walks for s in allowed}
            tours = (walks - two_way) + two_way // 2
            walks *= len(allowed)
        elif p.closed and self.rules.every and not stopped:
            tours = _listed_tours(self.rules, self.limits, allowed)
        return CountResult(
            backend=BACKEND, solutions=walks, complete=not stopped,
            method="memoised search over subsets",
            per_start={name: StartCounts(n) for name, n in per.items()},
            reason=(f"{stopped}; the number is a lower bound (at least)" if stopped else ""),
            stats={"states": self.expanded, "memoised": len(self.memo),
                   "time_s": time.perf_counter() - self.t0,
                   "interrupted": stopped == INTERRUPTED,
                   **({"length": length} if length is not None else {})},
            tours=tours if not stopped else None)


def _add_into(into: _Sums, sums: _Sums, *, shift: int = 0, one_way: bool = False,
              keep_lengths: bool = True) -> None:
    """Add a child's sums (one step further away) into its parent's."""
    for remaining, (walks, two_way) in sums.items():
        key = remaining + shift if keep_lengths else 0
        old_walks, old_two = into.get(key, (0, 0))
        into[key] = (old_walks + walks, old_two + (0 if one_way else two_way))


def _listed_tours(rules: NodeRules, limits: Limits, starts: list[int]) -> int | None:
    """The distinct edge sets of the walks, listed (``None`` past :data:`TOUR_LISTING`
    walks or a limit)."""
    search = NodeWalkSearch(rules, work_limit=limits.work_limit or 50 * TOUR_LISTING,
                            deadline=None)
    seen: set[frozenset[int]] = set()
    listed = 0
    try:
        for s in starts:
            for walk in search.walks(s):
                seen.add(frozenset(walk.edges))
                listed += 1
                if listed > TOUR_LISTING:
                    return None
    except OutOfWork:
        return None
    return len(seen)


def refuse_failures() -> UnsupportedPuzzle:
    """Why ``count --failures`` is refused under node rules."""
    return UnsupportedPuzzle(
        "failures and early failures are not counted under node rules (visit, via, "
        "avoid, at); count without --failures")
