"""TSPLIB's Hamiltonian cycle files (``models/formats/hcp.py``): ``import hcp`` reads them
as FHCP and TSPLIB ship them, locates every mistake, and ``export --format hcp`` writes
them back, graph for graph (CONTRACT 1.4 §7)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import yaml

from trailkit.models.errors import SpecError, TrailkitError
from trailkit.models.formats.hcp import hcp_refusal, hcp_text, import_hcp, parse_hcp
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.spec import KINDS, load_spec_text
from trailkit.solvers.frontends.cli.app import main

# As the FHCP challenge set writes its files: spaces around the colons, a leading space
# before each pair, the -1 and EOF at the end.
FHCP_STYLE = """NAME : graph1
COMMENT : Hamiltonian cycle problem (Erbacci)
TYPE : HCP
DIMENSION : 6
EDGE_DATA_FORMAT : EDGE_LIST
EDGE_DATA_SECTION
 1 2
 2 3
 3 4
 4 5
 5 6
 6 1
 1 4
-1
EOF
"""

JOINED = "the new kind is read by nodes-lang's spec reader: joined at the merge"
needs_tour_kind = pytest.mark.skipif("tour" not in KINDS, reason=JOINED)


def write(tmp_path: Path, text: str, name: str = "g.hcp") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def spec_of(text: str) -> dict[str, object]:
    spec = yaml.safe_load(text)
    assert isinstance(spec, dict)
    return spec


def tour_puzzle(n: int, edges: list[tuple[int, int]], **rules: object) -> Puzzle:
    """The tour an imported file describes, built as the spec reader builds a ``kind:
    tour`` (nodes "1".."n" in order)."""
    names = [str(k) for k in range(1, n + 1)]
    base: dict[str, object] = {"use": EdgeUse.AT_MOST_ONCE, "visit": NodeVisit.EVERY_ONCE,
                               "closed": True}
    base.update(rules)
    return Puzzle.build(kind="tour", nodes=names, edges=[(str(u), str(v)) for u, v in edges],
                        **base)


def puzzle_from_import(text: str) -> Puzzle:
    spec = spec_of(text)
    edges = [tuple(map(int, str(e).split())) for e in spec["edges"]]  # type: ignore[attr-defined]
    return tour_puzzle(len(spec["nodes"]), edges,  # type: ignore[arg-type]
                       name=spec["name"], description=spec.get("description"))


def test_an_fhcp_file_becomes_a_tour_spec_named_by_its_numbers(tmp_path: Path) -> None:
    text, warnings = import_hcp(write(tmp_path, FHCP_STYLE))
    spec = spec_of(text)
    assert warnings == []
    assert spec["kind"] == "tour" and spec["name"] == "graph1"
    assert spec["nodes"] == ["1", "2", "3", "4", "5", "6"]
    assert spec["edges"] == ["1 2", "2 3", "3 4", "4 5", "5 6", "6 1", "1 4"]
    assert spec["description"] == "Hamiltonian cycle problem (Erbacci)"
    assert "# Imported from g.hcp by trailkit import hcp" in text
    assert set(spec) == {"trailkit", "name", "description", "kind", "nodes", "edges"}


def test_a_node_without_edges_is_still_a_node(tmp_path: Path) -> None:
    """DIMENSION counts the nodes: one no edge touches makes the tour impossible, so it
    must not be lost."""
    text = FHCP_STYLE.replace("DIMENSION : 6", "DIMENSION : 7")
    assert spec_of(import_hcp(write(tmp_path, text))[0])["nodes"][-1] == "7"  # type: ignore[index]


@pytest.mark.parametrize("ending", ["-1\nEOF\n", "-1\n", "EOF\n", "", "-1", " -1 \n\nEOF"])
def test_a_missing_minus_one_or_eof_is_accepted(ending: str, tmp_path: Path) -> None:
    text = FHCP_STYLE.split("-1\n")[0] + ending
    assert parse_hcp(text, "g.hcp").edges == parse_hcp(FHCP_STYLE, "g.hcp").edges


def test_pairs_may_share_a_line_and_keys_may_lack_spaces() -> None:
    text = ("NAME:x\nTYPE:HCP\nDIMENSION:4\nEDGE_DATA_FORMAT:EDGE_LIST\nEDGE_DATA_SECTION\n"
            "1 2 2 3\n3 4 4 1 -1\n")
    assert parse_hcp(text, "x.hcp").edges == [(1, 2), (2, 3), (3, 4), (4, 1)]


BAD = [  # (what the good file says, what the bad one says instead, the message)
    ("TYPE : HCP", "TYPE : TSP", "g.hcp:3:8: error: TYPE is 'TSP'"),
    ("DIMENSION : 6", "DIMENSION : six", "g.hcp:4:13: error: DIMENSION must be"),
    ("DIMENSION : 6", "DIMENSION : 0", "g.hcp:4:13: error: DIMENSION must be"),
    ("EDGE_DATA_FORMAT : EDGE_LIST", "EDGE_DATA_FORMAT : ADJ_LIST",
     "g.hcp:5:20: error: EDGE_DATA_FORMAT is 'ADJ_LIST'"),
    ("DIMENSION : 6", "DIMENSON : 6", "g.hcp:4:1: error: unknown keyword 'DIMENSON' "
                                       "(did you mean 'DIMENSION'?)"),
    ("TYPE : HCP", "TYPE : HCP\nTYPE : HCP", "g.hcp:4:1: error: TYPE is given twice"),
    ("TYPE : HCP", "just words", "g.hcp:3:1: error: expected 'KEY : VALUE'"),
    (" 6 1", " 7 1", "g.hcp:12:2: error: node 7 is outside 1..6"),
    (" 6 1", " 0 1", "g.hcp:12:2: error: node 0 is outside 1..6"),
    (" 6 1", " 6 x", "g.hcp:12:4: error: expected a node number, found 'x'"),
    (" 1 4\n-1", " 1 4\n 5\n-1", "g.hcp:14:2: error: node 5 has no partner"),
    ("-1\nEOF", "-1\n 2 3\nEOF", "g.hcp:15:2: error: '2' after the -1"),
]


@pytest.mark.parametrize(("good", "bad", "message"), BAD)
def test_every_mistake_is_located_and_says_what_to_write(good: str, bad: str, message: str,
                                                          tmp_path: Path) -> None:
    text = FHCP_STYLE.replace(good, bad, 1)
    assert text != FHCP_STYLE
    with pytest.raises(SpecError) as caught:
        import_hcp(write(tmp_path, text))
    said = str(caught.value).replace(f"{tmp_path}/", "")
    assert said.startswith(message), said


@pytest.mark.parametrize(("drop", "message"), [
    ("TYPE : HCP\n", "no TYPE before the edges"),
    ("DIMENSION : 6\n", "no DIMENSION before the edges"),
    ("EDGE_DATA_SECTION\n", "expected 'KEY : VALUE'"),
])
def test_a_missing_header_line_is_named(drop: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=message):
        import_hcp(write(tmp_path, FHCP_STYLE.replace(drop, "", 1)))


def test_a_file_without_edges_section_says_where_they_go(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="no EDGE_DATA_SECTION"):
        import_hcp(write(tmp_path, FHCP_STYLE.split("EDGE_DATA_SECTION")[0]))


def test_a_file_that_is_not_text_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "g.hcp"
    path.write_bytes(b"NAME : \xff\xfe\n")
    with pytest.raises(SpecError, match=r"g\.hcp"):
        import_hcp(str(path))
    with pytest.raises(SpecError, match="cannot read the file"):
        import_hcp(str(tmp_path))


def test_repeated_edges_and_loops_are_kept_and_reported(tmp_path: Path) -> None:
    text = FHCP_STYLE.replace(" 1 4\n", " 1 4\n 4 1\n 3 3\n")
    spec_text, warnings = import_hcp(write(tmp_path, text))
    assert spec_of(spec_text)["edges"][-2:] == ["4 1", "3 3"]  # type: ignore[index]
    assert any("1 edge(s) listed twice" in w for w in warnings)
    assert any("1 loop(s)" in w for w in warnings)


# ------------------------------------------------------------------ round trips
def random_hcp(seed: int) -> str:
    rng = random.Random(seed)
    n = rng.randint(3, 30)
    pairs = [p for p in itertools.combinations(range(1, n + 1), 2) if rng.random() < 0.3]
    lines = [f"NAME : r{seed}", "TYPE : HCP", f"DIMENSION : {n}",
             "EDGE_DATA_FORMAT : EDGE_LIST", "EDGE_DATA_SECTION"]
    lines += [f"{u} {v}" if rng.random() < 0.5 else f"{v} {u}" for u, v in pairs]
    return "\n".join([*lines, "-1", "EOF"]) + "\n"


@pytest.mark.parametrize("seed", range(20))
def test_a_file_imported_and_exported_is_the_same_graph(seed: int, tmp_path: Path) -> None:
    original = random_hcp(seed)
    text, _ = import_hcp(write(tmp_path, original))
    back = hcp_text(puzzle_from_import(text))
    first, second = parse_hcp(original, "a.hcp"), parse_hcp(back, "b.hcp")
    assert (second.name, second.dimension, second.edges) == (
        first.name, first.dimension, first.edges)
    # and once more: the exported file is a fixed point
    again, _ = import_hcp(write(tmp_path, back, "b.hcp"))
    assert hcp_text(puzzle_from_import(again)) == back


def test_a_tour_with_named_nodes_is_numbered_in_its_order() -> None:
    cube = Puzzle.build(kind="tour", edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")],
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True,
                        name="square", description="four\ncorners")
    text = hcp_text(cube)
    assert text.splitlines()[:6] == ["NAME : square", "COMMENT : four corners", "TYPE : HCP",
                                     "DIMENSION : 4", "EDGE_DATA_FORMAT : EDGE_LIST",
                                     "EDGE_DATA_SECTION"]
    assert parse_hcp(text, "s.hcp").edges == [(1, 2), (2, 3), (3, 4), (4, 1)]


@pytest.mark.parametrize(("rules", "why"), [
    ({"via": ["2"]}, "'via:' (2)"),
    ({"avoid": ["3"]}, "'avoid:' (3)"),
    ({"at": {"1": 1}}, "'at:' (1)"),
    ({"directed": [True, False, False]}, "one-way edges"),
    ({"closed": False}, "closed tour"),
    ({"visit": NodeVisit.AT_MOST_ONCE}, "closed tour"),
    ({"use": EdgeUse.EXACTLY_ONCE}, "use: exactly-once"),
])
def test_what_an_hcp_file_cannot_say_is_refused_saying_why(rules: dict[str, object],
                                                          why: str) -> None:
    puzzle = tour_puzzle(3, [(1, 2), (2, 3), (3, 1)], **rules)
    assert why in (hcp_refusal(puzzle) or "")
    with pytest.raises(TrailkitError, match="cannot export as hcp"):
        hcp_text(puzzle)
    assert hcp_refusal(tour_puzzle(3, [(1, 2), (2, 3), (3, 1)])) is None


# ------------------------------------------------------------------ the command line
def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_import_hcp_prints_the_spec_or_writes_it_never_over_a_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, FHCP_STYLE)
    code, out, _ = run(["import", "hcp", source], capsys)
    assert code == 0 and spec_of(out)["kind"] == "tour"
    target = tmp_path / "g.yaml"
    assert run(["import", "hcp", source, "--out", str(target), "--name", "six"], capsys)[0] == 0
    assert spec_of(target.read_text(encoding="utf-8"))["name"] == "six"
    code, _, err = run(["import", "hcp", source, "--out", str(target)], capsys)
    assert code == 2 and "--force" in err
    assert run(["import", "hcp", source, "--out", str(target), "--force"], capsys)[0] == 0
    code, _, err = run(["import", "hcp", source, "--out", source, "--force"], capsys)
    assert code == 2 and Path(source).read_text(encoding="utf-8") == FHCP_STYLE


def test_import_hcp_of_a_bad_file_exits_2_with_the_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, FHCP_STYLE.replace(" 5 6", " 5 9"))
    code, out, err = run(["import", "hcp", source], capsys)
    assert code == 2 and out == ""
    assert f"{source}:11:4: error: node 9 is outside 1..6" in err
    assert "Traceback" not in err


def test_export_hcp_of_a_spec_that_is_no_tour_exits_2_saying_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["export", "specs/nikolaus.yaml", "--format", "hcp"], capsys)
    assert code == 2 and out == ""
    assert "cannot export as hcp" in err and "closed tour" in err


@needs_tour_kind
def test_the_imported_spec_loads_as_the_tour_it_describes(tmp_path: Path) -> None:
    text, _ = import_hcp(write(tmp_path, FHCP_STYLE))
    puzzle = load_spec_text(text)
    assert puzzle.nodes == tuple(str(k) for k in range(1, 7)) and puzzle.num_edges == 7
    assert (puzzle.visit, puzzle.closed, puzzle.use) == (
        NodeVisit.EVERY_ONCE, True, EdgeUse.AT_MOST_ONCE)
    assert parse_hcp(hcp_text(puzzle), "o.hcp").edges == parse_hcp(FHCP_STYLE, "i.hcp").edges


@needs_tour_kind
def test_import_then_export_on_the_command_line_round_trips(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, random_hcp(7))
    spec = tmp_path / "r.yaml"
    assert run(["import", "hcp", source, "--out", str(spec)], capsys)[0] == 0
    code, out, _ = run(["export", str(spec), "--format", "hcp"], capsys)
    assert code == 0
    assert parse_hcp(out, "o.hcp").edges == parse_hcp(random_hcp(7), "i.hcp").edges
