"""``design tour --moves arrows`` (issue 44 item 2): Signpost puzzles. Each designed
spec is read back; its edges are exactly the rays of its arrows (every one-way, all of
a cell's along one of the 8 queen directions, the whole ray, none from the last cell);
the brute-force oracle of ``tests/node_oracle.py`` finds one path through its givens,
the designed one, whose first and last cells are given; every registered backend
solves it to that path.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest
from node_oracle import given_paths

from trailkit.models.answer import Status
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli.app import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.tour_arrows import arrow_edges, rays

CELL = {f"{chr(ord('a') + c)}{r + 1}": (c, r) for c in range(26) for r in range(26)}


def design(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str
           ) -> tuple[int, dict, Path]:
    out = tmp_path / "signpost.yaml"
    code = main(["design", "tour", "--moves", "arrows", *args, "--out", str(out),
                 "--json"])
    text, _ = capsys.readouterr()
    return code, json.loads(text), out


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def assert_edges_are_rays(p: Puzzle, cols: int, rows: int, path: tuple[int, ...]) -> None:
    """Every edge one-way; a cell's out-edges are every cell along one ray from it, the
    ray on which the path's next cell lies; the last cell has none."""
    assert p.directed is not None and all(p.directed)
    out: dict[str, set[str]] = {}
    for e in range(p.num_edges):
        out.setdefault(p.nodes[p.tail[e]], set()).add(p.nodes[p.head[e]])
    names = [p.nodes[v] for v in path]
    assert names[-1] not in out and len(out) == cols * rows - 1
    for here, there in itertools.pairwise(names):
        (c, r), (c2, r2) = CELL[here], CELL[there]
        dc, dr = sign(c2 - c), sign(r2 - r)
        assert (c2 - c) * dr == (r2 - r) * dc  # the next cell is on a queen's ray
        ray, k = set(), 1
        while 0 <= c + k * dc < cols and 0 <= r + k * dr < rows:
            ray.add(next(n for n, x in CELL.items() if x == (c + k * dc, r + k * dr)))
            k += 1
        assert out[here] == ray, here


@pytest.mark.parametrize(("board", "seed"), [("4x4", 0), ("4x4", 3), ("5x4", 1),
                                             ("5x5", 2)])
def test_signposts_have_one_path_by_the_oracle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], board: str, seed: int) -> None:
    code, data, out = design(tmp_path, capsys, "--board", board, "--unique", "--seed",
                             str(seed))
    assert code == 0, data
    assert data["designs"][0]["solutions"] == 1
    puzzle = load_spec(out)
    assert puzzle.kind == "tour" and not puzzle.closed
    assert puzzle.visit is NodeVisit.EVERY_ONCE
    (path,) = given_paths(puzzle)  # the oracle: one path through the givens
    assert puzzle.at[path[0]] == 1 and puzzle.at[path[-1]] == len(path)  # as Tatham's
    assert all(path[q - 1] == v for v, q in puzzle.at.items())
    cols, rows = (int(x) for x in board.split("x"))
    assert_edges_are_rays(puzzle, cols, rows, path)
    assert {n: (x, y) for n, (x, y) in puzzle.layout.items()} == {
        n: (float(c), float(r)) for n, (c, r) in CELL.items() if n in puzzle.layout}
    assert len(puzzle.layout) == cols * rows
    for backend in backend_names():  # every backend finds the one path
        answer = solve(puzzle, backend, crosscheck=None)
        assert answer.status is Status.SOLVED and answer.verified, backend
        assert answer.walk is not None and tuple(answer.walk.nodes) == path, backend
    # the ends stay; every other given is needed: without it two or more paths
    for v in set(puzzle.at) - {path[0], path[-1]}:
        fewer = {u: q for u, q in puzzle.at.items() if u != v}
        assert len(given_paths(dataclasses.replace(puzzle, at=fewer))) >= 2


def test_the_spec_is_written_as_the_docs_say(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, out = design(tmp_path, capsys, "--board", "3x3", "--unique")
    assert code == 0
    text = out.read_text()
    assert 'name: "Designed Signpost (3x3, arrows)"' in text
    assert "board:" not in text and "\nedges: [" in text and "\nlayout: {a1: [0, 0]" in text
    assert "expect: {status: solved, length: 8, solutions: 1}" in text


def test_arrow_edges_are_the_rays() -> None:
    """A path's arrows, cell by cell: the whole ray its next cell lies on."""
    every = rays(4, 3)
    path = [0, 5, 10, 11, 7, 3, 2, 1, 6, 4, 8, 9]  # a1 b2 c3 d3 d2 d1 c1 b1 c2 a2 a3 b3
    edges = arrow_edges(4, 3, path)
    for here, there in itertools.pairwise(path):
        heads = [v for u, v in edges if u == here]
        assert heads in every[here] and there in heads
    assert not [v for u, v in edges if u == path[-1]]
    assert len({u for u, _ in edges}) == 11


@pytest.mark.parametrize("givens", ["0..0", "0..1"])
def test_a_signpost_keeps_its_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   givens: str) -> None:
    code = main(["design", "tour", "--board", "4x4", "--moves", "arrows", "--givens",
                 givens, "--unique", "--out", str(tmp_path / "x.yaml")])
    out, _ = capsys.readouterr()
    assert code == 3
    assert "no design: a Signpost gives its first and last numbers, as Tatham's does: " \
           "--givens needs a MAX of at least 2" in out
    assert not (tmp_path / "x.yaml").exists()
