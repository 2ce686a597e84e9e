"""What both CP-SAT formulations share: steps, circuit arcs, the closed-walk join, decoding.

Both models are one ``add_circuit`` constraint through a *depot* node (index 0) that
has no self-loop, so the depot is always on the circuit and the circuit can never be
empty (CP-SAT accepts a circuit whose every node is skipped). The circuit leaves the
depot to where the walk starts and comes back to it after the walk's last step:

* :mod:`.circuit_model` (edges used at most / exactly once): one circuit node per
  oriented edge;
* :mod:`.state_model` (reusable edges): one circuit node per (node, colour-phase)
  state.

An :class:`Arc` is the single place where the model meets the walk: its literal, the
steps it stands for (several when parallel edges of one colour join the same two
states), and what it says about the walk's ends. :class:`Encoding` keeps the arcs so a
solution can be turned back into a :class:`Walk` (decoding) and so solutions can be
deduplicated on exactly the literals that define a walk.

A :class:`BuildClock` bounds the building: a model of a million arcs takes Python tens
of seconds to state, so the formulations look at the clock as they go (per step of the
oriented-edge model, and between its parts) and stop with :class:`BuildStopped` once
the time limit is past.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from trailkit.models.answer import Walk
from trailkit.models.encodings.node_circuit import avoided_edge
from trailkit.models.puzzle import Puzzle

__all__ = [
    "DEPOT",
    "NO_DEADLINE",
    "Arc",
    "BuildClock",
    "BuildStopped",
    "Encoding",
    "Step",
    "add_circuit_checked",
    "add_closed_join",
    "usable_steps",
]

DEPOT = 0

Value = Callable[[cp_model.IntVar], bool]


class BuildStopped(Exception):
    """The time limit was reached while a model was being built."""


@dataclass(frozen=True, slots=True)
class BuildClock:
    """The monotonic time by which a model must be built (``None``: no limit)."""

    deadline: float | None = None

    @classmethod
    def within(cls, seconds: float | None) -> BuildClock:
        """A clock that runs out ``seconds`` from now (never, for ``None``)."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    def check(self) -> None:
        """Raise :class:`BuildStopped` once the deadline has passed."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BuildStopped


#: The clock of a model built without a time limit.
NO_DEADLINE = BuildClock()


@dataclass(frozen=True, slots=True)
class Step:
    """One way of crossing one edge: ``edge`` from ``src`` to ``dst``; ``colour`` -1 if none."""

    edge: int
    src: int
    dst: int
    colour: int


@dataclass(frozen=True, slots=True)
class Arc:
    """A circuit arc ``tail -> head`` chosen when ``lit`` is true.

    ``steps`` are the interchangeable steps the arc stands for (empty for depot arcs);
    ``first`` marks arcs whose step is the walk's first; ``start`` is the walk's start
    node for arcs that fix it; ``end`` is ``(last node, last colour)`` for arcs back
    into the depot.
    """

    tail: int
    head: int
    lit: cp_model.IntVar
    steps: tuple[Step, ...] = ()
    first: bool = False
    start: int | None = None
    end: tuple[int, int] | None = None


@dataclass
class Encoding:
    """A CP-SAT model of a puzzle plus the map from its literals back to walks.

    ``length`` is the number of steps as a linear expression; ``what`` names the
    formulation in messages; ``proof_note`` says what an INFEASIBLE answer means;
    ``params`` are CP-SAT parameters the formulation runs best with (set on the solver
    before the caller's limits, so limits always win).
    """

    model: cp_model.CpModel
    arcs: list[Arc]
    length: cp_model.LinearExprT
    what: str
    proof_note: str
    size: dict[str, int] = field(default_factory=dict)
    params: dict[str, int] = field(default_factory=dict)

    def chosen(self, value: Value) -> list[int]:
        """Indices of the arcs on the circuit: the key that identifies one solution."""
        return [i for i, arc in enumerate(self.arcs) if value(arc.lit)]

    def decode(self, value: Value) -> Walk:
        """Follow the circuit from the depot; the first of each arc's steps is taken."""
        walk, _ = self._follow(value)
        return walk

    def multiplicity(self, value: Value) -> int:
        """How many distinct walks the solution stands for (parallel edges of one colour)."""
        _, arcs = self._follow(value)
        count = 1
        for arc in arcs:
            count *= max(1, len(arc.steps))
        return count

    def _follow(self, value: Value) -> tuple[Walk, list[Arc]]:
        succ: dict[int, Arc] = {}
        for i in self.chosen(value):
            arc = self.arcs[i]
            if arc.tail != arc.head:
                succ[arc.tail] = arc
        taken: list[Arc] = []
        at = DEPOT
        while True:
            arc = succ[at]
            taken.append(arc)
            at = arc.head
            if at == DEPOT or len(taken) > len(self.arcs):
                break
        steps = [arc.steps[0] for arc in taken if arc.steps]
        nodes = [steps[0].src, *(s.dst for s in steps)]
        return Walk(tuple(nodes), tuple(s.edge for s in steps)), taken


# --------------------------------------------------------------- puzzle facts
def usable_steps(puzzle: Puzzle) -> list[list[Step]]:
    """For every edge, the steps that cross it: one for one-way edges and self-loops,
    two for two-way edges, none for an uncoloured edge under a colour rule or an edge
    touching a node in ``avoid``."""
    colour = puzzle.colour
    out: list[list[Step]] = []
    for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
        c = -1 if colour is None else colour[e]
        if not puzzle.usable(e) or avoided_edge(puzzle, e):
            out.append([])
            continue
        steps = [Step(e, u, v, c)]
        if u != v and not puzzle.is_directed(e):
            steps.append(Step(e, v, u, c))
        out.append(steps)
    return out


# -------------------------------------------------------------- constraints
def add_circuit_checked(model: cp_model.CpModel, arcs: Sequence[Arc],
                        skip: Sequence[tuple[int, cp_model.LiteralT]]) -> None:
    """``add_circuit`` over the arcs plus the self-loop (skip) literals of optional nodes.

    The depot must have an arc out, or the model is plainly infeasible (``add_circuit``
    refuses an empty arc list, and a depot with no arc would be a malformed circuit).
    """
    if not any(arc.tail == DEPOT for arc in arcs):
        model.add_bool_or([])  # the empty clause: no walk can even start
        return
    model.add_circuit([(a.tail, a.head, a.lit) for a in arcs]
                      + [(node, node, lit) for node, lit in skip])


def add_closed_join(model: cp_model.CpModel, puzzle: Puzzle, arcs: Sequence[Arc]) -> None:
    """A closed walk ends at its start node, and its first colour may follow its last.

    The start node is the one the depot-out arc fixes; the first colour is the colour of
    the arc marked ``first``. Exactly one of each is on the circuit, so "some chosen
    start arc at node v" is the same as "the walk starts at v".
    """
    starts: dict[int, list[cp_model.IntVar]] = {}
    ends: dict[int, list[cp_model.IntVar]] = {}
    firsts: dict[int, list[cp_model.IntVar]] = {}
    for arc in arcs:
        if arc.start is not None:
            starts.setdefault(arc.start, []).append(arc.lit)
        if arc.end is not None:
            ends.setdefault(arc.end[0], []).append(arc.lit)
        if arc.first:
            firsts.setdefault(arc.steps[0].colour, []).append(arc.lit)
    for node in starts.keys() | ends.keys():  # linear form of "ends at its start" for presolve
        model.add(sum(starts.get(node, [])) == sum(ends.get(node, [])))
    for arc in arcs:
        if arc.end is None:
            continue
        node, colour = arc.end
        need = list(starts.get(node, ()))
        if not need:
            model.add(arc.lit == 0)
            continue
        model.add_bool_or(need).only_enforce_if(arc.lit)
        if puzzle.colours is not None:
            follow = [lit for c, lits in firsts.items() if puzzle.colour_may_follow(colour, c)
                      for lit in lits]
            if not follow:
                model.add(arc.lit == 0)
            else:
                model.add_bool_or(follow).only_enforce_if(arc.lit)
