"""The one checker every answer passes through before it is shown.

:func:`verify` decides whether a claimed walk obeys a puzzle's rules. It reads
only the puzzle's own arrays and shares no code with any backend, so a backend
bug cannot hide behind the checker (in the spirit of CPMpy's ``value()`` checkers
and NetworkX's path validators).

>>> from trailkit.models.puzzle import Puzzle
>>> from trailkit.models.answer import Walk
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")])
>>> verify(p, Walk((0, 1, 2), (0, 1)))
[]
>>> [v.message for v in verify(p, Walk((0, 1), (0,)))]
['edge 1 (b-c) is used 0 times; every edge must be used exactly once']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["Violation", "verify"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: ``step`` is the 0-based step it concerns (``None``: the whole walk)."""

    message: str
    step: int | None = None

    def __str__(self) -> str:
        return self.message if self.step is None else f"step {self.step + 1}: {self.message}"


def verify(puzzle: Puzzle, walk: Walk) -> list[Violation]:
    """Return every way ``walk`` breaks ``puzzle``'s rules (an empty list means valid)."""
    problems: list[Violation] = []
    n_nodes, n_edges = len(puzzle.nodes), len(puzzle.tail)
    nodes, edges = walk.nodes, walk.edges
    if not nodes and not edges and not n_nodes:
        return []  # Walk.nowhere(): a puzzle without nodes (or edges) is solved by standing still
    if len(nodes) != len(edges) + 1:
        return [Violation(f"a walk of {len(edges)} steps must visit {len(edges) + 1} nodes, "
                          f"not {len(nodes)}")]
    for v in nodes:
        if not 0 <= v < n_nodes:
            return [Violation(f"node index {v} is not a node of the puzzle")]
    for e in edges:
        if not 0 <= e < n_edges:
            return [Violation(f"edge index {e} is not an edge of the puzzle")]

    names = puzzle.nodes
    for i, e in enumerate(edges):
        a, b = nodes[i], nodes[i + 1]
        u, v = puzzle.tail[e], puzzle.head[e]
        one_way = puzzle.directed is not None and bool(puzzle.directed[e])
        fits = (u == a and v == b) or (not one_way and u == b and v == a)
        if not fits:
            arrow = "->" if one_way else "-"
            problems.append(Violation(
                f"edge {puzzle.edge_id(e)} ({names[u]}{arrow}{names[v]}) does not lead "
                f"from {names[a]} to {names[b]}", i))

    _check_use(puzzle, edges, problems)
    _check_colours(puzzle, edges, problems)

    if puzzle.start is not None and nodes[0] not in puzzle.start:
        problems.append(Violation(f"the walk starts at {names[nodes[0]]}, which is not an "
                                  "allowed start"))
    if puzzle.end is not None and nodes[-1] not in puzzle.end:
        problems.append(Violation(f"the walk ends at {names[nodes[-1]]}, which is not an "
                                  "allowed end"))
    if puzzle.closed:
        if nodes[-1] != nodes[0]:
            problems.append(Violation(f"the walk must return to its start {names[nodes[0]]} "
                                      f"but ends at {names[nodes[-1]]}"))
        if not edges and n_edges and puzzle.use is not EdgeUse.EXACTLY_ONCE:
            problems.append(Violation("a closed walk needs at least one step"))
    return problems


def _check_use(puzzle: Puzzle, edges: tuple[int, ...], problems: list[Violation]) -> None:
    if puzzle.use is EdgeUse.ANY:
        return
    uses = Counter(edges)
    limit_text = ("every edge must be used exactly once" if puzzle.use is EdgeUse.EXACTLY_ONCE
                  else "no edge may be used more than once")
    for e in range(len(puzzle.tail)):
        k = uses.get(e, 0)
        if k > 1 or (k == 0 and puzzle.use is EdgeUse.EXACTLY_ONCE):
            problems.append(Violation(f"{_edge_text(puzzle, e)} is used {k} times; {limit_text}"))


def _check_colours(puzzle: Puzzle, edges: tuple[int, ...], problems: list[Violation]) -> None:
    rule = puzzle.colours
    if rule is None:
        return
    colour = puzzle.colour
    if colour is None:
        problems.append(Violation("the puzzle has a colour rule but its edges have no colours"))
        return
    names = rule.names
    for i, e in enumerate(edges):
        if colour[e] < 0:
            problems.append(Violation(f"{_edge_text(puzzle, e)} has no colour", i))
    if problems:
        return
    if edges and puzzle.first is not None and colour[edges[0]] not in puzzle.first:
        allowed = ", ".join(sorted(names[c] for c in puzzle.first))
        problems.append(Violation(f"the first step is {names[colour[edges[0]]]} but must be "
                                  f"{allowed}", 0))
    for i in range(1, len(edges)):
        before, after = colour[edges[i - 1]], colour[edges[i]]
        if after not in rule.successors[before]:
            problems.append(Violation(f"{names[after]} may not follow {names[before]} "
                                      f"(the rule is {rule.describe()})", i))
    if puzzle.closed and edges:
        before, after = colour[edges[-1]], colour[edges[0]]
        if after not in rule.successors[before]:
            problems.append(Violation(
                f"the walk is closed, so its first colour {names[after]} must be allowed "
                f"after its last colour {names[before]}"))


def _edge_text(puzzle: Puzzle, e: int) -> str:
    one_way = puzzle.directed is not None and bool(puzzle.directed[e])
    arrow = "->" if one_way else "-"
    u, v = puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]
    return f"edge {puzzle.edge_id(e)} ({u}{arrow}{v})"
