"""One pass over a reusable walk's (node, colour-phase) states: distances, shortest
walks counted, traps.

A colour walk may reuse its planks, so all it carries is where it stands and the colour
of its last step (see :mod:`trailkit.solvers.backends.direct.reachability`). One
forward and one backward breadth-first search
(:func:`~trailkit.solvers.tools.repair.reusable.state_distances`) give, for every
state, its distance from a start and to the goal. From them, without another search:

* the **shortest length** ``L``: the least forward distance of a finishing state;
* the **shortest walks**, counted along the states with ``forward + backward = L``
  (a walk is its start and its sequence of planks, so parallel planks of one colour
  count apart, as ``count`` counts them);
* the **traps**: states a walker can reach from which the goal can no longer be
  reached, and, along a given walk, the **trap steps**: the steps taken from a state
  that has a move into a trap (a walker there could go wrong for good); over all
  shortest walks at once, the least and the most of them (:func:`trap_step_range`).

Nothing here is trusted: the walk shown is solved and verified by the pipeline, and
the counts are compared with ``count`` in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.repair.reusable import StateDistances, state_distances

__all__ = ["StateSummary", "summarise", "trap_step_range", "trap_steps", "walk_states"]


@dataclass(frozen=True, slots=True)
class StateSummary:
    """What one pass over the states says (see the module docstring); ``length`` and
    ``shortest_walks`` are ``None`` and 0 when no walk reaches the goal."""

    distances: StateDistances
    length: int | None
    shortest_walks: int
    reached: int
    traps: frozenset[int]

    def is_trap(self, state: int) -> bool:
        return state in self.traps


def summarise(puzzle: Puzzle) -> StateSummary:
    """The distances, shortest length, number of shortest walks and traps of an open
    reusable walk ``puzzle``."""
    dist = state_distances(puzzle)
    forward, backward = dist.forward, dist.backward
    reached = [s for s, d in enumerate(forward) if dist.reached(s)]
    traps = frozenset(s for s in reached if not dist.finishes_from(s))
    finishing = [s for s in reached if backward[s] == 0]
    if not finishing:
        return StateSummary(dist, None, 0, len(reached), traps)
    length = min(forward[s] for s in finishing)
    return StateSummary(dist, length, _count_shortest(dist, length), len(reached), traps)


def _count_shortest(dist: StateDistances, length: int) -> int:
    """The number of walks of ``length`` steps from a start state to a finishing one,
    counted along the states on some shortest walk, level by level."""
    graph, forward, backward = dist.graph, dist.forward, dist.backward
    k, groups = graph.phases, graph.groups
    offsets, targets = graph.offsets, graph.targets
    ways: dict[int, int] = {s: 1 for s, d in enumerate(forward)
                            if d == 0 and backward[s] == length}
    total = 0
    for level in range(length + 1):
        nxt: dict[int, int] = {}
        for s, w in ways.items():
            if level == length:
                total += w if backward[s] == 0 else 0
                continue
            v = s // k
            for c in graph.allowed[s % k]:
                g = v * groups + c
                for t in targets[offsets[g]:offsets[g + 1]].tolist():
                    if forward[t] == level + 1 and backward[t] == length - level - 1:
                        nxt[t] = nxt.get(t, 0) + w
        ways = nxt
    return total


def walk_states(puzzle: Puzzle, summary: StateSummary, walk: Walk) -> list[int]:
    """The states a walk passes through, its start state first."""
    k = summary.distances.graph.phases
    states = [walk.nodes[0] * k]
    for e, v in zip(walk.edges, walk.nodes[1:], strict=True):
        phase = 1 if puzzle.colours is None or puzzle.colour is None else 1 + puzzle.colour[e]
        states.append(v * k + phase)
    return states


def _moves(summary: StateSummary, s: int) -> list[int]:
    """The states one step from state ``s``."""
    graph = summary.distances.graph
    k, groups = graph.phases, graph.groups
    out: list[int] = []
    for c in graph.allowed[s % k]:
        g = (s // k) * groups + c
        out += graph.targets[graph.offsets[g]:graph.offsets[g + 1]].tolist()
    return out


def _beside_trap(summary: StateSummary, s: int) -> bool:
    """Whether state ``s`` has a move into a trap."""
    return any(t in summary.traps for t in _moves(summary, s))


def trap_steps(summary: StateSummary, states: list[int]) -> int:
    """How many steps of a walk (its states, from :func:`walk_states`) leave a state
    that has a move into a trap."""
    return sum(1 for s in states[:-1] if _beside_trap(summary, s))


def trap_step_range(summary: StateSummary) -> tuple[int, int] | None:
    """The least and the most trap steps of a shortest walk (``None``: no walk), level
    by level along the states on some shortest walk."""
    if summary.length is None:
        return None
    forward, backward = summary.distances.forward, summary.distances.backward
    length = summary.length
    level = {s: (0, 0) for s, d in enumerate(forward) if d == 0 and backward[s] == length}
    for step in range(length):
        nxt: dict[int, tuple[int, int]] = {}
        for s, (lo, hi) in level.items():
            add = int(_beside_trap(summary, s))
            for t in _moves(summary, s):
                if forward[t] == step + 1 and backward[t] == length - step - 1:
                    a, b = nxt.get(t, (lo + add, hi + add))
                    nxt[t] = (min(a, lo + add), max(b, hi + add))
        level = nxt
    return min(a for a, _ in level.values()), max(b for _, b in level.values())
