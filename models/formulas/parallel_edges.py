"""Bundles of interchangeable parallel edges, and the clauses that put each bundle in order.

Two edges are *interchangeable* when they join the same two nodes under the same
direction rule and carry the same colour: two two-way edges between ``u`` and ``v``
(whichever way round the spec wrote them), two one-way edges from ``u`` to ``v``, or
two loops at ``u`` that are both one-way or both two-way. The rules of a walk
(:mod:`trailkit.models.checking.verify`) look at an edge only through its ends, its direction
rule and its colour, so exchanging two interchangeable edges in a walk gives another
walk. A *bundle* is a class of two or more interchangeable usable edges, in edge order.

A dense multigraph has many such bundles, and a SAT solver that does not know they are
interchangeable explores every permutation of them (a bundle of ``k`` edges walked in
a model can be relabelled in ``k!`` ways, each a new model, each a new piece for the
cut clauses of :mod:`trailkit.models.formulas.lazy_clauses` to forbid). :func:`order_clauses`
breaks the part of that symmetry that costs one binary clause per pair: within a
two-way bundle between ``u`` and ``v`` (``u`` the node of lower index, its *reference
node*), the edges walked from ``u`` come first. For consecutive edges ``e < f`` of the
bundle: "if ``f`` is walked from ``u``, so is ``e``". On closed mixed trails whose two
halves no orientation can balance (one-way edges from one half to the other outnumber
the two-way edges across; every node alone can balance) the order clauses make the
refutations many times faster and their proofs many times shorter (``docs/benchmarks.md``,
"Dense multigraph trails").

**Why the clauses keep every solvable puzzle solvable.** Take any walk ``W``. In each
bundle, let ``k`` be the number of its edges ``W`` walks from the reference node, and
relabel: the ``k`` steps of ``W`` that go from ``u`` along a bundle edge take the
bundle's ``k`` lowest edges (in the order they come), and the other steps along bundle
edges take the rest. Each step keeps its nodes, direction and colour, and every edge
is still used as often as before, so the relabelled ``W'`` is a walk of the puzzle;
and in ``W'`` the edges walked from ``u`` are exactly a bundle's first ``k``, so its
orientation satisfies every order clause. The encoding gives ``W'`` a model (as it
gives every walk), and every cut clause holds in every walk's model, so the formula
with order clauses is satisfiable whenever the puzzle has a walk: a refutation of it
still proves that no walk exists. (The order clauses only remove models; a model that
survives still decodes to a verified walk.)

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "a"), ("a", "c"), ("a", "b")])
>>> bundles(p)
[[0, 1, 3]]
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from trailkit.models.puzzle import Puzzle

__all__ = ["bundles", "order_clauses", "reference_node"]


def _key(puzzle: Puzzle, e: int) -> tuple[int, int, bool, int]:
    """What makes edges interchangeable: the two nodes (sorted for a two-way edge),
    the direction rule and the colour."""
    u, v = puzzle.tail[e], puzzle.head[e]
    directed = puzzle.is_directed(e)
    colour = -1 if puzzle.colour is None else int(puzzle.colour[e])
    if not directed:
        u, v = min(u, v), max(u, v)
    return u, v, directed, colour


def bundles(puzzle: Puzzle) -> list[list[int]]:
    """The classes of two or more interchangeable usable edges, each in edge order,
    ordered by their first edge."""
    groups: dict[tuple[int, int, bool, int], list[int]] = {}
    for e in range(puzzle.num_edges):
        if puzzle.usable(e):
            groups.setdefault(_key(puzzle, e), []).append(e)
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: g[0])


def reference_node(puzzle: Puzzle, e: int) -> int:
    """The node a bundle's order clauses talk about: the lower-numbered end."""
    return min(puzzle.tail[e], puzzle.head[e])


def order_clauses(puzzle: Puzzle, leaves: Callable[[int, int], int | bool]
                  ) -> list[list[int]]:
    """The order clauses of every two-way bundle (see the module docstring).

    ``leaves(e, node)`` is the literal "edge ``e`` is walked from ``node``" of the
    formula at hand (``True``/``False`` when its direction is fixed: a one-way edge or
    a loop, whose bundles need no clause here).
    """
    clauses = []
    for group in bundles(puzzle):
        u = reference_node(puzzle, group[0])
        for e, f in pairwise(group):
            first, second = leaves(e, u), leaves(f, u)
            if isinstance(first, bool) or isinstance(second, bool):
                continue
            clauses.append([first, -second])
    return clauses
