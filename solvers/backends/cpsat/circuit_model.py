"""The oriented-edge circuit model for walks that use each edge exactly / at most once.

Circuit nodes: the depot (0) and one node per *step*, i.e. per oriented edge (a
two-way edge has two, a one-way edge or a self-loop one). The literal ``x[s]`` says
step ``s`` is on the circuit; its negation is the node's self-loop (skip) literal. Arcs:

* ``s -> t`` when ``s`` ends where ``t`` starts, they cross different edges, and (under a
  colour rule) ``t``'s colour may follow ``s``'s: "``t`` comes right after ``s``";
* ``depot -> s`` when ``s`` may start the walk (its start node is an allowed start, its
  colour an allowed first colour);
* ``s -> depot`` when ``s`` may end the walk (its end node is an allowed end).

The two orientations of an edge exclude each other, and for exactly-once exactly one
is on the circuit (at most one for at-most-once). Arcs are built once per ordered pair
of steps, so the circuit never holds duplicate arcs (CP-SAT would accept them silently).
A closed walk adds :func:`~.encoding.add_closed_join`. Redundant per-node balance
equations (steps out minus steps in = starts minus ends) let presolve see parity
arguments (the double-nine domino set has no ring) without search.

Symmetry: for a closed exactly-once walk every rotation is again a solution; when
asked, the walk is made to start with a *pivot* edge whose every step may start it,
which keeps at least one rotation of every ring (used by ``solve``, never by ``count``,
which counts step sequences with their starts).
"""

from __future__ import annotations

from collections import defaultdict

from ortools.sat.python import cp_model

from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.cpsat.encoding import (
    DEPOT,
    NO_DEADLINE,
    Arc,
    BuildClock,
    Encoding,
    Step,
    add_circuit_checked,
    add_closed_join,
    usable_steps,
)

__all__ = ["encode_edge_circuit"]


def _step_arcs(model: cp_model.CpModel, puzzle: Puzzle, steps: list[Step],
               node_of: dict[Step, int], pivot: int | None, clock: BuildClock
               ) -> list[Arc]:
    """The circuit's arcs, each with its literal: from the depot into each step that may
    begin the walk (only the ``pivot`` edge's, when the symmetry is broken), from each
    step that may end it back to the depot, and from each step to every step that may
    follow it (another edge, from where it arrives, in a colour that may come next).
    The ``clock`` is read at every step (its arcs are up to a degree's worth)."""
    arcs: list[Arc] = []
    for s in steps:
        if puzzle.may_start(s.src) and puzzle.may_come_first(s.colour) and \
                (pivot is None or s.edge == pivot):
            arcs.append(Arc(DEPOT, node_of[s], model.new_bool_var(f"start_{node_of[s]}"),
                            (s,), first=True, start=s.src))
        if puzzle.may_end(s.dst):
            arcs.append(Arc(node_of[s], DEPOT, model.new_bool_var(f"end_{node_of[s]}"),
                            end=(s.dst, s.colour)))
    leaving: dict[int, list[Step]] = defaultdict(list)
    for s in steps:
        leaving[s.src].append(s)
    for s in steps:
        clock.check()
        for t in leaving[s.dst]:
            if t.edge != s.edge and puzzle.colour_may_follow(s.colour, t.colour):
                arcs.append(Arc(node_of[s], node_of[t],
                                model.new_bool_var(f"a{node_of[s]}_{node_of[t]}"), (t,)))
    return arcs


def encode_edge_circuit(puzzle: Puzzle, *, break_symmetry: bool = True,
                        clock: BuildClock = NO_DEADLINE) -> Encoding:
    """Build the model for an exactly-once or at-most-once puzzle (see the module doc),
    by the ``clock``'s deadline (:class:`~.encoding.BuildStopped` past it)."""
    model = cp_model.CpModel()
    per_edge = usable_steps(puzzle)
    steps = [s for group in per_edge for s in group]
    node_of = {s: i + 1 for i, s in enumerate(steps)}  # circuit node of each step
    x = {s: model.new_bool_var(f"e{s.edge}_{s.src}to{s.dst}") for s in steps}

    _add_edge_use(model, puzzle, per_edge, x)
    pivot = _pivot_edge(puzzle, per_edge) if break_symmetry else None

    arcs = _step_arcs(model, puzzle, steps, node_of, pivot, clock)
    _add_circuit(model, puzzle, x, arcs, node_of, clock)

    length = sum(x.values()) if x else 0
    params: dict[str, int] = {}
    if puzzle.objective is Objective.SHORTEST:
        model.minimize(length)
    elif puzzle.wants_longest:
        model.maximize(length)  # the skippable steps, as many on the circuit as can be
    if not (puzzle.objective is Objective.SHORTEST or puzzle.wants_longest) \
            or puzzle.use is EdgeUse.EXACTLY_ONCE:
        # No real objective to bound: the LP relaxation only costs time (measured on
        # Euler circuits and alternating trails, solvable or not: docs/benchmarks.md).
        params["linearization_level"] = 0
    rule = "exactly once" if puzzle.use is EdgeUse.EXACTLY_ONCE else "at most once"
    return Encoding(
        model, arcs, length,
        what=f"oriented-edge circuit model, each edge {rule}",
        proof_note=(f"the circuit over {len(steps)} oriented edges and a depot "
                    f"({len(arcs)} arcs) has no solution"),
        size={"circuit_nodes": len(steps) + 1, "arcs": len(arcs),
              "pivot_edge": -1 if pivot is None else pivot},
        params=params,
    )


def _add_circuit(model: cp_model.CpModel, puzzle: Puzzle, x: dict[Step, cp_model.IntVar],
                 arcs: list[Arc], node_of: dict[Step, int], clock: BuildClock) -> None:
    """The circuit over ``arcs``, the closed walk's join and the balance equations, the
    ``clock`` read between them (each is a pass over every arc)."""
    clock.check()
    steps = list(x)
    add_circuit_checked(model, arcs, [(node_of[s], x[s].Not()) for s in steps])
    clock.check()
    if puzzle.closed:
        add_closed_join(model, puzzle, arcs)
        clock.check()
    _add_balance(model, puzzle, steps, x, arcs)


def _add_edge_use(model: cp_model.CpModel, puzzle: Puzzle, per_edge: list[list[Step]],
                  x: dict[Step, cp_model.IntVar]) -> None:
    """Orientations of one edge exclude each other; exactly-once also needs one of them."""
    exactly = puzzle.use is EdgeUse.EXACTLY_ONCE
    for group in per_edge:
        lits = [x[s] for s in group]
        if exactly:
            if lits:
                model.add_exactly_one(lits)
            else:
                model.add_bool_or([])  # an uncoloured edge under a colour rule: unusable
        elif len(lits) > 1:
            model.add_at_most_one(lits)


def _pivot_edge(puzzle: Puzzle, per_edge: list[list[Step]]) -> int | None:
    """An edge a closed exactly-once walk may be rotated to start with, or ``None``.

    Every edge is on the walk, and a rotation of a closed walk keeps every rule except
    where it starts and which colour comes first; so an edge whose every step starts at
    an allowed start-and-end node with an allowed first colour is a sound pivot.
    """
    if not (puzzle.closed and puzzle.use is EdgeUse.EXACTLY_ONCE):
        return None
    for e, group in enumerate(per_edge):
        if group and all(puzzle.may_start(s.src) and puzzle.may_end(s.src)
                         and puzzle.may_come_first(s.colour) for s in group):
            return e
    return None


def _add_balance(model: cp_model.CpModel, puzzle: Puzzle, steps: list[Step],
                 x: dict[Step, cp_model.IntVar], arcs: list[Arc]) -> None:
    """Per node: steps leaving minus steps entering = (walk starts here) - (ends here).

    A closed walk starts where it ends, so its right-hand side is plainly 0, which lets
    presolve see odd degrees at once (each two-way edge adds 2 x - 1 to the sum).
    """
    flow: dict[int, list[tuple[cp_model.IntVar, int]]] = defaultdict(list)
    for s in steps:
        if s.src != s.dst:
            flow[s.src].append((x[s], 1))
            flow[s.dst].append((x[s], -1))
    for arc in [] if puzzle.closed else arcs:
        if arc.start is not None:
            flow[arc.start].append((arc.lit, -1))
        if arc.end is not None:
            flow[arc.end[0]].append((arc.lit, 1))
    for terms in flow.values():
        model.add(sum(coef * lit for lit, coef in terms) == 0)
