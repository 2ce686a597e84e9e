"""The time limit bounds the building of a CP-SAT model, not only its search.

Issue 41: ``solve --backend cpsat --time-limit 1`` on a big spec took 13.8 s, all of it
building (a million arcs of the oriented-edge circuit take Python tens of seconds). A
model estimated to take longer than the time left is not built; one being built stops
at the limit; the search gets only what the building left. A clock that moves a fixed
step at every look stands in for the real one where a deadline must fall mid-build.
"""

from __future__ import annotations

import types

import pytest

from trailkit.models.answer import Status
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends import cpsat
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.cpsat import encoding


def _complete(n: int) -> Puzzle:
    return Puzzle.build(edges=[(str(a), str(b)) for a in range(n) for b in range(a + 1, n)])


def test_a_model_too_slow_to_build_in_time_is_not_built(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """K40 has about 120,000 arcs: over a second to build at best, so with 0.5 s left
    it is refused at once, saying why and what to try."""
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was built")

    monkeypatch.setattr(cpsat, "encode", never)
    answer = cpsat.CpSatBackend().solve(_complete(40), Limits(time_limit=0.5))
    assert answer.status is Status.UNKNOWN
    assert "so it was not built" in answer.reason and "direct backend" in answer.reason
    assert "arcs" in answer.reason


def test_the_building_stops_at_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """K13's model has 156 steps whose arcs are built one step at a time; a clock that
    runs out after 40 looks stops the building there (without it, an Euler circuit)."""
    now = [0.0]

    def look() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(encoding, "time", types.SimpleNamespace(monotonic=look))
    k13 = _complete(13)
    answer = cpsat.CpSatBackend().solve(k13, Limits(time_limit=40.5))
    assert answer.status is Status.UNKNOWN
    assert "while building the CP-SAT model" in answer.reason
    assert cpsat.CpSatBackend().solve(k13, Limits()).status is Status.SOLVED


def test_the_search_gets_only_what_the_building_left(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    given: list[float | None] = []
    make = cpsat.make_solver

    def spy(limits: Limits, **kwargs: object) -> cpsat.StoppableSolver:
        given.append(limits.time_limit)
        return make(limits, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cpsat, "make_solver", spy)
    k6 = _complete(6)
    assert cpsat.CpSatBackend().solve(k6, Limits(time_limit=30.0)).status is not Status.UNKNOWN
    assert cpsat.CpSatBackend().count(k6, Limits(time_limit=30.0)).complete
    assert len(given) >= 2 and all(left is not None and left < 30.0 for left in given)
