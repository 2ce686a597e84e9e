"""``objective: longest``: every backend against brute force, and the bundled hand.

The oracle enumerates every walk that uses each edge at most once (judged by the
verifier, like :mod:`oracles`); the longest accepted one is the answer each backend
must match, with ``optimal`` true.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import once_walks, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.base import Backend
from trailkit.solvers.pipeline import solve

SPECS = Path(__file__).resolve().parent.parent / "specs"


def _longest(p: Puzzle) -> int | None:
    return max((len(w) for w in once_walks(p)), default=None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
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
