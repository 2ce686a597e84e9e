"""Refutation formulas for the best walk: ``walk-shorter-v1``, ``walk-as-short-v1`` and
``walk-as-long-v1``.

Each is the position encoding's prefix form over H steps
(:func:`trailkit.models.formulas.position_encoding.encode_prefix`: its models are exactly
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
``walk-as-short-v1`` (claims ``unique`` and ``count`` under ``objective: shortest``)
    H = L, ``a[0]`` and one blocking clause per listed walk: no walk of 1 to L steps
    outside the list, and the empty walk not allowed (checked here): the listed walks,
    each verified and of L steps, are all the shortest walks (one: the only one). For
    L = 0 the formula is the empty clause, and the listed walks must be exactly the
    empty walks the checker finds itself
    (:func:`~trailkit.models.formulas.blocked_walks.empty_walk_problem`).
``walk-as-long-v1`` (claims ``unique`` and ``count`` under ``objective: longest``;
    once-only walks) H = the most steps a once-only walk can take, ``a[L-1]`` (at least
    L steps; for L = 0, ``a[0]``, the empty walks being checked as above) and one
    blocking clause per listed walk: no walk of at least L steps outside the list, so
    the listed walks are all the longest ones.

Nothing is taken from the certificate but the walks (start node and edge ids), L and
the number of solutions it states; every walk must be verified, distinct and of L steps
(:func:`trailkit.models.formulas.blocked_walks.read_walk`), at least one listed. A
certificate of one walk names it ``walk`` (the files of ``unique``), of a list ``walks``.
:func:`claim_mismatch` says which formulas may stand behind which claim on which puzzle,
so a certificate file cannot name a claim its formula does not prove.

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
>>> f = optimal_formula(p, {"encoding": AS_SHORT, "length": 1, "solutions": 1,
...                         "walks": [{"start": "a", "edges": [2]}]})
>>> f.claim.split(": ")[-1]
'it is the only shortest walk'

"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.formulas.blocked_walks import (
    BLOCKED,
    LONGER,
    blocking_clause,
    empty_walk_problem,
    empty_walks,
    listed_walks,
    walk_json,
)
from trailkit.models.formulas.certified import CertifiedFormula, Clause
from trailkit.models.formulas.node_positions import encode_node_prefix
from trailkit.models.formulas.position_encoding import (
    DEFAULT_CARDINALITY,
    VarMap,
)
from trailkit.models.formulas.walk_formula import walk_horizon
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural

__all__ = ["AS_LONG", "AS_SHORT", "SHORTER", "claim_mismatch", "optimal_clauses",
           "optimal_formula", "optimal_horizon"]

SHORTER = "walk-shorter-v1"
AS_SHORT = "walk-as-short-v1"
AS_LONG = "walk-as-long-v1"

_CLAIMS: dict[str, tuple[str, ...]] = {
    "shortest": (SHORTER,),
    "longest": (LONGER,),
    "count": (BLOCKED, AS_SHORT, AS_LONG),
    "unique": (BLOCKED, AS_SHORT, AS_LONG, LONGER),
}


def _counted_by(puzzle: Puzzle) -> tuple[str, ...]:
    """The formulas whose refutation proves the number ``count`` gives for ``puzzle``:
    every walk (no objective) by ``walk-blocked-v1``, the shortest walks by
    ``walk-as-short-v1`` (reusable edges too: their count is of the shortest walks), the
    longest by ``walk-as-long-v1``; an exactly-once walk has one length, so all three."""
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return BLOCKED, AS_SHORT, AS_LONG
    if puzzle.use is EdgeUse.ANY or puzzle.objective is Objective.SHORTEST:
        return (AS_SHORT,)
    return (AS_LONG,) if puzzle.objective is Objective.LONGEST else (BLOCKED,)


def claim_mismatch(claim: str, data: Mapping[str, Any], puzzle: Puzzle) -> str:
    """Why the ``drup`` certificate ``data`` does not prove ``claim`` about ``puzzle``
    (empty: its formula is one that does, or the claim is not one of the walk claims
    named here). A ``unique`` claim must list one walk, and be of the formula that speaks of
the puzzle's solutions (every walk, or the best ones under its objective: as ``count``);
by ``walk-longer-v1`` (no walk of
    more than 0 steps) the puzzle must allow the empty walk on one node only (the listed
    walk, verified). A ``count`` claim's formula must count what ``count`` counts on this
    puzzle (every walk, or the best ones under its objective)."""
    wanted = _CLAIMS.get(claim)
    encoding = str(data.get("encoding"))
    if wanted is None:
        return ""
    if encoding not in wanted:
        return (f"a {encoding} refutation does not prove the claim {claim!r} (that takes "
                f"{' or '.join(wanted)})")
    listed = len(data["walks"]) if isinstance(data.get("walks"), list) else 1
    if claim == "unique" and (data.get("solutions", 1) != 1 or listed != 1):
        return f"a unique claim lists one walk, not {data.get('solutions', listed)}"
    if claim == "unique" and encoding != LONGER and (
            encoding not in _counted_by(puzzle) or (puzzle.use is EdgeUse.ANY and
            puzzle.objective is not Objective.SHORTEST)):
        return (f"a {encoding} refutation does not prove the walk unique among this "
                f"puzzle's solutions ({_solutions_words(puzzle)})")
    if claim == "unique" and encoding == LONGER and (
            data.get("length") != 0 or len(empty_walks(puzzle)) != 1):
        return ("a walk-longer-v1 refutation proves a walk unique only when it is the empty "
                "walk and the puzzle allows it on one node only")
    if claim == "count":
        return _count_mismatch(encoding, data, puzzle)
    return ""


def _count_mismatch(encoding: str, data: Mapping[str, Any], puzzle: Puzzle) -> str:
    """:func:`claim_mismatch` for a ``count`` claim: the formula must count what ``count``
    counts on ``puzzle`` (a blocked formula with no solution also does: no walk, no best
    one), and the certificate must state its number."""
    if encoding not in _counted_by(puzzle) and not (
            encoding == BLOCKED and data.get("solutions") == 0):  # no walk: no best one
        counted: dict[tuple[str, ...], str] = {
            (AS_SHORT,): "its shortest walks only", (AS_LONG,): "its longest walks only",
            (BLOCKED,): "every walk"}
        what = counted[_counted_by(puzzle)]
        what += f" (objective: {puzzle.objective.value})" if puzzle.use is not EdgeUse.ANY \
            else " (edges may be reused)"
        return (f"count counts {what} here, and a {encoding} refutation does not "
                f"prove that number (that takes {' or '.join(_counted_by(puzzle))})")
    if "solutions" not in data:
        return "a count certificate states its number of solutions"
    return ""


def _solutions_words(puzzle: Puzzle) -> str:
    """The walks a puzzle counts as its solutions, in words."""
    if puzzle.use is EdgeUse.ANY and puzzle.objective is not Objective.SHORTEST:
        return "every walk, edges reusable: no refutation counts them"
    if puzzle.use is EdgeUse.EXACTLY_ONCE or puzzle.objective is Objective.ANY:
        return f"every walk: that takes {BLOCKED}"
    return f"the {puzzle.objective.value} walks: that takes {_counted_by(puzzle)[0]}"


def optimal_horizon(puzzle: Puzzle, encoding: str, length: int) -> int:
    """The most steps the formula ``encoding`` speaks of, for the length L = ``length``:
    L-1 (``walk-shorter-v1``), L (``walk-as-short-v1``), or the most a once-only walk can
    take (``walk-as-long-v1``)."""
    if encoding == SHORTER:
        return length - 1
    if encoding == AS_SHORT:
        return length
    return walk_horizon(puzzle)


def optimal_clauses(puzzle: Puzzle, encoding: str, length: int, walks: Sequence[Walk] = (),
                    *, cardinality: str = DEFAULT_CARDINALITY
                    ) -> tuple[list[Clause], VarMap | None]:
    """The clauses of ``encoding`` for the length L = ``length`` and their map (``None``
    when the formula is the empty clause: no step to take); each walk of ``walks`` with a
    step is blocked in the ``as`` formulas (the empty ones are not in the formula: the
    checker counts them apart). Raises ``ValueError`` when the formula cannot be built
    (``walk-as-long-v1`` of reusable edges, a length of no walk)."""
    if encoding not in (SHORTER, AS_SHORT, AS_LONG):
        raise ValueError(f"unknown encoding {encoding!r}")
    if encoding == AS_LONG and puzzle.use is EdgeUse.ANY:
        raise ValueError(f"a {encoding} certificate covers once-only walks (exactly once "
                         "or at most once)")
    horizon = optimal_horizon(puzzle, encoding, length)
    if length < (encoding == SHORTER) or length > horizon + (encoding == SHORTER):
        raise ValueError(f"a walk of {plural(length, 'step')} is outside the formula's 1 "
                         f"to {horizon}")
    if horizon == 0:  # no walk of 1 to 0 steps
        return [[]], None
    clauses, vmap = encode_node_prefix(puzzle, horizon, cardinality=cardinality)
    active = vmap.active
    if encoding == SHORTER:
        return [*clauses, [active[0]]], vmap
    extra = [[active[0]]] if encoding == AS_SHORT else [[active[max(length, 1) - 1]]]
    blocks: list[Clause] = []
    for walk in walks:
        block = blocking_clause(puzzle, vmap, walk) if walk.edges else []
        if isinstance(block, str):
            raise ValueError(block)
        blocks += [block] if block else []
    return [*clauses, *extra, *blocks], vmap


def _meaning(encoding: str, length: int, listed: int) -> str:
    steps = plural(length, "step")
    if encoding == SHORTER:
        return (f"no walk of this puzzle has fewer than {steps} (the listed walk of {steps} "
                "is verified, and the empty walk is not allowed)")
    they = ("it is the only" if listed == 1 else f"they are its {listed:,}") + \
        (" shortest" if encoding == AS_SHORT else " longest") + \
        (" walk" if listed == 1 else " walks")
    if length == 0:
        return (f"no walk of this puzzle of {'at most' if encoding == AS_SHORT else 'at least'}"
                f" 0 steps is outside the {plural(listed, 'empty walk')} listed, on every node "
                f"whose walk of 0 steps is verified: {they}")
    if encoding == AS_SHORT:
        return (f"no walk of this puzzle other than the {listed:,} listed (each verified, of "
                f"{steps}) has at most {steps}, and the empty walk is not allowed: {they}")
    return (f"no walk of this puzzle other than the {listed:,} listed (each verified, of "
            f"{steps}) has {steps} or more: {they}")


def _read_walks(puzzle: Puzzle, data: Mapping[str, Any]) -> list[Walk] | str:
    """The walks ``data`` lists (``walk``: one; ``walks``: a list, as many as the
    ``solutions`` it states), each verified, distinct and of its ``length``; or the
    first problem found."""
    one = "walks" not in data
    walks = listed_walks(puzzle, [data["walk"]] if one else list(data["walks"]))
    if isinstance(walks, str):
        return walks.replace("listed walk 1:", "the listed walk:") if one else walks
    length = int(data["length"])
    if not walks:
        return "the certificate lists no walk of the best length"
    if "solutions" in data and int(data["solutions"]) != len(walks):
        return (f"the certificate states {data['solutions']} solutions but lists "
                f"{len(walks)} walks")
    wrong = next((w for w in walks if len(w) != length), None)
    if wrong is not None:
        return (f"the certificate claims {plural(length, 'step')} but "
                f"{'its walk' if one else 'a listed walk'} has {len(wrong)}")
    return walks


def optimal_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """The formula ``data`` names (``encoding``, ``length`` L, ``walk`` W or ``walks``,
    ``solutions``, ``cardinality``), re-derived from ``puzzle``, or why it cannot be: the
    walks must be verified and of L steps; a shortest walk of some steps needs the empty
    walk not allowed, and a best length of 0 every empty walk the checker finds listed."""
    encoding = str(data["encoding"])
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    length = int(data["length"])
    empty = empty_walks(puzzle)
    if encoding in (SHORTER, AS_SHORT) and length and empty:
        return [f"the empty walk on {puzzle.nodes[empty[0]]} is allowed, so the shortest "
                "walk has 0 steps"]
    walks = _read_walks(puzzle, data)
    if isinstance(walks, str):
        return [walks]
    if not length and empty_walk_problem(puzzle, walks):  # the best walks are empty
        return [empty_walk_problem(puzzle, walks)]
    if encoding == SHORTER and len(walks) != 1:
        return [f"a {SHORTER} certificate names one walk"]
    try:
        clauses, vmap = optimal_clauses(puzzle, encoding, length, walks,
                                        cardinality=cardinality)
    except ValueError as exc:
        return [str(exc)]
    listed = ({"walks": [walk_json(puzzle, w) for w in walks]} if "walks" in data
              else {"walk": walk_json(puzzle, walks[0])})
    stated = {"solutions": len(walks)} if "solutions" in data else {}
    return CertifiedFormula(
        encoding, {"cardinality": cardinality, "length": length, **listed, **stated},
        clauses, vmap.num_vars if vmap else 0, _meaning(encoding, length, len(walks)),
        {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)} if vmap else {})
