"""The ``best-formula`` certificate of a count made by the formula: its inputs, written out.

:mod:`~trailkit.solvers.backends.direct.exact_count` counts the walks of an exactly-once
puzzle without a colour rule by the BEST theorem, summed over the Eulerian orientations of
the graph (with a one-way arc added from the end back to the start, for open trails). The
certificate lists what that sum runs over: the graph (two-way edges grouped by the pair of
nodes they join, one-way edges, self-loops), and for each graph the walks need, every
class of Eulerian orientations (one character per pair: how many of its edges run from its
first node to its second). The independent checker,
:mod:`trailkit.models.checking.best_formula`, re-derives which graphs are needed from the
spec, checks each class, counts the classes its own way (so none is missing) and recomputes
the number with determinants of its own.

Here the classes are listed by a depth-first search over the pairs, pruned as soon as a
node can no longer balance, after the checker's count of them (a dynamic programme, fast)
has said how many there are: past :data:`ORIENTATION_LIMIT` no certificate is made, and
the count says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from trailkit.models.checking.best_formula import DIGITS
from trailkit.models.formulas.euler_orientations import Graph, orientation_classes
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural

__all__ = ["ORIENTATION_LIMIT", "formula_applies", "orientation_certificate"]

ORIENTATION_LIMIT = 100_000
"""The most Eulerian orientation classes a ``best-formula`` certificate lists (in all)."""
WORK_LIMIT = 300_000_000
"""The most classes × (nodes − 1)³ a certificate may ask the checker to eliminate (about
6 s on this project's machine: docs/benchmarks.md)."""
STATES_CAP = 200_000
"""The most partial states the count of the classes (made before listing them) keeps."""

Pair = tuple[int, int, int]


def formula_applies(puzzle: Puzzle) -> bool:
    """Whether the formula counts ``puzzle`` (every edge exactly once, no colour rule, at
    least one edge, no node rule: the formula counts walks whatever nodes they pass)."""
    return puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.colours is None and \
        puzzle.num_edges > 0 and not puzzle.has_node_rules


def _graphs(puzzle: Puzzle, g: Graph) -> list[tuple[int, int] | None]:
    """The graphs whose circuits make the walks: the graph itself when every degree is
    even and a start may be an end; for an open puzzle with two odd nodes, the graph with
    an arc ``end -> start`` for each allowed direction (as ``exact_count`` counts)."""
    odd = [v for v in range(g.n) if g.degree[v] % 2]
    starts = set(puzzle.start_nodes())
    ends = set(puzzle.end_nodes())
    if not odd:
        return [None] if any(g.degree[s] and s in ends for s in starts) else []
    if len(odd) != 2 or puzzle.closed:
        return []
    a, b = odd
    return [(y, x) for x, y in ((a, b), (b, a)) if x in starts and y in ends]


def orientation_certificate(puzzle: Puzzle, count: Callable[[], int | str],
                            deadline: float | None = None) -> dict[str, Any] | str:
    """The ``best-formula`` certificate's data, stating the number ``count()`` gives (the
    counter's, which the checker recomputes; called once the size is known to be within
    bounds), or why none is made: too many orientation classes, a pair of more than 35
    parallel edges, ``count()``'s reason, or ``deadline`` (``time.monotonic()``) reached."""
    g = Graph(puzzle)
    pairs = [(u, v, m) for (u, v), m in sorted(g.pairs.items())]
    if any(m >= len(DIGITS) for *_, m in pairs):
        return f"two nodes are joined by more than {len(DIGITS) - 1} two-way edges"
    order = max(1, sum(1 for d in g.degree if d) - 1)
    solutions = count() if order**3 > WORK_LIMIT else None  # is one class too many?
    if isinstance(solutions, str):
        return solutions
    if solutions:
        return (f"the formula's determinants have {order:,} rows: about {order**3:,} steps "
                f"to check each Eulerian orientation class (nodes cubed); limit "
                f"{WORK_LIMIT:,}")
    needs = {added: _needs(g, added) for added in _graphs(puzzle, g)}
    try:
        sizes = [orientation_classes(g.n, need, pairs, STATES_CAP, deadline)
                 for need in needs.values()]
    except TimeoutError:
        return "the time limit was reached while counting the Eulerian orientations"
    if any(size is None for size in sizes):
        return (f"too many Eulerian orientations to list (counting them keeps over "
                f"{STATES_CAP:,} partial states)")
    too_many = _too_many(sum(size or 0 for size in sizes), order)
    if too_many:
        return too_many
    solutions = count() if solutions is None else solutions
    if isinstance(solutions, str):
        return solutions
    graphs = _listed_graphs(puzzle, needs, pairs, deadline)
    if isinstance(graphs, str):
        return graphs
    return {"claim": "count", "solutions": solutions, **_formula_graph(puzzle),
            "graphs": graphs}


def _too_many(total: int, order: int) -> str:
    """Why ``total`` orientation classes of a graph whose determinants have ``order``
    rows are too many for a certificate (to list, or for the checker to recompute);
    empty when they are not."""
    classes = plural(total, "Eulerian orientation class", "Eulerian orientation classes")
    if total > ORIENTATION_LIMIT:
        return f"the formula sums {classes}; a certificate lists at most {ORIENTATION_LIMIT:,}"
    if total * order**3 > WORK_LIMIT:
        return (f"the formula sums {classes} of {order + 1} nodes: about "
                f"{total * order**3:,} steps to check (classes times nodes cubed); "
                f"limit {WORK_LIMIT:,}")
    return ""


def _listed_graphs(puzzle: Puzzle, needs: dict[tuple[int, int] | None, list[int]],
                   pairs: Sequence[Pair], deadline: float | None
                   ) -> list[dict[str, Any]] | str:
    """Each graph the walks need (the puzzle's, or with an edge added between the two
    odd nodes) with every Eulerian orientation class it has, as the certificate lists
    them; or why not: ``deadline`` reached."""
    graphs = []
    for added, need in needs.items():
        listed = _classes(need, pairs, deadline)
        if listed is None:
            return "the time limit was reached while listing the Eulerian orientations"
        graphs.append({"added": None if added is None else [puzzle.nodes[v] for v in added],
                       "orientations": listed})
    return graphs


def _formula_graph(puzzle: Puzzle) -> dict[str, Any]:
    """``pairs``, ``arcs`` and ``loops`` as a certificate writes them (node names)."""
    g, names = Graph(puzzle), puzzle.nodes
    return {"pairs": [[names[u], names[v], m] for (u, v), m in sorted(g.pairs.items())],
            "arcs": [[names[u], names[v], m] for (u, v), m in sorted(g.arcs.items())],
            "loops": [[names[v], k] for v, k in enumerate(g.loops) if k]}


def _needs(g: Graph, added: tuple[int, int] | None) -> list[int]:
    """Out-steps each node needs from its two-way edges in an Eulerian orientation."""
    degree = list(g.degree)
    arcs = dict(g.arcs)
    if added is not None:
        degree[added[0]] += 1
        degree[added[1]] += 1
        arcs[added] = arcs.get(added, 0) + 1
    need = [degree[v] // 2 - g.loops[v] for v in range(g.n)]
    for (u, _), m in arcs.items():
        need[u] -= m
    return need


def _capacities(need: Sequence[int], pairs: Sequence[Pair]
                ) -> list[tuple[int, int]] | None:
    """For each pair (a level of :func:`_classes`' search), the out-steps its two nodes
    can still get from the pairs after it; ``None`` when some node's need cannot be met
    at all (a negative need, or more than all its two-way edges give)."""
    if any(x < 0 for x in need):
        return None
    later = [0] * len(need)  # edges of the pairs after the current one, per node
    for u, v, m in pairs:
        later[u] += m
        later[v] += m
    if any(x > cap for x, cap in zip(need, later, strict=True)):
        return None
    caps = []  # per level: (u's, v's) capacity left after deciding it
    for u, v, m in pairs:
        later[u] -= m
        later[v] -= m
        caps.append((later[u], later[v]))
    return caps


def _classes(need: Sequence[int], pairs: Sequence[Pair],
             deadline: float | None) -> list[str] | None:
    """Every Eulerian orientation class, by an iterative depth-first search over the
    pairs; ``None`` at ``deadline``."""
    caps = _capacities(need, pairs)
    if caps is None:
        return []
    left, choice, out = list(need), [-1] * len(pairs), []
    level, steps = 0, 0
    while level >= 0:
        steps += 1
        if deadline is not None and steps % 4096 == 0 and time.monotonic() >= deadline:
            return None
        if level == len(pairs):
            out.append("".join(DIGITS[c] for c in choice))
            level -= 1
            continue
        u, v, m = pairs[level]
        if choice[level] >= 0:
            left[u] += choice[level]
            left[v] += m - choice[level]
        choice[level] += 1
        x = choice[level]
        if x > m:
            choice[level] = -1
            level -= 1
            continue
        left[u] -= x
        left[v] -= m - x
        if 0 <= left[u] <= caps[level][0] and 0 <= left[v] <= caps[level][1]:
            level += 1
    return out
