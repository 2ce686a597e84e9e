"""``inspect`` on once-only walks: its uniqueness is a certified claim, and its measures
(a count of every failure, which can take far longer than the rest) are bounded: past
their budget they say "not counted" and the critical edges found stand."""

from __future__ import annotations

from pathlib import Path

import pytest

from trailkit.models.answer import Status
from trailkit.models.spec import load_spec_text
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design import inspection
from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle, without_edge

NIKOLAUS = Path(__file__).resolve().parents[4] / "specs" / "nikolaus.yaml"


def _critical_by_removal(puzzle) -> set[int]:
    """The oracle: each edge taken away and the puzzle solved again."""
    return {e for e in range(puzzle.num_edges)
            if solve(without_edge(puzzle, e)).status is Status.UNSOLVABLE}


def test_measures_past_their_budget_say_so_and_the_edges_stand(monkeypatch) -> None:
    # K7 drawn in one closed stroke: without any edge two nodes are odd (critical, each
    # with a parity certificate); its failures are far too many to count in 0.2 s
    pairs = ", ".join(f"{a} {b}" for a in range(7) for b in range(a + 1, 7))
    puzzle = load_spec_text("trailkit: 1\nkind: walk\nuse: exactly-once\nclosed: true\n"
                            f"edges: [{pairs}]\n")
    monkeypatch.setattr(inspection, "MEASURE_BUDGET_S", 0.2)
    found = inspect_puzzle(puzzle)
    assert found.status is InspectStatus.SOLVABLE
    assert "not counted" not in found.measures and "not_counted" in found.measures
    assert "stopped" in found.measures["not_counted"] and found.reason
    assert {f.edge for f in found.critical} == _critical_by_removal(puzzle)
    assert found.unique is False  # the certified claim's second walk, not the count


def test_a_once_only_walk_says_unique_with_its_certificate() -> None:
    puzzle = load_spec_text("trailkit: 1\nkind: walk\nuse: exactly-once\nstart: a\n"
                            "edges: [a b, b c, c d]\n")
    found = inspect_puzzle(puzzle)
    unique = [c for c in found.claims if c.claim == "unique"]
    assert len(unique) == 1 and unique[0].checked and unique[0].value is True
    assert unique[0].certificate is not None and found.unique is True
    assert found.measures["solutions"] == 1


@pytest.mark.parametrize("spec", ["alternating", "nikolaus"])
def test_a_second_walk_makes_unique_false_and_agrees_with_the_count(spec: str) -> None:
    text = NIKOLAUS.read_text() if spec == "nikolaus" else (
        "trailkit: 1\nkind: walk\nuse: exactly-once\nclosed: true\n"
        "colours: {cycle: [red, blue]}\nedges: [a b red, b c blue, c d red, d a blue]\n")
    found = inspect_puzzle(load_spec_text(text))
    unique = [c for c in found.claims if c.claim == "unique"]
    assert unique and unique[0].checked and unique[0].value is False
    assert found.unique is False and found.measures["solutions"] > 1
