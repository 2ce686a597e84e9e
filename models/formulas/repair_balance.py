"""The balance clauses of the ``repair-fewer-v1`` formula: two colours that alternate.

Where every edge is used exactly once and the colour rule is exactly a → b, b → a, a
closed walk enters and leaves each node by edges of the two colours in turn, its last step
and its first paired too, so at every node the edge ends of colour a and of colour b are
as many (what the ``alternation`` certificate checks on one puzzle,
:mod:`trailkit.models.checking.certificates`). Every change moves that difference at the
nodes it touches by a fixed amount: a new edge of colour a by +1 at each end (+2 for a
loop), of b by -1; a removed one by the opposite; a recolouring from b to a by +2 at each
end. So for each node the changes chosen must move its difference from what it is to 0.

:func:`balance_clauses` says so with one chain per node over the changes that move it:
``y[i][s]``, "the first i of them move it by s", implied step by step from ``y[0][0]``
(chosen or not), and no end but 0 allowed. Every walk of a changed puzzle satisfies them
with ``y`` set as named, so they leave the formula's models as they were; they let a solver
see at once what it would otherwise find over every step. Uncoloured edges move nothing
(a walk of a puzzle holding one cannot exist, so leaving them out keeps the argument).

>>> from trailkit.models.puzzle import ColourRule, Puzzle
>>> rule = ColourRule.from_cycle(["red", "blue"])
>>> p = Puzzle.build(edges=[("a", "b", "red"), ("b", "a", "red")], colours=rule,
...                  closed=True)
>>> clauses, top = balance_clauses(p, [("add", "a", "b", "blue", None, False)], [1], 1, 1)
>>> [] in clauses  # one blue edge cannot balance two red ones: an empty clause
True
"""

from __future__ import annotations

from collections.abc import Sequence

from trailkit.models.formulas.certified import Clause
from trailkit.models.formulas.repair_changes import Key
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["alternating_colours", "balance_clauses"]


def alternating_colours(puzzle: Puzzle) -> tuple[str, str] | None:
    """The two colours a closed exactly-once walk of ``puzzle`` must alternate, or
    ``None`` when the balance argument does not apply."""
    rule = puzzle.colours
    if rule is None or puzzle.use is not EdgeUse.EXACTLY_ONCE or not puzzle.closed or \
            len(rule.names) != 2 or rule.successors[0] != frozenset({1}) or \
            rule.successors[1] != frozenset({0}):
        return None
    return rule.names[0], rule.names[1]


def _sign(colour: object, pair: tuple[str, str]) -> int:
    return 1 if colour == pair[0] else -1 if colour == pair[1] else 0


def balance_clauses(puzzle: Puzzle, allowed: Sequence[Key], selectors: Sequence[int],
                    fewer: int, top: int) -> tuple[list[Clause], int]:
    """The balance clauses (module docstring) for the changes ``allowed`` with their
    ``selectors``, of which at most ``fewer`` are chosen (the formula says so), numbering
    new variables after ``top``; none when the argument does not apply. Returns the
    clauses and the new top variable."""
    pair = alternating_colours(puzzle)
    if pair is None:
        return [], top
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    diff = [0] * puzzle.num_nodes
    for e in range(puzzle.num_edges):
        for end in (puzzle.tail[e], puzzle.head[e]):
            diff[end] += _sign(puzzle.colour_name(e), pair)
    moves: list[dict[int, int]] = [{} for _ in range(puzzle.num_nodes)]
    for (op, tail, head, colour, edge, _), s in zip(allowed, selectors, strict=True):
        old = None if op == "add" else _old_colour(puzzle, edge)
        new = None if op == "remove" else colour
        step = _sign(new, pair) - _sign(old, pair)
        for end in (index[tail], index[head]):  # a loop moves its node twice
            if step:
                moves[end][s] = moves[end].get(s, 0) + step
    clauses: list[Clause] = []
    for v in range(puzzle.num_nodes):
        window = fewer * max((abs(amount) for amount in moves[v].values()), default=0)
        top = _chain(clauses, list(moves[v].items()), -diff[v], window, top)
    return clauses, top


def _old_colour(puzzle: Puzzle, edge: object) -> str | None:
    ids = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    return puzzle.colour_name(ids[str(edge)])


def _chain(clauses: list[Clause], moves: Sequence[tuple[int, int]], target: int,
           window: int, top: int) -> int:
    """Add "the chosen ``moves`` (selector, amount) sum to ``target``": ``y[i][s]`` implied
    from ``y[0][0]`` change by change; only the sum ``target`` may end the chain. A partial
    sum beyond ``window`` (what the fewest changes allowed can move) is ruled out."""
    if not moves and target == 0:
        return top
    reach: dict[int, int] = {}  # partial sum -> its variable, for the changes so far
    top += 1
    clauses.append([top])
    reach[0] = top
    for selector, amount in moves:
        after: dict[int, int] = {}
        for total, var in reach.items():
            for moved, lit in ((total, -selector), (total + amount, selector)):
                if abs(moved) > window:
                    clauses.append([-var, -lit])  # more than the changes allowed can move
                    continue
                if moved not in after:
                    top += 1
                    after[moved] = top
                clauses.append([-var, -lit, after[moved]])
        reach = after
    clauses += [[-var] for total, var in reach.items() if total != target]
    if target not in reach:
        clauses.append([])  # no choice of at most so many changes balances it: no walk
    return top
