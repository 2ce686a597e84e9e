"""The node rules as the direct backend's searches read them: one place for every step
and finishing test, so the search that finds a walk and the one that counts them agree.

A walk of k steps holds k + 1 positions numbered from 1 (its start); a closed walk's
return to its start is no new position (CONTRACT §7). Under ``visit: at-most-once`` or
``every-once`` a step may land on a node already passed only as the closing step of a
closed walk (back at its start), which ends the walk.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")], visit=NodeVisit.EVERY_ONCE,
...                  use="at-most-once", at={"c": 3})
>>> rules = NodeRules.of(p)
>>> rules.may_land(1, 2, closing=False), rules.may_land(2, 2, closing=False)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["Move", "NodeRules"]

#: One step out of a node: (edge, the node it reaches, the edge's colour, one-way?).
Move = tuple[int, int, int, bool]


@dataclass(frozen=True)
class NodeRules:
    """A puzzle's rules, precomputed for the searches (see the module docstring)."""

    puzzle: Puzzle
    moves: tuple[tuple[Move, ...], ...]
    once: bool           # no node at two positions (visit other than any)
    every: bool          # every node not avoided holds a position
    edge_once: bool      # no edge twice (use other than any)
    exactly: bool        # every edge exactly once
    wanted: int          # nodes not avoided
    node_at: dict[int, int]   # position -> the node given there
    last_given: int      # the largest given position (0: none)
    ins: tuple[int, ...]      # per node, the bitmask of the other nodes a step comes from
    outs: tuple[int, ...]     # per node, the bitmask of the other nodes a step goes to
    wanted_mask: int     # the nodes not avoided, as a bitmask

    @classmethod
    def of(cls, puzzle: Puzzle) -> NodeRules:
        moves: list[list[Move]] = [[] for _ in range(puzzle.num_nodes)]
        colour = puzzle.colour
        for e in range(puzzle.num_edges):
            if not puzzle.usable(e):
                continue
            u, v = puzzle.tail[e], puzzle.head[e]
            c = -1 if colour is None else colour[e]
            one_way = puzzle.is_directed(e)
            moves[u].append((e, v, c, one_way))
            if u != v and not one_way:
                moves[v].append((e, u, c, False))
        ins = [0] * puzzle.num_nodes
        outs = [0] * puzzle.num_nodes
        for u, row in enumerate(moves):
            for _, v, _, _ in row:
                if u != v and u not in puzzle.avoid and v not in puzzle.avoid:
                    outs[u] |= 1 << v
                    ins[v] |= 1 << u
        return cls(
            puzzle=puzzle,
            ins=tuple(ins),
            outs=tuple(outs),
            moves=tuple(tuple(m) for m in moves),
            once=puzzle.visit is not NodeVisit.ANY,
            every=puzzle.visit is NodeVisit.EVERY_ONCE,
            edge_once=puzzle.use is not EdgeUse.ANY,
            exactly=puzzle.use is EdgeUse.EXACTLY_ONCE,
            wanted=puzzle.num_nodes - len(puzzle.avoid),
            node_at={p: v for v, p in puzzle.at.items()},
            last_given=max(puzzle.at.values(), default=0),
            wanted_mask=sum(1 << v for v in range(puzzle.num_nodes) if v not in puzzle.avoid),
        )

    # ------------------------------------------------------------------ steps
    def may_begin(self, v: int) -> bool:
        """May a walk start at ``v`` (its position 1)?"""
        p = self.puzzle
        if not p.may_start(v) or v in p.avoid:
            return False
        if p.closed and not p.may_end(v):
            return False
        return self.may_land(v, 1, closing=False)

    def may_land(self, w: int, position: int, *, closing: bool) -> bool:
        """May a step land on ``w`` as the walk's position ``position``? A closed walk's
        return to its start (``closing``) holds no new position."""
        if w in self.puzzle.avoid:
            return False
        if closing and self.once:
            return True
        given = self.node_at.get(position)
        if given is not None and given != w:
            return False
        if self.once:
            own = self.puzzle.at.get(w)
            if own is not None and own != position:
                return False
        return True

    def colour_ok(self, last: int, colour: int, first_step: bool) -> bool:
        """May a step of ``colour`` come after a step of colour ``last``?"""
        p = self.puzzle
        if p.colours is None:
            return True
        if first_step:
            return p.may_come_first(colour)
        return p.colour_may_follow(last, colour)

    # --------------------------------------------------------------- pruning
    def tour_blocked(self, here: int, start: int, passed: int) -> bool:
        """Under ``visit: every-once``: can the walk standing on ``here``, having passed
        the nodes of bitmask ``passed``, no longer pass every node left? True when a
        node left cannot be entered (no step from a node left or from ``here``), when a
        node left cannot be left (no step to a node left, or to the start of a closed
        walk) unless it is the one last node and may be, or when the nodes left do not
        hang together with ``here``. Sound: it never cuts a walk that could finish."""
        p = self.puzzle
        left = self.wanted_mask & ~passed
        if not left:
            return False
        entry = left | 1 << here
        leave = left | (1 << start if p.closed else 0)
        ends = 0
        rest = left
        while rest:
            low = rest & -rest
            u = low.bit_length() - 1
            rest ^= low
            if not self.ins[u] & entry:
                return True
            if not self.outs[u] & leave:
                ends += 1
                if ends > 1 or p.closed or not p.may_end(u):
                    return True
        return not self._hangs_together(here, left)

    def _hangs_together(self, here: int, left: int) -> bool:
        """Do the nodes of ``left`` all lie in one piece with ``here`` (steps either way)?"""
        reached = 1 << here
        frontier = reached
        while frontier:
            low = frontier & -frontier
            u = low.bit_length() - 1
            frontier ^= low
            new = (self.ins[u] | self.outs[u]) & left & ~reached
            reached |= new
            frontier |= new
        return left & ~reached == 0

    # ------------------------------------------------------------- finishing
    def finishes(self, node: int, start: int, steps: int, held: int, via_held: int,
                 last: int, first: int) -> bool:
        """Does a walk of ``steps`` steps standing on ``node`` solve the puzzle? ``held``
        is its number of distinct nodes with a position, ``via_held`` of checkpoints
        passed; ``last`` and ``first`` the colours of its last and first steps."""
        p = self.puzzle
        if not p.may_end(node):
            return False
        if self.exactly and steps != p.num_edges:
            return False
        if p.closed:
            if node != start or (steps == 0 and p.num_edges):
                return False
            if steps and p.colours is not None and not p.colour_may_follow(last, first):
                return False
            positions = max(steps, 1)
        else:
            positions = steps + 1
        if self.every and held != self.wanted:
            return False
        return via_held == len(p.via) and positions >= self.last_given
