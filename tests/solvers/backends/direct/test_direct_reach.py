"""The direct backend's reusable-walk search against the brute force in ``oracles``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from oracles import COLOURS, RGB, assert_sound, brute_shortest, reusable_bound, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.reachability import solve_reusable
from trailkit.solvers.backends.registry import get_backend


# ------------------------------------------------------- property tests
@given(walk_puzzles())
def test_matches_brute_force(p: Puzzle) -> None:
    answer = solve_reusable(p, Limits())
    expected = brute_shortest(p, reusable_bound(p))
    assert_sound(p, answer)
    if expected is None:
        assert answer.status is Status.UNSOLVABLE
        assert answer.certificate is not None and answer.certificate.kind == "closed-set"
    else:
        assert answer.status is Status.SOLVED and answer.optimal is True
        assert len(answer.walk) == len(expected)


@given(walk_puzzles(closed=True, max_nodes=3, max_edges=5))
def test_closed_walks_match_brute_force(p: Puzzle) -> None:
    answer = solve_reusable(p, Limits())
    expected = brute_shortest(p, reusable_bound(p))
    assert_sound(p, answer)
    assert (answer.status is Status.SOLVED) == (expected is not None)
    if expected is not None:
        assert len(answer.walk) == len(expected)


# ----------------------------------------------------------- hand-made
def _rgb(edges: list[tuple[str, str, str | None]], **rules: Any) -> Puzzle:
    return Puzzle.build(kind="colour-walk", edges=edges, colours=RGB, use=EdgeUse.ANY,
                        objective=Objective.SHORTEST, **rules)


def test_revisits_a_tyre_in_another_colour_phase() -> None:
    """A -red- B -blue- C -green- B -red- T: B is passed after red and again after green."""
    p = _rgb([("A", "B", "red"), ("B", "C", "blue"), ("C", "B", "green"), ("B", "T", "red")],
             start=["A"], end=["T"])
    answer = get_backend("direct").solve(p)
    assert answer.status is Status.SOLVED and answer.optimal
    assert [p.nodes[v] for v in answer.walk.nodes] == ["A", "B", "C", "B", "T"]
    assert verify(p, answer.walk) == []


def test_start_equal_goal_gives_the_empty_walk() -> None:
    p = _rgb([("A", "B", "red"), ("B", "C", "blue"), ("C", "A", "green")],
             start=["A"], end=["A"])
    answer = solve_reusable(p, Limits())
    assert answer.status is Status.SOLVED and len(answer.walk) == 0
    assert answer.walk.nodes == (p.node_index("A"),)


def test_closed_triangle_goes_round_once() -> None:
    p = _rgb([("A", "B", "red"), ("B", "C", "blue"), ("C", "A", "green")],
             start=["A"], end=["A"], closed=True)
    answer = solve_reusable(p, Limits())
    assert answer.status is Status.SOLVED and len(answer.walk) == 3
    assert verify(p, answer.walk) == []


def test_closed_walk_must_respect_the_colour_join() -> None:
    """A-B red then B-A blue returns to A, but red may not follow blue: no closed walk."""
    p = _rgb([("A", "B", "red"), ("B", "A", "blue")], start=["A"], end=["A"], closed=True)
    answer = solve_reusable(p, Limits())
    assert answer.status is Status.UNSOLVABLE
    assert check_certificate(p, answer.certificate) == []
    assert all(len(state) == 4 for state in answer.certificate.data["states"])


def test_unreachable_goal_gives_a_closed_set() -> None:
    """The Toowoomba situation in small: the goal needs a colour that never comes."""
    p = _rgb([("A", "B", "red"), ("B", "C", "blue"), ("C", "T", "blue")],
             start=["A"], end=["T"])
    answer = solve_reusable(p, Limits())
    assert answer.status is Status.UNSOLVABLE
    cert = answer.certificate
    assert cert.kind == "closed-set" and check_certificate(p, cert) == []
    assert sorted(map(tuple, cert.data["states"]), key=str) == sorted(
        [("A", None), ("B", "red"), ("C", "blue")], key=str)
    assert "Starting from A" in cert.explanation and "T" in cert.explanation
    # adding the missing green plank makes it solvable
    fixed = _rgb([("A", "B", "red"), ("B", "C", "blue"), ("C", "T", "blue"),
                  ("C", "T", "green")], start=["A"], end=["T"])
    assert solve_reusable(fixed, Limits()).length == 3


def test_one_way_planks_and_uncoloured_planks() -> None:
    base: dict[str, Any] = {"start": ["A"], "end": ["B"]}
    one_way = Puzzle.build(edges=[("B", "A", "red")], directed=[True], colours=RGB,
                           use=EdgeUse.ANY, **base)
    assert solve_reusable(one_way, Limits()).status is Status.UNSOLVABLE
    uncoloured = Puzzle.build(edges=[("A", "B", None)], colours=RGB, use=EdgeUse.ANY, **base)
    answer = solve_reusable(uncoloured, Limits())
    assert answer.status is Status.UNSOLVABLE
    assert check_certificate(uncoloured, answer.certificate) == []
    no_rule = Puzzle.build(edges=[("B", "A", None)], use=EdgeUse.ANY, **base)
    answer = solve_reusable(no_rule, Limits())
    assert answer.status is Status.SOLVED and len(answer.walk) == 1


def test_first_colour_is_respected() -> None:
    edges = [("A", "B", "red"), ("A", "B", "blue"), ("B", "T", "green")]
    blue_first = _rgb(edges, start=["A"], end=["T"], first=["blue"])
    answer = solve_reusable(blue_first, Limits())
    assert answer.status is Status.SOLVED and len(answer.walk) == 2
    # red first forces blue next (A-B red, B-A blue), and no green plank leaves A
    red_first = _rgb(edges, start=["A"], end=["T"], first=["red"])
    answer = solve_reusable(red_first, Limits())
    assert answer.status is Status.UNSOLVABLE
    assert check_certificate(red_first, answer.certificate) == []


@pytest.mark.parametrize("closed", [False, True])
def test_time_limit_gives_unknown_never_unsolvable(closed: bool) -> None:
    n = 3000
    edges = [(f"v{i}", f"v{i + 1}", COLOURS[i % 3]) for i in range(n)]
    p = _rgb(edges, start=["v0"], end=["nowhere"], nodes=["nowhere"], closed=closed)
    answer = solve_reusable(p, Limits(time_limit=0.0))
    assert answer.status is Status.UNKNOWN and "time limit" in answer.reason


def test_without_colour_rule_phases_are_star() -> None:
    p = Puzzle.build(edges=[("A", "B"), ("C", "D")], use=EdgeUse.ANY, start=["A"], end=["D"])
    answer = solve_reusable(p, Limits())
    assert answer.status is Status.UNSOLVABLE
    assert sorted(map(tuple, answer.certificate.data["states"]), key=str) == sorted(
        [("A", None), ("B", "*"), ("A", "*")], key=str)
    assert check_certificate(p, answer.certificate) == []


@pytest.mark.alone  # "quickly": within a time limit, on a machine of its own
def test_long_path_is_found_quickly() -> None:
    n = 30_000
    edges = [(f"v{i}", f"v{i + 1}", COLOURS[i % 3]) for i in range(n)]
    p = _rgb(edges, start=["v0"], end=[f"v{n}"])
    answer = solve_reusable(p, Limits(time_limit=20))
    assert answer.status is Status.SOLVED and len(answer.walk) == n


@pytest.mark.alone  # "quickly": within a time limit, on a machine of its own
def test_closed_walk_from_any_start_on_a_long_path() -> None:
    """30,000 origins: once a 3-step ring is found nothing shorter is possible."""
    n = 30_000
    edges = [(f"v{i}", f"v{i + 1}", COLOURS[i % 3]) for i in range(n)]
    edges += [("x", "y", "red"), ("y", "z", "blue"), ("z", "x", "green")]
    p = _rgb(edges, closed=True)
    answer = solve_reusable(p, Limits(time_limit=20))
    assert answer.status is Status.SOLVED and len(answer.walk) == 3
    assert verify(p, answer.walk) == []
