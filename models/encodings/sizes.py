"""Size estimates of every model trailkit builds, made before building it, and the
memory budget.

A model that would not fit in ``Limits.memory_mb`` is never built: the backend answers
``unknown`` with the estimate and a hint instead of growing until the machine runs out
of memory. The estimates count from the puzzle's degrees alone. They live here, below
every backend, because they are facts of the puzzle and its encodings that several
backends ask (the SAT backend picks its encoding by them; CP-SAT's circuit model has
the same meeting pairs as the position encoding).

SAT encodings (measured against the built formulas: the position encoding's within
about 15% on random Eulerian multigraphs, the transition encoding's an upper bound,
1.0 to 2.4 times); :meth:`~trailkit.models.formulas.certified.Size.megabytes` turns them into
memory:

* position encoding: ``L`` steps × the oriented edges, and per step the pairs of
  oriented edges that meet (the sum over nodes of in × out): it grows with
  edges × (edges + squared degrees);
* node-positions-v1 (node rules): the position encoding's prefix over the node
  horizon, plus per step two definition clauses per oriented edge and per node and
  position the at-most-one of a sequential counter;
* transition encoding (transition-v2): at each node the colour rule restricts, the
  ordered pairs of edge ends the rule allows (up to the squared degree) and their
  at-most-one constraints; at each free node a cardinality network over its two-way
  ends (degree × log² degree).

CP-SAT's oriented-edge circuit model has one arc per pair of oriented edges that meet
at a node (in × out at every node, the sum of the squared degrees) plus a start and an
end arc per oriented edge; CP-SAT's peak memory grows by about :data:`BYTES_PER_ARC`
per arc (measured on random Eulerian multigraphs, one worker). CP-SAT is also told the
budget (``max_memory_in_mb``), so it stops rather than grows past it while it searches.
"""

from __future__ import annotations

from trailkit.models.encodings.node_circuit import node_circuit_arcs, node_level
from trailkit.models.formulas.certified import Size
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["BYTES_PER_ARC", "EXPORT_HINT", "budget_problem", "circuit_arcs", "circuit_problem",
           "export_problem", "meeting_steps", "node_cuts_size", "node_rule_size",
           "position_size",
           "transition_size"]

BYTES_PER_ARC = 3_000
BASE_MB = 100


def meeting_steps(puzzle: Puzzle) -> tuple[int, int]:
    """The oriented edges a step may take, and the ordered pairs of them that meet (one
    arrives where the other leaves: the sum over nodes of in × out)."""
    oriented = puzzle.oriented_edges()
    arriving = [0] * puzzle.num_nodes
    leaving = [0] * puzzle.num_nodes
    for e, o in oriented:
        u, v = (puzzle.tail[e], puzzle.head[e]) if o == 0 else (puzzle.head[e], puzzle.tail[e])
        leaving[u] += 1
        arriving[v] += 1
    return len(oriented), sum(a * b for a, b in zip(arriving, leaving, strict=True))


def transition_size(puzzle: Puzzle) -> Size:
    """The size of the transition encoding (transition-v2), without building it (imported
    when asked: the encoding's module loads python-sat, which CP-SAT never needs)."""
    from trailkit.models.formulas.transition_encoding import estimate

    return estimate(puzzle)


def position_size(puzzle: Puzzle, length: int) -> Size:
    """The size of the position encoding of ``length`` steps (fixed length or prefix)."""
    count, meets = meeting_steps(puzzle)
    m = puzzle.num_edges
    clauses = length * (4 * count + 6 * m + 2)
    literals = length * (meets + 7 * count + 12 * m)
    return Size(length * 2 * count + 2 * length * m, clauses, literals)


def node_rule_size(puzzle: Puzzle) -> Size:
    """The size of ``node-positions-v1`` (:mod:`trailkit.models.formulas.node_positions`):
    the position encoding's prefix over the node horizon and the node literals."""
    from trailkit.models.formulas.node_positions import node_horizon, node_size

    horizon = node_horizon(puzzle)
    return node_size(puzzle, horizon, position_size(puzzle, horizon))


def node_cuts_size(puzzle: Puzzle) -> Size:
    """The size of ``node-cuts-v1``'s base formula: an arc literal per oriented edge, and
    per node two exactly-one constraints of a sequential counter over its arcs (the cut
    clauses come later, each at most one literal per arc)."""
    arcs = len(puzzle.oriented_edges())
    n = puzzle.num_nodes
    return Size(3 * arcs + 2 * n, 6 * arcs + 4 * n, 14 * arcs + 8 * n)


def budget_problem(size: Size, memory_mb: int | None, what: str, hint: str) -> str | None:
    """Why a formula of ``size`` must not be built within ``memory_mb`` (``None``: it may)."""
    if memory_mb is None:
        return None
    need = size.megabytes()
    if need <= memory_mb:
        return None
    return (f"the {what} would need about {need:,.0f} MB ({size.variables:,} variables, "
            f"{size.clauses:,} clauses, {size.literals:,} literals), more than the memory "
            f"limit of {memory_mb:,} MB, so it was not built; {hint}")


EXPORT_HINT = ("export a smaller puzzle, or pass a larger --memory-limit (0: none) if the "
               "machine has the memory; 'trailkit solve --backend sat' picks a smaller "
               "encoding by itself")


def export_problem(puzzle: Puzzle, length: int, memory_mb: int | None) -> str | None:
    """Why ``export --format dimacs`` must not build the position encoding of ``length``
    steps (as Python lists, then as text) within ``memory_mb`` (``None``: it may). A
    1,000-edge path is 20 KB of spec and over 3 GB of formula: estimated here first."""
    return budget_problem(position_size(puzzle, length), memory_mb,
                          "DIMACS formula (position encoding)", EXPORT_HINT)


# ------------------------------------------------------------- CP-SAT's circuit model
def circuit_arcs(puzzle: Puzzle) -> int:
    """The number of arcs of the circuit model, counted from the degrees (an upper
    bound: colour rules and the pivot remove some)."""
    steps, meets = meeting_steps(puzzle)
    return meets + 2 * steps


def circuit_problem(puzzle: Puzzle, memory_mb: int | None) -> str | None:
    """Why the circuit model of ``puzzle`` must not be built within ``memory_mb``
    (``None``: it may, or the puzzle uses the state model of reusable edges). A puzzle
    under node rules that forbid a second visit has the node-level circuit
    (:func:`~trailkit.models.encodings.node_circuit.node_level`): an arc per oriented edge."""
    node = puzzle.has_node_rules and node_level(puzzle)
    if memory_mb is None or (puzzle.use is EdgeUse.ANY and not node):
        return None
    arcs = node_circuit_arcs(puzzle) if node else circuit_arcs(puzzle)
    need = BASE_MB + arcs * BYTES_PER_ARC / 1e6
    if need <= memory_mb:
        return None
    return (f"the CP-SAT circuit model would need about {need:,.0f} MB ({arcs:,} arcs), more "
            f"than the memory limit of {memory_mb:,} MB, so it was not built; try the direct "
            "backend or sat/transition, or a larger --memory-limit if the machine has the "
            "memory")
