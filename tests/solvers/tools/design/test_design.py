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

from trailkit.models.answer import Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli.app import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.inspection import InspectStatus, inspect_puzzle

ROOT = Path(__file__).resolve().parents[4]
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


# ------------------------------------------------------------------- design
def design(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str,
           name: str = "d.yaml") -> tuple[int, str, str, Path]:
    out = tmp_path / name
    code, text, err = run(["design", "colour-walk", *options, "--out", str(out)], capsys)
    return code, text, err, out


@pytest.fixture(scope="module")
def designed(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Unique designs of at least 8 steps on a 12-tyre field, three seeds."""
    folder = tmp_path_factory.mktemp("designs")
    paths = []
    for seed in range(3):
        out = folder / f"s{seed}.yaml"
        assert main(["design", "colour-walk", "--layout", "hex:3,4", "--min-length", "8",
                     "--unique", "--seed", str(seed), "--out", str(out)]) == 0
        paths.append(out)
    return paths


@pytest.mark.parametrize("backend", backend_names())
def test_designs_are_what_they_claim_for_every_backend(designed: list[Path],
                                                        backend: str) -> None:
    for path in designed:
        p = load_spec(path)
        length, walks = reusable_shortest(p)
        assert length is not None and length >= 8 and walks == 1
        assert p.expect == {"status": "solved", "length": length, "solutions": 1}
        assert p.layout is not None and len(p.layout) == 12
        answer = solve(p, backend, crosscheck=None)
        assert answer.status is Status.SOLVED and answer.verified
        assert answer.length == length


def test_robust_designs_lose_no_plank(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err, out = design(tmp_path, capsys, "--layout", "hex:3,4", "--min-length", "8",
                               "--robust", "--seed", "3")
    assert code == 0, err
    p = load_spec(out)
    assert all(reusable_shortest(dropped(p, e))[0] is not None for e in range(p.num_edges))
    assert "robust" in out.read_text()


def test_count_makes_different_designs(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err, _ = design(tmp_path, capsys, "--layout", "hex:3,4", "--min-length", "6",
                             "--count", "2", "--json")
    assert code == 0, err
    one, two = (tmp_path / "d-1.yaml").read_text(), (tmp_path / "d-2.yaml").read_text()
    edges = [t.split("edges:")[1] for t in (one, two)]
    assert edges[0] != edges[1]


def test_impossible_targets_end_in_exit_3_and_no_design(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _, out = design(tmp_path, capsys, "--layout", "hex:1,7", "--min-length", "50",
                                "--unique")
    assert code == 3 and "no colouring can have a shortest walk of 50 steps" in text
    assert not out.exists()
    code, text, _, out = design(tmp_path, capsys, "--layout", "hex:2,4", "--min-length", "20",
                                "--unique", "--time-limit", "0.3")
    assert code == 3 and "no design met the targets" in text and not out.exists()
    code, text, _, out = design(tmp_path, capsys, "--layout", "hex:2,4", "--min-length", "20",
                                "--unique", "--time-limit", "0.3", "--best-effort")
    assert code == 3 and "does NOT meet" in text
    assert "NOT MET" in out.read_text() and "not at least 20" in out.read_text()


@pytest.mark.parametrize(("options", "words"), [
    (["--layout", "hex:5"], "write hex:ROWS,COLS"),
    (["--layout", "square:2,2"], "write hex:ROWS,COLS"),
    (["--layout", "hex:2,3", "--start", "A", "--goal", "A"], "the same node"),
    (["--layout", "hex:2,3", "--start", "Z"], "no node of the field"),
    (["--layout", "hex:2,3", "--thin", "2"], "--thin"),
    (["--layout", "hex:2,3", "--min-length", "5", "--max-length", "3"], "--max-length"),
    (["--layout", "hex:2,3", "--colours", "red"], "--colours"),
    (["--from", "specs/colour-revisit.yaml"], "no layout"),
])
def test_bad_design_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   options: list[str], words: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err, out = design(tmp_path, capsys, *options)
    assert code == 2 and words in err and "Traceback" not in err
    assert not out.exists()


def test_from_keeps_the_specs_tyres_ends_and_plank_places(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err, out = design(tmp_path, capsys, "--from", str(RESTORED), "--min-length",
                               "25", "--unique")
    assert code == 0, err
    old, new = load_spec(RESTORED), load_spec(out)
    assert (new.nodes[min(new.start)], new.nodes[min(new.end)]) == ("A", "T")
    pairs = {frozenset((p.nodes[u], p.nodes[v])) for p in (old,)
             for u, v in zip(p.tail, p.head, strict=True)}
    assert {frozenset((new.nodes[u], new.nodes[v]))
            for u, v in zip(new.tail, new.head, strict=True)} == pairs
    length, walks = reusable_shortest(new)
    assert length is not None and length >= 25 and walks == 1


def test_inspect_out_of_time_is_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["inspect", str(ROOT / "specs/nikolaus.yaml"), "--time-limit",
                        "0.000001", "--json"], capsys)
    data = json.loads(out)
    assert code == 3 and data["status"] == "unknown"
    if "critical" in data:  # solved, then stopped at the edges: what it found, partial
        assert data["partial"] is True and data["edges_looked_at"] < data["edges_to_look_at"]


# ------------------------------------------------------------------ design trail
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_design_trail_figures_have_a_count_in_range_by_brute_force(
        seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each designed figure, read back, has a number of one-stroke drawings within the
    range asked, counted again by plain enumeration of every walk (oracles), equal to
    its expect: block; the figures differ; the output says what the count rests on."""
    from oracles import solution_oracle

    out = tmp_path / "fig.yaml"
    code, text, _ = run(["design", "trail", "--layout", "grid:3,3", "--solutions", "8..40",
                         "--seed", str(seed), "--count", "2", "--out", str(out)], capsys)
    assert code == 0, text
    assert "(count: best-formula certificate accepted by the independent checker)" in text
    figures = []
    for i in (1, 2):
        spec = tmp_path / f"fig-{i}.yaml"
        puzzle = load_spec(spec)
        _, solutions = solution_oracle(puzzle)
        assert 8 <= solutions <= 40
        assert puzzle.expect is not None and puzzle.expect["solutions"] == solutions
        assert "solutions certified by the count claim" in spec.read_text()
        figures.append(sorted(zip(puzzle.tail, puzzle.head, strict=True)))
    assert figures[0] != figures[1]


def test_design_trail_range_no_figure_reaches_exits_3(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An odd count is impossible (a drawing reversed is another): exit 3 at once; a
    range beyond a small grid's figures: exit 3 when the time runs out; no file."""
    out = tmp_path / "fig.yaml"
    code, text, _ = run(["design", "trail", "--layout", "grid:2,2", "--solutions", "3..3",
                         "--out", str(out)], capsys)
    assert code == 3 and "every count is even" in text
    code, text, _ = run(["design", "trail", "--layout", "grid:2,2", "--solutions",
                         "1000..2000", "--time-limit", "0.5", "--out", str(out)], capsys)
    assert code == 3 and "before the time ran out" in text
    assert not out.exists()


@pytest.mark.parametrize("bad", [["--solutions", "5..2"], ["--solutions", "0..4"],
                                 ["--solutions", "many"], ["--layout", "hex:3,3"],
                                 ["--count", "0"]])
def test_design_trail_bad_options_exit_2(bad: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Each bad option: exit 2, the error naming the option (what to write)."""
    args = ["design", "trail", "--layout", "grid:3,3", "--out", str(tmp_path / "f.yaml")]
    for i in range(0, len(bad), 2):
        if bad[i] in args:
            args[args.index(bad[i]) + 1] = bad[i + 1]
        else:
            args += bad[i:i + 2]
    code, _, err = run(args, capsys)
    assert code == 2 and bad[0] in err and "Traceback" not in err


def test_design_trail_json_names_the_count_and_its_certificate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--json``: trailkit-design/1 (validated against its schema by conftest), kind
    trail, the figure's solutions equal to its file's expect: block."""
    out = tmp_path / "fig.yaml"
    code, text, _ = run(["design", "trail", "--layout", "grid:2,3", "--solutions", "4..30",
                         "--json", "--out", str(out)], capsys)
    found = json.loads(text)
    assert code == 0 and found["kind"] == "trail" and found["status"] == "designed"
    design = found["designs"][0]
    assert design["solutions"] == load_spec(out).expect["solutions"]  # type: ignore[index]
    assert 4 <= design["solutions"] <= 30
    assert design["claims"][0].startswith(f"certified: {design['solutions']} one-stroke")
    assert design["certificates"] == [{"claim": "count", "certificate": "best-formula",
                                       "checked": True}]


def test_the_best_effort_that_is_not_robust_is_written_saying_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``design colour-walk --layout grid:3,4 --robust --min-length 12 --best-effort``
    was exit 4 ("the design search found no critical plank, but ..."): the best design
    found, not promised robust, had its planks checked as if it were. It is written,
    exit 3, naming the planks it cannot lose."""
    out = tmp_path / "best.yaml"
    code, said, err = run(["design", "colour-walk", "--layout", "grid:3,4", "--robust",
                           "--min-length", "12", "--time-limit", "3", "--best-effort",
                           "--out", str(out)], capsys)
    assert code == 3, (said, err)
    assert "INCONSISTENCY" not in err and out.exists()
    assert "does NOT meet the targets" in said
    text = out.read_text()
    assert "# NOT MET (best found when the time ran out): not robust: without edge" in text
    puzzle = load_spec(out)
    assert solve(puzzle).status is Status.SOLVED
