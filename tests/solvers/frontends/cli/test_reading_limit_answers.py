"""What ``--json`` prints when the time limit runs out while the spec is read: the
command's own answer saying ``unknown`` (CONTRACT 1.4 §7), exit 3, never the
``trailkit-error/1`` object of wrong input (which it was, before).

The reading is made to run out at once (its clock jumped past any deadline), so the
cheap bundled specs stand in for a million-line one (``test_reading_limit.py`` runs one
for real); every object printed is validated against its schema (``conftest.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trailkit.models.support import deadline
from trailkit.solvers.frontends.cli.app import main

ROOT = Path(__file__).resolve().parents[4]
NIKOLAUS = str(ROOT / "specs" / "nikolaus.yaml")


@pytest.fixture
def reading_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deadline of the reading has passed as soon as it is looked at."""
    monkeypatch.setattr(deadline, "_now", lambda: float("inf"))


@pytest.mark.parametrize(("words", "fmt"), [
    (["solve"], "trailkit-result/1"),
    (["solve", "--backend", "cpsat"], "trailkit-result/1"),
    (["count"], "trailkit-count/1"),
    (["count", "--method", "exact"], "trailkit-count/1"),
    (["prove"], "trailkit-prove/1"),
    (["prove", "--claim", "unique"], "trailkit-prove/1"),
])
def test_the_answer_says_unknown_in_its_own_format(
        words: list[str], fmt: str, reading_runs_out: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main([words[0], NIKOLAUS, *words[1:], "--time-limit", "30", "--json"])
    said = capsys.readouterr()
    assert code == 3, said.err
    answer = json.loads(said.out)
    assert answer["format"] == fmt
    assert answer["status"] == "unknown"
    assert "reached while reading the spec" in (answer.get("reason") or "")
    assert answer["spec"] == NIKOLAUS
    assert "unknown: the time limit was reached while reading" in said.err
    if fmt != "trailkit-prove/1":  # the puzzle named as its lines name it
        assert (answer["name"], answer["kind"]) == ("Das Haus vom Nikolaus", "trail")
    if fmt == "trailkit-count/1":
        assert (answer["complete"], answer["solutions"]) == (False, 0)
        assert answer["method"] == ("exact" if "exact" in words else "enumerate")
    if "--claim" in words:
        assert answer["claims"] == [{"claim": "unique", "certificate": None,
                                     "checked": False, "why": answer["reason"]}]


def test_a_spec_whose_lines_do_not_say_its_kind(
        tmp_path: Path, reading_runs_out: None, capsys: pytest.CaptureFixture[str]) -> None:
    """A flow-style spec: no line names its kind, so the answer says null (the schema
    allows it only for this), never a kind the spec did not say."""
    spec = tmp_path / "flow.yaml"
    spec.write_text("{trailkit: 1, kind: trail, edges: [a b, b c]}\n")
    assert main(["solve", str(spec), "--time-limit", "30", "--json"]) == 3
    answer = json.loads(capsys.readouterr().out)
    assert (answer["status"], answer["name"], answer["kind"]) == ("unknown", None, None)


def test_without_json_it_is_said_once_on_standard_error(
        reading_runs_out: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", NIKOLAUS, "--time-limit", "30"]) == 3
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.count("unknown: the time limit was reached while reading the spec") == 1
