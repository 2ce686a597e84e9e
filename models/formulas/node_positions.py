"""Node rules in CNF: the ``node-positions-v1`` formula, and the node clauses every
walk-family formula gains on a puzzle with node rules.

A walk of k steps holds k + 1 *positions*, numbered from 1 at its start; a closed
walk's return to its start is no new position (CONTRACT 1.4 §7). The formula is the
position encoding's prefix form over H steps
(:func:`trailkit.models.formulas.position_encoding.encode_prefix`: step literals
``x[t,e,o]`` "step t walks edge e in orientation o" and activation literals ``a[t]``
"the walk has more than t steps"; its models are exactly the walks of 1..H steps that
obey every edge rule: start, end, closed, one-way edges, colours, edge use) plus one
*node literal* ``y[v,i]`` "node v holds position i + 1" per node that is not avoided
and position index i, each defined as the disjunction of the step literals that put v
there (both directions of the definition are clauses):

* a closed walk's positions are the nodes its steps leave: ``y[v,i]`` is "step i leaves
  v" (i < H; the return to the start leaves nothing, so it holds no position);
* an open walk's are the node its first step leaves and the nodes its steps reach:
  ``y[v,0]`` is "step 0 leaves v", ``y[v,i]`` (1 <= i <= H) is "step i-1 reaches v".

Then one clause family per rule:

* ``avoid``: every step literal that puts an avoided node at a position is false (a
  unit clause each); a step through it would do so, by the meeting clauses;
* ``visit: at-most-once`` / ``every-once``: at most one position per node (an
  at-most-one constraint from :mod:`pysat.card` over its node literals); one node per
  position follows from one oriented edge per step;
* ``visit: every-once``: each node not avoided holds some position (one clause);
* ``via``: each checkpoint holds some position (one clause);
* ``at: {v: p}``: the unit clause ``y[v, p-1]`` (the empty clause when no step can put
  v at position p within H steps).

With ``distances`` (a formula's parameter ``"distances": true``; without it, the
formula of earlier versions) the givens bound where each node can stand, and the step
literals no walk can take are not made (:func:`encode_prefix`'s ``allowed``). In any
walk, the nodes at positions i < j are joined by the j - i steps between them, along
edges a step may take (one way only where the edge is one-way) through nodes that are
not avoided. So with a given g at position index p, a node u stands at index i < p only
if the directed distance d(u, g) <= p - i, and at index i > p only if d(g, u) <= i - p
(at i = p only g itself), computed by a plain breadth-first search over the oriented
edges with the avoided nodes removed (:func:`given_distances`; a colour rule only
lengthens walks, so the plain distance is a lower bound). A step from u to v at step t
puts u at index t and v at t + 1; a step literal whose ends cannot stand there is in no
walk, and is left out. A closed walk's last step reaches its start again, at index k
(its k steps): no position, but its nodes with the return are a walk too, from every
given to the start in k - p steps, so the same bounds hold there. Nothing else
changes, so the models are the same walks; the formula is smaller and its refutations
far shorter.

The horizon H (:func:`node_horizon`) is the most steps a walk obeying the rules can
take (:func:`walk_bound`: the edges for exactly-once walks, the edges a step may take
for at-most-once ones, the nodes not avoided, less one for an open walk, under
``visit: at-most-once`` or ``every-once``), so the formula's models are exactly the
puzzle's walks of at least one step. Where no bound holds (edges reusable and nodes
revisitable) H bounds the *shortest* walk instead: ``max(P, 1) + (|via| + 1) × S``, P
the largest position given by ``at``, S the (node, colour-phase) states of the nodes not
avoided. Take a shortest walk; past index ``max(P, 1)`` cut it where a checkpoint is
first reached: each piece between two such points that repeated a state could lose the
loop between the repeats (the positions given, the checkpoints reached, the colour
order, the ends and the closing join all stay), so each piece has at most S steps. A
refutation of ``node-positions-v1``, with the empty walk not allowed (the checker's
own :func:`~trailkit.models.checking.node_visits.empty_walk_nodes`), proves the claim
``unsolvable`` for every edge rule; the walk-family formulas that count and bound walks
(``walk-blocked-v1``, ``walk-longer-v1``, ``walk-shorter-v1``, ``walk-as-short-v1``,
``walk-as-long-v1``) are built on :func:`encode_node_prefix`, so on a node-rule puzzle
they speak of its walks under the node rules too. The guard of the encoding is the test
that compares its models with a brute-force oracle
(``tests/solvers/backends/sat/test_sat_node_rules.py``).

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> square = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"),
...                              ("a", "c")], use="at-most-once",
...                       visit=NodeVisit.EVERY_ONCE, closed=True)
>>> node_horizon(square)
4
>>> formula = node_formula(square)
>>> formula.encoding, formula.params["horizon"]
('node-positions-v1', 4)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pysat.card import CardEnc

from trailkit.models.checking.node_visits import empty_walk_nodes
from trailkit.models.formulas.certified import CertifiedFormula, Clause, Size
from trailkit.models.formulas.position_encoding import (
    CARDINALITIES,
    DEFAULT_CARDINALITY,
    VarMap,
    encode_prefix,
)
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["ENCODING_NAME", "distances_apply", "encode_node_prefix", "given_distances",
           "node_formula", "node_horizon", "node_size", "read_distances", "walk_bound"]

ENCODING_NAME = "node-positions-v1"


def walk_bound(puzzle: Puzzle) -> int | None:
    """The most steps a walk of ``puzzle`` can take (``None``: no bound, edges reusable
    and nodes revisitable): the edges (exactly once), the edges a step may take (at most
    once), and under ``visit`` other than ``any`` the nodes not avoided (an open walk's
    last position is one more than its steps)."""
    bounds: list[int] = []
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        bounds.append(puzzle.num_edges)
    elif puzzle.use is EdgeUse.AT_MOST_ONCE:
        bounds.append(len({e for e, _ in puzzle.oriented_edges()}))
    if puzzle.visit is not NodeVisit.ANY:
        free = puzzle.num_nodes - len(puzzle.avoid)
        bounds.append(free if puzzle.closed else max(free - 1, 0))
    return min(bounds) if bounds else None


def node_horizon(puzzle: Puzzle) -> int:
    """The steps the formula speaks of: :func:`walk_bound`, or where walks are unbounded
    the bound on a shortest walk of the module docstring."""
    bound = walk_bound(puzzle)
    if bound is not None:
        return bound
    phases = len(puzzle.colours.names) if puzzle.colours is not None else 1
    free = puzzle.num_nodes - len(puzzle.avoid)
    given = max(puzzle.at.values(), default=0)
    return max(given, 1) + (len(puzzle.via) + 1) * free * phases if free else 0


def node_size(puzzle: Puzzle, horizon: int, base: Size) -> Size:
    """``base`` (the position encoding's size over ``horizon`` steps) with the node
    literals and their clauses: per step two definitions per oriented edge, per node and
    position an at-most-one of the sequential counter (3 clauses, 2 variables)."""
    count = len(puzzle.oriented_edges())
    slots = puzzle.num_nodes * (horizon + 1)
    return Size(base.variables + 3 * slots, base.clauses + 2 * horizon * count + 4 * slots,
                base.literals + 4 * horizon * count + 10 * slots)


def encode_node_prefix(puzzle: Puzzle, horizon: int, *,
                       cardinality: str = DEFAULT_CARDINALITY,
                       distances: bool = False) -> tuple[list[Clause], VarMap]:
    """:func:`~trailkit.models.formulas.position_encoding.encode_prefix` with the node
    clauses of the module docstring (none, and the very same formula, for a puzzle
    without node rules); with ``distances``, only the step literals the givens'
    distances allow (:func:`given_distances`). The map's ``num_vars`` counts the node
    literals; its ``meta["positions"]`` maps each node literal to (node, position
    index)."""
    allowed = _near_steps(puzzle, horizon) if distances and puzzle.at else None
    clauses, vmap = encode_prefix(puzzle, horizon, cardinality=cardinality, allowed=allowed)
    if not puzzle.has_node_rules:
        return clauses, vmap
    rules = _NodeClauses(puzzle, vmap, cardinality)
    extra = rules.build()
    return [*clauses, *extra], replace(vmap, num_vars=rules.top,
                                       meta={**vmap.meta, "positions": rules.meaning})


def given_distances(puzzle: Puzzle, horizon: int) -> list[list[bool]]:
    """``stands[u][i]``: whether node ``u`` may stand at position index ``i`` (0 to
    ``horizon``) by its directed distances to and from every given (the module
    docstring); the avoided nodes nowhere once a position is given."""
    ahead: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    behind: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e, o in puzzle.oriented_edges():
        u, v = _step_ends(puzzle, e, o)
        if u not in puzzle.avoid and v not in puzzle.avoid:
            ahead[u].append(v)
            behind[v].append(u)
    stands = [[v not in puzzle.avoid] * (horizon + 1) for v in range(puzzle.num_nodes)]
    far = 2 * (horizon + 1)
    for g, position in puzzle.at.items():
        p = position - 1
        to_g, from_g = _bfs(behind, g), _bfs(ahead, g)
        for u in range(puzzle.num_nodes):
            # u may stand at i <= p - d(u, g) or at i >= p + d(g, u), nowhere between
            low = p - to_g.get(u, far)
            high = p + from_g.get(u, far)
            for i in range(max(low + 1, 0), min(high, horizon + 1)):
                stands[u][i] = False
    return stands


def _step_ends(puzzle: Puzzle, e: int, o: int) -> tuple[int, int]:
    """The node a step along edge ``e`` in orientation ``o`` leaves, and the one it
    reaches."""
    return (puzzle.tail[e], puzzle.head[e]) if o == 0 else (puzzle.head[e], puzzle.tail[e])


def _bfs(neighbours: Sequence[Sequence[int]], source: int) -> dict[int, int]:
    """The breadth-first distances from ``source`` along ``neighbours``."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def _near_steps(puzzle: Puzzle, horizon: int) -> set[tuple[int, int, int]]:
    """The step literals ``(t, e, o)`` whose ends may stand where the step puts them
    (:func:`given_distances`): step t puts its tail at index t and its head at t + 1
    (a closed walk's last step: its start again, at index k, as the module docstring
    says)."""
    stands = given_distances(puzzle, horizon)
    return {(t, e, o) for e, o in puzzle.oriented_edges()
            for u, v in [_step_ends(puzzle, e, o)]
            for t in range(horizon) if stands[u][t] and stands[v][t + 1]}


def distances_apply(puzzle: Puzzle) -> bool:
    """Whether the givens' distances can leave a step literal out: the puzzle gives
    positions (``at``). A maker asks for ``distances`` where they apply; elsewhere the
    parameter would change nothing but the certificate's words."""
    return bool(puzzle.at)


def read_distances(data: Mapping[str, Any]) -> bool | list[str]:
    """A certificate's ``distances`` parameter (absent: ``False``, the formula of earlier
    versions), or why it is not one."""
    distances = data.get("distances", False)
    if not isinstance(distances, bool):
        return [f"the certificate's distances must be true or false, not {distances!r}"]
    return distances


def node_formula(puzzle: Puzzle, *, cardinality: str = DEFAULT_CARDINALITY,
                 distances: bool = False) -> CertifiedFormula | list[str]:
    """The certified ``node-positions-v1`` formula of ``puzzle`` (its node prefix over
    :func:`node_horizon` steps and "the walk has a first step"; with ``distances``, the
    parameter ``"distances": true`` and only the steps the givens' distances allow), or
    why it has none."""
    if not puzzle.has_node_rules:
        return ["a node-positions-v1 certificate covers puzzles with node rules (visit, via, "
                "avoid, at)"]
    if not puzzle.num_nodes:
        return ["the puzzle has no nodes: the walk that stands nowhere solves it"]
    empty = empty_walk_nodes(puzzle)
    if empty:
        return [f"the empty walk on {puzzle.nodes[empty[0]]} is allowed, so the puzzle is "
                "solvable"]
    horizon = node_horizon(puzzle)
    if horizon == 0:
        return CertifiedFormula(ENCODING_NAME, {"cardinality": cardinality, "horizon": 0},
                                [[]], 0, "no step can be taken and the empty walk is not "
                                "allowed")
    clauses, vmap = encode_node_prefix(puzzle, horizon, cardinality=cardinality,
                                       distances=distances)
    bounded = walk_bound(puzzle) is not None
    what = (f"no walk of 1 to {horizon} steps obeys the edge and node rules" if bounded else
            f"no walk of 1 to {horizon} steps (as long as a shortest walk can be) obeys the "
            "edge and node rules")
    return CertifiedFormula(
        ENCODING_NAME,
        {"cardinality": cardinality, **({"distances": True} if distances else {}),
         "horizon": horizon, "first_active": vmap.active[0]},
        [*clauses, [vmap.active[0]]], vmap.num_vars,
        f"{what} (and the empty walk is not allowed)",
        {v: vmap.describe(puzzle, v) for v in sorted(vmap.steps)})


class _NodeClauses:
    """The node literals and the clauses of each node rule, over a prefix map."""

    def __init__(self, puzzle: Puzzle, vmap: VarMap, cardinality: str) -> None:
        self.p = puzzle
        self.card = cardinality
        self.top = vmap.num_vars
        self.meaning: dict[int, tuple[int, int]] = {}
        # the step literals that put each node at each position index
        self.puts: list[dict[int, list[int]]] = [{} for _ in range(puzzle.num_nodes)]
        for (t, e, o), var in vmap.index.items():
            u, v = _step_ends(puzzle, e, o)
            if puzzle.closed or t == 0:
                self.puts[u].setdefault(t, []).append(var)
            if not puzzle.closed:
                self.puts[v].setdefault(t + 1, []).append(var)

    def build(self) -> list[Clause]:
        p, out = self.p, []
        held: list[list[int]] = []
        for v in range(p.num_nodes):
            if v in p.avoid:
                out += [[-x] for lits in self.puts[v].values() for x in lits]
                held.append([])
                continue
            held.append(self._define(v, out))
        for v in range(p.num_nodes):
            if v in p.avoid:
                continue
            if p.visit is not NodeVisit.ANY:
                out += self._atmost1(held[v])
            if p.visit is NodeVisit.EVERY_ONCE or v in p.via:
                out.append(list(held[v]))
        for v, position in sorted(p.at.items()):
            var = self._literal(v, position - 1)
            out.append([var] if var else [])
        return out

    def _define(self, v: int, out: list[Clause]) -> list[int]:
        """One node literal per position index step literals can put ``v`` at, defined
        as their disjunction (clauses appended to ``out``); the literals, by index."""
        made = []
        for i, lits in sorted(self.puts[v].items()):
            self.top += 1
            y = self.top
            self.meaning[y] = (v, i)
            out.append([-y, *lits])
            out.extend([-x, y] for x in lits)
            made.append(y)
        return made

    def _literal(self, v: int, i: int) -> int:
        """The node literal of ``v`` at position index ``i`` (0: none exists)."""
        return next((y for y, where in self.meaning.items() if where == (v, i)), 0)

    def _atmost1(self, lits: Sequence[int]) -> list[Clause]:
        if len(lits) < 2:
            return []
        enc = CardEnc.atmost(list(lits), bound=1, top_id=self.top,
                             encoding=CARDINALITIES[self.card])
        self.top = max(self.top, enc.nv)
        return [list(c) for c in enc.clauses]
