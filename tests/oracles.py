"""Independent oracles shared by the tests: brute force that knows no solver's tricks.

:func:`brute_shortest` knows nothing of colour phases or state graphs: it extends
walks one edge at a time in every direction and asks
:func:`trailkit.models.checking.verify.verify` whether the result still obeys the rules. Walks
that stand on the same node, began at the same node and have the same first and last
edge colours have the same futures under every rule, so only one of each such group
is kept per length; with ``distinct_edges`` nothing is merged and no edge repeats,
which makes it an exhaustive at-most-once (and exactly-once) search.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from hypothesis import strategies as st

from trailkit.models.answer import Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Backend, Limits

COLOURS = ("red", "blue", "green")
RGB = ColourRule.from_cycle(COLOURS)


@st.composite
def walk_puzzles(draw: Any, use: EdgeUse = EdgeUse.ANY, max_nodes: int = 4,
                 max_edges: int = 6, closed: bool | None = None) -> Puzzle:
    """Small random coloured multigraphs: mixed directions, random rules and ends."""
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, max_edges))
    c = draw(st.integers(1, 3))
    names = COLOURS[:c]
    rule_kind = draw(st.sampled_from(["none", "cycle", "table"]))
    rule: ColourRule | None = None
    if rule_kind == "cycle":
        rule = ColourRule.from_cycle(names)
    elif rule_kind == "table":
        table = {a: draw(st.lists(st.sampled_from(names), unique=True)) for a in names}
        rule = ColourRule.from_transitions(names, table)
    node = st.integers(0, n - 1)
    colour = st.integers(-1 if draw(st.booleans()) else 0, c - 1)
    tail = [draw(node) for _ in range(m)]
    head = [draw(node) for _ in range(m)]
    colours = [draw(colour) for _ in range(m)]
    directed = [draw(st.booleans()) for _ in range(m)] if draw(st.booleans()) else None
    subset = st.none() | st.frozensets(node, max_size=n)
    first = draw(st.none() | st.frozensets(st.integers(0, c - 1))) if rule else None
    return Puzzle(kind="walk", nodes=tuple(f"n{i}" for i in range(n)), tail=tail, head=head,
                  directed=directed, colour=colours, colour_names=names, use=use,
                  colours=rule, first=first, start=draw(subset), end=draw(subset),
                  closed=draw(st.booleans()) if closed is None else closed,
                  objective=Objective.SHORTEST)


def steps_from(p: Puzzle, at: int, *, respect_direction: bool = True) -> list[tuple[int, int]]:
    """Every (edge, next node) leaving ``at``; a self-loop is one step. With
    ``respect_direction=False`` one-way edges may be crossed backwards too (for
    searches that let ``verify`` judge every rule)."""
    out = []
    for e in range(p.num_edges):
        u, v = p.tail[e], p.head[e]
        if u == at:
            out.append((e, v))
        elif v == at and not (respect_direction and p.is_directed(e)):
            out.append((e, u))
    return out


def brute_shortest(p: Puzzle, bound: int, *, distinct_edges: bool = False) -> Walk | None:
    """A shortest walk of at most ``bound`` steps that ``verify`` accepts, or ``None``."""
    open_rules = dataclasses.replace(p, closed=False, end=None, use=EdgeUse.ANY)
    starts = range(p.num_nodes) if p.start is None else sorted(p.start)
    frontier = [w for w in (Walk((s,), ()) for s in starts) if not verify(open_rules, w)]
    colour = p.colour or [-1] * p.num_edges
    for _ in range(bound + 1):
        for w in frontier:
            if not verify(p, w):
                return w
        seen: set[Any] = set()
        following = []
        for w in frontier:
            for e, v in steps_from(p, w.nodes[-1], respect_direction=False):
                if distinct_edges and e in w.edges:
                    continue
                x = Walk((*w.nodes, v), (*w.edges, e))
                key: Any = ((x.nodes[0], x.edges) if distinct_edges else
                            (v, x.nodes[0], colour[x.edges[0]], colour[e]))
                if key not in seen and not verify(open_rules, x):
                    seen.add(key)
                    following.append(x)
        frontier = following
    return None


def reusable_bound(p: Puzzle) -> int:
    """Steps within which a shortest reusable walk exists if any does (states + 1)."""
    phases = (len(p.colours.names) if p.colours else 1) + 1
    return p.num_nodes * phases + 1


def assert_sound(p: Puzzle, answer: Any) -> None:
    """A solved answer verifies; an unsolvable one carries a certificate the checker accepts."""
    if answer.status is Status.SOLVED:
        assert verify(p, answer.walk) == []
    elif answer.status is Status.UNSOLVABLE and answer.certificate is not None:
        assert check_certificate(p, answer.certificate) == []
        assert answer.certificate.explanation




def expected_walk(p: Puzzle) -> Walk | None:
    """A shortest valid walk of any puzzle small enough to search by brute force."""
    if p.use is EdgeUse.ANY:
        return brute_shortest(p, reusable_bound(p))
    return brute_shortest(p, p.num_edges, distinct_edges=True)


def check_against_oracle(backend: Backend, p: Puzzle) -> None:
    """The backend's answer on ``p`` is sound and agrees with brute force (solvability,
    and the shortest length where it claims optimality)."""
    answer = backend.solve(p, Limits(time_limit=30))
    assert answer.status is not Status.UNKNOWN, answer.reason
    assert_sound(p, answer)
    expected = expected_walk(p)
    assert (answer.status is Status.SOLVED) == (expected is not None), answer
    if expected is not None and answer.optimal:
        assert len(answer.walk) == len(expected)


def jit_on_and_off(script: str) -> tuple[Any, Any]:
    """Run ``script`` (which prints one JSON value) compiled and with
    ``NUMBA_DISABLE_JIT=1``, each in a fresh process; return both values, so a test can
    check that the compiled kernels and the same code interpreted agree. Kernels are
    compiled whatever the input's size (``COMPILE_FROM = 0``)."""
    prologue = "from trailkit.models.support import jit\njit.COMPILE_FROM = 0\n"

    def run(env: dict[str, str]) -> Any:
        done = subprocess.run([sys.executable, "-c", prologue + script], env=env,
                              check=True, capture_output=True, text=True)
        return json.loads(done.stdout)

    return run(dict(os.environ)), run({**os.environ, "NUMBA_DISABLE_JIT": "1"})


def once_walks(p: Puzzle) -> list[Walk]:
    """Every valid walk of ``p`` that uses each edge at most once (whatever ``p.use``
    says), judged by the verifier: for cores and longest walks."""
    relaxed = dataclasses.replace(p, use=EdgeUse.AT_MOST_ONCE)
    loose = dataclasses.replace(relaxed, closed=False, end=None)
    found: list[Walk] = []
    starts = range(p.num_nodes) if p.start is None else sorted(p.start)
    stack = [Walk((s,), ()) for s in starts]
    while stack:
        w = stack.pop()
        if verify(loose, w):
            continue
        if not verify(relaxed, w):
            found.append(w)
        for e, v in steps_from(p, w.nodes[-1], respect_direction=False):
            if e not in w.edges:
                stack.append(Walk((*w.nodes, v), (*w.edges, e)))
    return found


def all_walks(puzzle: Puzzle, max_len: int) -> Iterator[Walk]:
    """Every walk of at most ``max_len`` steps that obeys the puzzle's rules (by verify).

    Independent of the encoder: a depth-first search over edges touching the current
    node (a self-loop taken one way only), keeping what :func:`verify` accepts.
    """
    limit_once = puzzle.use is not EdgeUse.ANY
    for start in range(puzzle.num_nodes):
        stack = [((start,), ())]
        while stack:
            nodes, edges = stack.pop()
            walk = Walk(nodes, edges)
            if not verify(puzzle, walk):
                yield walk
            if len(edges) == max_len:
                continue
            at = nodes[-1]
            for e in range(puzzle.num_edges):
                if limit_once and e in edges:
                    continue
                u, v = puzzle.tail[e], puzzle.head[e]
                if u == at:
                    stack.append(((*nodes, v), (*edges, e)))
                if v == at and u != v and not puzzle.is_directed(e):
                    stack.append(((*nodes, u), (*edges, e)))


@st.composite
def tiny_puzzles(draw: Any, max_nodes: int = 4, max_edges: int = 5) -> Puzzle:
    """Walk puzzles on up to ``max_nodes`` nodes under every rule at once: any edge use,
    red-blue-green cycles or none, mixed directions, ends, first colours, closed or
    open, every objective (the SAT encodings' tests enumerate all their walks)."""
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, max_edges))
    names = "abcdef"[:n]
    ends = st.tuples(st.sampled_from(names), st.sampled_from(names))
    raw = draw(st.lists(ends, min_size=m, max_size=m))
    use = draw(st.sampled_from(list(EdgeUse)))
    coloured = draw(st.booleans())
    colours = RGB if coloured else None
    edges = [(u, v, draw(st.sampled_from(["red", "blue", "green"]))) if coloured else (u, v)
             for u, v in raw]
    directed = draw(st.lists(st.booleans(), min_size=m, max_size=m)) if draw(st.booleans()) \
        else None
    node_set = st.none() | st.sets(st.sampled_from(names), min_size=1).map(sorted)
    start, end = draw(node_set), draw(node_set)
    first = draw(st.none() | st.sets(st.sampled_from(RGB.names), min_size=1).map(sorted)) \
        if coloured else None
    objective = Objective.SHORTEST if use is EdgeUse.ANY else draw(st.sampled_from(list(Objective)))
    return Puzzle.build(kind="walk", nodes=names, edges=edges, directed=directed,
                        colours=colours, use=use, start=start, end=end, first=first,
                        closed=draw(st.booleans()), objective=objective)


def once_lengths(puzzle: Puzzle) -> Counter[int]:
    """Lengths of every valid walk of a use-once puzzle, by exhaustive depth-first search."""
    found: Counter[int] = Counter()

    def grow(nodes: list[int], edges: list[int]) -> None:
        if not verify(puzzle, Walk(tuple(nodes), tuple(edges))):
            found[len(edges)] += 1
        for e, nxt in steps_from(puzzle, nodes[-1]):
            if e not in edges:
                grow([*nodes, nxt], [*edges, e])

    for v in range(puzzle.num_nodes):
        grow([v], [])
    return found


def reusable_shortest(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest length or None, number of shortest walks) for a reusable-edge puzzle."""
    rule, colour = puzzle.colours, puzzle.colour

    def col(e: int) -> int:
        return -1 if colour is None else colour[e]

    def ok_end(state: tuple[int, int, int, int], k: int) -> bool:
        start, first, at, last = state
        if puzzle.end is not None and at not in puzzle.end:
            return False
        if puzzle.closed:  # with no edge at all, the empty walk closes (the empty ring)
            return (k >= 1 or not puzzle.num_edges) and at == start and \
                (k == 0 or rule is None or first in rule.successors[last])
        return True

    layer: Counter[tuple[int, int, int, int]] = Counter(
        {(u, -9, u, -9): 1 for u in range(puzzle.num_nodes)
         if puzzle.start is None or u in puzzle.start})
    # A shortest walk never repeats a state: its start and first colour are fixed after
    # step 1, so it passes at most num_nodes * (colours + 1) (place, last colour) states
    # after the first (which never recurs: its colours are -9); cutting out the steps
    # between two equal states would leave a shorter walk, just as valid. (The bound
    # was this number squared: a puzzle with no walk took thousands of layers.)
    bound = puzzle.num_nodes * (len(puzzle.colour_names) + 1) + 2
    for k in range(bound):
        total = sum(n for s, n in layer.items() if ok_end(s, k))
        if total:
            return k, total
        nxt: Counter[tuple[int, int, int, int]] = Counter()
        for (start, first, at, last), n in layer.items():
            for e, to in steps_from(puzzle, at):
                c = col(e)
                if rule is not None:
                    if c < 0 or (k == 0 and puzzle.first is not None and c not in puzzle.first):
                        continue
                    if k > 0 and c not in rule.successors[last]:
                        continue
                nxt[(start, c if k == 0 else first, to, c)] += n
        layer = nxt
    return None, 0


def solution_oracle(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest valid length or None, number of solutions the backend should count)."""
    if puzzle.use is EdgeUse.ANY:
        return reusable_shortest(puzzle)
    lengths = once_lengths(puzzle)
    if not lengths:
        return None, 0
    best = min(lengths)
    if puzzle.objective is Objective.SHORTEST:
        return best, lengths[best]
    if puzzle.wants_longest:  # the longest walks only (CONTRACT 1.2 §5)
        return best, lengths[max(lengths)]
    return best, sum(lengths.values())


@st.composite
def rule_puzzles(draw: st.DrawFn, use: EdgeUse | None = None, max_edges: int = 5) -> Puzzle:
    """Walk puzzles on 2-4 nodes with no colour rule, a cycle or a transition table,
    uncoloured edges among coloured ones, any ends, edge use and objective."""
    n = draw(st.integers(2, 4))
    names = "abcd"[:n]
    m = draw(st.integers(1, max_edges))
    colours = draw(st.sampled_from(["none", "cycle", "table"]))
    palette = ["red", "blue", "green"]
    rule = None
    if colours == "cycle":
        rule = ColourRule.from_cycle(palette[: draw(st.integers(2, 3))])
    elif colours == "table":
        k = draw(st.integers(1, 3))
        table = {a: draw(st.sets(st.sampled_from(palette[:k]))) for a in palette[:k]}
        rule = ColourRule.from_transitions(palette[:k], table)
    edges = []
    for _ in range(m):
        u, v = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        c = draw(st.sampled_from([*rule.names, None])) if rule else None
        edges.append((u, v, c))
    directed = draw(st.one_of(st.none(), st.lists(st.booleans(), min_size=m, max_size=m)))
    subset = st.one_of(st.none(), st.sets(st.sampled_from(names), min_size=1))
    first = draw(st.one_of(st.none(), st.sets(st.sampled_from(rule.names), min_size=1))
                 ) if rule else None
    return Puzzle.build(
        kind="walk", edges=edges, nodes=names, directed=directed, colours=rule,
        start=draw(subset), end=draw(subset), first=first,
        use=use or draw(st.sampled_from(list(EdgeUse))),
        closed=draw(st.booleans()),
        objective=draw(st.sampled_from(list(Objective))))


@dataclass
class Tally:
    """The seed's three numbers for one start node."""

    solutions: int = 0
    failures: int = 0
    early: int = 0


def colours_ok(puzzle: Puzzle, edges: list[int]) -> bool:
    """The colour part of the step rules: colours in order from an allowed first colour."""
    rule, colour = puzzle.colours, puzzle.colour
    if rule is None:
        return True
    assert colour is not None
    if any(colour[e] < 0 for e in edges):
        return False
    if edges and puzzle.first is not None and colour[edges[0]] not in puzzle.first:
        return False
    return all(rule.allows(colour[a], colour[b]) for a, b in pairwise(edges))


def prefix_ok(puzzle: Puzzle, edges: list[int]) -> bool:
    """The step rules of a trail: no edge twice, and the colour rule."""
    return len(set(edges)) == len(edges) and colours_ok(puzzle, edges)


def brute_tallies(puzzle: Puzzle) -> dict[int, Tally]:
    """Per start node: the seed's three numbers by plain enumeration of every walk."""
    def explore(nodes: list[int], edges: list[int], tally: Tally) -> bool:
        solved = not verify(puzzle, Walk(tuple(nodes), tuple(edges)))
        tally.solutions += solved
        children = [(e, w) for e, w in steps_from(puzzle, nodes[-1])
                    if prefix_ok(puzzle, [*edges, e])]
        if not children and not solved:
            tally.failures += 1
        results = [explore([*nodes, w], [*edges, e], tally) for e, w in children]
        solvable = solved or any(results)
        if solvable:
            tally.early += results.count(False)
        return solvable

    starts = sorted(puzzle.start) if puzzle.start is not None else range(puzzle.num_nodes)
    tallies = {s: Tally() for s in starts}
    solvable = {s: explore([s], [], tallies[s]) for s in starts}
    if any(solvable.values()):
        for s in starts:
            tallies[s].early += not solvable[s]
    return tallies


_COUNT_NAMES = "abcd"
_COUNT_RULE = ColourRule.from_cycle(["r", "g", "b"])


@st.composite
def count_puzzles(draw: st.DrawFn, use: EdgeUse | None = None) -> Puzzle:
    """Puzzles on 1-4 nodes for the counters: r-g-b cycles or none, one-way edges, any
    ends, edges used once (or as ``use`` says)."""
    n = draw(st.integers(1, 4))
    nodes = st.sampled_from(_COUNT_NAMES[:n])
    m = draw(st.integers(0, 6))
    coloured = draw(st.booleans())
    edges = [(draw(nodes), draw(nodes), draw(st.sampled_from("rgb")) if coloured else None)
             for _ in range(m)]
    subset = st.one_of(st.none(), st.lists(nodes, min_size=1, max_size=n))
    return Puzzle.build(
        nodes=_COUNT_NAMES[:n], edges=edges,
        directed=draw(st.lists(st.booleans(), min_size=m, max_size=m)),
        colours=_COUNT_RULE if coloured else None,
        first=draw(st.one_of(st.none(), st.lists(st.sampled_from("rgb"), min_size=1)))
        if coloured else None,
        start=draw(subset), end=draw(subset), closed=draw(st.booleans()),
        use=use or draw(st.sampled_from([EdgeUse.EXACTLY_ONCE, EdgeUse.AT_MOST_ONCE])),
    )


def brute_trail_exists(puzzle: Puzzle) -> bool:
    """Whether some order of the edges, each crossed in an allowed direction, forms a
    walk obeying the puzzle (depth-first over every prefix: every permutation and
    every orientation of the two-way edges is reachable)."""
    n, m = len(puzzle.nodes), len(puzzle.tail)
    starts = range(n) if puzzle.start is None else puzzle.start
    ends = range(n) if puzzle.end is None else puzzle.end
    one_way = [bool(puzzle.directed and puzzle.directed[e]) for e in range(m)]

    def extend(origin: int, at: int, used: int) -> bool:
        if used == (1 << m) - 1:
            return at in ends and (not puzzle.closed or at == origin)
        for e in range(m):
            if used >> e & 1:
                continue
            u, v = puzzle.tail[e], puzzle.head[e]
            moves = [v] if u == at else []
            if v == at and not one_way[e]:
                moves.append(u)
            if any(extend(origin, w, used | 1 << e) for w in moves):
                return True
        return False

    return any(extend(s, s, 0) for s in starts)


@st.composite
def euler_puzzles(draw: st.DrawFn) -> Puzzle:
    """Exactly-once puzzles on 1-5 nodes numbered ``v0``, ``v1``, ...: two-way, one-way
    or mixed edges, any ends, open or closed, with or without edge ids."""
    n = draw(st.integers(1, 5))
    m = draw(st.integers(0, 7))
    nodes = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(nodes, nodes), min_size=m, max_size=m))
    direction = draw(st.sampled_from(["none", "all", "mixed"]))
    directed = None
    if direction == "all":
        directed = [True] * m
    elif direction == "mixed":
        directed = draw(st.lists(st.booleans(), min_size=m, max_size=m))
    ends = st.none() | st.frozensets(nodes, max_size=n)
    ids = draw(st.booleans())
    return Puzzle(kind="walk", nodes=tuple(f"v{i}" for i in range(n)),
                  tail=[u for u, _ in edges], head=[v for _, v in edges], directed=directed,
                  closed=draw(st.booleans()), start=draw(ends), end=draw(ends),
                  edge_ids=[f"e{i}" for i in range(m)] if ids else None,
                  use=EdgeUse.EXACTLY_ONCE)


# ------------------------------------------------------------------ repairs
def oracle_changes(p: Puzzle, remove: bool) -> list[tuple[Any, ...]]:
    """Every single change of ``add: any`` (and ``remove: true``), on indices."""
    palette = range(len(p.colours.names)) if p.colours is not None else [-1]
    out: list[tuple[Any, ...]] = [("add", u, v, c) for u, v in
                                  combinations(range(p.num_nodes), 2) for c in palette]
    return out + ([("remove", e) for e in range(p.num_edges)] if remove else [])


def changed_puzzle(p: Puzzle, combo: tuple[tuple[Any, ...], ...]) -> Puzzle:
    """The oracle's own copy of ``p`` with ``combo`` (of :func:`oracle_changes`) made."""
    drop = {c[1] for c in combo if c[0] == "remove"}
    keep = [e for e in range(p.num_edges) if e not in drop]
    adds = [c for c in combo if c[0] == "add"]
    colour = list(p.colour) if p.colour is not None else [-1] * p.num_edges
    directed = None if p.directed is None else [p.directed[e] for e in keep] + [False] * len(adds)
    return dataclasses.replace(
        p, tail=[p.tail[e] for e in keep] + [c[1] for c in adds],
        head=[p.head[e] for e in keep] + [c[2] for c in adds],
        colour=[colour[e] for e in keep] + [c[3] for c in adds], directed=directed,
        edge_ids=None)


def fewest_changes_oracle(p: Puzzle, remove: bool, most: int) -> int | None:
    """The fewest changes of ``add: any`` (and ``remove: true``), at most ``most``, after
    which brute force (:func:`expected_walk`) finds a walk; ``None`` past ``most``."""
    changes = oracle_changes(p, remove)
    for size in range(most + 1):
        for combo in combinations(changes, size):
            if expected_walk(changed_puzzle(p, combo)) is not None:
                return size
    return None
