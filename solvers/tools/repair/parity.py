"""Euler repairs by counting: lower bounds on the changes, and the direct additions.

**Lower bound** (any exactly-once puzzle, colours or not): a trail has at most two
nodes that touch an odd number of edges (none when closed), and adding or removing an
edge changes that parity at exactly its two ends (a recolouring changes none). So at
least ``ceil((odd - allowed) / 2)`` adds and removes are needed; with additions only,
every added edge joins at most two pieces of the graph, so at least ``pieces - 1``. An
odd node that no allowed change touches stays odd: more of those than a trail allows
means no repair exists at all.

**Direct additions** (undirected, no colour rule, new edges between any two nodes, no
protected node, no start or end fixed): the classical count, with a construction. With
one piece, pair up the odd nodes (all of them for a closed walk, all but two for an
open one): ``odd / 2`` (or ``odd / 2 - 1``) new edges. With ``k >= 2`` pieces, link the
pieces in a ring through their odd nodes (a piece without odd nodes is entered and left
at one node), pairing the other odd nodes inside each piece: ``sum(max(1, odd_i / 2))``
new edges, one fewer for an open walk (the ring opened into a chain). That count meets
the lower bounds above whenever there is one piece; with several it is the known
optimum for Eulerising a graph (each piece needs two new edge ends, and each of its
odd nodes one), which this module's caller confirms with a second method before
calling it minimal.

>>> from trailkit.models.puzzle import Puzzle
>>> k = Puzzle.build(kind="trail", edges=[("A", "B"), ("A", "B"), ("A", "C"), ("A", "C"),
...                                      ("A", "D"), ("B", "D"), ("C", "D")])
>>> change_lower_bound(k, has_add=True, has_remove=False, fixed_odd=0)[0]
1
>>> [c.describe(k) for c in direct_additions(k)]
['add a new edge C-D']
"""

from __future__ import annotations

from collections import defaultdict

from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.solvers.backends.direct.structural import components
from trailkit.solvers.tools.repair.changes import Change, Op

__all__ = ["INFINITE", "change_lower_bound", "direct_additions", "direct_additions_apply",
           "odd_nodes"]

#: The bound when no set of allowed changes can repair the puzzle.
INFINITE = 1 << 30


def odd_nodes(puzzle: Puzzle) -> list[int]:
    """The nodes that touch an odd number of edges (a loop counts twice)."""
    deg = puzzle.degrees()
    return [v for v, d in enumerate(deg) if d % 2]


def _pieces(puzzle: Puzzle) -> dict[int, list[int]]:
    """The pieces of the graph that hold an edge: representative -> its nodes."""
    root = components(puzzle.num_nodes, puzzle.tail, puzzle.head)
    with_edges = {root[u] for u in puzzle.tail}
    pieces: dict[int, list[int]] = defaultdict(list)
    for v in range(puzzle.num_nodes):
        if root[v] in with_edges:
            pieces[root[v]].append(v)
    return dict(pieces)


def change_lower_bound(puzzle: Puzzle, *, has_add: bool, has_remove: bool,
                       fixed_odd: int) -> tuple[int, str]:
    """A lower bound on the changes any repair of an exactly-once puzzle needs, and why.

    ``has_add`` / ``has_remove``: whether additions / removals are among the allowed
    changes; ``fixed_odd``: odd nodes no allowed change touches. Returns ``(0, "")``
    for other puzzles (no bound known) and ``(INFINITE, why)`` when nothing can help.
    """
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return 0, ""
    allowed = 0 if puzzle.closed else 2
    odd = len(odd_nodes(puzzle))
    ends = "none" if puzzle.closed else "two"
    if odd > allowed and (fixed_odd > allowed or not (has_add or has_remove)):
        why = (f"{fixed_odd} of the {odd} nodes that touch an odd number of edges can be "
               "touched by no allowed change" if has_add or has_remove else
               f"{odd} nodes touch an odd number of edges and recolouring changes no count")
        return INFINITE, f"{why}, and a walk that uses every edge once allows {ends}"
    best, why = 0, ""
    if odd > allowed:
        best = (odd - allowed + 1) // 2
        why = (f"{odd} nodes touch an odd number of edges, a walk that uses every edge once "
               f"allows {ends}, and each change alters that count at two nodes at most, so "
               f"at least {best} changes are needed")
    pieces = len(_pieces(puzzle))
    if has_add and not has_remove and pieces - 1 > best:
        best = pieces - 1
        why = (f"the edges fall into {pieces} separate pieces and each new edge joins at "
               f"most two of them, so at least {best} new edges are needed")
    return best, why


def direct_additions_apply(puzzle: Puzzle, rules: RepairRules) -> bool:
    """Whether :func:`direct_additions` gives the optimum for these rules."""
    return (puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.colours is None
            and not puzzle.any_directed and rules.add == "any" and not rules.protect
            and not rules.remove and puzzle.start is None and puzzle.end is None)


def direct_additions(puzzle: Puzzle) -> list[Change]:
    """The fewest new edges that make an undirected puzzle without rules an Euler trail
    (or circuit when closed); see the module docstring. Empty when none is needed."""
    names = puzzle.nodes
    odd = set(odd_nodes(puzzle))
    pieces = list(_pieces(puzzle).values())
    adds: list[tuple[int, int]] = []
    if len(pieces) <= 1:
        ring = sorted(odd)
        if not puzzle.closed:
            ring = ring[2:]
        adds = [(ring[i], ring[i + 1]) for i in range(0, len(ring), 2)]
    else:
        ports: list[tuple[int, int]] = []
        for nodes in pieces:
            own = [v for v in nodes if v in odd]
            if not own:
                ports.append((nodes[0], nodes[0]))
                continue
            ports.append((own[0], own[1]))
            rest = own[2:]
            adds += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
        links = [(ports[i][1], ports[(i + 1) % len(ports)][0]) for i in range(len(ports))]
        adds += links if puzzle.closed else links[:-1]
    return [Change(Op.ADD, names[min(a, b)], names[max(a, b)]) for a, b in adds]
