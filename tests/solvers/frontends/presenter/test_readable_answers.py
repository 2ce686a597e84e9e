"""Answers a person can read (issue 41, items 16, 19 and 20): a second solution of a
domino set is dominoes, wrapped like the first; an inspection stopped by its limit shows
the critical edges it found, marked partial; a count of hundreds of digits is written
so a person can read it, its exact value in the JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[4]


def test_a_second_domino_solution_is_dominoes_wrapped_like_the_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``solve double-six.yaml --unique``: the second solution was one unwrapped line of
    pips ("0 -> 0 -> 1 ..."), and "of 28 steps"; it is dominoes, ten a line, numbered."""
    assert main(["solve", str(ROOT / "specs" / "dominoes" / "double-six.yaml"),
                 "--unique"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if "not unique" in line)
    assert "a second solution of 28 dominoes" in out[at]
    block = out[at + 1:]
    assert len(block) == 3
    assert all(re.fullmatch(r"\s+\d+: (\[\d\|\d\] ){0,9}\[\d\|\d\]", line) for line in block)
    assert sum(line.count("[") for line in block) == 28
    first = [line for line in out[:at] if re.match(r"\s+\d+: \[", line)]
    assert [line.index(":") for line in block] == [line.index(":") + 2 for line in first]


def _stop_after(monkeypatch: pytest.MonkeyPatch, calls: int) -> None:
    """Let the inspection look at ``calls`` edges, then find its time used up (as a
    limit reached part way does), without depending on the machine's speed."""
    from trailkit.solvers.tools.design import inspect_parts, inspection

    left = iter([1000.0] * calls)
    for module in (inspection, inspect_parts):  # the time checked between two edges
        monkeypatch.setattr(module, "time_left", lambda limits, started: next(left, 0.0))


def test_a_stopped_inspection_shows_the_critical_edges_found_so_far(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``inspect`` stopped by its limit after 359 of 853 edges showed none of the
    critical edges it had found; it shows them, in words and JSON, marked partial."""
    from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

    spec = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"
    whole = inspect_puzzle(load_spec(spec))
    _stop_after(monkeypatch, 12)
    part = inspect_puzzle(load_spec(spec), Limits(time_limit=1000.0))
    assert part.status is InspectStatus.UNKNOWN and part.partial
    assert (part.looked_at, part.to_look_at) == (12, 25)  # the walk's distinct planks
    assert part.critical and {f.edge for f in part.critical} < {f.edge for f in whole.critical}

    _stop_after(monkeypatch, 12)
    assert main(["inspect", str(spec), "--time-limit", "1000"]) == 3
    text = capsys.readouterr().out
    assert "partial: 12 of 25 edges looked at before the limit" in text
    assert f"critical (found so far): {len(part.critical)} edge" in text
    _stop_after(monkeypatch, 12)
    assert main(["inspect", str(spec), "--time-limit", "1000", "--json"]) == 3
    said = json.loads(capsys.readouterr().out)
    assert said["status"] == "unknown" and said["partial"] is True
    assert said["edges_looked_at"] == 12 and said["edges_to_look_at"] == 25
    assert len(said["critical"]) == len(part.critical)


def _k(n: int, tmp_path: Path) -> Path:
    names = [f"n{i}" for i in range(n)]
    edges = ", ".join(f"{u} {v}" for i, u in enumerate(names) for v in names[i + 1:])
    path = tmp_path / f"k{n}.yaml"
    path.write_text(f"trailkit: 1\nname: K{n}\nkind: trail\nedges: [{edges}]\n")
    return path


def test_a_huge_count_is_written_readably_and_exactly_in_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stopped count of K41 printed a number of hundreds of digits, and a table by start
    node padded with hundreds of spaces: the text says "at least 3.83 × 10^756 (757
    digits)" (cut, never rounded up: a lower bound), the JSON the exact number."""
    from trailkit.models.spec import load_spec
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.frontends.presenter.results import count_json, count_text
    from trailkit.solvers.pipeline import count

    spec = _k(41, tmp_path)
    assert main(["count", str(spec), "--time-limit", "1"]) == 3
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines() if "incomplete" not in line) <= 72
    assert re.search(r"solutions: +at least \d\.\d\d × 10\^\d+ \(\d+ digits\)", text), text
    # the text and the JSON of one stopped count (two runs reach different bounds)
    puzzle = load_spec(str(spec))
    result = count(puzzle, limits=Limits(time_limit=1.0))
    text = count_text(puzzle, result, str(spec), False)
    exact = count_json(puzzle, result, str(spec), False)["solutions"]
    shown = re.search(r"solutions: +at least (\d)\.(\d\d) × 10\^(\d+) \((\d+) digits\)", text)
    assert shown and isinstance(exact, int) and exact > 10 ** 100, text
    lead, power = int(shown.group(1) + shown.group(2)), int(shown.group(3))
    assert int(shown.group(4)) == power + 1 == len(str(exact))
    assert lead * 10 ** (power - 2) <= exact < (lead + 1) * 10 ** (power - 2)  # cut, not rounded


def test_numbers_are_written_out_up_to_21_digits() -> None:
    from trailkit.models.support.words import number

    assert number(10 ** 21 - 1) == "999,999,999,999,999,999,999"
    assert number(10 ** 21) == "about 1.00 × 10^21 (22 digits)"
    assert number(1996 * 10 ** 30) == "about 2.00 × 10^33 (34 digits)"
    assert number(1999 * 10 ** 30, at_least=True) == "1.99 × 10^33 (34 digits)"
