"""Counting: published numbers, exact counts, and brute-force oracles on random graphs.

The brute force (``tests/oracles.py``) enumerates every walk of the search tree one by one (no
memoisation, no shared code with the counter) and asks the independent checker
:func:`trailkit.models.checking.verify.verify` whether each walk is a solution.
"""

from __future__ import annotations

import time

import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_tallies, colours_ok, count_puzzles, prefix_ok, steps_from

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct import DirectBackend
from trailkit.solvers.backends.direct.enumeration import count_walks
from trailkit.solvers.backends.direct.exact_count import count_euler_circuits, exact_count
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.policy import second_limits

HOUSE = "ab ac bc bd be cd ce de"
HOUSE_X = "ab ac bc bd bx cx ce xd xe de"


def house(edges: str, nodes: str) -> Puzzle:
    return Puzzle.build(kind="trail", nodes=list(nodes),
                        edges=[tuple(e) for e in edges.split()])


def complete_graph(n: int, *, loops: bool = False) -> Puzzle:
    edges = [(str(a), str(b)) for a in range(n) for b in range(a if loops else a + 1, n)]
    return Puzzle.build(kind="domino-chain" if loops else "trail", edges=edges, closed=True)


# ------------------------------------------------------------ published numbers
@pytest.mark.parametrize(("edges", "nodes", "expected"), [
    (HOUSE, "abcde", (88, 266, 23)),
    (HOUSE_X, "abcxde", (240, 1008, 78)),
])
def test_nikolaus_seed_numbers(edges: str, nodes: str, expected: tuple[int, int, int]) -> None:
    t0 = time.perf_counter()
    result = DirectBackend().count(house(edges, nodes), failures=True)
    assert time.perf_counter() - t0 < 1.0
    assert (result.solutions, result.failures, result.early_failures) == expected
    assert result.complete
    per = result.per_start
    assert per is not None
    assert sum(c.solutions for c in per.values()) == expected[0]
    assert sum(c.failures or 0 for c in per.values()) == expected[1]
    assert sum(c.early_failures or 0 for c in per.values()) == expected[2]


def test_nikolaus_solutions_start_at_the_odd_nodes() -> None:
    per = count_walks(house(HOUSE, "abcde")).per_start
    assert per is not None
    assert {name: c.solutions for name, c in per.items()} == {
        "a": 0, "b": 0, "c": 0, "d": 44, "e": 44}


def test_exact_counts_of_complete_graphs() -> None:
    # Cyclic sequences with a direction: a rotation is the same circuit, a reversal another.
    assert count_euler_circuits(complete_graph(5)) == 264
    assert count_euler_circuits(complete_graph(7)) == 129_976_320


def test_double_six_ring_count() -> None:
    """Convention: a ring is laid from a chosen first domino in a chosen direction
    (rotations and reflections distinct), a double has one orientation. That is K7's
    circuits times 3^7 (each double at one of its pip's 3 visits) times 28 (the
    first domino), and equals the count_walks convention for the closed puzzle."""
    dominoes = complete_graph(7, loops=True)
    assert dominoes.num_edges == 28
    circuits = count_euler_circuits(dominoes)
    assert circuits == 129_976_320 * 3**7
    result = exact_count(dominoes)
    assert result is not None
    assert result.solutions == circuits * 28 == 7_959_229_931_520


def test_exact_count_agrees_with_nikolaus_enumeration() -> None:
    for edges, nodes in ((HOUSE, "abcde"), (HOUSE_X, "abcxde")):
        puzzle = house(edges, nodes)
        exact = exact_count(puzzle)
        assert exact is not None
        assert exact.solutions == count_walks(puzzle).solutions


# ---------------------------------------------------------------- limits & errors
def test_work_limit_gives_lower_bounds() -> None:
    result = count_walks(house(HOUSE_X, "abcxde"), Limits(work_limit=300), failures=True)
    assert not result.complete
    assert "lower bound" in result.reason
    assert result.solutions <= 240
    assert result.failures is not None and result.failures <= 1008
    assert result.early_failures is not None and result.early_failures <= 78


def test_time_limit_gives_lower_bounds() -> None:
    k7 = complete_graph(7)
    result = count_walks(k7, Limits(time_limit=0.3), failures=True)
    assert not result.complete
    assert 0 <= result.solutions <= 129_976_320 * 21


def test_progress_is_reported() -> None:
    seen: list[int] = []
    result = count_walks(complete_graph(7), Limits(work_limit=250_000), progress=seen.append)
    # solutions counted so far, twice (every 100,000 states), never more than the bound
    assert len(seen) == 2 and 0 < seen[0] <= seen[1] <= result.solutions


def test_reusable_failures_are_unsupported() -> None:
    puzzle = Puzzle.build(edges=[("a", "b")], use=EdgeUse.ANY, start=["a"], end=["b"])
    with pytest.raises(UnsupportedPuzzle, match="reused"):
        count_walks(puzzle, failures=True)


NAMES = "abcd"
RULE = ColourRule.from_cycle(["r", "g", "b"])


@costly(0.75, "each example counts walks by enumeration and by brute force")
@given(count_puzzles())
def test_counts_match_brute_force(puzzle: Puzzle) -> None:
    expected = brute_tallies(puzzle)
    result = count_walks(puzzle, failures=True)
    assert result.complete and result.per_start is not None
    got = {puzzle.node_index(name): c for name, c in result.per_start.items()}
    assert {s: (c.solutions, c.failures, c.early_failures) for s, c in got.items()} == {
        s: (t.solutions, t.failures, t.early) for s, t in expected.items()}
    assert result.solutions == sum(t.solutions for t in expected.values())


@costly(0.3, "each example counts walks by enumeration and by brute force")
@given(count_puzzles(use=EdgeUse.AT_MOST_ONCE))
def test_shortest_at_most_once_counts_the_feweststeps_from(puzzle: Puzzle) -> None:
    shortest = Puzzle(**{**_fields(puzzle), "objective": Objective.SHORTEST})
    lengths = _solution_lengths(shortest)
    best = min(lengths, default=None)
    assert count_walks(shortest).solutions == (lengths.count(best) if lengths else 0)


def _fields(puzzle: Puzzle) -> dict[str, object]:
    return {f: getattr(puzzle, f) for f in puzzle.__dataclass_fields__}


def _solution_lengths(puzzle: Puzzle) -> list[int]:
    """The length of every solution of an at-most-once puzzle, by plain enumeration."""
    found: list[int] = []

    def walk(nodes: list[int], edges: list[int]) -> None:
        if not verify(puzzle, Walk(tuple(nodes), tuple(edges))):
            found.append(len(edges))
        for e, w in steps_from(puzzle, nodes[-1]):
            if prefix_ok(puzzle, [*edges, e]):
                walk([*nodes, w], [*edges, e])

    starts = sorted(puzzle.start) if puzzle.start is not None else range(puzzle.num_nodes)
    for s in starts:
        walk([s], [])
    return found


@costly(0.4, "each example counts walks by enumeration and by brute force")
@given(count_puzzles(use=EdgeUse.ANY))
def test_reusable_counts_shortest_walks(puzzle: Puzzle) -> None:
    """Brute force: walks of 0, 1, 2, ... steps until some are solutions (or give up)."""
    layer: list[tuple[list[int], list[int]]] = [
        ([s], []) for s in (sorted(puzzle.start) if puzzle.start is not None
                            else range(puzzle.num_nodes))]
    expected = 0
    for _ in range(6):
        expected = sum(not verify(puzzle, Walk(tuple(n), tuple(e))) for n, e in layer)
        if expected:
            break
        layer = [([*n, w], [*e, x]) for n, e in layer for x, w in steps_from(puzzle, n[-1])
                 if colours_ok(puzzle, [*e, x])]
    result = count_walks(puzzle)
    if expected:
        assert result.solutions == expected
    else:  # none within 5 steps: the count must not claim a shorter walk
        length = result.stats["shortest_length"]
        assert length is None or length > 5


# ------------------------------------------------ exact count versus enumeration
@st.composite
def eulerian_multigraphs(draw: st.DrawFn) -> Puzzle:
    """A random trail or circuit through up to 4 nodes (loops and parallel edges
    included), its edges one-way along the trail at random: the graph has an Euler
    trail by construction, though start/end rules may still forbid it."""
    n = draw(st.integers(1, 4))
    length = draw(st.integers(1, 8))
    seq = draw(st.lists(st.sampled_from(NAMES[:n]), min_size=length + 1,
                        max_size=length + 1))
    closed = draw(st.booleans())
    if closed:
        seq[-1] = seq[0]
    kind = draw(st.sampled_from(["undirected", "directed", "mixed"]))
    directed = [kind == "directed" or (kind == "mixed" and draw(st.booleans()))
                for _ in range(length)]
    edges = [(seq[i], seq[i + 1]) if draw(st.booleans()) or directed[i]
             else (seq[i + 1], seq[i]) for i in range(length)]
    subset = st.one_of(st.none(), st.lists(st.sampled_from(NAMES[:n]), min_size=1))
    return Puzzle.build(nodes=NAMES[:n], edges=edges, directed=directed,
                        closed=closed and draw(st.booleans()),
                        start=draw(subset), end=draw(subset))


@costly(0.75, "each example counts walks by enumeration and by brute force")
@given(eulerian_multigraphs())
def test_exact_count_matches_enumeration(puzzle: Puzzle) -> None:
    exact = exact_count(puzzle)
    assert exact is not None
    enumerated = count_walks(puzzle)
    assert exact.solutions == enumerated.solutions
    assert exact.per_start is not None and enumerated.per_start is not None
    assert {k: v.solutions for k, v in exact.per_start.items()} == {
        k: v.solutions for k, v in enumerated.per_start.items()}


@costly(0.3, "each example counts walks by enumeration and by brute force")
@given(eulerian_multigraphs())
def test_circuits_times_edges_is_closed_sequences(puzzle: Puzzle) -> None:
    closed = Puzzle(**{**_fields(puzzle), "closed": True, "start": None, "end": None})
    assert count_euler_circuits(closed) * closed.num_edges == count_walks(closed).solutions


def test_exact_count_declines_colour_rules() -> None:
    puzzle = Puzzle.build(edges=[("a", "b", "r")], colours=RULE)
    assert exact_count(puzzle) is None


def test_the_direct_backend_counts_by_its_formula_where_it_applies() -> None:
    """``count --backend direct`` with ``--method auto`` is the formula (the direct
    backend's own method), named as backend ``direct``, method exact; on the double-six
    set enumeration would take longer than the universe's age."""
    from pathlib import Path

    from trailkit.models.spec import load_spec
    from trailkit.solvers.pipeline import count

    p = load_spec(Path(__file__).resolve().parents[3] / "specs/dominoes/double-six.yaml")
    for backend in (None, "direct", DirectBackend()):
        result = count(p, backend)
        assert (result.backend, result.by_formula, result.solutions) == \
            ("direct", True, 7_959_229_931_520)
    assert not count(p, "direct", method="enumerate",
                     limits=Limits(work_limit=1000)).by_formula


# ------------------------------------------------------------------ limits
def test_the_time_limit_bounds_the_count_and_its_cross_check() -> None:
    """``--time-limit`` bounds the whole command: the second opinion got the whole limit
    again after the first count had spent it (K11 with sat and --time-limit 3: 8 s)."""
    k11 = complete_graph(11)
    result = count(k11, "sat", Limits(time_limit=1.0), method="enumerate")
    assert not result.complete  # at least the solutions found in time
    assert "crosscheck" not in result.stats  # no time was left for it


def test_a_second_opinion_gets_what_is_left_of_the_time() -> None:
    started = time.perf_counter() - 2.5
    assert second_limits(Limits(time_limit=10.0), started).time_limit == pytest.approx(
        7.5, abs=0.5)
    assert second_limits(Limits(time_limit=1.0), started).time_limit == 0
    assert second_limits(Limits(memory_mb=300), started).memory_mb == 300
    assert second_limits(Limits(), started).time_limit is None
