"""Pictures: the SVG is valid XML and shows what it claims (every edge, every node label,
the walk's steps in order, certificates, repairs, domino tiles), read back by meaning."""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from trailkit.models.answer import Certificate
from trailkit.models.palette import palette
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.drawing import EdgeMark, Emphasis, draw_svg
from trailkit.solvers.tools.drawing.layout import count_crossings, node_positions

ROOT = Path(__file__).resolve().parents[4]
SVG = "{http://www.w3.org/2000/svg}"
TYRE = ROOT / "specs" / "tyre-puzzle"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list holds ``cls``."""
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def node_labels(root: ET.Element) -> list[str]:
    return [g.find(f"{SVG}text[@class='label']").text for g in groups(root, "node")]


# ------------------------------------------------------------------ tyre walk
@pytest.fixture(scope="module")
def tyre_walk() -> tuple[Puzzle, object, ET.Element]:
    puzzle = load_spec(TYRE / "restored.yaml")
    answer = solve(puzzle)
    return puzzle, answer, parse(draw_svg(puzzle, answer))


def test_tyre_walk_has_every_plank_node_and_step(tyre_walk) -> None:
    puzzle, answer, root = tyre_walk
    assert root.tag == f"{SVG}svg" and len(root.get("viewBox").split()) == 4
    edges = groups(root, "edge")
    assert sorted(int(g.get("data-edge")) for g in edges) == list(range(puzzle.num_edges))
    for g in edges:  # every plank in its colour
        e = int(g.get("data-edge"))
        assert g.get("data-colour") == puzzle.colour_name(e)
        assert g.find(f"{SVG}path[@class='plank']").get("stroke") == \
            palette(list(puzzle.colour_names))[puzzle.colour_name(e)].hex
    assert sorted(node_labels(root)) == sorted(puzzle.nodes)
    steps = groups(root, "step")
    assert [int(s.get("data-step")) for s in steps] == list(range(1, len(answer.walk) + 1))
    walk_names = [puzzle.nodes[v] for v in answer.walk.nodes]
    assert [s.get("data-from") for s in steps] + [steps[-1].get("data-to")] == walk_names
    for s, e in zip(steps, answer.walk.edges, strict=True):
        assert int(s.get("data-edge")) == e
        pointer = s.find(f".//{SVG}g[@class='badge']/{SVG}path[@class='arrow pointer']")
        assert pointer is not None  # the step's arrow is on its badge
        assert s.find(f".//{SVG}g[@class='badge']/{SVG}text").text == s.get("data-step")


def test_tyre_walk_revisits_are_rings_and_start_goal_are_marked(tyre_walk) -> None:
    puzzle, answer, root = tyre_walk
    visits = Counter(puzzle.nodes[v] for v in answer.walk.nodes)
    for g in groups(root, "node"):
        rings = len(groups(g, "revisit"))
        assert rings == max(0, visits[g.get("data-node")] - 1)
    assert visits["Z"] == 2  # the author's example: Z is stood on twice
    tags = {t.get("data-node"): t.get("data-tag") for t in groups(root, "tag")}
    assert tags == {"A": "start", "T": "goal"}


def test_tyre_nodes_are_at_their_real_positions(tyre_walk) -> None:
    puzzle, _, root = tyre_walk
    centre = {g.get("data-node"): (float(g.find(f"{SVG}circle[@class='tyre']").get("cx")),
                                   float(g.find(f"{SVG}circle[@class='tyre']").get("cy")))
              for g in groups(root, "node")}
    ax, ay = centre["A"]
    for name in ("E", "T", "AL"):  # same offsets as in the spec, up to one scale, y flipped
        (x0, y0), (x1, y1) = puzzle.layout["A"], puzzle.layout[name]
        assert centre[name][0] - ax == pytest.approx((x1 - x0) * 50, abs=0.05)
        assert centre[name][1] - ay == pytest.approx(-(y1 - y0) * 50, abs=0.05)


def test_legend_names_every_colour_with_a_pattern(tyre_walk) -> None:
    _, _, root = tyre_walk
    texts = [g.get("data-text") for g in groups(root, "legend-item")]
    assert {"red (R)", "blue (B)", "green (G)"} <= set(texts)
    dashes = {g.get("data-colour"): g.find(f"{SVG}path[@class='plank']").get(
        "stroke-dasharray") for g in groups(root, "edge")}
    assert len(set(dashes.values())) == 3  # solid, dashed, dotted: apart in greyscale too


# -------------------------------------------------------------- certificates
def test_closed_set_greys_unreached_tyres_and_marks_phases() -> None:
    puzzle = load_spec(TYRE / "original.yaml")
    cert = solve(puzzle).certificate
    assert cert.kind == "closed-set"
    root = parse(draw_svg(puzzle, certificate=cert))
    reached: dict[str, set[str]] = {}
    for node, phase in cert.data["states"]:
        reached.setdefault(node, set()).update([] if phase is None else [phase])
    unreached = {g.get("data-node") for g in groups(root, "unreached")}
    assert unreached == set(puzzle.nodes) - set(reached) and "T" in unreached
    for g in groups(root, "phases"):
        marks = {m.get("data-phase") for m in groups(g, "phase")}
        assert marks == reached[g.get("data-node")]


def test_parity_rings_the_odd_nodes() -> None:
    puzzle = load_spec(ROOT / "specs" / "koenigsberg.yaml")
    cert = solve(puzzle).certificate
    root = parse(draw_svg(puzzle, certificate=cert))
    assert {g.get("data-node") for g in groups(root, "odd")} == set(cert.data["nodes"])
    assert root.get("data-layout") == "layout: stress majorization (automatic)"


def test_disconnected_shades_the_two_pieces_apart() -> None:
    puzzle = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c, c a, x y]\n")
    cert = solve(puzzle).certificate
    assert cert.kind == "disconnected"
    root = parse(draw_svg(puzzle, certificate=cert))
    pieces = sorted(set(g.get("data-nodes").split()) for g in groups(root, "component"))
    assert sorted(map(sorted, pieces)) == [["a", "b", "c"], ["x", "y"]]
    fills = {g.get("fill") for g in groups(root, "component")}
    assert len(fills) == 2


# ------------------------------------------------------------------- repairs
def test_repair_emphasis_marks_added_recoloured_and_removed_edges() -> None:
    puzzle = load_spec(TYRE / "restored.yaml")
    emphasis = Emphasis.from_changes([
        {"op": "add", "from": "AB", "to": "AA", "colour": "green"},
        {"op": "recolour", "from": "A", "to": "E", "colour": "red", "old_colour": "blue"},
        {"op": "remove", "from": "B", "to": "C", "colour": "blue"},
    ], note="one plank restored")
    root = parse(draw_svg(puzzle, solve(puzzle), emphasis=emphasis))
    added = groups(root, "added")
    assert len(added) == 1
    e = int(added[0].get("data-edge"))
    assert {puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]} == {"AA", "AB"}
    assert puzzle.colour_name(e) == "green"
    recoloured = groups(root, "recoloured")
    assert [g.get("data-label") for g in recoloured] == ["was blue"]
    callouts = {g.get("data-for"): g.find(f"{SVG}text").text for g in groups(root, "callout")}
    assert callouts == {"added": "added", "recoloured": "was blue", "removed": "removed"}
    removed = groups(root, "removed")
    assert [(g.get("data-from"), g.get("data-to")) for g in removed] == [("B", "C")]
    assert any(t.text == "one plank restored" for t in groups(root, "note"))


def test_repair_changes_are_checked() -> None:
    with pytest.raises(Exception, match="unknown repair change"):
        Emphasis.from_changes([{"op": "paint", "from": "a", "to": "b"}])
    mark = EdgeMark("a", "b", "red")
    assert mark.matches("b", "a", "red") and not mark.matches("a", "b", "blue")


# ------------------------------------------------------------------ dominoes
def test_domino_ring_is_tiles_with_pips_in_walk_order() -> None:
    puzzle = load_spec(ROOT / "specs" / "dominoes" / "double-six.yaml")
    answer = solve(puzzle)
    root = parse(draw_svg(puzzle, answer))
    tiles = groups(root, "domino")
    assert len(tiles) == 28 and groups(root, "ring")
    pips = [t.get("data-pips").split("|") for t in tiles]
    for (_, right), (left, _) in zip(pips, pips[1:] + pips[:1], strict=True):
        assert right == left  # each tile matches the next, round the ring
    doubles = [t for t in tiles if t.get("data-double")]
    assert len(doubles) == 7
    for t in doubles:  # laid across: the tile group is turned a further 90 degrees
        assert "rotate(90)" in ET.tostring(t, encoding="unicode")
    six_six = next(t for t in tiles if t.get("data-pips") == "6|6")
    assert len(six_six.findall(f".//{SVG}circle")) == 12


def test_domino_set_without_walk_and_text_faces() -> None:
    puzzle = load_spec_text("trailkit: 1\nkind: domino-chain\ndominoes: ['10|1', '1|x']\n")
    root = parse(draw_svg(puzzle))
    assert [t.get("data-pips") for t in groups(root, "domino")] == ["10|1", "1|x"]
    assert {t.text for t in root.iter(f"{SVG}text")} >= {"10", "x"}


# --------------------------------------------------------------- one stroke
def test_nikolaus_stroke_order_and_escaped_names() -> None:
    puzzle = load_spec(ROOT / "specs" / "nikolaus.yaml")
    answer = solve(puzzle)
    root = parse(draw_svg(puzzle, answer))
    assert len(groups(root, "step")) == 8 == puzzle.num_edges
    odd = Puzzle.build(kind="trail", edges=[("<a>", "b&c"), ("b&c", '"q"')])
    assert sorted(node_labels(parse(draw_svg(odd, solve(odd))))) == sorted(odd.nodes)


# --------------------------------------------------------------- automatic layout
@pytest.mark.parametrize("name", ["cube", "prism", "dodecahedron", "octahedron", "grid"])
def test_automatic_layout_draws_planar_figures_without_crossings(name: str) -> None:
    nx = pytest.importorskip("networkx")
    graph = {"cube": nx.hypercube_graph(3), "prism": nx.circular_ladder_graph(5),
             "dodecahedron": nx.dodecahedral_graph(), "octahedron": nx.octahedral_graph(),
             "grid": nx.grid_2d_graph(4, 5)}[name]
    graph = nx.convert_node_labels_to_integers(graph)
    puzzle = Puzzle.build(kind="trail", edges=[(str(u), str(v)) for u, v in graph.edges()])
    xy, method = node_positions(puzzle)
    import numpy as np

    edges = np.array([(u, v) for u, v in zip(puzzle.tail, puzzle.head, strict=True)])
    assert count_crossings(xy, edges) == 0, method


def test_layout_auto_and_partial_layouts_are_computed() -> None:
    auto = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\n")
    assert node_positions(auto)[1].endswith("(automatic)")
    from dataclasses import replace

    partial = replace(auto, layout={"a": (0.0, 0.0)}, meta={"layout": "auto"})
    assert node_positions(partial)[1].endswith("(automatic)")
    assert node_positions(replace(auto, layout={"a": (0, 0), "b": (1, 0), "c": (2, 0)})
                          )[1] == "the spec's layout"


# ------------------------------------------------------------------- sizes
def test_a_big_puzzle_is_simplified_with_a_note() -> None:
    n = 4000
    edges = [(str(i), str((i + 1) % n)) for i in range(n)] * 6  # 24,000 edges
    puzzle = Puzzle(kind="walk", nodes=tuple(str(i) for i in range(n)),
                    tail=[int(u) for u, _ in edges], head=[int(v) for _, v in edges],
                    use=EdgeUse.ANY, objective=Objective.ANY)
    svg = draw_svg(puzzle)
    root = parse(svg)
    assert groups(root, "edges-merged") and not groups(root, "edge")
    assert any("Simplified" in (t.text or "") for t in groups(root, "note"))


def test_colour_blind_palette_keeps_names_apart() -> None:
    paint = palette(["red", "green", "teal", "tomato"])
    assert paint["red"].hex != paint["green"].hex
    assert len({p.letter for p in paint.values()}) == 4
    assert len({p.dash for p in paint.values()}) == 4


def test_a_certificate_without_a_picture_still_draws_the_puzzle() -> None:
    puzzle = Puzzle.build(kind="walk", edges=[("a", "b", "red")],
                          colours=ColourRule.from_cycle(["red"]))
    svg = draw_svg(puzzle, certificate=Certificate("drup", {}, "a DRUP proof"))
    assert "no picture" in svg and len(groups(parse(svg), "edge")) == 1


# --------------------------------------------------------------------- CLI
def test_draw_command_writes_svg_refuses_to_overwrite_and_honours_umask(tmp_path, capsys
                                                                       ) -> None:
    out = tmp_path / "walk.svg"
    old = os.umask(0o022)
    try:
        assert main(["draw", str(TYRE / "restored.yaml"), "--solve", "--out", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert len(groups(parse(out.read_text()), "step")) == 25
    assert main(["draw", str(TYRE / "restored.yaml"), "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["draw", str(TYRE / "restored.yaml"), "--out", str(out), "--force"]) == 0
    assert not groups(parse(out.read_text()), "step")
    assert main(["draw", str(TYRE / "original.yaml"), "--solve", "--out",
                 str(tmp_path / "no.svg")]) == 0  # exit 0 when written, whatever the answer
    assert main(["draw", str(TYRE / "original.yaml"), "--out", str(tmp_path / "x.jpg")]) == 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_draw_certificate_command(tmp_path) -> None:
    out = tmp_path / "why.svg"
    assert main(["draw", str(TYRE / "original.yaml"), "--certificate", "--out", str(out)]) == 0
    assert groups(parse(out.read_text()), "unreached")
    assert re.search(r"none of those places is T", out.read_text())


def test_draw_repair_command_emphasises_the_restored_plank(tmp_path, capsys) -> None:
    out = tmp_path / "repair.svg"
    assert main(["draw", str(TYRE / "original.yaml"), "--repair", "--out", str(out)]) == 0
    root = parse(out.read_text())
    added = groups(root, "added")
    assert [{g.get("data-from"), g.get("data-to")} for g in added] == [{"AA", "AB"}]
    assert [g.get("data-colour") for g in added] == ["green"]
    assert any("green plank AA-AB" in (t.text or "") for t in groups(root, "note")) or \
        "green plank AA-AB" in out.read_text()
    assert len(groups(root, "step")) == 25  # the repaired puzzle's shortest walk
    solvable = tmp_path / "solvable.svg"
    assert main(["draw", str(TYRE / "restored.yaml"), "--repair", "--out", str(solvable)]) == 0
    assert "nothing to repair" in capsys.readouterr().err


def test_draw_repair_makes_no_fewest_changes_proof(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawing shows the repair, never its claim: the ``fewest-changes`` certificate
    (change sets refuted one by one, or a repair formula refuted; seconds on the
    double-nine set) is not made for it."""
    from trailkit.solvers.tools.repair import fewest_certificate

    def made(*args: object, **kwargs: object) -> None:
        raise AssertionError("draw --repair made a fewest-changes certificate")

    monkeypatch.setattr(fewest_certificate, "fewest_claim", made)
    out = tmp_path / "repair.svg"
    assert main(["draw", str(TYRE / "original.yaml"), "--repair", "--out", str(out)]) == 0
    assert [g.get("data-colour") for g in groups(parse(out.read_text()), "added")] == \
        ["green"]


@pytest.mark.parametrize("module", ["__init__", "emphasis", "geometry", "layout",
                                    "placement", "svgtext"])
def test_drawing_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    mod = importlib.import_module(
        f"trailkit.solvers.tools.drawing.{module}".removesuffix(".__init__"))
    assert doctest.testmod(mod).failed == 0


def test_interchange_docstring_examples() -> None:
    import doctest

    pytest.importorskip("networkx")
    from trailkit.solvers.tools import interchange

    assert doctest.testmod(interchange).failed == 0


def test_a_long_walk_on_a_simplified_picture_is_one_line_with_some_numbers() -> None:
    n = 50
    edges = [(str(i), str((i + 1) % n)) for i in range(n)] * 10  # a 500-step ring walk
    puzzle = Puzzle.build(kind="trail", edges=edges, closed=True)
    root = parse(draw_svg(puzzle, solve(puzzle), simplify=True))
    walk = groups(root, "merged")
    assert len(walk) == 1 and not groups(root, "step")
    numbers = [int(b.get("data-step")) for b in groups(root, "badge")]
    assert numbers[0] == 1 and len(numbers) < 500 and numbers == sorted(numbers)
    assert any("drawn as one line" in (t.text or "") for t in groups(root, "note"))


def test_png_of_a_big_puzzle_is_drawn_simplified(tmp_path, monkeypatch) -> None:
    import trailkit.solvers.tools.drawing as drawing
    import trailkit.solvers.tools.drawing.png as png

    seen: list[str] = []
    monkeypatch.setattr(png, "SIMPLIFY_EDGES", 50)
    monkeypatch.setattr(drawing, "render_png", lambda svg: seen.append(svg) or b"png")
    assert main(["draw", str(TYRE / "restored.yaml"), "--out", str(tmp_path / "t.png")]) == 0
    assert "edges-merged" in seen[0] and (tmp_path / "t.png").read_bytes() == b"png"


def test_emphasis_reads_the_repair_librarys_own_changes() -> None:
    """``Emphasis.from_changes(result.repairs[0].changes)``: the library's ``Change``
    objects read the same as their JSON form (adds, recolourings, removals), and are
    placed on the same edges of the repaired puzzle (the JSON names an edge by its id,
    a ``Change`` by its index)."""
    from trailkit.models.repair_rules import RepairRules
    from trailkit.solvers.tools.repair.changes import changes_json
    from trailkit.solvers.tools.repair.fewest_changes import repair

    tyre = load_spec(TYRE / "original.yaml")
    bridges = load_spec(ROOT / "specs" / "koenigsberg.yaml")
    results = [(tyre, repair(tyre, tyre.repair.with_(recolour=True), all_repairs=True)),
               (bridges, repair(bridges, RepairRules(add="none", remove=True)))]
    seen = set()
    for puzzle, result in results:
        for r in result.repairs:
            emphasis = Emphasis.from_changes(r.changes, note="n")
            as_json = Emphasis.from_changes(changes_json(puzzle, r.changes), note="n")
            assert [(p.change, p.edge, p.why) for p in emphasis.place(r.puzzle)] == \
                [(p.change, p.edge, p.why) for p in as_json.place(r.puzzle)]
            assert [dataclasses.replace(m, edge=None) for m in emphasis.removed] == \
                [dataclasses.replace(m, edge=None) for m in as_json.removed]
            assert emphasis.added == as_json.added
            assert not emphasis.is_empty
            seen |= {c.op.value for c in r.changes}
            for mark, change in zip(emphasis.added + emphasis.recoloured + emphasis.removed,
                                    r.changes, strict=True):
                assert {mark.tail, mark.head} == {change.u, change.v}
    assert seen == {"add", "recolour", "remove"}
    recoloured = next(e for _, res in results for r in res.repairs
                      if (e := Emphasis.from_changes(r.changes)).recoloured)
    assert recoloured.recoloured[0].old_colour in ("red", "blue", "green")


# ------------------------------------------------------------------ captions
def notes_text(svg: str) -> str:
    return " ".join(t.text or "" for t in groups(parse(svg), "note"))


@pytest.mark.parametrize(("text", "caption"), [
    (ROOT / "specs" / "dominoes" / "longest-train.yaml", "A longest walk: 7 steps from "),
    (TYRE / "restored.yaml", "A shortest walk: 25 steps from A to T"),
    ("trailkit: 1\nkind: walk\nuse: any\nobjective: any\nedges: [a b, b c]\nstart: a\n"
     "end: c\n", "A walk: 2 steps from a to c"),
    ("trailkit: 1\nkind: walk\nuse: any\nobjective: shortest\nedges: [a b, b c, a c]\n"
     "start: a\nend: c\n", "A shortest walk: 1 step from a to c"),
    ("trailkit: 1\nkind: trail\nedges: [a b]\nstart: a\n", "A walk: 1 step from a to b"),
], ids=["longest", "shortest", "any", "one-step", "trail"])
def test_caption_names_the_objective_and_counts_in_words(text, caption: str) -> None:
    puzzle = load_spec(text) if isinstance(text, Path) else load_spec_text(text)
    svg = draw_svg(puzzle, solve(puzzle))
    assert caption in notes_text(svg)
    assert not re.search(r"\b1 steps\b", svg)


def test_a_long_walk_numbers_every_second_step_in_words() -> None:
    n = 50
    edges = [(str(i), str((i + 1) % n)) for i in range(n)] * 10  # a 500-step ring walk
    puzzle = Puzzle.build(kind="trail", edges=edges, closed=True)
    text = notes_text(draw_svg(puzzle, solve(puzzle), simplify=False))
    assert "Every 2nd step is numbered (500 steps)." in text, text


# ------------------------------------------------- solving an impossible puzzle
def test_draw_solve_of_an_unsolvable_puzzle_draws_its_certificate(tmp_path) -> None:
    out = tmp_path / "k.svg"
    assert main(["draw", str(ROOT / "specs" / "koenigsberg.yaml"), "--solve", "--out",
                 str(out)]) == 0
    svg = out.read_text()
    root = parse(svg)
    assert {g.get("data-node") for g in groups(root, "odd")} == {"A", "B", "C", "D"}
    assert {g.get("data-value") for g in groups(root, "odd")} == {"3", "5"}
    text = notes_text(svg)
    assert text.startswith("No walk exists.") and text.count("odd number of edges") == 1
    tyre = load_spec(TYRE / "original.yaml")  # the library call does the same
    root = parse(draw_svg(tyre, solve(tyre)))
    assert "T" in {g.get("data-node") for g in groups(root, "unreached")}


# ------------------------------------------------------- labels where nothing is
Box = tuple[float, float, float, float]


def label_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """The repair callouts (their yellow boxes), with their text."""
    out = []
    for g in root.iter(f"{SVG}g"):
        rects = [r for r in g.findall(f"{SVG}rect") if r.get("fill") == "#F0E442"]
        texts = g.findall(f"{SVG}text")
        for r in rects:
            x, y = float(r.get("x")), float(r.get("y"))
            out.append((texts[0].text if texts else "", (x, y, x + float(r.get("width")),
                                                         y + float(r.get("height")))))
    return out


def drawn_discs(root: ET.Element) -> list[tuple[str, float, float, float]]:
    """Every node circle (tyre, revisit and goal rings) and every step badge."""
    out = []
    for what in ("node", "badge", "goal-ring"):
        for g in groups(root, what):
            circles = [g] if g.tag == f"{SVG}circle" else g.iter(f"{SVG}circle")
            for c in circles:
                out.append((f"{what} {g.get('data-node') or ''}", float(c.get("cx")),
                            float(c.get("cy")), float(c.get("r")) + 1.0))  # + stroke
    return out


def tag_boxes(root: ET.Element) -> list[Box]:
    out = []
    for g in groups(root, "tag"):
        r = g.find(f"{SVG}rect")
        x, y = float(r.get("x")), float(r.get("y"))
        out.append((x, y, x + float(r.get("width")), y + float(r.get("height"))))
    return out


def hits_disc(box: Box, cx: float, cy: float, r: float) -> bool:
    x0, y0, x1, y1 = box
    dx, dy = cx - min(max(cx, x0), x1), cy - min(max(cy, y0), y1)
    return dx * dx + dy * dy < r * r


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_labels_clear(svg: str, expected: int) -> None:
    root = parse(svg)
    labels = label_boxes(root)
    assert len(labels) == expected, labels
    discs, tags = drawn_discs(root), tag_boxes(root)
    assert discs
    for text, box in labels:
        hit = [what for what, x, y, r in discs if hits_disc(box, x, y, r)]
        assert not hit, f"the {text!r} label lies on {hit}"
        assert not [t for t in tags if overlap(box, t)], f"the {text!r} label lies on a tag"
    for i, (_, a) in enumerate(labels):
        assert not any(overlap(a, b) for _, b in labels[i + 1:]), "two labels overlap"


def test_repair_labels_clear_nodes_and_badges_in_the_commands_pictures(tmp_path) -> None:
    """The new user's two pictures: Königsberg's added bridge (a label among step badges)
    and the tyre puzzle repaired with any new plank (the one that keeps the walk
    longest, B-L, a long plank between tyres; A-T, under three tyres, is in
    ``TYRE_PLANKS`` below)."""
    out = tmp_path / "k.svg"
    assert main(["draw", str(ROOT / "specs" / "koenigsberg.yaml"), "--repair", "--out",
                 str(out)]) == 0
    assert_labels_clear(out.read_text(), 1)
    spec = tmp_path / "tyre-any.yaml"
    spec.write_text((TYRE / "original.yaml").read_text(encoding="utf-8").replace(
        "repair: {add: layout, protect: [T]}", "repair: {add: any}"), encoding="utf-8")
    out = tmp_path / "t.svg"
    assert main(["draw", str(spec), "--repair", "--out", str(out)]) == 0
    assert [{g.get("data-from"), g.get("data-to")} for g in groups(parse(out.read_text()),
                                                                   "added")] == [{"B", "L"}]
    assert_labels_clear(out.read_text(), 1)


TYRE_PLANKS = [("A", "T", "red"), ("A", "Z", "green"), ("B", "W", "red"),
               ("Q", "W", "blue"), ("AI", "A", "green"), ("K", "P", "red"),
               ("E", "AK", "blue"), ("AA", "AB", "green"), ("D", "E", "red"),
               ("X", "AC", "green"), ("F", "AL", "blue"), ("N", "O", "blue")]


@pytest.mark.parametrize(("tail", "head", "colour"), TYRE_PLANKS,
                         ids=[f"{u}-{v}" for u, v, _ in TYRE_PLANKS])
def test_repair_labels_clear_nodes_and_badges_for_any_added_plank(tail: str, head: str,
                                                                  colour: str) -> None:
    """Planks added anywhere in the tyre puzzle (long ones under other tyres, short ones
    among the walk's badges), with a recoloured and a removed plank beside them: every
    label's box keeps off every tyre, ring, badge, tag and other label."""
    from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes

    puzzle = load_spec(TYRE / "original.yaml")
    changes = [Change(Op.ADD, tail, head, colour)]
    if {tail, head} != {"N", "O"}:
        changes.append(Change(Op.RECOLOUR, "N", "O", "blue", "red", next(
            e for e in range(puzzle.num_edges)
            if {puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]} == {"N", "O"})))
    fixed = apply_changes(puzzle, changes)
    removed = Emphasis.from_changes([{"op": "remove", "from": "B", "to": "C",
                                      "colour": "blue"}])
    emphasis = Emphasis.from_changes(changes)
    emphasis = Emphasis(emphasis.added, emphasis.recoloured, removed.removed)
    svg = draw_svg(fixed, solve(fixed), emphasis=emphasis)
    assert_labels_clear(svg, len(changes) + 1)


# ------------------------------------------------- repair marks on parallel edges
def planks_by_edge(root: ET.Element) -> dict[int, str]:
    """Each edge group's ``data-edge`` and the path its plank is drawn along."""
    return {int(g.get("data-edge")): g.find(f"{SVG}path[@class='plank']").get("d")
            for g in groups(root, "edge")}


def change_marks(root: ET.Element) -> list[tuple[str, int, str]]:
    """Each repair mark of an added or recoloured edge: its ``data-change``, its
    ``data-edge`` and the path its halo is drawn along."""
    return [(g.get("data-change"), int(g.get("data-edge")), g.find(f"{SVG}path").get("d"))
            for g in root.iter(f"{SVG}g") if g.get("data-change") in ("add", "recolour")]


def assert_marks_on(root: ET.Element, expected: list[tuple[str, int]]) -> None:
    """The marks name exactly ``expected`` (change, edge) and each is drawn along the
    edge it names, so the picture marks the edges the answer names."""
    marks = change_marks(root)
    assert [(change, e) for change, e, _ in marks] == expected
    planks = planks_by_edge(root)
    for _, e, d in marks:
        assert d == planks[e]
    callouts = {(g.get("data-for"), g.get("data-edge")) for g in groups(root, "callout")}
    assert callouts >= {("added" if c == "add" else "recoloured", str(e))
                        for c, e in expected}


def test_draw_repair_marks_the_added_koenigsberg_bridge_not_its_twin(tmp_path) -> None:
    """The repair adds a bridge beside existing ones, edge 7 (``#7`` in the text walk;
    a second C-D bridge beside the Hohe Brücke when this was found, a third A-B one
    beside the Krämer- and Schmiedebrücke now): the halo and its label are on edge 7's
    curve, not on a twin's."""
    out = tmp_path / "k.svg"
    assert main(["draw", str(ROOT / "specs" / "koenigsberg.yaml"), "--repair",
                 "--out", str(out)]) == 0
    root = parse(out.read_text(encoding="utf-8"))
    curves = planks_by_edge(root)
    twins = [e for e in range(7) if _same_ends(root, e, 7)]
    assert twins and all(curves[e] != curves[7] for e in twins)  # curves apart
    assert_marks_on(root, [("add", 7)])
    steps = {int(s.get("data-edge")) for s in groups(root, "step")}
    assert 7 in steps  # the walk crosses the new bridge the mark is on


def _same_ends(root: object, first: int, second: int) -> bool:
    """Whether Königsberg's edges ``first`` and ``second`` join the same two nodes, in
    the puzzle as its repair leaves it (``root`` unused: the SVG names no ends)."""
    from trailkit.solvers.tools.repair import repair

    fixed = repair(load_spec(ROOT / "specs" / "koenigsberg.yaml")).repairs[0].puzzle
    return {fixed.tail[first], fixed.head[first]} == {fixed.tail[second], fixed.head[second]}


def test_draw_repair_marks_the_added_edge_among_several_parallel_ones(tmp_path) -> None:
    """Three a-b edges and two b-c ones, closed: the repair adds a third b-c edge (5),
    which the mark names and is drawn along, not the first b-c edge (3)."""
    spec = tmp_path / "m.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nclosed: true\n"
                    "edges: [a b, a b, a b, b c, b c, c a]\n", encoding="utf-8")
    out = tmp_path / "m.svg"
    assert main(["draw", str(spec), "--repair", "--out", str(out)]) == 0
    assert_marks_on(parse(out.read_text(encoding="utf-8")), [("add", 6)])


@pytest.mark.parametrize("as_json", [False, True], ids=["objects", "json"])
def test_marks_follow_indices_through_removals_and_recolourings(as_json: bool) -> None:
    """Three a-b planks, one removed, one recoloured blue, one blue added: the repaired
    puzzle has three blue a-b planks, and each mark is on the one its change names
    (the JSON names edges by id, the library's changes by index)."""
    from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes, changes_json

    puzzle = load_spec_text("trailkit: 1\nkind: colour-walk\ncolours: [red, blue]\n"
                            "start: a\ngoal: c\nedges: [a b red, a b blue, a b red, "
                            "b c blue, c a red]\n")
    changes = [Change(Op.REMOVE, "a", "b", "red", "red", 0),
               Change(Op.RECOLOUR, "a", "b", "blue", "red", 2),
               Change(Op.ADD, "a", "b", "blue")]
    fixed = apply_changes(puzzle, changes)
    assert [fixed.colour_name(e) for e in range(fixed.num_edges)][:2] == ["blue", "blue"]
    given = changes_json(puzzle, changes) if as_json else changes
    root = parse(draw_svg(fixed, solve(fixed), emphasis=Emphasis.from_changes(given)))
    assert_marks_on(root, [("add", 4), ("recolour", 1)])
    removed = [g for g in root.iter(f"{SVG}g") if g.get("data-change") == "remove"]
    assert [g.get("data-edge") for g in removed] == ["0"]


def test_a_mark_that_could_be_on_several_edges_is_on_none() -> None:
    """Without an index that fits, a mark whose ends and colour match several edges is
    not guessed onto one of them: a note says so."""
    puzzle = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, a b, b c]\n")
    emphasis = Emphasis(recoloured=(EdgeMark("a", "b"),))
    svg = draw_svg(puzzle, emphasis=emphasis)
    assert change_marks(parse(svg)) == []
    assert "one of 2 alike" in notes_text(svg)
