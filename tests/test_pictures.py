"""Pictures you can trust (issue 33): the picture checker (``picture_check.py``) finds
each kind of violation, and trailkit's pictures have none, on the corpus and on the
failures a new user met."""

from __future__ import annotations

import re

from picture_check import Expect, check_svg

from trailkit.models.spec import load_spec_text
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.drawing import draw_svg

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


def test_the_checker_finds_an_edge_through_a_node() -> None:
    p = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, b c, a c]\n"
                       "layout: {a: [0, 0], b: [1, 0], c: [2, 0]}\n")
    found = check_svg(draw_svg(p))
    assert ("edge-through-node", "edge 2 (a-c) through node b") in found
