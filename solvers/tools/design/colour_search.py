"""``trailkit design colour-walk``: choose the planks' colours so the puzzle meets its targets.

The search is local search with a fast judge. A design is a colour for every touching
pair of the field (and, with ``thin``, whether the pair gets a plank at all). The judge
is one breadth-first pass over the (node, colour-phase) states from the start, counting
at each level the walks that reach each state first (:func:`evaluate`): it gives the
shortest length ``L`` and the number of shortest walks. A design's *shortfall* is
how far it is from the targets (steps missing below ``min_length`` or over
``max_length``, shortest walks beyond one when ``unique``, critical planks when
``robust``), and the search recolours one plank at a time, keeping changes that do not
make the shortfall worse (a random walk across plateaus), with a fresh random start
after a long stretch without progress. It stops at shortfall zero or at the time limit.

A shortest walk passes each (node, phase) state at most once, so no colouring of a
field of ``n`` nodes with ``C`` colours has a shortest walk longer than ``n * C`` steps:
targets beyond that are refused at once (:func:`longest_possible`).

The judge is not trusted: every design found is written as a spec, read back and
solved, counted and inspected by the pipeline (:mod:`.certify_design`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from trailkit.solvers.tools.design.fields import Field
from trailkit.solvers.tools.design.trap_judge import TrapMeasures, trap_measures

__all__ = ["Design", "Targets", "evaluate", "longest_possible", "search"]


@dataclass(frozen=True, slots=True)
class Targets:
    """What the design must have: a start and goal (node indices), a shortest walk of
    ``min_length``..``max_length`` steps (``None``: no bound), ``unique`` (one shortest
    walk), ``robust`` (no plank critical), ``thin`` (the share of touching pairs that
    may be left without a plank: 0 lays every one), and the ``traps`` and every shortest
    walk's ``trap_steps`` within ``(low, high)`` (``None``: any; docs/inspect.md)."""

    start: int
    goal: int
    colours: int
    min_length: int = 1
    max_length: int | None = None
    unique: bool = False
    robust: bool = False
    thin: float = 0.0
    traps: tuple[int, int] | None = None
    trap_steps: tuple[int, int] | None = None

    @property
    def measures_traps(self) -> bool:
        """Whether the targets bound the traps or the trap steps."""
        return self.traps is not None or self.trap_steps is not None


@dataclass(frozen=True, slots=True)
class Design:
    """A colouring: ``colour[i]`` for the field's pair ``i`` (-1: no plank), what the
    judge found (``length``, ``walks``, ``shortfall``: 0 meets every target), and the
    search's effort; with trap targets, the ``traps`` and the least and most
    ``trap_steps`` of a shortest walk (:mod:`.trap_judge`)."""

    colour: tuple[int, ...]
    length: int | None
    walks: int
    shortfall: float
    tries: int
    time_s: float
    traps: int | None = None
    trap_steps: tuple[int, int] | None = None

    @property
    def meets_targets(self) -> bool:
        return self.shortfall == 0


def longest_possible(field: Field, colours: int) -> int:
    """No colouring of ``field`` has a shortest walk longer than this (see the module
    docstring): each step enters a new (node, colour) state."""
    return len(field.nodes) * colours


def _adjacency(field: Field) -> list[list[tuple[int, int]]]:
    adj: list[list[tuple[int, int]]] = [[] for _ in field.nodes]
    for i, (u, v) in enumerate(field.pairs):
        adj[u].append((v, i))
        adj[v].append((u, i))
    return adj


def evaluate(adj: list[list[tuple[int, int]]], colour: list[int], colours: int,
             start: int, goal: int, without: int = -1) -> tuple[int | None, int]:
    """(shortest length or ``None``, number of shortest walks) from ``start`` to ``goal``
    with the pairs coloured ``colour`` (-1: no plank; pair ``without`` left out too);
    the first step may have any colour, each next one follows the cycle."""
    k = colours + 1
    level = {start * k: 1}
    seen = {start * k}
    steps = 0
    while level:
        if start == goal and steps == 0:
            return 0, 1
        nxt: dict[int, int] = {}
        for s, ways in level.items():
            v, p = divmod(s, k)
            for w, i in adj[v]:
                c = colour[i]
                if c < 0 or i == without or (p and c != p % colours):
                    continue
                t = w * k + c + 1
                if t not in seen:
                    nxt[t] = nxt.get(t, 0) + ways
        steps += 1
        found = sum(n for t, n in nxt.items() if t // k == goal)
        if found:
            return steps, found
        seen.update(nxt)
        level = nxt
    return None, 0


def _outside(value: int, bounds: tuple[int, int] | None) -> int:
    """How far ``value`` is outside ``bounds`` (0: inside, or no bounds)."""
    return 0 if bounds is None else max(0, bounds[0] - value, value - bounds[1])


Judged = tuple[float, int | None, int, TrapMeasures | None]
"""The shortfall, shortest length, number of shortest walks and trap measures."""


def _shortfall(adj: list[list[tuple[int, int]]], colour: list[int], targets: Targets
               ) -> Judged:
    """How far ``colour`` is from the targets (0: it meets them), with its length,
    number of shortest walks and (with trap targets) its trap measures."""
    traps = None
    if targets.measures_traps:
        traps = trap_measures(adj, colour, targets.colours, targets.start, targets.goal)
        length, walks = traps.length, traps.walks
    else:
        length, walks = evaluate(adj, colour, targets.colours, targets.start, targets.goal)
    if length is None:
        return 1e6, None, 0, traps
    short = 100.0 * max(0, targets.min_length - length)
    if traps is not None:
        short += 20.0 * _outside(traps.traps, targets.traps)
        short += 30.0 * sum(_outside(n, targets.trap_steps) for n in traps.trap_steps)
    if targets.max_length is not None:
        short += 100.0 * max(0, length - targets.max_length)
    if targets.unique and walks > 1:
        short += 10.0 * (1 + math.log2(walks))
    if short == 0 and targets.robust:
        short += 5.0 * sum(1 for i in _one_walk(adj, colour, targets) if evaluate(
            adj, colour, targets.colours, targets.start, targets.goal, without=i)[0] is None)
    return short, length, walks, traps


def _one_walk(adj: list[list[tuple[int, int]]], colour: list[int], targets: Targets
              ) -> set[int]:
    """The pairs of one shortest walk (only they can be critical: a walk avoiding a
    plank survives its loss)."""
    k, colours = targets.colours + 1, targets.colours
    parent: dict[int, tuple[int, int]] = {targets.start * k: (-1, -1)}
    level = [targets.start * k]
    while level:
        nxt = []
        for s in level:
            v, p = divmod(s, k)
            for w, i in adj[v]:
                c = colour[i]
                t = w * k + c + 1
                if c < 0 or (p and c != p % colours) or t in parent:
                    continue
                parent[t] = (s, i)
                if w == targets.goal:
                    used = set()
                    while parent[t][0] >= 0:
                        t, i = parent[t]
                        used.add(i)
                    return used
                nxt.append(t)
        level = nxt
    return set()


def _fresh(rng: random.Random, pairs: int, targets: Targets) -> list[int]:
    """A random colouring; with ``thin``, that share of the pairs left without a plank."""
    return [-1 if rng.random() < targets.thin else rng.randrange(targets.colours)
            for _ in range(pairs)]


def _neighbour(rng: random.Random, colour: list[int], targets: Targets) -> tuple[int, int]:
    """One change: a plank recoloured, or (with ``thin``) laid or taken up. Returns the
    pair and its new colour."""
    i = rng.randrange(len(colour))
    if targets.thin and rng.random() < 0.3:
        return i, (rng.randrange(targets.colours) if colour[i] < 0 else -1)
    if colour[i] < 0:
        return i, rng.randrange(targets.colours)
    return i, (colour[i] + rng.randrange(1, targets.colours)) % targets.colours


def search(field: Field, targets: Targets, seed: int, time_limit: float,
           avoid: frozenset[tuple[int, ...]] = frozenset(), restart_after: int = 4000
           ) -> Design:
    """The best colouring found within ``time_limit`` seconds (see the module
    docstring); ``avoid`` holds colourings already designed (``--count``), which do not
    count as meeting the targets."""
    started = time.perf_counter()
    rng = random.Random(seed)
    adj = _adjacency(field)
    pairs = len(field.pairs)
    colour = _fresh(rng, pairs, targets)
    judged = _shortfall(adj, colour, targets)
    score = judged[0]
    best = (score, tuple(colour), judged)
    tries, stale = 0, 0
    while best[0] > 0 or best[1] in avoid:
        if time.perf_counter() - started > time_limit:
            break
        tries += 1
        stale += 1
        if stale > restart_after:
            colour, stale = _fresh(rng, pairs, targets), 0
            score = _shortfall(adj, colour, targets)[0]
        i, new = _neighbour(rng, colour, targets)
        old, colour[i] = colour[i], new
        judged = _shortfall(adj, colour, targets)
        got = judged[0]
        if got == 0 and tuple(colour) in avoid:
            got = 0.5  # met, but designed already: keep looking
        if got <= score:
            if got < score:
                stale = 0
            score = got
            if got < best[0]:
                best = (got, tuple(colour), judged)
        else:
            colour[i] = old
    _, length, walks, traps = best[2]
    return Design(best[1], length, walks, best[0], tries, time.perf_counter() - started,
                  traps.traps if traps else None, traps.trap_steps if traps else None)
