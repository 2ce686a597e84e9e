"""The transition encoding of exactly-once walks: at each node, how the walk pairs edge ends.

A walk that uses every edge once is, at every node it passes, a pairing of the edge
ends there: it arrives through one end and leaves through another. This encoding
chooses those pairings; its size grows with the sum over nodes of the squared degree,
not with edges × positions as the position encoding's
(:mod:`trailkit.models.position_encoding`). It lives in ``models/`` because a
``transition-v1`` certificate is a claim about exactly this formula (plus the cut
clauses of :mod:`trailkit.models.lazy_clauses`).

Every usable edge ``e`` has two *ends*: ``2e`` at ``tail[e]`` and ``2e + 1`` at
``head[e]``. Variables:

* ``d[e]``: edge ``e`` is walked from tail to head (a one-way edge or a self-loop has
  that orientation fixed, so it has no variable: every walk has one model). End
  ``2e`` *leaves* its node iff ``d[e]``, end ``2e + 1`` *arrives* iff ``d[e]``;
* ``y[i, j]`` for two different ends ``i``, ``j`` at the same node: "the walk arrives
  through ``i`` and leaves next through ``j``", only when ``j``'s colour may follow
  ``i``'s (the colour rule is a restriction on the allowed pairs);
* open walks: ``s[j]`` "the walk starts by leaving through ``j``" (an allowed start
  node and first colour), ``f[i]`` "the walk finishes after arriving through ``i``"
  (an allowed end node).

Clauses: ``y[i, j]`` implies ``i`` arrives and ``j`` leaves; ``s[j]`` implies ``j``
leaves, ``f[i]`` that ``i`` arrives; an arriving end has exactly one successor among
its ``y[i, *]`` and ``f[i]``, a leaving end exactly one predecessor among its
``y[*, j]`` and ``s[j]`` (at-most-one by the sequential counter of :mod:`pysat.card`);
an open walk starts exactly once; a closed walk with start, end or first-colour
rules passes one allowed start node through a pair whose leaving colour may come
first. Under a colour rule an uncoloured edge can never be walked: the empty clause.

A model is then a set of pieces: one path from the start to the finish (open walks)
and closed cycles. A model with exactly one piece is a walk, and a walk has exactly
one model (a closed walk one per ring: its rotations share it). A model with several
pieces is no walk; :mod:`trailkit.models.lazy_clauses` defines the *cut clauses* that
forbid them, added lazily by the SAT backend.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> clauses, tmap = encode_transitions(p)
>>> len(tmap.pairs), tmap.describe(p, tmap.pairs[0][0])
(6, 'at a: arrive by edge 0 (a-b), leave by edge 2 (c-a)')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType

from trailkit.models.answer import Walk
from trailkit.models.formulas import Size
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["ENCODING_NAME", "TransitionMap", "encode_transitions", "estimate"]

ENCODING_NAME = "transition-v1"

Clause = list[int]
TRUE = 0
"""``orientation[e]`` of an edge whose orientation is fixed (tail to head)."""


@dataclass(frozen=True)
class TransitionMap:
    """What the variables mean.

    ``pairs[k] = (var, i, j)``: the walk arrives through end ``i`` and leaves through
    ``j``; ``starts`` / ``finishes`` map an end to its ``s`` / ``f`` variable;
    ``orientation[e]`` is ``d[e]`` (0 when fixed forward); ``num_vars`` counts every
    variable, auxiliary ones included.
    """

    pairs: list[tuple[int, int, int]]
    starts: dict[int, int]
    finishes: dict[int, int]
    orientation: list[int]
    num_vars: int
    at_node: list[list[int]] = field(default_factory=list)  # pair indices per node

    # ----------------------------------------------------------------- ends
    @staticmethod
    def node_of(puzzle: Puzzle, end: int) -> int:
        """The node end ``end`` is at."""
        return puzzle.head[end // 2] if end % 2 else puzzle.tail[end // 2]

    def describe(self, puzzle: Puzzle, var: int) -> str:
        """A person-readable meaning of a pair, start or finish variable."""
        for v, i, j in self.pairs:
            if v == var:
                node = puzzle.nodes[self.node_of(puzzle, i)]
                return (f"at {node}: arrive by {_edge(puzzle, i // 2)}, leave by "
                        f"{_edge(puzzle, j // 2)}")
        for end, v in self.starts.items():
            if v == var:
                return f"start by {_edge(puzzle, end // 2)}"
        for end, v in self.finishes.items():
            if v == var:
                return f"finish after {_edge(puzzle, end // 2)}"
        return "orientation or auxiliary"

    # --------------------------------------------------------------- models
    def pieces(self, puzzle: Puzzle, model: Iterable[int]) -> list[list[int]]:
        """The walk's pieces in ``model``, as edge sequences; an open walk's path (from
        its start) first, then the closed cycles."""
        value = _values(model, self.num_vars)
        succ: dict[int, int] = {i: j for v, i, j in self.pairs if value[v]}
        m = puzzle.num_edges
        forward = [d == TRUE or value[d] for d in self.orientation]
        seen = [False] * m
        pieces: list[list[int]] = []

        def follow(end: int | None) -> list[int]:
            edges = []
            while end is not None and not seen[end // 2]:
                e = end // 2
                seen[e] = True
                edges.append(e)
                end = succ.get(2 * e + 1 if forward[e] else 2 * e)
            return edges

        for end, v in self.starts.items():
            if value[v]:
                pieces.append(follow(end))
        for v, _, j in self.pairs:
            if value[v] and not seen[j // 2]:
                pieces.append(follow(j))
        return pieces

    def walk(self, puzzle: Puzzle, model: Iterable[int]) -> Walk | None:
        """The walk of a one-piece model (``None`` when it falls apart)."""
        model = list(model)
        pieces = self.pieces(puzzle, model)
        if len(pieces) != 1 or len(pieces[0]) != puzzle.num_edges:
            return None
        edges = pieces[0]
        value = _values(model, self.num_vars)
        forward = [d == TRUE or value[d] for d in self.orientation]
        if not self.starts:  # closed: rotate to a pair that may start the walk
            edges = _rotate(puzzle, edges, forward)
        e0 = edges[0]
        start = puzzle.tail[e0] if forward[e0] else puzzle.head[e0]
        return Walk.from_edges(puzzle, start, edges)


def _values(model: Iterable[int], num_vars: int) -> list[bool]:
    """``value[v]``: variable ``v`` is true in ``model`` (index 0 unused)."""
    value = [False] * (num_vars + 1)
    for lit in model:
        if 0 < lit <= num_vars:
            value[lit] = True
    return value


def _edge(puzzle: Puzzle, e: int) -> str:
    arrow = "->" if puzzle.is_directed(e) else "-"
    return f"edge {puzzle.edge_id(e)} ({puzzle.nodes[puzzle.tail[e]]}{arrow}" \
        f"{puzzle.nodes[puzzle.head[e]]})"


def _rotate(puzzle: Puzzle, edges: list[int], forward: list[bool]) -> list[int]:
    """Rotate a ring so that it starts where the rules allow (a closed walk)."""
    colour = puzzle.colour
    for k, e in enumerate(edges):
        node = puzzle.tail[e] if forward[e] else puzzle.head[e]
        c = -1 if colour is None else colour[e]
        if puzzle.may_start(node) and puzzle.may_end(node) and puzzle.may_come_first(c):
            return edges[k:] + edges[:k]
    return edges


def _ends_at(puzzle: Puzzle) -> list[list[int]]:
    """The ends of the usable edges at each node."""
    at: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e in range(puzzle.num_edges):
        if puzzle.usable(e):
            at[puzzle.tail[e]].append(2 * e)
            at[puzzle.head[e]].append(2 * e + 1)
    return at


def estimate(puzzle: Puzzle) -> Size:
    """The size of :func:`encode_transitions`' formula, without building it (an upper
    bound up to the cardinality encoding's constant)."""
    pairs = ends = 0
    for here in _ends_at(puzzle):
        k = len(here)
        pairs += k * (k - 1)
        ends += k
    # per pair: 2 implications; per end: at-least-one and a sequential counter of its
    # candidates (about 3 clauses and 1 variable per candidate, for both directions)
    clauses = 2 * pairs + 2 * ends + 6 * pairs
    literals = 4 * pairs + 2 * (pairs + ends) + 6 * 2 * pairs
    return Size(pairs + 2 * ends + puzzle.num_edges + 2 * pairs, clauses, literals)


def encode_transitions(puzzle: Puzzle) -> tuple[list[Clause], TransitionMap]:
    """The transition clauses of an exactly-once puzzle with at least one edge (see the
    module docstring); their one-piece models are exactly its walks."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        raise ValueError("the transition encoding is for walks that use every edge exactly "
                         "once")
    if puzzle.num_edges == 0:
        raise ValueError("a puzzle without edges is decided without a solver")
    return _Builder(puzzle).build()


class _Builder:
    """Builds one transition encoding, one clause family per method."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.p = puzzle
        self.top = 0
        self.clauses: list[Clause] = []
        m = puzzle.num_edges
        self.orientation = [TRUE] * m
        for e in range(m):
            if not puzzle.is_directed(e) and puzzle.tail[e] != puzzle.head[e]:
                self.orientation[e] = self._new()
        self.colour = puzzle.colour if puzzle.colour is not None else [-1] * m

    def _new(self) -> int:
        self.top += 1
        return self.top

    def arrives(self, end: int) -> int | bool:
        """"End ``end`` arrives": ``True`` (always), ``False`` (never) or a literal."""
        d = self.orientation[end // 2]
        if d == TRUE:
            return end % 2 == 1
        return d if end % 2 else -d

    def leaves(self, end: int) -> int | bool:
        """"End ``end`` leaves": the negation of :meth:`arrives`."""
        lit = self.arrives(end)
        return (not lit) if isinstance(lit, bool) else -lit

    def _implies(self, var: int, lit: int | bool) -> None:
        if lit is False:
            self.clauses.append([-var])
        elif lit is not True:
            self.clauses.append([-var, lit])

    def _exactly_one(self, guard: int | bool, lits: Sequence[int]) -> None:
        """``guard`` (an arriving / leaving literal, or ``True``) implies one of ``lits``;
        at most one of them in any case (each of them implies the guard)."""
        if guard is False:
            return
        self.clauses.append(([] if guard is True else [-guard]) + list(lits))
        if len(lits) > 1:
            enc = CardEnc.atmost(list(lits), bound=1, top_id=self.top,
                                 encoding=EncType.seqcounter)
            self.clauses.extend(enc.clauses)
            self.top = max(self.top, enc.nv)

    def build(self) -> tuple[list[Clause], TransitionMap]:
        p = self.p
        for e in range(p.num_edges):
            if not p.usable(e):
                self.clauses.append([])  # exactly once, yet never walkable
        ends_at = _ends_at(p)
        pairs: list[tuple[int, int, int]] = []
        at_node: list[list[int]] = [[] for _ in range(p.num_nodes)]
        starts: dict[int, int] = {}
        finishes: dict[int, int] = {}
        succ: dict[int, list[int]] = {}
        pred: dict[int, list[int]] = {}
        follows = p.colour_may_follow
        colour = self.colour
        add = self.clauses.append
        for v, here in enumerate(ends_at):
            arriving = [(i, self.arrives(i)) for i in here if self.arrives(i) is not False]
            leaving = [(j, self.leaves(j)) for j in here if self.leaves(j) is not False]
            for i, arrive in arriving:
                ci = colour[i // 2]
                out = succ.setdefault(i, [])
                for j, leave in leaving:
                    if j != i and follows(ci, colour[j // 2]):
                        self.top += 1
                        var = self.top
                        at_node[v].append(len(pairs))
                        pairs.append((var, i, j))
                        out.append(var)
                        pred.setdefault(j, []).append(var)
                        if arrive is not True:  # the pair needs i to arrive, j to leave
                            add([-var, arrive])
                        if leave is not True:
                            add([-var, leave])
            if not p.closed:
                if p.may_start(v):
                    for j, _ in leaving:
                        if p.may_come_first(colour[j // 2]):
                            starts[j] = start = self._new()
                            pred.setdefault(j, []).append(start)
                            self._implies(start, self.leaves(j))
                if p.may_end(v):
                    for i, _ in arriving:
                        finishes[i] = finish = self._new()
                        succ.setdefault(i, []).append(finish)
                        self._implies(finish, self.arrives(i))
        for here in ends_at:
            for end in here:
                self._exactly_one(self.arrives(end), succ.get(end, []))
                self._exactly_one(self.leaves(end), pred.get(end, []))
        if p.closed:
            self._closed_start(pairs)
        else:
            self._exactly_one(True, list(starts.values()))
        return self.clauses, TransitionMap(pairs, starts, finishes, self.orientation,
                                           self.top, at_node)

    def _closed_start(self, pairs: list[tuple[int, int, int]]) -> None:
        """A closed walk must pass an allowed start (and end) node through a pair whose
        leaving colour may come first: the ring can be started there."""
        p = self.p
        if p.start is None and p.end is None and (p.colours is None or p.first is None):
            return
        ok = []
        for var, i, j in pairs:
            v = TransitionMap.node_of(p, i)
            if p.may_start(v) and p.may_end(v) and p.may_come_first(self.colour[j // 2]):
                ok.append(var)
        self.clauses.append(ok)
