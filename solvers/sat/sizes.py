"""Size estimates of the SAT encodings, made before building them, and the memory budget.

A formula that would not fit in ``Limits.memory_mb`` is never built: the backend
answers ``unknown`` with the estimate and a hint instead of growing until the
machine runs out of memory. The estimates count variables, clauses and literals
from the puzzle's degrees alone (measured against the built formulas: the position
encoding's within about 15% on random Eulerian multigraphs, the transition
encoding's an upper bound, 1.0 to 2.4 times), and
:meth:`~trailkit.models.formulas.Size.megabytes` turns them into memory.

* position encoding: ``L`` steps × the oriented edges, and per step the pairs of
  oriented edges that meet (the sum over nodes of in × out): it grows with
  edges × (edges + squared degrees);
* transition encoding (transition-v2): at each node the colour rule restricts, the
  ordered pairs of edge ends the rule allows (up to the squared degree) and their
  at-most-one constraints; at each free node a cardinality network over its two-way
  ends (degree × log² degree).
"""

from __future__ import annotations

from trailkit.models.certified import Size
from trailkit.models.position_encoding import oriented_edges
from trailkit.models.puzzle import Puzzle
from trailkit.models.transition_encoding import estimate as transition_size

__all__ = ["budget_problem", "meeting_steps", "position_size", "transition_size"]


def meeting_steps(puzzle: Puzzle) -> tuple[int, int]:
    """The oriented edges a step may take, and the ordered pairs of them that meet (one
    arrives where the other leaves: the sum over nodes of in × out)."""
    oriented = oriented_edges(puzzle)
    arriving = [0] * puzzle.num_nodes
    leaving = [0] * puzzle.num_nodes
    for e, o in oriented:
        u, v = (puzzle.tail[e], puzzle.head[e]) if o == 0 else (puzzle.head[e], puzzle.tail[e])
        leaving[u] += 1
        arriving[v] += 1
    return len(oriented), sum(a * b for a, b in zip(arriving, leaving, strict=True))


def position_size(puzzle: Puzzle, length: int) -> Size:
    """The size of the position encoding of ``length`` steps (fixed length or prefix)."""
    count, meets = meeting_steps(puzzle)
    m = puzzle.num_edges
    clauses = length * (4 * count + 6 * m + 2)
    literals = length * (meets + 7 * count + 12 * m)
    return Size(length * 2 * count + 2 * length * m, clauses, literals)


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
