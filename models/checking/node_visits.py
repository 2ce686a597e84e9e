"""The empty walks of a node-rule puzzle, found by the certificate checker itself.

The refutation certificates of node-rule claims (``node-positions-v1`` and the
walk-family formulas with node rules, :mod:`trailkit.models.formulas.node_positions`)
list walks (a count, the only walk, the best one) and count the empty walks apart. The
checker verifies each listed walk with :func:`~trailkit.models.checking.verify.verify`,
which reads the node rules (CONTRACT 1.4 §7) with the edge rules, sharing no code with
the formula: a walk of k steps holds k + 1 positions, numbered from 1 at its start; a
closed walk's return to its start is no new position. The empty walks are found here
the same way, one node at a time.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")], use="at-most-once", via=["b"])
>>> empty_walk_nodes(p)  # only on the checkpoint b
[1]
>>> empty_walk_nodes(Puzzle.build(edges=[("a", "b"), ("b", "c")], use="at-most-once",
...                               visit=NodeVisit.AT_MOST_ONCE, avoid=["b"]))
[0, 2]
"""

from __future__ import annotations

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import Puzzle

__all__ = ["empty_walk_nodes"]


def empty_walk_nodes(puzzle: Puzzle) -> list[int]:
    """The nodes on which the walk of 0 steps solves ``puzzle``, derived by the checker
    itself: :func:`~trailkit.models.checking.verify.verify` accepts it (its start, end,
    closed, edge-use and node rules: it holds one position)."""
    return [v for v in range(puzzle.num_nodes) if not verify(puzzle, Walk((v,), ()))]
