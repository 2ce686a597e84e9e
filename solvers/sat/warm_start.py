"""A starting orientation for the transition encoding: the solver's first guess, not a rule.

On a dense multigraph the hard part of the transition encoding is finding an
orientation that balances every node (as many ends arrive as leave): measured on a
1,000-edge closed trail on 32 nodes with its edges written in random directions,
CaDiCaL found none within 120 s from its default phases, and in a fraction of a second
from this one. The guess pairs the edge ends at each node (one-way ends first, an
arriving one with a leaving one), follows those pairs into trails and walks each
trail one way: where every edge is two-way, every node is then balanced except the
ends of the open trails. Within each bundle of parallel edges the guess is put in the
order of the bundle clauses (:mod:`trailkit.models.parallel_edges`).

The guess changes nothing in the formula, so it cannot change an answer or a proof:
the solver gets it as its preferred phases, and where the formula has no pair
variables (every node free) also as assumptions for one first call, which either
propagates to a model at once or fails and is dropped.
"""

from __future__ import annotations

from trailkit.models.parallel_edges import bundles, reference_node
from trailkit.models.puzzle import Puzzle
from trailkit.models.transition_encoding import TRUE, TransitionMap, ends_at

__all__ = ["warm_start"]


def _couples(puzzle: Puzzle) -> dict[int, int]:
    """At each node, the ends paired off: one-way arrivals with one-way departures, the
    rest of those with two-way ends, then two-way ends with each other (an end left
    over at a node of odd degree has no partner)."""
    partner: dict[int, int] = {}
    for here in ends_at(puzzle):
        fixed_in = [i for i in here if _fixed(puzzle, i // 2) and i % 2]
        fixed_out = [j for j in here if _fixed(puzzle, j // 2) and not j % 2]
        free = [k for k in here if not _fixed(puzzle, k // 2)]
        ordered = []
        for i, j in zip(fixed_in, fixed_out, strict=False):
            ordered += [i, j]
        rest = fixed_in[len(fixed_out):] + fixed_out[len(fixed_in):]
        ordered += [end for pair in zip(rest, free, strict=False) for end in pair]
        ordered += rest[len(free):] + free[len(rest):]
        for a, b in zip(ordered[::2], ordered[1::2], strict=False):
            partner[a] = b
            partner[b] = a
    return partner


def _fixed(puzzle: Puzzle, e: int) -> bool:
    return puzzle.is_directed(e) or puzzle.tail[e] == puzzle.head[e]


def warm_start(puzzle: Puzzle, tmap: TransitionMap) -> list[int]:
    """Orientation literals (``d[e]`` or ``-d[e]`` for each two-way edge) of the guess."""
    partner = _couples(puzzle)
    forward: list[bool | None] = [None] * puzzle.num_edges

    def walk_from(end: int) -> None:  # leave by ``end``, follow the couples
        while forward[end // 2] is None:
            e = end // 2
            forward[e] = end % 2 == 0
            other = partner.get(end ^ 1)
            if other is None:
                return
            end = other

    unpaired = [end for here in ends_at(puzzle) for end in here if end not in partner]
    for end in unpaired:
        walk_from(end)
    for e in sorted(range(puzzle.num_edges), key=lambda e: not _fixed(puzzle, e)):
        walk_from(2 * e)
    for group in bundles(puzzle):
        if _fixed(puzzle, group[0]):
            continue
        u = reference_node(puzzle, group[0])
        from_u = sum(1 for e in group if forward[e] == (puzzle.tail[e] == u))
        for k, e in enumerate(group):
            forward[e] = (k < from_u) == (puzzle.tail[e] == u)
    return [d if forward[e] else -d for e, d in enumerate(tmap.orientation) if d != TRUE]
