"""The ``template`` backend: the smallest complete backend, to copy when adding one.

It answers small puzzles of every kind by a plain breadth-first search over partial
walks and says ``unknown`` beyond a size it can afford; it makes no certificates and
counts nothing. It is not in the registry that users see: the test suite registers it
(``tests/conftest.py``) and runs it through the behaviour tests every backend passes
(``tests/solvers/backends/test_backends.py``), so this file cannot drift from the interface it
shows.
``docs/backends.md`` ("Adding a backend") walks through it; the comments that begin
"A real backend" say what a real one puts in place of each piece.

The search is exact on what it accepts: a state holds everything the rest of a walk
depends on (where it stands, the colour of its last step, which edges it has used,
and for a closed walk where it started and its first colour), so a breadth-first
search finds a shortest walk, and a search that runs out of states shows there is
none. Every answer is still verified by the pipeline's independent checker.

>>> from trailkit.models.puzzle import Puzzle
>>> answer = TemplateBackend().solve(Puzzle.build(edges=[("a", "b"), ("b", "c")]))
>>> answer.status.value, answer.walk.nodes
('solved', (0, 1, 2))
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits, trivial_answer
from trailkit.solvers.support.signs import SOLVING, sign

__all__ = ["MAX_ONCE_EDGES", "TemplateBackend"]

#: The most edges of a once-only puzzle the search takes on: its states grow with
#: 2 ** edges. A real backend estimates its model's size instead (next constant).
MAX_ONCE_EDGES = 16
#: What one search state costs in memory (a tuple and two dictionary entries), roughly.
BYTES_PER_STATE = 400
#: How many states are expanded between two looks at the clock.
CLOCK_EVERY = 1024

#: The last colour of a walk that has taken no step yet: a phase of its own, so that a
#: walk back on its start node (along a loop, say) is never taken for the empty walk.
BEFORE = -2

# A state: (start, node, first colour, last colour or BEFORE, used edges as a bit mask).
# The start and first colour matter only to a closed walk, the mask only to once-only
# edges, the colours only under a colour rule; the parts that do not matter stay 0 or
# -1, so states that differ only there are one state.
State = tuple[int, int, int, int, int]


class TemplateBackend(Backend):
    """Breadth-first search over partial walks, for small puzzles only."""

    # The name users type (``--backend template``) and the registry's key; a backend
    # taking an option (``sat:glucose4``) sets ``self.name`` in ``__init__``.
    name = "template"
    family = "template"
    # Capability flags: the tests skip, with a reason, what a backend says it cannot do.
    supports_counting = False  # a real backend that counts overrides count()
    supports_failures = False
    supports_proof = False  # prove() returns None: the pipeline asks another for a certificate
    honours_work_limit = True
    work_unit = "search states"

    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        # The cases without a search (no nodes, an empty walk that solves it) answer at
        # once, the same way for every backend.
        trivial = trivial_answer(self.name, puzzle)
        if trivial is not None:
            return trivial
        # Estimate the size before building anything: beyond it, "unknown" with the
        # estimate, never a machine out of memory. A real backend puts its estimate in
        # models/encodings/sizes.py (below every backend) and builds its model after it.
        too_big = size_problem(puzzle, limits)
        if too_big is not None:
            return Answer.unknown(self.name, too_big)
        # A sign for the tests that press Ctrl-C at a known moment. A real backend signs
        # BUILDING before it builds its formula and SOLVING when the search starts.
        sign(SOLVING, self.name)
        # A Ctrl-C reaches this pure Python loop as a KeyboardInterrupt by itself. A real
        # backend whose search is one native call runs it through
        # solvers/support/interrupts.run_stoppable, which also enforces the deadline.
        return _Search(puzzle, limits).answer(self.name)


def size_problem(puzzle: Puzzle, limits: Limits) -> str | None:
    """Why the search must not start on ``puzzle`` within ``limits`` (``None``: it may)."""
    once = puzzle.use is not EdgeUse.ANY
    if once and puzzle.num_edges > MAX_ONCE_EDGES:
        return (f"the template backend searches once-only walks of at most {MAX_ONCE_EDGES} "
                f"edges, and this puzzle has {puzzle.num_edges}; choose another backend")
    phases = len(puzzle.colours.names) + 1 if puzzle.colours else 1
    states = puzzle.num_nodes * phases * (2 ** puzzle.num_edges if once else 1)
    if puzzle.closed:
        states *= puzzle.num_nodes * phases
    need_mb = states * BYTES_PER_STATE / 1e6
    if limits.memory_mb is not None and need_mb > limits.memory_mb:
        return (f"the template backend's search would need about {need_mb:,.0f} MB "
                f"({states:,} states), more than the memory limit of {limits.memory_mb:,} "
                "MB, so it did not start; choose another backend")
    return None


@dataclass
class _Search:
    """One breadth-first search: the states reached, each with the step that reached it."""

    puzzle: Puzzle
    limits: Limits

    def __post_init__(self) -> None:
        p = self.puzzle
        colour = p.colour if p.colour is not None else [-1] * p.num_edges
        # The steps out of each node: (edge, node reached, colour), as the rules allow.
        self.steps: list[list[tuple[int, int, int]]] = [[] for _ in range(p.num_nodes)]
        for e, orientation in p.oriented_edges():
            a, b = (p.tail[e], p.head[e]) if orientation == 0 else (p.head[e], p.tail[e])
            self.steps[a].append((e, b, colour[e]))
        self.parent: dict[State, tuple[State, int] | None] = {}
        self.expanded = 0
        self.deadline = (None if self.limits.time_limit is None
                         else time.monotonic() + self.limits.time_limit)

    def answer(self, name: str) -> Answer:
        """Search layer by layer: the first goal is a shortest walk; for ``objective:
        longest`` the last goal of the last layer is a longest one."""
        p = self.puzzle
        layer: list[State] = [(v if p.closed else 0, v, -1, BEFORE, 0) for v in p.start_nodes()]
        self.parent = dict.fromkeys(layer)
        best: State | None = None
        steps = 0
        while layer:
            goals = [s for s in layer if self.is_goal(s, steps)]
            if goals and not p.wants_longest:
                shortest = True if p.objective is Objective.SHORTEST else None
                return Answer.solved(name, self.walk(goals[0]), optimal=shortest,
                                     states=len(self.parent))
            best = goals[0] if goals else best
            following: list[State] = []
            for state in layer:
                if self.out_of_budget():
                    return Answer.unknown(name, "the template backend reached its limit "
                                          f"after {self.expanded - 1:,} states",
                                          states=len(self.parent))
                following += self.successors(state)
            layer, steps = following, steps + 1
        if best is not None:  # objective: longest, every state seen
            return Answer.solved(name, self.walk(best), optimal=True, states=len(self.parent))
        # A real backend returns its certificate here when it has one; the reason says
        # what this "unsolvable" rests on until the pipeline finds a certificate.
        return Answer.unsolvable(name, reason=f"the template backend's search ran through "
                                 f"every reachable state ({len(self.parent):,}) and found no "
                                 "walk", states=len(self.parent))

    def successors(self, state: State) -> Iterator[State]:
        """The states one step on from ``state`` that were not reached before."""
        p = self.puzzle
        start, at, first, last, used = state
        for e, b, colour in self.steps[at]:
            if p.use is not EdgeUse.ANY and used >> e & 1:
                continue
            opening = last == BEFORE  # this is the walk's first step
            if not (p.may_come_first(colour) if opening else p.colour_may_follow(last, colour)):
                continue
            ruled = p.colours is not None
            mask = used | 1 << e if p.use is not EdgeUse.ANY else 0
            nxt: State = (start, b, colour if opening and p.closed and ruled else first,
                          colour if ruled else -1, mask)
            if nxt not in self.parent:
                self.parent[nxt] = (state, e)
                yield nxt

    def is_goal(self, state: State, steps: int) -> bool:
        """Whether the walk that reached ``state`` in ``steps`` steps solves the puzzle."""
        p = self.puzzle
        start, at, first, last, used = state
        if steps == 0:
            return at in p.empty_walk_nodes()
        if p.use is EdgeUse.EXACTLY_ONCE and used != (1 << p.num_edges) - 1:
            return False
        if p.closed and (at != start or not p.colour_may_follow(last, first)):
            return False
        return p.may_end(at)

    def walk(self, state: State) -> Walk:
        """The walk that reached ``state``, followed back to its start."""
        nodes, edges = [state[1]], []
        link = self.parent[state]
        while link is not None:
            state, e = link
            nodes.append(state[1])
            edges.append(e)
            link = self.parent[state]
        return Walk(nodes[::-1], edges[::-1])

    def out_of_budget(self) -> bool:
        """Whether the work limit (states) or the deadline has been reached."""
        self.expanded += 1
        work = self.limits.work_limit
        if work is not None and self.expanded > work:
            return True
        return (self.deadline is not None and self.expanded % CLOCK_EVERY == 0
                and time.monotonic() > self.deadline)
