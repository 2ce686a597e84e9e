"""The direct backend's longest-walk search on big inputs: no deep recursion, and a
limit that stops it promptly with an ``unknown`` answer that keeps its best walk.

Issue 41: a colour walk with 20,000 random edges under ``--time-limit 1`` exited 4
(``RecursionError``) after 23 s; the search recursed once per step and read the clock
only every 1,024 search nodes, each of which may cost a pass over the unused edges.
A clock that moves a fixed step at every look stands in for the real one (as in
``tests/solvers/pipeline/test_time_limits.py``), so no assertion depends on the load.
"""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

from trailkit.models.answer import Status
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct import longest
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve


def _longest(edges: list[tuple[str, str]]) -> Puzzle:
    return Puzzle.build(kind="walk", edges=edges, use=EdgeUse.AT_MOST_ONCE,
                        objective=Objective.LONGEST)


def _complete(n: int) -> Puzzle:
    """K_n: odd degrees everywhere, so the search has far too many trails to try."""
    return _longest([(f"v{a}", f"v{b}") for a in range(n) for b in range(a + 1, n)])


def _steady_clock(step: float) -> types.SimpleNamespace:
    now = [0.0]

    def look() -> float:
        now[0] += step
        return now[0]

    return types.SimpleNamespace(monotonic=look)


def test_a_walk_of_thousands_of_steps_needs_no_deep_recursion() -> None:
    """A path of 5,000 edges: the search from its end walks all of them (it recursed
    once a step, past Python's recursion limit)."""
    path = _longest([(f"n{i}", f"n{i + 1}") for i in range(5000)])
    answer = longest.solve_longest(path, Limits())
    assert answer.status is Status.SOLVED and answer.optimal is True
    assert answer.walk is not None and len(answer.walk) == 5000
    assert verify(path, answer.walk) == []


def test_the_clock_is_read_at_every_search_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped by its time limit, the search has done about as many nodes as the clock
    allowed looks (it read the clock every 1,024 nodes: 30 looks went by unseen)."""
    monkeypatch.setattr(longest, "time", _steady_clock(1.0))
    answer = longest.solve_longest(_complete(8), Limits(time_limit=30.5))
    assert answer.status is Status.UNKNOWN
    assert answer.stats["search_nodes"] <= 31


def test_a_stopped_search_is_unknown_with_its_best_walk(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A limit reached is ``unknown``, never "solved": the best walk found comes with it,
    verified, and the answer says the longest has at least its length (it was "solved"
    with ``optimal`` false, exit 0)."""
    monkeypatch.setattr(longest, "time", _steady_clock(1.0))
    k8 = _complete(8)
    answer = solve(k8, "direct", Limits(time_limit=30.5), crosscheck=None)
    assert answer.status is Status.UNKNOWN and answer.verified is True
    assert answer.walk is not None and verify(k8, answer.walk) == []
    assert answer.optimal is False and answer.length == len(answer.walk) > 0
    assert f"at least {answer.length}" in answer.reason


def test_the_command_line_exits_3_showing_the_best_walk(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    spec = tmp_path / "k8.yaml"
    edges = ", ".join(f"v{a} v{b}" for a in range(8) for b in range(a + 1, 8))
    spec.write_text(f"trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: longest\n"
                    f"edges: [{edges}]\n")
    assert main(["solve", str(spec), "--work-limit", "40", "--crosscheck", "none"]) == 3
    text = capsys.readouterr().out
    assert "unknown after" in text and "so the longest has at least" in text
    assert "the best walk found (" in text and "verified by the independent checker" in text
    assert main(["solve", str(spec), "--work-limit", "40", "--crosscheck", "none",
                 "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unknown" and out["verified"] is True
    assert out["length"] == len(out["steps"]) > 0 and out["optimal"] is False
