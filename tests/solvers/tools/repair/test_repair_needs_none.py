"""``repair`` of a puzzle that is already solvable: its ``fewest-changes`` claim of 0
says what it rests on, as ``prove --claim fewest-changes`` says it.

Issue 41: ``repair --json`` listed ``fewest-changes`` as checked with no certificate,
while ``prove --claim fewest-changes`` gave a checked ``change-sets`` certificate (no set
to refute, its repair of 0 changes the puzzle's verified walk).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trailkit.solvers.frontends.cli import main

SPECS = Path(__file__).resolve().parents[4] / "specs"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_a_solvable_puzzles_claim_is_the_one_prove_makes(
        capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(SPECS / "nikolaus.yaml")
    code, repaired = _run(capsys, "repair", spec, "--json")
    assert code == 0 and repaired["status"] == "solvable" and repaired["changes"] == 0
    code, proved = _run(capsys, "prove", spec, "--claim", "fewest-changes", "--json")
    assert code == 0
    assert repaired["claims"] == proved["claims"] == [
        {"claim": "fewest-changes", "certificate": "change-sets", "checked": True}]
