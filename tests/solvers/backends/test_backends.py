"""Every registered backend, and the outside solvers (``minizinc:gecode``,
``dimacs:cadical``) where installed, against the brute-force oracle, on random small puzzles.

Same solvability, same shortest length (where the backend proves optimality), every
walk verified and every certificate accepted: the behaviour all backends share.
"""

from __future__ import annotations

from budget import costly
from hypothesis import HealthCheck, given
from oracles import check_against_oracle, walk_puzzles

from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import Backend

SETTINGS = costly(0.2, "each example runs a backend and the brute-force oracle",
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@SETTINGS
@given(p=walk_puzzles(use=EdgeUse.ANY))
def test_reusable_walks(any_backend: Backend, p: Puzzle) -> None:
    check_against_oracle(any_backend, p)


@SETTINGS
@given(p=walk_puzzles(use=EdgeUse.AT_MOST_ONCE, max_edges=5))
def test_at_most_once_walks(any_backend: Backend, p: Puzzle) -> None:
    check_against_oracle(any_backend, p)


@SETTINGS
@given(p=walk_puzzles(use=EdgeUse.EXACTLY_ONCE, max_edges=6))
def test_exactly_once_walks(any_backend: Backend, p: Puzzle) -> None:
    check_against_oracle(any_backend, p)
