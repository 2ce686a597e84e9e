"""Walks counted through checked ``layers``: the claims ``unique`` and ``count``.

Once :mod:`trailkit.models.checking.shortest` has checked that layer ``i`` holds every
(node, phase) state ``i`` steps can reach, and that no layer before ``L`` lets the walk
stop, the walks of exactly ``L`` steps are the shortest walks, and they can be counted
without any search: every one of them is a path through the layers, one allowed step
(one edge, one direction) from each layer to the next. The count runs backwards: a state
of layer ``L`` where the walk may stop ends one walk; a state of layer ``i`` starts as
many walks as the states its steps reach in layer ``i + 1`` start, summed over its steps
(two parallel planks are two steps, so two walks). Layer 0's start states then hold the
walks from each start, and their sum is the count. States a layer holds that no walk
reaches are counted too, but no start leads to them, so they add nothing.

The numbers are exact: whole numbers in NumPy while they fit in 62 bits, Python's
integers beyond. The count certificate (names, never internal indices)::

    {"type": "layers", "claim": "count", "length": L, "solutions": N,
     "per_start": {"A": N, ...}, "layers": [[["A", null]], ...]}

with ``L + 1`` layers; ``per_start`` (optional) is checked start by start. A count of 0
is refused: no walk of ``L`` steps says nothing of longer walks, and that no walk exists
at all is an unsolvability certificate's claim.

>>> from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
>>> from trailkit.models.checking.shortest import LayerMoves
>>> p = Puzzle.build(edges=[("a", "b", "red"), ("b", "c", "blue"), ("b", "c", "blue")],
...                  colours=ColourRule.from_cycle(["red", "blue"]), start=["a"],
...                  end=["c"], use=EdgeUse.ANY)
>>> layers = [np.array([0]), np.array([1 * 3 + 1]), np.array([2 * 3 + 2])]
>>> walks_by_start(p, LayerMoves(p), layers)
{0: 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural

__all__ = ["count_verdict", "walks_by_start"]

_WIDE = 1 << 62
"""Past this, a count leaves NumPy's 64-bit integers for Python's."""


class Steps(Protocol):
    """The checker's table of steps (:class:`~trailkit.models.checking.shortest.LayerMoves`)."""

    phases: int

    def steps(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every allowed step out of ``states``: (index of the state it leaves, the state it
        reaches)."""


def walks_by_start(puzzle: Puzzle, moves: Steps, layers: list[np.ndarray],
                   taken: Sequence[tuple[np.ndarray, np.ndarray]] = ()) -> dict[int, int]:
    """For each start node, the walks of ``len(layers) - 1`` steps from it that end where
    the walk may stop, counted backwards through ``layers`` (sorted state numbers,
    checked closed by the caller), stepping by ``moves`` (or by each layer's steps as the
    closure check ``taken`` them)."""
    k = moves.phases
    may_end = np.ones(puzzle.num_nodes, dtype=bool)
    if puzzle.end is not None:
        may_end[:] = False
        may_end[sorted(puzzle.end)] = True
    ways: np.ndarray = may_end[layers[-1] // k].astype(np.int64)
    for i in range(len(layers) - 2, -1, -1):
        owner, reached = taken[i] if i < len(taken) else moves.steps(layers[i])
        gained = _in_layer(ways, layers[i + 1], reached)
        ways = _sums(owner, gained, len(layers[i]))
    first = layers[0]
    out = {}
    for node in sorted(set(puzzle.start_nodes())):
        at = int(np.searchsorted(first, node * k))
        out[node] = int(ways[at]) if at < len(first) and first[at] == node * k else 0
    return out


def _in_layer(ways: np.ndarray, layer: np.ndarray, reached: np.ndarray) -> np.ndarray:
    """The walks from each of the states ``reached``: its ``ways`` where ``layer`` (sorted)
    holds it, 0 where it does not (a step back to an earlier layer, in the compact form:
    no shortest walk takes it)."""
    at = np.minimum(np.searchsorted(layer, reached), max(len(layer) - 1, 0))
    if not len(layer):
        return np.zeros(len(reached), dtype=ways.dtype)
    inside = layer[at] == reached
    gained = ways[at]
    if not inside.all():
        gained = np.where(inside, gained, 0).astype(ways.dtype)
    return np.asarray(gained)


def _sums(owner: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``values`` summed by ``owner`` into ``size`` exact totals (Python integers once a
    total could pass 62 bits)."""
    if values.dtype != object and len(values):
        widest = int(values.max()) * int(np.bincount(owner).max())
        if widest >= _WIDE:
            values = values.astype(object)
    out = np.zeros(size, dtype=values.dtype)
    np.add.at(out, owner, values)
    return out


def count_verdict(puzzle: Puzzle, moves: Steps, layers: list[np.ndarray],
                  data: Mapping[str, Any], length: int,
                  taken: Sequence[tuple[np.ndarray, np.ndarray]] = (), *,
                  states: int | None = None, first: bool = False) -> Verdict:
    """The ``count`` claim of a certificate whose ``layers`` (``length + 1`` of them) the
    caller checked closed, none before ``length`` letting the walk stop: the walks counted
    through them are as many as ``data["solutions"]`` says, at least one, and per start
    as ``data["per_start"]`` says when it is given. ``states``: how many the layers hold,
    when not all of them count; ``first``: the compact form (its words)."""
    stated = data.get("solutions")
    if isinstance(stated, bool) or not isinstance(stated, int):
        return Verdict([f"the number of solutions must be a whole number, not {stated!r}"])
    found = walks_by_start(puzzle, moves, layers, taken)
    total = sum(found.values())
    if total == 0:
        return Verdict([f"no walk of {plural(length, 'step')} solves the puzzle, counted "
                        "through the layers: the layers count the shortest walks only, "
                        "and a count of 0 takes an unsolvability certificate"])
    if total != stated:
        return Verdict([f"the certificate claims {plural(stated, 'solution')}, but "
                        f"{plural(total, 'walk')} of {plural(length, 'step')} "
                        f"solve{'s' if total == 1 else ''} the puzzle, counted through the "
                        "layers"])
    per_start = data.get("per_start")
    if per_start is not None:
        names = {puzzle.nodes[node]: walks for node, walks in found.items()}
        if set(map(str, per_start)) != set(names):
            return Verdict(["per_start must name every start node once: "
                            f"{', '.join(sorted(names))}"])
        for name, walks in sorted(names.items()):
            if per_start[name] != walks:
                return Verdict([f"the certificate claims {per_start[name]!r} walks from "
                                f"{name}, but the layers count {walks:,}"])
    if states is None:
        states = sum(len(layer) for layer in layers)
    return Verdict([], check_words.count(length, states, total,
                                         len(names) if per_start is not None else 0,
                                         first=first))
