"""The node-level circuit of a walk under node rules, as CP-SAT's ``AddCircuit`` and
MiniZinc's ``subcircuit`` both see it (CONTRACT 1.4 §7).

When no node may hold two positions of a walk (``visit: at-most-once`` or
``every-once``), the walk is a simple path (or, closed, a simple cycle) over the nodes,
so one circuit node per puzzle node says it all: an arc ``u -> v`` is "the step after
``u`` goes to ``v``", a node's self-loop is "``v`` holds no position". That is the model
the OR-Tools team recommends for Hamiltonian paths and cycles, with a circuit node per
node where the edge-level circuit has one per oriented edge (degree times fewer arcs).

:func:`node_level` says when it applies: node rules that forbid reuse, no colour rule (the
colour of a step would have to be part of a circuit node again), and edges not all
required (a walk that must use every edge and visit no node twice is a different
puzzle, which the edge-level model states directly). Parallel edges share one arc, the
arc keeping every edge it stands for (:class:`Moves`). Two facts of simple walks the
arcs alone do not say, both kept here once for every backend:

* a closed walk of two steps crosses between the same two nodes twice: with edges used
  at most once it needs two different edges (:meth:`Moves.walks`, :meth:`Moves.edges`);
* a closed walk of one step is a self-loop (:func:`loop_walks`), which no circuit of
  two or more nodes can be.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("a", "b"), ("b", "c")], use="at-most-once",
...                  visit=NodeVisit.AT_MOST_ONCE, closed=True)
>>> node_level(p), Moves.of(p).walks([0, 1, 0])  # a-b-a: edge 0 there, 1 back, or 1 then 0
(True, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["Moves", "avoided_edge", "loop_walks", "node_circuit_arcs", "node_level",
           "two_step_rings"]


def node_level(puzzle: Puzzle) -> bool:
    """Does the node-level circuit express ``puzzle`` (module docstring)?"""
    return (puzzle.visit is not NodeVisit.ANY and puzzle.colours is None
            and puzzle.use is not EdgeUse.EXACTLY_ONCE)


def avoided_edge(puzzle: Puzzle, e: int) -> bool:
    """Does edge ``e`` touch a node in ``avoid`` (so no walk may step along it)?"""
    return puzzle.tail[e] in puzzle.avoid or puzzle.head[e] in puzzle.avoid


@dataclass(frozen=True)
class Moves:
    """The arcs of the node-level circuit: for each ordered pair of distinct nodes
    ``(u, v)`` a step may join, the edges it may cross (in edge order); and whether a
    walk may cross one edge twice (reusable edges: only a closed walk of two steps can)."""

    pairs: dict[tuple[int, int], tuple[int, ...]]
    reuse: bool

    @classmethod
    def of(cls, puzzle: Puzzle) -> Moves:
        pairs: dict[tuple[int, int], list[int]] = {}
        avoid, usable = puzzle.avoid, puzzle.usable
        directed = puzzle.directed or [False] * puzzle.num_edges
        for e, (u, v, one_way) in enumerate(zip(puzzle.tail, puzzle.head, directed,
                                                 strict=True)):
            if u == v or u in avoid or v in avoid or not usable(e):
                continue
            pairs.setdefault((u, v), []).append(e)
            if not one_way:
                pairs.setdefault((v, u), []).append(e)
        return cls({k: tuple(es) for k, es in pairs.items()}, puzzle.use is EdgeUse.ANY)

    def twice(self, u: int, v: int) -> bool:
        """May a closed walk go ``u -> v -> u`` (two edges, or one edge reused)?"""
        there, back = self.pairs.get((u, v), ()), self.pairs.get((v, u), ())
        if not there or not back:
            return False
        return self.reuse or len(set(there) | set(back)) > 1

    def walks(self, nodes: Sequence[int]) -> int:
        """How many walks cross the node sequence ``nodes`` (parallel edges are distinct
        walks; a two-step closed walk needs two different edges unless reuse is allowed)."""
        if len(nodes) == 3 and nodes[0] == nodes[2]:
            there, back = self.pairs[(nodes[0], nodes[1])], self.pairs[(nodes[1], nodes[0])]
            same = 0 if self.reuse else len(set(there) & set(back))
            return len(there) * len(back) - same
        count = 1
        for u, v in itertools.pairwise(nodes):
            count *= len(self.pairs[(u, v)])
        return count

    def edges(self, nodes: Sequence[int]) -> tuple[int, ...]:
        """One walk's edges along ``nodes`` (the first edge of each arc; in a two-step
        closed walk a different edge back when edges are used at most once)."""
        chosen = [self.pairs[(u, v)][0] for u, v in itertools.pairwise(nodes)]
        if len(nodes) == 3 and nodes[0] == nodes[2] and not self.reuse \
                and chosen[0] == chosen[1]:
            back = self.pairs[(nodes[1], nodes[0])]
            there = self.pairs[(nodes[0], nodes[1])]
            chosen = ([chosen[0], back[1]] if len(back) > 1 else [there[1], chosen[1]])
        return tuple(chosen)


def two_step_rings(puzzle: Puzzle) -> bool:
    """May a closed walk of two steps solve ``puzzle`` (not under every-once with three
    nodes or more not avoided)? Where it cannot, the rule that its two steps cross two
    different edges need not be said."""
    return puzzle.closed and (puzzle.visit is not NodeVisit.EVERY_ONCE
                              or puzzle.num_nodes - len(puzzle.avoid) < 3)


def loop_walks(puzzle: Puzzle) -> list[tuple[int, int]]:
    """The closed walks of one step, as (node, self-loop edge): the loop's node is the
    walk's one position, so it must be an allowed start and end, not avoided, hold
    every checkpoint and given (at 1), and under every-once be the only node not
    avoided. Empty unless the walk is closed."""
    if not puzzle.closed:
        return []
    out = []
    for e, (v, u) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
        if v == u and puzzle.usable(e) and puzzle.may_start(v) and puzzle.may_end(v) \
                and puzzle.may_stand_alone(v):
            out.append((v, e))
    return out


def node_circuit_arcs(puzzle: Puzzle) -> int:
    """The number of arcs of the node-level circuit, from the edges alone (an upper
    bound: an arc per oriented edge, a start and an end arc per node)."""
    one_way = sum(map(bool, puzzle.directed)) if puzzle.directed is not None else 0
    return 2 * puzzle.num_edges - one_way + 2 * puzzle.num_nodes
