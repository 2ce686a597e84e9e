"""The layers of a reusable walk's states, for ``layers`` certificates.

Layer ``i`` is the set of (node, colour-phase) states a walk first reaches after ``i``
steps, edges free to reuse: the breadth-first layers of the direct backend's search
(:func:`~trailkit.solvers.backends.direct.reachability.solve_reusable`), which hands
them over with its walk as one small number per state (``stats["layers"]``). The
certificate stores that array (compressed:
:mod:`trailkit.models.checking.layer_numbers`), so no second search is made when
direct found the walk; for another backend's walk, direct's search runs once for them.
The claims of :mod:`trailkit.solvers.pipeline.claims` (shortest, unique) and
:mod:`trailkit.solvers.pipeline.layered_count` (count) are made from them; the
independent checker (:mod:`trailkit.models.checking.shortest`) shares none of this
code. Their size is known before any work, from the puzzle's size
(:func:`layers_too_big`: the states, and the memory the check would take, against
:data:`STATE_LIMIT`).

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                    "start: a\\ngoal: c\\nedges: [a b red, b c blue, b c blue]\\n")
>>> built = layers_to_goal(p, STATE_LIMIT)
>>> len(built.layers) - 1, built.walks_by_start(), built.numbers.tolist()[:6]
(2, {0: 2}, [0, 2, 2, 2, 1, 2])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from trailkit.models.answer import Walk
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS
from trailkit.solvers.backends.direct.reachability import (
    StateGraph,
    build_state_graph,
    solve_reusable,
)

__all__ = ["STATE_LIMIT", "Layered", "layer_numbers", "layers_to_goal", "layers_too_big"]

STATE_LIMIT = 10_000_000
"""The most (node, phase) states a layers certificate may number (one layer each)."""

BYTES_PER_STATE = 48
BYTES_PER_ARC = 80
"""The memory the layers take, made and checked (the checker's arrays, the peak of the
two): a rough upper bound per state and per step between states, for the estimate."""

_WIDE = 1 << 62
"""Past this, a count of walks leaves NumPy's 64-bit integers for Python's."""


def layers_too_big(puzzle: Puzzle, state_limit: int) -> str:
    """Why no layers certificate can be made for ``puzzle`` within ``state_limit`` states
    (empty: one can), known from its size alone, before any work: a closed walk (its
    states must also remember where it began), or more states than the limit, with the
    memory the check would take."""
    if puzzle.closed:
        return ("a closed walk has no layers certificate yet: its states must also "
                "remember where it began")
    phases = 2 if puzzle.colours is None else len(puzzle.colours.names) + 1
    states = puzzle.num_nodes * phases
    if states <= state_limit:
        return ""
    megabytes = max(1, (states * BYTES_PER_STATE + 2 * puzzle.num_edges * BYTES_PER_ARC) >> 20)
    return (f"the layers would number {states:,} states, about {megabytes:,} MB to make "
            f"and check; limit {state_limit:,} states")


def layer_numbers(puzzle: Puzzle, length: int, state_limit: int,
                  given: Any = None) -> np.ndarray | str:
    """Each state's breadth-first layer, ``length`` for every state not reached in fewer
    steps: ``given`` (the search's own, from the answer's ``stats["layers"]``) when it
    has them, else direct's search run for them; or why they cannot certify a shortest
    walk of ``length`` steps (too big, known first; a closed walk; with edges reused,
    fewer steps would do). A walk of fewer steps where edges may be reused is a loud
    failure: ``length`` was called shortest."""
    why = layers_too_big(puzzle, state_limit)
    if why:
        return why
    numbers = given if isinstance(given, np.ndarray) else _searched(puzzle)
    if numbers is None:
        raise VerificationFailure("direct's search finds no walk, but a walk of "
                                  f"{plural(length, 'step')} was verified")
    fewer = int(numbers.max(initial=0))  # the search's walk: its goal's layer
    if fewer > length:
        raise VerificationFailure(f"direct's search needs {plural(fewer, 'step')}, but "
                                  f"a walk of {length} was verified")
    if fewer < length:
        if puzzle.use is EdgeUse.ANY:
            raise VerificationFailure(f"a walk of {plural(fewer, 'step')} solves the "
                                      f"puzzle, but one of {length} was called shortest")
        return (f"with edges reused, {plural(fewer, 'step')} would do; the once-only rule "
                "is what makes the walk longer, and layers do not see it")
    return numbers


def _searched(puzzle: Puzzle) -> np.ndarray | None:
    """The layer numbers of direct's breadth-first search (``None``: no walk at all)."""
    found = solve_reusable(puzzle, NO_LIMITS)
    numbers = found.stats.get("layers")
    if found.walk is not None and numbers is None:  # 0 steps: every state in layer 0
        return np.zeros(puzzle.num_nodes * build_state_graph(puzzle).phases, dtype=np.uint8)
    return numbers if isinstance(numbers, np.ndarray) else None


class Layered:
    """The states first reached in exactly 0, 1, ..., L steps (``numbers``: each state's
    layer), with every step from a layer to the next."""

    def __init__(self, puzzle: Puzzle, graph: StateGraph, numbers: np.ndarray,
                 length: int) -> None:
        self.puzzle, self.graph, self.numbers = puzzle, graph, numbers
        order = np.argsort(numbers, kind="stable")
        bounds = np.concatenate([[0], np.cumsum(np.bincount(numbers, minlength=length + 1))])
        self.layers: list[np.ndarray] = [order[bounds[i]:bounds[i + 1]]
                                         for i in range(length)]
        self.may_end = np.ones(puzzle.num_nodes, dtype=bool)
        if puzzle.end is not None:
            self.may_end[:] = False
            self.may_end[sorted(puzzle.end)] = True
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for i in range(length):
            owner, target, arc = _expand(graph, self.layers[i])
            on = numbers[target] == i + 1
            self.steps.append((owner[on], target[on], arc[on]))
            if i + 1 == length:
                self.layers.append(np.unique(target[on]))
        if not length:  # every state is numbered 0: the walks of 0 steps start
            self.layers.append(np.unique(np.asarray(puzzle.start_nodes(), dtype=np.int64)
                                         * graph.phases))

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


def layered(puzzle: Puzzle, numbers: np.ndarray, length: int) -> Layered:
    """The layers 0 .. ``length`` of ``numbers`` (checked to reach ``length``), with
    their steps, for counting and listing the walks through them."""
    return Layered(puzzle, build_state_graph(puzzle), numbers, length)


def layers_to_goal(puzzle: Puzzle, state_limit: int,
                   given: Mapping[str, Any] | None = None) -> Layered | str | None:
    """Layers 0 .. L of ``puzzle``'s states (an open walk), L the first layer with a state
    where the walk may stop, from direct's search (``given``: an answer's stats that
    hold them); ``None`` when no walk exists at all; or why they cannot be made (over
    ``state_limit`` states, known before any work; a closed walk)."""
    why = layers_too_big(puzzle, state_limit)
    if why:
        return why
    numbers = (given or {}).get("layers")
    if not isinstance(numbers, np.ndarray):
        numbers = _searched(puzzle)
    if numbers is None:
        return None
    return layered(puzzle, numbers, int(numbers.max(initial=0)))


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
