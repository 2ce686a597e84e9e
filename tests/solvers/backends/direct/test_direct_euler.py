"""The direct backend on exactly-once puzzles: Euler trails and circuits, and certificates.

Every solved walk is checked with the independent ``verify``; every certificate with
the independent ``check_certificate``; solvability against a brute-force search
written here (it tries every order of the edges and every direction of the two-way
ones, sharing nothing with the solver).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from oracles import brute_trail_exists, euler_puzzles

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.euler import NO_ORIENTATION, solve_euler
from trailkit.solvers.backends.direct.structural import components, structural_certificate
from trailkit.solvers.backends.registry import get_backend


# ------------------------------------------------------------------ helpers
def solve(puzzle: Puzzle) -> Answer:
    return solve_euler(puzzle, Limits())


def assert_solved(puzzle: Puzzle) -> Answer:
    answer = solve(puzzle)
    assert answer.status is Status.SOLVED, answer.reason
    assert answer.walk is not None
    assert verify(puzzle, answer.walk) == []
    return answer


def assert_unsolvable(puzzle: Puzzle, kind: str | None) -> Answer:
    answer = solve(puzzle)
    assert answer.status is Status.UNSOLVABLE
    assert answer.reason
    if kind is None:
        assert answer.certificate is None
    else:
        assert answer.certificate is not None
        assert answer.certificate.kind == kind
        assert check_certificate(puzzle, answer.certificate) == []
        assert answer.certificate.explanation
    return answer


def make(edges: Sequence[tuple[int, int]], n: int | None = None, *,
         directed: Sequence[bool] | None = None, **rules: object) -> Puzzle:
    """A puzzle over nodes ``v0..v{n-1}`` with edges by node index."""
    n = n if n is not None else 1 + max((max(e) for e in edges), default=-1)
    return Puzzle(kind="walk", nodes=tuple(f"v{i}" for i in range(n)),
                  tail=[u for u, _ in edges], head=[v for _, v in edges],
                  directed=None if directed is None else list(directed), **rules)


# --------------------------------------------------------------- examples
KOENIGSBERG = [("A", "B"), ("A", "B"), ("A", "C"), ("A", "C"), ("A", "D"), ("B", "D"),
               ("C", "D")]
NIKOLAUS = ["1 2", "1 3", "2 3", "2 4", "2 5", "3 4", "3 5", "4 5"]


def test_koenigsberg_is_unsolvable_by_parity() -> None:
    puzzle = Puzzle.build(kind="trail", edges=KOENIGSBERG)
    answer = assert_unsolvable(puzzle, "parity")
    assert answer.certificate is not None
    assert sorted(answer.certificate.data["nodes"]) == ["A", "B", "C", "D"]


def test_double_six_dominoes_form_a_ring() -> None:
    dominoes = [(i, j) for i in range(7) for j in range(i, 7)]
    assert len(dominoes) == 28
    puzzle = Puzzle.build(kind="domino-chain", edges=dominoes, closed=True)
    answer = assert_solved(puzzle)
    assert len(answer.walk or ()) == 28


def test_double_five_dominoes_have_no_ring() -> None:
    dominoes = [(i, j) for i in range(6) for j in range(i, 6)]
    puzzle = Puzzle.build(kind="domino-chain", edges=dominoes, closed=True)
    assert_unsolvable(puzzle, "parity")


def test_nikolaus_trail_starts_at_an_odd_node() -> None:
    edges = [tuple(e.split()) for e in NIKOLAUS]
    answer = assert_solved(Puzzle.build(kind="trail", edges=edges))
    odd = {3, 4}  # nodes "4" and "5" touch three edges each
    assert answer.walk is not None
    assert {answer.walk.nodes[0], answer.walk.nodes[-1]} == odd
    assert_solved(Puzzle.build(kind="trail", edges=edges, start=["5"], end=["4"]))
    assert_unsolvable(Puzzle.build(kind="trail", edges=edges, start=["1"]), "endpoints")
    assert_unsolvable(Puzzle.build(kind="trail", edges=edges, closed=True), "parity")


def test_closed_circuit_respects_allowed_start() -> None:
    puzzle = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a"),
                                               ("c", "d"), ("d", "e"), ("e", "c")],
                          closed=True, start=["d"], end=["d", "a"])
    answer = assert_solved(puzzle)
    assert answer.walk is not None and puzzle.nodes[answer.walk.nodes[0]] == "d"
    blocked = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "a")], nodes=["z"],
                           closed=True, start=["a", "z"], end=["b", "z"])
    assert_unsolvable(blocked, "endpoints")


def test_self_loops_and_parallel_edges() -> None:
    edges = [("a", "a"), ("a", "b"), ("a", "b"), ("b", "b"), ("b", "b"), ("b", "c"),
             ("c", "c")]
    answer = assert_solved(Puzzle.build(kind="trail", edges=edges))
    # b and c touch an odd number of edge ends (a loop counts twice): they are the ends
    assert answer.walk is not None and {answer.walk.nodes[0], answer.walk.nodes[-1]} == {1, 2}
    assert_solved(Puzzle.build(kind="trail", edges=[("x", "x")], closed=True))
    assert_solved(Puzzle.build(kind="trail", edges=[("x", "x")] * 3, closed=True))


def test_disconnected_pieces_get_a_disconnected_certificate() -> None:
    puzzle = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "a"), ("c", "c")])
    answer = assert_unsolvable(puzzle, "disconnected")
    assert answer.certificate is not None
    assert answer.certificate.data["component"] == ["c"]
    named = Puzzle(kind="walk", nodes=("a", "b", "c", "d"), tail=[0, 2], head=[1, 3],
                   edge_ids=["left", "right"])
    assert_unsolvable(named, "disconnected")


@pytest.mark.parametrize("order", ["along", "shuffled", "two pieces"])
def test_the_pieces_of_a_long_path_take_linear_work(order: str) -> None:
    """The pre-check's union-find linked without sizes and then followed every node's
    chain to its root anew: a path of 10^6 nodes took minutes. Counted in the lines it
    runs (a measure of work that a loaded machine does not change), not in seconds."""
    n = 2000
    names = list(range(n + 1))
    if order == "shuffled":
        random.Random(5).shuffle(names)
    tail, head = names[:-1], names[1:]
    if order == "two pieces":
        del tail[n // 2], head[n // 2]
    lines = 0

    def count_lines(frame: FrameType, event: str, _: object) -> Any:
        nonlocal lines
        if frame.f_code is not components.__code__:
            return None
        lines += event == "line"
        return count_lines

    sys.settrace(count_lines)
    try:
        root = components(n + 1, tail, head)
    finally:
        sys.settrace(None)
    assert len(set(root)) == (2 if order == "two pieces" else 1)
    assert all(root[u] == root[v] for u, v in zip(tail, head, strict=True))
    assert lines < 40 * n, lines  # quadratic work ran some n * n / 2 lines


def test_directed_circuits_trails_and_imbalance() -> None:
    cycle = make([(0, 1), (1, 2), (2, 0), (0, 0), (2, 0), (0, 2)], directed=[True] * 6,
                 closed=True)
    assert_solved(cycle)
    path = make([(0, 1), (1, 2), (2, 0), (0, 1)], directed=[True] * 4)
    answer = assert_solved(path)
    assert answer.walk is not None and answer.walk.nodes[0] == 0
    assert_unsolvable(make([(0, 1), (1, 2), (2, 0), (0, 1)], directed=[True] * 4,
                           start=frozenset({1})), "endpoints")
    assert_unsolvable(make([(0, 1), (0, 2), (0, 3)], directed=[True] * 3), "parity")
    assert_unsolvable(make([(0, 1), (0, 1)], directed=[True] * 2), "imbalance")
    assert_unsolvable(make([(0, 1), (1, 2), (2, 0), (0, 1)], directed=[True] * 4,
                           closed=True), "parity")


@pytest.mark.slow
def test_mixed_graph_orients_two_way_edges() -> None:
    # one-way a->b, b->c; two-way c-a, a-d twice: only c->a balances b and c
    edges = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 0)]
    puzzle = make(edges, directed=[True, True, False, False, False], closed=True)
    answer = assert_solved(puzzle)
    assert answer.stats["method"].startswith("max-flow")
    # open: odd nodes 0 and 3; with start 3 the trail must go 3 -> ... -> 0
    open_ = make([(0, 1), (1, 2), (2, 0), (0, 3)], directed=[True, True, False, False],
                 start=frozenset({3}))
    assert_solved(open_)


def test_mixed_graph_without_balancing_orientation() -> None:
    # every node has even degree, but v0 has two one-way edges out and no way in
    puzzle = make([(0, 1), (0, 2), (1, 2)], directed=[True, True, False], closed=True)
    answer = assert_unsolvable(puzzle, None)
    assert answer.reason == NO_ORIENTATION
    assert not brute_trail_exists(puzzle)


def test_edgeless_puzzles() -> None:
    assert assert_solved(make([], 0)).walk == Walk.nowhere()  # contract v1.1: the empty ring
    answer = assert_solved(make([], 3, start=frozenset({1, 2}), end=frozenset({2})))
    assert answer.walk is not None and answer.walk.nodes == (2,)
    assert_solved(make([], 1, closed=True))
    assert_unsolvable(make([], 2, start=frozenset({0}), end=frozenset({1})), "endpoints")


def test_shortest_objective_is_optimal_by_construction() -> None:
    puzzle = make([(0, 1), (1, 2), (2, 0)], objective=Objective.SHORTEST, closed=True)
    assert assert_solved(puzzle).optimal is True


def test_dispatch_through_the_direct_backend() -> None:
    puzzle = Puzzle.build(kind="trail", edges=[tuple(e.split()) for e in NIKOLAUS])
    answer = get_backend("direct").solve(puzzle, Limits())
    assert answer.backend == "direct" and answer.status is Status.SOLVED


@pytest.mark.parametrize("kind", ["undirected", "directed", "mixed"])
def test_large_random_eulerian_graph(kind: str) -> None:
    rng = random.Random(7)
    n, m = 300, 20_000
    walk = [rng.randrange(n) for _ in range(m)]
    edges = [(walk[i], walk[(i + 1) % m]) for i in range(m)]  # one closed walk: Eulerian
    rng.shuffle(edges)
    directed = None
    if kind == "directed":
        directed = [True] * m
    elif kind == "mixed":
        directed = [rng.random() < 0.5 for _ in range(m)]
    assert_solved(make(edges, n, directed=directed, closed=True))


# ------------------------------------------------------ property: brute force
@given(euler_puzzles())
def test_matches_brute_force_and_certificates_check(puzzle: Puzzle) -> None:
    answer = solve(puzzle)
    expected = brute_trail_exists(puzzle)
    assert answer.status is (Status.SOLVED if expected else Status.UNSOLVABLE), answer.reason
    if answer.status is Status.SOLVED:
        assert answer.walk is not None and verify(puzzle, answer.walk) == []
        assert structural_certificate(puzzle) is None
        return
    assert answer.reason
    if answer.certificate is not None:
        assert check_certificate(puzzle, answer.certificate) == []
    elif puzzle.tail:  # only the max-flow argument may come without a certificate
        assert puzzle.any_directed and not puzzle.all_directed
        assert answer.reason == NO_ORIENTATION
    cert = structural_certificate(puzzle)
    if cert is not None:
        assert check_certificate(puzzle, cert) == []
