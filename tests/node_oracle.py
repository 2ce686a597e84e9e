"""A brute-force oracle for walks under node rules, sharing no code with any backend or
with the verifier: it lists every walk of a small puzzle step by step and keeps those
that obey every rule, edge rules and node rules alike, read straight from the
:class:`~trailkit.models.puzzle.Puzzle` fields (CONTRACT 1.4 §7).

A walk of k steps passes k + 1 positions (numbered from 1, its start); a closed walk's
return to its start is no new position (k positions; the empty walk stands on one).

>>> from trailkit.models.puzzle import Puzzle, NodeVisit
>>> square = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")],
...                       use="at-most-once", visit=NodeVisit.EVERY_ONCE, closed=True)
>>> len(node_rule_walks(square)), len(node_rule_tours(square))
(8, 1)
"""

from __future__ import annotations

from collections.abc import Iterator

from trailkit.models.answer import Walk
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle

__all__ = ["given_paths", "node_rule_tours", "node_rule_walks", "obeys_node_rules"]


def positions(puzzle: Puzzle, nodes: tuple[int, ...]) -> tuple[int, ...]:
    """The nodes at the walk's positions, in order."""
    if puzzle.closed and len(nodes) > 1:
        return nodes[:-1]
    return nodes


def obeys_node_rules(puzzle: Puzzle, nodes: tuple[int, ...]) -> bool:
    """Do the walk's positions obey ``visit``, ``via``, ``avoid`` and ``at``?"""
    held = positions(puzzle, nodes)
    if any(v in puzzle.avoid for v in held):
        return False
    if puzzle.visit is not NodeVisit.ANY and len(set(held)) != len(held):
        return False
    if puzzle.visit is NodeVisit.EVERY_ONCE:
        wanted = set(range(puzzle.num_nodes)) - set(puzzle.avoid)
        if set(held) != wanted:
            return False
    if not set(puzzle.via) <= set(held):
        return False
    return all(p <= len(held) and held[p - 1] == v for v, p in puzzle.at.items())


def _steps(puzzle: Puzzle, here: int) -> Iterator[tuple[int, int]]:
    """Every (edge, next node) a step from ``here`` may take, by direction alone."""
    for e in range(puzzle.num_edges):
        t, h = puzzle.tail[e], puzzle.head[e]
        one_way = puzzle.directed is not None and puzzle.directed[e]
        if t == here:
            yield e, h
        elif h == here and not one_way:
            yield e, t


def _step_table(puzzle: Puzzle) -> list[list[tuple[int, int]]]:
    """:func:`_steps` of every node, listed once (a search then reads a node's steps
    instead of scanning every edge at every step)."""
    return [list(_steps(puzzle, v)) for v in range(puzzle.num_nodes)]


def _colour_ok(puzzle: Puzzle, before: int | None, e: int) -> bool:
    rule = puzzle.colours
    if rule is None:
        return True
    c = -1 if puzzle.colour is None else puzzle.colour[e]
    if c < 0:
        return False
    if before is None:
        return puzzle.first is None or c in puzzle.first
    b = -1 if puzzle.colour is None else puzzle.colour[before]
    return c in rule.successors[b]


def _edge_rules_ok(puzzle: Puzzle, nodes: tuple[int, ...], edges: tuple[int, ...]) -> bool:
    if puzzle.start is not None and nodes[0] not in puzzle.start:
        return False
    if puzzle.end is not None and nodes[-1] not in puzzle.end:
        return False
    if puzzle.closed and nodes[-1] != nodes[0]:
        return False
    if puzzle.closed and not edges and puzzle.num_edges:  # a closed walk takes a step
        return False
    if puzzle.use is EdgeUse.EXACTLY_ONCE and sorted(edges) != list(range(puzzle.num_edges)):
        return False
    if puzzle.closed and edges and puzzle.colours is not None:
        return _colour_ok(puzzle, edges[-1], edges[0])
    return True


def _all_walks(puzzle: Puzzle, max_steps: int) -> Iterator[Walk]:
    once = puzzle.use is not EdgeUse.ANY
    table = _step_table(puzzle)
    stack: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
        ((v,), ()) for v in range(puzzle.num_nodes)]
    while stack:
        nodes, edges = stack.pop()
        if _edge_rules_ok(puzzle, nodes, edges) and obeys_node_rules(puzzle, nodes):
            yield Walk(nodes, edges)
        if len(edges) == max_steps:
            continue
        for e, nxt in table[nodes[-1]]:
            if once and e in edges:
                continue
            if not _colour_ok(puzzle, edges[-1] if edges else None, e):
                continue
            stack.append(((*nodes, nxt), (*edges, e)))


def node_rule_walks(puzzle: Puzzle, max_steps: int | None = None) -> list[Walk]:
    """Every walk that solves ``puzzle`` (under its objective), by listing them all.

    ``max_steps`` bounds the length (default: the number of nodes, which no walk that
    visits each node at most once can pass, or the number of edges for edge rules).
    """
    if max_steps is None:
        bounded = puzzle.visit is not NodeVisit.ANY
        max_steps = puzzle.num_nodes if bounded else puzzle.num_edges
    found = list(_all_walks(puzzle, max_steps))
    if puzzle.objective is Objective.SHORTEST and found:
        best = min(len(w.edges) for w in found)
        found = [w for w in found if len(w.edges) == best]
    elif puzzle.objective is Objective.LONGEST and found:
        best = max(len(w.edges) for w in found)
        found = [w for w in found if len(w.edges) == best]
    return found


def node_rule_tours(puzzle: Puzzle, max_steps: int | None = None) -> set[frozenset[int]]:
    """The distinct sets of edges the solving walks use (CONTRACT §7's ``tours``)."""
    return {frozenset(w.edges) for w in node_rule_walks(puzzle, max_steps)}


def _distances(table: list[list[tuple[int, int]]]) -> list[list[int]]:
    """The fewest steps from each node to each other (breadth first over ``table``; a
    node out of reach is ``len(table)`` away, farther than any path goes)."""
    n = len(table)
    out = []
    for source in range(n):
        far = [n] * n
        far[source] = 0
        queue = [source]
        for u in queue:
            for _, w in table[u]:
                if far[w] == n:
                    far[w] = far[u] + 1
                    queue.append(w)
        out.append(far)
    return out


def given_paths(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every open path through every node not avoided, each once, that obeys the givens
    ``at`` (and ``start``/``end``), as node sequences: a depth-first search over simple
    paths, cut where a position holds a node other than its given one, or where the next
    given node is more steps away than positions are left before its own (listing every
    walk, as :func:`node_rule_walks` does, is out of reach past a few nodes: on a
    Hidato's board edges may not repeat but nodes could)."""
    avoid = set(puzzle.avoid)
    wanted = puzzle.num_nodes - len(avoid)
    node_at = {q: v for v, q in puzzle.at.items()}
    table = _step_table(puzzle)
    far = _distances(table)
    ahead = sorted(node_at)  # the given positions, in order
    used = [False] * puzzle.num_nodes
    found: set[tuple[int, ...]] = set()

    def fits(v: int, q: int) -> bool:
        return v not in avoid and node_at.get(q, v) == v and puzzle.at.get(v, q) == q

    def reachable(here: int, p: int) -> bool:
        """Can the next given after position ``p`` (``here``) still be reached?"""
        q = next((q for q in ahead if q > p), None)
        return q is None or far[here][node_at[q]] <= q - p

    def go(path: list[int]) -> None:
        if len(path) == wanted:
            if puzzle.end is None or path[-1] in puzzle.end:
                assert obeys_node_rules(puzzle, tuple(path))
                found.add(tuple(path))
            return
        if not reachable(path[-1], len(path)):
            return
        for _, w in table[path[-1]]:
            if not used[w] and fits(w, len(path) + 1):
                path.append(w)
                used[w] = True
                go(path)
                used[w] = False
                path.pop()

    for v in range(puzzle.num_nodes):
        if fits(v, 1) and (puzzle.start is None or v in puzzle.start):
            used[v] = True
            go([v])
            used[v] = False
    return found
