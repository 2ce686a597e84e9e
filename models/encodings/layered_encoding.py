"""The layered *state* encoding for walks that may reuse edges (``use: any``), shared by
the ``sat`` backend and the external ``dimacs:COMMAND`` one (hence here, below both).

A state is ``(node, phase)``: the node the walk is at and the colour of the step
that brought it there (one phase only when there is no colour rule; :data:`START`
before the first step). Variable ``s[t][q]`` says "after ``t`` steps the walk is in
state ``q``". The clauses say:

* at most one state per layer (a sequential counter from :mod:`pysat.card`);
* a state at layer ``t+1`` implies one of its predecessor states at layer ``t``
  (a predecessor has an oriented edge to it whose colour the rule, or ``first`` for
  the first step, allows); so the transitions need no variables of their own;
* ``fin[k]`` ("the walk has exactly ``k`` steps") implies a goal state at layer ``k``,
  and for a closed walk that this node is the layer-0 node and that a layer-1 phase
  may follow the last phase (the colour join).

Only states that can occur are created: layer ``t+1`` holds the successors of layer
``t`` (forward reachability), minus those that cannot reach a goal state within the
steps left before the horizon (backward distances). Layers are added lazily, so a
search for a walk of ``k`` steps builds ``k + 1`` layers only.

Parallel edges of one colour between the same two nodes give one transition; a
model fixes a state sequence, a walk picks one edge per step (:meth:`decode`) and
:meth:`multiplicity` counts the walks a state sequence stands for.

>>> from trailkit.models.puzzle import EdgeUse, Puzzle
>>> p = Puzzle.build(kind="walk", edges=[("a", "b"), ("b", "c"), ("b", "c")],
...                  use=EdgeUse.ANY, start=["a"], end=["c"])
>>> enc = LayeredEncoding(p, 3)
>>> enc.extend_to(2)
>>> sorted(enc.finish)
[2]
>>> enc.multiplicity([(0, START), (1, 0), (2, 0)])
2
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from itertools import pairwise

from pysat.card import CardEnc, EncType

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle

__all__ = ["START", "LayeredEncoding", "State"]

START = -1
"""The phase of the layer-0 states: no step taken yet."""

State = tuple[int, int]
"""``(node, phase)``; the phase is a colour index, 0 without a colour rule, or START."""

_UNREACHABLE = 1 << 60


class LayeredEncoding:
    """Clauses over layers of states, grown one layer at a time.

    ``clauses`` holds every clause made so far; :meth:`take_new` hands out the ones not
    yet given to a solver. ``finish[k]`` is the literal "the walk has exactly ``k``
    steps" (only for lengths where a goal state is reachable); ``layers[t][q]`` the
    variable of state ``q`` at layer ``t``.
    """

    def __init__(self, puzzle: Puzzle, horizon: int) -> None:
        self.p = puzzle
        self.horizon = horizon
        self.rule = puzzle.colours if puzzle.colour is not None else None
        # moves[u][(v, colour)] = the oriented edges from u to v with that colour
        self.moves: list[dict[State, list[int]]] = [{} for _ in range(puzzle.num_nodes)]
        for e, o in puzzle.oriented_edges():
            u, v = (puzzle.tail[e], puzzle.head[e]) if o == 0 else (puzzle.head[e],
                                                                    puzzle.tail[e])
            self.moves[u].setdefault((v, self._phase(e)), []).append(e)
        self.goal_nodes = self._goal_nodes()
        self.dist = self._distances_to_goal()
        self.top = 0
        self.clauses: list[list[int]] = []
        self._given = 0
        self.finish: dict[int, int] = {}
        self.layers: list[dict[State, int]] = []
        self._first_layer()

    # ------------------------------------------------------------ the state graph
    def _phase(self, e: int) -> int:
        return self.p.colour[e] if self.rule is not None and self.p.colour is not None else 0

    def _allowed(self, phase: int, colour: int) -> bool:
        if phase == START:
            return self.p.may_come_first(colour)
        return self.p.colour_may_follow(phase, colour)

    def successors(self, q: State) -> Iterable[State]:
        """The states one step after ``q``."""
        u, phase = q
        return (r for r in self.moves[u] if self._allowed(phase, r[1]))

    def _goal_nodes(self) -> frozenset[int]:
        """Where a walk may end (a closed walk ends where it started, so also a start)."""
        nodes = frozenset(range(self.p.num_nodes))
        for allowed in (self.p.end, self.p.start if self.p.closed else None):
            if allowed is not None:
                nodes &= allowed
        return nodes

    def _distances_to_goal(self) -> dict[State, int]:
        """Fewest steps from each state (after a first step) to a state on a goal node."""
        back: dict[State, list[State]] = {}
        states = {r for u in range(self.p.num_nodes) for r in self.moves[u]}
        for q in states:
            for r in self.successors(q):
                back.setdefault(r, []).append(q)
        dist = {q: 0 for q in states if q[0] in self.goal_nodes}
        queue = deque(dist)
        while queue:
            r = queue.popleft()
            for q in back.get(r, ()):
                if q not in dist:
                    dist[q] = dist[r] + 1
                    queue.append(q)
        return dist

    # ------------------------------------------------------------ building layers
    def _new_var(self) -> int:
        self.top += 1
        return self.top

    def _atmost1(self, lits: list[int]) -> None:
        if len(lits) < 2:
            return
        enc = CardEnc.atmost(lits, bound=1, top_id=self.top, encoding=EncType.seqcounter)
        self.clauses.extend(enc.clauses)
        self.top = max(self.top, enc.nv)

    def _first_layer(self) -> None:
        layer: dict[State, int] = {}
        for v in range(self.p.num_nodes):
            if not self.p.may_start(v):
                continue
            q = (v, START)
            best = min((self.dist.get(r, _UNREACHABLE) for r in self.successors(q)),
                       default=_UNREACHABLE)
            if best + 1 <= self.horizon:
                layer[q] = self._new_var()
        self.layers.append(layer)
        self._atmost1(list(layer.values()))

    def extend_to(self, k: int) -> None:
        """Build layers up to ``k`` (at most the horizon)."""
        while len(self.layers) <= min(k, self.horizon):
            self._next_layer()

    def _next_layer(self) -> None:
        t = len(self.layers)
        left = self.horizon - t
        prev = self.layers[-1]
        preds: dict[State, list[int]] = {}
        for q, var in prev.items():
            for r in self.successors(q):
                if self.dist.get(r, _UNREACHABLE) <= left:
                    preds.setdefault(r, []).append(var)
        layer = {r: self._new_var() for r in preds}
        for r, var in layer.items():
            self.clauses.append([-var, *preds[r]])
        self._atmost1(list(layer.values()))
        self.layers.append(layer)
        goals = [r for r in layer if r[0] in self.goal_nodes]
        if goals:
            self._finish(t, goals)

    def _finish(self, t: int, goals: list[State]) -> None:
        fin = self._new_var()
        self.finish[t] = fin
        layer = self.layers[t]
        self.clauses.append([-fin, *(layer[r] for r in goals)])
        if not self.p.closed:
            return
        origin, first = self.layers[0], self.layers[1]
        for r in goals:
            v, phase = r
            back = origin.get((v, START))
            self.clauses.append([-fin, -layer[r], *([back] if back else [])])
            if self.rule is not None:
                joins = [var for (_, c), var in first.items() if c in self.rule.successors[phase]]
                self.clauses.append([-fin, -layer[r], *joins])

    def take_new(self) -> list[list[int]]:
        """The clauses made since the last call (to add to an incremental solver)."""
        new = self.clauses[self._given:]
        self._given = len(self.clauses)
        return new

    def exhausted(self) -> bool:
        """Whether the last layer is empty (no longer walk can reach a goal in time)."""
        return not self.layers[-1]

    # ------------------------------------------------------------ reading models
    def states_of(self, model: Iterable[int], k: int) -> list[State]:
        """The state sequence of a model with ``fin[k]`` true, layer 0 to ``k``.

        Walks back from a true goal state through true predecessors, so it needs no
        more than the clauses guarantee.
        """
        true = {lit for lit in model if lit > 0}
        layer = self.layers[k]
        current = next(r for r in layer if layer[r] in true and r[0] in self.goal_nodes)
        path = [current]
        for t in range(k - 1, -1, -1):
            current = next(q for q, var in self.layers[t].items()
                           if var in true and current in set(self.successors(q)))
            path.append(current)
        return path[::-1]

    def state_vars(self, states: list[State]) -> list[int]:
        """The variables of a state sequence (for a blocking clause)."""
        return [self.layers[t][q] for t, q in enumerate(states)]

    def edge_choices(self, states: list[State]) -> list[list[int]]:
        """For each step, the edges that take the walk from one state to the next."""
        return [self.moves[q[0]][r] for q, r in pairwise(states)]

    def multiplicity(self, states: list[State]) -> int:
        """How many walks follow ``states`` (parallel edges of one colour multiply)."""
        total = 1
        for edges in self.edge_choices(states):
            total *= len(edges)
        return total

    def decode(self, model: Iterable[int], k: int,
               pick: Callable[[list[int]], int] = lambda edges: edges[0]) -> Walk:
        """The walk of a model with ``fin[k]`` true (one edge per step chosen by ``pick``)."""
        states = self.states_of(model, k)
        edges = tuple(pick(choices) for choices in self.edge_choices(states))
        return Walk(tuple(q[0] for q in states), edges)
