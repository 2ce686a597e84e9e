"""``objective: longest``: every backend against brute force, and the bundled hand.

The oracle enumerates every walk that uses each edge at most once (judged by the
verifier, like :mod:`oracles`); the longest accepted one is the answer each backend
must match, with ``optimal`` true.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from oracles import once_walks, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Backend
from trailkit.solvers.pipeline import count, solve

SPECS = Path(__file__).resolve().parents[3] / "specs"


def _longest(p: Puzzle) -> int | None:
    return max((len(w) for w in once_walks(p)), default=None)


@costly(0.2, "each example runs a longest-walk search on a backend and by brute force",
        suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_longest_matches_brute_force(backend: Backend, data: st.DataObject) -> None:
    p = data.draw(walk_puzzles(EdgeUse.AT_MOST_ONCE, max_nodes=4, max_edges=6))
    p = dataclasses.replace(p, objective=Objective.LONGEST)
    best = _longest(p)
    answer = solve(p, backend)
    if best is None:
        assert answer.status is Status.UNSOLVABLE
        return
    assert answer.status is Status.SOLVED and answer.verified
    assert answer.optimal is True and answer.length == best


def test_the_bundled_hand(backend: Backend) -> None:
    p = load_spec(SPECS / "dominoes" / "longest-train.yaml")
    answer = solve(p, backend)
    assert answer.optimal and answer.length == p.expect["length"] == _longest(p)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@costly(0.15, "each example runs a longest-walk search on a backend and by brute force",
        suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_longest_counts_match_brute_force(backend: Backend, closed: bool,
                                          data: st.DataObject) -> None:
    """``count`` under ``objective: longest`` counts the walks of the longest length only,
    on every backend that counts (with and without colour rules: the strategy draws both)."""
    if not backend.supports_counting:
        pytest.skip(f"{backend.name} does not count")
    p = data.draw(walk_puzzles(EdgeUse.AT_MOST_ONCE, max_nodes=4, max_edges=5, closed=closed))
    p = dataclasses.replace(p, objective=Objective.LONGEST)
    walks = once_walks(p)
    best = max((len(w) for w in walks), default=None)
    expected = sum(1 for w in walks if len(w) == best)
    result = count(p, backend, crosscheck=None)
    assert result.complete and result.solutions == expected
    if result.per_start is not None:
        names = p.nodes
        for start, row in result.per_start.items():
            assert row.solutions == sum(1 for w in walks if len(w) == best
                                        and names[w.nodes[0]] == start)


def test_the_bundled_hand_counts_its_longest_trains(backend: Backend) -> None:
    """The issue's numbers: 7 dominoes is the longest train, and 20 walks have it (not
    the 247 walks of every length from 0 to 7)."""
    if not backend.supports_counting:
        pytest.skip(f"{backend.name} does not count")
    p = load_spec(SPECS / "dominoes" / "longest-train.yaml")
    walks = once_walks(p)
    assert count(p, backend, crosscheck=None).solutions == \
        sum(1 for w in walks if len(w) == 7) == 20


def test_failures_are_refused_under_an_objective() -> None:
    p = load_spec(SPECS / "dominoes" / "longest-train.yaml")
    with pytest.raises(UnsupportedPuzzle, match="not defined under 'objective: longest'"):
        count(p, failures=True)
    with pytest.raises(UnsupportedPuzzle, match="objective: shortest"):
        count(dataclasses.replace(p, objective=Objective.SHORTEST), failures=True)
