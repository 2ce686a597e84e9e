"""The ``walk-core-v1`` formula: no walk uses every edge of a core (``explain``'s cores).

A *core* of a once-only puzzle is a set ``C`` of its edges that no walk obeying the
rules can all use when every edge may be used *at most* once and the other edges are
optional (how :mod:`trailkit.solvers.tools.repair.cores` finds cores and
:func:`~trailkit.models.checking.core_certificates.check_witness` checks their witness
walks). So a core's own puzzle is not "the spec with the core's edges only" (a walk may
need an edge outside ``C`` to get from one core edge to the next): it is the spec with
its edges used at most once (:func:`core_puzzle`, the same start and end sets, one-way
edges, colour rule, first colours and closing rule) and the demand that each edge of
``C`` be used.

``walk-core-v1`` says exactly that: the position encoding's prefix form of the core
puzzle over its H steps (:func:`trailkit.models.formulas.position_encoding.encode_prefix`:
its models are the at-most-once walks of 0..H steps; H is every edge a step may take, so
no once-only walk is longer) plus one clause per core edge, "some step takes this edge"
(the empty clause for an edge no step may take). A closed walk from anywhere (no start,
end or first colour) can be rotated to start with any of its edges, so there one more
clause says "step 0 takes the core's first edge" (:func:`rotations_apply`). A refutation
proves that no walk obeying the rules uses every edge of ``C``. The core is read from
the certificate's ``core`` (edge ids) and the formula re-derived from the spec, so a
proof made for another core or another spec is rejected. An empty core asks for no
edge: the formula then demands a first step (the unit clause ``a[0]``) and is refused
when the empty walk is allowed.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "d"), ("a", "e")])
>>> f = core_formula(p, {"core": [0, 2, 3]})
>>> f.encoding, f.params["core"], f.claim
('walk-core-v1', [0, 2, 3], 'no walk of this puzzle with each edge used at most once uses \
all 3 edges of the core (the other edges optional)')
>>> core_formula(p, {"core": [0, 9]})
['the core names edge 9, which the puzzle does not have']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from trailkit.models.formulas.certified import CertifiedFormula, Clause
from trailkit.models.formulas.position_encoding import (
    DEFAULT_CARDINALITY,
    VarMap,
    encode_prefix,
)
from trailkit.models.formulas.walk_formula import walk_horizon
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural

__all__ = ["CORE", "core_clauses", "core_formula", "core_puzzle", "read_core",
           "rotations_apply"]

CORE = "walk-core-v1"


def core_puzzle(puzzle: Puzzle) -> Puzzle:
    """The puzzle a core is a statement about: ``puzzle`` with every edge used at most
    once, every other rule as it is."""
    return replace(puzzle, use=EdgeUse.AT_MOST_ONCE)


def read_core(puzzle: Puzzle, ids: Any) -> list[int] | str:
    """The core's edges (indices) from the edge ids a certificate lists, or why not."""
    if not isinstance(ids, list):
        return "the core is not a list of edge ids"
    edges = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    core: list[int] = []
    for raw in ids:
        e = edges.get(str(raw))
        if e is None:
            return f"the core names edge {raw}, which the puzzle does not have"
        if e in core:
            return f"the core names edge {raw} twice"
        core.append(e)
    return core


def core_clauses(puzzle: Puzzle, core: Sequence[int], *,
                 cardinality: str = DEFAULT_CARDINALITY
                 ) -> tuple[list[Clause], VarMap | None] | str:
    """The clauses of ``walk-core-v1`` for ``core`` (indices) and the map of their step
    variables (``None`` when no step can be taken), or why the formula does not describe
    the core (an empty core where the empty walk is allowed)."""
    if puzzle.use is EdgeUse.ANY:
        return "reusable edges have no cores: more edges never hurt"
    relaxed = core_puzzle(puzzle)
    if not core and relaxed.empty_walk_nodes():
        return "an empty core where the empty walk is allowed: that walk uses the whole core"
    horizon = walk_horizon(relaxed)
    if horizon == 0:
        return [[]], None  # no step can be taken: no walk uses any edge, nor takes a step
    clauses, vmap = encode_prefix(relaxed, horizon, cardinality=cardinality)
    uses: dict[int, Clause] = {e: [] for e in core}
    for (_, e, _), var in vmap.index.items():
        if e in uses:
            uses[e].append(var)
    demands = [uses[e] for e in core] if core else [[vmap.active[0]]]
    if core and rotations_apply(relaxed):
        demands.append([var for (t, e, _), var in vmap.index.items()
                        if t == 0 and e == core[0]])
    return [*clauses, *demands], vmap


def rotations_apply(puzzle: Puzzle) -> bool:
    """Whether a closed walk using the core's first edge may be taken to start with it:
    ``puzzle`` asks for a closed walk from anywhere (no start, end or first colour), so
    every rotation of a closed walk is one too (the colour rule holds at the join)."""
    return puzzle.closed and puzzle.start is None and puzzle.end is None and \
        puzzle.first is None


def core_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """``walk-core-v1`` for the core ``data["core"]`` (edge ids) of ``puzzle``, re-derived
    from the puzzle, or why it cannot be built."""
    core = read_core(puzzle, data.get("core"))
    if isinstance(core, str):
        return [core]
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    built = core_clauses(puzzle, core, cardinality=cardinality)
    if isinstance(built, str):
        return [built]
    clauses, vmap = built
    ids = [puzzle.edge_id(e) for e in core]
    claim = (f"no walk of this puzzle with each edge used at most once uses all "
             f"{plural(len(core), 'edge')} of the core (the other edges optional)" if core
             else "no walk of this puzzle with each edge used at most once takes a step "
             "(and the empty walk is not allowed)")
    relaxed = core_puzzle(puzzle)
    variables = {} if vmap is None else {v: vmap.describe(relaxed, v)
                                         for v in sorted(vmap.steps)}
    return CertifiedFormula(CORE, {"cardinality": cardinality, "core": ids}, clauses,
                            0 if vmap is None else vmap.num_vars, claim, variables)
