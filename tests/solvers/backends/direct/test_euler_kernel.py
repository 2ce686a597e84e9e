"""The compiled Euler kernels (Hierholzer over CSR rows, Dinic's max-flow) against
independent oracles: NetworkX's Euler tests on graphs too big for brute force, an
exhaustive search over orientations for the max-flow, the verifier for every walk,
and the same kernels interpreted (``NUMBA_DISABLE_JIT=1``, in a subprocess) giving
the very same walks. ``tests/solvers/backends/direct/test_direct_euler.py`` holds the brute-force
oracle
on small puzzles.
"""

from __future__ import annotations

import itertools
import random
import textwrap

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import jit_on_and_off

from trailkit.models.answer import Status
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.euler import _balancing_flips, solve_euler

pytestmark = pytest.mark.usefixtures("compiled_kernels")


def build(n: int, edges: list[tuple[int, int]], directed: list[bool] | None,
          closed: bool) -> Puzzle:
    return Puzzle(kind="trail", nodes=tuple(f"v{i}" for i in range(n)),
                  tail=[u for u, _ in edges], head=[v for _, v in edges],
                  directed=directed, closed=closed)


@st.composite
def walk_graphs(draw: st.DrawFn, mode: str | None = None, stray: bool = True) -> Puzzle:
    """One random walk's steps (an Euler trail by construction, closed or open,
    loops and parallel edges included), plus sometimes (``stray``) a few stray edges."""
    n = draw(st.integers(1, 30))
    m = draw(st.integers(1, 120))
    walk = draw(st.lists(st.integers(0, n - 1), min_size=m + 1, max_size=m + 1))
    closed = draw(st.booleans())
    if closed:
        walk[-1] = walk[0]
    edges = list(itertools.pairwise(walk))
    edges += draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                           max_size=3 if stray and draw(st.booleans()) else 0))
    mode = mode or draw(st.sampled_from(["undirected", "directed", "mixed"]))
    directed = None if mode == "undirected" else [
        mode == "directed" or draw(st.booleans()) for _ in edges]
    if directed is not None:  # two-way edges may be written either way round
        edges = [(v, u) if not d and draw(st.booleans()) else (u, v)
                 for (u, v), d in zip(edges, directed, strict=True)]
    return build(n, edges, directed, closed and draw(st.booleans()))


def networkx_says(puzzle: Puzzle) -> bool:
    """Whether NetworkX finds an Euler circuit (closed) or trail (open) of the edges."""
    graph = nx.MultiDiGraph() if puzzle.directed else nx.MultiGraph()
    graph.add_edges_from(zip(puzzle.tail, puzzle.head, strict=True))
    return nx.is_eulerian(graph) if puzzle.closed else nx.has_eulerian_path(graph)


@given(st.sampled_from(["undirected", "directed"]).flatmap(walk_graphs))
def test_one_way_or_two_way_graphs_agree_with_networkx(puzzle: Puzzle) -> None:
    answer = solve_euler(puzzle, Limits())
    assert (answer.status is Status.SOLVED) == networkx_says(puzzle), answer.reason
    if answer.walk is not None:
        assert verify(puzzle, answer.walk) == []


@given(walk_graphs("mixed", stray=False))
def test_mixed_graphs_from_a_walk_are_solved(puzzle: Puzzle) -> None:
    answer = solve_euler(puzzle, Limits())
    assert answer.status is Status.SOLVED, answer.reason
    assert answer.walk is not None and verify(puzzle, answer.walk) == []


@st.composite
def mixed_graphs(draw: st.DrawFn) -> tuple[Puzzle, int, int]:
    n = draw(st.integers(2, 6))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    edges = draw(st.lists(pair, min_size=1, max_size=12))
    directed = draw(st.lists(st.booleans(), min_size=len(edges), max_size=len(edges)))
    if sum(not d for d in directed) > 9:
        directed = [True] * 3 + directed[3:]
    s, t = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    return build(n, edges, directed, False), s, t


def _balanced(puzzle: Puzzle, flipped: set[int], s: int, t: int) -> bool:
    bal = [0] * len(puzzle.nodes)
    for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)):
        if e in flipped:
            u, v = v, u
        bal[u] += 1
        bal[v] -= 1
    want = [0] * len(bal)
    want[s] += 1
    want[t] -= 1
    return bal == want


@given(mixed_graphs())
def test_max_flow_finds_a_balancing_orientation_iff_one_exists(
        case: tuple[Puzzle, int, int]) -> None:
    puzzle, s, t = case
    assert puzzle.directed is not None
    two_way = [e for e, d in enumerate(puzzle.directed)
               if not d and puzzle.tail[e] != puzzle.head[e]]
    exists = any(_balanced(puzzle, {e for e, f in zip(two_way, bits, strict=True) if f}, s, t)
                 for bits in itertools.product([False, True], repeat=len(two_way)))
    flipped = _balancing_flips(puzzle, s, t)
    assert (flipped is not None) == exists
    if flipped is not None:
        assert set(flipped.tolist()) <= set(two_way)
        assert _balanced(puzzle, set(flipped.tolist()), s, t)


WALKS_SCRIPT = textwrap.dedent("""
    import json, random, sys
    from trailkit.models.puzzle import Puzzle
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.direct.euler import solve_euler

    def cases():
        rng = random.Random(5)
        for i in range(24):
            n, m = rng.randint(2, 40), rng.randint(1, 300)
            walk = [rng.randrange(n) for _ in range(m)]
            edges = [(walk[j], walk[(j + 1) % m]) for j in range(m)]
            rng.shuffle(edges)
            mode = i % 3
            directed = None if mode == 0 else [mode == 1 or rng.random() < 0.5 for _ in edges]
            yield Puzzle(kind="trail", nodes=tuple(map(str, range(n))),
                         tail=[u for u, _ in edges], head=[v for _, v in edges],
                         directed=directed, closed=True)

    out = []
    for p in cases():
        a = solve_euler(p, Limits())
        out.append([a.status.value, list(a.walk.nodes), list(a.walk.edges)])
    print(json.dumps(out))
""")


@pytest.mark.slow
def test_the_same_walks_with_the_jit_off() -> None:
    compiled, interpreted = jit_on_and_off(WALKS_SCRIPT)
    assert compiled == interpreted
    assert all(status == "solved" for status, _, _ in compiled)


def test_puzzles_holding_arrays_are_solved_the_same() -> None:
    rng = random.Random(3)
    walk = [rng.randrange(50) for _ in range(2_000)]
    edges = [(walk[i], walk[(i + 1) % len(walk)]) for i in range(len(walk))]
    lists = build(50, edges, None, True)
    arrays = Puzzle(kind="trail", nodes=lists.nodes, tail=np.array(lists.tail),
                    head=np.array(lists.head), closed=True)
    assert solve_euler(lists, Limits()).walk == solve_euler(arrays, Limits()).walk
