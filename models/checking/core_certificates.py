"""The independent checks of a *core*: edges no walk obeying the rules can all use.

A core of an exactly-once or at-most-once puzzle is a set ``C`` of its edges such that
no walk that uses each edge at most once (and obeys every other rule) uses all of
``C``; the other edges are optional. Two things are checked here, reading only the
puzzle's arrays, never the code that found the core:

* :func:`check_odd_nodes`: the ``odd-nodes`` argument that the core is one. Every
  edge at a listed node is in ``C``, loops aside, and there is an odd number of them; a
  walk using all of ``C`` then uses an odd number of edge ends at the node (a loop adds
  two), so the node is an end of the walk; a walk has two ends (none when closed), so
  more listed nodes than that rule the walk out;
* :func:`check_witness`: a walk showing that a member is necessary: it obeys the rules
  with edges used at most once, and uses every other member of the core.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("a", "c"), ("a", "d")])
>>> check_odd_nodes(p, [0, 1, 2], ["a", "b", "c", "d"])
[]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from trailkit.models.answer import Walk
from trailkit.models.checking.certificates import _named_nodes
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["check_odd_nodes", "check_witness"]


def check_odd_nodes(puzzle: Puzzle, core: Collection[int], nodes: Iterable[str]) -> list[str]:
    """Why the ``odd-nodes`` argument fails for ``core`` (edge indices); empty: it holds."""
    listed, problems = _named_nodes(puzzle, list(nodes))
    members = set(core)
    for v in listed:
        ends = 0
        for e in range(puzzle.num_edges):
            u, w = puzzle.tail[e], puzzle.head[e]
            if u == w or v not in (u, w):
                continue  # a loop adds two edge ends: it never changes the parity
            if e not in members:
                problems.append(f"node {puzzle.nodes[v]} has the edge {puzzle.edge_id(e)}, "
                                "which is not in the core")
                break
            ends += 1
        if ends % 2 == 0:
            problems.append(f"node {puzzle.nodes[v]} has an even number of core edges")
    allowed = 0 if puzzle.closed else 2
    if len(listed) <= allowed:
        problems.append(f"{len(listed)} such nodes do not rule out a walk (it has {allowed} "
                        "ends)")
    return problems


def check_witness(puzzle: Puzzle, walk: Walk, required: Collection[int]) -> list[str]:
    """Why ``walk`` fails to be a walk using every edge of ``required`` at most once."""
    relaxed = replace(puzzle, use=EdgeUse.AT_MOST_ONCE)
    problems = [str(v) for v in verify(relaxed, walk)]
    missing = set(required) - set(walk.edges)
    if missing:
        problems.append(f"the walk does not use the edges {sorted(missing)}")
    return problems
