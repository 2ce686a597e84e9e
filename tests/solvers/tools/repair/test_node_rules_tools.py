"""``repair``, ``explain`` and ``inspect`` answer a puzzle with node rules, for the puzzle
with them (they once refused it, exit 2, because their searches knew only edges; how
they answer is tested in ``test_node_repair.py``, ``test_node_explain.py`` and
``tests/solvers/tools/design/test_node_inspection.py``).

The command line is shown a puzzle the spec reader is made to return: Königsberg with a
checkpoint and Nikolaus's house with every node at most once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.design.inspection import inspect_puzzle
from trailkit.solvers.tools.repair import explain, repair

ROOT = Path(__file__).resolve().parents[4]
KOENIGSBERG = ROOT / "specs" / "koenigsberg.yaml"
NIKOLAUS = ROOT / "specs" / "nikolaus.yaml"


def with_rules(path: Path) -> Puzzle:
    puzzle = load_spec(path)
    if path == NIKOLAUS:
        return replace(puzzle, visit=NodeVisit.AT_MOST_ONCE)
    return replace(puzzle, via=frozenset({0}))


@pytest.mark.parametrize("verb", ["repair", "explain"])
def test_repair_and_explain_answer_under_node_rules(verb: str) -> None:
    """Königsberg with a checkpoint: its edge rules alone leave no walk, and both say so
    of the puzzle with its node rules (no refusal)."""
    found = (repair if verb == "repair" else explain)(with_rules(KOENIGSBERG))
    assert found.status.value in ("repaired", "unsolvable")


def test_inspect_answers_under_node_rules() -> None:
    """Nikolaus's house with every node at most once has walks: inspect names what it
    cannot lose, for the puzzle with the rule."""
    found = inspect_puzzle(with_rules(NIKOLAUS))
    assert found is not None


@pytest.mark.parametrize("verb", ["repair", "explain", "inspect"])
def test_the_command_line_answers_without_a_traceback(
        verb: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import trailkit.models.spec as spec_package
    import trailkit.solvers.frontends.cli.repair as repair_command

    for module in (spec_package, repair_command):
        monkeypatch.setattr(module, "load_spec", lambda path, *a, **k: with_rules(Path(path)))
    code = main([verb, str(NIKOLAUS)])
    said = capsys.readouterr()
    assert code in (0, 1), said
    assert "does not take node rules" not in said.err
    assert "Traceback" not in said.err


def test_without_node_rules_the_tools_still_answer() -> None:
    found = explain(load_spec(KOENIGSBERG))
    assert found.status.value == "unsolvable"
