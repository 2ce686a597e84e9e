"""Behaviour of the ``cpsat`` backend, checked against verify, brute force and published counts.

The brute-force oracle below shares no code with the backend: it walks tiny graphs
step by step and lets :func:`verify` decide which walks are solutions (for reusable
edges it counts walks by dynamic programming over (start, first colour, node, last
colour) states, a space in which the shortest length is bounded).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles import steps_from

from trailkit.models.answer import Status, Walk
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.verify import verify
from trailkit.solvers.base import Limits
from trailkit.solvers.cpsat import CpSatBackend, encode, export_model, make_solver
from trailkit.solvers.registry import get_backend

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


# --------------------------------------------------------------- the oracle
def brute_once(puzzle: Puzzle) -> Counter[int]:
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


def brute_reusable(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest length or None, number of shortest walks) for a reusable-edge puzzle."""
    rule, colour = puzzle.colours, puzzle.colour

    def col(e: int) -> int:
        return -1 if colour is None else colour[e]

    def ok_end(state: tuple[int, int, int, int], k: int) -> bool:
        start, first, at, last = state
        if puzzle.end is not None and at not in puzzle.end:
            return False
        if puzzle.closed:
            return k >= 1 and at == start and (rule is None or first in rule.successors[last])
        return True

    layer: Counter[tuple[int, int, int, int]] = Counter(
        {(u, -9, u, -9): 1 for u in range(puzzle.num_nodes)
         if puzzle.start is None or u in puzzle.start})
    bound = (puzzle.num_nodes * (len(puzzle.colour_names) + 1)) ** 2 + 2
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


def oracle(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest valid length or None, number of solutions the backend should count)."""
    if puzzle.use is EdgeUse.ANY:
        return brute_reusable(puzzle)
    lengths = brute_once(puzzle)
    if not lengths:
        return None, 0
    best = min(lengths)
    if puzzle.objective is Objective.SHORTEST:
        return best, lengths[best]
    if puzzle.wants_longest:  # the longest walks only (CONTRACT 1.2 §5)
        return best, lengths[max(lengths)]
    return best, sum(lengths.values())


# ----------------------------------------------------- random small puzzles
@st.composite
def small_puzzles(draw: st.DrawFn, use: EdgeUse | None = None, max_edges: int = 5) -> Puzzle:
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


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(small_puzzles())
def test_solve_agrees_with_brute_force(puzzle: Puzzle) -> None:
    best, _ = oracle(puzzle)
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
        assert len(answer.walk) == max(brute_once(puzzle))
    else:
        assert answer.optimal is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(max_edges=4))
def test_count_agrees_with_brute_force(puzzle: Puzzle) -> None:
    _, expected = oracle(puzzle)
    result = CpSatBackend().count(puzzle)
    assert result.complete
    assert result.solutions == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(use=EdgeUse.ANY, max_edges=7))
def test_reusable_colour_walks_are_shortest(puzzle: Puzzle) -> None:
    best, _ = brute_reusable(puzzle)
    answer = CpSatBackend().solve(replace(puzzle, objective=Objective.SHORTEST))
    if best is None:
        assert answer.status is Status.UNSOLVABLE
        assert "never repeats a state" in answer.reason
    else:
        assert answer.status is Status.SOLVED and answer.optimal
        assert len(answer.walk) == best


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(max_edges=4))
def test_agrees_with_direct_backend(puzzle: Puzzle) -> None:
    limits = Limits(work_limit=10**6)
    try:
        direct = get_backend("direct")
        theirs = direct.solve(puzzle, limits)
        their_count = direct.count(puzzle, limits)
    except (ImportError, ModuleNotFoundError) as exc:
        pytest.skip(f"direct backend not available here: {exc}")
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
    assert len(answer.walk) == brute_reusable(puzzle)[0]
    gone = Puzzle.build(kind="colour-walk", edges=edges[:4], nodes=["T"], colours=RGB, start=["S"],
                        end=["T"], use=EdgeUse.ANY, objective=Objective.SHORTEST)
    assert brute_reusable(gone)[0] is None
    no = cpsat.solve(gone)
    assert no.status is Status.UNSOLVABLE and "never repeats a state" in no.reason


def test_mixed_directed_alternating_trail(cpsat: CpSatBackend) -> None:
    rule = ColourRule.from_cycle(["red", "blue"])
    edges = [("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "red"), ("a", "c", "blue")]
    puzzle = Puzzle.build(kind="walk", edges=edges, directed=[True, False, True, False],
                          colours=rule, closed=True)
    answer = cpsat.solve(puzzle)
    assert (answer.status is Status.SOLVED) == (oracle(puzzle)[0] is not None)
    if answer.walk is not None:
        assert verify(puzzle, answer.walk) == []


def test_self_loops_and_parallel_edges(cpsat: CpSatBackend) -> None:
    puzzle = trail(["aa", "ab", "ab", "bb", "ab"])
    answer = cpsat.solve(puzzle)
    assert answer.status is Status.SOLVED and verify(puzzle, answer.walk) == []
    assert cpsat.count(puzzle).solutions == oracle(puzzle)[1]


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
