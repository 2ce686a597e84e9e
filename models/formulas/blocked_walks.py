"""Refutation formulas for claims about all walks: ``walk-blocked-v1`` and ``walk-longer-v1``.

Both are the ``walk-v1`` formula (:mod:`trailkit.models.formulas.walk_formula`: its models
are exactly the once-only walks of 1..H steps, with no symmetry breaking) plus clauses
the checker derives itself, so a DRUP refutation proves a claim about every walk:

``walk-blocked-v1`` (claims ``count`` and ``unique``)
    one *blocking clause* per listed walk: "the walk is not this one" (it has another
    length, or another oriented edge at some step). With the parameter ``"distances":
    true`` (absent: the formula of earlier versions) ``walk-v1``'s steps are those the
    givens' distances allow
    (:func:`~trailkit.models.formulas.node_positions.encode_node_prefix`): the same
    walks, a smaller formula. Every listed walk is first verified
    by :mod:`trailkit.models.checking.verify` and the walks must be distinct, so a
    refutation proves that the puzzle has exactly as many walks as are listed. The
    formula speaks of walks of at least one step; the empty walks (0 steps) are counted
    apart: the checker finds for itself the nodes whose walk of 0 steps it verifies
    (:func:`empty_walk_problem`), and the empty walks listed must be exactly those.
``walk-longer-v1`` (claim ``longest``)
    the position encoding's prefix form over 1..H steps (``walk-v1`` without "the walk
    has a first step", so an allowed empty walk does not matter) and the unit clause
    "the walk has more than L steps" (the activation variable ``a[L]``); its refutation
    proves that no walk is longer than L steps. The walk of L steps that makes L the
    longest is verified here too.

Nothing is taken from the certificate but the walks (start node and edge ids) and L:
the formula is re-derived from the puzzle.

>>> from trailkit.models.puzzle import EdgeUse, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")], use=EdgeUse.EXACTLY_ONCE)
>>> walks = [{"start": "a", "edges": [0, 1]}, {"start": "c", "edges": [1, 0]}]
>>> f = blocked_formula(p, {"walks": walks, "solutions": 2, "cardinality": "seqcounter"})
>>> f.encoding, f.claim
('walk-blocked-v1', 'no walk of this puzzle is outside the 2 listed (each verified)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.checking.node_visits import empty_walk_nodes
from trailkit.models.checking.verify import verify
from trailkit.models.formulas.certified import CertifiedFormula, Clause
from trailkit.models.formulas.node_positions import encode_node_prefix, read_distances
from trailkit.models.formulas.position_encoding import (
    DEFAULT_CARDINALITY,
    VarMap,
)
from trailkit.models.formulas.walk_formula import encode_walks, walk_horizon
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural

__all__ = ["BLOCKED", "LONGER", "blocked_formula", "blocking_clause", "empty_walk_problem",
           "empty_walks", "listed_walks", "longer_formula", "read_walk", "walk_json"]

BLOCKED = "walk-blocked-v1"
LONGER = "walk-longer-v1"


def walk_json(puzzle: Puzzle, walk: Walk) -> dict[str, Any]:
    """A walk as a certificate lists it: its start node's name and its edges' ids."""
    return {"start": puzzle.nodes[walk.nodes[0]],
            "edges": [puzzle.edge_id(e) for e in walk.edges]}


def read_walk(puzzle: Puzzle, raw: Mapping[str, Any]) -> Walk | str:
    """The walk a certificate lists, verified against the puzzle, or why it is not one."""
    nodes = {name: i for i, name in enumerate(puzzle.nodes)}
    edges = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    start = str(raw["start"])
    if start not in nodes:
        return f"the walk's start {start!r} is not a node of the puzzle"
    missing = [str(e) for e in raw["edges"] if str(e) not in edges]
    if missing:
        return f"the walk's edge {missing[0]!r} is not in the puzzle"
    try:
        walk = Walk.from_edges(puzzle, nodes[start], [edges[str(e)] for e in raw["edges"]])
    except ValueError:
        return "the walk's edges do not follow one another"
    broken = [str(v) for v in verify(puzzle, walk)]  # the edge and the node rules
    if broken:
        return (f"the walk of {plural(len(walk), 'step')} from {start} breaks the rules: "
                + "; ".join(broken[:3]))
    return walk


def blocking_clause(puzzle: Puzzle, vmap: VarMap, walk: Walk) -> Clause | str:
    """The clause "the walk is not ``walk``": it has another length or another oriented
    edge at some step; or why ``walk`` has no model in the formula."""
    length = len(walk)
    if not 1 <= length <= vmap.length:
        return f"a walk of {plural(length, 'step')} is outside the formula's 1 to {vmap.length}"
    clause = [-vmap.active[length - 1]]
    if length < vmap.length:
        clause.append(vmap.active[length])
    for t, e in enumerate(walk.edges):
        o = 0 if puzzle.tail[e] == walk.nodes[t] and puzzle.head[e] == walk.nodes[t + 1] \
            else 1
        var = vmap.index.get((t, e, o)) or vmap.index.get((t, e, 1 - o))
        if var is None:
            return f"step {t} of a listed walk has no variable in the formula"
        clause.append(-var)
    return clause


def empty_walks(puzzle: Puzzle) -> list[int]:
    """The nodes on which the empty walk solves ``puzzle``, derived by the checker itself:
    on each node, the walk of 0 steps that :func:`~trailkit.models.checking.verify.verify`
    accepts (its start, end, closed, edge-use and node rules:
    :func:`~trailkit.models.checking.node_visits.empty_walk_nodes`), sharing nothing with
    the solvers' view of empty walks."""
    return empty_walk_nodes(puzzle)


def empty_walk_problem(puzzle: Puzzle, walks: Sequence[Walk]) -> str:
    """Why the empty walks among ``walks`` (verified) are not exactly the puzzle's
    (:func:`empty_walks`; empty: they are)."""
    listed = {walk.nodes[0] for walk in walks if not walk.edges}
    missing = [v for v in empty_walks(puzzle) if v not in listed]
    if missing:
        return (f"the empty walk on {puzzle.nodes[missing[0]]} solves the puzzle but is "
                "not listed")
    return ""


def _base(puzzle: Puzzle, data: Mapping[str, Any]
          ) -> tuple[list[Clause], VarMap | None, str] | list[str]:
    """The ``walk-v1`` clauses (the empty walks counted apart), their map and the
    cardinality encoding; or why the formula does not describe the puzzle's walks."""
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    distances = read_distances(data)
    if isinstance(distances, list):
        return distances
    try:
        clauses, vmap = encode_walks(puzzle, cardinality=cardinality, empty_apart=True,
                                     distances=distances)
    except ValueError as exc:
        return [str(exc)]
    return clauses, vmap, cardinality


def _variables(puzzle: Puzzle, vmap: VarMap | None) -> tuple[int, dict[int, str]]:
    if vmap is None:
        return 0, {}
    return vmap.num_vars, {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)}


def listed_walks(puzzle: Puzzle, raw: Sequence[Any]) -> list[Walk] | str:
    """The listed walks, each verified and all distinct, or the first problem found."""
    walks: list[Walk] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for i, item in enumerate(raw):
        walk = read_walk(puzzle, item)
        if isinstance(walk, str):
            return f"listed walk {i + 1}: {walk}"
        key = (walk.nodes[0], tuple(walk.edges))
        if key in seen:
            return f"listed walk {i + 1} is listed twice"
        seen.add(key)
        walks.append(walk)
    return walks


def blocked_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """``walk-blocked-v1``: ``walk-v1`` with one blocking clause per listed walk (``data``:
    ``walks``, ``solutions`` their number, ``cardinality``), or why it cannot be built."""
    base = _base(puzzle, data)
    if isinstance(base, list):
        return base
    clauses, vmap, cardinality = base
    walks = listed_walks(puzzle, data["walks"])
    if isinstance(walks, str):
        return [walks]
    if int(data["solutions"]) != len(walks):
        return [f"the certificate states {data['solutions']} solutions but lists "
                f"{len(walks)} walks"]
    empty = empty_walk_problem(puzzle, walks)
    if empty:
        return [empty]
    blocks: list[Clause] = []
    for walk in walks:
        if not walk.edges:  # an empty walk: counted apart, not in the formula
            continue
        block = blocking_clause(puzzle, vmap, walk) if vmap else "no step can be taken"
        if isinstance(block, str):
            return [block]
        blocks.append(block)
    n, zero = len(walks), len(walks) - len(blocks)
    num_vars, variables = _variables(puzzle, vmap)
    empties = (f"; {plural(zero, 'is the empty walk', 'are the empty walks')}, on every "
               "node whose walk of 0 steps is verified" if zero else "")
    near = {"distances": True} if data.get("distances") else {}
    return CertifiedFormula(
        BLOCKED, {"cardinality": cardinality, **near, "solutions": n,
                  "walks": [walk_json(puzzle, w) for w in walks]}, [*clauses, *blocks],
        num_vars, f"no walk of this puzzle is outside the {n} listed (each verified"
        f"{empties})", variables)


def longer_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """``walk-longer-v1``: ``walk-v1`` and "the walk has more than ``length`` steps"
    (``data``: ``length``, ``walk`` the longest walk listed, ``cardinality``)."""
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    if puzzle.use is EdgeUse.ANY:
        return ["a walk-longer-v1 certificate covers once-only walks (exactly once or at "
                "most once)"]
    horizon = walk_horizon(puzzle)
    clauses, vmap = encode_node_prefix(puzzle, horizon, cardinality=cardinality) \
        if horizon else ([], None)
    walk = read_walk(puzzle, data["walk"])
    if isinstance(walk, str):
        return [f"the longest walk: {walk}"]
    length = int(data["length"])
    if len(walk) != length:
        return [f"the certificate claims {length} steps but its walk has {len(walk)}"]
    if vmap is None or length >= vmap.length:
        more: list[Clause] = [[]]  # no walk has more steps than the formula's horizon
    else:
        more = [[vmap.active[length]]]
    num_vars, variables = _variables(puzzle, vmap)
    return CertifiedFormula(
        LONGER, {"cardinality": cardinality, "length": length,
                 "walk": walk_json(puzzle, walk)}, [*clauses, *more],
        num_vars, f"no walk of this puzzle has more than {plural(length, 'step')} "
        "(and the listed one of that length is verified)", variables)
