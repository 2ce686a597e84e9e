"""The compiled exact count against the original enumeration (its oracle) and brute force.

:func:`count_euler_circuits` sums the BEST theorem over Eulerian orientations with a
compiled search that builds its determinants along the way (see
:mod:`trailkit.solvers.backends.direct.exact_count`); ``method="reference"`` is the original
enumeration with Python-integer determinants. Both must agree on every graph, and
with the memoised enumeration of walks where that is small enough; the same holds
with Numba's JIT switched off (a subprocess, so this process keeps its compiled code).
"""

from __future__ import annotations

import math
import textwrap
import time
import types
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from oracles import jit_on_and_off

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.direct import exact_count as exact_count_module
from trailkit.solvers.backends.direct.enumeration import count_walks
from trailkit.solvers.backends.direct.exact_count import count_euler_circuits, exact_count
from trailkit.solvers.backends.direct.series import Reduced

pytestmark = pytest.mark.usefixtures("compiled_kernels")

NAMES = [str(i) for i in range(7)]


@st.composite
def closed_multigraphs(draw: st.DrawFn, max_nodes: int = 6, max_edges: int = 13) -> Puzzle:
    """A random closed walk (so an Eulerian multigraph, loops and two-way pairs
    included) with each step one-way or two-way at random, plus, sometimes, a few
    random extra edges that may break the balance (the count is then 0)."""
    n = draw(st.integers(1, max_nodes))
    length = draw(st.integers(1, max_edges))
    seq = draw(st.lists(st.sampled_from(NAMES[:n]), min_size=length, max_size=length))
    seq.append(seq[0])
    edges = list(pairwise(seq))
    extra = draw(st.lists(st.tuples(st.sampled_from(NAMES[:n]), st.sampled_from(NAMES[:n])),
                          max_size=2 if draw(st.booleans()) else 0))
    edges += extra
    mode = draw(st.sampled_from(["undirected", "directed", "mixed"]))
    directed = [mode == "directed" or (mode == "mixed" and draw(st.booleans()))
                for _ in edges]
    return Puzzle.build(nodes=NAMES[:n], edges=edges, directed=directed, closed=True)


@given(closed_multigraphs())
def test_compiled_sum_equals_the_reference(puzzle: Puzzle) -> None:
    assert (count_euler_circuits(puzzle, "compiled")
            == count_euler_circuits(puzzle, "reference"))


@costly(0.4, "each example enumerates every walk to compare with the formula")
@given(closed_multigraphs(max_nodes=5, max_edges=9))
def test_compiled_count_equals_enumeration(puzzle: Puzzle) -> None:
    circuits = count_euler_circuits(puzzle, "compiled")
    assert circuits * puzzle.num_edges == count_walks(puzzle).solutions


@pytest.mark.parametrize(("n", "loops", "circuits"), [
    (3, False, 2), (5, False, 264), (7, False, 129_976_320),
    (5, True, 264 * 2**5), (7, True, 129_976_320 * 3**7),
])
def test_complete_graphs_both_ways(n: int, loops: bool, circuits: int) -> None:
    edges = [(str(a), str(b)) for a in range(n) for b in range(a if loops else a + 1, n)]
    puzzle = Puzzle.build(edges=edges, closed=True)
    assert count_euler_circuits(puzzle, "compiled") == circuits
    assert count_euler_circuits(puzzle, "reference") == circuits


def test_parallel_edges_are_weighted_by_binomials() -> None:
    # 12 parallel two-way edges a-b: the search takes each split x of them at once,
    # weighted C(12, x); the reference enumerates the edges one by one
    thick = Puzzle.build(edges=[("a", "b")] * 12 + [("b", "c"), ("c", "a")] * 2, closed=True)
    assert (count_euler_circuits(thick, "compiled")
            == count_euler_circuits(thick, "reference") > 0)


def test_beyond_the_int64_bound_the_reference_is_used() -> None:
    """A one-way ring of 100 nodes with every arc doubled (no node of degree 2, which the
    series reduction would remove): each node but the root picks one of its two arcs,
    2^99 arborescences, so 2^99 circuits."""
    ring = [(str(i), str((i + 1) % 100)) for i in range(100)]
    one_way = Puzzle.build(edges=ring * 2, directed=[True] * 200, closed=True)
    assert count_euler_circuits(one_way) == 2**99  # auto: the Hadamard bound says no
    with pytest.raises(ValueError, match="overflow"):
        count_euler_circuits(one_way, "compiled")
    assert count_euler_circuits(Puzzle.build(edges=ring, closed=True)) == 2


def test_a_bound_past_what_floats_hold_is_no_crash() -> None:
    """A ring of 100 nodes, 40 one-way arcs between neighbours: its Hadamard bound,
    (40 * sqrt 2) ** 200, is past a float's range (an OverflowError once, from `count`
    on specs/bench/hard-trail-400-yes.yaml). BEST: 40 ** 99 arborescences times 39! per
    node."""
    ring = [(str(i), str((i + 1) % 100)) for i in range(100) for _ in range(40)]
    many = Puzzle.build(edges=ring, directed=[True] * len(ring), closed=True)
    assert count_euler_circuits(many) == 40 ** 99 * math.factorial(39) ** 100


def test_open_trails_count_through_the_compiled_path() -> None:
    k5_minus = Puzzle.build(edges=[(str(a), str(b)) for a in range(5) for b in range(a + 1, 5)
                                   if (a, b) != (0, 1)])
    exact = exact_count(k5_minus)
    assert exact is not None
    assert exact.solutions == count_walks(k5_minus).solutions > 0


@pytest.mark.slow
def test_the_same_counts_with_the_jit_off() -> None:
    script = textwrap.dedent("""
        from trailkit.models.puzzle import Puzzle
        from trailkit.solvers.backends.direct.exact_count import count_euler_circuits
        k5 = Puzzle.build(edges=[(a, b) for a in "01234" for b in "01234" if a < b],
                          closed=True)
        mixed = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("a", "b"),
                                    ("b", "a"), ("c", "c"), ("a", "c"), ("c", "a")],
                             directed=[False, True, False, False, True, False, False, True],
                             closed=True)
        print([[count_euler_circuits(p, "compiled"), count_euler_circuits(p, "reference")]
               for p in (k5, mixed)])
    """)
    compiled, interpreted = jit_on_and_off(script)
    assert compiled == interpreted
    (k5_new, k5_old), (mixed_new, mixed_old) = interpreted
    assert k5_new == k5_old == 264
    assert mixed_new == mixed_old


# ------------------------------------------------------------------ limits
@pytest.mark.parametrize("loops", [False, True], ids=["K11", "double-ten"])
def test_a_time_limit_stops_the_sum_with_a_lower_bound(loops: bool) -> None:
    """K11 has about 4.8e10 Eulerian orientations (hours): the sum ran to its end in one
    compiled call, whatever the time limit. Stopped, it says what it had summed."""
    n = 11
    edges = [(str(a), str(b)) for a in range(n) for b in range(a if loops else a + 1, n)]
    result = exact_count(Puzzle.build(edges=edges, closed=True), time_limit=1.0)
    assert result is not None and not result.complete and result.by_formula
    assert "time limit reached after summing" in result.reason
    assert "at least" in result.reason
    # a lower bound: what the orientations summed so far give
    assert (result.solutions > 0) == (result.stats["orientations"] > 0)
    assert not result.stats["interrupted"]


def test_a_stopped_count_says_at_least_of_every_start_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Stopped by its time limit, the count's table by start node holds lower bounds as
    well: the table says so, not only the total."""
    from trailkit.solvers.frontends.cli import main

    nodes = [chr(ord("a") + i) for i in range(11)]
    edges = ", ".join(f"{a} {b}" for i, a in enumerate(nodes) for b in nodes[i + 1:])
    spec = tmp_path / "k11.yaml"
    spec.write_text(f"trailkit: 1\nkind: trail\nnodes: [{', '.join(nodes)}]\n"
                    f"edges: [{edges}]\n")
    assert main(["count", str(spec), "--time-limit", "3"]) == 3  # loading its kernels counts
    text = capsys.readouterr().out
    assert "solutions:      at least" in text
    assert "by start node (each at least):" in text


def test_no_time_left_no_series_reduction(monkeypatch: pytest.MonkeyPatch) -> None:
    """``count --time-limit 2`` of a 10^6-edge path spent 2.7 s shrinking its chain
    after the limit had passed (reading took longer than the limit): the reduction's
    first look at the clock came after it had made its lists. With no time left the
    count stops before it, a lower bound of 0 for every start."""
    def never(*_: object, **__: object) -> Reduced:
        raise AssertionError("reduced with no time left")

    monkeypatch.setattr(exact_count_module, "reduce_series", never)
    path = Puzzle.build(edges=[(str(i), str(i + 1)) for i in range(50)])
    stopped = exact_count(path, time_limit=0.0)
    assert stopped is not None and not stopped.complete
    assert stopped.solutions == 0 and "time limit reached" in stopped.reason
    assert {row.solutions for row in stopped.per_start.values()} == {0}
    assert len(stopped.per_start) == path.num_nodes


@pytest.mark.parametrize("path", ["compiled", "reference"])
def test_a_stopped_sum_is_below_the_whole(monkeypatch: pytest.MonkeyPatch,
                                          path: str) -> None:
    """Every term counts circuits: what a sum had reached when it stopped is a lower
    bound, on both paths (the reference one beyond the int64 bound)."""
    k7 = Puzzle.build(edges=[(str(a), str(b)) for a in range(7) for b in range(a + 1, 7)],
                      closed=True)
    whole = exact_count(k7)
    assert whole is not None and whole.complete
    if path == "reference":
        monkeypatch.setattr(exact_count_module, "_INT64_SAFE", 0)  # nothing is int64-safe
    clock = iter(range(10**6))  # a clock a second further on at every look
    monkeypatch.setattr(exact_count_module, "time", types.SimpleNamespace(
        monotonic=lambda: float(next(clock)), perf_counter=time.perf_counter))
    stopped = exact_count(k7, time_limit=1.5)
    assert stopped is not None and not stopped.complete
    assert 0 <= stopped.solutions < whole.solutions


def _unreduced(n: int, arcs: Sequence[tuple[int, int]], links: Sequence[tuple[int, int]],
               loops: Sequence[int], tick: object = None) -> Reduced:
    return Reduced(n, tuple(arcs), tuple(links), tuple(loops), 1)


@given(closed_multigraphs(max_nodes=6, max_edges=12))
def test_the_series_reduction_keeps_the_count(puzzle: Puzzle) -> None:
    """Chains of degree-2 nodes shrunk to single edges (a u-v-u pair to a self-loop,
    weighted 2 when walked either way round): the same circuits as the reference sum
    over the whole graph."""
    reduced = count_euler_circuits(puzzle, "reference")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(exact_count_module, "reduce_series", _unreduced)
        assert count_euler_circuits(puzzle, "reference") == reduced


def _path(edges: int, **rules: object) -> Puzzle:
    return Puzzle.build(edges=[(f"n{i}", f"n{i + 1}") for i in range(edges)], **rules)


@pytest.mark.parametrize("edges", [1_000, 100_000])
def test_a_path_is_counted_at_once(edges: int) -> None:
    """A path has one trail each way. 1,000 edges hit a RecursionError (exit 4), 100,000
    asked for a 75 GB matrix (MemoryError, whatever --memory-limit said), 20,000 took
    3.3 GB and its whole time limit: the series reduction leaves one node, no search."""
    result = exact_count(_path(edges), memory_mb=4096)
    assert result is not None and result.complete
    assert result.solutions == 2
    assert {name for name, row in (result.per_start or {}).items() if row.solutions} == {
        "n0", f"n{edges}"}
    one_way = exact_count(_path(edges, directed=[True] * edges), memory_mb=4096)
    assert one_way is not None and one_way.solutions == 1
    ring = exact_count(_path(edges, closed=True), memory_mb=4096)
    assert ring is not None and ring.complete and ring.solutions == 0  # two odd ends


def test_matrices_past_the_memory_limit_are_not_built() -> None:
    """The memory a sum's matrices need is estimated before any is built: past the limit
    the count is unknown, saying how much it would need and what to do."""
    n = 3_000  # each node joined to the next two: degree 4, nothing to reduce
    edges = [(str(i), str((i + d) % n)) for i in range(n) for d in (1, 2)]
    result = exact_count(Puzzle.build(edges=edges, closed=True), memory_mb=100)
    assert result is not None and not result.complete
    assert "would need about 504 MB" in result.reason
    assert "memory limit of 100 MB" in result.reason and "--memory-limit" in result.reason
