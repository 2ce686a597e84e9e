"""Short, checkable reasons why no walk obeys a puzzle's node rules (CONTRACT 1.4 §7).

:func:`node_rule_certificate` looks for one of two arguments and returns its
:class:`Certificate`, else ``None``:

``avoided-edge``
    every edge must be used exactly once, and one touches an avoided node;
``node-degree``
    one-way edges: must-visit nodes that no edge enters from another node (or leaves to
    one) can only be the walk's start (end): more of them than the walk has starts
    (ends), none in a closed walk through two or more;
``given-positions``
    two ``at:`` givens, X at position p and Y at q > p (the next given), that no walk of
    q - p steps joins: Y farther from X than that, or, where their piece of the graph
    has two colours every edge joins, at the distance of the wrong parity;
``node-cut``
    a set S of k nodes (none avoided) whose removal, with the avoided nodes, leaves the
    nodes the walk must visit in more pieces than one walk can join: a closed walk
    passing each node of S once joins at most max(k, 1), an open one k + 1, less one
    for each end (start, end) that no piece holding a must-visit node can hold. The sets
    tried: none (the must-visit nodes apart already); under ``visit: every-once`` on a
    two-coloured graph, the smaller colour (a board's squares out of balance, as the
    5x5 board's 13 and 12 for a closed knight's tour); the neighbours of a must-visit node
    of degree one or two (a dead end in a cycle); and single cut nodes (found in linear
    time), within a work budget.

The bound and its proof are the checker's docstring
(:mod:`trailkit.models.checking.node_certificates`); that checker is deliberately not imported
here: a certificate must convince code that shares nothing with its maker.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> star = Puzzle.build(edges=[("a", "b"), ("a", "c"), ("a", "d")], use="at-most-once",
...                     visit=NodeVisit.EVERY_ONCE)
>>> cert = node_rule_certificate(star)
>>> cert.kind, cert.data
('node-cut', {'removed': ['a'], 'pieces': ['b', 'c', 'd'], 'joins': 2})
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise

from trailkit.models.answer import Certificate
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.words import listing, plural

__all__ = ["WORK_BUDGET", "node_rule_certificate"]

WORK_BUDGET = 500_000
"""Node and edge visits spent on trying sets of nodes (each try is one pass over the
graph): past it no more are tried, and the pipeline goes on to a refutation."""


def node_rule_certificate(puzzle: Puzzle) -> Certificate | None:
    """The first node-rule certificate that applies (module docstring), or ``None``."""
    if not puzzle.has_node_rules:
        return None
    certificate = _avoided_edge(puzzle)
    if certificate is not None:
        return certificate
    graph = _Graph(puzzle)
    certificate = _given_positions(puzzle, graph)
    if certificate is not None:
        return certificate
    if puzzle.any_directed:
        certificate = _node_degree(puzzle, graph)
        if certificate is not None:
            return certificate
    for removed, story in _candidates(puzzle, graph):
        found = graph.cut(removed)
        if found is not None:
            pieces, joins = found
            return _node_cut(puzzle, removed, pieces, joins, story)
    return None


def _avoided_edge(puzzle: Puzzle) -> Certificate | None:
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or not puzzle.avoid:
        return None
    for e in range(puzzle.num_edges):
        for v in (puzzle.tail[e], puzzle.head[e]):
            if v in puzzle.avoid:
                name = puzzle.nodes[v]
                return Certificate("avoided-edge", {"node": name, "edge": puzzle.edge_id(e)}, (
                    f"Every edge must be used exactly once, but edge {puzzle.edge_id(e)} "
                    f"touches {name}, which the walk must avoid."))
    return None


class _Graph:
    """The puzzle's graph with every edge two-way and the avoided nodes left out, and
    the nodes every walk must visit."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        n = puzzle.num_nodes
        self.avoid = puzzle.avoid
        self.near: list[set[int]] = [set() for _ in range(n)]
        for u, v in zip(puzzle.tail, puzzle.head, strict=True):
            if u != v and u not in self.avoid and v not in self.avoid:
                self.near[u].add(v)
                self.near[v].add(u)
        every = puzzle.visit is NodeVisit.EVERY_ONCE
        must = {v for v in range(n) if every} | set(puzzle.via) | set(puzzle.at)
        if puzzle.use is EdgeUse.EXACTLY_ONCE:
            must |= set(puzzle.tail) | set(puzzle.head)
        self.must = must - self.avoid
        self.work = 0

    def pieces(self, removed: frozenset[int]) -> dict[int, int]:
        """The piece (a number) of every node left once ``removed`` and the avoided nodes
        are taken away, by breadth-first search."""
        piece: dict[int, int] = {}
        for s in range(self.puzzle.num_nodes):
            if s in piece or s in removed or s in self.avoid:
                continue
            piece[s] = s
            queue = [s]
            while queue:
                u = queue.pop()
                self.work += 1 + len(self.near[u])
                for w in self.near[u]:
                    if w not in piece and w not in removed:
                        piece[w] = s
                        queue.append(w)
        return piece

    def cut(self, removed: frozenset[int]) -> tuple[list[int], int] | None:
        """One must-visit node of each piece, and the pieces a walk can join, when they
        are more; else ``None``."""
        piece = self.pieces(removed)
        first: dict[int, int] = {}
        for v in sorted(self.must - removed):
            first.setdefault(piece[v], v)
        joins = self._joins(removed, set(first), piece)
        return (sorted(first.values()), joins) if len(first) > joins else None

    def _joins(self, removed: frozenset[int], held: set[int], piece: dict[int, int]) -> int:
        puzzle = self.puzzle
        if puzzle.closed:
            return max(len(removed), 1)
        last = puzzle.num_nodes - len(self.avoid) \
            if puzzle.visit is NodeVisit.EVERY_ONCE else None

        def lost(allowed: frozenset[int] | None, position: int | None) -> int:
            ends = set(range(puzzle.num_nodes)) if allowed is None else set(allowed)
            given = {v for v, p in puzzle.at.items() if p == position}
            ends = (ends & given if given else ends) - self.avoid - removed
            return 0 if any(piece[v] in held for v in ends) else 1

        return max(0, len(removed) + 1 - lost(puzzle.start, 1) - lost(puzzle.end, last))


def _node_degree(puzzle: Puzzle, graph: _Graph) -> Certificate | None:
    """Must-visit nodes no step can enter (leave) from (to) another node, more than the
    walk's one start (end), or one that is no allowed start (end)."""
    entered, left = set(), set()
    for e in range(puzzle.num_edges):
        u, v = puzzle.tail[e], puzzle.head[e]
        if u == v or u in graph.avoid or v in graph.avoid:
            continue
        entered.add(v)
        left.add(u)
        if not puzzle.is_directed(e):
            entered.add(u)
            left.add(v)
    last = puzzle.num_nodes - len(graph.avoid) if puzzle.visit is NodeVisit.EVERY_ONCE \
        else None
    for way, reached, allowed, position in (("in", entered, puzzle.start, 1),
                                            ("out", left, puzzle.end, last)):
        stuck = sorted(graph.must - reached)
        given = {v for v, p in puzzle.at.items() if p == position}
        ends = set(range(puzzle.num_nodes)) if allowed is None else set(allowed)
        ends = ends & given if given else ends
        too_many = (len(stuck) > 0 and len(graph.must) >= 2) if puzzle.closed else (
            len(stuck) > 1 or (len(stuck) == 1 and stuck[0] not in ends))
        if too_many:
            names = [puzzle.nodes[v] for v in stuck]
            return Certificate("node-degree", {"way": way, "nodes": names},
                               _degree_words(names, way, closed=puzzle.closed))
    return None


def _given_positions(puzzle: Puzzle, graph: _Graph) -> Certificate | None:
    """Consecutive givens too far apart, or of the wrong parity (enough: distances add up
    and parities too, so if every consecutive pair can be joined, every pair can)."""
    givens = sorted(puzzle.at.items(), key=lambda item: item[1])
    colour = _colours(puzzle, graph)
    for (x, p), (y, q) in pairwise(givens):
        if q == p or x in graph.avoid or y in graph.avoid:
            continue  # two nodes at one position, a given avoided: input errors the spec
            # reader reports (a puzzle built otherwise is left to the other certificates)
        far = _within(puzzle, graph, x, y, q - p)
        names = puzzle.nodes[x], puzzle.nodes[y]
        if far is None:
            return Certificate("given-positions", {"from": names[0], "to": names[1],
                                                   "parity": False}, (
                f"{names[0]} is at position {p} and {names[1]} at {q}, but no walk of "
                f"{plural(q - p, 'step')} leads from {names[0]} to {names[1]}."))
        if x in colour and y in colour and (colour[x] != colour[y]) != bool((q - p) % 2):
            return Certificate("given-positions", {"from": names[0], "to": names[1],
                                                   "parity": True}, (
                f"{names[0]} is at position {p} and {names[1]} at {q}; every step changes "
                f"the colour, so they are joined only by walks of "
                f"{'odd' if colour[x] != colour[y] else 'even'} length, not {q - p}."))
    return None


def _within(puzzle: Puzzle, graph: _Graph, x: int, y: int, steps: int) -> int | None:
    """The fewest steps from ``x`` to ``y`` (one-way edges one way, through nodes not
    avoided) when at most ``steps``; else ``None``."""
    ahead: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for e in range(puzzle.num_edges):
        u, v = puzzle.tail[e], puzzle.head[e]
        if u != v and u not in graph.avoid and v not in graph.avoid:
            ahead[u].append(v)
            if not puzzle.is_directed(e):
                ahead[v].append(u)
    seen, frontier, depth = {x}, [x], 0
    while frontier and y not in seen and depth < steps:
        depth += 1
        later = []
        for u in frontier:
            for w in ahead[u]:
                if w not in seen:
                    seen.add(w)
                    later.append(w)
        frontier = later
    return depth if y in seen else None


def _colours(puzzle: Puzzle, graph: _Graph) -> dict[int, int]:
    """Two colours for the nodes of every piece of the graph left whose edges all join
    the two (and, under ``visit: any``, with no loop: a loop step keeps the colour)."""
    looped = {puzzle.tail[e] for e in range(puzzle.num_edges)
              if puzzle.tail[e] == puzzle.head[e]} if puzzle.visit is NodeVisit.ANY else set()
    colour: dict[int, int] = {}
    done: set[int] = set(graph.avoid)
    for root in range(puzzle.num_nodes):
        if root in done:
            continue
        piece, queue, two = {root: 0}, [root], root not in looped
        while queue:
            u = queue.pop()
            for w in graph.near[u]:
                if w not in piece:
                    piece[w] = 1 - piece[u]
                    two = two and w not in looped
                    queue.append(w)
                elif piece[w] == piece[u]:
                    two = False
        done.update(piece)
        if two:
            colour.update(piece)
    return colour


def _degree_words(names: list[str], way: str, *, closed: bool) -> str:
    end, verb = ("start", "enters") if way == "in" else ("end", "leaves")
    said = f"No edge {verb} {listing(names)} {'from' if way == 'in' else 'to'} another node"
    if closed:
        each = "enters each from the one before" if way == "in" else "leaves each to the next"
        return f"{said}, but a closed walk through several nodes {each}."
    if len(names) > 1:
        return f"{said}, so each of them could only be the walk's {end}, and a walk has one."
    return (f"{said}, so it could only be the walk's {end}, and the puzzle does not let the "
            f"walk {end} there.")


def _candidates(puzzle: Puzzle, graph: _Graph) -> Iterator[tuple[frozenset[int], str]]:
    """The sets of nodes to try removing, each with what it stands for (for the words)."""
    yield frozenset(), "apart"
    if puzzle.visit is NodeVisit.ANY:
        return
    if puzzle.visit is NodeVisit.EVERY_ONCE:
        colours = _two_colours(puzzle.num_nodes, graph)
        if colours is not None:
            yield from ((frozenset(side), "colours") for side in
                        sorted(colours, key=len))
    for v in sorted(graph.must):
        if graph.work > WORK_BUDGET:
            return
        if 0 < len(graph.near[v]) <= 2:
            yield frozenset(graph.near[v]), "dead end"
    for v in _cut_nodes(puzzle.num_nodes, graph):
        if graph.work > WORK_BUDGET:
            return
        yield frozenset({v}), "cut node"


def _cut_nodes(n: int, graph: _Graph) -> list[int]:
    """The nodes whose removal splits their piece of the graph left (articulation points),
    by Hopcroft and Tarjan's depth-first search, without recursion: linear time."""
    depth, low = [-1] * n, [0] * n
    cut: set[int] = set()
    for root in range(n):
        if depth[root] >= 0 or root in graph.avoid:
            continue
        depth[root], children = 0, 0
        stack = [(root, -1, iter(graph.near[root]))]
        while stack:
            u, parent, rest = stack[-1]
            w = next(rest, None)
            if w is None:
                stack.pop()
                if parent >= 0:
                    low[parent] = min(low[parent], low[u])
                    if low[u] >= depth[parent] and parent != root:
                        cut.add(parent)
            elif depth[w] < 0:
                depth[w] = low[w] = depth[u] + 1
                children += u == root
                stack.append((w, u, iter(graph.near[w])))
            elif w != parent:
                low[u] = min(low[u], depth[w])
        if children > 1:
            cut.add(root)
    return sorted(cut)


def _two_colours(n: int, graph: _Graph) -> tuple[list[int], list[int]] | None:
    """The two colour classes of the graph left (every edge joining the two), when it is
    connected and has two colours; else ``None``."""
    colour: dict[int, int] = {}
    nodes = [v for v in range(n) if v not in graph.avoid]
    if not nodes:
        return None
    colour[nodes[0]] = 0
    queue = [nodes[0]]
    while queue:
        u = queue.pop()
        for w in graph.near[u]:
            if w not in colour:
                colour[w] = 1 - colour[u]
                queue.append(w)
            elif colour[w] == colour[u]:
                return None
    if len(colour) != len(nodes):
        return None
    return ([v for v in nodes if colour[v] == 0], [v for v in nodes if colour[v] == 1])


def _node_cut(puzzle: Puzzle, removed: frozenset[int], pieces: Sequence[int], joins: int,
              story: str) -> Certificate:
    names = puzzle.nodes
    taken, apart = [names[v] for v in sorted(removed)], [names[v] for v in pieces]
    data = {"removed": taken, "pieces": apart, "joins": joins}
    walk = "a closed walk" if puzzle.closed else "a walk"
    if story == "colours":
        text = (f"Every edge joins two nodes of different colours, {len(pieces)} of one "
                f"colour and {len(removed)} of the other; {walk} through every node "
                "alternates colours, so it cannot pass them all.")
    elif not removed:
        text = (f"The nodes the walk must visit lie in {plural(len(pieces), 'piece')} "
                f"of the graph that no edge joins ({listing(apart)}); {walk} "
                f"can reach at most {joins} of them.")
    else:
        text = (f"Without {listing(taken)}, the nodes the walk must visit fall "
                f"into {plural(len(pieces), 'piece')} ({listing(apart)}); {walk} "
                f"passing each of {plural(len(removed), 'node')} at most once can join at "
                f"most {joins} of them.")
    return Certificate("node-cut", data, text)
