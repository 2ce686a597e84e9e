"""Questions the CP-SAT walk model answers for the layers above it (repair, explain).

Two queries, each one CP-SAT model built with :func:`~trailkit.solvers.backends.cpsat.encode` and
extra constraints, stated in walk terms so that callers never touch the model:

* :func:`walk_using`: a walk, edges used at most once, that uses every edge of a given
  set (the other edges optional): how ``explain`` tests whether a set of edges is a
  core;
* :func:`fewest_choices`: over a puzzle with *optional* edges, each switched on or off
  by numbered choices, the fewest choices that leave a walk obeying the rules: how
  ``repair`` finds the fewest changes. :class:`EdgeChoices` says what each choice does,
  in edges: it makes an extra edge available (the walk must then use it: a choice the
  walk does not need is waste), it swaps an original edge for an extra one (a
  recolouring), or it takes an original edge out (a removal, for edges used exactly
  once).

OPTIMAL is CP-SAT's proof of the fewest; the caller decides what that proof is worth.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat.python import cp_model

from trailkit.models.answer import Walk
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits, Optimum
from trailkit.solvers.backends.cpsat import encode, make_solver

__all__ = ["EdgeChoices", "fewest_choices", "walk_using"]


def walk_using(puzzle: Puzzle, required: Collection[int], limits: Limits
               ) -> tuple[str, Walk | None]:
    """A walk of ``puzzle`` with edges used at most once that uses every edge in
    ``required``: ``("solved", walk)``, ``("unsolvable", None)`` or ``("unknown", None)``."""
    relaxed = replace(puzzle, use=EdgeUse.AT_MOST_ONCE, objective=Objective.ANY, expect=None)
    if not required:  # the circuit model always takes a step: the empty walk is apart
        still = relaxed.empty_walk_nodes()
        if still:
            return "solved", Walk((still[0],), ())
    enc = encode(relaxed, break_symmetry=False, node_circuit=False)
    used: dict[int, list[Any]] = {}
    for arc in enc.arcs:
        if arc.steps:
            used.setdefault(arc.steps[0].edge, []).append(arc.lit)
    for e in required:
        if not used.get(e):
            return "unsolvable", None
        enc.model.add(sum(used[e]) == 1)
    solver = make_solver(limits, tuning=enc.params)
    # presolve spends far longer than the search on these small models
    solver.parameters.cp_model_presolve = False
    status = solver.solve(enc.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "solved", enc.decode(solver.boolean_value)
    return ("unsolvable" if status == cp_model.INFEASIBLE else "unknown"), None


@dataclass(frozen=True)
class EdgeChoices:
    """What each numbered choice does to an extended puzzle's edges.

    ``adds`` maps an extra edge to the choice that makes it available; ``swaps`` maps an
    original edge to the choices that replace it by one of the extra edges (at most one
    of them may be taken); ``removes`` maps an original edge to the choice that takes it
    out; choices in ``unused`` may never be taken (a removal where removing cannot help).
    Edges ``0 .. originals - 1`` are the original puzzle's. ``base_use`` is how often the
    original puzzle uses each edge: exactly once (every
    original edge, or what replaced it, is walked unless removed), at most once, or any
    number of times (an arc of the state model is available when one of its edges is).
    """

    count: int
    originals: int
    base_use: EdgeUse
    adds: Mapping[int, int] = field(default_factory=dict)
    swaps: Mapping[int, Sequence[int]] = field(default_factory=dict)
    removes: Mapping[int, int] = field(default_factory=dict)
    unused: Collection[int] = ()


def fewest_choices(extended: Puzzle, choices: EdgeChoices, limits: Limits, *,
                   exclude: Sequence[Sequence[int]] = (), cost: int | None = None,
                   at_most: int | None = None, at_least: int = 0) -> Optimum:
    """The fewest ``choices`` that leave ``extended`` a walk (module docstring).

    ``exclude`` lists choice sets not to find again (to list every optimum one at a
    time); ``cost`` fixes the number of choices, ``at_most`` bounds it, and ``at_least``
    is a lower bound proven elsewhere, which lets CP-SAT stop as soon as it meets it.
    """
    began = time.perf_counter()
    enc = encode(extended, break_symmetry=False, node_circuit=False)
    model = enc.model
    model.clear_objective()  # type: ignore[no-untyped-call]  # OR-Tools: no hints here
    y = [model.new_bool_var(f"choice{i}") for i in range(choices.count)]
    for group in choices.swaps.values():
        if len(group) > 1:
            model.add_at_most_one([y[i] for i in group])
    if choices.base_use is EdgeUse.ANY:
        _reusable_arcs(enc.arcs, choices, y, model)
    else:
        _once_only_edges(enc.arcs, choices, y, model)
    for i in choices.unused:
        model.add(y[i] == 0)
    for chosen in exclude:
        model.add_bool_or([y[i].Not() for i in chosen])
    total = sum(y) if y else 0
    if cost is not None:
        model.add(total == cost)
    if at_most is not None:
        model.add(total <= at_most)
    if at_least > 0:
        model.add(total >= at_least)
    model.minimize(total)
    solver = make_solver(limits, tuning=enc.params)
    status = solver.solve(model)
    return _choice(solver, status, y, began)


def _reusable_arcs(arcs: Sequence[Any], choices: EdgeChoices, y: list[Any],
                   model: cp_model.CpModel) -> None:
    """An arc of the state model may be taken only when one of its edges is there: an
    original edge not swapped out, or an extra edge whose choice is taken."""
    for arc in arcs:
        if not arc.steps:
            continue
        available = []
        for step in arc.steps:
            if step.edge in choices.adds:
                available.append(y[choices.adds[step.edge]])
            elif step.edge in choices.swaps:
                available.append(1 - sum(y[i] for i in choices.swaps[step.edge]))
            else:
                break  # a plain original edge: the arc is always there
        else:
            model.add(arc.lit <= sum(available))


def _once_only_edges(arcs: Sequence[Any], choices: EdgeChoices, y: list[Any],
                     model: cp_model.CpModel) -> None:
    """An extra edge is walked exactly when its choice is taken; an original edge (with
    what replaces it) at most once, and exactly once when the puzzle says so unless it
    is removed."""
    by_edge: dict[int, list[Any]] = {}
    for arc in arcs:
        for step in arc.steps[:1]:
            by_edge.setdefault(step.edge, []).append(arc.lit)
    for e, i in choices.adds.items():
        model.add(sum(by_edge.get(e, [])) == y[i])
    replaced_by = {i: e for e, i in choices.adds.items()}
    for e in range(choices.originals):
        copies = [replaced_by[i] for i in choices.swaps.get(e, [])]
        used = sum(by_edge.get(e, [])) + sum(sum(by_edge.get(c, [])) for c in copies)
        if choices.base_use is EdgeUse.EXACTLY_ONCE:
            removed = y[choices.removes[e]] if e in choices.removes else 0
            model.add(used + removed == 1)
        else:
            model.add(used <= 1)


def _choice(solver: cp_model.CpSolver, status: Any, y: list[Any], began: float) -> Optimum:
    """CP-SAT's answer as a :class:`Optimum`."""
    elapsed = time.perf_counter() - began
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = tuple(i for i in range(len(y)) if solver.boolean_value(y[i]))
        return Optimum("optimal" if status == cp_model.OPTIMAL else "feasible", len(chosen),
                      chosen, elapsed)
    if status == cp_model.INFEASIBLE:
        return Optimum("infeasible", time_s=elapsed,
                      detail="CP-SAT proved that no set of the allowed changes makes the "
                             "puzzle solvable")
    return Optimum("unknown", time_s=elapsed,
                  detail=f"CP-SAT stopped with {solver.status_name(status)} after "
                         f"{elapsed:.2f} s")
