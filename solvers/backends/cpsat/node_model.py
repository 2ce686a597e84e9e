"""The node-level circuit model: walks that visit no node twice, as one ``AddCircuit``.

Used when :func:`~trailkit.models.encodings.node_circuit.node_level` holds (``visit:
at-most-once`` or ``every-once``, no colour rule, edges not all required): one circuit
node per puzzle node, an arc literal per ordered pair of nodes a step may join (parallel
edges share it: :class:`~trailkit.models.encodings.node_circuit.Moves`), and a node's
self-loop literal where the walk may leave it out (none under every-once, none for a
checkpoint or a given; fixed true for an avoided node).

* An open walk runs through a *depot* (circuit node 0): ``depot -> v`` at an allowed
  start, ``v -> depot`` at an allowed end, never both at one node (the empty walk is
  answered apart, as in the other models).
* A closed walk is the circuit itself, with no depot: ``st[v]`` marks its start (an
  allowed start and end), one per walk, made only where something depends on it (a
  restricted start, a given); otherwise every node of the ring may start it, and a
  count multiplies each ring by its length rather than enumerating its rotations. A closed walk
  of one step is a self-loop (``loop`` literals, all other nodes then left out), and
  one of two steps uses two different edges unless edges are reusable.
* ``at:`` gives each node a position ``pos[v]`` (0 for a node left out): 1 at the
  start, one more along every arc (not into the start of a closed walk).

The objectives count arcs between nodes (steps), as the other models count steps.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from trailkit.models.answer import Walk
from trailkit.models.encodings.node_circuit import Moves, loop_walks, two_step_rings
from trailkit.models.puzzle import NodeVisit, Objective, Puzzle
from trailkit.solvers.backends.cpsat.encoding import DEPOT, Encoding, Value

__all__ = ["NodeEncoding", "encode_node_circuit"]


@dataclass
class NodeEncoding(Encoding):
    """An :class:`Encoding` whose circuit nodes are the puzzle's nodes.

    Arc ``i`` (between nodes, or the depot's) is chosen when ``lits[i]`` is true and
    joins the puzzle nodes ``ends[i]`` (``-1`` for the depot): plain lists, not
    :class:`Arc` objects, as a Hamiltonian cycle on a thousand nodes has ten thousand
    arcs to build at once. ``starts`` are the start literals of a closed walk by node,
    ``loops`` the one-step closed walks (node, edge) with their literals, ``active``
    each node's "holds a position" literal (or 0 / 1 where it is fixed).
    """

    moves: Moves = field(default_factory=lambda: Moves({}, False))
    lits: list[cp_model.IntVar] = field(default_factory=list)
    ends: list[tuple[int, int]] = field(default_factory=list)
    starts: dict[int, cp_model.IntVar] = field(default_factory=dict)
    loops: list[tuple[int, int, cp_model.IntVar]] = field(default_factory=list)
    active: dict[int, cp_model.IntVar | int] = field(default_factory=dict)
    closed: bool = False

    def chosen(self, value: Value) -> list[int]:
        """The chosen arcs, then the start and one-step loop chosen (one walk's key)."""
        key = [i for i, lit in enumerate(self.lits) if value(lit)]
        key += [-1 - v for v, lit in self.starts.items() if value(lit)]
        key += [-10**9 - i for i, (_, _, lit) in enumerate(self.loops) if value(lit)]
        return key

    def decode(self, value: Value) -> Walk:
        for v, e, lit in self.loops:
            if value(lit):
                return Walk((v, v), (e,))
        nodes = self._nodes(value)
        return Walk(tuple(nodes), self.moves.edges(nodes))

    def multiplicity(self, value: Value) -> int:
        """The walks one solution stands for: parallel edges, and for a ring without
        start literals (every node on it may start) each of its nodes as the start."""
        if any(value(lit) for _, _, lit in self.loops):
            return 1
        nodes = self._nodes(value)
        starts = len(nodes) - 1 if self.closed and not self.starts else 1
        return self.moves.walks(nodes) * starts

    def _nodes(self, value: Value) -> list[int]:
        """The walk's nodes in order, followed from its start along the chosen arcs."""
        succ = {u: v for (u, v), lit in zip(self.ends, self.lits, strict=True) if value(lit)}
        if self.closed:
            chosen = [v for v, lit in self.starts.items() if value(lit)]
            first = chosen[0] if chosen else min(succ)
            stop = first
        else:
            first, stop = succ[-1], -1
        nodes = [first]
        at = succ[first]
        while at != stop and len(nodes) <= len(succ):
            nodes.append(at)
            at = succ[at]
        return [*nodes, first] if self.closed else nodes


def _add_circuit(model: cp_model.CpModel, enc: NodeEncoding, base: int) -> None:
    """The one circuit over the nodes (circuit node ``base + v``) and the depot, with a
    skip for every node off the walk; without arcs, only a one-step loop can be the
    walk (or none, and the model is infeasible)."""
    skips: list[tuple[int, int, cp_model.LiteralT]] = [
        (base + v, base + v, lit) for v, lit in _skips(model, enc)]
    if enc.lits:
        model.add_circuit([*((base + u if u >= 0 else DEPOT, base + v if v >= 0 else DEPOT, lit)
                             for (u, v), lit in zip(enc.ends, enc.lits, strict=True)), *skips])
    elif enc.loops:  # no arc at all: no ring or path, only a one-step loop
        model.add_bool_and([lit for *_, lit in skips])
    else:
        model.add_bool_or([])  # no step can be taken at all


def _add_length(model: cp_model.CpModel, puzzle: Puzzle, enc: NodeEncoding,
                inner: list[cp_model.IntVar]) -> None:
    """The walk's length (its arcs between nodes and its one-step loops) and the
    objective on it; without one, no LP relaxation (it only costs time)."""
    enc.length = cp_model.LinearExpr.sum([*inner, *(lit for *_, lit in enc.loops)])
    if puzzle.objective is Objective.SHORTEST:
        model.minimize(enc.length)
    elif puzzle.wants_longest:
        model.maximize(enc.length)
    else:
        enc.params["linearization_level"] = 0


def encode_node_circuit(puzzle: Puzzle) -> NodeEncoding:
    """Build the node-level model of ``puzzle`` (see the module docstring)."""
    model = cp_model.CpModel()
    enc = NodeEncoding(model, [], 0, what="node-level circuit model, no node visited twice",
                       proof_note="", moves=Moves.of(puzzle), closed=puzzle.closed)
    base = 0 if puzzle.closed else 1  # circuit node of puzzle node v
    loops = loop_walks(puzzle)
    enc.loops = [(v, e, model.new_bool_var(f"loop{e}")) for v, e in loops]
    _node_literals(model, puzzle, enc)
    stuck = _stuck_node(puzzle, enc)
    if stuck is not None:  # plainly infeasible: said without building ten thousand arcs
        model.add_bool_or([])
        enc.proof_note = (f"node {puzzle.node_name(stuck)} must hold a position but has "
                          "no way in and out" + (" through two different neighbours"
                                                 if puzzle.closed else ""))
        return enc
    pair_lit = _inner_arcs(enc)
    inner = list(enc.lits)
    if two_step_rings(puzzle):
        for (u, v), lit in pair_lit.items():
            if u < v and (v, u) in pair_lit and not enc.moves.twice(u, v):
                model.add_bool_or([lit.Not(), pair_lit[(v, u)].Not()])
    if puzzle.closed:
        _closed_walk(model, puzzle, enc)
    else:
        _open_walk(model, puzzle, enc)
        if not (any(u == -1 for u, _ in enc.ends) and any(v == -1 for _, v in enc.ends)):
            model.add_bool_or([])  # no allowed start or end: the depot has no arc
    _add_circuit(model, enc, base)
    if puzzle.at:
        _positions(model, puzzle, enc)
    _add_length(model, puzzle, enc, inner)
    enc.proof_note = (f"the circuit over {puzzle.num_nodes} nodes"
                      + ("" if puzzle.closed else " and a depot")
                      + f" ({len(enc.lits)} arcs) has no solution")
    enc.size = {"circuit_nodes": puzzle.num_nodes + base, "arcs": len(enc.lits)}
    return enc


def _stuck_node(puzzle: Puzzle, enc: NodeEncoding) -> int | None:
    """A node that must hold a position on a ring or path but cannot: no way in or out
    (the depot's arcs count for an open walk), or on a ring of three nodes or more a
    single neighbour. ``None`` when there is none."""
    forced = [v for v, on in enc.active.items() if isinstance(on, int) and on == 1]
    if not forced:
        return None
    ins: dict[int, set[int]] = defaultdict(set)
    outs: dict[int, set[int]] = defaultdict(set)
    for (u, v) in enc.moves.pairs:
        outs[u].add(v)
        ins[v].add(u)
    ring3 = puzzle.closed and not two_step_rings(puzzle)
    for v in forced:
        way_in = ins[v] or (not puzzle.closed and puzzle.may_start(v))
        way_out = outs[v] or (not puzzle.closed and puzzle.may_end(v))
        if not (way_in and way_out) or (ring3 and len(ins[v] | outs[v]) < 2):
            return v
    return None


def _inner_arcs(enc: NodeEncoding) -> dict[tuple[int, int], cp_model.IntVar]:
    """An arc literal per pair of nodes a step may join."""
    new, lits, ends = enc.model.new_bool_var, enc.lits, enc.ends
    out = {}
    for (u, v) in enc.moves.pairs:
        lit = out[(u, v)] = new(f"a{u}_{v}")
        lits.append(lit)
        ends.append((u, v))
    return out


def _arc(enc: NodeEncoding, ends: tuple[int, int], name: str) -> cp_model.IntVar:
    lit = enc.model.new_bool_var(name)
    enc.lits.append(lit)
    enc.ends.append(ends)
    return lit


def _node_literals(model: cp_model.CpModel, puzzle: Puzzle, enc: NodeEncoding) -> None:
    """``active[v]``: node ``v`` holds a position on a ring or path (1 for a node that
    must, 0 avoided; a node that must, where a one-step loop may stand instead: on the
    ring or the loop's node)."""
    must = set(puzzle.via) | set(puzzle.at)
    for v in range(puzzle.num_nodes):
        if v in puzzle.avoid:
            enc.active[v] = 0
        elif not (puzzle.visit is NodeVisit.EVERY_ONCE or v in must):
            enc.active[v] = model.new_bool_var(f"on{v}")
        elif not enc.loops:
            enc.active[v] = 1
        else:
            on = enc.active[v] = model.new_bool_var(f"on{v}")
            model.add_bool_or([on, *(lit for u, _, lit in enc.loops if u == v)])


def _skips(model: cp_model.CpModel, enc: NodeEncoding) -> list[tuple[int, cp_model.LiteralT]]:
    """The self-loop literal of every node that may be left out (constant for avoided)."""
    out: list[tuple[int, cp_model.LiteralT]] = []
    for v, on in enc.active.items():
        if isinstance(on, int):
            if on == 0:
                out.append((v, model.new_constant(1)))
        else:
            out.append((v, on.Not()))
    return out


def _open_walk(model: cp_model.CpModel, puzzle: Puzzle, enc: NodeEncoding) -> None:
    """The depot's arcs: into the walk at an allowed start, out at an allowed end; a walk
    of one position only (the empty walk) is answered apart."""
    for v in range(puzzle.num_nodes):
        if v in puzzle.avoid:
            continue
        start = _arc(enc, (-1, v), f"start{v}") \
            if puzzle.may_start(v) else None
        end = _arc(enc, (v, -1), f"end{v}") if puzzle.may_end(v) else None
        if start is not None and end is not None:
            model.add_bool_or([start.Not(), end.Not()])


def _closed_walk(model: cp_model.CpModel, puzzle: Puzzle, enc: NodeEncoding) -> None:
    """A ring through the nodes or (``ring`` false) a one-step loop; the ring's start
    where it matters."""
    ons = [on for on in enc.active.values() if not isinstance(on, int)]
    forced = any(on == 1 for on in enc.active.values() if isinstance(on, int))
    ring: cp_model.IntVar | int = 1
    if enc.loops:
        ring = ring_lit = model.new_bool_var("ring")
        model.add(ring_lit + sum(lit for *_, lit in enc.loops) == 1)
        for lit in ons:
            model.add_implication(lit, ring_lit)
        if forced:
            model.add(ring_lit == 1)
        elif ons:
            model.add_bool_or(ons).only_enforce_if(ring_lit)
    elif not forced and ons:
        model.add_bool_or(ons)
    restricted = any(not (puzzle.may_start(v) and puzzle.may_end(v))
                     for v in range(puzzle.num_nodes) if v not in puzzle.avoid)
    if restricted or puzzle.at:  # (else any node of the ring starts: counted apart)
        for v, on in enc.active.items():
            if (isinstance(on, int) and on == 0) or not (puzzle.may_start(v)
                                                       and puzzle.may_end(v)):
                continue
            enc.starts[v] = model.new_bool_var(f"st{v}")
            if not isinstance(on, int):
                model.add_implication(enc.starts[v], on)
        model.add(sum(enc.starts.values()) == ring)


def _positions(model: cp_model.CpModel, puzzle: Puzzle, enc: NodeEncoding) -> None:
    """``pos[v]``: node ``v``'s position (0 when left out); the givens of ``at:``."""
    size = puzzle.num_nodes - len(puzzle.avoid)
    pos = {v: model.new_int_var(0, size, f"pos{v}") for v in enc.active}
    for v, on in enc.active.items():
        if isinstance(on, int):
            model.add(pos[v] >= on)
            if on == 0:
                model.add(pos[v] == 0)
        else:
            model.add(pos[v] == 0).only_enforce_if(on.Not())
            model.add(pos[v] >= 1).only_enforce_if(on)
    for lit, (u, v) in zip(enc.lits, enc.ends, strict=True):
        if v == -1:
            continue
        if u == -1:
            model.add(pos[v] == 1).only_enforce_if(lit)
        elif v in enc.starts:
            model.add(pos[v] == pos[u] + 1).only_enforce_if([lit, enc.starts[v].Not()])
        else:
            model.add(pos[v] == pos[u] + 1).only_enforce_if(lit)
    for v, st in enc.starts.items():
        model.add(pos[v] == 1).only_enforce_if(st)
    for v, p in puzzle.at.items():
        on = enc.active[v]
        if p > size:
            model.add_bool_or([])
        elif isinstance(on, int):
            model.add(pos[v] == p)
        else:  # a loop may stand for the ring: then the loop's node is the given
            model.add(pos[v] == p).only_enforce_if(on)
