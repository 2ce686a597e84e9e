"""``trailkit generate``: deterministic for a seed, lints clean, keeps its --solvable promise."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trailkit.models.answer import Status
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.base import Limits
from trailkit.solvers.cli import main
from trailkit.solvers.cli.generate import KINDS, generate
from trailkit.solvers.pipeline import solve

#: Sizes small enough that the direct backend decides every instance at once.
SMALL = {"dominoes": 4, "trail": 6, "colour-walk": 3, "alternating": 4}


def solved_status(text: str) -> Status:
    """What the checking pipeline says, with a second opinion (cpsat) for every answer."""
    return solve(load_spec_text(text), "direct", Limits(time_limit=20),
                 crosscheck="cpsat").status


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("solvable", ["yes", "no", "any"])
def test_same_seed_same_spec_and_promise_kept(kind: str, solvable: str) -> None:
    first = generate(kind, SMALL[kind], 11, solvable)
    assert first.text == generate(kind, SMALL[kind], 11, solvable).text
    puzzle = load_spec_text(first.text)  # lints clean
    status = solved_status(first.text)
    if solvable == "any":
        assert first.status is None and puzzle.expect is None
        assert "expect:" not in first.text
    else:
        wanted = Status.SOLVED if solvable == "yes" else Status.UNSOLVABLE
        assert status is wanted
        assert puzzle.expect == {"status": wanted.value}


@pytest.mark.parametrize("kind", KINDS)
def test_other_seeds_give_other_specs(kind: str) -> None:
    texts = {generate(kind, SMALL[kind] + 1, seed).text for seed in range(4)}
    assert len(texts) > 1


@settings(max_examples=12, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6),
       solvable=st.sampled_from(["yes", "no"]), grow=st.integers(0, 2))
def test_the_promise_holds_for_any_seed(kind: str, seed: int, solvable: str, grow: int) -> None:
    made = generate(kind, SMALL[kind] + grow, seed, solvable)
    assert solved_status(made.text).value == made.status == \
        ("solved" if solvable == "yes" else "unsolvable")


def test_cli_writes_lint_clean_specs_and_never_overwrites(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "walk.yaml"
    args = ["generate", "colour-walk", "--size", "3", "--seed", "5", "--solvable", "yes",
            "--out", str(out)]
    assert main(args) == 0
    written = out.read_text()
    assert load_spec(out).expect == {"status": "solved"}
    assert main(["lint", str(out)]) == 0
    out.write_text("mine\n")
    assert main(args) == 2  # exists: refused
    assert out.read_text() == "mine\n"
    assert main([*args, "--force"]) == 0
    assert out.read_text() == written
    capsys.readouterr()
    assert main(args[:-2]) == 0  # no --out: standard output
    assert capsys.readouterr().out == written


@pytest.mark.parametrize("args", [["trail", "--size", "1"], ["dominoes", "--size", "99"]])
def test_sizes_out_of_range_are_input_errors(args: list[str]) -> None:
    assert main(["generate", *args]) == 2
