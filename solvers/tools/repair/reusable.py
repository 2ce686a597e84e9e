"""Single changes that repair a reusable-edge (colour) walk, in one pass over the candidates.

With reusable edges a walk is a path through (node, colour-phase) states (see
:mod:`trailkit.solvers.backends.direct.reachability`). One forward search from the start states
gives the distance ``F[s]`` of every state from a start; one backward search from the
finishing states gives the distance ``B[s]`` of every state to the goal. A new edge
``x - y`` of colour ``c`` adds the moves ``(x, p) -> (y, c)`` for every phase ``p`` that
allows ``c`` next (and back, for a two-way edge). Then, per candidate:

* **sufficient**: some ``(x, p)`` with ``F`` finite and ``c`` allowed after ``p``, and
  ``B[(y, c)]`` finite: walk to ``x``, cross the new edge, walk on to the goal. The
  length of that walk, ``F + 1 + B``, is the candidate's ``estimate``.
* **necessary**: any walk of the changed puzzle crosses the new edge; its first
  crossing leaves a state the original reaches, and its last crossing lands in a state
  that reaches the goal in the original. A candidate failing this is refuted; one that
  passes it but not the sufficient test (it would need the new edge twice) is settled
  by a search of the changed puzzle.
* **bound**: the same argument bounds the repaired puzzle's shortest walk from below:
  ``F + 1 + B`` over one crossing, or at least ``F + 2 + B`` (the best entry and the
  best landing) when the first and last crossings differ. Candidates are ranked by it,
  so a caller looking for the repair with the shortest walk can stop as soon as the
  next candidate's bound exceeds the best walk found.

A recolouring also takes the old colour away, so the original's ``F`` and ``B`` give
only the necessary test; every recolouring that passes it is confirmed by a search of
the recoloured puzzle. Every repair found is solved again by the pipeline in its
repaired puzzle (a verified shortest walk), so this module only proposes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.direct.reachability import StateGraph, build_state_graph
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["Screened", "StateDistances", "screen_single_changes", "state_distances"]

_FAR = 1 << 60


@dataclass(frozen=True, slots=True)
class StateDistances:
    """``forward[s]`` steps from a start to state ``s`` and ``backward[s]`` from ``s`` to
    the goal (``_FAR``: never), for states ``node * phases + phase`` (phase 0 = before
    the first step, ``1 + c`` = after a step of colour ``c``)."""

    graph: StateGraph
    forward: list[int]
    backward: list[int]

    def reached(self, state: int) -> bool:
        return self.forward[state] < _FAR

    def finishes_from(self, state: int) -> bool:
        return self.backward[state] < _FAR


@dataclass(frozen=True, slots=True)
class Screened:
    """A candidate change that passed the necessary test: ``estimate`` is the length of a
    walk crossing the new edge once (``None``: it would need more crossings, or it is a
    recolouring whose old colour the estimate might have used); ``bound`` is a lower
    bound on the length of every walk of the changed puzzle (see the module docstring);
    ``order`` the candidate's index in the list screened."""

    change: Change
    estimate: int | None
    bound: int
    order: int


def state_distances(puzzle: Puzzle) -> StateDistances:
    """Forward and backward breadth-first distances over the states of an open walk."""
    graph = build_state_graph(puzzle)
    return StateDistances(graph, _forward(puzzle, graph), _backward(puzzle, graph))


def _forward(puzzle: Puzzle, graph: StateGraph) -> list[int]:
    """Fewest steps from a start to each state (node ``v``, phase ``p`` at ``v * k + p``),
    :data:`_FAR` where none reaches it."""
    k, groups = graph.phases, graph.groups
    forward = [_FAR] * (puzzle.num_nodes * k)
    queue: deque[int] = deque()
    for s in puzzle.start_nodes():
        forward[s * k] = 0
        queue.append(s * k)
    offsets, targets, allowed = graph.offsets, graph.targets, graph.allowed
    while queue:
        s = queue.popleft()
        v, d = s // k, forward[s] + 1
        for c in allowed[s % k]:
            g = v * groups + c
            for t in targets[offsets[g]:offsets[g + 1]]:
                if forward[t] == _FAR:
                    forward[t] = d
                    queue.append(t)
    return forward


def _backward(puzzle: Puzzle, graph: StateGraph) -> list[int]:
    """Fewest steps from each state to an end, :data:`_FAR` where it reaches none: the
    same search as :func:`_forward` over the moves reversed."""
    k, groups = graph.phases, graph.groups
    n = puzzle.num_nodes
    offsets, targets = graph.offsets, graph.targets
    # backward: who moves into state t = (w, 1 + c)? every (x, p) with c allowed after p
    # and a move of colour c from x to w. The reverse moves come from the same CSR lists.
    into: list[list[int]] = [[] for _ in range(n * k)]
    for g in range(n * groups):
        x = g // groups
        for t in targets[offsets[g]:offsets[g + 1]]:
            into[t].append(x)
    phases_allowing = _phases_allowing(graph)
    backward = [_FAR] * (n * k)
    queue: deque[int] = deque()
    ends = range(n) if puzzle.end is None else sorted(puzzle.end)
    for v in ends:
        for p in range(k):
            backward[v * k + p] = 0
            queue.append(v * k + p)
    while queue:
        t = queue.popleft()
        if t % k == 0:
            continue  # nothing moves into a before-the-first-step state
        c = t % k - 1
        d = backward[t] + 1
        for x in into[t]:
            for p in phases_allowing[c]:
                s = x * k + p
                if backward[s] == _FAR:
                    backward[s] = d
                    queue.append(s)
    return backward


def _phases_allowing(graph: StateGraph) -> list[list[int]]:
    """For each colour group, the phases after which an edge of it may come next."""
    allowing: list[list[int]] = [[] for _ in range(graph.groups)]
    for p, cs in enumerate(graph.allowed):
        for c in cs:
            allowing[c].append(p)
    return allowing


def screen_single_changes(puzzle: Puzzle, changes: Sequence[Change],
                          dist: StateDistances) -> list[Screened]:
    """The candidate adds and recolourings that pass the necessary test, ranked by the
    lower bound on their repaired puzzle's walks, ties in candidate order.

    Only for open walks (a closed walk's states also remember where it began); the
    caller uses the general search for closed ones.
    """
    graph = dist.graph
    k = graph.phases
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    colour_of = {name: i for i, name in enumerate(puzzle.colours.names)} \
        if puzzle.colours is not None else {}
    entry = _Entry(dist)
    passed: list[Screened] = []
    for order, change in enumerate(changes):
        if change.op not in (Op.ADD, Op.RECOLOUR):
            continue
        c = colour_of[change.colour] if puzzle.colours is not None and change.colour else 0
        u, v = index[change.u], index[change.v]
        ways = [(u, v)] if change.directed else [(u, v), (v, u)]
        enters = [entry(x, c) for x, _ in ways]
        lands = [dist.backward[y * k + 1 + c] for _, y in ways]
        if min(enters) >= _FAR or min(lands) >= _FAR:
            continue
        single = [f + 1 + b for f, b in zip(enters, lands, strict=True)
                  if f < _FAR and b < _FAR]
        estimate = min(single) if single and change.op is Op.ADD else None
        bound = min([*single, min(enters) + 2 + min(lands)])
        passed.append(Screened(change, estimate, bound, order))
    passed.sort(key=lambda item: (item.bound, item.order))
    return passed


class _Entry:
    """Fewest steps to stand on node ``x`` in a phase that allows colour ``c`` next, from
    the forward distances, remembered: the screen asks it for each end of each candidate,
    and candidates share their ends."""

    def __init__(self, dist: StateDistances) -> None:
        self.forward = dist.forward
        self.k = dist.graph.phases
        self.allowing = _phases_allowing(dist.graph)
        self.best: dict[tuple[int, int], int] = {}

    def __call__(self, x: int, c: int) -> int:
        """The fewest steps to ``x`` ready for colour ``c`` (:data:`_FAR`: unreachable)."""
        key = (x, c)
        if key not in self.best:
            self.best[key] = min((self.forward[x * self.k + p] for p in self.allowing[c]),
                                 default=_FAR)
        return self.best[key]
