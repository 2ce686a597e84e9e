"""``inspect`` of node-rule puzzles: critical edges and essential givens against the
brute-force oracle of ``tests/node_oracle.py`` (4x4 and 5x5 boards), redundant givens'
certificates checked and rejected when the puzzle is edited, and the command line."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from node_oracle import given_paths

from trailkit.models.checking.certificates import check_certificate
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.design import node_inspection
from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle, without_edge


def board(cols: int, rows: int, moves: str, at: str = "") -> Puzzle:
    return load_spec_text(f"trailkit: 1\nkind: tour\nclosed: false\n"
                          f"board: {{size: [{cols}, {rows}], moves: {moves}}}\nat: {{{at}}}\n")


@cache  # two tests share seed 2's king board: its oracle search is made once
def unique_puzzle(seed: int, cols: int, rows: int, moves: str) -> Puzzle:
    """A board with givens taken from a random path of the oracle until it has one
    solution (by the oracle)."""
    rng = random.Random(seed)
    plain = board(cols, rows, moves)
    paths = sorted(given_paths(replace(plain, at={0: 1})))  # from the corner a1
    path = rng.choice(paths)
    order = list(range(len(path)))
    rng.shuffle(order)
    at: dict[int, int] = {}
    for i in order:
        at[path[i]] = i + 1
        if len(at) >= 3 and len(given_paths(replace(plain, at=at))) == 1:
            return replace(plain, at=at)
    raise AssertionError("every given makes it unique")


def without_given(puzzle: Puzzle, v: int) -> Puzzle:
    return replace(puzzle, at={w: q for w, q in puzzle.at.items() if w != v})


@pytest.mark.parametrize(("seed", "size", "moves"), [
    (0, (4, 4), "orthogonal"), (1, (4, 4), "orthogonal"), (2, (4, 4), "king"),
    (3, (5, 5), "orthogonal"), (4, (5, 4), "orthogonal")])
def test_givens_and_critical_edges_match_the_oracle(
        seed: int, size: tuple[int, int], moves: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_inspection, "REFUTE_BUDGET_S", 0.0)  # the search's verdicts
    puzzle = unique_puzzle(seed, *size, moves)
    result = inspect_puzzle(puzzle)
    assert result.status is InspectStatus.SOLVABLE and result.unique is True
    assert result.givens is not None and not result.givens.skipped
    essential = {g.node: g.essential for g in result.givens.findings}
    assert essential == {v: len(given_paths(without_given(puzzle, v))) >= 2
                         for v in puzzle.at}
    for g in result.givens.findings:
        if g.essential:
            assert g.second is not None and g.second.nodes in given_paths(
                without_given(puzzle, g.node))
    critical = {f.edge for f in result.critical}
    assert critical == {e for e in range(puzzle.num_edges)
                        if not given_paths(without_edge(puzzle, e))}
    assert result.unharmed is not None
    assert result.unharmed.edges == puzzle.num_edges - len(critical)


def test_redundant_givens_are_certified_and_the_certificate_fails_an_edited_puzzle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_inspection, "REFUTE_BUDGET_S", 120.0)  # every one certified
    # every cell of a 3 x 3 snake given: each given is redundant
    snake = ["a1", "b1", "c1", "c2", "b2", "a2", "a3", "b3", "c3"]
    puzzle = board(3, 3, "orthogonal", ", ".join(f"{c}: {i + 1}" for i, c in enumerate(snake)))
    result = inspect_puzzle(puzzle)
    assert result.givens is not None and result.unique is True
    assert [g.essential for g in result.givens.findings] == [False] * 9
    for g in result.givens.findings:
        assert g.claim is not None and g.claim.checked and g.claim.value is True
        assert g.claim.certificate is not None
        fewer = without_given(puzzle, g.node)
        assert check_certificate(fewer, g.claim.certificate) == []
        loose = board(3, 3, "orthogonal", "a1: 1")  # more than one solution
        assert check_certificate(loose, g.claim.certificate)
        edited = replace(fewer, at={**fewer.at, g.node: 10 - g.position})
        assert check_certificate(edited, g.claim.certificate)


@pytest.mark.parametrize(("seed", "size", "moves"), [(2, (4, 4), "king"),
                                                   (3, (5, 5), "orthogonal")])
def test_givens_the_search_leaves_undecided_are_decided_by_refutation(
        seed: int, size: tuple[int, int], moves: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every given's tour search stopped at its first move: the refutation of each decides
    it, as the oracle does (a second path, verified, or a certificate)."""
    monkeypatch.setattr(node_inspection, "GIVEN_MOVES", 1)
    monkeypatch.setattr(node_inspection, "REFUTE_BUDGET_S", 120.0)
    puzzle = unique_puzzle(seed, *size, moves)
    result = inspect_puzzle(puzzle)
    assert result.givens is not None and result.unique is True
    for g in result.givens.findings:
        fewer = without_given(puzzle, g.node)
        assert g.essential is (len(given_paths(fewer)) >= 2)
        if g.essential:
            assert g.second is not None and g.second.nodes in given_paths(fewer)
        else:
            assert g.claim is not None and g.claim.certificate is not None
            assert check_certificate(fewer, g.claim.certificate) == []


def test_a_puzzle_with_two_solutions_skips_its_givens() -> None:
    puzzle = board(3, 3, "orthogonal", "a1: 1, c1: 3")
    result = inspect_puzzle(puzzle)
    assert result.unique is False and result.givens is not None
    assert "second solution" in result.givens.skipped and not result.givens.findings


def test_inspect_takes_a_node_rule_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    spec = tmp_path / "t.yaml"
    spec.write_text("trailkit: 1\nkind: tour\nclosed: false\n"
                    "board: {size: [3, 3], moves: orthogonal}\nat: {a1: 1, c1: 3, c3: 9}\n")
    assert main(["inspect", str(spec), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "solvable" and data["unique"] is True
    assert {g["node"] for g in data["givens"]["essential"]} | \
        {g["node"] for g in data["givens"]["redundant"]} == {"a1", "c1", "c3"}
    assert data["measures"]["deduced"] == 6 and data["measures"]["rating"] == "easy"
    assert main(["inspect", str(spec)]) == 0
    text = capsys.readouterr().out
    assert "essential:" in text and "cells reasoning alone fills" in text


def test_inspect_out_writes_each_redundant_given_for_check_certificate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    monkeypatch.setattr(node_inspection, "REFUTE_BUDGET_S", 120.0)
    spec = tmp_path / "t.yaml"
    spec.write_text("trailkit: 1\nkind: tour\nclosed: false\n"
                    "board: {size: [3, 3], moves: orthogonal}\n"
                    "at: {a1: 1, b1: 2, c1: 3, c3: 9}  # the givens\n")
    out = tmp_path / "out"
    assert main(["inspect", str(spec), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "no file" in said  # a board's edges are no inline list
    names = sorted(p.name for p in out.iterdir())
    assert "without-given-b1.yaml" in names and "without-given-b1.json" in names
    written = (out / "without-given-b1.yaml").read_text()
    assert "at: {a1: 1, c1: 3, c3: 9}" in written
    for name in names:
        if name.endswith(".yaml"):
            pair = [str(out / name), str(out / name.replace(".yaml", ".json"))]
            assert main(["check-certificate", *pair]) == 0, name
    capsys.readouterr()
    edited = tmp_path / "edited.yaml"  # c3 no longer given: two solutions
    edited.write_text(written.replace(", c3: 9", ""))
    assert main(["check-certificate", str(edited), str(out / "without-given-b1.json")]) != 0


def test_a_refutation_out_of_budget_blames_the_budget_not_a_time_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_inspection, "REFUTE_BUDGET_S", 0.1)  # no --time-limit given
    puzzle = load_spec_text(Path(__file__).resolve().parents[4].joinpath(
        "docs", "examples", "numbrix.yaml").read_text())
    result = inspect_puzzle(puzzle)
    for claim in (*result.claims, *(g.claim for g in result.givens.findings if g.claim)
                  ) if result.givens else result.claims:
        assert claim.checked or ("inspect gives refutations were spent" in claim.why
                                 and "time limit was reached" not in claim.why), claim.why
