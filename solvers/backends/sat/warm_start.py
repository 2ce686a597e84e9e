"""A starting orientation for the transition encoding: the solver's first guess, not a rule.

On a dense multigraph the hard part of the transition encoding is finding an
orientation that balances every node (as many ends arrive as leave): on a dense trail
with its edges written in random directions, CaDiCaL finds one at once from this
guess, and from its default phases found none in the time measured
(``docs/benchmarks.md``). The guess pairs the edge ends at each node (one-way ends
first, an arriving one with a leaving one), follows those pairs into trails and walks
each trail one way: where every edge is two-way, every node is then balanced except
the ends of the open trails. Within each bundle of parallel edges the guess is put in the
order of the bundle clauses (:mod:`trailkit.models.formulas.parallel_edges`).

The guess changes nothing in the formula, so it cannot change an answer or a proof:
the solver gets it as its preferred phases, and where the formula has no pair
variables (every node free) also as assumptions for one first call, which either
propagates to a model at once or fails and is dropped.
"""

from __future__ import annotations

from collections.abc import Callable

from trailkit.models.formulas.parallel_edges import bundles, reference_node
from trailkit.models.formulas.transition_encoding import TRUE, TransitionMap, ends_at
from trailkit.models.puzzle import Puzzle

__all__ = ["warm_start"]


def _couples(puzzle: Puzzle) -> dict[int, int]:
    """At each node, the ends paired off, greedily: one-way arrivals first (with a one-way
    departure, else a two-way end), then one-way departures (with two-way ends), then
    two-way ends with each other; always with an end whose colour may follow (or, for
    the second end of the couple arriving, precede) theirs. Ends left without a partner
    (an odd degree, colours that do not fit) end their trail."""
    partner: dict[int, int] = {}
    colour = puzzle.colour if puzzle.colour is not None else [-1] * puzzle.num_edges
    follows = puzzle.colour_may_follow
    palette = sorted({-1, *colour})
    after = {c: [d for d in palette if follows(c, d)] for c in palette}
    before = {c: [d for d in palette if follows(d, c)] for c in palette}
    either = {c: sorted(set(after[c]) | set(before[c])) for c in palette}
    for here in ends_at(puzzle):
        pools: dict[tuple[str, int], list[int]] = {}
        for end in reversed(here):
            role = "either" if not _fixed(puzzle, end // 2) else "in" if end % 2 else "out"
            pools.setdefault((role, colour[end // 2]), []).append(end)

        plan = [("in", [("out", after), ("either", after)]),
                ("out", [("either", before)]), ("either", [("either", either)])]
        for role, options in plan:
            for c in palette:
                pool = pools.get((role, c), [])
                while pool:
                    a = pool.pop()
                    b = next((b for other, fit in options
                              if (b := _take(pools, other, fit[c])) is not None), None)
                    if b is not None:
                        partner[a] = b
                        partner[b] = a
    return partner


def _take(pools: dict[tuple[str, int], list[int]], role: str, colours: list[int]
          ) -> int | None:
    """An unpaired end of ``role`` with one of ``colours``, taken out of its pool."""
    for c in colours:
        pool = pools.get((role, c))
        if pool:
            return pool.pop()
    return None


def _fixed(puzzle: Puzzle, e: int) -> bool:
    return puzzle.is_directed(e) or puzzle.tail[e] == puzzle.head[e]


def warm_start(puzzle: Puzzle, tmap: TransitionMap) -> list[int]:
    """The guess as literals: ``d[e]`` or ``-d[e]`` for each two-way edge, and where the
    formula has pair variables, each pair true when the guess's trails take it."""
    partner = _couples(puzzle)
    forward: list[bool | None] = [None] * puzzle.num_edges
    taken: list[tuple[int, int]] = []  # (arriving end, leaving end) on the trails

    def walk_from(end: int) -> None:  # leave by ``end``, follow the couples
        while forward[end // 2] is None:
            e = end // 2
            forward[e] = end % 2 == 0
            other = partner.get(end ^ 1)
            if other is None:
                return
            taken.append((end ^ 1, other))
            end = other

    unpaired = [end for here in ends_at(puzzle) for end in here if end not in partner]
    for end in unpaired:
        walk_from(end)
    for e in sorted(range(puzzle.num_edges), key=lambda e: not _fixed(puzzle, e)):
        walk_from(2 * e)
    oriented = [bool(f) for f in forward]
    move = _bundle_order(puzzle, oriented)
    hint = [d if oriented[e] else -d for e, d in enumerate(tmap.orientation) if d != TRUE]
    if tmap.pairs:
        on = {(move(i), move(j)) for i, j in taken}
        hint += [var if (i, j) in on else -var for var, i, j in tmap.pairs]
    return hint


def _bundle_order(puzzle: Puzzle, forward: list[bool]) -> Callable[[int], int]:
    """Relabel each two-way bundle's edges as the order clauses want (those walked from
    the reference node first), updating ``forward``; return the map of edge ends."""
    relabel: dict[int, int] = {}
    for group in bundles(puzzle):
        if _fixed(puzzle, group[0]):
            continue
        u = reference_node(puzzle, group[0])
        from_u = [e for e in group if forward[e] == (puzzle.tail[e] == u)]
        rest = [e for e in group if forward[e] != (puzzle.tail[e] == u)]
        for k, (new, old) in enumerate(zip(group, from_u + rest, strict=True)):
            relabel[old] = new
            forward[new] = (k < len(from_u)) == (puzzle.tail[new] == u)

    def move(end: int) -> int:
        old = end // 2
        new = relabel.get(old, old)
        if new == old:
            return end
        node = puzzle.head[old] if end % 2 else puzzle.tail[old]
        return 2 * new + (puzzle.tail[new] != node)

    return move
