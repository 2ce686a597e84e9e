"""How long a second opinion may take (issue 43's TSPLIB run): CP-SAT found and the
independent checker verified alb1000's tour in 1.5 s, then the automatic cross-check by
``direct`` searched for 48 s before saying "undecided". A cross-check the policy chose
on a verified walk only adds to the answer, so it gets a bounded share of the time; one
the user named, or one that must confirm an unsolvable answer, keeps all the time left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from trailkit.models.answer import Answer, Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline import solving
from trailkit.solvers.pipeline.policy import CROSSCHECK_FACTOR, CROSSCHECK_FLOOR_S

NIKOLAUS = str(Path(__file__).resolve().parents[3] / "specs" / "nikolaus.yaml")
LIMIT = 600.0


class _Recording:
    """A backend that behaves as ``inner`` and notes the time limit each solve got."""

    def __init__(self, inner: Any, seen: list[float | None]) -> None:
        self._inner, self._seen = inner, seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def solve(self, puzzle: Puzzle, limits: Limits) -> Answer:
        self._seen.append(limits.time_limit)
        return self._inner.solve(puzzle, limits)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    limits: list[float | None] = []
    real = solving.get_backend
    monkeypatch.setattr(solving, "get_backend", lambda name: _Recording(real(name), limits))
    return limits


def test_an_automatic_cross_check_of_a_verified_walk_is_bounded(
        seen: list[float | None]) -> None:
    answer = solving.solve(load_spec(NIKOLAUS), "cpsat", Limits(time_limit=LIMIT))
    assert answer.status is Status.SOLVED and answer.verified
    assert answer.crosscheck is not None and answer.crosscheck.backend == "direct"
    assert len(seen) == 1 and seen[0] is not None
    assert seen[0] <= max(CROSSCHECK_FLOOR_S, CROSSCHECK_FACTOR * answer.time_s) + 1e-9
    assert seen[0] < LIMIT / 2


def test_a_cross_check_the_user_named_keeps_the_time_left(seen: list[float | None]) -> None:
    answer = solving.solve(load_spec(NIKOLAUS), "cpsat", Limits(time_limit=LIMIT),
                           crosscheck="direct")
    assert answer.crosscheck is not None and answer.crosscheck.agrees
    assert len(seen) == 1 and seen[0] is not None and seen[0] > LIMIT / 2
