"""Certificates for the claims an answer makes beyond its walk: shortest, unique.

The maker side of CONTRACT 1.3 §6. Each function here makes a certificate for one claim
about a verified walk, has the independent checker
(:mod:`trailkit.models.checking.shortest`, which shares no code with this module or any
backend) accept it, and returns a :class:`~trailkit.models.answer.Claim` saying what the
claim rests on: the certificate the checker accepted, or why there is none ("not
certified: ..."). A certificate the checker rejects for a walk a backend called
shortest is a bug, raised as :class:`VerificationFailure`.

``layers`` certificates (open walks): the (node, colour-phase) states reachable in exactly
0, 1, ... steps, built here by a breadth-first search over the direct backend's table of
moves (:func:`~trailkit.solvers.backends.direct.reachability.build_state_graph`), one
layer at a time in NumPy. Their size is bounded (:data:`STATE_LIMIT` states over all
layers): past it the claim is "not certified", with the count reached.

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.pipeline.solving import solve
>>> p = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                    "start: a\\ngoal: c\\nedges: [a b red, b c blue, b c blue]\\n")
>>> walk = solve(p).walk
>>> shortest = shortest_claim(p, walk)
>>> shortest.checked, shortest.value, shortest.certificate.kind
(True, 2, 'layers')
>>> other = unique_claim(p, walk)
>>> other.value, other.checked, other.witness.edges, walk.edges
(False, True, (0, 2), (0, 1))
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from trailkit.models.answer import Certificate, Claim, Walk
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.checking.verify import verify
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.direct.reachability import (
    ANY_PHASE,
    StateGraph,
    build_state_graph,
)

__all__ = ["STATE_LIMIT", "shortest_claim", "unique_claim"]

STATE_LIMIT = 1_000_000
"""The most (node, phase) states a layers certificate may hold over all its layers."""


def shortest_claim(puzzle: Puzzle, walk: Walk, *, rests_on: str = "direct",
                   state_limit: int = STATE_LIMIT) -> Claim:
    """The claim that no walk solving ``puzzle`` is shorter than ``walk`` (verified, and
    said to be shortest by ``rests_on``): a ``layers`` certificate the independent checker
    accepted, or, unchecked, why there is none and that it rests on ``rests_on``."""
    built = _layers(puzzle, len(walk), len(walk), state_limit)
    if isinstance(built, str):
        return Claim("shortest", False, value=len(walk), why=_unproven(built, rests_on))
    certificate = _certificate(puzzle, "shortest", walk, built.layers)
    return _checked(puzzle, "shortest", certificate, len(walk), rests_on)


def unique_claim(puzzle: Puzzle, walk: Walk, *, rests_on: str = "direct",
                 state_limit: int = STATE_LIMIT) -> Claim:
    """Whether ``walk`` (verified, and shortest) is the only shortest walk of ``puzzle``.

    ``value`` True: a ``layers`` certificate through step ``len(walk)``, whose walks the
    checker counted (one). ``value`` False: ``witness`` is a second walk of the same
    length, verified. ``checked`` False (``value`` None): why it could not be decided.
    """
    length = len(walk)
    built = _layers(puzzle, length, length + 1, state_limit)
    if isinstance(built, str):
        return Claim("unique", False, why=_unproven(built, rests_on))
    if built.walks() == 1:
        certificate = _certificate(puzzle, "unique", walk, built.layers)
        return _checked(puzzle, "unique", certificate, True, rests_on)
    for other in built.walks_found():
        if other != walk and not verify(puzzle, other):
            return Claim("unique", True, value=False, witness=other, holds=(
                f"a second walk of {plural(length, 'step')}, verified by the independent "
                "checker"))
    return Claim("unique", False, why=_unproven(
        "the layers count more than one walk, but the others break the once-only rules",
        rests_on))


def _unproven(why: str, rests_on: str) -> str:
    return f"not certified ({why}); rests on {rests_on}'s search"


def _checked(puzzle: Puzzle, claim: str, certificate: Certificate, value: object,
             rests_on: str) -> Claim:
    """``certificate`` checked by the independent checker: the claim, or a loud failure."""
    verdict = layers_verdict(puzzle, certificate.data)
    if verdict.problems:
        raise VerificationFailure(f"the {claim} certificate for {rests_on}'s walk is "
                                  f"rejected by the independent checker: "
                                  f"{'; '.join(verdict.problems[:3])}")
    return Claim(claim, True, certificate, value=value, holds=verdict.holds)


def _certificate(puzzle: Puzzle, claim: str, walk: Walk, layers: list[np.ndarray]
                 ) -> Certificate:
    """The ``layers`` certificate (names, not indices) of ``claim`` for ``walk``."""
    graph_phases = [None, *(puzzle.colours.names if puzzle.colours else [ANY_PHASE])]
    k = len(graph_phases)
    names = puzzle.nodes
    data = {
        "claim": claim, "length": len(walk),
        "start": names[walk.nodes[0]] if walk.nodes else None,
        "walk": [puzzle.edge_id(e) for e in walk.edges],
        "layers": [[[names[s // k], graph_phases[s % k]] for s in layer.tolist()]
                   for layer in layers],
    }
    what = "no shorter walk" if claim == "shortest" else "no other walk as short"
    return Certificate("layers", data, f"the states 0 to {len(layers) - 1} steps reach, "
                       f"layer by layer: {what} solves the puzzle")


class _Layered:
    """The states reachable in exactly 0, 1, ... steps, with every step between layers."""

    def __init__(self, puzzle: Puzzle, graph: StateGraph) -> None:
        self.puzzle, self.graph = puzzle, graph
        starts = np.asarray([v * graph.phases for v in puzzle.start_nodes()],
                            dtype=np.int64)
        self.layers: list[np.ndarray] = [np.unique(starts)]
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def grow(self) -> None:
        """Add the next layer: every allowed step out of the last one."""
        owner, target, arc = _expand(self.graph, self.layers[-1])
        self.steps.append((owner, target, arc))
        self.layers.append(np.unique(target))

    def stops(self, layer: np.ndarray) -> np.ndarray:
        """The states of ``layer`` where the walk may stop (an open walk: its node)."""
        if self.puzzle.end is None:
            return layer
        ends = np.asarray(sorted(self.puzzle.end), dtype=np.int64)
        return layer[np.isin(layer // self.graph.phases, ends)]

    def counts(self) -> list[np.ndarray]:
        """Walks from a start to each state of each layer (kept at most 2)."""
        out = [np.ones(len(self.layers[0]), dtype=np.int64)]
        for (owner, target, _), after in zip(self.steps, self.layers[1:], strict=True):
            nxt = np.zeros(len(after), dtype=np.int64)
            np.add.at(nxt, np.searchsorted(after, target), out[-1][owner])
            out.append(np.minimum(nxt, 2))
        return out

    def walks(self) -> int:
        """Walks through every layer that end where the walk may stop (at most 2)."""
        last = self.layers[-1]
        ending = np.isin(last, self.stops(last))
        return int(min(self.counts()[-1][ending].sum(), 2))

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


def _layers(puzzle: Puzzle, length: int, wanted: int, state_limit: int) -> _Layered | str:
    """Layers 0 .. ``wanted``-1 of ``puzzle``'s states, none before ``length`` with a
    state where the walk may stop; or why they cannot certify the claim."""
    if puzzle.closed:
        return "a closed walk has no layers certificate yet"
    graph = build_state_graph(puzzle)
    built = _Layered(puzzle, graph)
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
