"""The node rules a walk must obey, checked by the certificate checker itself.

The refutation certificates of node-rule claims (``node-positions-v1`` and the
walk-family formulas with node rules, :mod:`trailkit.models.formulas.node_positions`)
list walks (a count, the only walk, the best one) and count the empty walks apart; the
checker verifies each with :func:`~trailkit.models.checking.verify.verify` (the edge
rules) and here with the node rules (CONTRACT 1.4 §7), read straight from the puzzle's
fields and sharing no code with the formula: a walk of k steps holds k + 1 positions,
numbered from 1 at its start; a closed walk's return to its start is no new position.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")], use="at-most-once",
...                  visit=NodeVisit.EVERY_ONCE)
>>> node_rule_problems(p, Walk((0, 1, 2), (0, 1)))
[]
>>> node_rule_problems(p, Walk((0, 1), (0,)))
['node c holds no position, but every node not avoided must hold one']
"""

from __future__ import annotations

from collections import Counter

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import NodeVisit, Puzzle

__all__ = ["empty_walk_nodes", "node_rule_problems", "positions_held"]


def positions_held(puzzle: Puzzle, walk: Walk) -> tuple[int, ...]:
    """The nodes at the walk's positions, in order (a closed walk's return left out)."""
    nodes = tuple(walk.nodes)
    return nodes[:-1] if puzzle.closed and len(nodes) > 1 else nodes


def node_rule_problems(puzzle: Puzzle, walk: Walk) -> list[str]:
    """Every node rule ``walk`` breaks, in words (empty: it obeys them all)."""
    if not puzzle.has_node_rules:
        return []
    held = positions_held(puzzle, walk)
    names = puzzle.nodes
    out = [f"node {names[v]} is avoided but holds a position"
           for v in sorted(set(held) & set(puzzle.avoid))]
    if puzzle.visit is not NodeVisit.ANY:
        out += [f"node {names[v]} holds {k} positions, but no node may hold more than one"
                for v, k in sorted(Counter(held).items()) if k > 1]
    if puzzle.visit is NodeVisit.EVERY_ONCE:
        out += [f"node {names[v]} holds no position, but every node not avoided must hold one"
                for v in range(puzzle.num_nodes) if v not in puzzle.avoid and v not in held]
    out += [f"node {names[v]} is a checkpoint (via) but holds no position"
            for v in sorted(puzzle.via) if v not in held]
    for v, p in sorted(puzzle.at.items(), key=lambda item: item[1]):
        if p > len(held) or held[p - 1] != v:
            there = names[held[p - 1]] if p <= len(held) else "no node (the walk is shorter)"
            out.append(f"position {p} must hold node {names[v]}, but holds {there}")
    return out


def empty_walk_nodes(puzzle: Puzzle) -> list[int]:
    """The nodes on which the walk of 0 steps solves ``puzzle``, derived by the checker
    itself: :func:`~trailkit.models.checking.verify.verify` accepts it (start, end,
    closed and edge-use rules) and it obeys the node rules (it holds one position)."""
    out = []
    for v in range(puzzle.num_nodes):
        walk = Walk((v,), ())
        if not verify(puzzle, walk) and not node_rule_problems(puzzle, walk):
            out.append(v)
    return out
