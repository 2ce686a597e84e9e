"""The transition encoding of exactly-once walks: at each node, how the walk pairs edge ends.

A walk that uses every edge once is, at every node it passes, a pairing of the edge
ends there: it arrives through one end and leaves through another. This encoding
chooses those pairings; its size grows with the sum over nodes of the squared degree,
not with edges × positions as the position encoding's
(:mod:`trailkit.models.formulas.position_encoding`). It lives in ``models/`` because a
``transition-v1`` / ``transition-v2`` certificate is a claim about exactly this
formula (plus the cut clauses of :mod:`trailkit.models.formulas.lazy_clauses`).

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
pieces is no walk; :mod:`trailkit.models.formulas.lazy_clauses` defines the *cut clauses* that
forbid them, added lazily by the SAT backend.

**transition-v2** (what the SAT backend builds; ``transition-v1`` is the formula
above, still rebuilt to check older certificates) changes two things:

* *Free nodes* have no pair variables. A node is free when the rules allow every
  pairing there: each colour that may arrive may be followed by each colour that may
  leave, and, if a walk may start there, each colour that may leave may come first
  (every node of an uncoloured puzzle is free). At a free node the formula only
  *balances* the node: the arriving ends, plus one if the walk starts there, equal the
  leaving ends, plus one if it finishes there (node variables ``s[v]`` / ``f[v]``
  for open walks; an exact cardinality constraint over the ``d`` literals). This
  removes the squared degree where it costs most (a dense uncoloured multigraph) and
  loses no walk: a walk balances every node it passes. The pairing at a free node is
  chosen when a model is decoded (:mod:`trailkit.models.formulas.transition_pieces`): any
  pairing is allowed there, and two pieces that meet at a free node are joined into
  one by exchanging their successors there, so a model's pieces never share a free
  node; cut clauses only need pair variables of the other nodes.
* *Bundle order clauses* (:mod:`trailkit.models.formulas.parallel_edges`): interchangeable
  parallel edges are walked from their reference node first, which keeps every
  solvable puzzle solvable (the proof is in that module).

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> clauses, tmap = encode_transitions(p, "transition-v1")
>>> len(tmap.pairs), tmap.describe(p, tmap.pairs[0][0])
(6, 'at a: arrive by edge 0 (a-b), leave by edge 2 (c-a)')
>>> clauses, tmap = encode_transitions(p)
>>> len(tmap.pairs), tmap.free
(0, (True, True, True))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType

from trailkit.models.answer import Walk
from trailkit.models.formulas.certified import Size
from trailkit.models.formulas.parallel_edges import order_clauses
from trailkit.models.formulas.transition_pieces import FINISH, START, FreeNode, pieces_of
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["ENCODING_NAME", "VERSIONS", "TransitionMap", "encode_transitions", "estimate",
           "free_nodes"]

ENCODING_NAME = "transition-v2"
"""The version the SAT backend builds (free nodes and bundle order clauses)."""
VERSIONS = ("transition-v1", "transition-v2")

Clause = list[int]
TRUE = 0
"""``orientation[e]`` of an edge whose orientation is fixed (tail to head)."""
BALANCE = EncType.cardnetwrk
"""The cardinality encoding of a free node's balance: on dense closed trails with half
the edges one-way it solved where the smaller k-modulo totalizer ran out of time, with
half the sequential counter's clauses (``docs/benchmarks.md``)."""


@dataclass(frozen=True)
class TransitionMap:
    """What the variables mean.

    ``pairs[k] = (var, i, j)``: the walk arrives through end ``i`` and leaves through
    ``j``; ``starts`` / ``finishes`` map an end to its ``s`` / ``f`` variable;
    ``orientation[e]`` is ``d[e]`` (0 when fixed forward); ``num_vars`` counts every
    variable, auxiliary ones included. transition-v2: ``free[v]`` says node ``v`` is
    free (balanced, no pairs), ``node_starts`` / ``node_finishes`` map a free node to
    its ``s[v]`` / ``f[v]`` variable.
    """

    pairs: list[tuple[int, int, int]]
    starts: dict[int, int]
    finishes: dict[int, int]
    orientation: list[int]
    num_vars: int
    at_node: list[list[int]] = field(default_factory=list)  # pair indices per node
    free: tuple[bool, ...] = ()
    node_starts: dict[int, int] = field(default_factory=dict)
    node_finishes: dict[int, int] = field(default_factory=dict)
    version: str = ENCODING_NAME

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
        named = ((self.starts, "start by {edge}"), (self.finishes, "finish after {edge}"),
                 (self.node_starts, "start at {node}"), (self.node_finishes, "finish at {node}"))
        for mapping, text in named:
            for key, v in mapping.items():
                if v == var:
                    return text.format(node=puzzle.nodes[key] if "node" in text else "",
                                       edge=_edge(puzzle, key // 2) if "edge" in text else "")
        return "orientation or auxiliary"

    def primary(self) -> list[int]:
        """The variables a walk's model is fixed by: pairs, starts, finishes and
        orientations (the others are auxiliary)."""
        return ([v for v, _, _ in self.pairs] + list(self.starts.values())
                + list(self.finishes.values()) + list(self.node_starts.values())
                + list(self.node_finishes.values()) + [d for d in self.orientation if d])

    # --------------------------------------------------------------- models
    def forward(self, model: Iterable[int]) -> list[bool]:
        """``forward[e]``: edge ``e`` is walked from tail to head in ``model``."""
        value = _values(model, self.num_vars)
        return [d == TRUE or value[d] for d in self.orientation]

    def pieces(self, puzzle: Puzzle, model: Iterable[int]) -> list[list[int]]:
        """The walk's pieces in ``model``, as edge sequences; an open walk's path (from
        its start) first, then the closed cycles. Pieces that meet at a free node are
        joined there (:mod:`trailkit.models.formulas.transition_pieces`)."""
        value = _values(model, self.num_vars)
        forward = [d == TRUE or value[d] for d in self.orientation]
        succ: dict[int, int] = {}
        for var, i, j in self.pairs:
            if value[var]:
                succ[i] = j
        for end, var in self.starts.items():
            if value[var]:
                succ[START] = end
        for end, var in self.finishes.items():
            if value[var]:
                succ[end] = FINISH
        free: list[FreeNode] = []
        if any(self.free):
            at = ends_at(puzzle)
            for v in (v for v, is_free in enumerate(self.free) if is_free):
                s, f = self.node_starts.get(v), self.node_finishes.get(v)
                free.append((at[v], s is not None and value[s], f is not None and value[f]))
        return pieces_of(succ, forward, free)

    def walk(self, puzzle: Puzzle, model: Iterable[int]) -> Walk | None:
        """The walk of a one-piece model (``None`` when it falls apart)."""
        model = list(model)
        pieces = self.pieces(puzzle, model)
        if len(pieces) != 1 or len(pieces[0]) != puzzle.num_edges:
            return None
        edges = pieces[0]
        forward = self.forward(model)
        if puzzle.closed:  # rotate to a pair that may start the walk
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


def ends_at(puzzle: Puzzle) -> list[list[int]]:
    """The ends of the usable edges at each node."""
    at: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e in range(puzzle.num_edges):
        if puzzle.usable(e):
            at[puzzle.tail[e]].append(2 * e)
            at[puzzle.head[e]].append(2 * e + 1)
    return at


def _two_way(puzzle: Puzzle, e: int) -> bool:
    """Whether edge ``e`` has an orientation variable (two-way, not a loop)."""
    return not puzzle.is_directed(e) and puzzle.tail[e] != puzzle.head[e]


def free_nodes(puzzle: Puzzle, at: list[list[int]] | None = None) -> tuple[bool, ...]:
    """``free[v]``: the rules allow every pairing at node ``v`` (transition-v2, see the
    module docstring); a node without usable ends is not free."""
    at = ends_at(puzzle) if at is None else at
    colour = puzzle.colour if puzzle.colour is not None else [-1] * puzzle.num_edges
    follows = puzzle.colour_may_follow
    out = []
    for v, here in enumerate(at):
        # an end may arrive unless it is the tail of a fixed edge, leave unless the head
        arriving = {colour[i // 2] for i in here if i % 2 or _two_way(puzzle, i // 2)}
        leaving = {colour[j // 2] for j in here if not j % 2 or _two_way(puzzle, j // 2)}
        out.append(bool(here)
                   and all(follows(a, b) for a in arriving for b in leaving)
                   and (not puzzle.may_start(v)
                        or all(puzzle.may_come_first(c) for c in leaving)))
    return tuple(out)


def estimate(puzzle: Puzzle, version: str = ENCODING_NAME) -> Size:
    """The size of :func:`encode_transitions`' formula, without building it (an upper
    bound up to the cardinality encodings' constants; measured 1.0 to 2.4 times the
    built formula on trails, dominoes, balanced and colour-cycle multigraphs)."""
    at = ends_at(puzzle)
    free = free_nodes(puzzle, at) if version != "transition-v1" else (False,) * len(at)
    pairs = ends = 0
    variables = clauses = literals = 0
    for v, here in enumerate(at):
        if free[v]:
            # the cardinality network of "exactly about k/2 of k" two-way ends: measured
            # at most 2, 3 and 7 × k lg² variables, clauses and literals (lg = ceil(log2
            # k), k up to 1,000)
            k = sum(1 for end in here if _two_way(puzzle, end // 2))
            lg2 = max(1, (k - 1).bit_length()) ** 2
            variables += 2 * k * lg2
            clauses += 3 * k * lg2
            literals += 7 * k * lg2
            continue
        pairs += _pairs_at(puzzle, here)
        ends += len(here)
    # per pair: 2 implications; per end: at-least-one and a sequential counter of its
    # candidates (about 3 clauses and 1 variable per candidate, for both directions)
    clauses += 2 * pairs + 2 * ends + 6 * pairs + puzzle.num_edges
    literals += 4 * pairs + 2 * (pairs + ends) + 6 * 2 * pairs + 2 * puzzle.num_edges
    variables += pairs + 2 * ends + puzzle.num_edges + 2 * pairs
    return Size(variables, clauses, literals)


def _pairs_at(puzzle: Puzzle, here: list[int]) -> int:
    """How many pair variables a node with the ends ``here`` gets (counted by colour:
    arriving ends of a colour times leaving ends of each colour that may follow)."""
    colour = puzzle.colour
    arriving: dict[int, int] = {}
    leaving: dict[int, int] = {}
    both: dict[int, int] = {}  # two-way ends: counted on both sides, never paired alone
    for end in here:
        c = -1 if colour is None else colour[end // 2]
        two_way = _two_way(puzzle, end // 2)
        if end % 2 or two_way:
            arriving[c] = arriving.get(c, 0) + 1
        if not end % 2 or two_way:
            leaving[c] = leaving.get(c, 0) + 1
        if two_way:
            both[c] = both.get(c, 0) + 1
    follows = puzzle.colour_may_follow
    return (sum(n * m for a, n in arriving.items() for b, m in leaving.items()
                if follows(a, b))
            - sum(n for c, n in both.items() if follows(c, c)))


def encode_transitions(puzzle: Puzzle, version: str = ENCODING_NAME
                       ) -> tuple[list[Clause], TransitionMap]:
    """The transition clauses of an exactly-once puzzle with at least one edge (see the
    module docstring); their one-piece models are exactly its walks (transition-v2:
    those whose bundles are in order, one at least for every walk)."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        raise ValueError("the transition encoding is for walks that use every edge exactly "
                         "once")
    if puzzle.num_edges == 0:
        raise ValueError("a puzzle without edges is decided without a solver")
    if version not in VERSIONS:
        raise ValueError(f"unknown transition encoding {version!r}; this trailkit builds "
                         f"{', '.join(VERSIONS)}")
    return _Builder(puzzle, version).build()


def _free_ends(here: list[int], arrives: Callable[[int], int | bool]) -> tuple[list[int], int]:
    """A free node's ends ``here`` as its balance (:meth:`_Builder._balance`) reads them:
    the arriving literals ``x`` of its two-way ends, and ``D`` = fixed departures +
    two-way ends - fixed arrivals (``arrives`` says which end arrives)."""
    lits: list[int] = []
    fixed_in = fixed_out = 0
    for end in here:
        arrive = arrives(end)
        if arrive is True:
            fixed_in += 1
        elif arrive is False:
            fixed_out += 1
        else:
            lits.append(arrive)
    return lits, fixed_out + len(lits) - fixed_in


class _Builder:
    """Builds one transition encoding, one clause family per method."""

    def __init__(self, puzzle: Puzzle, version: str) -> None:
        self.p = puzzle
        self.version = version
        self.top = 0
        self.clauses: list[Clause] = []
        m = puzzle.num_edges
        self.orientation = [TRUE] * m
        for e in range(m):
            if _two_way(puzzle, e):
                self.orientation[e] = self._new()
        self.colour = puzzle.colour if puzzle.colour is not None else [-1] * m
        # The tables :meth:`build` fills (see :class:`TransitionMap`).
        self.pairs: list[tuple[int, int, int]] = []
        self.at_node: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
        self.starts: dict[int, int] = {}
        self.finishes: dict[int, int] = {}
        self.node_starts: dict[int, int] = {}
        self.node_finishes: dict[int, int] = {}
        #: per edge end, the pairs (and the finish) it may go on to / come from
        self.succ: dict[int, list[int]] = {}
        self.pred: dict[int, list[int]] = {}

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

    def walked_from(self, e: int, node: int) -> int | bool:
        """"Edge ``e`` is walked from ``node``" (one of its ends)."""
        return self.leaves(2 * e if self.p.tail[e] == node else 2 * e + 1)

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

    def _exactly(self, lits: Sequence[int], k: int) -> None:
        """Exactly ``k`` of ``lits`` are true (the empty clause if that cannot be)."""
        if k < 0 or k > len(lits):
            self.clauses.append([])
        elif k == 0 or k == len(lits):
            self.clauses.extend([lit if k else -lit] for lit in lits)
        else:
            enc = CardEnc.equals(list(lits), bound=k, top_id=self.top, encoding=BALANCE)
            self.clauses.extend(enc.clauses)
            self.top = max(self.top, enc.nv)

    def build(self) -> tuple[list[Clause], TransitionMap]:
        p = self.p
        for e in range(p.num_edges):
            if not p.usable(e):
                self.clauses.append([])  # exactly once, yet never walkable
        at = ends_at(p)
        v2 = self.version == "transition-v2"
        free = free_nodes(p, at) if v2 else (False,) * p.num_nodes
        for v, here in enumerate(at):
            if free[v]:
                self._balance(v, here, self.node_starts, self.node_finishes)
            else:
                self._pair_up(v, here)
        for v, here in enumerate(at):
            if free[v]:
                continue
            for end in here:
                self._exactly_one(self.arrives(end), self.succ.get(end, []))
                self._exactly_one(self.leaves(end), self.pred.get(end, []))
        if p.closed:
            self._closed_start(self.pairs, free)
        else:
            self._exactly_one(True, [*self.starts.values(), *self.node_starts.values()])
        if v2:
            self.clauses.extend(order_clauses(p, self.walked_from))
        return self.clauses, TransitionMap(self.pairs, self.starts, self.finishes,
                                           self.orientation, self.top, self.at_node, free,
                                           self.node_starts, self.node_finishes,
                                           self.version)

    def _pair_up(self, v: int, here: list[int]) -> None:
        """Node ``v`` (not free): a variable per (arriving end, leaving end) pair whose
        colours may follow each other, and the walk's start and finish literals here."""
        colour, follows, add = self.colour, self.p.colour_may_follow, self.clauses.append
        arriving = [(i, self.arrives(i)) for i in here if self.arrives(i) is not False]
        leaving = [(j, self.leaves(j)) for j in here if self.leaves(j) is not False]
        for i, arrive in arriving:
            ci = colour[i // 2]
            out = self.succ.setdefault(i, [])
            for j, leave in leaving:
                if j != i and follows(ci, colour[j // 2]):
                    self.top += 1
                    var = self.top
                    self.at_node[v].append(len(self.pairs))
                    self.pairs.append((var, i, j))
                    out.append(var)
                    self.pred.setdefault(j, []).append(var)
                    if arrive is not True:  # the pair needs i to arrive, j to leave
                        add([-var, arrive])
                    if leave is not True:
                        add([-var, leave])
        if not self.p.closed:
            self._open_ends(v, [i for i, _ in arriving], [j for j, _ in leaving])

    def _open_ends(self, v: int, arriving: list[int], leaving: list[int]) -> None:
        """An open walk may start at ``v`` by a leaving end, finish by an arriving one."""
        p, colour = self.p, self.colour
        if p.may_start(v):
            for j in leaving:
                if p.may_come_first(colour[j // 2]):
                    self.starts[j] = start = self._new()
                    self.pred.setdefault(j, []).append(start)
                    self._implies(start, self.leaves(j))
        if p.may_end(v):
            for i in arriving:
                self.finishes[i] = finish = self._new()
                self.succ.setdefault(i, []).append(finish)
                self._implies(finish, self.arrives(i))

    def _balance(self, v: int, here: list[int], node_starts: dict[int, int],
                 node_finishes: dict[int, int]) -> None:
        """A free node: arrivals + [start here] = departures + [finish here]. With ``x``
        the arriving literals of its two-way ends and ``D`` = fixed departures + two-way
        ends - fixed arrivals, that is ``2 * sum(x) = D + f - s``: for ``D`` even,
        ``s = f`` and ``sum(x) = D / 2``; for ``D`` odd, exactly one of ``s``, ``f``
        and ``sum(x) + s = (D + 1) / 2``."""
        p = self.p
        lits, d = _free_ends(here, self.arrives)
        s = f = None
        if not p.closed:
            if p.may_start(v):
                s = node_starts[v] = self._new()
            if p.may_end(v):
                f = node_finishes[v] = self._new()
        add = self.clauses.append
        if d % 2 == 0:  # s = f
            if s is not None and f is not None:
                add([-s, f])
                add([s, -f])
            for only in (s if f is None else None, f if s is None else None):
                if only is not None:
                    add([-only])
            self._exactly(lits, d // 2)
        elif s is not None and f is not None:  # exactly one of s, f
            add([s, f])
            add([-s, -f])
            self._exactly([*lits, s], (d + 1) // 2)
        elif s is not None:
            add([s])
            self._exactly(lits, (d - 1) // 2)
        elif f is not None:
            add([f])
            self._exactly(lits, (d + 1) // 2)
        else:
            add([])  # an odd balance, and the walk can neither start nor end here

    def _closed_start(self, pairs: list[tuple[int, int, int]], free: Sequence[bool]) -> None:
        """A closed walk must pass an allowed start (and end) node through a pair whose
        leaving colour may come first: the ring can be started there. (A free node that
        is an allowed start and end satisfies this by itself: the walk passes it, and
        any colour leaving it may come first.)"""
        p = self.p
        if p.start is None and p.end is None and (p.colours is None or p.first is None):
            return
        if any(free[v] and p.may_start(v) and p.may_end(v) for v in range(p.num_nodes)):
            return
        ok = []
        for var, i, j in pairs:
            v = TransitionMap.node_of(p, i)
            if p.may_start(v) and p.may_end(v) and p.may_come_first(self.colour[j // 2]):
                ok.append(var)
        self.clauses.append(ok)
