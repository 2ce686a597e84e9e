"""``design tour`` (CONTRACT 1.4 §7, issue 44): Hidato, Numbrix and knight's-tour
puzzles with givens, each designed puzzle read back and checked against the brute-force
oracle of ``tests/node_oracle.py`` (:func:`node_oracle.given_paths`, which knows no
solver's tricks): the one path through its givens is the designed one.

Also: the direct backend's :func:`tour_walks` (the uniqueness test the design asks)
against the same oracle, seeds that give the same puzzle, and bad options refused with
exit 2 in words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from node_oracle import given_paths

from trailkit.models.answer import Status
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.hamilton import tour_walks
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli.app import main
from trailkit.solvers.pipeline import solve


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def design(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
           name: str = "t.yaml") -> tuple[int, dict, Path]:
    out = tmp_path / name
    code, text, _ = run(["design", "tour", *args, "--out", str(out), "--json"], capsys)
    return code, json.loads(text), out


def givens_of(p: Puzzle) -> dict[int, int]:
    return dict(p.at)


@pytest.mark.parametrize(("board", "moves", "seed"), [
    ("4x4", "king", 0), ("4x4", "king", 5), ("5x5", "king", 1), ("5x5", "orthogonal", 2),
    ("4x5", "orthogonal", 3), ("5x5", "knight", 4)])
def test_unique_designs_have_one_path_by_the_oracle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], board: str, moves: str,
        seed: int) -> None:
    code, data, out = design(tmp_path, capsys, "--board", board, "--moves", moves,
                             "--unique", "--seed", str(seed))
    assert code == 0, data
    entry = data["designs"][0]
    assert data["kind"] == "tour" and entry["solutions"] == 1
    puzzle = load_spec(out)
    assert puzzle.kind == "tour" and not puzzle.closed
    assert puzzle.visit is NodeVisit.EVERY_ONCE
    paths = given_paths(puzzle)
    assert len(paths) == 1  # the oracle: one path through the givens
    (path,) = paths
    assert all(path[q - 1] == v for v, q in givens_of(puzzle).items())  # givens on it
    for backend in backend_names():  # every backend finds the one path
        answer = solve(puzzle, backend, crosscheck=None)
        assert answer.status is Status.SOLVED and answer.verified, backend
        assert answer.walk is not None and tuple(answer.walk.nodes) == path, backend
        assert not verify(puzzle, answer.walk)
    assert entry["measures"]["givens"] == len(puzzle.at)
    # every given was tried (no --givens: as few as one pass leaves): each one left is
    # needed, so without it the oracle finds two or more paths
    assert entry["measures"]["kept_by_limit"] == 0
    for v in list(puzzle.at):
        fewer = {puzzle.nodes[u]: q for u, q in puzzle.at.items() if u != v}
        assert len(given_paths(_with_at(puzzle, fewer))) >= 2


def _with_at(puzzle: Puzzle, at: dict[str, int]) -> Puzzle:
    import dataclasses

    index = {name: i for i, name in enumerate(puzzle.nodes)}
    return dataclasses.replace(puzzle, at={index[n]: q for n, q in at.items()})


def test_the_spec_says_what_uniqueness_rests_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, out = design(tmp_path, capsys, "--board", "4x4", "--moves", "king",
                             "--unique")
    assert code == 0
    text = out.read_text()
    claim = data["designs"][0]["certificates"][0]
    assert claim["claim"] == "unique"
    if claim["checked"]:  # a certificate of node rules' uniqueness, checked
        assert "certified: the path is the only solution" in text.lower()
    else:  # never called certified without the checker's word
        assert "unique: not certified" in text.lower()
        assert "exhaustive tour search" in text and "certified: the path" not in text
    assert "kind: tour" in text and "closed: false" in text
    assert "expect: {status: solved, length: 15, solutions: 1}" in text
    assert "board: {size: [4, 4], moves: king}" in text


@pytest.mark.parametrize(("board", "moves"), [("5x5", "king"), ("4x5", "orthogonal")])
def test_symmetric_givens(tmp_path: Path, capsys: pytest.CaptureFixture[str], board: str,
                          moves: str) -> None:
    code, data, out = design(tmp_path, capsys, "--board", board, "--moves", moves,
                             "--unique", "--symmetric", "--seed", "1")
    assert code == 0, data
    puzzle = load_spec(out)
    names = {puzzle.nodes[v] for v in puzzle.at}
    cols, rows = (int(x) for x in board.split("x"))

    def image(name: str) -> str:
        col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
        return f"{chr(ord('a') + cols - 1 - col)}{rows - row}"

    assert {image(n) for n in names} == names
    assert len(given_paths(puzzle)) == 1
    assert "--symmetric" in out.read_text().splitlines()[2]


def test_givens_range_is_met(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, out = design(tmp_path, capsys, "--board", "5x5", "--moves", "king",
                             "--givens", "8..10", "--unique", "--seed", "3")
    assert code == 0, data
    puzzle = load_spec(out)
    assert 8 <= len(puzzle.at) <= 10
    assert len(given_paths(puzzle)) == 1


def test_without_unique_the_givens_are_on_the_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, out = design(tmp_path, capsys, "--board", "6x6", "--moves", "orthogonal",
                             "--givens", "5..5")
    assert code == 0, data
    puzzle = load_spec(out)
    assert len(puzzle.at) == 5 and data["designs"][0]["solutions"] is None
    assert "solutions" not in out.read_text().split("expect:")[1]
    answer = solve(puzzle)
    assert answer.status is Status.SOLVED and answer.verified


def test_the_same_seed_gives_the_same_puzzle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = []
    for i, seed in enumerate((7, 7, 8)):
        code, _, out = design(tmp_path, capsys, "--board", "5x5", "--moves", "king",
                              "--unique", "--seed", str(seed), name=f"s{i}.yaml")
        assert code == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    assert texts[0] != texts[2]


def test_count_writes_different_puzzles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = design(tmp_path, capsys, "--board", "4x4", "--moves", "king",
                           "--unique", "--count", "2")
    assert code == 0
    files = [d["file"] for d in data["designs"]]
    assert files == [str(tmp_path / "t-1.yaml"), str(tmp_path / "t-2.yaml")]
    one, two = (load_spec(f) for f in files)
    assert given_paths(one) != given_paths(two)


def test_no_givens_and_unique_is_impossible(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["design", "tour", "--board", "4x4", "--moves", "king", "--givens",
                        "0..0", "--unique", "--out", str(tmp_path / "x.yaml")], capsys)
    assert code == 3
    assert "no design: no tour puzzle without givens has one solution: every path walked " \
           "backwards is another" in out
    assert not (tmp_path / "x.yaml").exists()


def test_a_board_without_a_path_is_impossible(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["design", "tour", "--board", "4x4", "--moves", "knight",
                        "--out", str(tmp_path / "x.yaml")], capsys)
    assert code == 3
    assert "no design: the 4x4 board with knight moves has no path through every cell" \
        in out


@pytest.mark.parametrize(("args", "words"), [
    (["--board", "9", "--moves", "king"], "--board 9: write COLSxROWS, e.g. 9x9"),
    (["--board", "1x2", "--moves", "king"], "--board 1x2: a board of 3 to"),
    (["--board", "3x3", "--moves", "king", "--givens", "5..3"],
     "--givens 5..3: write MIN..MAX"),
    (["--board", "3x3", "--moves", "king", "--givens", "10..12"],
     "--givens 10..12: the board has only 9 cells"),
    (["--board", "3x3", "--moves", "queen"], "invalid choice: 'queen'"),
    (["--board", "3x3", "--moves", "king", "--count", "0"], "--count N: from 1 to 1000"),
])
def test_bad_options_exit_2_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     args: list[str], words: str) -> None:
    try:
        code = main(["design", "tour", *args, "--out", str(tmp_path / "x.yaml")])
    except SystemExit as stop:  # argparse's own refusals exit 2 too
        code = stop.code
    assert code == 2
    _, err = capsys.readouterr()
    assert words in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.yaml").exists()


def test_an_existing_out_file_is_kept(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine.yaml"
    out.write_text("mine\n")
    code, _, err = run(["design", "tour", "--board", "3x3", "--moves", "king", "--out",
                        str(out)], capsys)
    assert code == 2 and "--force" in err
    assert out.read_text() == "mine\n"


LINE = [("a", "b"), ("b", "c"), ("c", "d"), ("b", "d")]


@pytest.mark.parametrize("dive", [True, False])
@pytest.mark.parametrize("at", [{}, {"a": 1}, {"c": 2}, {"d": 4}, {"b": 3}])
def test_tour_walks_agrees_with_the_oracle(at: dict[str, int], dive: bool) -> None:
    p = Puzzle.build(edges=LINE, visit=NodeVisit.EVERY_ONCE, use="at-most-once", at=at)
    truth = given_paths(p)
    walks, stopped = tour_walks(p, Limits(), most=10, dive=dive)
    assert not stopped
    assert {tuple(w.nodes) for w in walks} == truth
    assert len(walks) == len(truth)  # each once
    two, _ = tour_walks(p, Limits(), most=2, dive=dive)
    assert len(two) == min(2, len(truth))


@pytest.mark.parametrize("dive", [True, False])
def test_tour_walks_on_a_hidato_agree_with_the_oracle(dive: bool) -> None:
    """On a 4 x 4 king board with givens the distances to each given (the compiled
    breadth-first search) cut only what no path can do: every path the oracle finds."""
    from trailkit.models.spec import load_spec_text

    p = load_spec_text("trailkit: 1\nkind: tour\nclosed: false\n"
                       "board: {size: [4, 4], moves: king}\nat: {a1: 1, d4: 9, a4: 16}\n")
    truth = given_paths(p)
    walks, stopped = tour_walks(p, Limits(), most=10**6, dive=dive)
    assert not stopped and len(truth) > 1
    assert {tuple(int(v) for v in w.nodes) for w in walks} == truth


def test_tour_walks_says_when_a_limit_stopped_it() -> None:
    edges = [(f"{i}", f"{j}") for i in range(9) for j in range(i + 1, 9)]
    p = Puzzle.build(edges=edges, visit=NodeVisit.EVERY_ONCE, use="at-most-once")
    walks, stopped = tour_walks(p, Limits(work_limit=20), most=1000)
    assert stopped and len(walks) < 1000


HIDATO_22 = ("trailkit: 1\nkind: tour\nclosed: false\nboard: {size: [9, 9], moves: king}\n"
             "at: {i2: 1, i1: 2, i8: 11, h7: 16, f9: 18, h5: 23, h4: 24, e1: 28, a2: 33, "
             "a4: 36, d2: 39, g3: 42, b9: 51, a9: 52, b8: 54, d3: 60, f5: 63, c8: 67, "
             "e5: 72, c6: 78, b6: 79, b5: 81}\n")


def test_a_hidato_is_proven_unique_in_few_moves() -> None:
    """A 9 x 9 Hidato with 22 givens (27%): its one path, and no second, within 200,000
    moves of the tour search, now that a cell no gap of numbers can reach cuts the
    search (before, 5,000,000 moves did not decide it)."""
    from trailkit.models.spec import load_spec_text

    p = load_spec_text(HIDATO_22)
    walks, stopped = tour_walks(p, Limits(work_limit=200_000), most=2)
    assert not stopped and len(walks) == 1
    assert not verify(p, walks[0])


def test_the_given_tried_next_leaves_the_narrowest_gap() -> None:
    """Givens are thinned evenly: of the givens at positions 1 2 3 5 9 10 (path of 10
    cells, 0..9), the one at 2 (gap 1..3) goes before 9 (gap 5..10) or 5 (3..9); the
    ends (1, 10) come last whatever their gap; ties keep the pending order."""
    from trailkit.solvers.tools.design.tour_givens import _narrowest

    path = list(range(10))
    at = {0: 1, 1: 2, 2: 3, 4: 5, 8: 9, 9: 10}
    pending = [(8,), (4,), (0,), (1,), (9,)]
    assert pending[_narrowest(pending, at, path)] == (1,)
    assert pending[_narrowest([(8,), (4,), (0,), (9,)], at, path)] == (8,)  # 5..10 < 3..9
    assert _narrowest([(0,), (9,)], at, path) == 0  # ends only: the order decides
