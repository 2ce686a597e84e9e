"""Boards drawn as boards (issue 43, ``solvers/tools/drawing/board_picture.py``): cells in two
shades, a tour's positions written in its cells, givens in bold, avoided cells as holes,
each read back and checked by ``picture_check.py``'s board rules.

The puzzles are built here as the spec reader builds a ``board:`` (chess names, ``a1``
bottom left, ``meta["board"]``), and the tours found by a small search of this file's
own, checked by the node-rule oracle: no solver of node rules is needed.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from node_oracle import obeys_node_rules
from picture_check import NS, Expect, check_svg, chess_cell

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.tools.drawing import GivenMark, InspectMark, InspectView, draw_svg, html_page
from trailkit.solvers.tools.drawing.board_picture import board_of

ROOT = Path(__file__).resolve().parents[4]
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2))
KING = ((1, 0), (0, 1), (1, 1), (1, -1))


def letters(col: int) -> str:
    return chr(ord("a") + col) if col < 26 else letters(col // 26 - 1) + letters(col % 26)


def board(cols: int, rows: int, moves: tuple[tuple[int, int], ...] = KNIGHT,
          name: str = "knight", **rules: object) -> Puzzle:
    cells = [f"{letters(c)}{r + 1}" for r in range(rows) for c in range(cols)]
    edges = [(f"{letters(c)}{r + 1}", f"{letters(c + dc)}{r + dr + 1}")
             for r in range(rows) for c in range(cols) for dc, dr in moves
             if 0 <= c + dc < cols and 0 <= r + dr < rows]
    base: dict[str, object] = {"use": EdgeUse.AT_MOST_ONCE, "visit": NodeVisit.EVERY_ONCE,
                               "closed": True}
    base.update(rules)
    p = Puzzle.build(kind="tour", nodes=cells, edges=edges, name=f"{cols}x{rows} {name}",
                     **base)
    return dataclasses.replace(p, meta={"board": {"cols": cols, "rows": rows, "moves": name}})


def tour(p: Puzzle, start: int = 0) -> Walk:
    """A walk through every node not avoided, by depth-first search in Warnsdorff's order
    (fewest onward moves first, the farther from the centre first among equals), closed
    when the puzzle is."""
    nxt: dict[int, list[tuple[int, int]]] = {v: [] for v in range(p.num_nodes)}
    for e in range(p.num_edges):
        nxt[p.tail[e]].append((e, p.head[e]))
        nxt[p.head[e]].append((e, p.tail[e]))
    want = p.num_nodes - len(p.avoid)
    cells = [chess_cell(name) or (0, 0) for name in p.nodes]
    mid = [sum(c[i] for c in cells) / len(cells) for i in (0, 1)]
    far = [(c[0] - mid[0]) ** 2 + (c[1] - mid[1]) ** 2 for c in cells]  # Roth's tie-break
    nodes, edges, seen = [start], [], {start}

    def free(v: int) -> int:
        return sum(w not in seen and w not in p.avoid for _, w in nxt[v])

    def search() -> bool:
        here = nodes[-1]
        if len(nodes) == want:
            back = [e for e, w in nxt[here] if w == start]
            if not p.closed or back:
                if p.closed:
                    nodes.append(start)
                    edges.append(back[0])
                return True
            return False
        if p.closed and len(nodes) > 1 and not free(start):
            return False  # nothing left to close the ring with
        for e, w in sorted(nxt[here], key=lambda ew: (free(ew[1]), -far[ew[1]])):
            if w in seen or w in p.avoid:
                continue
            seen.add(w)
            nodes.append(w)
            edges.append(e)
            if search():
                return True
            seen.discard(nodes.pop())
            edges.pop()
        return False

    assert search()
    walk = Walk(tuple(nodes), tuple(edges))
    assert obeys_node_rules(p, walk.nodes)
    return walk


def solved(p: Puzzle, walk: Walk) -> Answer:
    return Answer(Status.SOLVED, "test", walk, verified=True)


def expect_for(p: Puzzle, walk: Walk | None) -> Expect:
    names = p.nodes
    out = Expect(given={names[v]: k for v, k in p.at.items()},
                 holes={names[v] for v in p.avoid}, closed=p.closed)
    if walk is not None:
        out.walk_nodes = [names[v] for v in walk.nodes]
        out.walk_edges = list(walk.edges)
    return out


def positions(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {t.get("data-node") or "": t.text or "" for t in root.iter(f"{NS}text")
            if "position" in (t.get("class") or "")}


def test_a_knights_tour_is_drawn_as_a_board_with_its_positions_in_the_cells() -> None:
    p = board(6, 6)
    walk = tour(p)
    svg = draw_svg(p, solved(p, walk))
    assert check_svg(svg, expect_for(p, walk)) == []
    assert svg.count('class="cell ') == 36 and 'class="tyre"' not in svg
    written = positions(svg)
    assert written[p.nodes[walk.nodes[0]]] == "1"  # position 1 at the start
    assert sorted(int(k) for k in written.values()) == list(range(1, 37))
    assert svg.count('class="step"') == 36  # the closing move drawn too


def test_a1_is_dark_and_bottom_left_and_shades_alternate() -> None:
    svg = draw_svg(board(5, 4))
    cells = {g.get("data-node"): g for g in ET.fromstring(svg).iter(f"{NS}g")
             if "cell" in (g.get("class") or "").split()}
    assert "dark" in (cells["a1"].get("class") or "") and "light" in (cells["b1"].get("class")
                                                                       or "")
    y = {name: float(g.find(f"{NS}rect").get("y")) for name, g in cells.items()}  # type: ignore[union-attr]
    assert y["a1"] > y["a4"] and y["a1"] == y["e1"]


def test_the_puzzle_alone_shows_givens_in_bold_holes_and_checkpoints_not_moves() -> None:
    p = board(5, 5, at={"a1": 1, "e5": 24}, avoid=["c3"], via=["b3"], closed=False)
    svg = draw_svg(p)
    assert check_svg(svg, expect_for(p, None)) == []
    assert positions(svg) == {"a1": "1", "e5": "24"}
    assert 'class="step"' not in svg
    assert re.search(r'class="cell hole" data-node="c3"', svg)
    assert re.search(r'data-node="b3"[^>]*><rect[^>]*/><circle[^>]*class="via"', svg)
    legend = re.findall(r'data-text="([^"]+)"', svg)
    assert "bold: a given position" in legend and "a hole: a cell to avoid" in legend


def test_a_solution_with_givens_and_a_hole_passes_the_check() -> None:
    p = board(5, 5, avoid=["c3"], closed=False)
    walk = tour(p)
    given = {p.nodes[walk.nodes[0]]: 1, p.nodes[walk.nodes[10]]: 11}
    p = dataclasses.replace(p, at={p.nodes.index(n): k for n, k in given.items()})
    svg = draw_svg(p, solved(p, walk))
    assert check_svg(svg, expect_for(p, walk)) == []
    bold = {t.get("data-node") for t in ET.fromstring(svg).iter(f"{NS}text")
            if t.get("font-weight") == "bold" and "position" in (t.get("class") or "")}
    assert bold == set(given)
    assert "c3" not in positions(svg)


def test_a_cell_held_twice_shows_both_positions() -> None:
    """Under ``visit: any`` a king may stand on a cell twice: both numbers are written."""
    p = board(2, 2, KING, "king", visit=NodeVisit.ANY, closed=False, use=EdgeUse.ANY)
    a1, b1 = p.nodes.index("a1"), p.nodes.index("b1")
    e = next(e for e in range(p.num_edges) if {p.tail[e], p.head[e]} == {a1, b1})
    walk = Walk((a1, b1, a1), (e, e))
    svg = draw_svg(p, solved(p, walk))
    assert positions(svg) == {"a1": "1,3", "b1": "2"}
    assert check_svg(svg, expect_for(p, walk)) == []


@pytest.mark.parametrize("size", [(8, 8), (12, 10),
                                  pytest.param((30, 30), marks=pytest.mark.long)])  # 900 cells
def test_big_boards_keep_three_digits_inside_their_cells(size: tuple[int, int]) -> None:
    p = board(*size, closed=False)
    walk = tour(p)
    assert check_svg(draw_svg(p, solved(p, walk)), expect_for(p, walk)) == []


# ------------------------------------------------------------------ the check finds
def knight_picture() -> tuple[Puzzle, Walk, str]:
    p = board(5, 6, closed=False)
    walk = tour(p)
    return p, walk, draw_svg(p, solved(p, walk))


def test_the_check_finds_a_number_in_the_wrong_cell() -> None:
    p, walk, svg = knight_picture()
    one, two = p.nodes[walk.nodes[0]], p.nodes[walk.nodes[1]]
    swapped = (svg.replace(f'data-node="{one}" data-position="1">1<', "@@", 1)
               .replace(f'data-node="{two}" data-position="2">2<',
                        f'data-node="{two}" data-position="1">1<', 1)
               .replace("@@", f'data-node="{one}" data-position="2">2<', 1))
    assert swapped != svg
    assert "board-positions" in {r for r, _ in check_svg(swapped, expect_for(p, walk))}


def test_the_check_finds_a_wrong_shade_and_a_missing_hole() -> None:
    p, walk, svg = knight_picture()
    wrong = svg.replace('class="cell dark" data-node="a1"', 'class="cell light" data-node="a1"')
    assert "board-cells" in {r for r, _ in check_svg(wrong, expect_for(p, walk))}
    holed = expect_for(p, walk)
    holed.holes = {"a1"}
    assert "board-cells" in {r for r, _ in check_svg(svg, holed)}


def test_the_check_finds_a_given_not_in_bold_and_a_move_off_its_cells() -> None:
    p, walk, svg = knight_picture()
    told = expect_for(p, walk)
    told.given = {p.nodes[walk.nodes[4]]: 5}
    assert "board-positions" in {r for r, _ in check_svg(svg, told)}
    first = re.search(r'(<g class="step" data-step="1"[^>]*><path d="M)([\d.]+)', svg)
    assert first
    moved = svg.replace(first.group(0), f"{first.group(1)}{float(first.group(2)) + 9:g}", 1)
    assert "board-positions" in {r for r, _ in check_svg(moved, expect_for(p, walk))}


# ------------------------------------------------------------------ inspected boards
def inspected_picture() -> tuple[Puzzle, Walk, str, InspectView]:
    """A 5 x 6 knight's path with three givens said essential, redundant and undecided,
    and two critical moves (not every move: they are banded)."""
    p = board(5, 6, closed=False)
    walk = tour(p)
    cells = walk.nodes[0], walk.nodes[7], walk.nodes[20]
    p = dataclasses.replace(p, at={v: walk.nodes.index(v) + 1 for v in cells})
    view = InspectView((InspectMark(walk.edges[3], "critical"),
                        InspectMark(walk.edges[11], "critical")), None,
                       (GivenMark(cells[0], "essential"), GivenMark(cells[1], "redundant"),
                        GivenMark(cells[2], "undecided")), "Inspect: what it found.")
    return p, walk, draw_svg(p, solved(p, walk), inspect=view), view


def verdicts_of(p: Puzzle, view: InspectView) -> dict[str, str]:
    return {p.nodes[g.node]: g.verdict for g in view.givens}


def test_an_inspected_board_marks_its_givens_moves_and_caption() -> None:
    p, walk, svg, view = inspected_picture()
    told = expect_for(p, walk)
    told.verdicts = verdicts_of(p, view)
    assert check_svg(svg, told) == []
    root = ET.fromstring(svg)
    rings = [c.get("data-node") for c in root.iter(f"{NS}circle")
             if "verdict" in (c.get("class") or "")]
    assert rings == [p.nodes[view.givens[0].node]]
    bands = [int(g.get("data-edge") or -1) for g in root.iter(f"{NS}g")
             if g.get("data-inspect") == "critical"]
    assert bands == [walk.edges[3], walk.edges[11]]
    notes = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "note")
    assert "Inspect: what it found." in notes
    legend = re.findall(r'data-text="([^"]+)"', svg)
    assert {"ringed: an essential given (without it, not unique)",
            "pale: a redundant given (unique without it)",
            "banded: a critical move (no walk without it)"} <= set(legend)


def test_every_move_critical_is_said_not_banded() -> None:
    p, walk, _, view = inspected_picture()
    every = dataclasses.replace(view, marks=tuple(InspectMark(e, "critical")
                                                  for e in walk.edges))
    svg = draw_svg(p, solved(p, walk), inspect=every)
    assert 'data-inspect="critical"' not in svg and "banded:" not in svg


def test_the_check_finds_a_lost_ring_a_dark_redundant_given_and_a_stray_band() -> None:
    p, walk, svg, view = inspected_picture()
    told = expect_for(p, walk)
    told.verdicts = verdicts_of(p, view)
    essential, redundant = (p.nodes[g.node] for g in view.givens[:2])
    unringed = re.sub(r'<circle[^>]*class="verdict essential"[^>]*/>', "", svg)
    assert "board-marks" in {r for r, _ in check_svg(unringed, told)}
    dark = re.sub(r'fill="#8C8C8C"( class="position" data-node="' + redundant + '")',
                  r'fill="#1A1A1A"\1', svg)
    assert dark != svg and "board-marks" in {r for r, _ in check_svg(dark, told)}
    band = re.search(r'data-inspect="critical" data-edge="(\d+)"', svg)
    assert band
    stray = svg.replace(band.group(0), band.group(0).replace(
        f'data-edge="{band.group(1)}"', f'data-edge="{walk.edges[5]}"'), 1)
    moved = re.sub(r'(data-inspect="critical"[^>]*><path d="M)([\d.]+)',
                   lambda m: f"{m.group(1)}{float(m.group(2)) + 9:g}", svg, count=1)
    for forged in (stray, moved):
        assert "board-marks" in {r for r, _ in check_svg(forged, told)}
    told.verdicts = {essential: "essential"}
    assert "board-marks" in {r for r, _ in check_svg(svg, told)}


def test_a_signposts_essential_given_is_ringed_in_its_corner() -> None:
    """On a Signpost the number stands small in the cell's top-left corner, its arrow in
    the middle: the ring goes round the number there, not round the arrow."""
    from picture_check import SIGNPOST_4X4, node_rules_expect, signpost_spec

    from trailkit.models.spec import load_spec_text
    from trailkit.solvers.pipeline import solve

    p = load_spec_text(signpost_spec(4, 4, SIGNPOST_4X4, (1, 7, 16), "Signpost 4 x 4"))
    answer = solve(p)
    assert answer.walk is not None
    view = InspectView((), None, tuple(GivenMark(v, "essential") for v in p.at), "")
    svg = draw_svg(p, answer, inspect=view)
    told = node_rules_expect(p, expect_for(p, answer.walk))
    told.verdicts = {p.nodes[v]: "essential" for v in p.at}
    assert check_svg(svg, told) == []
    cornered = [p.nodes[v] for v in p.at if f'class="signpost" data-node="{p.nodes[v]}"' in svg]
    assert cornered
    for name in cornered:  # a ring moved to the middle of its cell is off its number
        ring = re.search(rf'<circle cy="[\d.]+" r="[\d.]+" cx="([\d.]+)"[^>]*'
                         rf'data-node="{name}"', svg)
        assert ring
        moved = svg.replace(ring.group(0), ring.group(0).replace(
            f'cx="{ring.group(1)}"', f'cx="{float(ring.group(1)) + 14:g}"'))
        assert "board-marks" in {r for r, _ in check_svg(moved, told)}


def test_draw_inspect_marks_what_inspect_found_on_a_numbrix() -> None:
    """``draw --inspect`` of a Numbrix (issue 44): its essential givens ringed and its
    redundant ones pale, as the inspection found them, and its caption's counts."""
    from trailkit.models.spec import load_spec
    from trailkit.solvers.frontends.presenter.inspect import inspect_view
    from trailkit.solvers.tools.design.inspection import inspect_puzzle

    p = load_spec(str(ROOT / "docs" / "examples" / "numbrix.yaml"))
    found = inspect_puzzle(p)
    assert found.givens is not None and found.answer.walk is not None
    view = inspect_view(found)
    svg = draw_svg(p, found.answer, inspect=view)
    told = expect_for(p, found.answer.walk)
    told.verdicts = {p.nodes[g.node]: {True: "essential", False: "redundant",
                                       None: "undecided"}[g.essential]
                     for g in found.givens.findings}
    assert check_svg(svg, told) == []
    essential = sum(g.essential is True for g in found.givens.findings)
    redundant = sum(g.essential is False for g in found.givens.findings)
    assert svg.count('class="verdict essential"') == essential > 0 and redundant > 0
    notes = " ".join(t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text")
                     if t.get("class") == "note")
    assert f"{essential} essential givens (ringed), {redundant} redundant (pale)" in notes
    assert f"rating {found.measures['rating']}" in notes


def test_an_inspected_tour_on_a_graph_says_its_caption() -> None:
    """A tour puzzle whose nodes are no board's cells is drawn as a graph: what inspect
    found on its givens is then said in its notes."""
    p = Puzzle.build(kind="tour", edges=[("a", "b"), ("b", "c"), ("c", "d")],
                     use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE)
    p = dataclasses.replace(p, at={0: 1})
    walk = Walk((0, 1, 2, 3), (0, 1, 2))
    view = InspectView((), None, (GivenMark(0, "redundant"),), "Inspect: the caption.")
    svg = draw_svg(p, solved(p, walk), inspect=view)
    assert 'class="cell ' not in svg
    assert "Inspect: the caption." in re.findall(r'class="note">([^<]*)<', svg)


def test_the_check_reads_chess_names() -> None:
    assert [chess_cell(n) for n in ("a1", "h8", "aa3", "x0", "A1")] == [
        (0, 0), (7, 7), (26, 2), None, None]


# ------------------------------------------------------------------ other outputs
def test_a_node_that_is_no_cell_is_drawn_as_a_graph() -> None:
    p = board(3, 4)
    extra = Puzzle.build(kind="tour", nodes=[*p.nodes, "hub"],
                         edges=[(p.nodes[p.tail[e]], p.nodes[p.head[e]])
                                for e in range(p.num_edges)] + [("a1", "hub")])
    extra = dataclasses.replace(extra, meta=p.meta)
    assert board_of(p) is not None and board_of(extra) is None
    assert 'class="cell ' not in draw_svg(extra)


def test_the_html_page_steps_through_the_moves() -> None:
    p = board(5, 5, closed=False)
    walk = tour(p)
    answer = solved(p, walk)
    page = html_page(p, draw_svg(p, answer), answer)
    assert page.count('class="step"') == len(walk) and '"steps-data"' in page


def test_png_of_a_board_renders() -> None:
    pytest.importorskip("resvg_py")
    from trailkit.solvers.tools.drawing import render_png

    p = board(6, 6)
    assert render_png(draw_svg(p, solved(p, tour(p)))).startswith(b"\x89PNG")


def test_the_printed_rules_say_the_node_rules_in_the_boards_words() -> None:
    from trailkit.solvers.tools.drawing.printable import rules_in_words

    p = board(5, 5, at={"a1": 1, "e5": 24}, avoid=["c3"], via=["b3"], closed=False)
    assert rules_in_words(p) == [
        "Visit every cell exactly once, by knight's moves.", "Pass through b3.",
        "Never enter c3.", "Given positions (the start is the 1st): a1 is the 1st and e5 "
        "is the 24th."]
    ring = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a")], use=EdgeUse.AT_MOST_ONCE,
                        visit=NodeVisit.EVERY_ONCE, closed=True)
    assert rules_in_words(ring) == ["Visit every node exactly once.", "End where you started."]
