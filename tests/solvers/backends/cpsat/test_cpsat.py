"""Behaviour of the ``cpsat`` backend, checked against verify, brute force and published counts.

The brute-force oracles (``tests/oracles.py``) share no code with the backend: they
walk tiny graphs step by step and let :func:`verify` decide which walks are solutions
(for reusable edges they count walks by dynamic programming over (start, first colour,
node, last colour) states, a space in which the shortest length is bounded).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest
from budget import costly
from hypothesis import assume, given
from oracles import once_lengths, reusable_shortest, rule_puzzles, solution_oracle

from trailkit.models.answer import Status, Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.cpsat import CpSatBackend, encode, export_model, make_solver
from trailkit.solvers.backends.registry import get_backend

NIKOLAUS = ["ab", "ac", "bc", "bd", "be", "cd", "ce", "de"]
NIKOLAUS_X = ["ab", "ac", "bc", "bd", "bx", "cx", "ce", "xd", "xe", "de"]
RGB = ColourRule.from_cycle(["red", "blue", "green"])


def trail(edges: list, **rules) -> Puzzle:
    return Puzzle.build(kind="trail", edges=[tuple(e) for e in edges], **rules)


def dominoes(n: int) -> Puzzle:
    """The double-n domino set as a closed exactly-once puzzle (pip values are nodes)."""
    pairs = [(str(a), str(b)) for a in range(n + 1) for b in range(a, n + 1)]
    return Puzzle.build(kind="domino-chain", edges=pairs, closed=True)


@pytest.fixture(scope="module")
def cpsat() -> CpSatBackend:
    return CpSatBackend()


SETTINGS = costly(0.3, "each example builds and solves a CP-SAT model")


@SETTINGS
@given(rule_puzzles())
def test_solve_agrees_with_brute_force(puzzle: Puzzle) -> None:
    best, _ = solution_oracle(puzzle)
    answer = CpSatBackend().solve(puzzle)
    if best is None:
        assert answer.status is Status.UNSOLVABLE
        assert answer.certificate is None and answer.reason
        return
    assert answer.status is Status.SOLVED, answer.reason
    assert verify(puzzle, answer.walk) == []
    if puzzle.objective is Objective.SHORTEST:
        assert answer.optimal is True
        assert len(answer.walk) == best
    elif puzzle.wants_longest:  # objective longest (at most once): the longest walk
        assert answer.optimal is True
        assert len(answer.walk) == max(once_lengths(puzzle))
    else:
        assert answer.optimal is None


@costly(0.2, "each example builds and solves a CP-SAT model")
@given(rule_puzzles(max_edges=4))
def test_count_agrees_with_brute_force(puzzle: Puzzle) -> None:
    _, expected = solution_oracle(puzzle)
    result = CpSatBackend().count(puzzle)
    assert result.complete
    assert result.solutions == expected


@costly(0.2, "each example builds and solves a CP-SAT model")
@given(rule_puzzles(use=EdgeUse.ANY, max_edges=7))
def test_reusable_colour_walks_are_shortest(puzzle: Puzzle) -> None:
    best, _ = reusable_shortest(puzzle)
    answer = CpSatBackend().solve(replace(puzzle, objective=Objective.SHORTEST))
    if best is None:
        assert answer.status is Status.UNSOLVABLE
        assert "never repeats a state" in answer.reason
    else:
        assert answer.status is Status.SOLVED and answer.optimal
        assert len(answer.walk) == best


@costly(0.15, "each example builds and solves a CP-SAT model")
@given(rule_puzzles(max_edges=4))
def test_agrees_with_direct_backend(puzzle: Puzzle) -> None:
    limits = Limits(work_limit=10**6)
    direct = get_backend("direct")  # always registered: its absence is a failure
    try:
        theirs = direct.solve(puzzle, limits)
        their_count = direct.count(puzzle, limits)
    except UnsupportedPuzzle:
        assume(False)  # direct counts no reusable walks: nothing to compare
    ours = CpSatBackend().solve(puzzle)
    assume(Status.UNKNOWN not in (ours.status, theirs.status))
    assert ours.status is theirs.status
    if puzzle.objective is Objective.SHORTEST and ours.optimal and theirs.optimal:
        assert len(ours.walk) == len(theirs.walk)
    if their_count.complete:
        assert CpSatBackend().count(puzzle).solutions == their_count.solutions


# --------------------------------------------------------- published counts
def test_nikolaus_counts_88(cpsat: CpSatBackend) -> None:
    assert cpsat.count(trail(NIKOLAUS)).solutions == 88


def test_nikolaus_with_crossing_counts_240(cpsat: CpSatBackend) -> None:
    assert cpsat.count(trail(NIKOLAUS_X)).solutions == 240


def test_count_with_many_workers_still_enumerates_everything(cpsat: CpSatBackend) -> None:
    """Trap: with several workers CP-SAT 9.15 drops solutions yet reports OPTIMAL."""
    assert make_solver(Limits(workers=8), enumerate_all=True).parameters.num_workers == 1
    assert cpsat.count(trail(NIKOLAUS_X), Limits(workers=8)).solutions == 240


def test_closed_count_includes_every_rotation(cpsat: CpSatBackend) -> None:
    """A closed walk is a step sequence with its start: a triangle rings 3 * 2 ways."""
    tri = trail(["ab", "bc", "ca"], closed=True)
    assert cpsat.count(tri).solutions == 6
    assert cpsat.solve(tri).stats["pivot_edge"] == 0  # solve breaks rotations, count not


def test_count_failures_is_unsupported(cpsat: CpSatBackend) -> None:
    with pytest.raises(UnsupportedPuzzle):
        cpsat.count(trail(NIKOLAUS), failures=True)


# ------------------------------------------------------------------ kinds
def test_double_six_ring(cpsat: CpSatBackend) -> None:
    puzzle = dominoes(6)
    answer = cpsat.solve(puzzle, Limits(time_limit=20))
    assert answer.status is Status.SOLVED
    assert verify(puzzle, answer.walk) == []


def test_double_nine_has_no_ring_and_presolve_sees_it(cpsat: CpSatBackend) -> None:
    answer = cpsat.solve(dominoes(9), Limits(time_limit=20))
    assert answer.status is Status.UNSOLVABLE
    assert answer.certificate is None  # INFEASIBLE alone is not a proof
    assert "rests on CP-SAT alone" in answer.reason


def test_toowoomba_style_colour_walk(cpsat: CpSatBackend) -> None:
    edges = [("S", "A", "red"), ("A", "B", "blue"), ("B", "S", "green"), ("B", "C", "green"),
             ("T", "D", "blue"), ("C", "D", "red"), ("C", "T", "red")]
    puzzle = Puzzle.build(kind="colour-walk", edges=edges, colours=RGB, start=["S"],
                          end=["T"], use=EdgeUse.ANY, objective=Objective.SHORTEST)
    answer = cpsat.solve(puzzle)
    assert answer.status is Status.SOLVED and answer.optimal
    assert verify(puzzle, answer.walk) == []
    assert len(answer.walk) == reusable_shortest(puzzle)[0]
    gone = Puzzle.build(kind="colour-walk", edges=edges[:4], nodes=["T"], colours=RGB, start=["S"],
                        end=["T"], use=EdgeUse.ANY, objective=Objective.SHORTEST)
    assert reusable_shortest(gone)[0] is None
    no = cpsat.solve(gone)
    assert no.status is Status.UNSOLVABLE and "never repeats a state" in no.reason


def test_mixed_directed_alternating_trail(cpsat: CpSatBackend) -> None:
    rule = ColourRule.from_cycle(["red", "blue"])
    edges = [("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "red"), ("a", "c", "blue")]
    puzzle = Puzzle.build(kind="walk", edges=edges, directed=[True, False, True, False],
                          colours=rule, closed=True)
    answer = cpsat.solve(puzzle)
    assert (answer.status is Status.SOLVED) == (solution_oracle(puzzle)[0] is not None)
    if answer.walk is not None:
        assert verify(puzzle, answer.walk) == []


def test_self_loops_and_parallel_edges(cpsat: CpSatBackend) -> None:
    puzzle = trail(["aa", "ab", "ab", "bb", "ab"])
    answer = cpsat.solve(puzzle)
    assert answer.status is Status.SOLVED and verify(puzzle, answer.walk) == []
    assert cpsat.count(puzzle).solutions == solution_oracle(puzzle)[1]


# ------------------------------------------------------------------ traps
def test_empty_circuit_is_never_a_solution(cpsat: CpSatBackend) -> None:
    """Trap: a circuit with every node skipped satisfies add_circuit."""
    apart = Puzzle.build(kind="walk", edges=[("a", "b"), ("c", "d")], start=["a"], end=["d"],
                         use=EdgeUse.AT_MOST_ONCE)
    assert cpsat.solve(apart).status is Status.UNSOLVABLE
    loop = Puzzle.build(kind="walk", edges=[("a", "a")], use=EdgeUse.AT_MOST_ONCE, closed=True)
    answer = cpsat.solve(loop)
    assert answer.status is Status.SOLVED and len(answer.walk) == 1


def test_empty_walk_when_the_rules_allow_it(cpsat: CpSatBackend) -> None:
    nothing = Puzzle.build(kind="trail", edges=[], nodes=["a", "b"], start=["b"])
    answer = cpsat.solve(nothing)
    assert answer.status is Status.SOLVED and answer.walk == Walk((1,), ())
    assert cpsat.count(nothing).solutions == 1


@pytest.mark.parametrize("puzzle", [trail([*NIKOLAUS, "ab", "ab", "aa"]),
                                    Puzzle.build(kind="walk", use=EdgeUse.ANY, colours=RGB,
                                                 edges=[("a", "b", "red"), ("a", "b", "red"),
                                                        ("b", "a", "blue"), ("a", "a", "green"),
                                                        ("b", "b", "blue")])])
def test_no_duplicate_arcs(puzzle: Puzzle) -> None:
    """Trap: CP-SAT accepts duplicate circuit arcs without complaint; we never build any."""
    pairs = Counter((arc.tail, arc.head) for arc in encode(puzzle).arcs)
    assert max(pairs.values()) == 1


def test_infeasible_is_reported_without_a_certificate(cpsat: CpSatBackend) -> None:
    answer = cpsat.solve(trail(["ab", "ab", "ab", "cd"]))
    assert answer.status is Status.UNSOLVABLE
    assert answer.certificate is None and "CP-SAT proved the model infeasible" in answer.reason


def test_limit_reached_is_unknown_never_unsolvable(cpsat: CpSatBackend) -> None:
    """K31 has an Euler circuit that takes CP-SAT about a second; 10 ms is not enough."""
    k31 = trail(list(itertools.combinations([f"n{i}" for i in range(31)], 2)), closed=True)
    answer = cpsat.solve(k31, Limits(time_limit=0.01))
    assert answer.status is Status.UNKNOWN
    assert "time limit" in answer.reason


def test_count_on_a_limit_is_a_lower_bound(cpsat: CpSatBackend) -> None:
    k7 = trail(["".join(p) for p in itertools.combinations("abcdefg", 2)])
    result = cpsat.count(k7, Limits(time_limit=0.3))
    assert not result.complete and result.reason


def test_deterministic_for_fixed_seed(cpsat: CpSatBackend) -> None:
    puzzle = dominoes(4)
    walks = {cpsat.solve(puzzle, Limits(seed=7)).walk for _ in range(3)}
    assert len(walks) == 1


def test_export_is_protobuf_text_with_one_circuit() -> None:
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    text = export_model(trail(NIKOLAUS))
    proto = text_format.Parse(text, cp_model_pb2.CpModelProto())
    kinds = Counter(c.WhichOneof("constraint") for c in proto.constraints)
    assert kinds["circuit"] == 1
