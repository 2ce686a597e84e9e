"""Explanations: cores against brute force, near misses of colour walks, and the CLI.

The core oracle enumerates every walk that uses each edge at most once (by brute
force, judged by the verifier), so it knows exactly which edge sets some walk can
cover: a set is a core when no walk covers it, and the smallest cores are found by
trying every set up to four edges.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from oracles import once_walks, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.checking.core_certificates import check_odd_nodes, check_witness
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.repair.explanation import explain
from trailkit.solvers.tools.repair.fewest_changes import repair, repair_mismatches

SPECS = Path(__file__).resolve().parents[4] / "specs"


def _covered_sets(p: Puzzle) -> list[frozenset[int]]:
    """The edge sets of every valid walk with edges used at most once (brute force)."""
    return [frozenset(w.edges) for w in once_walks(p)]


def _is_core(covered: list[frozenset[int]], subset: frozenset[int]) -> bool:
    return not any(subset <= c for c in covered)


CORES = costly(0.2, "each example searches unsatisfiable cores with a solver",
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@CORES
@given(st.data())
def test_cores_match_brute_force(data: st.DataObject) -> None:
    use = data.draw(st.sampled_from([EdgeUse.EXACTLY_ONCE, EdgeUse.AT_MOST_ONCE]))
    p = data.draw(walk_puzzles(use, max_nodes=4, max_edges=5))
    found = explain(p)
    covered = _covered_sets(p)
    if use is EdgeUse.EXACTLY_ONCE:
        solvable = frozenset(range(p.num_edges)) in covered
    else:
        solvable = bool(covered)
    assert found.status is (Status.SOLVED if solvable else Status.UNSOLVABLE)
    if solvable:
        return
    core = found.core
    assert core is not None and core.minimal
    members = frozenset(core.edges)
    assert _is_core(covered, members)
    for e, walk in zip(core.edges, core.witnesses, strict=True):
        assert not _is_core(covered, members - {e})  # each member necessary
        assert check_witness(p, walk, members - {e}) == []
    assert core.certificate is not None  # odd-nodes, or the core's formula refuted
    if core.certificate.kind == "odd-nodes":
        assert check_odd_nodes(p, core.edges, core.certificate.data["nodes"]) == []
    smallest = next(size for size in range(0, len(members) + 1)
                    for s in combinations(range(p.num_edges), size)
                    if _is_core(covered, frozenset(s)))
    if core.smallest:
        assert len(members) == smallest
    elif smallest <= 4:
        assert len(members) >= smallest


def test_koenigsberg_core_is_every_bridge_with_odd_nodes() -> None:
    found = explain(load_spec(SPECS / "koenigsberg.yaml"))
    assert found.core is not None and found.core.smallest
    assert len(found.core.edges) == 7
    assert found.core.certificate.data["nodes"] == ["A", "B", "C", "D"]


def test_double_nine_core_is_a_star_of_nine() -> None:
    found = explain(load_spec(SPECS / "dominoes" / "double-nine.yaml"))
    assert found.core is not None and len(found.core.edges) == 9
    assert found.core.certificate is not None


def test_tyre_explanation_names_the_boundary() -> None:
    found = explain(load_spec(SPECS / "tyre-puzzle" / "original.yaml"))
    s = found.situations
    assert s is not None and not s.near_misses
    assert [(c.at, c.colour) for c in s.entries] == [("Z", "red")]
    assert "Z" in s.unreachable and "T" in s.unreachable
    assert ("AA", "Z") in {(c.at, c.to) for c in s.boundary}
    assert "Z is never reached" in found.text


def test_near_miss_is_reported() -> None:
    found = explain(load_spec(SPECS / "colour-walk-dead-end.yaml"))
    assert found.situations is not None
    assert [(c.at, c.phases) for c in found.situations.near_misses] == [("C", ("red",))]


def test_first_is_blamed_when_it_is_first_that_stops_the_walk() -> None:
    """With ``first: blue`` the red plank out of S is refused as a first step: the
    explanation says so, rather than only "this plank may only be taken after green"."""
    from trailkit.models.spec import load_spec_text

    found = explain(load_spec_text("trailkit: 1\nkind: colour-walk\nedges: [S A red, A T blue]"
                                   "\nfirst: blue\nstart: S\ngoal: T\n"))
    assert "'first:' says must be blue" in found.text
    assert "1 (node, last colour) situation." in found.text


def test_an_edge_no_colour_may_precede_is_explained() -> None:
    from trailkit.models.spec import load_spec_text

    found = explain(load_spec_text(
        "trailkit: 1\nkind: colour-walk\nedges: [S A red, A T blue, S B blue]\n"
        "colours: {transitions: {blue: [blue], red: []}}\nfirst: blue\nstart: S\ngoal: T\n"))
    assert "can never be taken" in found.text  # it used to crash (IndexError)


# ------------------------------------------------------------ command line
def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_repair_cli_json_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "repair", str(SPECS / "tyre-puzzle" / "original.yaml"), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["format"] == "trailkit-repair/1"
    assert obj["status"] == "repaired" and obj["changes"] == 1 and obj["minimal"] is True
    (one,) = obj["repairs"]
    assert one["changes"] == [{"op": "add", "from": "AA", "to": "AB", "colour": "green"}]
    assert one["status"] == "solved" and one["length"] == 25 and one["verified"] is True
    code, out = _run(capsys, "repair", str(SPECS / "nikolaus.yaml"), "--json")
    assert code == 0 and json.loads(out)["status"] == "solvable"
    code, out = _run(capsys, "repair", str(SPECS / "koenigsberg.yaml"), "--add", "none",
                     "--json")
    assert code == 1 and json.loads(out)["status"] == "no-repair"
    code, out = _run(capsys, "repair", str(SPECS / "koenigsberg.yaml"), "--protect", "Q")
    assert code == 2


def test_repair_cli_recolour_json_has_old_colour(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "repair", str(SPECS / "tyre-puzzle" / "original.yaml"),
                     "--recolour", "--add", "none", "--json")
    change = json.loads(out)["repairs"][0]["changes"][0]
    assert code == 0 and change["op"] == "recolour"
    assert {"old_colour", "edge", "colour"} <= set(change)


def test_repair_out_writes_a_valid_spec_once(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "repaired.yaml"
    spec = str(SPECS / "tyre-puzzle" / "original.yaml")
    code, _ = _run(capsys, "repair", spec, "--out", str(out))
    assert code == 0
    text = out.read_text()
    assert text.startswith("# Repaired by trailkit repair") and "AA AB green" in text
    fixed = load_spec(out)
    assert fixed.expect == {"status": "solved", "length": 25}
    assert _run(capsys, "solve", str(out))[0] == 0
    assert _run(capsys, "repair", spec, "--out", str(out))[0] == 2
    assert _run(capsys, "repair", spec, "--out", str(out), "--force")[0] == 0
    for name, args in (("k.yaml", ["--remove", "--add", "none"]), ("d.yaml", [])):
        target = tmp_path / name
        source = SPECS / ("koenigsberg.yaml" if name == "k.yaml" else
                          "dominoes/double-nine.yaml")
        assert _run(capsys, "repair", str(source), *args, "--out", str(target))[0] == 0
        assert _run(capsys, "solve", str(target))[0] == 0


def test_colours_and_limits(capsys: pytest.CaptureFixture[str]) -> None:
    tyre = str(SPECS / "tyre-puzzle" / "original.yaml")
    code, out = _run(capsys, "repair", tyre, "--colours", "red,blue", "--json")
    assert code == 1 and json.loads(out)["status"] == "no-repair"  # only green works
    assert _run(capsys, "repair", tyre, "--colours", "teal")[0] == 2
    code, out = _run(capsys, "repair", tyre, "--max-changes", "0", "--json")
    assert code == 1 and json.loads(out)["status"] == "no-repair"
    code, out = _run(capsys, "repair", str(SPECS / "bench" / "hard-alternating-14-no.yaml"),
                     "--time-limit", "0.5", "--json")
    obj = json.loads(out)
    assert (code, obj["status"]) in ((3, "unknown"), (0, "repaired"))
    if code == 0:
        assert obj["repairs"][0]["verified"]


def test_one_stroke_figure_draws_a_line_twice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "repair", str(SPECS / "square-diagonals.yaml"))
    assert code == 0 and "walk that way twice" in out and "the fewest, proven" in out


def test_add_file_of_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    candidates = tmp_path / "planks.txt"
    candidates.write_text("# two guesses\nAA AB green\nA B red\n")
    code, out = _run(capsys, "repair", str(SPECS / "tyre-puzzle" / "original.yaml"),
                     "--add", str(candidates), "--json")
    assert code == 0 and json.loads(out)["candidates"] == 2


def test_explain_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "explain", str(SPECS / "koenigsberg.yaml"), "--json")
    obj = json.loads(out)
    assert code == 1 and obj["format"] == "trailkit-explain/1"
    assert obj["core"]["minimal"] is True and len(obj["core"]["edges"]) == 7
    assert obj["certificate"]["type"] == "parity" and obj["text"]
    code, out = _run(capsys, "explain", str(SPECS / "nikolaus.yaml"))
    assert code == 0 and "solvable" in out


REAL = [p for p in sorted(SPECS.rglob("*.yaml")) if "bench" not in p.parts
        and "repair" in (load_spec(p).expect or {})]


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_bundled_repair_expectations(path: Path) -> None:
    puzzle = load_spec(path)
    result = repair(puzzle, certify=False)  # as lint --expect: the claim is not compared
    assert result.minimal and repair_mismatches(puzzle, result) == []
