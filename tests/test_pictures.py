"""Pictures you can trust (issue 33): the picture checker (``picture_check.py``) finds
each kind of violation, and trailkit's pictures have none, on the corpus and on the
failures a new user met."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from picture_check import ROOT, Expect, Item, check_svg, complete_graph, corpus, draw_item

from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.drawing import Emphasis, draw_svg

TRIANGLE = "trailkit: 1\nkind: trail\nedges: [a b, b c, c a]\n"


def rules(found: list[tuple[str, str]]) -> set[str]:
    return {rule for rule, _ in found}


def triangle() -> tuple[str, Expect]:
    p = load_spec_text(TRIANGLE)
    a = solve(p)
    return draw_svg(p, a), Expect(walk_edges=list(a.walk.edges),
                                  walk_nodes=[p.nodes[v] for v in a.walk.nodes])


def test_the_checker_passes_a_clean_picture_and_reads_every_step() -> None:
    svg, expect = triangle()
    assert check_svg(svg, expect) == []
    wrong = Expect(walk_edges=expect.walk_edges[::-1], walk_nodes=expect.walk_nodes)
    assert "step-order" in rules(check_svg(svg, wrong))


def test_the_checker_finds_a_badge_moved_onto_a_node() -> None:
    svg, _ = triangle()
    node = re.search(r'class="tyre"', svg)
    assert node
    cx, cy = re.search(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="[\d.]+" fill="#FFFFFF" '
                       r'stroke="#1A1A1A" stroke-width="2" class="tyre"', svg).groups()
    badge = re.search(r'(<g class="badge"><circle )cx="([-\d.]+)" cy="([-\d.]+)"', svg)
    moved = svg.replace(badge.group(0), f'{badge.group(1)}cx="{cx}" cy="{cy}"', 1)
    assert "badge-hidden" in rules(check_svg(moved))


def test_the_checker_finds_a_mark_off_its_edge_and_a_step_numbered_twice() -> None:
    svg, _ = triangle()
    plank = re.search(r'<path d="([^"]+)"[^>]*class="plank"', svg).group(1)
    halo = (f'<g class="repair added" data-change="add" data-edge="1"><path d="{plank}"/>'
            '</g>')
    marked = svg.replace('<g class="edges">', halo + '<g class="edges">')
    assert "mark-off-edge" in rules(check_svg(marked))  # edge 0's path, named edge 1
    assert "mark-off-edge" in rules(check_svg(marked, Expect(changes=[("add", 0)])))
    twice = svg.replace('data-step="2"', 'data-step="1"')
    assert "step-order" in rules(check_svg(twice))


def test_the_checker_finds_an_inspect_mark_off_its_edge() -> None:
    """A ``data-inspect`` mark drawn along edge 0's path but naming edge 1 is caught."""
    svg, _ = triangle()
    plank = re.search(r'<path d="([^"]+)"[^>]*class="plank"', svg).group(1)
    halo = (f'<g class="inspect critical" data-inspect="critical" data-edge="1">'
            f'<path d="{plank}"/></g>')
    marked = svg.replace('<g class="edges">', halo + '<g class="edges">')
    assert "mark-off-edge" in rules(check_svg(marked))
    on_edge = marked.replace('data-inspect="critical" data-edge="1"',
                             'data-inspect="critical" data-edge="0"')
    assert "mark-off-edge" not in rules(check_svg(on_edge))


def test_the_checker_finds_an_edge_through_a_node() -> None:
    p = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c, a c]\n"
                       "layout: {a: [0, 0], b: [1, 0], c: [2, 0]}\n")
    svg = draw_svg(p)
    assert check_svg(svg) == []  # drawn bent around b
    centre = {name: re.search(rf'data-node="{name}"><circle cx="([-\d.]+)" cy="([-\d.]+)"',
                              svg).groups() for name in "ac"}
    straight = "M{} {}L{} {}".format(*centre["a"], *centre["c"])
    bent = re.search(r'data-edge="2".*?<path d="([^"]+)"', svg).group(1)
    found = check_svg(svg.replace(bent, straight))
    assert ("edge-through-node", "edge 2 (a-c) through node b") in found


# ------------------------------------------------ the failures a new user met
def test_k5_circuit_numbers_are_all_visible() -> None:
    """K5's circuit: steps 6-8 sat under other steps' lines at the crossing."""
    item = Item("complete graphs", "K5", complete_graph(5, closed=True), "solve")
    assert check_svg(*draw_item(item)) == []


def test_badges_on_parallel_edges_are_not_under_arrowheads() -> None:
    """``generate trail --size 6 --seed 3 --solvable yes``: badges 5 and 8 on the two
    parallel e-b edges were hidden under their arrowheads."""
    from trailkit.solvers.tools.generate import generate

    item = Item("generated trails", "trail 6 seed 3", generate("trail", 6, 3, "yes").text,
                "solve")
    svg, expect = draw_item(item)
    assert check_svg(svg, expect) == []
    twins = [e for e in expect.walk_edges if {"e", "b"} == set(
        re.search(rf'data-edge="{e}" data-from="(\w+)" data-to="(\w+)"', svg).groups())]
    assert len(twins) == 2  # the two parallel e-b edges are walked, each with its badge


STAR = """trailkit: 1
name: a small colour walk
kind: colour-walk
colours: [red, blue]
start: S
goal: T
layout: {S: [0, 0], A: [0.588, 0.809], B: [-0.588, 0.809], C: [0.951, -0.309],
         D: [-0.951, -0.309], T: [0, -1]}
edges: [S A red, A C blue, C T red, S B blue, S C red, S D blue]
"""


def test_the_start_tag_never_covers_the_first_badge() -> None:
    """A small colour walk whose start has edges all round: the ``start`` tag took the
    one free gap and covered badge 1 on the edge beside it."""
    assert check_svg(*draw_item(Item("colour walks", "star", STAR, "solve"))) == []


def test_a_plank_from_start_to_goal_is_drawn_around_the_tyres_between() -> None:
    """The tyre puzzle with a plank A-T added (start to goal): it was drawn straight
    through the tyres between, its badge over a tyre's name; now it bends around them
    and every rule holds, the added mark on the added edge."""
    from trailkit.solvers.tools.repair.changes import Change, Op, apply_changes

    puzzle = load_spec(ROOT / "specs" / "tyre-puzzle" / "original.yaml")
    changes = [Change(Op.ADD, "A", "T", "red")]
    fixed = apply_changes(puzzle, changes)
    answer = solve(fixed)
    added = fixed.num_edges - 1
    assert added in answer.walk.edges  # the walk uses the new plank
    svg = draw_svg(fixed, answer, emphasis=Emphasis.from_changes(changes))
    expect = Expect(walk_edges=list(answer.walk.edges),
                    walk_nodes=[fixed.nodes[v] for v in answer.walk.nodes],
                    changes=[("add", added)])
    assert check_svg(svg, expect) == []


def test_the_repair_halo_is_on_the_bridge_the_answer_names() -> None:
    """Königsberg repaired: the halo on the added third A-B bridge, not a twin (fixed
    before this issue; the checker now asks it of every repair in the corpus)."""
    spec = (ROOT / "specs" / "koenigsberg.yaml").read_text(encoding="utf-8")
    svg, expect = draw_item(Item("bundled specs", "koenigsberg", spec, "repair"))
    assert expect.changes == [("add", 7)]
    assert check_svg(svg, expect) == []


# ------------------------------------------------------------------ corpus
def test_a_sample_of_the_corpus_has_no_violations() -> None:
    """Three seeds of each generated part, the complete graphs and the bundled specs'
    walks: the quick part of the corpus test."""
    found = {}
    for item in corpus(3):
        if item.part == "bundled specs" and item.mode in ("puzzle", "repair"):
            continue
        violations = check_svg(*draw_item(item))
        if violations:
            found[item.name] = violations
    assert found == {}


@pytest.mark.slow
def test_the_corpus_has_no_violations() -> None:
    """Issue 33's corpus, 30 seeds of each generated part (about 200 pictures, half a
    minute): no violation of any rule."""
    found = {}
    for item in corpus(30):
        violations = check_svg(*draw_item(item))
        if violations:
            found[item.name] = violations
    assert found == {}


# ------------------------------------------------------------------ PDF pages
def _pdf_text(path: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler-utils")
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_printable_pdf_is_the_puzzle_then_its_walk(tmp_path: Path, paper: str) -> None:
    """``draw --solve --out FILE.pdf``: page 1 the puzzle and its rules in words with no
    answer, page 2 the walk; vector text with the fonts embedded, the paper asked for,
    and it renders back to PNG pages."""
    pytest.importorskip("cairosvg")
    from trailkit.solvers.frontends.cli import main

    out = tmp_path / "tyre.pdf"
    assert main(["draw", str(ROOT / "specs" / "tyre-puzzle" / "restored.yaml"), "--solve",
                 "--out", str(out), "--paper", paper]) == 0
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"Pages:\s+2\b", info)
    size = {"a4": "595.2", "letter": "612 x 792"}[paper]
    assert size in info
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert fonts and all(" yes " in line for line in fonts)  # every font embedded
    first, second = _pdf_text(out, 1), _pdf_text(out, 2)
    assert "The rules" in first and "Start at A." in first and "End at T." in first
    assert "red → blue → green" in first
    assert "25 steps" not in first and "25 steps" in second  # the answer on page 2 only
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(out), str(tmp_path / "page")],
                   check=True)
    assert sorted(p.name for p in tmp_path.glob("page*.png")) == ["page-1.png", "page-2.png"]


def test_pdf_without_cairosvg_names_the_extra(tmp_path: Path, monkeypatch, capsys) -> None:
    """Without CairoSVG the command says which extra to install, exit 2, no traceback."""
    import sys

    from trailkit.solvers.frontends.cli import main

    monkeypatch.setitem(sys.modules, "cairosvg", None)
    monkeypatch.setitem(sys.modules, "cairosvg.parser", None)
    out = tmp_path / "n.pdf"
    assert main(["draw", str(ROOT / "specs" / "nikolaus.yaml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "trailkit[pdf]" in err and "Traceback" not in err
    assert not out.exists()


def test_paper_is_for_pdf_only(tmp_path: Path, capsys) -> None:
    from trailkit.solvers.frontends.cli import main

    assert main(["draw", str(ROOT / "specs" / "nikolaus.yaml"), "--out",
                 str(tmp_path / "n.svg"), "--paper", "a4"]) == 2
    assert "--paper applies to a .pdf" in capsys.readouterr().err


def test_a_figure_too_dense_even_drawn_bigger_says_so() -> None:
    """Thirty parallel a-b edges: the picture grows to its largest size and, still too
    dense to number every step clearly, says so under the title (nothing silently
    hidden); twelve fit once it is drawn a little bigger, without that note."""
    def svg_of(k: int) -> str:
        p = load_spec_text("trailkit: 1\nkind: trail\nedges: [" + ", ".join(["a b"] * k)
                           + ", b c, c a]\nlayout: {a: [0, 0], b: [1, 0], c: [0.5, 0.3]}\n")
        return draw_svg(p, solve(p))

    few, many = svg_of(12), svg_of(30)
    assert "Too dense" not in few and check_svg(few) == []
    assert "Too dense to show every step number clearly" in re.sub(r"\s+", " ", many)


def test_draw_inspect_marks_the_critical_plank_and_no_other(tmp_path: Path, capsys) -> None:
    """`draw --inspect` on the restored tyre puzzle: plank AA-AB (critical, as `inspect
    --json` says) carries a data-inspect="critical" mark on its own edge; no edge that
    `inspect` does not call critical is marked so, and every mark lies on its edge."""
    import json

    from trailkit.solvers.frontends.cli import main

    spec = str(ROOT / "specs" / "tyre-puzzle" / "restored.yaml")
    assert main(["inspect", spec, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    critical = {c["edge"] for c in found["critical"]}
    costly = {c["edge"] for c in found["costly"]}
    aa_ab = next(c["edge"] for c in found["critical"] if {c["from"], c["to"]} == {"AA", "AB"})
    out = tmp_path / "inspect.svg"
    assert main(["draw", spec, "--inspect", "--out", str(out)]) == 0
    svg = out.read_text()
    drawn = {(m.group(1), int(m.group(2))) for m in
             re.finditer(r'data-inspect="(\w+)" data-edge="(\d+)"', svg)}
    assert ("critical", aa_ab) in drawn
    assert {e for k, e in drawn if k == "critical"} == critical
    assert {e for k, e in drawn if k == "costly"} == costly
    assert not check_svg(svg)
