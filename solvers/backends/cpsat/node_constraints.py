"""Node rules on the oriented-edge circuit model, where the node-level circuit cannot say
them: a colour rule, every edge required, or ``visit: any`` with checkpoints and givens.

The positions of a walk are its start and the node each step arrives at (for a closed
walk, every step's arrival: the last arrives at the start, which is no new position).
In the edge model a step is taken exactly when one arc into its circuit node is, so the
positions a node holds are a sum of arc literals, and the rules are linear:

* ``visit: at-most-once``: at most one; ``every-once``: exactly one for each node not
  avoided; ``via``: at least one; ``avoid``: the steps touching it are not in the model
  at all (:func:`~.encoding.usable_steps`);
* ``at: {v: p}``: each step's order ``ord[s]`` (1 for the first step, one more along
  every arc, 0 for a step not taken); ``p = 1`` is a start at ``v``, ``p > 1`` a step of
  order ``p - 1`` arriving at ``v`` (and, closed, not the last step: ``p`` at most the
  length).

Walks that reuse edges (the state model) cannot be given these rules soundly (a shortest
walk through a checkpoint may repeat a state), so :func:`refuse_node_rules` says which
backend can.
"""

from __future__ import annotations

from collections import defaultdict

from ortools.sat.python import cp_model

from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.cpsat.encoding import DEPOT, Encoding

__all__ = ["add_node_rules", "refuse_node_rules"]


def refuse_node_rules(puzzle: Puzzle) -> None:
    """Raise :class:`UnsupportedPuzzle` for node rules no CP-SAT model here states soundly:
    reusable edges with a checkpoint, a given or (under a colour rule) ``visit``."""
    if puzzle.use is not EdgeUse.ANY:
        return
    if puzzle.via or puzzle.at or puzzle.visit is not NodeVisit.ANY:
        raise UnsupportedPuzzle(
            "the cpsat backend cannot combine reusable edges (use: any) with "
            + ("visit under a colour rule" if not (puzzle.via or puzzle.at)
               else "via or at") + "; use --backend direct")


def add_node_rules(puzzle: Puzzle, enc: Encoding) -> None:
    """Add ``visit``, ``via`` and ``at`` to the oriented-edge circuit model ``enc``."""
    model = enc.model
    held: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    starts: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    for arc in enc.arcs:
        if arc.steps:
            held[arc.steps[0].dst].append(arc.lit)
        if arc.start is not None:
            starts[arc.start].append(arc.lit)
            if not puzzle.closed:
                held[arc.start].append(arc.lit)
    for v in range(puzzle.num_nodes):
        if v in puzzle.avoid:
            continue
        count = sum(held.get(v, []))
        if puzzle.visit is NodeVisit.EVERY_ONCE:
            model.add(count == 1)
        elif puzzle.visit is NodeVisit.AT_MOST_ONCE:
            model.add(count <= 1)
        if v in puzzle.via:
            model.add(count >= 1)
    if puzzle.at:
        _givens(puzzle, enc, starts)


def _givens(puzzle: Puzzle, enc: Encoding,
            starts: dict[int, list[cp_model.IntVar]]) -> None:
    """The positions of ``at:`` by each step's order along the circuit."""
    model = enc.model
    top = len({a.head for a in enc.arcs if a.head != DEPOT})
    into: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    dst: dict[int, int] = {}
    for arc in enc.arcs:
        if arc.head != DEPOT:
            into[arc.head].append(arc.lit)
            dst[arc.head] = arc.steps[0].dst
    nodes = {a.tail for a in enc.arcs if a.tail != DEPOT} | set(into)
    order = {c: model.new_int_var(0, top, f"ord{c}") for c in nodes}
    for c in nodes:  # a step not taken (no arc into it) has order 0
        model.add(order[c] == 0).only_enforce_if([lit.Not() for lit in into.get(c, [])])
    for arc in enc.arcs:
        if arc.head == DEPOT:
            continue
        if arc.tail == DEPOT:
            model.add(order[arc.head] == 1).only_enforce_if(arc.lit)
        else:
            model.add(order[arc.head] == order[arc.tail] + 1).only_enforce_if(arc.lit)
    for v, p in puzzle.at.items():
        if p == 1:
            model.add(sum(starts.get(v, [])) == 1)
            continue
        if puzzle.closed:
            model.add(enc.length >= p)
        options = []
        for c, node in dst.items():
            if node == v:
                b = model.new_bool_var(f"at{v}_{c}")
                model.add(order[c] == p - 1).only_enforce_if(b)
                options.append(b)
        model.add_bool_or(options)
