"""Shortest walks when edges may be reused: breadth-first search over (node, colour-phase) states.

With reusable edges the only memory a walk needs is where it stands and the colour
of its last step (its *phase*; "before the first step" is a phase of its own). So
the walk puzzle becomes plain reachability in a graph of ``node × phase`` states,
as the Toowoomba tyre puzzle's "colour dimensions" do, and a breadth-first search
gives the shortest walk. When no finishing state can be reached, the set of
reachable states is itself the proof: it holds every start state, no allowed move
leaves it, and none of its states finishes a walk (a ``closed-set`` certificate).

Everything is kept in flat NumPy arrays: a state is the integer ``node * K + phase``
(phase 0 = before the first step, ``1 + c`` = after a step of colour ``c``), and the
moves are stored once, grouped by (node, colour) in compressed-sparse-row form
(:func:`.csr.group_by`). All states at a node that allow colour ``c`` next share the
same successors, so each (node, colour) group is expanded at most once per search,
and the whole search reads every plank end at most once. Each breadth-first level
is expanded in compiled code (:func:`_expand`); Python only looks at the clock
between levels (against the pure-Python version this replaced: ``docs/benchmarks.md``,
from ``tests/bench/bench_perf.py``). A walk found comes with the search's own layers
(``stats["layers"]``: each state's breadth-first layer, :func:`_layer_numbers`), from which
the pipeline makes the ``layers`` certificate of its ``shortest`` claim.

>>> from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
>>> from trailkit.solvers.backends.base import Limits
>>> rule = ColourRule.from_cycle(["red", "blue"])
>>> p = Puzzle.build(kind="walk", edges=[("a", "b", "red"), ("b", "c", "blue")],
...                  colours=rule, start=["a"], end=["c"], use=EdgeUse.ANY,
...                  objective=Objective.SHORTEST)
>>> answer = solve_reusable(p, Limits())
>>> answer.status.value, answer.walk.nodes, answer.optimal
('solved', (0, 1, 2), True)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from trailkit.models.answer import Answer, Certificate, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.jit import kernel
from trailkit.models.support.words import plural, seconds
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.csr import group_by

__all__ = ["ANY_PHASE", "StateGraph", "build_state_graph", "solve_reusable"]

BACKEND = "direct"
ANY_PHASE = "*"
"""The certificate's phase name after a step when the puzzle has no colour rule."""

_ROOT = -2  # parent marker of a start state
_UNSEEN = -1


class _TimeUp(Exception):
    """Raised inside a search when ``limits.time_limit`` has passed."""


# --------------------------------------------------------------- the graph
@dataclass(frozen=True, slots=True)
class StateGraph:
    """The moves of a walk puzzle between (node, phase) states, in flat arrays.

    ``groups`` is the number of colour groups ``C`` (the colours of the rule, or one
    group for every edge when there is no rule) and ``phases`` is ``K = C + 1``.
    Group ``g = node * C + c`` holds the moves of colour ``c`` out of ``node``: the
    target states ``targets[offsets[g]:offsets[g + 1]]`` and, at the same positions in
    ``arcs``, the arc numbers that :meth:`edge_of_arc` turns into edge indices.
    ``allowed[phase]`` lists the colour groups that may be taken from that phase
    (``allowed_ptr``/``allowed_flat``: the same in CSR form, for the compiled search).
    """

    num_nodes: int
    groups: int
    phases: int
    allowed: tuple[tuple[int, ...], ...]
    offsets: np.ndarray
    targets: np.ndarray
    arcs: np.ndarray
    edge_of: np.ndarray  # edge index of each arc number (forward arcs first)
    successors: tuple[frozenset[int], ...] | None
    allowed_ptr: np.ndarray
    allowed_flat: np.ndarray

    def edge_of_arc(self, arc: int) -> int:
        """The edge index behind arc number ``arc`` (forward arcs first, then reversed ones)."""
        return int(self.edge_of[arc])

    def moves(self, node: int, group: int) -> Iterable[tuple[int, int]]:
        """``(target state, edge index)`` for every move of colour ``group`` out of ``node``."""
        g = node * self.groups + group
        lo, hi = int(self.offsets[g]), int(self.offsets[g + 1])
        return zip(self.targets[lo:hi].tolist(), self.edge_of[self.arcs[lo:hi]].tolist(),
                   strict=True)

    def edge_between(self, state: int, target: int) -> int:
        """An edge that moves ``state`` to ``target`` (which must be one of its moves)."""
        k = self.phases
        g = (state // k) * self.groups + target % k - 1
        lo = int(self.offsets[g])
        at = lo + int(np.flatnonzero(self.targets[lo:self.offsets[g + 1]] == target)[0])
        return self.edge_of_arc(self.arcs[at])

    def closes(self, phase: int, first: int) -> bool:
        """Whether a closed walk that began with colour group ``first`` may end in ``phase``."""
        return phase > 0 and (self.successors is None or first in self.successors[phase - 1])


def _int_array(values: Sequence[Any], dtype: type = np.int64) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values.astype(dtype, copy=False)
    return np.fromiter(values, dtype=dtype, count=len(values))


def build_state_graph(puzzle: Puzzle) -> StateGraph:
    """Group every usable move of ``puzzle`` by (node, colour), once, in CSR form.

    Under a colour rule an uncoloured edge is never usable; a one-way edge only
    moves tail -> head; a two-way self-loop is one move (both directions coincide).
    """
    rule = puzzle.colours
    n, m = puzzle.num_nodes, puzzle.num_edges
    tail, head = puzzle.int_array("tail"), puzzle.int_array("head")
    if rule is None:
        c_count, group = 1, np.zeros(m, dtype=np.int64)
    else:
        c_count = len(rule.names)
        group = (puzzle.int_array("colour") if puzzle.colour is not None
                 else np.full(m, -1, dtype=np.int64))
    k = c_count + 1
    forward = np.flatnonzero(group >= 0)
    two_way = tail != head
    if puzzle.directed is not None:
        two_way &= ~_int_array(puzzle.directed, bool)
    backward = forward[two_way[forward]]
    f_tail, f_head, f_group = _picked(forward, m, tail, head, group)
    b_tail, b_head, b_group = _picked(backward, m, tail, head, group)
    keys = np.concatenate([f_tail * c_count + f_group, b_head * c_count + b_group])
    values = np.concatenate([f_head * k + 1 + f_group, b_tail * k + 1 + b_group])
    offsets, targets, arcs = group_by(keys, values, n * c_count)
    everything = tuple(range(c_count))
    if rule is None:
        allowed: tuple[tuple[int, ...], ...] = (everything, everything)
        successors = None
    else:
        first = everything if puzzle.first is None else tuple(sorted(puzzle.first))
        allowed = (first, *(tuple(sorted(s)) for s in rule.successors))
        successors = rule.successors
    allowed_ptr = np.cumsum([0, *map(len, allowed)], dtype=np.int64)
    allowed_flat = np.array([c for row in allowed for c in row], dtype=np.int64)
    return StateGraph(n, c_count, k, allowed, offsets, targets, arcs,
                      np.concatenate([forward, backward]), successors, allowed_ptr,
                      allowed_flat)


def _picked(edges: np.ndarray, m: int, *columns: np.ndarray) -> tuple[np.ndarray, ...]:
    """``columns`` at the ``edges`` (sorted edge indices): the columns themselves when
    those are all ``m`` edges (a big colour walk's: no million-item copies)."""
    if len(edges) == m:
        return columns
    return tuple(column[edges] for column in columns)


# -------------------------------------------------------------- the search
@kernel
def _seed(roots: np.ndarray, parent: np.ndarray, via: int, goal: np.ndarray,
          out: np.ndarray) -> tuple[int, int]:
    """Give each unseen root the parent ``via`` and list it in ``out``; returns how many
    were listed and the first goal state among them (-1: none)."""
    count = 0
    for s in roots:
        if parent[s] == _UNSEEN:
            parent[s] = via
            out[count] = s
            count += 1
            if goal[s]:
                return count, s
    return count, -1


@kernel
def _expand(frontier: np.ndarray, parent: np.ndarray, expanded: np.ndarray,
            offsets: np.ndarray, targets: np.ndarray, allowed_ptr: np.ndarray,
            allowed_flat: np.ndarray, phases: int, groups: int, goal: np.ndarray,
            out: np.ndarray, touched: np.ndarray) -> tuple[int, int, int]:
    """One breadth-first level: every allowed, not yet expanded (node, colour) group of
    the ``frontier`` states, its unseen targets listed in ``out`` with their parent.
    Returns ``(states listed, groups expanded (listed in touched), goal state or -1)``;
    a goal stops the level at once."""
    count = 0
    opened = 0
    for s in frontier:
        v = s // phases
        base = v * groups
        phase = s - v * phases
        for j in range(allowed_ptr[phase], allowed_ptr[phase + 1]):
            g = base + allowed_flat[j]
            if expanded[g]:
                continue
            expanded[g] = 1
            touched[opened] = g
            opened += 1
            for i in range(offsets[g], offsets[g + 1]):
                t = targets[i]
                if parent[t] == _UNSEEN:
                    parent[t] = s
                    out[count] = t
                    count += 1
                    if goal[t]:
                        return count, opened, t
    return count, opened, -1


@dataclass(slots=True)
class _Search:
    """Breadth-first searches over states; ``parent`` records how each state was reached.

    The arrays are allocated once and, through :meth:`reset`, reused by the many
    small searches of a closed puzzle at a cost proportional to what each touched.
    ``goal`` is a mask of goal states (set and cleared around a search; ``nogoal``
    stays all zero), ``out`` and ``opened`` the compiled level's scratch lists.
    """

    graph: StateGraph
    deadline: float | None
    parent: np.ndarray
    expanded: np.ndarray
    goal: np.ndarray
    nogoal: np.ndarray
    out: np.ndarray
    opened: np.ndarray
    allowed_ptr: np.ndarray
    allowed_flat: np.ndarray
    levels: list[np.ndarray] = field(default_factory=list)
    touched: list[np.ndarray] = field(default_factory=list)
    counter: int = 0
    cut: bool = False  # whether the last run stopped at its bound with states left

    @classmethod
    def start(cls, graph: StateGraph, deadline: float | None) -> _Search:
        states, groups = graph.num_nodes * graph.phases, graph.num_nodes * graph.groups
        return cls(graph, deadline, np.full(states, _UNSEEN, dtype=np.int64),
                   np.zeros(groups, dtype=np.uint8), np.zeros(states, dtype=np.uint8),
                   np.zeros(states, dtype=np.uint8), np.empty(states, dtype=np.int64),
                   np.empty(groups, dtype=np.int64), graph.allowed_ptr, graph.allowed_flat)

    def only_first(self, first: int) -> None:
        """From now on the first step (phase 0) may only take colour group ``first``."""
        ptr, flat = self.graph.allowed_ptr, self.graph.allowed_flat
        self.allowed_flat = np.concatenate([np.array([first], dtype=np.int64), flat[ptr[1]:]])
        self.allowed_ptr = np.concatenate([np.zeros(1, dtype=np.int64), ptr[1:] - ptr[1] + 1])

    def run(self, roots: Iterable[int] | np.ndarray, goal: bool,
            bound: int | None = None, *, via: int = _ROOT, depth: int = 0) -> int | None:
        """Search from ``roots``; return the first state found with ``self.goal`` set
        (when ``goal``).

        The roots are ``depth`` steps into the walk and were reached from state ``via``
        (``_ROOT``: they are start states). Without a goal (or when none is reachable)
        the search runs until every reachable state has a parent, and returns ``None``.
        ``bound`` stops it before states ``bound`` steps into the walk are reached.
        Raises :class:`_TimeUp` when the deadline passes.
        """
        g = self.graph
        self.cut = bound is not None and depth >= bound
        if self.cut:
            return None
        goals = self.goal if goal else self.nogoal
        starts = roots if isinstance(roots, np.ndarray) else np.fromiter(roots, np.int64)
        size = len(g.targets)
        count, found = _seed.sized(size)(starts, self.parent, via, goals, self.out)
        frontier = self.out[:count].copy()
        self.levels.append(frontier)
        if found >= 0:
            return int(found)
        expand = _expand.sized(size)
        while len(frontier) and (bound is None or depth + 1 < bound):
            depth += 1
            self._tick(len(frontier))
            count, opened, found = expand(frontier, self.parent, self.expanded, g.offsets,
                                           g.targets, self.allowed_ptr, self.allowed_flat,
                                           g.phases, g.groups, goals, self.out, self.opened)
            frontier = self.out[:count].copy()
            self.levels.append(frontier)
            self.touched.append(self.opened[:opened].copy())
            if found >= 0:
                return int(found)
        self.cut = bool(len(frontier))
        return None

    def mark_root(self, state: int, first_group: int) -> None:
        """Make ``state`` a start state whose moves of ``first_group`` are already seeded."""
        self.parent[state] = _ROOT
        self.levels.append(np.array([state], dtype=np.int64))
        g = (state // self.graph.phases) * self.graph.groups + first_group
        self.expanded[g] = 1
        self.touched.append(np.array([g], dtype=np.int64))

    def reset(self) -> None:
        """Forget everything the searches so far reached, keeping the arrays."""
        for level in self.levels:
            self.parent[level] = _UNSEEN
        for opened in self.touched:
            self.expanded[opened] = 0
        self.levels.clear()
        self.touched.clear()

    def _tick(self, amount: int) -> None:
        self.counter += amount
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _TimeUp

    def path_to(self, state: int) -> list[int]:
        """The states from a root to ``state``."""
        path = [int(state)]
        while self.parent[path[-1]] >= 0:
            path.append(int(self.parent[path[-1]]))
        path.reverse()
        return path

    def reached(self) -> list[int]:
        """Every state the searches since the last reset reached."""
        return np.concatenate(self.levels).tolist() if self.levels else []


def _walk_of(graph: StateGraph, states: list[int]) -> Walk:
    """Turn a path of states into a walk (an edge for each step, found in the CSR lists)."""
    k = graph.phases
    nodes = tuple(s // k for s in states)
    edges = tuple(graph.edge_between(a, b) for a, b in pairwise(states))
    return Walk(nodes, edges)


def _deadline(limits: Limits) -> float | None:
    return None if limits.time_limit is None else time.monotonic() + limits.time_limit


# --------------------------------------------------------------- the entry
def solve_reusable(puzzle: Puzzle, limits: Limits) -> Answer:
    """Find a shortest walk of ``puzzle`` treating every edge as reusable.

    Returns a solved answer with ``optimal=True``, an unsolvable one with a
    ``closed-set`` certificate, or unknown when ``limits.time_limit`` runs out. The
    edge-use rule of ``puzzle`` is ignored, which is right for ``use=any`` and makes
    this the relaxation that the exhaustive search starts from.
    """
    started = time.monotonic()
    deadline = _deadline(limits)
    starts = puzzle.start_nodes()
    ends = range(puzzle.num_nodes) if puzzle.end is None else sorted(puzzle.end)
    if not puzzle.closed or puzzle.num_edges == 0:
        # With no edge at all a closed walk may stand still (verify accepts it).
        end_set = set(ends)
        for s in starts:
            if s in end_set:
                return Answer.solved(BACKEND, Walk((s,), ()), optimal=True, states=1)
    graph = build_state_graph(puzzle)
    try:
        if puzzle.closed:
            return _solve_closed(puzzle, graph, starts, ends, deadline, started)
        return _solve_open(puzzle, graph, starts, ends, deadline, started)
    except _TimeUp:
        return Answer.unknown(BACKEND, f"time limit of {seconds(limits.time_limit)} reached")


def _solve_open(puzzle: Puzzle, graph: StateGraph, starts: Sequence[int],
                ends: Sequence[int], deadline: float | None, started: float) -> Answer:
    k = graph.phases
    search = _Search.start(graph, deadline)
    search.goal.reshape(graph.num_nodes, k)[np.asarray(ends, dtype=np.int64)] = 1
    found = search.run(np.asarray(starts, dtype=np.int64) * k, True)
    if found is not None:
        walk = _walk_of(graph, search.path_to(found))
        return Answer.solved(BACKEND, walk, optimal=True, states=search.counter,
                             layers=_layer_numbers(search, len(walk)))
    reached = search.reached()
    names = _phase_names(puzzle, graph)
    states = [[puzzle.nodes[s // k], names[s % k]] for s in reached]
    certificate = Certificate("closed-set", {"states": states},
                              _explain_open(puzzle, graph, starts, ends, reached))
    return Answer.unsolvable(BACKEND, certificate, reason="no finishing state is reachable",
                             states=len(reached), search_s=time.monotonic() - started)


def _layer_numbers(search: _Search, length: int) -> np.ndarray:
    """The breadth-first layer of every state, as the search found them: ``i`` for a
    state first reached after ``i < length`` steps, ``length`` for every other (the
    search stopped in layer ``length``, at the first goal). One small unsigned number a
    state: what a ``layers`` certificate stores, made without a second search."""
    dtype = np.uint8 if length < 1 << 8 else np.uint16 if length < 1 << 16 else np.uint32
    numbers = np.full(len(search.parent), length, dtype=dtype)
    for i, level in enumerate(search.levels[:length]):
        numbers[level] = i
    return numbers


def _closing_goal(graph: StateGraph, origin: int, first: int) -> list[int]:
    """The states that end a closed walk from ``origin`` whose first step had group ``first``."""
    k = graph.phases
    return [origin * k + p for p in range(1, k) if graph.closes(p, first)]


class _ClosedSearches:
    """The searches of closed walks, one per (origin, first colour), sharing one set of
    arrays; ``reached`` keeps the states of each pair whose search ended without being
    cut off (that pair is finished for good: the certificate's states)."""

    def __init__(self, graph: StateGraph, ends: Sequence[int], deadline: float | None) -> None:
        self.graph = graph
        self.end_set = set(ends)
        self.search = _Search.start(graph, deadline)
        self.reached: dict[tuple[int, int], list[int]] = {}

    def attempt(self, origin: int, first: int, limit: int | None) -> list[int] | None:
        """Search from ``origin`` for a closed walk of at most ``limit`` steps."""
        graph, search = self.graph, self.search
        k = graph.phases
        search.only_first(first)
        goal = _closing_goal(graph, origin, first) if origin in self.end_set else []
        search.goal[goal] = 1
        # the origin state itself never closes a walk: a closed walk needs a step
        search.mark_root(origin * k, first)
        g = origin * graph.groups + first
        seeds = graph.targets[graph.offsets[g]:graph.offsets[g + 1]]
        found = search.run(seeds, bool(goal), None if limit is None else limit + 1,
                           via=origin * k, depth=1)
        search.goal[goal] = 0
        path = None if found is None else search.path_to(found)
        if found is None and not search.cut:
            self.reached[(origin, first)] = search.reached()
        search.reset()
        return path

    def deepen(self, pending: list[tuple[int, int]], floor: int) -> list[int] | None:
        """The shortest closed walk from the ``pending`` pairs (their states), or ``None``:
        every pair searched up to a length limit that doubles each round from ``floor``
        (no closed walk is shorter), the finished pairs dropped, the first round that
        closes a walk giving the shortest one."""
        limit = floor
        while pending:
            best: list[int] | None = None
            for origin, first in pending:
                cap = limit if best is None else min(limit, len(best) - 2)
                if cap < floor:
                    break
                path = self.attempt(origin, first, cap)
                if path is not None:
                    best = path
            if best is not None:
                return best
            pending = [pair for pair in pending if pair not in self.reached]
            limit *= 2
        return None


def _solve_closed(puzzle: Puzzle, graph: StateGraph, starts: Sequence[int],
                  ends: Sequence[int], deadline: float | None, started: float) -> Answer:
    """Closed walks: one search per (origin, first colour), shortest over all of them.

    A state must also remember the walk's origin and first colour, so rather than
    multiply the state space, each (origin, first colour) pair gets its own search
    (:class:`_ClosedSearches`). So that many origins stay cheap, the searches deepen
    together: every pair is searched up to a length limit that doubles each round, a
    pair whose search ended without being cut off is finished for good, and the first
    round that closes a walk gives the shortest one. The searches share one set of
    arrays.
    """
    closed = _ClosedSearches(graph, ends, deadline)
    pending = [(o, f) for o in starts if o in closed.end_set for f in graph.allowed[0]]
    best = closed.deepen(pending, _shortest_colour_cycle(graph))
    if best is not None:
        return Answer.solved(BACKEND, _walk_of(graph, best), optimal=True,
                             states=closed.search.counter)
    for origin in starts:  # no walk closes: the rest of the certificate
        if origin not in closed.end_set:
            for first in graph.allowed[0]:
                closed.attempt(origin, first, None)
    return _closed_certificate(puzzle, graph, starts, closed.reached, started)


def _shortest_colour_cycle(graph: StateGraph) -> int:
    """The fewest steps any closed walk can have, judging by colours alone.

    A closed walk's colours go round a cycle of the colour rule that passes through
    an allowed first colour (with no rule, one step can suffice). Once a walk that
    short is found, no other origin can do better.
    """
    if graph.successors is None:
        return 1
    best = len(graph.successors) + 1
    for first in graph.allowed[0]:
        frontier, seen, steps = {first}, {first}, 1
        while frontier and steps < best:
            if any(first in graph.successors[c] for c in frontier):
                best = steps
                break
            frontier = {d for c in frontier for d in graph.successors[c]} - seen
            seen |= frontier
            steps += 1
    return best


def _closed_certificate(puzzle: Puzzle, graph: StateGraph, starts: Sequence[int],
                        reached: dict[tuple[int, int], list[int]], started: float) -> Answer:
    k = graph.phases
    names = _phase_names(puzzle, graph)
    nodes = puzzle.nodes
    states: list[list[Any]] = []
    for origin in starts:
        states.append([nodes[origin], None, nodes[origin], None])
        for first in graph.allowed[0]:
            first_name = names[1 + first]
            states += ([nodes[s // k], names[s % k], nodes[origin], first_name]
                       for s in reached[(origin, first)] if s != origin * k)
    explanation = _explain_closed(puzzle, starts, len(states))
    certificate = Certificate("closed-set", {"states": states}, explanation)
    return Answer.unsolvable(BACKEND, certificate, reason="no walk can close its ring",
                             states=len(states), search_s=time.monotonic() - started)


# ----------------------------------------------------------------- words
def _phase_names(puzzle: Puzzle, graph: StateGraph) -> list[str | None]:
    """Certificate names of the phases: ``None``, then the colour names (or ``"*"``)."""
    if puzzle.colours is None:
        return [None, ANY_PHASE]
    return [None, *puzzle.colours.names]


def _some(puzzle: Puzzle, nodes: Sequence[int], limit: int = 5) -> str:
    names = [puzzle.nodes[v] for v in nodes[:limit]]
    if len(nodes) <= limit:
        return ", ".join(names) if len(names) < 2 else ", ".join(names[:-1]) + " or " + names[-1]
    return ", ".join(names) + f" or one of {len(nodes) - limit} more"


def _explain_open(puzzle: Puzzle, graph: StateGraph, starts: Sequence[int],
                  ends: Sequence[int], reached: list[int]) -> str:
    k = graph.phases
    places = sorted({s // k for s in reached})
    if not starts:
        return "No node is allowed as a start, so no walk can begin."
    rule = puzzle.colours
    where = f"Starting from {_some(puzzle, list(starts))}"
    if rule is None:
        what = f"a walker can only ever reach {plural(len(places), 'place')}"
    else:
        situations = plural(len(reached), "(place, last colour) situation")
        what = (f"the colour rule ({rule.describe()}) lets a walker reach only "
                f"{situations}, at {plural(len(places), 'place')}")
    return (f"{where}, {what}, and none of those places is {_some(puzzle, list(ends))}. "
            "Every allowed step from one of these situations leads to another of them, "
            "so the goal can never be reached.")


def _explain_closed(puzzle: Puzzle, starts: Sequence[int], count: int) -> str:
    if not starts:
        return "No node is allowed as a start, so no walk can begin."
    rule = puzzle.colours
    needs = "return to where it started"
    if rule is not None:
        needs += (" with its first colour allowed after its last one "
                  f"(the rule is {rule.describe()})")
    return (f"A closed walk must {needs}. Starting from {_some(puzzle, list(starts))}, only "
            f"{plural(count, '(place, last colour, start, first colour) situation')} can "
            "ever be reached, every allowed step from one of them leads to another, and none of "
            "them closes the walk at an allowed end.")
