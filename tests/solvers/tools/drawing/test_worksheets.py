"""Worksheets and signposts (issue 44, ``solvers/tools/drawing/worksheet.py`` and
``signposts.py``): ``draw --out FILE.pdf`` of a tour puzzle on a board prints the board
to write in, its givens and arrows, then with ``--solve`` every cell's number; each PDF
is read back with poppler (its pages, its text, its cells measured on the rendered
page), and the arrows with ``picture_check.py``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from picture_check import (
    SIGNPOST_4X4,
    Picture,
    check_board,
    check_svg,
    node_rules_expect,
    signpost_spec,
)
from picture_check import Expect as PictureExpect

from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.drawing import draw_svg
from trailkit.solvers.tools.drawing.board_picture import board_of
from trailkit.solvers.tools.drawing.worksheet import worksheet_pages

needs_poppler = pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler-utils")

HIDATO = """trailkit: 1
name: Hidato 6 x 6
kind: tour
closed: false
board: {size: [6, 6], moves: king}
at: {a1: 1, d4: 17, f6: 36, b5: 25}
"""
SIGNPOST = signpost_spec(4, 4, SIGNPOST_4X4, (1, 7, 16), "Signpost 4 x 4")


def board_spec(size: int, moves: str = "king") -> str:
    return (f"trailkit: 1\nname: board {size}\nkind: tour\nclosed: false\n"
            f"board: {{size: [{size}, {size}], moves: {moves}}}\nat: {{a1: 1}}\n")


def draw_pdf(tmp_path: Path, spec: str, *extra: str) -> Path:
    pytest.importorskip("cairosvg")
    src, out = tmp_path / "spec.yaml", tmp_path / "sheet.pdf"
    src.write_text(spec, encoding="utf-8")
    assert main(["draw", str(src), "--out", str(out), *extra]) == 0
    return out


def pages_of(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    found = re.search(r"Pages:\s+(\d+)", info)
    assert found
    return int(found.group(1))


def page_text(pdf: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


def numbers_on(pdf: Path, page: int) -> list[int]:
    return [int(w) for w in page_text(pdf, page).split() if w.isdigit()]


def measured_cell_mm(pdf: Path, tmp_path: Path, row_of_cells: int, dpi: int = 144) -> float:
    """The cell's side measured on page 1 rendered in grey: along the middle of one row
    of cells, the dark cells (every second one) start a fixed distance apart."""
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True)
    data = next(tmp_path.glob("page*.pgm")).read_bytes()
    head = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", data)
    assert head
    width, height = int(head.group(1)), int(head.group(2))
    pixels = data[head.end():]
    rows = [pixels[y * width:(y + 1) * width] for y in range(height)]
    dark = [y for y, row in enumerate(rows) if sum(215 <= p <= 225 for p in row) > width / 8]
    bands = [y for y in dark if y - 1 not in dark]  # the first line of each band of cells
    y = bands[row_of_cells] + 6
    starts = [x for x in range(1, width) if 215 <= rows[y][x] <= 225
              and not 215 <= rows[y][x - 1] <= 225]
    assert len(starts) >= 2
    return (starts[-1] - starts[0]) / (2 * (len(starts) - 1)) * 25.4 / dpi


# ------------------------------------------------------------------ the worksheet
@needs_poppler
def test_a_worksheet_is_one_page_with_the_givens_and_the_rule(tmp_path: Path) -> None:
    """No --solve: one page, the title, the rule in a line, the givens and nothing else
    of the tour (the only other numbers are the row numbers and the rule's 1 to 36)."""
    pdf = draw_pdf(tmp_path, HIDATO)
    assert pages_of(pdf) == 1
    text = re.sub(r"\s+", " ", page_text(pdf, 1))
    assert "Hidato 6 x 6" in text
    assert "Write 1 to 36 in the cells, one number in each, so that each number is a " \
           "king's move from the next." in text
    assert set(numbers_on(pdf, 1)) == {1, 17, 25, 36} | set(range(1, 7))
    assert "The rules" not in text  # the worksheet, not the graph's printable page


@needs_poppler
def test_with_solve_the_second_page_has_every_cells_number(tmp_path: Path) -> None:
    pdf = draw_pdf(tmp_path, HIDATO, "--solve")
    assert pages_of(pdf) == 2
    assert "solution" in page_text(pdf, 2)
    assert sorted(n for n in numbers_on(pdf, 2) if n > 6) == list(range(7, 37))
    assert not set(numbers_on(pdf, 1)) - ({1, 17, 25, 36} | set(range(1, 7)))


@needs_poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_10x10_boards_cells_print_at_least_12_mm(tmp_path: Path, paper: str) -> None:
    pdf = draw_pdf(tmp_path, board_spec(10), "--paper", paper)
    mm = measured_cell_mm(pdf, tmp_path, row_of_cells=5)
    assert mm >= 12.0
    assert "mm across" not in page_text(pdf, 1)


@needs_poppler
def test_a_bigger_boards_page_says_how_big_its_cells_are(tmp_path: Path) -> None:
    """A 24 × 24 board's cells cannot be 12 mm on A4: the page says how big they are,
    and that is what they measure."""
    pdf = draw_pdf(tmp_path, board_spec(24, "knight"))
    said = re.search(r"The cells are ([\d.]+) mm across", page_text(pdf, 1))
    assert said and float(said.group(1)) < 12
    assert measured_cell_mm(pdf, tmp_path, row_of_cells=3) == pytest.approx(
        float(said.group(1)), abs=0.3)


@needs_poppler
def test_a_board_puzzle_with_more_rules_keeps_the_printable_pages(tmp_path: Path) -> None:
    """A checkpoint is more than the worksheet's one line says: the ordinary pages, with
    every rule in words."""
    pdf = draw_pdf(tmp_path, board_spec(5) + "via: [c3]\n")
    assert "The rules" in page_text(pdf, 1) and "Pass through c3" in page_text(pdf, 1)


# ------------------------------------------------------------------ signposts
def test_a_signposts_arrows_point_along_their_rays() -> None:
    """The hand-made 4 × 4 Signpost (one-way edges along rays, a layout on the grid) is
    drawn as a board with an arrow in every cell but the last, each along its ray, read
    back by the checker; so are its worksheet pages, with and without the tour."""
    p = load_spec_text(SIGNPOST)
    shape = board_of(p)
    assert shape is not None and (shape.cols, shape.rows) == (4, 4)
    svg = draw_svg(p)
    expect = node_rules_expect(p, PictureExpect())
    assert expect.rays and len(expect.rays) == 15
    assert svg.count('class="signpost"') == 15 + 1  # and one in the legend
    assert check_svg(svg, expect) == []
    from trailkit.solvers.pipeline import solve

    walk = solve(p).walk
    assert walk is not None
    for page, on in zip(worksheet_pages(p, shape, walk, "a4", title="s"), (None, walk),
                        strict=True):
        want = node_rules_expect(p, PictureExpect(
            walk_nodes=None if on is None else [p.nodes[v] for v in on.nodes]))
        assert check_board(Picture(page), want) == []


def test_the_checker_finds_an_arrow_turned_the_wrong_way_or_missing() -> None:
    p = load_spec_text(SIGNPOST)
    svg = draw_svg(p)
    expect = node_rules_expect(p, PictureExpect())
    paths = re.findall(r'<path d="([^"]+)" fill="[^"]+" class="signpost" data-node="(\w+)"',
                       svg)
    (d_a1, _), (d_b1, _) = [x for x in paths if x[1] in ("a1", "d1")]  # right, up
    turned = svg.replace(d_a1, "TMP").replace(d_b1, d_a1).replace("TMP", d_b1)
    found = check_svg(turned, expect)
    assert {rule for rule, _ in found} == {"signpost-direction"}
    assert any("arrow of a1 points" in what for _, what in found)
    missing = re.sub(r'<path d="[^"]+" fill="[^"]+" class="signpost" data-node="c2"[^>]*/>',
                     "", svg)
    assert check_svg(missing, expect) == [("signpost-direction", "no arrow in c2")]


@needs_poppler
def test_a_signpost_worksheet_says_the_arrow_rule(tmp_path: Path) -> None:
    pdf = draw_pdf(tmp_path, SIGNPOST, "--solve")
    assert pages_of(pdf) == 2
    text = re.sub(r"\s+", " ", page_text(pdf, 1))
    assert "each cell's arrow points the way to the next number" in text
    assert sorted(n for n in numbers_on(pdf, 2) if n > 4) == list(range(5, 17))


def test_a_cell_with_a_two_way_edge_or_two_rays_gets_no_arrow() -> None:
    """The arrow shows only what the edges say: a two-way edge out of a cell, or one-way
    edges in two directions, leave it without one."""
    spec = SIGNPOST.replace("a1 -> b1", "a1 -> b2").replace("d1 -> d2", "d1 d2")
    p = load_spec_text(spec)
    svg = draw_svg(p)
    drawn = set(re.findall(r'class="signpost" data-node="(\w+)"', svg))
    assert "a1" not in drawn and "d1" not in drawn and "d2" not in drawn
    assert check_svg(svg, node_rules_expect(p, PictureExpect())) == []


def test_a_layout_off_the_grid_is_no_board() -> None:
    """Chess names alone are not a board: the layout must put each cell where its name
    says (any one unit), else the puzzle is drawn as a graph."""
    p = load_spec_text(SIGNPOST)
    assert board_of(p) is not None
    scaled = load_spec_text(re.sub(r"\[(\d), (\d)\]",
                                   lambda m: f"[{2 * int(m[1])}, {2 * int(m[2])}]", SIGNPOST))
    assert board_of(scaled) is not None
    moved = load_spec_text(SIGNPOST.replace("a1: [0, 0]", "a1: [0, 1.5]"))
    assert board_of(moved) is None


@needs_poppler
def test_a_wide_board_turns_the_sheet_and_the_rule_says_the_ring_and_holes(
        tmp_path: Path) -> None:
    """A closed knight's tour of 16 × 8 with a hole: the sheet turned sideways (its
    cells bigger so), and the one line says the tour closes and the hole stays empty."""
    spec = ("trailkit: 1\nname: wide\nkind: tour\nboard: {size: [16, 8], moves: knight}\n"
            "avoid: [h4]\nat: {a1: 1}\n")
    pdf = draw_pdf(tmp_path, spec)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    assert "841.875 x 595.275" in info  # A4 landscape
    text = re.sub(r"\s+", " ", page_text(pdf, 1))
    assert "Write 1 to 127" in text and "and 127 leads back to 1." in text
    assert "The dashed cells are holes: leave them empty." in text


def test_a_trail_on_chess_names_stays_a_graph() -> None:
    """Only a puzzle of positions (visit: every-once or at-most-once) is drawn as a board
    from its layout; a trail over the same cells is about its edges, drawn as a graph."""
    trail = load_spec_text(SIGNPOST.replace("kind: tour\nclosed: false\n", "kind: trail\n")
                           .replace("at: {a1: 1, c2: 7, a2: 16}\n", ""))
    assert board_of(trail) is None
    assert 'class="board"' not in draw_svg(trail)
