"""The state-path model for walks whose edges may be reused (colour walks).

Why a path over states rather than a time-expanded (layered) model: after a step, all
that matters for the rest of a walk is its *state*, the node it stands on and the
colour of its last step (the colour phase; one phase when there is no colour rule).
If a walk is in the same state at two times ``i < j`` (``i >= 1``), cutting out the
steps between them leaves a shorter walk with the same first step, the same start and
the same final state, so it obeys every rule (closed walks included). Hence a
*shortest* walk never repeats a state, and it is a simple path in the state graph.
A circuit through a depot over these states is exactly such a path, so:

* the model is complete for the shortest walk: minimising its steps gives the true
  minimum, and INFEASIBLE means no walk exists at all (the argument above is the proof
  that nothing is lost, not a horizon that might be too short);
* it is small: one circuit node per state and one arc per state transition, where a
  layered model needs a copy of every step for every time up to the horizon (the
  number of states), i.e. quadratically more literals.

Circuit nodes: the depot, a *start state* ``(u, start)`` for every node a walk may start
at (no step taken yet, so it is distinct from every later state), and a state
``(v, c)`` for every (end node, colour) of some step. Parallel edges that join the same
two states in the same colour share one arc (no duplicate arcs; the arc records them
all, and counting multiplies by their number). A step that stays in its own state (a
self-loop in a colour that may follow itself) is never on a shortest walk and has no
arc (it would clash with the skip literal).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ortools.sat.python import cp_model

from trailkit.models.puzzle import Objective, Puzzle
from trailkit.solvers.backends.cpsat.encoding import (
    DEPOT,
    Arc,
    Encoding,
    Step,
    add_circuit_checked,
    add_closed_join,
    usable_steps,
)

__all__ = ["encode_state_paths"]

State = tuple[int, int]  # (node, phase); phase -2 marks a start state
START_PHASE = -2


def _state_steps(puzzle: Puzzle, steps: list[Step], states: list[State],
                 after: Callable[[Step], State], has_rule: bool
                 ) -> dict[tuple[State, State], list[Step]]:
    """The steps that lead from each state to another, grouped by the pair: a step
    leaves a state from its node when its colour may come first (a start state) or
    next (the state's phase); a step back into the same state is no move."""
    groups: dict[tuple[State, State], list[Step]] = defaultdict(list)
    leaving: dict[int, list[Step]] = defaultdict(list)
    for s in steps:
        leaving[s.src].append(s)
    for state in states:
        node, phase = state
        for s in leaving[node]:
            if phase == START_PHASE:
                ok = puzzle.may_come_first(s.colour)
            else:
                ok = not has_rule or puzzle.colour_may_follow(phase, s.colour)
            if ok and after(s) != state:
                groups[(state, after(s))].append(s)
    return groups


def _state_arcs(model: cp_model.CpModel, puzzle: Puzzle, starts: list[int],
                states: list[State], groups: dict[tuple[State, State], list[Step]],
                index: dict[State, int]) -> list[Arc]:
    """The circuit's arcs, each with its literal: the depot into each start state, one
    arc per pair of states a step joins (carrying those steps), and each state where the
    walk may end back to the depot."""
    arcs: list[Arc] = []
    for u in starts:
        arcs.append(Arc(DEPOT, index[(u, START_PHASE)], model.new_bool_var(f"start_{u}"),
                        start=u))
    for (a, b), group in groups.items():
        arcs.append(Arc(index[a], index[b], model.new_bool_var(f"a{index[a]}_{index[b]}"),
                        tuple(group), first=a[1] == START_PHASE))
    for state in states:
        node, phase = state
        if phase != START_PHASE and puzzle.may_end(node):
            arcs.append(Arc(index[state], DEPOT, model.new_bool_var(f"end_{index[state]}"),
                            end=(node, phase)))
    return arcs


def encode_state_paths(puzzle: Puzzle) -> Encoding:
    """Build the model for a reusable-edge puzzle (see the module docstring)."""
    model = cp_model.CpModel()
    steps = [s for group in usable_steps(puzzle) for s in group]
    has_rule = puzzle.colours is not None

    def after(step: Step) -> State:
        return (step.dst, step.colour if has_rule else 0)

    starts = sorted({s.src for s in steps if puzzle.may_start(s.src)
                     and puzzle.may_come_first(s.colour)})
    states: list[State] = [(u, START_PHASE) for u in starts]
    states += sorted({after(s) for s in steps})
    index = {state: i + 1 for i, state in enumerate(states)}

    groups = _state_steps(puzzle, steps, states, after, has_rule)
    arcs = _state_arcs(model, puzzle, starts, states, groups, index)

    skip = [(i + 1, model.new_bool_var(f"skip_{i + 1}")) for i in range(len(states))]
    add_circuit_checked(model, arcs, skip)
    if puzzle.closed:
        add_closed_join(model, puzzle, arcs)

    length = sum(arc.lit for arc in arcs if arc.steps) if groups else 0
    if puzzle.objective is Objective.SHORTEST:
        model.minimize(length)
    n_states = len(states) - len(starts)
    return Encoding(
        model, arcs, length,
        what="state-path model over (node, colour-phase) states, edges reusable",
        proof_note=(f"no simple path through the {n_states} (node, colour-phase) states "
                    f"and {len(starts)} start states joins an allowed start to an allowed "
                    "end; a shortest walk never repeats a state, so no walk exists"),
        size={"circuit_nodes": len(states) + 1, "arcs": len(arcs), "states": n_states},
    )
