"""Decoding a transition-encoding model into pieces, joined wherever a free node allows.

A model of :mod:`trailkit.models.formulas.transition_encoding` says, at every node that is not
free, which end the walk leaves by after each end it arrives by; at a *free* node
(transition-v2: the rules allow every pairing there) it only says which ends arrive
and which leave, balanced. This module picks the pairing at the free nodes and follows
the successors into pieces: a path from the start (open walks) and closed cycles.

Any pairing is allowed at a free node, so the decoder chooses one that joins pieces.
If two different pieces pass a free node ``v``, one arriving by ``a`` and leaving by
``b``, the other arriving by ``a'`` and leaving by ``b'``, exchanging the successors
(``a`` then ``b'``, ``a'`` then ``b``) makes them one piece: two cycles become one
cycle, a path and a cycle one path (the start and finish of an open walk count as an
arrival and a departure of their node). Every exchange joins two pieces, so at most
``#pieces - 1`` of them are made (a union-find keeps track of which transitions are in
one piece). Afterwards no two pieces share a free node, which is what the cut clauses
of :mod:`trailkit.models.formulas.lazy_clauses` rely on.

Two 2-cycles through node ``a`` (ends ``2e`` at the tail, ``2e + 1`` at the head of edge
``e``; a-b, b-a, a-c, c-a, all walked forward), joined at the free node ``a``:

>>> succ = {1: 2, 5: 6}  # at b and at c
>>> pieces_of(succ, [True] * 4, [([0, 3, 4, 7], False, False)])
[[0, 1, 2, 3]]
"""

from __future__ import annotations

__all__ = ["FINISH", "START", "FreeNode", "pieces_of"]

START = -1
"""The successor key of an open walk's start: ``succ[START]`` is the first leaving end."""
FINISH = -2
"""The successor of the end an open walk finishes after."""

FreeNode = tuple[list[int], bool, bool]
"""A free node as the decoder sees it: its edge ends, and whether the walk starts and
whether it finishes there."""


def pieces_of(succ: dict[int, int], forward: list[bool], free: list[FreeNode]
              ) -> list[list[int]]:
    """The pieces as edge sequences, the open walk's path first (from its start), then
    the cycles: ``succ`` maps each arriving end at the other nodes to the leaving end
    after it (``START`` to the first, an end to ``FINISH`` if the walk stops there),
    ``forward[e]`` says edge ``e`` is walked tail to head, and at each ``free`` node
    the arrivals are paired with the departures here and pieces joined (``succ`` is
    completed in place)."""
    keys_at: list[list[int]] = []
    for ends, starts, finishes in free:
        arriving = [i for i in ends if (i % 2 == 1) == forward[i // 2]]
        leaving = [j for j in ends if (j % 2 == 1) != forward[j // 2]]
        if starts:
            arriving.insert(0, START)  # paired with a real departure: never FINISH
        if finishes:
            leaving.append(FINISH)
        for a, b in zip(arriving, leaving, strict=False):
            succ[a] = b
        keys_at.append(arriving)
    pieces = _follow(succ, forward)
    if len(pieces) > 1 and keys_at:
        _join(succ, pieces, keys_at)
        pieces = _follow(succ, forward)
    return pieces


def _follow(succ: dict[int, int], forward: list[bool]) -> list[list[int]]:
    """Follow the successors: the path from ``succ[START]`` first, then a cycle from
    each edge not yet seen, in edge order."""
    m = len(forward)
    seen = [False] * m
    pieces: list[list[int]] = []

    def follow(end: int | None) -> list[int]:
        edges = []
        while end is not None and end >= 0 and not seen[end // 2]:
            e = end // 2
            seen[e] = True
            edges.append(e)
            end = succ.get(2 * e + 1 if forward[e] else 2 * e)
        return edges

    if START in succ:
        pieces.append(follow(succ[START]))
    for e in range(m):
        if not seen[e]:
            pieces.append(follow(2 * e if forward[e] else 2 * e + 1))
    return pieces


def _join(succ: dict[int, int], pieces: list[list[int]], keys_at: list[list[int]]) -> None:
    """Exchange successors at free nodes until no two pieces share one (see the module
    docstring); ``keys_at`` lists each free node's arrival keys."""
    piece_of: dict[int, int] = {}
    for k, piece in enumerate(pieces):
        for e in piece:
            piece_of[e] = k
    parent = list(range(len(pieces)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def piece_at(key: int) -> int:  # the start belongs to the path: the piece of its edge
        return piece_of[(succ[key] if key == START else key) // 2]

    owner = {key: piece_at(key) for keys in keys_at for key in keys}
    for keys in keys_at:
        anchor = keys[0]
        for key in keys[1:]:
            a, b = find(owner[anchor]), find(owner[key])
            if a != b:
                succ[anchor], succ[key] = succ[key], succ[anchor]
                parent[b] = a
