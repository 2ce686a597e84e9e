"""The direct backend's exhaustive trail search against an independent brute force.

The oracle is :func:`oracles.brute_shortest` with ``distinct_edges``: it
tries every trail (no edge twice) in order of length and lets
:func:`trailkit.models.checking.verify.verify` judge each one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from oracles import assert_sound, brute_shortest, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.exhaustive import solve_exhaustive
from trailkit.solvers.backends.registry import get_backend

RB = ColourRule.from_cycle(["red", "blue"])
RGB = ColourRule.from_cycle(["red", "blue", "green"])


def _check_against_brute(p: Puzzle) -> Any:
    answer = solve_exhaustive(p, Limits())
    expected = brute_shortest(p, p.num_edges, distinct_edges=True)
    assert_sound(p, answer)
    assert answer.status is not Status.UNKNOWN
    assert (answer.status is Status.SOLVED) == (expected is not None)
    return answer, expected


# ------------------------------------------------------- property tests
@st.composite
def reuse_tempting(draw: Any) -> Puzzle:
    """Closed walks on small loopless graphs: the shortest reusable one often goes there
    and back along one edge, which a trail may not do."""
    n = draw(st.integers(3, 5))
    m = draw(st.integers(3, 7))
    rule = draw(st.sampled_from([None, None, RB, RGB]))
    names = rule.names if rule else ("red",)
    tail = [draw(st.integers(0, n - 1)) for _ in range(m)]
    head = [(t + draw(st.integers(1, n - 1))) % n for t in tail]
    colour = [draw(st.integers(0, len(names) - 1)) for _ in range(m)]
    start = draw(st.none() | st.frozensets(st.integers(0, n - 1), min_size=1, max_size=1))
    return Puzzle(kind="walk", nodes=tuple(f"n{i}" for i in range(n)), tail=tail,
                  head=head, colour=colour, colour_names=names, colours=rule,
                  use=EdgeUse.AT_MOST_ONCE, start=start, closed=True,
                  objective=Objective.SHORTEST)


@given(reuse_tempting())
def test_at_most_once_where_the_relaxation_reuses_edges(p: Puzzle) -> None:
    """Exercises the iterative deepening: the relaxation's walk is often not a trail."""
    _assert_shortest_like_brute_force(p)


@given(walk_puzzles(use=EdgeUse.AT_MOST_ONCE, max_nodes=4, max_edges=6))
def test_at_most_once_shortest_matches_brute_force(p: Puzzle) -> None:
    _assert_shortest_like_brute_force(p)


def _assert_shortest_like_brute_force(p: Puzzle) -> None:
    """Same solvability as the brute force, and a walk as short as its shortest."""
    answer, expected = _check_against_brute(p)
    if expected is not None:
        assert answer.optimal is True and len(answer.walk) == len(expected)


@given(walk_puzzles(use=EdgeUse.AT_MOST_ONCE, max_nodes=4, max_edges=6))
def test_at_most_once_any_walk_matches_brute_force(p: Puzzle) -> None:
    _check_against_brute(dataclasses.replace(p, objective=Objective.ANY))


@given(walk_puzzles(use=EdgeUse.EXACTLY_ONCE, max_nodes=4, max_edges=6))
def test_exactly_once_with_colours_matches_brute_force(p: Puzzle) -> None:
    if p.colours is None:
        p = dataclasses.replace(p, colours=RGB, colour_names=RGB.names)
    answer, _ = _check_against_brute(p)
    if answer.status is Status.SOLVED:
        assert len(answer.walk) == p.num_edges


# ----------------------------------------------------------- hand-made
def _alternating_circuit(edges: list[tuple[str, str, str]]) -> Puzzle:
    return Puzzle.build(edges=edges, colours=RB, closed=True, use=EdgeUse.EXACTLY_ONCE)


def test_alternating_red_blue_euler_circuits() -> None:
    # two squares sharing node a; each alternates red/blue
    edges = [("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"), ("d", "a", "blue"),
             ("a", "e", "red"), ("e", "f", "blue"), ("f", "g", "red"), ("g", "a", "blue")]
    p = _alternating_circuit(edges)
    answer = get_backend("direct").solve(p)
    assert answer.status is Status.SOLVED and verify(p, answer.walk) == []
    # two red-blue-red triangles and a red/blue 2-cycle at a: both triangles leave and
    # return to a in red, so each needs a loop leaving a in blue after it; only one exists
    bad = _alternating_circuit([("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "red"),
                                ("a", "d", "red"), ("d", "e", "blue"), ("e", "a", "red"),
                                ("a", "f", "red"), ("f", "a", "blue")])
    answer = solve_exhaustive(bad, Limits())
    assert answer.status is Status.UNSOLVABLE and answer.certificate is None
    assert "exhaustive search" in answer.reason
    assert brute_shortest(bad, bad.num_edges, distinct_edges=True) is None


def test_impossible_relaxation_gives_a_closed_set_for_exactly_once() -> None:
    p = _alternating_circuit([("a", "b", "red"), ("b", "c", "red"), ("c", "a", "red")])
    answer = solve_exhaustive(p, Limits())
    assert answer.status is Status.UNSOLVABLE
    assert answer.certificate is not None and answer.certificate.kind == "closed-set"
    assert check_certificate(p, answer.certificate) == []


def test_at_most_once_must_avoid_the_reusing_shortcut() -> None:
    """With reuse A B C B A T takes 5 steps (A-B twice); without, A B C B D E T takes 6."""
    edges = [("A", "B", "red"), ("B", "C", "blue"), ("C", "B", "green"), ("A", "T", "blue"),
             ("B", "D", "red"), ("D", "E", "blue"), ("E", "T", "green")]
    reusable = Puzzle.build(edges=edges, colours=RGB, start=["A"], end=["T"], first=["red"],
                            use=EdgeUse.ANY, objective=Objective.SHORTEST)
    assert get_backend("direct").solve(reusable).length == 5
    once = dataclasses.replace(reusable, use=EdgeUse.AT_MOST_ONCE)
    answer = get_backend("direct").solve(once)
    assert answer.status is Status.SOLVED and answer.optimal is True
    assert len(answer.walk) == 6 and verify(once, answer.walk) == []


def test_tiny_work_limit_gives_unknown_never_unsolvable() -> None:
    edges = [("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"), ("d", "a", "blue"),
             ("a", "c", "red"), ("c", "a", "blue")]
    p = _alternating_circuit(edges)
    answer = solve_exhaustive(p, Limits(work_limit=1))
    assert answer.status is Status.UNKNOWN
    assert answer.reason == "work limit of 1 search nodes reached"
    assert solve_exhaustive(p, Limits()).status is Status.SOLVED


def test_unsolvable_without_certificate_says_what_it_rests_on() -> None:
    # a path of three edges cannot be closed, but a reusable walk can go round
    p = Puzzle.build(edges=[("a", "b"), ("b", "a"), ("a", "c")], closed=True,
                     use=EdgeUse.AT_MOST_ONCE, start=["c"], end=["c"])
    answer = solve_exhaustive(p, Limits())
    assert answer.status is Status.UNSOLVABLE and answer.certificate is None
    assert answer.reason.startswith("exhaustive search of ")
