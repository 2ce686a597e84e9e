"""Every bundled spec lints clean and meets its ``expect:`` block, on every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from trailkit.models.answer import Status
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.pipeline import count, solve
from trailkit.solvers.pipeline.expectations import expectation_mismatches

SPEC_DIR = Path(__file__).resolve().parent.parent / "specs"
# specs/bench/ is the benchmark corpus: `trailkit compare specs/bench` runs it, and
# tests/solvers/tools/test_generate.py checks the generator's promises; here only the real puzzles.
SPECS = sorted(p for p in SPEC_DIR.rglob("*.yaml")
               if "bench" not in p.relative_to(SPEC_DIR).parts)
COUNTED = [p for p in SPECS if {"solutions", "failures"} & set(load_spec(p).expect or {})]


def spec_id(path: Path) -> str:
    return str(path.relative_to(SPEC_DIR))


def test_every_spec_has_an_expect_block() -> None:
    assert SPECS, "no bundled specs found"
    for path in SPECS:
        assert load_spec(path).expect, f"{path} has no expect: block"


@pytest.mark.parametrize("path", SPECS, ids=spec_id)
def test_spec_meets_its_expectation(path: Path, backend: Backend) -> None:
    puzzle = load_spec(path)
    answer = solve(puzzle, backend, Limits(time_limit=120), crosscheck=None)
    assert answer.status is not Status.UNKNOWN, answer.reason
    assert expectation_mismatches(puzzle, answer=answer) == []
    if answer.status is Status.SOLVED:
        assert answer.verified
    else:
        confirmed = answer.crosscheck is not None and answer.crosscheck.agrees
        assert answer.certificate_checked or confirmed, answer.reason


@pytest.mark.parametrize("path", COUNTED, ids=spec_id)
def test_spec_counts_meet_their_expectation(path: Path) -> None:
    puzzle = load_spec(path)
    result = count(puzzle, failures=bool({"failures", "early_failures"} & set(puzzle.expect)))
    assert result.complete
    assert expectation_mismatches(puzzle, count=result) == []
