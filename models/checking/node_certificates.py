"""Independent checkers of the structural certificates of node rules (CONTRACT 1.4 §7).

Under node rules a walk holds *positions* (a walk of k steps holds k + 1, numbered from 1;
a closed walk's return to its start is no new position). Two short arguments prove that
no walk exists; each is checked here in time linear in the puzzle's size, reading only
the puzzle's arrays and the certificate, sharing no code with the maker.

``node-cut`` ``{"removed": [names], "pieces": [names], "joins": B}``
    The *must-visit* nodes are those that must hold a position: every node not avoided
    under ``visit: every-once``, the ``via`` nodes, the nodes given a position by ``at``,
    and under ``use: exactly-once`` both ends of every edge (each edge is walked, and a
    step's two ends hold positions); avoided nodes never count. Take away the ``removed``
    set S (k nodes, none avoided) and every avoided node; the rest falls into *pieces*
    (the components of what is left, every edge taken as two-way: one-way edges and colour
    rules only forbid steps, so the pieces of the walks' graph are no bigger). The
    certificate names one must-visit node in each of more than B distinct pieces, B the
    number of pieces a walk can *join* (the checker recomputes B; the file states it).

    Why: two positions next to each other in the walk are joined by the step between them
    (for a closed walk the last position and the first too, by the closing step). So the
    positions that hold no node of S and no avoided node (none does) fall into maximal
    *runs* of consecutive positions, and each run stays inside one piece. Every piece
    holding a must-visit node needs a run. Under ``visit: at-most-once`` or
    ``every-once`` the j positions holding nodes of S number j <= k, and they cut

    * a line of positions (an open walk) into at most j + 1 runs, one fewer when the
      first position holds a node of S, one fewer again when the last one does; the
      first run, when there is one, lies in the piece of the walk's start. So when no
      allowed start (``start``, and the node ``at`` position 1) lies in a piece holding a
      must-visit node, one fewer such piece is reached, and likewise for the ends (the
      allowed ends; under ``every-once`` also the node ``at`` the last position, the
      number of nodes not avoided). With a = 1 in the first case (else 0) and b = 1 in
      the second, the pieces reached number at most ``B = max(0, k + 1 - a - b)``. (When
      j = 0 the first and last run are one run: then a = b = 1 means it reaches no such
      piece, hence the ``max``.)
    * a cycle of positions (a closed walk) into at most j runs when j >= 1, and one run
      when j = 0: ``B = max(k, 1)``.

    Under ``visit: any`` a node of S may hold many positions, so only S empty is accepted
    (the must-visit nodes spread over more pieces than one walk reaches).

    Cases: a cut vertex (S = it); a must-visit node of degree one in a closed walk (S =
    its neighbour: it alone is a piece, the others another); a must-visit node with no
    edge (S empty; under exactly-once, its piece and any edge's); and a board's two
    colours out of balance under ``every-once`` (S = the smaller colour: each node of the
    larger one is then a piece of its own, and |A| pieces beat the |B| a cycle joins, or
    the |B| + 1 a path joins).

``node-degree`` ``{"way": "in" | "out", "nodes": [names]}``
    One-way edges: each listed must-visit node has no edge *into* it (``in``; ``out``:
    out of it) from another node that is not avoided (a two-way edge counts both ways; a
    loop never). The first position a node holds, unless it is the walk's first, is
    entered by a step from the position before, which holds another node; so such a node
    holds only position 1: it is the start (``out``: the last position, the end). A
    closed walk through at least two must-visit nodes enters each from another around its
    cycle, so it allows no such node; an open walk allows one, and none when it is not an
    allowed start (end), as for the node cut.

``avoided-edge`` ``{"node": name, "edge": edge id}``
    Under ``use: exactly-once`` every edge is walked, so both its ends hold positions;
    ``node`` is in ``avoid`` and ``edge`` touches it.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> path = Puzzle.build(edges=[("a", "b"), ("b", "c")], use="at-most-once",
...                     visit=NodeVisit.EVERY_ONCE, closed=True)
>>> node_cut_verdict(path, {"removed": ["b"], "pieces": ["a", "c"], "joins": 1}).problems
[]
>>> node_cut_verdict(path, {"removed": [], "pieces": ["a"], "joins": 1}).problems
['1 piece does not rule out a walk: it can join 1']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["KINDS", "avoided_edge_verdict", "must_visit", "node_cut_verdict", "node_degree_verdict",
           "node_verdict"]

KINDS = ("node-cut", "node-degree", "avoided-edge")
"""The certificate kinds checked here: each proves that no walk exists."""


def node_verdict(puzzle: Puzzle, kind: str, data: Mapping[str, Any]) -> Verdict:
    """Check a certificate of one of :data:`KINDS`; a malformed one is rejected."""
    try:
        if kind == "node-cut":
            return node_cut_verdict(puzzle, data)
        if kind == "node-degree":
            return node_degree_verdict(puzzle, data)
        return avoided_edge_verdict(puzzle, data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict([f"malformed {kind} certificate: {exc!r}"])


def must_visit(puzzle: Puzzle) -> list[bool]:
    """For each node, whether every walk must give it a position (avoided nodes never)."""
    n = puzzle.num_nodes
    must = [puzzle.visit is NodeVisit.EVERY_ONCE] * n
    for v in (*puzzle.via, *puzzle.at):
        must[v] = True
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        for ends in (puzzle.tail, puzzle.head):
            for v in ends:
                must[v] = True
    for v in puzzle.avoid:
        must[v] = False
    return must


def _names(puzzle: Puzzle, names: Any, what: str) -> tuple[list[int], list[str]]:
    """The listed nodes' indices, and what is wrong with the list."""
    lookup = {name: i for i, name in enumerate(puzzle.nodes)}
    found, problems = [], []
    if isinstance(names, (str, bytes)) or not isinstance(names, list):
        return [], [f"{what} must be a list of node names"]
    for name in names:
        if str(name) not in lookup:
            problems.append(f"node {name!r} is not in the puzzle")
        else:
            found.append(lookup[str(name)])
    if len(set(found)) != len(found):
        problems.append(f"a node is listed twice in {what}")
    return found, problems


def _pieces(puzzle: Puzzle, gone: list[bool]) -> list[int]:
    """Each node's piece (a representative's index) once the ``gone`` nodes are taken away
    (gone nodes keep their own index); edges taken as two-way. Union-find, linear."""
    parent = list(range(puzzle.num_nodes))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v in zip(puzzle.tail, puzzle.head, strict=True):
        if not gone[u] and not gone[v]:
            ru, rv = root(u), root(v)
            if ru != rv:
                parent[ru] = rv
    return [root(v) for v in range(puzzle.num_nodes)]


def _ends(puzzle: Puzzle, position: int | None, allowed: frozenset[int] | None) -> set[int]:
    """The nodes a walk may start (or end) at: ``allowed`` (all when ``None``), not
    avoided, and the node given ``position`` if one is."""
    nodes = set(range(puzzle.num_nodes)) if allowed is None else set(allowed)
    nodes -= puzzle.avoid
    if position is not None:
        given = {v for v, p in puzzle.at.items() if p == position}
        if given:
            nodes &= given
    return nodes


def joins(puzzle: Puzzle, removed: list[int], counted: set[int], piece: list[int]) -> int:
    """How many pieces holding a must-visit node (their representatives: ``counted``) one
    walk can reach, the ``removed`` nodes holding a position at most once each (the bound
    derived in the module docstring)."""
    k = len(removed)
    if puzzle.closed:
        return max(k, 1)
    last = None
    if puzzle.visit is NodeVisit.EVERY_ONCE:
        last = puzzle.num_nodes - len(puzzle.avoid)
    taken = set(removed)

    def wasted(nodes: set[int]) -> int:
        return int(not any(v not in taken and piece[v] in counted for v in nodes))

    a = wasted(_ends(puzzle, 1, puzzle.start))
    b = wasted(_ends(puzzle, last, puzzle.end))
    return max(0, k + 1 - a - b)


def node_cut_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``node-cut`` certificate (module docstring): the removed nodes are real and
    not avoided (none under ``visit: any``), each listed piece node must be visited, is
    not removed, and lies in a piece of its own, and they outnumber the pieces a walk can
    join, as the file states."""
    removed, problems = _names(puzzle, data["removed"], "removed")
    listed, more = _names(puzzle, data["pieces"], "pieces")
    problems += more
    if puzzle.visit is NodeVisit.ANY and removed:
        problems.append("under visit: any a node may hold many positions, so no node may "
                        "be removed (only must-visit nodes in separate pieces count)")
    for v in removed:
        if v in puzzle.avoid:
            problems.append(f"node {puzzle.nodes[v]} is avoided already; remove only "
                            "nodes the walk may pass")
    if problems:
        return Verdict(problems)
    gone = [v in puzzle.avoid for v in range(puzzle.num_nodes)]
    for v in removed:
        gone[v] = True
    piece, must = _pieces(puzzle, gone), must_visit(puzzle)
    problems += _listed_problems(puzzle, listed, gone, piece, must)
    counted = {piece[v] for v in range(puzzle.num_nodes) if must[v] and not gone[v]}
    bound = joins(puzzle, removed, counted, piece)
    if type(data["joins"]) is not int or data["joins"] != bound:
        problems.append(f"a walk can join {bound} pieces here, not {data['joins']!r}")
    if len(listed) <= bound:
        problems.append(f"{len(listed)} piece{'s' if len(listed) != 1 else ''} "
                        f"do{'es' if len(listed) == 1 else ''} not rule out a walk: it can "
                        f"join {bound}")
    if problems:
        return Verdict(problems)
    return Verdict([], check_words.node_cut(
        [puzzle.nodes[v] for v in removed], [puzzle.nodes[v] for v in listed], bound,
        closed=puzzle.closed))


def _listed_problems(puzzle: Puzzle, listed: list[int], gone: list[bool],
                     piece: list[int], must: list[bool]) -> list[str]:
    """Why the listed piece nodes do not stand for separate pieces a walk must reach:
    one removed, one that need not be visited, or two in one piece."""
    problems: list[str] = []
    seen: dict[int, int] = {}
    for v in listed:
        name = puzzle.nodes[v]
        if gone[v]:
            problems.append(f"node {name} is removed, so it is in no piece")
        elif not must[v]:
            problems.append(f"node {name} need not be visited")
        elif piece[v] in seen:
            problems.append(f"nodes {puzzle.nodes[seen[piece[v]]]} and {name} are in one "
                            "piece")
        else:
            seen[piece[v]] = v
    return problems


def node_degree_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``node-degree`` certificate (module docstring): each listed node must be
    visited and no edge enters (leaves) it from (to) another node not avoided; and there
    are more of them than the walk allows."""
    way = data["way"]
    if way not in ("in", "out"):
        return Verdict([f"way must be 'in' or 'out', not {way!r}"])
    listed, problems = _names(puzzle, data["nodes"], "nodes")
    must = must_visit(puzzle)
    reached = [False] * puzzle.num_nodes  # entered (in) or left (out) from another node
    for e in range(puzzle.num_edges):
        u, v, directed = puzzle.tail[e], puzzle.head[e], puzzle.is_directed(e)
        if u == v or u in puzzle.avoid or v in puzzle.avoid:
            continue
        if way == "in" or not directed:
            reached[v] = True
        if way == "out" or not directed:
            reached[u] = True
    for v in listed:
        if not must[v]:
            problems.append(f"node {puzzle.nodes[v]} need not be visited")
        elif reached[v]:
            problems.append(f"an edge {'enters' if way == 'in' else 'leaves'} node "
                            f"{puzzle.nodes[v]} {'from' if way == 'in' else 'to'} another node")
    if problems:
        return Verdict(problems)
    if puzzle.closed:
        allowed = 0 if sum(must) >= 2 else 1
    else:
        last = puzzle.num_nodes - len(puzzle.avoid) \
            if puzzle.visit is NodeVisit.EVERY_ONCE else None
        ends = _ends(puzzle, 1, puzzle.start) if way == "in" else \
            _ends(puzzle, last, puzzle.end)
        allowed = 1 if any(v in ends for v in listed) else 0
    if len(listed) <= allowed:
        return Verdict([f"{len(listed)} such node{'s' if len(listed) != 1 else ''} do"
                        f"{'es' if len(listed) == 1 else ''} not rule out a walk: it allows "
                        f"{allowed}"])
    return Verdict([], check_words.node_degree(
        [puzzle.nodes[v] for v in listed], way, closed=puzzle.closed))


def avoided_edge_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check an ``avoided-edge`` certificate: every edge must be used, ``node`` is avoided
    and ``edge`` touches it."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return Verdict(["an avoided-edge certificate only applies when every edge must be "
                        "used exactly once"])
    nodes, problems = _names(puzzle, [data["node"]], "node")
    edges = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    if str(data["edge"]) not in edges:
        problems.append(f"edge {data['edge']!r} is not in the puzzle")
    if problems:
        return Verdict(problems)
    v, e = nodes[0], edges[str(data["edge"])]
    if v not in puzzle.avoid:
        problems.append(f"node {puzzle.nodes[v]} is not avoided")
    if v not in (puzzle.tail[e], puzzle.head[e]):
        problems.append(f"edge {data['edge']} does not touch node {puzzle.nodes[v]}")
    if problems:
        return Verdict(problems)
    ends = f"{puzzle.nodes[puzzle.tail[e]]}-{puzzle.nodes[puzzle.head[e]]}"
    return Verdict([], check_words.avoided_edge(puzzle.nodes[v], f"{data['edge']} ({ends})"))
