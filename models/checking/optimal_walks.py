"""Refutation formulas for the best walk: ``walk-shorter-v1``, ``walk-as-short-v1`` and
``walk-as-long-v1``.

Each is the position encoding's prefix form over H steps
(:func:`trailkit.models.checking.position_encoding.encode_prefix`: its models are exactly
the walks of 1..H steps obeying every rule, the edge-use rule included, with no symmetry
breaking; activation variable ``a[t]``: "the walk has more than ``t`` steps") plus a few
clauses the checker derives itself from the length L and the walk W the certificate
names, so a DRUP refutation proves a claim about every walk. The first two serve every
edge rule (reusable edges too: a bounded number of steps is all they speak of), so they
certify what ``layers`` cannot (a once-only walk a reusing walk would beat, a closed walk):

``walk-shorter-v1`` (claim ``shortest``)
    H = L-1, and ``a[0]`` (at least one step): its refutation, with the empty walk not
    allowed (checked here), proves that no walk has fewer than L steps; W, of L steps,
    is verified. For L = 1 the formula is the empty clause.
``walk-as-short-v1`` (claim ``unique`` under ``objective: shortest``)
    H = L, ``a[0]`` and W's blocking clause: no walk of at most L steps other than W, so
    W is the shortest walk and the only one.
``walk-as-long-v1`` (claim ``unique`` under ``objective: longest``; once-only walks)
    H = the most steps a once-only walk can take, ``a[L-1]`` (at least L steps) and W's
    blocking clause: no walk of at least L steps other than W, so W is the longest walk
    and the only one.

Nothing is taken from the certificate but W (start node and edge ids) and L; W must be a
verified walk of L steps (:func:`trailkit.models.checking.blocked_walks.read_walk`).
:func:`claim_mismatch` says which formulas may stand behind which claim, so a certificate
file cannot name a claim its formula does not prove.

>>> from trailkit.models.puzzle import EdgeUse, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("a", "c")], use=EdgeUse.AT_MOST_ONCE,
...                  start=["a"], end=["c"])
>>> f = optimal_formula(p, {"encoding": SHORTER, "length": 1,
...                         "walk": {"start": "a", "edges": [2]}})
>>> f.encoding, f.params["length"], f.clauses
('walk-shorter-v1', 1, [[]])
>>> optimal_formula(p, {"encoding": AS_SHORT, "length": 1,
...                     "walk": {"start": "a", "edges": [0]}})
['the listed walk: the walk of 1 step from a breaks the rules: ...']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.checking.blocked_walks import blocking_clause, read_walk, walk_json
from trailkit.models.checking.certified import CertifiedFormula, Clause
from trailkit.models.checking.position_encoding import (
    DEFAULT_CARDINALITY,
    VarMap,
    encode_prefix,
)
from trailkit.models.checking.walk_formula import walk_horizon
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural

__all__ = ["AS_LONG", "AS_SHORT", "SHORTER", "claim_mismatch", "optimal_clauses",
           "optimal_formula", "optimal_horizon"]

SHORTER = "walk-shorter-v1"
AS_SHORT = "walk-as-short-v1"
AS_LONG = "walk-as-long-v1"

_CLAIMS: dict[str, tuple[str, ...]] = {
    "shortest": (SHORTER,),
    "longest": ("walk-longer-v1",),
    "count": ("walk-blocked-v1",),
    "unique": ("walk-blocked-v1", AS_SHORT, AS_LONG, "walk-longer-v1"),
}


def claim_mismatch(claim: str, data: Mapping[str, Any], puzzle: Puzzle) -> str:
    """Why the ``drup`` certificate ``data`` does not prove ``claim`` about ``puzzle``
    (empty: its formula is one that does, or the claim is not one of the walk claims
    named here). A ``unique`` claim by ``walk-blocked-v1`` must list one walk; by
    ``walk-longer-v1`` (no walk of more than 0 steps) the puzzle must allow the empty walk
    on one node only (the listed walk, verified)."""
    wanted = _CLAIMS.get(claim)
    encoding = str(data.get("encoding"))
    if wanted is None:
        return ""
    if encoding not in wanted:
        return (f"a {encoding} refutation does not prove the claim {claim!r} (that takes "
                f"{' or '.join(wanted)})")
    if claim == "unique" and encoding == "walk-blocked-v1" and data.get("solutions") != 1:
        return f"a unique claim lists one walk, not {data.get('solutions')}"
    if claim == "unique" and encoding == "walk-longer-v1" and (
            data.get("length") != 0 or len(puzzle.empty_walk_nodes()) != 1):
        return ("a walk-longer-v1 refutation proves a walk unique only when it is the empty "
                "walk and the puzzle allows it on one node only")
    return ""


def optimal_horizon(puzzle: Puzzle, encoding: str, length: int) -> int:
    """The most steps the formula ``encoding`` speaks of, for the length L = ``length``:
    L-1 (``walk-shorter-v1``), L (``walk-as-short-v1``), or the most a once-only walk can
    take (``walk-as-long-v1``)."""
    if encoding == SHORTER:
        return length - 1
    if encoding == AS_SHORT:
        return length
    return walk_horizon(puzzle)


def optimal_clauses(puzzle: Puzzle, encoding: str, length: int, walk: Walk | None = None,
                    *, cardinality: str = DEFAULT_CARDINALITY
                    ) -> tuple[list[Clause], VarMap | None]:
    """The clauses of ``encoding`` for the length L = ``length`` and their map (``None``
    for ``walk-shorter-v1`` of L = 1: the empty clause, no step to take); the walk
    ``walk`` (W) is blocked in the ``as`` formulas. Raises ``ValueError`` when the
    formula cannot be built (``walk-as-long-v1`` of reusable edges, a length of no
    walk)."""
    if encoding not in (SHORTER, AS_SHORT, AS_LONG):
        raise ValueError(f"unknown encoding {encoding!r}")
    if encoding == AS_LONG and puzzle.use is EdgeUse.ANY:
        raise ValueError(f"a {encoding} certificate covers once-only walks (exactly once "
                         "or at most once)")
    horizon = optimal_horizon(puzzle, encoding, length)
    if length < 1 or length > horizon + (encoding == SHORTER):
        raise ValueError(f"a walk of {plural(length, 'step')} is outside the formula's 1 "
                         f"to {horizon}")
    if horizon == 0:  # walk-shorter-v1 of 1 step: no walk of 1 to 0 steps
        return [[]], None
    clauses, vmap = encode_prefix(puzzle, horizon, cardinality=cardinality)
    active = vmap.active
    if encoding == SHORTER:
        return [*clauses, [active[0]]], vmap
    extra = [[active[0]]] if encoding == AS_SHORT else [[active[length - 1]]]
    block = blocking_clause(puzzle, vmap, walk) if walk is not None else "no walk to block"
    if isinstance(block, str):
        raise ValueError(block)
    return [*clauses, *extra, block], vmap


def _meaning(encoding: str, length: int) -> str:
    steps = plural(length, "step")
    if encoding == SHORTER:
        return (f"no walk of this puzzle has fewer than {steps} (the listed walk of {steps} "
                "is verified, and the empty walk is not allowed)")
    if encoding == AS_SHORT:
        return (f"no walk of this puzzle other than the listed one (verified, of {steps}) "
                f"has at most {steps}, and the empty walk is not allowed: it is the only "
                "shortest walk")
    return (f"no walk of this puzzle other than the listed one (verified, of {steps}) has "
            f"{steps} or more: it is the only longest walk")


def optimal_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """The formula ``data`` names (``encoding``, ``length`` L, ``walk`` W, ``cardinality``),
    re-derived from ``puzzle``, or why it cannot be: W must be a verified walk of L steps,
    and the shortest formulas need the empty walk not to be allowed."""
    encoding = str(data["encoding"])
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    if encoding in (SHORTER, AS_SHORT) and puzzle.empty_walk_nodes():
        return [f"the empty walk on {puzzle.nodes[puzzle.empty_walk_nodes()[0]]} is "
                "allowed, so the shortest walk has 0 steps"]
    walk = read_walk(puzzle, data["walk"])
    if isinstance(walk, str):
        return [f"the listed walk: {walk}"]
    length = int(data["length"])
    if len(walk) != length:
        return [f"the certificate claims {plural(length, 'step')} but its walk has "
                f"{len(walk)}"]
    try:
        clauses, vmap = optimal_clauses(puzzle, encoding, length, walk,
                                        cardinality=cardinality)
    except ValueError as exc:
        return [str(exc)]
    return CertifiedFormula(
        encoding, {"cardinality": cardinality, "length": length,
                   "walk": walk_json(puzzle, walk)}, clauses, vmap.num_vars if vmap else 0,
        _meaning(encoding, length),
        {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)} if vmap else {})
