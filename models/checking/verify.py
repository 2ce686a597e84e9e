"""The one checker every answer passes through before it is shown.

:func:`verify` decides whether a claimed walk obeys a puzzle's rules. It reads
only the puzzle's own arrays and shares no code with any backend, so a backend
bug cannot hide behind the checker (in the spirit of CPMpy's ``value()`` checkers
and NetworkX's path validators).

Long walks are first checked by a compiled kernel of the verifier's own
(:func:`_walk_ok`, Numba through :mod:`trailkit.models.support.jit`; it shares no code with
the backends' kernels): it only answers whether every rule holds, and when one does
not, the plain checker below runs to describe each violation, so the messages are
the same either way (how much faster the kernel checks a million-step walk:
``docs/benchmarks.md``, from ``tests/bench/bench_perf.py``). Walks shorter than
:data:`~trailkit.models.support.jit.COMPILE_FROM` steps go straight to the plain checker,
which is faster than loading Numba.

>>> from trailkit.models.puzzle import Puzzle
>>> from trailkit.models.answer import Walk
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")])
>>> verify(p, Walk((0, 1, 2), (0, 1)))
[]
>>> [v.message for v in verify(p, Walk((0, 1), (0,)))]
['edge 1 (b-c) is used 0 times; every edge must be used exactly once']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from trailkit.models.answer import Walk
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.jit import COMPILE_FROM, kernel

__all__ = ["Violation", "verify"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: ``step`` is the 0-based step it concerns (``None``: the whole walk)."""

    message: str
    step: int | None = None

    def __str__(self) -> str:
        return self.message if self.step is None else f"step {self.step + 1}: {self.message}"


def verify(puzzle: Puzzle, walk: Walk) -> list[Violation]:
    """Return every way ``walk`` breaks ``puzzle``'s rules (an empty list means valid)."""
    if len(walk) >= COMPILE_FROM and walk_ok(puzzle, walk):
        return []
    return _violations(puzzle, walk)


def _violations(puzzle: Puzzle, walk: Walk) -> list[Violation]:
    """The plain checker: every violation, described."""
    problems: list[Violation] = []
    n_nodes, n_edges = len(puzzle.nodes), len(puzzle.tail)
    nodes, edges = walk.nodes, walk.edges
    if not nodes and not edges and not n_nodes:
        return []  # Walk.nowhere(): a puzzle without nodes (or edges) is solved by standing still
    if len(nodes) != len(edges) + 1:
        return [Violation(f"a walk of {len(edges)} steps must visit {len(edges) + 1} nodes, "
                          f"not {len(nodes)}")]
    for v in nodes:
        if not 0 <= v < n_nodes:
            return [Violation(f"node index {v} is not a node of the puzzle")]
    for e in edges:
        if not 0 <= e < n_edges:
            return [Violation(f"edge index {e} is not an edge of the puzzle")]

    _check_steps(puzzle, nodes, edges, problems)
    _check_use(puzzle, edges, problems)
    _check_colours(puzzle, edges, problems)
    _check_node_rules(puzzle, nodes, problems)
    _check_ends(puzzle, nodes, edges, problems)
    return problems


def _check_steps(puzzle: Puzzle, nodes: tuple[int, ...], edges: tuple[int, ...],
                 problems: list[Violation]) -> None:
    """Each step's edge leads from the node the walk is at to the next one (a one-way
    edge only forwards)."""
    names = puzzle.nodes
    for i, e in enumerate(edges):
        a, b = nodes[i], nodes[i + 1]
        u, v = puzzle.tail[e], puzzle.head[e]
        one_way = puzzle.directed is not None and bool(puzzle.directed[e])
        fits = (u == a and v == b) or (not one_way and u == b and v == a)
        if not fits:
            arrow = "->" if one_way else "-"
            problems.append(Violation(
                f"edge {puzzle.edge_id(e)} ({names[u]}{arrow}{names[v]}) does not lead "
                f"from {names[a]} to {names[b]}", i))


def _check_ends(puzzle: Puzzle, nodes: tuple[int, ...], edges: tuple[int, ...],
                problems: list[Violation]) -> None:
    """The walk starts and ends where the puzzle allows, and a closed walk returns to
    its start in at least one step (none needed for every edge once of no edges)."""
    names = puzzle.nodes
    n_edges = len(puzzle.tail)
    if puzzle.start is not None and nodes[0] not in puzzle.start:
        problems.append(Violation(f"the walk starts at {names[nodes[0]]}, which is not an "
                                  "allowed start"))
    if puzzle.end is not None and nodes[-1] not in puzzle.end:
        problems.append(Violation(f"the walk ends at {names[nodes[-1]]}, which is not an "
                                  "allowed end"))
    if puzzle.closed:
        if nodes[-1] != nodes[0]:
            problems.append(Violation(f"the walk must return to its start {names[nodes[0]]} "
                                      f"but ends at {names[nodes[-1]]}"))
        if not edges and n_edges and puzzle.use is not EdgeUse.EXACTLY_ONCE:
            problems.append(Violation("a closed walk needs at least one step"))


def _check_use(puzzle: Puzzle, edges: tuple[int, ...], problems: list[Violation]) -> None:
    if puzzle.use is EdgeUse.ANY:
        return
    uses = Counter(edges)
    limit_text = ("every edge must be used exactly once" if puzzle.use is EdgeUse.EXACTLY_ONCE
                  else "no edge may be used more than once")
    for e in range(len(puzzle.tail)):
        k = uses.get(e, 0)
        if k > 1 or (k == 0 and puzzle.use is EdgeUse.EXACTLY_ONCE):
            problems.append(Violation(f"{_edge_text(puzzle, e)} is used {k} times; {limit_text}"))


def _check_colours(puzzle: Puzzle, edges: tuple[int, ...], problems: list[Violation]) -> None:
    rule = puzzle.colours
    if rule is None:
        return
    colour = puzzle.colour
    if colour is None:
        problems.append(Violation("the puzzle has a colour rule but its edges have no colours"))
        return
    names = rule.names
    for i, e in enumerate(edges):
        if colour[e] < 0:
            problems.append(Violation(f"{_edge_text(puzzle, e)} has no colour", i))
    if problems:
        return
    if edges and puzzle.first is not None and colour[edges[0]] not in puzzle.first:
        allowed = ", ".join(sorted(names[c] for c in puzzle.first))
        problems.append(Violation(f"the first step is {names[colour[edges[0]]]} but must be "
                                  f"{allowed}", 0))
    for i in range(1, len(edges)):
        before, after = colour[edges[i - 1]], colour[edges[i]]
        if after not in rule.successors[before]:
            problems.append(Violation(f"{names[after]} may not follow {names[before]} "
                                      f"(the rule is {rule.describe()})", i))
    if puzzle.closed and edges:
        before, after = colour[edges[-1]], colour[edges[0]]
        if after not in rule.successors[before]:
            problems.append(Violation(
                f"the walk is closed, so its first colour {names[after]} must be allowed "
                f"after its last colour {names[before]}"))


def _check_node_rules(puzzle: Puzzle, nodes: tuple[int, ...],
                      problems: list[Violation]) -> None:
    """``visit``, ``via``, ``avoid`` and ``at``, over the walk's positions: one per node
    passed, numbered from 1; a closed walk's return to its start is no new position."""
    if not puzzle.has_node_rules:
        return
    held = nodes[:-1] if puzzle.closed and len(nodes) > 1 else nodes
    names = puzzle.nodes
    where: dict[int, list[int]] = {}
    for i, v in enumerate(held, start=1):
        where.setdefault(v, []).append(i)
    visit = puzzle.visit
    for v, at in where.items():
        if v in puzzle.avoid:
            problems.append(Violation(f"node {names[v]} holds {_positions(at)}, but it is in "
                                      "avoid"))
        elif visit is not NodeVisit.ANY and len(at) > 1:
            problems.append(Violation(f"node {names[v]} holds {_positions(at)}, but visit: "
                                      f"{visit.value}"))
    for v in sorted(puzzle.via):
        if v not in where:
            problems.append(Violation(f"node {names[v]} holds no position, but it is in via"))
    if visit is NodeVisit.EVERY_ONCE:
        for v in range(len(names)):
            if v not in where and v not in puzzle.avoid and v not in puzzle.via:
                problems.append(Violation(f"node {names[v]} holds no position, but visit: "
                                          "every-once"))
    for v, position in sorted(puzzle.at.items(), key=lambda item: item[1]):
        if position > len(held):
            problems.append(Violation(f"at gives node {names[v]} position {position}, but the "
                                      f"walk has only {len(held)} positions"))
        elif held[position - 1] != v:
            problems.append(Violation(f"position {position} is held by node "
                                      f"{names[held[position - 1]]}, but at gives it to node "
                                      f"{names[v]}"))


def _positions(at: list[int]) -> str:
    """``position 3`` or ``positions 2 and 5``."""
    if len(at) == 1:
        return f"position {at[0]}"
    return "positions " + ", ".join(map(str, at[:-1])) + f" and {at[-1]}"


def _edge_text(puzzle: Puzzle, e: int) -> str:
    one_way = puzzle.directed is not None and bool(puzzle.directed[e])
    arrow = "->" if one_way else "-"
    u, v = puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]
    return f"edge {puzzle.edge_id(e)} ({u}{arrow}{v})"


# ------------------------------------------------------------------ the fast path
_EXACTLY, _AT_MOST, _ANY = 0, 1, 2
_USE_CODE = {EdgeUse.EXACTLY_ONCE: _EXACTLY, EdgeUse.AT_MOST_ONCE: _AT_MOST, EdgeUse.ANY: _ANY}
_VISIT_CODE = {NodeVisit.ANY: 0, NodeVisit.AT_MOST_ONCE: 1, NodeVisit.EVERY_ONCE: 2}


def walk_ok(puzzle: Puzzle, walk: Walk, *, compiled: bool = True) -> bool:
    """Whether ``walk`` obeys every rule of ``puzzle``, by :func:`_walk_ok` (compiled, or
    interpreted with ``compiled=False``): ``verify(puzzle, walk) == []`` exactly."""
    rule = puzzle.colours
    if rule is not None and puzzle.colour is None:
        return False
    n, m = puzzle.num_nodes, puzzle.num_edges
    c = len(rule.names) if rule is not None else 0
    follows = np.zeros((c, c), dtype=np.uint8)
    if rule is not None:
        for before, allowed in enumerate(rule.successors):
            follows[before, sorted(allowed)] = 1
    check = _walk_ok if compiled else _walk_ok.interpreted
    return bool(check(
        n, _array(puzzle.tail), _array(puzzle.head),
        _array(puzzle.directed, np.uint8) if puzzle.directed is not None
        else np.zeros(m, dtype=np.uint8),
        walk.node_array, walk.edge_array, _USE_CODE[puzzle.use], rule is not None,
        _array(puzzle.colour) if rule is not None and puzzle.colour is not None
        else np.zeros(0, dtype=np.int64),
        follows, _mask(puzzle.first, c), _mask(puzzle.start, n), _mask(puzzle.end, n),
        puzzle.closed, puzzle.has_node_rules, _VISIT_CODE[puzzle.visit],
        _mask(puzzle.via, n) if puzzle.via else np.zeros(n, dtype=np.uint8),
        _mask(puzzle.avoid, n) if puzzle.avoid else np.zeros(n, dtype=np.uint8),
        _given(puzzle.at, n)))


def _given(at: Mapping[int, int], size: int) -> np.ndarray:
    """Each node's given position (0: none)."""
    out = np.zeros(size, dtype=np.int64)
    for v, position in at.items():
        out[v] = position
    return out


def _array(values: Sequence[Any], dtype: type = np.int64) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values.astype(dtype, copy=False)
    return np.fromiter(values, dtype=dtype, count=len(values))


def _mask(members: frozenset[int] | None, size: int) -> np.ndarray:
    """``members`` as a 0/1 mask over ``0..size-1`` (every entry 1 for ``None``: any)."""
    if members is None:
        return np.ones(size, dtype=np.uint8)
    mask = np.zeros(size, dtype=np.uint8)
    mask[sorted(v for v in members if 0 <= v < size)] = 1
    return mask


@kernel
def _walk_ok(n_nodes: int, tail: np.ndarray, head: np.ndarray, one_way: np.ndarray,
             nodes: np.ndarray, edges: np.ndarray, use: int, coloured: bool,
             colour: np.ndarray, follows: np.ndarray, first: np.ndarray, starts: np.ndarray,
             ends: np.ndarray, closed: bool, node_rules: bool, visit: int, via: np.ndarray,
             avoid: np.ndarray, at: np.ndarray) -> bool:
    """Every check of :func:`_violations`, stopping at the first that fails."""
    k, m = len(edges), len(tail)
    if len(nodes) != k + 1:
        return False
    for v in nodes:
        if v < 0 or v >= n_nodes:
            return False
    for e in edges:
        if e < 0 or e >= m:
            return False
    for i in range(k):
        e, a, b = edges[i], nodes[i], nodes[i + 1]
        u, v = tail[e], head[e]
        if not ((u == a and v == b) or (one_way[e] == 0 and u == b and v == a)):
            return False
    if use != _ANY:
        uses = np.zeros(m, dtype=np.uint8)
        for e in edges:
            if uses[e]:
                return False
            uses[e] = 1
        if use == _EXACTLY and k != m:
            return False
    if coloured:
        for e in edges:
            if colour[e] < 0:
                return False
        if k and not first[colour[edges[0]]]:
            return False
        for i in range(1, k):
            if not follows[colour[edges[i - 1]], colour[edges[i]]]:
                return False
        if closed and k and not follows[colour[edges[k - 1]], colour[edges[0]]]:
            return False
    if not starts[nodes[0]] or not ends[nodes[k]]:
        return False
    if closed:
        if nodes[k] != nodes[0]:
            return False
        if k == 0 and m and use != _EXACTLY:
            return False
    if node_rules:
        held = k if closed and k > 0 else k + 1
        seen = np.zeros(n_nodes, dtype=np.uint8)
        for i in range(held):
            v = nodes[i]
            if avoid[v] or (visit != 0 and seen[v]):
                return False
            seen[v] = 1
        for v in range(n_nodes):
            if (via[v] or (visit == 2 and not avoid[v])) and not seen[v]:
                return False
            if at[v] and (at[v] > held or nodes[at[v] - 1] != v):
                return False
    return True
