"""``node-cuts-v1``: Hamiltonian walks by successor literals and lazily added cut clauses.

For big graphs the position formula (:mod:`.node_positions`, nodes × steps literals)
grows with the square of the nodes. This formula has one *arc literal* per oriented
edge between two nodes that are not avoided (``s[e,o]``: "the walk steps along edge e
in orientation o"), and, for an open walk, a *begin* and an *end* literal per node that
may start or end it. Its clauses say, for ``visit: every-once`` without colour rules:

* closed: every node not avoided has exactly one arc in and one arc out, and some node
  may be both start and end (given position 1 by ``at``, when one is);
* open: every node has exactly one arc in or is the begin, exactly one arc out or is
  the end; exactly one begin (the ``at`` node of position 1 when given) and one end,
  each among the allowed starts and ends.

A model is then one walk through every node, or a walk and some closed cycles (or only
cycles): the solver's model falls apart into *pieces*. The SAT backend adds, for a
piece's node set ``S``, the *cut clause* of ``S``: every arc literal with one end in
``S`` and the other outside it, and solves again (CEGAR, as the best SAT approach to
Hamiltonian cycles does, SAT 2025).

Why a cut clause is a consequence of the puzzle (though not of the base formula): let
``S`` be a nonempty set of nodes, not avoided, that is not all of them. A walk that
visits every node not avoided holds nodes in ``S`` and outside it, so two consecutive
positions lie on either side (for a closed walk, the return to the start counts too):
the step between them is an arc literal of the clause, true in the walk's model. So
every walk satisfies every cut clause, and a refutation of the base formula with its
cuts proves that no walk exists. The checker (:func:`check_cut`) verifies each cut
clause on its own against the base formula re-derived from the spec: ``S`` names real
nodes not avoided, neither none nor all, and the clause holds every crossing arc literal
(extra literals only weaken it); then the DRUP checker checks the proof.

Self-loops never serve (a node would hold two positions), nor do walks of fewer than
three nodes; the formula covers ``visit: every-once`` with at least three nodes not
avoided, no colour rule, edges not all required (``use`` other than exactly-once), and
no ``at`` position but 1 (:func:`cuts_apply`).

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> two = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("d", "e"), ("e", "f"),
...                           ("f", "d")], use="at-most-once", visit=NodeVisit.EVERY_ONCE,
...                    closed=True)
>>> clauses, cmap = encode_cuts(two)
>>> cut_clause(cmap, {0, 1, 2})
[]
>>> check_cut(two, cmap, ["a", "b", "c"], [])
[]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pysat.card import CardEnc

from trailkit.models.answer import Walk
from trailkit.models.checking.node_visits import empty_walk_nodes
from trailkit.models.formulas.certified import CertifiedFormula, Clause
from trailkit.models.formulas.position_encoding import CARDINALITIES, DEFAULT_CARDINALITY
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["ENCODING_NAME", "CutMap", "check_cut", "cut_clause", "cuts_apply", "cuts_formula",
           "encode_cuts"]

ENCODING_NAME = "node-cuts-v1"


def cuts_apply(puzzle: Puzzle) -> str:
    """Why ``node-cuts-v1`` does not describe ``puzzle``'s walks (empty: it does)."""
    free = puzzle.num_nodes - len(puzzle.avoid)
    if puzzle.visit is not NodeVisit.EVERY_ONCE:
        return "node-cuts-v1 covers walks through every node (visit: every-once)"
    if puzzle.colours is not None:
        return "node-cuts-v1 covers walks without a colour rule"
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return "node-cuts-v1 covers walks that need not use every edge"
    if any(p != 1 for p in puzzle.at.values()):
        return "node-cuts-v1 covers no given position but the start (at: 1)"
    if free < 3:
        return "node-cuts-v1 covers walks through at least three nodes"
    return ""


@dataclass(frozen=True)
class CutMap:
    """What the literals mean: ``arcs[k]`` (literal ``k + 1``) is ``(edge, orientation,
    from, to)``; ``begin`` and ``end`` map a node to its literal (open walks)."""

    arcs: tuple[tuple[int, int, int, int], ...]
    begin: Mapping[int, int]
    end: Mapping[int, int]
    num_vars: int

    def describe(self, puzzle: Puzzle, var: int) -> str:
        """A person-readable meaning of ``var``."""
        if 1 <= var <= len(self.arcs):
            e, _, u, v = self.arcs[var - 1]
            return f"edge {puzzle.edge_id(e)} is walked {puzzle.nodes[u]}->{puzzle.nodes[v]}"
        for words, table in (("begins", self.begin), ("ends", self.end)):
            node = next((n for n, lit in table.items() if lit == var), None)
            if node is not None:
                return f"the walk {words} at {puzzle.nodes[node]}"
        return "auxiliary (cardinality encoding)"

    def pieces(self, model: Iterable[int]) -> list[list[int]]:
        """The pieces of a model, each its nodes in walk order (the open piece first)."""
        true = {lit for lit in model if lit > 0}
        after = {u: v for k, (_, _, u, v) in enumerate(self.arcs) if k + 1 in true}
        first = [n for n, lit in self.begin.items() if lit in true]
        nodes = sorted({u for _, _, u, _ in self.arcs} | {v for *_, v in self.arcs}
                       | set(self.begin) | set(self.end))
        out, seen = [], set[int]()
        for start in first + nodes:
            if start in seen:
                continue
            piece = [start]
            seen.add(start)
            while after.get(piece[-1]) is not None and after[piece[-1]] not in seen:
                piece.append(after[piece[-1]])
                seen.add(piece[-1])
            out.append(piece)
        return out

    def walk(self, puzzle: Puzzle, model: Iterable[int], order: Sequence[int]) -> Walk:
        """The walk of a one-piece model whose nodes in walk order are ``order`` (a closed
        walk rotated to start where it may)."""
        true = {lit for lit in model if lit > 0}
        step = {(u, v): e for k, (e, _, u, v) in enumerate(self.arcs) if k + 1 in true}
        if puzzle.closed:
            pivot = next(i for i, v in enumerate(order) if _may_pivot(puzzle, v))
            order = [*order[pivot:], *order[:pivot], order[pivot]]
        return Walk(tuple(order), tuple(step[pair] for pair in pairwise(order)))


def _may_pivot(puzzle: Puzzle, v: int) -> bool:
    """May a closed walk through every node start (and end) at ``v``?"""
    given = [u for u, p in puzzle.at.items() if p == 1]
    return puzzle.may_start(v) and puzzle.may_end(v) and (not given or given == [v])


def encode_cuts(puzzle: Puzzle, *, cardinality: str = DEFAULT_CARDINALITY
                ) -> tuple[list[Clause], CutMap]:
    """The base clauses of ``node-cuts-v1`` and their map (see the module docstring)."""
    free = [v for v in range(puzzle.num_nodes) if v not in puzzle.avoid]
    arcs = []
    for e, o in puzzle.oriented_edges():
        u, v = (puzzle.tail[e], puzzle.head[e]) if o == 0 else (puzzle.head[e], puzzle.tail[e])
        if u != v and u not in puzzle.avoid and v not in puzzle.avoid:
            arcs.append((e, o, u, v))
    top = len(arcs)
    begin: dict[int, int] = {}
    end: dict[int, int] = {}
    given = [u for u, p in puzzle.at.items() if p == 1]
    if not puzzle.closed:
        for v in free:
            if puzzle.may_start(v) and (not given or given == [v]):
                top += 1
                begin[v] = top
        for v in free:
            if puzzle.may_end(v):
                top += 1
                end[v] = top
    builder = _Exactly(top, CARDINALITIES[cardinality])
    out_of: dict[int, list[int]] = {v: [] for v in free}
    into: dict[int, list[int]] = {v: [] for v in free}
    for k, (_, _, u, v) in enumerate(arcs):
        out_of[u].append(k + 1)
        into[v].append(k + 1)
    clauses: list[Clause] = []
    for v in free:
        clauses += builder.one([*into[v], *([begin[v]] if v in begin else [])])
        clauses += builder.one([*out_of[v], *([end[v]] if v in end else [])])
    if puzzle.closed:
        if not any(_may_pivot(puzzle, v) for v in free):
            clauses.append([])  # no node may be the start and end of the closed walk
    else:
        clauses += builder.one(list(begin.values())) + builder.one(list(end.values()))
    return clauses, CutMap(tuple(arcs), begin, end, builder.top)


class _Exactly:
    """Exactly-one constraints: one clause and an at-most-one of :mod:`pysat.card`."""

    def __init__(self, top: int, encoding: int) -> None:
        self.top, self.encoding = top, encoding

    def one(self, lits: list[int]) -> list[Clause]:
        if len(lits) < 2:
            return [lits]
        enc = CardEnc.atmost(lits, bound=1, top_id=self.top, encoding=self.encoding)
        self.top = max(self.top, enc.nv)
        return [lits, *[list(c) for c in enc.clauses]]


def cut_clause(cmap: CutMap, nodes: Collection[int]) -> list[int]:
    """The cut clause of the node set ``nodes``: every arc literal with one end in it."""
    inside = set(nodes)
    return [k + 1 for k, (_, _, u, v) in enumerate(cmap.arcs) if (u in inside) != (v in inside)]


def check_cut(puzzle: Puzzle, cmap: CutMap, names: Sequence[Any], clause: Sequence[Any],
              number: int = 0) -> list[str]:
    """Why the cut clause ``clause`` claimed for the nodes ``names`` is not a consequence
    of the puzzle (empty: it is; see the module docstring)."""
    where = f"cut {number}"
    index = {name: v for v, name in enumerate(puzzle.nodes)}
    inside = []
    for name in names:
        v = index.get(str(name))
        if v is None or v in puzzle.avoid:
            return [f"{where}: {name!r} is no node the walk must visit"]
        inside.append(v)
    free = puzzle.num_nodes - len(puzzle.avoid)
    if not inside or len(set(inside)) != len(inside) or len(inside) >= free:
        return [f"{where}: a cut names some nodes the walk must visit, each once, not all"]
    for lit in clause:
        if not isinstance(lit, int) or isinstance(lit, bool) or not 1 <= abs(lit) <= \
                cmap.num_vars:
            return [f"{where}: {lit!r} is not a literal of the formula"]
    missing = sorted(set(cut_clause(cmap, inside)) - set(clause))
    if missing:
        return [f"{where}: the clause leaves out the crossing arc {missing[0]} "
                f"({cmap.describe(puzzle, missing[0])}), so a walk may falsify it"]
    return []


def cuts_formula(puzzle: Puzzle, cuts: Sequence[Mapping[str, Any]], *,
                 cardinality: str = DEFAULT_CARDINALITY) -> CertifiedFormula | list[str]:
    """``node-cuts-v1``: the base clauses of ``puzzle`` followed by the cut clauses
    ``cuts`` (``{"nodes": [names], "clause": [literals]}``), each checked by
    :func:`check_cut`; or why it cannot be certified."""
    why = cuts_apply(puzzle)
    if why:
        return [why]
    if empty_walk_nodes(puzzle):
        return ["the empty walk is allowed, so the puzzle is solvable"]
    clauses, cmap = encode_cuts(puzzle, cardinality=cardinality)
    for number, cut in enumerate(cuts):
        problems = check_cut(puzzle, cmap, list(cut["nodes"]), list(cut["clause"]), number)
        if problems:
            return problems
    n = len(cuts)
    extra = [list(cut["clause"]) for cut in cuts]
    return CertifiedFormula(
        ENCODING_NAME, {"cardinality": cardinality, "cuts": [dict(c) for c in cuts]},
        [*clauses, *extra], cmap.num_vars,
        "no walk visits every node once (no choice of one step into and out of each node "
        f"survives the {n} cut clause{'s' * (n != 1)}, each checked to hold for every walk)",
        {v: cmap.describe(puzzle, v) for v in range(1, len(cmap.arcs) + 1)})
