"""Cut clauses: the lazily added clauses of the transition encoding, checked one by one.

A model of the transition encoding (:mod:`trailkit.models.formulas.transition_encoding`) may
fall apart into several pieces (a path and closed cycles) and so be no walk. The SAT
backend then adds, for a piece's edge set ``C``, the *cut clause* of ``C``: the
disjunction of every pair variable ``y[i, j]`` that joins an end of an edge in ``C``
with an end of an edge outside ``C``.

Why a cut clause is a consequence of the puzzle (though not of the base formula): let
``C`` be a nonempty set of edges that is not all of them. A walk that uses every
edge exactly once walks edges of ``C`` and edges outside ``C``, so somewhere one step
along an edge of ``C`` is followed by a step along an edge outside it, or the other
way round (for a closed walk, the join back to the first step counts as well). At
the node where those two steps meet, the walk arrives through the end of one edge and
leaves through the end of the other: that pair's variable is true in the walk's
model, and it is one of the clause's literals. So every walk's model satisfies every
cut clause, and a refutation of the base formula plus cut clauses proves that no
walk exists.

transition-v2 has no pair variables at its *free* nodes (where the rules allow every
pairing), so a walk crossing ``C`` there would satisfy no literal of the clause: a cut
is only valid when no free node has an edge of ``C`` and an edge outside ``C``. The
backend only ever needs such cuts, since its decoder joins any two pieces that meet
at a free node (:mod:`trailkit.models.formulas.transition_pieces`). Then every crossing of a
walk happens at a node that is not free, where its pair variable is in the clause.

The checker (:func:`check_cut`) verifies a cut clause on its own, against the base
encoding rebuilt from the spec: ``C`` names real edges (by id), is neither empty nor
every edge, shares no free node with the other edges (transition-v2), and the clause
holds every crossing pair variable of ``C`` (extra literals only weaken a clause, so
they are allowed, if they name variables of the formula). Then the DRUP checker
checks the proof against base + cuts.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")], closed=True)
>>> clauses, tmap = encode_transitions(p, "transition-v1")
>>> cut_clause(tmap, p, {0, 1})
[]
>>> check_cut(p, tmap, ["0", "1"], [])
[]
>>> check_cut(p, tmap, ["0", "1", "2", "3"], [])[0]
'cut 0: the cut names every edge (a cut must leave some edge out)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.formulas.transition_encoding import (
    TransitionMap,
    encode_transitions,
)
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["certified_formula", "check_cut", "cut_clause", "formula_with_cuts"]


def cut_clause(tmap: TransitionMap, puzzle: Puzzle, edges: Iterable[int]) -> list[int]:
    """The cut clause of the edge set ``edges`` (edge indices): every pair variable that
    joins an end of an edge in the set with an end of an edge outside it."""
    inside = set(edges)
    nodes = {puzzle.tail[e] for e in inside} | {puzzle.head[e] for e in inside}
    pairs = tmap.pairs
    out = []
    for v in sorted(nodes):
        for k in tmap.at_node[v]:
            var, i, j = pairs[k]
            if (i // 2 in inside) != (j // 2 in inside):
                out.append(var)
    return out


def check_cut(puzzle: Puzzle, tmap: TransitionMap, edge_ids: Sequence[Any],
              clause: Sequence[int], number: int = 0) -> list[str]:
    """Why the cut clause ``clause`` claimed for the edges ``edge_ids`` is not a
    consequence of the puzzle (empty: it is; see the module docstring)."""
    where = f"cut {number}"
    lookup = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    inside = []
    for name in edge_ids:
        if str(name) not in lookup:
            return [f"{where}: edge {name!r} is not in the puzzle"]
        inside.append(lookup[str(name)])
    if not inside:
        return [f"{where}: the cut names no edge"]
    if len(set(inside)) != len(inside):
        return [f"{where}: an edge is named twice"]
    if len(inside) >= puzzle.num_edges:
        return [f"{where}: the cut names every edge (a cut must leave some edge out)"]
    shared = _shared_free_node(puzzle, tmap, set(inside))
    if shared is not None:
        return [f"{where}: node {puzzle.nodes[shared]} allows every pairing and has edges "
                "inside and outside the cut, so a walk may cross the cut there"]
    for lit in clause:
        if not isinstance(lit, int) or isinstance(lit, bool) or not 1 <= abs(lit) \
                <= tmap.num_vars:
            return [f"{where}: {lit!r} is not a literal of the formula"]
    missing = sorted(set(cut_clause(tmap, puzzle, inside)) - set(clause))
    if missing:
        return [f"{where}: the clause leaves out the crossing pair {missing[0]} "
                f"({tmap.describe(puzzle, missing[0])}), so a walk may falsify it"]
    return []


def _shared_free_node(puzzle: Puzzle, tmap: TransitionMap, inside: set[int]) -> int | None:
    """A free node with an edge in ``inside`` and an edge outside it, if there is one."""
    if not any(tmap.free):
        return None
    touched_in = [False] * puzzle.num_nodes
    touched_out = [False] * puzzle.num_nodes
    for e in range(puzzle.num_edges):
        if puzzle.usable(e):
            touched = touched_in if e in inside else touched_out
            touched[puzzle.tail[e]] = touched[puzzle.head[e]] = True
    for v, free in enumerate(tmap.free):
        if free and touched_in[v] and touched_out[v]:
            return v
    return None


def formula_with_cuts(puzzle: Puzzle, cuts: Sequence[Mapping[str, Any]],
                      version: str) -> CertifiedFormula | list[str]:
    """The ``transition-v1`` / ``transition-v2`` formula: the base encoding of
    ``puzzle`` followed by the cut clauses ``cuts`` (``{"edges": [ids], "clause":
    [literals]}``), each checked by :func:`check_cut`; or why it cannot be certified."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return [f"a {version} certificate only covers puzzles whose edges are used "
                "exactly once"]
    if puzzle.num_edges == 0:
        return ["a puzzle without edges is decided without a proof"]
    clauses, tmap = encode_transitions(puzzle, version)
    for number, cut in enumerate(cuts):
        problems = check_cut(puzzle, tmap, list(cut["edges"]), list(cut["clause"]), number)
        if problems:
            return problems
    return certified_formula(clauses, tmap, cuts)


def certified_formula(clauses: list[list[int]], tmap: TransitionMap,
                      cuts: Sequence[Mapping[str, Any]]) -> CertifiedFormula:
    """The formula (``tmap.version``) from base ``clauses`` and checked ``cuts``, in the
    order the certificate lists them (the order the solver added them)."""
    extra = [list(cut["clause"]) for cut in cuts]
    if not any(tmap.free):
        what = "choice of how the walk pairs the edge ends at each node"
    elif all(tmap.free):
        what = ("orientation of the edges that balances every node (as many edge ends "
                "arrive as leave, but for a start and a finish)")
    else:
        what = ("choice of how the walk pairs the edge ends at the nodes whose colours "
                "restrict it, with the other nodes balanced,")
    n = len(extra)
    survives = (f"survives the {n} cut clause{'s' * (n != 1)}, each checked to hold for "
                "every walk" if n else "exists")
    return CertifiedFormula(
        tmap.version, {"cuts": [dict(cut) for cut in cuts]}, [*clauses, *extra],
        tmap.num_vars, f"no walk uses every edge exactly once (no {what} {survives})")
