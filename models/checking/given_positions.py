"""The independent checker of ``given-positions`` certificates: two givens too far apart.

``at:`` gives nodes positions (Hidato, Numbrix). If X is at position p and Y at position
q > p, the walk goes from X to Y in exactly q - p steps, each along an edge the way it
may be walked, never through an avoided node (no avoided node holds a position). The
certificate ``{"from": X, "to": Y, "parity": false}`` names the two givens; the checker
measures, by one breadth-first search over the puzzle's steps (one-way edges one way;
colour rules ignored, which only forbids steps), the fewest steps from X to Y, and
accepts when they are more than q - p (or Y cannot be reached at all).

With ``"parity": true`` it accepts when X and Y lie in one piece of the graph whose
nodes take two colours, every edge between the two, and the colours of X and Y differ
when q - p is even (agree when it is odd): every step changes the colour, so a walk of
q - p steps from X ends on the colour q - p fixes. A step along a loop keeps the colour,
so under ``visit: any`` no node of the piece may have a loop (under the other visit rules
a loop step would hold one node twice in a row). Both checks take linear time.

>>> from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
>>> line = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d")], use=EdgeUse.ANY,
...                     at={"a": 1, "c": 4})
>>> given_positions_verdict(line, {"from": "a", "to": "c", "parity": False}).problems
['c is 2 steps from a, which the 3 steps between their positions allow']
>>> given_positions_verdict(line, {"from": "a", "to": "c", "parity": True}).problems
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.puzzle import NodeVisit, Puzzle

__all__ = ["given_positions_verdict"]


def given_positions_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``given-positions`` certificate (module docstring); a malformed one is
    rejected."""
    try:
        return _verdict(puzzle, data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict([f"malformed given-positions certificate: {exc!r}"])


def _verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    lookup = {name: i for i, name in enumerate(puzzle.nodes)}
    ends = [lookup.get(str(data[key])) for key in ("from", "to")]
    parity = data["parity"]
    if not isinstance(parity, bool):
        return Verdict([f"parity must be true or false, not {parity!r}"])
    problems = [f"node {data[key]!r} is not in the puzzle"
                for key, v in zip(("from", "to"), ends, strict=True) if v is None]
    problems += [f"node {data[key]} is given no position"
                 for key, v in zip(("from", "to"), ends, strict=True)
                 if v is not None and v not in puzzle.at]
    if problems:
        return Verdict(problems)
    x, y = ends
    assert x is not None and y is not None  # both found above
    p, q = puzzle.at[x], puzzle.at[y]
    if q <= p:
        return Verdict([f"{data['to']} (position {q}) does not come after {data['from']} "
                        f"(position {p})"])
    if parity:
        return _parity(puzzle, x, y, q - p)
    far = _steps_apart(puzzle, x, y)
    if far is not None and far <= q - p:
        return Verdict([f"{puzzle.nodes[y]} is {far} steps from {puzzle.nodes[x]}, which the "
                        f"{q - p} steps between their positions allow"])
    return Verdict([], check_words.given_positions(
        (puzzle.nodes[x], p), (puzzle.nodes[y], q), far, parity=False))


def _steps_apart(puzzle: Puzzle, x: int, y: int) -> int | None:
    """The fewest steps from ``x`` to ``y`` through nodes not avoided (``None``: none)."""
    moves: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e in range(puzzle.num_edges):
        u, v = puzzle.tail[e], puzzle.head[e]
        moves[u].append(v)
        if not puzzle.is_directed(e):
            moves[v].append(u)
    depth = {x: 0}
    frontier = [x]
    while frontier and y not in depth:
        later = []
        for u in frontier:
            for w in moves[u]:
                if w not in depth and w not in puzzle.avoid:
                    depth[w] = depth[u] + 1
                    later.append(w)
        frontier = later
    return depth.get(y)


def _parity(puzzle: Puzzle, x: int, y: int, steps: int) -> Verdict:
    """Two colours on the piece holding ``x``, checked; their verdict on ``steps``."""
    near: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    loops = set()
    for u, v in zip(puzzle.tail, puzzle.head, strict=True):
        if u in puzzle.avoid or v in puzzle.avoid:
            continue
        if u == v:
            loops.add(u)
        else:
            near[u].append(v)
            near[v].append(u)
    colour = {x: 0}
    queue = [x]
    while queue:
        u = queue.pop()
        for w in near[u]:
            if w not in colour:
                colour[w] = 1 - colour[u]
                queue.append(w)
            elif colour[w] == colour[u]:
                return Verdict([f"the piece holding {puzzle.nodes[x]} has no two colours: "
                                f"edge {puzzle.nodes[u]}-{puzzle.nodes[w]} joins one colour"])
    if puzzle.visit is NodeVisit.ANY and loops & set(colour):
        return Verdict([f"under visit: any a walk may step along the loop at "
                        f"{puzzle.nodes[min(loops & set(colour))]}, keeping its colour"])
    if y not in colour:
        return Verdict([f"{puzzle.nodes[y]} is not in the piece holding {puzzle.nodes[x]} "
                        "(use the distance: no walk joins them)"])
    odd = colour[x] != colour[y]
    if odd == bool(steps % 2):
        return Verdict([f"every walk from {puzzle.nodes[x]} to {puzzle.nodes[y]} has an "
                        f"{'odd' if odd else 'even'} number of steps, as the {steps} between "
                        "their positions"])
    return Verdict([], check_words.given_positions(
        (puzzle.nodes[x], puzzle.at[x]), (puzzle.nodes[y], puzzle.at[y]), None, parity=True,
        odd=odd))
