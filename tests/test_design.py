"""``trailkit inspect`` and ``trailkit design`` (issue 34) against oracles that know no
solver's tricks: each plank taken away and the puzzle searched again by brute force
(:func:`oracles.reusable_shortest`, a breadth-first search over (place, colour) states
that counts shortest walks; :func:`oracles.brute_trail_exists` for one-stroke
figures)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from oracles import brute_trail_exists, reusable_shortest, walk_puzzles

from trailkit.models.checking.certificates import check_certificate
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli.app import main
from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

ROOT = Path(__file__).resolve().parent.parent
RESTORED = ROOT / "specs/tyre-puzzle/restored.yaml"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def dropped(p: Puzzle, e: int) -> Puzzle:
    """``p`` without edge ``e``, built here from the parallel arrays (not by trailkit)."""
    keep = [i for i in range(p.num_edges) if i != e]
    pick = lambda values: None if values is None else [values[i] for i in keep]  # noqa: E731
    return replace(p, tail=pick(p.tail), head=pick(p.head), directed=pick(p.directed),
                   colour=pick(p.colour), edge_ids=pick(p.edge_ids), edge_arrays={})


def assert_matches_removal_oracle(p: Puzzle) -> None:
    """inspect's critical and costly edges are exactly those whose removal makes the
    brute-force search find no walk, or a longer one; every critical edge's
    certificate is accepted by the checker for the puzzle without it."""
    result = inspect_puzzle(p)
    length, walks = reusable_shortest(p)
    if length is None:
        assert result.status is InspectStatus.UNSOLVABLE
        return
    assert result.status is InspectStatus.SOLVABLE
    assert result.measures["shortest_length"] == length
    assert result.measures["shortest_walks"] == walks
    assert result.unique is (walks == 1)
    without = {e: reusable_shortest(dropped(p, e))[0] for e in range(p.num_edges)}
    assert {f.edge for f in result.critical} == {e for e, n in without.items() if n is None}
    assert {(f.edge, f.length_without) for f in result.costly} == {
        (e, n) for e, n in without.items() if n is not None and n > length}
    for f in result.critical:
        assert f.checked and f.certificate is not None
        assert check_certificate(dropped(p, f.edge), f.certificate) == []


def test_the_restored_tyre_puzzle_cannot_lose_plank_aa_ab() -> None:
    p = load_spec(RESTORED)
    assert_matches_removal_oracle(p)
    result = inspect_puzzle(p)
    critical = {(p.nodes[p.tail[f.edge]], p.nodes[p.head[f.edge]]) for f in result.critical}
    assert ("AA", "AB") in critical
    assert result.unique is True and result.measures["traps"] >= 0


@settings(deadline=None)
@given(walk_puzzles(use=EdgeUse.ANY, max_nodes=4, max_edges=6, closed=False))
def test_critical_and_costly_edges_match_taking_each_away(p: Puzzle) -> None:
    assert_matches_removal_oracle(p)


@pytest.mark.parametrize("name", ["nikolaus.yaml", "one-way-streets.yaml",
                                  "nikolaus-crossing.yaml"])
def test_one_stroke_critical_lines_match_brute_force(name: str) -> None:
    p = load_spec(ROOT / "specs" / name)
    result = inspect_puzzle(p)
    assert result.status is InspectStatus.SOLVABLE
    expected = {e for e in range(p.num_edges) if not brute_trail_exists(dropped(p, e))}
    assert {f.edge for f in result.critical} == expected
    assert all(f.checked for f in result.critical)
    assert result.measures["solutions"] >= 1


def test_inspect_command_exit_codes_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["inspect", str(RESTORED), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "trailkit-inspect/1" and data["status"] == "solvable"
    aa_ab = [c for c in data["critical"] if {c["from"], c["to"]} == {"AA", "AB"}]
    assert aa_ab and aa_ab[0]["checked"] is True and aa_ab[0]["colour"] == "green"
    assert all("length_without" in c for c in data["costly"])
    assert data["unique"] is True and data["measures"]["shortest_length"] == 25
    code, out, _ = run(["inspect", str(ROOT / "specs/koenigsberg.yaml")], capsys)
    assert code == 1 and "unsolvable" in out
    code, out, _ = run(["inspect", str(ROOT / "specs/tyre-puzzle/original.yaml"), "--json"],
                       capsys)
    assert code == 1 and json.loads(out)["status"] == "unsolvable"
