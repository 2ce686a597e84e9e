"""The fewest changes by optimisation: CP-SAT over the walk model with optional candidates.

The puzzle is extended with every candidate at once: each new edge and each
recolouring (a second copy of the edge in its new colour) becomes an extra edge, and
the candidates become the choices of :func:`trailkit.solvers.backends.cpsat.choices.fewest_choices`
(the CP-SAT walk model over the extended puzzle, edges used *at most* once or reused),
where a 0/1 variable per candidate says it is chosen, and:

* an added edge or a recoloured copy is chosen exactly when the walk uses it (a chosen
  one the walk never used would be a wasted change);
* an original edge of an exactly-once puzzle is used, or its recoloured copy is, or it
  is removed (a removal is chosen exactly when neither is used);
* with reusable edges an arc of the state model may be taken only when one of its
  edges is there: an original edge not recoloured, or a chosen candidate;
* the objective is the number of chosen candidates.

OPTIMAL is CP-SAT's proof that no repair needs fewer changes; the caller confirms it by
a second method before calling a repair minimal. ``exclude`` blocks change sets already
found, so all minimum repairs can be listed one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits, Optimum
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["Optimum", "change_roles", "extended_puzzle", "optimise_changes",
           "with_empty_walk"]


def extended_puzzle(puzzle: Puzzle, changes: Sequence[Change]) -> tuple[Puzzle, dict[int, int]]:
    """The puzzle with every add and recolour candidate as an extra edge, and the map
    from each extra edge's index to its candidate's index."""
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    tail, head = list(puzzle.tail), list(puzzle.head)
    colour = list(puzzle.colour) if puzzle.colour is not None else [-1] * puzzle.num_edges
    directed = [puzzle.is_directed(e) for e in range(puzzle.num_edges)]
    palette = list(puzzle.colour_names)
    extra: dict[int, int] = {}
    for i, change in enumerate(changes):
        if change.op is Op.REMOVE:
            continue
        extra[len(tail)] = i
        tail.append(index[change.u])
        head.append(index[change.v])
        if change.colour is not None and change.colour not in palette:
            palette.append(change.colour)
        colour.append(-1 if change.colour is None else palette.index(change.colour))
        directed.append(change.directed)
    use = EdgeUse.ANY if puzzle.use is EdgeUse.ANY else EdgeUse.AT_MOST_ONCE
    ext = replace(puzzle, tail=tail, head=head, colour=colour, colour_names=tuple(palette),
                  directed=directed if any(directed) else None, edge_ids=None, use=use,
                  objective=Objective.ANY, expect=None)
    return ext, extra


def change_roles(changes: Sequence[Change]) -> tuple[dict[int, list[int]], dict[int, int]]:
    """By original edge: the indices of its recolourings, and of its removal."""
    recolours: dict[int, list[int]] = {}
    removal: dict[int, int] = {}
    for i, change in enumerate(changes):
        if change.op is Op.RECOLOUR and change.edge is not None:
            recolours.setdefault(change.edge, []).append(i)
        elif change.op is Op.REMOVE and change.edge is not None:
            removal[change.edge] = i
    return recolours, removal


def with_empty_walk(found: Optimum, puzzle: Puzzle, changes: Sequence[Change], *,
                    exclude: Sequence[Sequence[int]] = (), cost: int | None = None,
                    at_most: int | None = None) -> Optimum:
    """``found`` or, if better, the repair the walk models cannot see: every edge
    removed, leaving the empty walk (it solves an exactly-once puzzle without edges
    when some allowed start is an allowed end; the models always take a step)."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or not puzzle.num_edges:
        return found
    removal = {c.edge: i for i, c in enumerate(changes) if c.op is Op.REMOVE}
    if len(removal) < puzzle.num_edges:
        return found
    starts, ends = set(puzzle.start_nodes()), set(puzzle.end_nodes())
    chosen = tuple(sorted(removal.values()))
    k = len(chosen)
    if not starts & ends or (cost is not None and k != cost) or (
            at_most is not None and k > at_most) or any(
            set(chosen) == set(x) for x in exclude):
        return found
    if found.status in ("optimal", "feasible") and found.cost is not None and found.cost <= k:
        return found
    if found.status == "unknown":
        return Optimum("feasible", k, chosen, found.time_s, "every edge removed")
    return Optimum("optimal", k, chosen, found.time_s, "every edge removed: the empty walk")


def optimise_changes(puzzle: Puzzle, changes: Sequence[Change], limits: Limits, *,
                     exclude: Sequence[Sequence[int]] = (), cost: int | None = None,
                     at_most: int | None = None, at_least: int = 0) -> Optimum:
    """Minimise the number of ``changes`` that make ``puzzle`` solvable (module docstring).

    ``cost`` fixes the number of changes (used to list every repair of the optimum);
    ``at_most`` bounds it (``--max-changes``); ``at_least`` is a lower bound proven by
    another argument (parity), which lets CP-SAT stop as soon as it meets it. Needs
    OR-Tools.
    """
    from trailkit.solvers.backends.cpsat.choices import (  # loads OR-Tools
        EdgeChoices,
        fewest_choices,
    )

    ext, extra = extended_puzzle(puzzle, changes)
    recolours, removal = change_roles(changes)
    useless = () if puzzle.use is EdgeUse.EXACTLY_ONCE else tuple(removal.values())
    choices = EdgeChoices(len(changes), puzzle.num_edges, puzzle.use, adds=extra,
                          swaps=recolours, removes=removal, unused=useless)
    found = fewest_choices(ext, choices, limits, exclude=exclude, cost=cost,
                           at_most=at_most, at_least=at_least)
    return with_empty_walk(found, puzzle, changes, exclude=exclude, cost=cost,
                           at_most=at_most)
