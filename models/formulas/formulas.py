"""The certified formulas: which CNF a ``drup`` certificate refutes, rebuilt from the puzzle.

A ``drup`` certificate is a claim about one formula, named by its ``encoding`` field
and its parameters. This module is the one table of those formulas; the certificate
checker (:mod:`trailkit.models.checking.drup`) asks :func:`rebuild` for the formula and
checks the proof against it, and the SAT backend makes its certificates from the same
:class:`CertifiedFormula` values, so maker and checker cannot drift apart.

``position-v1`` (:mod:`trailkit.models.formulas.position_encoding`)
    exactly-once puzzles: the walks of exactly ``#edges`` steps.
``walk-v1`` (:mod:`trailkit.models.formulas.walk_formula`)
    once-only puzzles (exactly once or at most once): the walks of any length from 1
    to the most steps such a walk can have; with the empty walk not allowed, its
    refutation proves that no walk exists at all.
``node-positions-v1`` (:mod:`trailkit.models.formulas.node_positions`)
    puzzles with node rules (visit, via, avoid, at), every edge rule: the walks of 1 to
    H steps with a literal per node and position; with the empty walk not allowed, its
    refutation proves that no walk exists. The walk-family formulas below gain the same
    node clauses on such a puzzle, so their claims speak of its walks under its node
    rules.
``node-cuts-v1`` (:mod:`trailkit.models.formulas.node_cuts`)
    walks through every node (``visit: every-once``, no colour rule): one step in and out
    of each node, plus *cut clauses* on node sets, each checked on its own (a
    consequence of the puzzle) before the proof is.
``transition-v1`` (:mod:`trailkit.models.formulas.transition_encoding`)
    exactly-once puzzles: at each node, how the walk pairs the edge ends it meets;
    plus *cut clauses*, each checked on its own by :mod:`trailkit.models.formulas.lazy_clauses`
    (a consequence of the puzzle, not of the base formula), before the proof is.
``transition-v2`` (the same module)
    transition-v1 with nodes that allow every pairing only balanced (no pair
    variables there), and interchangeable parallel edges put in order
    (:mod:`trailkit.models.formulas.parallel_edges`, which shows that no walk is lost).
``walk-blocked-v1``, ``walk-longer-v1`` (:mod:`trailkit.models.formulas.blocked_walks`)
    ``walk-v1`` with a blocking clause per listed (verified, distinct) walk: no walk
    outside the list (claims ``count``, ``unique``; the empty walks listed apart, exactly
    those the checker verifies itself); or with "more than L steps": no walk longer
    than L (claim ``longest``).
``walk-shorter-v1``, ``walk-as-short-v1``, ``walk-as-long-v1``
    (:mod:`trailkit.models.formulas.optimal_walks`):
    the walk formula with "at most L-1 steps": no walk shorter than L (claim
    ``shortest``); or with the listed walks blocked and "at most L" or "at least L
    steps": no other walk as short, or as long (claims ``unique`` and ``count`` under
    an objective).
``walk-core-v1`` (:mod:`trailkit.models.formulas.core_formula`)
    ``walk-v1``'s prefix form with edges used at most once and "some step takes this
    edge" for each edge of a core: no walk uses the whole core (claim ``minimal-core``).
``repair-fewer-v1`` (:mod:`trailkit.models.formulas.repair_formula`)
    a set of at most k-1 changes the spec's ``repair:`` rules allow and a walk of the
    puzzle they make: its refutation, with a verified repair of k changes, proves k the
    fewest (claim ``fewest-changes``).

>>> from trailkit.models.puzzle import EdgeUse, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("c", "d")], use=EdgeUse.AT_MOST_ONCE, start=["a"],
...                  end=["d"])
>>> formula = rebuild(p, {"encoding": "walk-v1", "cardinality": "seqcounter"})
>>> formula.encoding, formula.params["horizon"]
('walk-v1', 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from trailkit.models.formulas.certified import CertifiedFormula, Clause, Size
from trailkit.models.puzzle import EdgeUse, Puzzle

if TYPE_CHECKING:
    from trailkit.models.formulas.position_encoding import VarMap

# CertifiedFormula and Size are defined in .certified and named here too, where the
# table of formulas is.
__all__ = ["CertifiedFormula", "Size", "encodings", "position_certified", "rebuild"]

Rebuilder = Callable[[Puzzle, Mapping[str, Any]], "CertifiedFormula | list[str]"]


def position_certified(puzzle: Puzzle, clauses: list[Clause],
                       vmap: VarMap) -> CertifiedFormula:
    """The ``position-v1`` formula of ``puzzle`` as certified, from clauses already built by
    :func:`trailkit.models.formulas.position_encoding.encode` (with the map it returned)."""
    return CertifiedFormula(
        "position-v1",
        {"cardinality": vmap.cardinality, "length": vmap.length, "symmetry": vmap.symmetry},
        clauses, vmap.num_vars,
        f"no walk of {vmap.length} steps uses every edge exactly once",
        {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)})


def _position(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.position_encoding import encode

    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return ["a position-v1 certificate only covers puzzles whose edges are used exactly "
                "once"]
    m = puzzle.num_edges
    if m == 0:
        return ["a puzzle without edges is decided without a proof"]
    if int(data["length"]) != m:
        return [f"the certified formula asks for {data['length']} steps, but an exactly-once "
                f"walk of this puzzle has {m}"]
    clauses, vmap = encode(puzzle, m, cardinality=str(data["cardinality"]),
                           break_symmetry=bool(data["symmetry"]))
    return position_certified(puzzle, clauses, vmap)


def _walk(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.walk_formula import walk_formula

    return walk_formula(puzzle, cardinality=str(data["cardinality"]))


def _nodes(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.node_positions import node_formula, read_distances

    distances = read_distances(data)
    if isinstance(distances, list):
        return distances
    return node_formula(puzzle, cardinality=str(data["cardinality"]), distances=distances)


def _node_cuts(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.node_cuts import cuts_formula

    return cuts_formula(puzzle, data["cuts"], cardinality=str(data["cardinality"]))


def _transition(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.lazy_clauses import formula_with_cuts

    return formula_with_cuts(puzzle, data["cuts"], str(data["encoding"]))


def _blocked(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.blocked_walks import blocked_formula

    return blocked_formula(puzzle, data)


def _longer(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.blocked_walks import longer_formula

    return longer_formula(puzzle, data)


def _optimal(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.optimal_walks import optimal_formula

    return optimal_formula(puzzle, data)


def _core(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.core_formula import core_formula

    return core_formula(puzzle, data)


def _repair(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    from trailkit.models.formulas.repair_formula import repair_formula

    return repair_formula(puzzle, data)


_REBUILDERS: dict[str, Rebuilder] = {
    "position-v1": _position,
    "walk-v1": _walk,
    "node-positions-v1": _nodes,
    "node-cuts-v1": _node_cuts,
    "transition-v1": _transition,
    "transition-v2": _transition,
    "walk-blocked-v1": _blocked,
    "walk-longer-v1": _longer,
    "walk-shorter-v1": _optimal,
    "walk-as-short-v1": _optimal,
    "walk-as-long-v1": _optimal,
    "walk-core-v1": _core,
    "repair-fewer-v1": _repair,
}


def encodings() -> list[str]:
    """The encodings a ``drup`` certificate may name."""
    return list(_REBUILDERS)


def rebuild(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """The formula ``data`` (a certificate's fields) names, rebuilt from ``puzzle``, or
    the reasons it cannot be (unknown encoding, a rule it does not cover, a lazy clause
    that is no consequence of the puzzle, a ``claim`` the formula does not prove)."""
    from trailkit.models.formulas.optimal_walks import claim_mismatch

    rebuilder = _REBUILDERS.get(str(data["encoding"]))
    mismatch = claim_mismatch(str(data.get("claim", "")), data, puzzle)
    if mismatch:
        return [mismatch]
    if rebuilder is None:
        return [f"unknown encoding {data['encoding']!r} (this trailkit certifies "
                f"{', '.join(_REBUILDERS)})"]
    return rebuilder(puzzle, data)
