"""The general search for walks under node rules: depth-first over (node, last colour)
with the nodes passed and the edges used, for every combination the compiled tour
search (:mod:`.hamilton`) does not take: colour rules, ``visit: at-most-once``,
checkpoints and givens under ``visit: any``, every edge exactly once, objectives.

Each step obeys the edge rules (direction, colour order, an edge at most once unless
``use: any``) and the node rules (:class:`~.node_moves.NodeRules`: no avoided node, the
givens ``at``, no node twice under ``visit`` other than ``any``). A branch is cut,
soundly, when a node the walk must still pass (every node under ``every-once``, the
checkpoints left) can no longer be reached, when the walk cannot fit its length bound,
or (``objective: longest``) when even every reachable node or edge could not make it
beat the best walk found. It is bounded by ``Limits.work_limit`` search nodes and the
time limit: :class:`OutOfWork` then, never a guess.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")],
...                  use="at-most-once", visit=NodeVisit.EVERY_ONCE)
>>> search = NodeWalkSearch(NodeRules.of(p), work_limit=1000, deadline=None)
>>> sorted(w.nodes for s in range(4) for w in search.walks(s))[:2]
[(0, 1, 2, 3), (1, 0, 2, 3)]
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from trailkit.models.answer import Walk
from trailkit.solvers.backends.direct.node_moves import NodeRules

__all__ = ["NodeWalkSearch", "OutOfWork"]

_CLOCK_EVERY = 1024


class OutOfWork(Exception):
    """The work or time limit was reached; the message says which."""


class NodeWalkSearch:
    """Depth-first search over walks obeying the node rules (see the module docstring).

    ``need`` (for ``objective: longest``) is the fewest steps a walk must have to be
    worth finding; the caller raises it as better walks turn up.
    """

    def __init__(self, rules: NodeRules, *, work_limit: int, deadline: float | None,
                 time_limit: float | None = None) -> None:
        self.rules = rules
        p = rules.puzzle
        self.work_limit = work_limit
        self.deadline = deadline
        self.time_limit = time_limit
        self.work = 0
        self.need = 0
        self.longest = False
        self.count = [0] * p.num_nodes       # positions each node holds
        self.used = bytearray(p.num_edges)
        self.via = p.via
        self.must_reach = rules.every or bool(p.via)

    def walks(self, start: int, bound: int | None = None) -> Iterator[Walk]:
        """Every solving walk from ``start`` of at most ``bound`` steps, depth first."""
        r = self.rules
        if not r.may_begin(start):
            return
        nodes: list[int] = [start]
        edges: list[int] = []
        colours: list[int] = []
        state = _State(self.count, start, start in self.via)
        if self._finished(state, nodes, colours):
            yield Walk(tuple(nodes), ())
        frames = [0]
        try:
            while frames:
                i = frames[-1]
                moves = r.moves[nodes[-1]]
                if i >= len(moves):
                    frames.pop()
                    if edges:
                        self._undo(state, nodes, edges, colours)
                    continue
                frames[-1] = i + 1
                e, w, c, _ = moves[i]
                closing = self._step_kind(state, nodes, edges, colours, e, w, c, bound)
                if closing is None:
                    continue
                self._tick()
                self._do(state, nodes, edges, colours, e, w, c, closing)
                if self._finished(state, nodes, colours):
                    yield Walk(tuple(nodes), tuple(edges))
                if closing or self._hopeless(state, nodes, bound):
                    self._undo(state, nodes, edges, colours)
                    continue
                frames.append(0)
        finally:
            while edges:
                self._undo(state, nodes, edges, colours)
            state.leave(self.count, start)

    # --------------------------------------------------------------- steps
    def _step_kind(self, state: _State, nodes: list[int], edges: list[int],
                   colours: list[int], e: int, w: int, c: int,
                   bound: int | None) -> bool | None:
        """``None`` when the step along ``e`` to ``w`` is not allowed, else whether it
        is a closed walk's return to its start (the last step under node rules)."""
        r = self.rules
        if r.edge_once and self.used[e]:
            return None
        if bound is not None and len(edges) >= bound:
            return None
        if not r.colour_ok(colours[-1] if colours else -1, c, not colours):
            return None
        closing = r.puzzle.closed and w == nodes[0]
        if r.once and self.count[w] and not closing:
            return None
        if not r.may_land(w, len(edges) + 2, closing=closing):
            return None
        return closing and r.once

    def _do(self, state: _State, nodes: list[int], edges: list[int], colours: list[int],
            e: int, w: int, c: int, closing: bool) -> None:
        self.used[e] += 1
        edges.append(e)
        colours.append(c)
        nodes.append(w)
        if not closing:
            state.enter(self.count, w, w in self.via)

    def _undo(self, state: _State, nodes: list[int], edges: list[int],
              colours: list[int]) -> None:
        w = nodes.pop()
        e = edges.pop()
        colours.pop()
        self.used[e] -= 1
        closing = self.rules.once and self.rules.puzzle.closed and w == nodes[0]
        if not closing:
            state.leave(self.count, w, w in self.via)

    def _finished(self, state: _State, nodes: list[int], colours: list[int]) -> bool:
        steps = len(nodes) - 1
        if self.longest and steps < self.need:
            return False
        return self.rules.finishes(nodes[-1], nodes[0], steps, state.held, state.via_held,
                                   colours[-1] if colours else -1,
                                   colours[0] if colours else -1)

    # -------------------------------------------------------------- pruning
    def _hopeless(self, state: _State, nodes: list[int], bound: int | None) -> bool:
        """Can no walk through this prefix solve the puzzle (within ``bound``)?"""
        r = self.rules
        steps = len(nodes) - 1
        if bound is not None and r.every:
            left = r.wanted - state.held + (1 if r.puzzle.closed else 0)
            if steps + left > bound:
                return True
        if not (self.must_reach or self.longest):
            return False
        reached_nodes, reached_edges = self._reach(nodes[-1], nodes[0])
        if r.every and sum(1 for v in reached_nodes if not self.count[v]) \
                < r.wanted - state.held:
            return True
        if any(not self.count[v] and v not in reached_nodes for v in self.via):
            return True
        if self.longest:
            ahead = reached_edges if not r.once else \
                sum(1 for v in reached_nodes if not self.count[v]) + int(r.puzzle.closed)
            return steps + ahead < self.need
        return False

    def _reach(self, here: int, start: int) -> tuple[set[int], int]:
        """The nodes a walk from ``here`` could still reach (through nodes not passed,
        under node rules), and how many unused edges it could reach on the way."""
        r = self.rules
        avoid = r.puzzle.avoid
        seen, stack, edges = {here}, [here], set()
        while stack:
            x = stack.pop()
            for e, w, _, _ in r.moves[x]:
                if (r.edge_once and self.used[e]) or w in avoid:
                    continue
                edges.add(e)
                if w in seen or (r.once and self.count[w]):
                    continue
                seen.add(w)
                stack.append(w)
        return seen, len(edges)

    def _tick(self) -> None:
        self.work += 1
        if self.work > self.work_limit:
            raise OutOfWork(f"work limit of {self.work_limit} search nodes reached")
        if (self.deadline is not None and self.work % _CLOCK_EVERY == 0
                and time.monotonic() > self.deadline):
            from trailkit.models.support.words import seconds

            raise OutOfWork(f"time limit of {seconds(self.time_limit or 0.0)} reached")


class _State:
    """How many distinct nodes and checkpoints the walk holds positions on."""

    __slots__ = ("held", "via_held")

    def __init__(self, count: list[int], start: int, is_via: bool) -> None:
        self.held = 0
        self.via_held = 0
        self.enter(count, start, is_via)

    def enter(self, count: list[int], v: int, is_via: bool) -> None:
        if not count[v]:
            self.held += 1
            self.via_held += is_via
        count[v] += 1

    def leave(self, count: list[int], v: int, is_via: bool | None = None) -> None:
        count[v] -= 1
        if not count[v]:
            self.held -= 1
            self.via_held -= bool(is_via)
