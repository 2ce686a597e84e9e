"""The ``walk-v1`` formula: once-only walks of *any* allowed length, for certificates.

A once-only walk (every edge exactly once, or at most once) takes at most ``H``
steps, ``H`` being the number of edges a step may take at all (for exactly once,
the number of edges). ``walk-v1`` is the position encoding's prefix form
(:func:`trailkit.models.formulas.position_encoding.encode_prefix`, one activation variable
``a[t]`` per step: "the walk has more than ``t`` steps") over ``H`` steps plus the
unit clause ``a[0]``: its models are exactly the walks of 1..``H`` steps that obey
every rule (start and end sets, one-way edges, colour rule with its first colours
and, for a closed walk, the join). So a refutation of it, together with the fact
that the empty walk is not allowed (checked here, from the puzzle), proves that
the puzzle has no walk of any length: one formula, whatever the length would have
been. For exactly-once puzzles the edge-use clauses force the length ``#edges``.

When no edge can be taken at all (``H = 0``) the formula is the single empty
clause: there is no step to take and the empty walk is not allowed.

The encoding's guard is the test that counts its models against brute-force walks
(``tests/models/formulas/test_walk_formula.py``), as for the position encoding.

>>> from trailkit.models.puzzle import EdgeUse, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")], use=EdgeUse.AT_MOST_ONCE, closed=True)
>>> formula = walk_formula(p)
>>> formula.params["horizon"], formula.clauses[-1] == [formula.params["first_active"]]
(2, True)
"""

from __future__ import annotations

from trailkit.models.checking.node_visits import empty_walk_nodes
from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.formulas.node_positions import encode_node_prefix, walk_bound
from trailkit.models.formulas.position_encoding import (
    DEFAULT_CARDINALITY,
    VarMap,
)
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["ENCODING_NAME", "encode_walks", "walk_formula", "walk_horizon"]

ENCODING_NAME = "walk-v1"


def walk_horizon(puzzle: Puzzle) -> int:
    """The most steps a once-only walk of ``puzzle`` can take: its edges (exactly once),
    or the edges a step may take at all (at most once); with node rules, fewer where
    they bound the walk more (:func:`~trailkit.models.formulas.node_positions.walk_bound`)."""
    bound = walk_bound(puzzle) if puzzle.has_node_rules else None
    if bound is not None:
        return bound
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return puzzle.num_edges
    return len({e for e, _ in puzzle.oriented_edges()})


def _refusal(puzzle: Puzzle, *, empty_apart: bool = False) -> list[str]:
    """Why ``walk-v1`` does not describe ``puzzle``'s walks (empty: it does). With
    ``empty_apart`` the empty walks are counted apart, so an allowed one does not matter.
    A puzzle without nodes is solved by the walk that stands nowhere, no empty walk on a
    node: no formula of steps speaks of it."""
    if puzzle.use is EdgeUse.ANY and puzzle.visit is NodeVisit.ANY:
        return ["a walk-v1 certificate covers once-only walks (exactly once or at most once); "
                "reusable edges have closed-set certificates"]
    if not puzzle.num_nodes:
        return ["the puzzle has no nodes: the walk that stands nowhere solves it"]
    empty = empty_walk_nodes(puzzle) if puzzle.has_node_rules else puzzle.empty_walk_nodes()
    if empty and not empty_apart:
        return [f"the empty walk on {puzzle.nodes[empty[0]]} is allowed, so the puzzle is "
                "solvable"]
    return []


def encode_walks(puzzle: Puzzle, *, cardinality: str = DEFAULT_CARDINALITY,
                 empty_apart: bool = False, distances: bool = False
                 ) -> tuple[list[list[int]], VarMap | None]:
    """The ``walk-v1`` clauses and the map of their step variables (``None`` when no
    step can be taken: the formula is then the empty clause); with ``distances``, only
    the step literals the givens' distances allow
    (:func:`~trailkit.models.formulas.node_positions.encode_node_prefix`).

    Raises ``ValueError`` when the formula does not describe the puzzle (reusable edges,
    no nodes, or an allowed empty walk unless ``empty_apart``: the caller counts the
    empty walks itself, the formula speaking of walks of at least one step).
    """
    problems = _refusal(puzzle, empty_apart=empty_apart)
    if problems:
        raise ValueError(problems[0])
    horizon = walk_horizon(puzzle)
    if horizon == 0:
        return [[]], None
    clauses, vmap = encode_node_prefix(puzzle, horizon, cardinality=cardinality,
                                       distances=distances)
    return [*clauses, [vmap.active[0]]], vmap


def walk_formula(puzzle: Puzzle, *, cardinality: str = DEFAULT_CARDINALITY
                 ) -> CertifiedFormula | list[str]:
    """The certified ``walk-v1`` formula of ``puzzle``, or why it has none (node rules:
    their formula is ``node-positions-v1``, :mod:`trailkit.models.formulas.node_positions`)."""
    if puzzle.has_node_rules:
        return ["a walk-v1 certificate covers puzzles without node rules; this one's formula "
                "is node-positions-v1"]
    problems = _refusal(puzzle)
    if problems:
        return problems
    clauses, vmap = encode_walks(puzzle, cardinality=cardinality)
    rule = "exactly once" if puzzle.use is EdgeUse.EXACTLY_ONCE else "at most once"
    if vmap is None:
        return CertifiedFormula(ENCODING_NAME, {"cardinality": cardinality, "horizon": 0},
                                clauses, 0, "no step can be taken and the empty walk is not "
                                "allowed")
    horizon = vmap.length
    return CertifiedFormula(
        ENCODING_NAME,
        {"cardinality": cardinality, "horizon": horizon, "first_active": vmap.active[0]},
        clauses, vmap.num_vars,
        f"no walk of 1 to {horizon} steps uses each edge {rule} (and the empty walk is "
        "not allowed)",
        {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)})
