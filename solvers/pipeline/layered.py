"""The layers of a reusable walk's states, built by the pipeline for ``layers`` certificates.

Layer ``i`` is the set of (node, colour-phase) states a walk can be in after exactly ``i``
steps, edges free to reuse, built by a breadth-first search over the direct backend's
table of moves (:func:`~trailkit.solvers.backends.direct.reachability.build_state_graph`),
one layer at a time in NumPy, each step between layers kept. The claims of
:mod:`trailkit.solvers.pipeline.claims` (shortest, unique) and
:mod:`trailkit.solvers.pipeline.layered_count` (count) are made from them; the
independent checker (:mod:`trailkit.models.checking.shortest`) shares none of this code.
Their size is bounded (:data:`STATE_LIMIT` states over all layers).

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                    "start: a\\ngoal: c\\nedges: [a b red, b c blue, b c blue]\\n")
>>> built = layers_to_goal(p, STATE_LIMIT)
>>> len(built.layers) - 1, built.walks_by_start()
(2, {0: 2})
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from trailkit.models.answer import Walk
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.direct.reachability import (
    ANY_PHASE,
    StateGraph,
    build_state_graph,
)

__all__ = ["STATE_LIMIT", "Layered", "build_layers", "layer_names", "layers_to_goal"]

STATE_LIMIT = 1_000_000
"""The most (node, phase) states a layers certificate may hold over all its layers."""

_WIDE = 1 << 62
"""Past this, a count of walks leaves NumPy's 64-bit integers for Python's."""


def layer_names(puzzle: Puzzle, layers: list[np.ndarray]) -> list[list[list[str | None]]]:
    """``layers`` as a certificate writes them: ``[node name, phase name]`` per state (the
    phase ``None`` before the first step)."""
    graph_phases = [None, *(puzzle.colours.names if puzzle.colours else [ANY_PHASE])]
    k = len(graph_phases)
    names = puzzle.nodes
    return [[[names[s // k], graph_phases[s % k]] for s in layer.tolist()]
            for layer in layers]


class Layered:
    """The states reachable in exactly 0, 1, ... steps, with every step between layers."""

    def __init__(self, puzzle: Puzzle, graph: StateGraph) -> None:
        self.puzzle, self.graph = puzzle, graph
        starts = np.asarray([v * graph.phases for v in puzzle.start_nodes()],
                            dtype=np.int64)
        self.layers: list[np.ndarray] = [np.unique(starts)]
        self.may_end = np.ones(puzzle.num_nodes, dtype=bool)
        if puzzle.end is not None:
            self.may_end[:] = False
            self.may_end[sorted(puzzle.end)] = True
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def grow(self) -> None:
        """Add the next layer: every allowed step out of the last one."""
        owner, target, arc = _expand(self.graph, self.layers[-1])
        self.steps.append((owner, target, arc))
        self.layers.append(np.unique(target))

    def stops(self, layer: np.ndarray) -> np.ndarray:
        """The states of ``layer`` where the walk may stop (an open walk: its node)."""
        return np.asarray(layer[self.may_end[layer // self.graph.phases]])

    def counts(self) -> list[np.ndarray]:
        """Walks from a start to each state of each layer (kept at most 2)."""
        out = [np.ones(len(self.layers[0]), dtype=np.int64)]
        for (owner, target, _), after in zip(self.steps, self.layers[1:], strict=True):
            nxt = np.bincount(np.searchsorted(after, target), weights=out[-1][owner],
                              minlength=len(after))
            out.append(np.minimum(nxt, 2).astype(np.int64))
        return out

    def walks(self) -> int:
        """Walks through every layer that end where the walk may stop (at most 2)."""
        last = self.layers[-1]
        ending = np.isin(last, self.stops(last))
        return int(min(self.counts()[-1][ending].sum(), 2))

    def walks_by_start(self) -> dict[int, int]:
        """For each start node, the walks through every layer from it that end where the
        walk may stop: exact, counted back from the last layer (each state's walks to the
        end, summed over its steps)."""
        k = self.graph.phases
        ways: np.ndarray = self.may_end[self.layers[-1] // k].astype(np.int64)
        for (owner, target, _), after, before in zip(
                self.steps[::-1], self.layers[:0:-1], self.layers[-2::-1], strict=True):
            ways = _exact_sum(owner, ways[np.searchsorted(after, target)], len(before))
        first = self.layers[0]
        return {v: int(ways[np.searchsorted(first, v * k)])
                for v in sorted(set(self.puzzle.start_nodes()))}

    def walks_found(self) -> Iterator[Walk]:
        """Walks through every layer that end where the walk may stop, one by one."""
        counts = self.counts()
        last = self.layers[-1]
        for state in self.stops(last).tolist():
            if counts[-1][np.searchsorted(last, state)]:
                yield from self._back(len(self.layers) - 1, state, [], counts)

    def _back(self, i: int, state: int, edges: list[int], counts: list[np.ndarray]
              ) -> Iterator[Walk]:
        if i == 0:
            start = state // self.graph.phases
            yield Walk.from_edges(self.puzzle, start, edges[::-1])
            return
        owner, target, arc = self.steps[i - 1]
        for j in np.flatnonzero(target == state).tolist():
            before = int(self.layers[i - 1][owner[j]])
            if counts[i - 1][owner[j]]:
                edge = self.graph.edge_of_arc(int(arc[j]))
                yield from self._back(i - 1, before, [*edges, edge], counts)


def build_layers(puzzle: Puzzle, length: int, wanted: int, state_limit: int) -> Layered | str:
    """Layers 0 .. ``wanted``-1 of ``puzzle``'s states, none before ``length`` with a
    state where the walk may stop; or why they cannot certify the claim."""
    if puzzle.closed:
        return "a closed walk has no layers certificate yet"
    graph = build_state_graph(puzzle)
    built = Layered(puzzle, graph)
    total = len(built.layers[0])
    while True:
        i = len(built.layers) - 1
        if i < length and len(built.stops(built.layers[-1])):
            if puzzle.use is EdgeUse.ANY:
                raise VerificationFailure(f"a walk of {plural(i, 'step')} solves the "
                                          f"puzzle, but one of {length} was called shortest")
            return (f"with edges reused, {plural(i, 'step')} would do; the once-only rule "
                    "is what makes the walk longer, and layers do not see it")
        if len(built.layers) >= wanted:
            del built.layers[wanted:]  # a walk of 0 steps: no layer below it
            return built
        built.grow()
        total += len(built.layers[-1])
        if total > state_limit:
            return (f"the layers hold {total:,} states by step {i + 1}; "
                    f"limit {state_limit:,}")


def layers_to_goal(puzzle: Puzzle, state_limit: int) -> Layered | str | None:
    """Layers 0 .. L of ``puzzle``'s states (an open walk), L the first layer with a state
    where the walk may stop; ``None`` when no walk exists at all (the layers so far hold
    every state any number of steps reaches, and none lets the walk stop); or why they
    cannot be built (over ``state_limit`` states, a closed walk)."""
    if puzzle.closed:
        return "a closed walk has no layers certificate yet: its states must also remember "\
            "where it began"
    built = Layered(puzzle, build_state_graph(puzzle))
    seen = np.zeros(puzzle.num_nodes * built.graph.phases, dtype=bool)
    seen[built.layers[0]] = True
    total = len(built.layers[0])
    while not len(built.stops(built.layers[-1])):
        built.grow()
        fresh = ~seen[built.layers[-1]]
        if not fresh.any():  # every later layer holds only states already seen
            return None
        seen[built.layers[-1]] = True
        total += len(built.layers[-1])
        if total > state_limit:
            return (f"the layers hold {total:,} states by step {len(built.layers) - 1}; "
                    f"limit {state_limit:,}")
    return built


def _exact_sum(owner: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``values`` added up by ``owner`` into ``size`` exact totals (Python integers once
    a total could pass 62 bits)."""
    if values.dtype != object and len(values) and \
            int(values.max()) * int(np.bincount(owner).max()) >= _WIDE:
        values = values.astype(object)
    out = np.zeros(size, dtype=values.dtype)
    np.add.at(out, owner, values)
    return out


def _expand(graph: StateGraph, states: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every allowed step out of ``states``: the index of the state it leaves, the state it
    reaches and its arc number, one per arc."""
    k = graph.phases
    nodes, phase = states // k, states % k
    first, count = graph.allowed_ptr[phase], graph.allowed_ptr[phase + 1] - \
        graph.allowed_ptr[phase]
    holder, picks = _spread(first, count)
    groups = nodes[holder] * graph.groups + graph.allowed_flat[picks]
    lo = graph.offsets[groups]
    inner, at = _spread(lo, graph.offsets[groups + 1] - lo)
    return holder[inner], graph.targets[at], graph.arcs[at]


def _spread(first: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranges ``first[i] .. first[i] + count[i] - 1`` laid end to end: for each item, the
    range it belongs to and its value."""
    owner = np.repeat(np.arange(len(first)), count)
    offset = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    return owner, np.repeat(first, count) + offset
