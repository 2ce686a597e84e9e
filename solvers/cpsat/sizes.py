"""The CP-SAT circuit model's size, estimated before it is built, and the memory budget.

The oriented-edge circuit model (:mod:`.circuit_model`) has one arc per pair of
oriented edges that meet at a node (in × out at every node, the sum of the squared
degrees) plus a start and an end arc per oriented edge. Measured on random Eulerian
multigraphs (1,000 and 3,000 edges, one worker), CP-SAT's peak memory grows by
about 3 KB per arc: a model over ``Limits.memory_mb`` is not built, and the answer
is ``unknown`` with the estimate. CP-SAT is also told the budget
(``max_memory_in_mb``), so it stops rather than grows past it while it searches.
"""

from __future__ import annotations

from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.sat.sizes import meeting_steps

__all__ = ["BYTES_PER_ARC", "circuit_arcs", "circuit_problem"]

BYTES_PER_ARC = 3_000
BASE_MB = 100


def circuit_arcs(puzzle: Puzzle) -> int:
    """The number of arcs of the circuit model, counted from the degrees (an upper
    bound: colour rules and the pivot remove some)."""
    steps, meets = meeting_steps(puzzle)
    return meets + 2 * steps


def circuit_problem(puzzle: Puzzle, memory_mb: int | None) -> str | None:
    """Why the circuit model of ``puzzle`` must not be built within ``memory_mb``
    (``None``: it may, or the puzzle uses the state model of reusable edges)."""
    if memory_mb is None or puzzle.use is EdgeUse.ANY:
        return None
    arcs = circuit_arcs(puzzle)
    need = BASE_MB + arcs * BYTES_PER_ARC / 1e6
    if need <= memory_mb:
        return None
    return (f"the CP-SAT circuit model would need about {need:,.0f} MB ({arcs:,} arcs), more "
            f"than the memory limit of {memory_mb:,} MB, so it was not built; try the direct "
            "backend or sat/transition, or a larger --memory-limit if the machine has the "
            "memory")
