"""The workshop on a board (issue 44 item 4), over HTTP and in the library under it: a
click on a cell sets or clears its given or makes it a hole, written into the YAML with
its comments and order kept; Design makes tour puzzles (``design tour``'s own request
reader and words); Solve fills the board's cells with their positions; Inspect of a
board puzzle answers cleanly. The page itself is driven in a browser in
``test_workshop_page.py``."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from node_oracle import given_paths
from workshop_server import Served, start

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.presenter.design_options import TOUR_MOVES
from trailkit.solvers.frontends.workshop.edits import edit_text
from trailkit.solvers.frontends.workshop.warmup import WARM_SECONDS
from trailkit.solvers.support.workers import GRACE_S

httpx = pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parents[4]
NUMBRIX = ROOT / "docs" / "examples" / "numbrix.yaml"
#: A Hidato in block style, with comments everywhere an author puts them.
HIDATO = """trailkit: 1
name: A small Hidato   # king moves
kind: tour
closed: false
board:
  size: [4, 3]
  moves: king
# the givens, as printed
at:
  a1: 1    # the start
  d3: 12   # the end
  b2: 5
# a note at the end
"""


def _cells(text: str) -> tuple[dict[str, int], list[str]]:
    """The givens and holes the text says, read back by the loader."""
    spec = load_spec_text(text)
    return ({spec.nodes[v]: k for v, k in spec.at.items()},
            sorted(spec.nodes[v] for v in spec.avoid))


def _comments(text: str) -> list[str]:
    return [line[line.index("#"):] for line in text.splitlines() if "#" in line]


@pytest.mark.parametrize(("edit", "at", "avoid"), [
    ({"node": "c2", "position": 7}, {"a1": 1, "d3": 12, "b2": 5, "c2": 7}, []),
    ({"node": "b2", "position": 6}, {"a1": 1, "d3": 12, "b2": 6}, []),
    ({"node": "b2", "position": None}, {"a1": 1, "d3": 12}, []),
])
def test_a_given_is_set_changed_or_cleared_in_place(edit: dict, at: dict, avoid: list
                                                    ) -> None:
    out = edit_text(HIDATO, {"kind": "given", **edit})
    assert _cells(out) == (at, avoid)
    assert _comments(out) == _comments(HIDATO)  # every comment kept, in its place
    kept = [line for line in HIDATO.splitlines() if "b2" not in line]
    assert [line for line in out.splitlines() if line in kept] == kept  # order kept


def test_a_new_given_joins_a_block_mapping_in_its_style() -> None:
    out = edit_text(HIDATO, {"kind": "given", "node": "c2", "position": 7})
    assert out == HIDATO.replace("  b2: 5\n", "  b2: 5\n  c2: 7\n", 1)
    changed = edit_text(HIDATO, {"kind": "given", "node": "d3", "position": 11})
    assert changed == HIDATO.replace("d3: 12 ", "d3: 11 ", 1)


def test_holes_come_and_go_and_a_cell_is_never_both() -> None:
    """A hole is written as ``avoid:`` after the board (a new key) or one more item;
    a given cell made a hole loses its given (a cell both in at: and avoid: would not
    load), and a hole given a number is a cell again; the last hole gone takes the key.
    A hole may leave the last given past the last position (the spec does not load):
    the cells can still be edited, and the next click mends it."""
    holed = edit_text(HIDATO, {"kind": "hole", "node": "c1", "hole": True})
    assert holed == HIDATO.replace("  moves: king\n", "  moves: king\navoid: [c1]\n", 1)
    with pytest.raises(TrailkitError, match=r"at\.d3 is position 12"):
        load_spec_text(holed)
    both = edit_text(holed, {"kind": "hole", "node": "b2", "hole": True})
    assert "avoid: [c1, b2]" in both and _comments(both) == _comments(HIDATO)
    assert yaml.safe_load(both)["at"] == {"a1": 1, "d3": 12}
    mended = edit_text(both, {"kind": "given", "node": "d3", "position": 10})
    assert _cells(mended) == ({"a1": 1, "d3": 10}, ["b2", "c1"])
    back = edit_text(both, {"kind": "given", "node": "b2", "position": 4})
    assert yaml.safe_load(back)["avoid"] == ["c1"] and "  b2: 4\n" in back
    assert edit_text(holed, {"kind": "hole", "node": "c1", "hole": False}) == HIDATO
    assert edit_text(HIDATO, {"kind": "hole", "node": "c1", "hole": False}) == HIDATO


def test_a_spec_that_does_not_load_is_edited_only_on_its_boards_cells() -> None:
    broken = HIDATO.replace("kind: tour", "kind: tuor")
    out = edit_text(broken, {"kind": "given", "node": "c2", "position": 7})
    assert out == broken.replace("  b2: 5\n", "  b2: 5\n  c2: 7\n", 1)
    with pytest.raises(TrailkitError, match="'e1' is no cell of the puzzle"):
        edit_text(broken, {"kind": "given", "node": "e1", "position": 7})
    with pytest.raises(TrailkitError, match="has no board: to name its cells"):
        edit_text("trailkit: 1\nkind: tuor\nedges: [a b]\n",
                  {"kind": "given", "node": "a", "position": 1})
    with pytest.raises(TrailkitError, match="not a YAML mapping"):
        edit_text("trailkit: [1\n", {"kind": "hole", "node": "a1", "hole": True})


def test_flow_style_givens_are_edited_in_flow_style() -> None:
    text = NUMBRIX.read_text()
    out = edit_text(text, {"kind": "given", "node": "a1", "position": None})
    assert "at: {a3: 3, e1: 9, c3: 13, a5: 17, e5: 25}\n" in out
    out = edit_text(text, {"kind": "given", "node": "e5", "position": None})
    assert "at: {a1: 1, a3: 3, e1: 9, c3: 13, a5: 17}\n" in out
    out = edit_text(text, {"kind": "given", "node": "b2", "position": 2})
    assert "e5: 25, b2: 2}\n" in out
    assert out.replace(", b2: 2", "", 1) == text


def test_the_last_given_cleared_takes_its_key_and_a_first_one_brings_it() -> None:
    text = "trailkit: 1\nkind: tour\nclosed: false\nboard: {size: [3, 2], moves: king}\n" \
           "at: {a1: 1}  # one\n# end\n"
    cleared = edit_text(text, {"kind": "given", "node": "a1", "position": None})
    assert cleared == text.replace("at: {a1: 1}  # one\n", "", 1)
    again = edit_text(cleared, {"kind": "given", "node": "c2", "position": 6})
    assert again == cleared.replace("king}\n", "king}\nat: {c2: 6}\n", 1)
    assert _cells(again) == ({"c2": 6}, [])


@pytest.mark.parametrize(("edit", "words"), [
    ({"kind": "given", "node": "c2", "position": 5}, "5 is given to b2 already"),
    ({"kind": "given", "node": "c2", "position": 0}, "a whole number from 1, not 0"),
    ({"kind": "given", "node": "c2", "position": "3"}, "a whole number from 1, not '3'"),
    ({"kind": "given", "node": "c2", "position": True}, "a whole number from 1, not True"),
    ({"kind": "given", "node": "z9", "position": 3}, "'z9' is no cell of the puzzle"),
    ({"kind": "hole", "node": "c2", "hole": "yes"}, "'hole': true"),
])
def test_a_bad_cell_edit_is_refused_with_a_message(edit: dict, words: str) -> None:
    with pytest.raises(TrailkitError, match=re.escape(words)):
        edit_text(HIDATO, edit)


# ------------------------------------------------------------------ over HTTP
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("boards")
    shutil.copy(NUMBRIX, folder / "numbrix.yaml")
    server = start(folder)
    yield server
    assert server.stop() == 0


def client(server: Served) -> httpx.Client:
    return httpx.Client(base_url=server.base, cookies={"trailkit_workshop": server.token},
                        timeout=60, headers={"origin": server.base})


def test_a_cell_edit_over_http_comes_back_written_and_analysed(served: Served) -> None:
    text = HIDATO.replace("d3: 12", "d3: 10")
    with client(served) as c:
        out = c.post("/api/edit", json={"text": text, "name": "hidato.yaml", "edit": {
            "kind": "hole", "node": "a1", "hole": True}}).json()
        past = c.post("/api/edit", json={"text": HIDATO, "edit": {
            "kind": "hole", "node": "c1", "hole": True}}).json()
        bad = c.post("/api/edit", json={"text": HIDATO, "edit": {
            "kind": "given", "node": "c2", "position": 12}})
    assert _cells(out["text"]) == ({"d3": 10, "b2": 5}, ["a1"])
    assert _comments(out["text"]) == [c for c in _comments(text) if c != "# the start"]
    assert out["puzzle"]["at"] == {"d3": 10, "b2": 5} and out["puzzle"]["avoid"] == ["a1"]
    assert 'class="cell hole" data-node="a1"' in out["svg"]
    # a hole that leaves the last given past the end: written, and the problem located
    assert "avoid: [c1]" in past["text"] and past["svg"] is None
    assert [(p["line"], p["column"]) for p in past["problems"]] == [(12, 7)]
    assert bad.status_code == 400 and "12 is given to d3 already" in bad.json()["error"]


def test_solve_fills_the_board_with_positions_the_givens_bold(served: Served) -> None:
    text = NUMBRIX.read_text()
    with client(served) as c:
        out = c.post("/api/run", json={"op": "solve", "text": text, "slot": "s"}).json()
    assert out["status"] == "solved" and len(out["steps"]) == 24
    svg = out["svg"]
    assert svg.count('class="position"') == 25
    assert svg.count('data-given="yes"') == 6
    assert 'data-node="a1" data-position="1" data-given="yes"' in svg
    assert svg.count('class="step"') == 24


def test_the_tour_moves_come_from_the_one_request_reader(served: Served) -> None:
    with client(served) as c:
        info = c.get("/api/info").json()
    assert info["tour_moves"] == list(TOUR_MOVES) and "king" in info["tour_moves"]


def test_design_tour_makes_board_puzzles_each_with_one_path(served: Served) -> None:
    """The Design panel's tour: each candidate a board with its givens drawn, its one
    path checked by the tests' own search (every path through the givens listed)."""
    ask = {"kind": "tour", "board": "4x3", "moves": "king", "unique": True, "seed": 3,
           "count": 2}
    with client(served) as c:
        # a fresh install compiles the tour search's kernels on the first design (tens
        # of seconds on a loaded machine, at most WARM_SECONDS): a limit after it, and
        # an answer awaited past both (the client's 60 s was too short under load)
        out = c.post("/api/design", json={"text": "", "design": ask, "slot": "tour-4x3",
                                          "time_limit": 120},
                     timeout=WARM_SECONDS + 120 + GRACE_S + 60).json()
    assert out["status"] == "designed" and len(out["candidates"]) == 2
    assert [d["seed"] for d in out["answer"]["designs"]] == [3, 4]
    assert out["answer"]["kind"] == "tour"
    for cand in out["candidates"]:
        spec = load_spec_text(cand["text"])
        assert spec.meta["board"] == {"cols": 4, "rows": 3, "moves": "king"}
        assert len(given_paths(spec)) == 1 and cand["solutions"] == 1
        assert cand["givens"] == len(spec.at) and cand["cells"] == 12
        assert 'class="board"' in cand["svg"]
        assert cand["svg"].count('data-given="yes"') == len(spec.at)
        assert "--board 4x3 --moves king --unique --seed" in cand["text"]
    assert out["text"].startswith("designed candidate 1 (seed 3"), out["text"]


def test_a_tour_that_cannot_be_made_says_why(served: Served) -> None:
    ask = {"kind": "tour", "board": "3x3", "moves": "king", "givens": "0..0",
           "unique": True}
    with client(served) as c:
        out = c.post("/api/design", json={"text": "", "design": ask, "slot": "tour-3x3"},
                     timeout=WARM_SECONDS + 120).json()
    assert out["status"] == "impossible" and out["candidates"] == []
    assert "backwards" in out["text"], out["text"]


@pytest.mark.parametrize(("design", "words"), [
    ({"kind": "tour", "board": "9"}, "--board 9: write COLSxROWS, e.g. 9x9"),
    ({"kind": "tour", "board": "1x2"}, "--board 1x2: a board of 3 to"),
    ({"kind": "tour", "moves": "queen"}, "--moves queen: one of " + ", ".join(TOUR_MOVES)),
    ({"kind": "tour", "givens": "9..3"}, "--givens 9..3: write MIN..MAX"),
    ({"kind": "tour", "board": "3x3", "givens": "10..12"}, "the board has only 9 cells"),
    ({"kind": "tour", "count": 21}, "--count N: from 1 to 20 candidates"),
    ({"kind": "tour", "symmetric": "yes"}, "--symmetric: true or false, not 'yes'"),
    ({"kind": "tour", "layout": "hex:3,4"},
     "a design request has no field 'layout'; a tour design's fields are board, count,"),
    ({"kind": "sudoku"}, "a design is of kind colour-walk or tour, not 'sudoku'"),
])
def test_a_bad_tour_request_is_a_400_with_the_command_lines_words(
        served: Served, design: dict, words: str) -> None:
    with client(served) as c:
        r = c.post("/api/design", json={"text": "", "design": design, "slot": "bad"})
        info = c.get("/api/info").json()
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert "Traceback" not in r.text and info["runs"]["running"] == 0


def test_inspect_of_a_board_puzzle_answers_in_the_commands_words(served: Served) -> None:
    """Inspect on a node-rule puzzle: what ``trailkit inspect`` says of it, with no
    exception's class name in front (it refused node rules before the node-inspect
    work; either way the page shows the command's own sentence)."""
    text = NUMBRIX.read_text()
    with client(served) as c:
        out = c.post("/api/run", json={"op": "inspect", "text": text, "slot": "i"}).json()
    assert out["op"] == "inspect" and out["text"]
    assert not re.match(r"[A-Z]\w+: ", out["text"]), out["text"]  # no class name
    if out["status"] == "error":  # as `trailkit inspect` says it: "trailkit: error: ..."
        assert out["text"].startswith("error: inspect does not take node rules"), out["text"]
