"""A long walk in words: made in one pass per walk, not a lookup per step.

Issue 41: printing a 300,000-step walk took about 5 s: every step asked for its colour's
name and edge id, and the parallel edges were found with a dict of every edge. One
arrow per colour is now made once, and only steps along parallel edges get their id.
"""

from __future__ import annotations

import pytest

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.presenter.walk_text import walk_block


def test_a_step_asks_for_its_colour_only_along_parallel_edges(
        monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2000
    edges = ", ".join(f"n{i} n{i + 1} {('red', 'blue')[i % 2]}" for i in range(n))
    puzzle = load_spec_text(f"trailkit: 1\nkind: walk\ncolours: [red, blue]\n"
                            f"edges: [{edges}, n0 n1 red]\n")
    walk = Walk(tuple(range(n + 1)), tuple(range(n)))
    asked = [0]
    colour_name = Puzzle.colour_name

    def counted(self: Puzzle, e: int) -> str | None:
        asked[0] += 1
        return colour_name(self, e)

    monkeypatch.setattr(Puzzle, "colour_name", counted)
    lines = walk_block(puzzle, walk)
    assert asked[0] == 1  # the first step: edge 0 has a parallel twin, edge 2000
    assert lines[1] == ("      1: -red-#0-> n1 -blue-> n2 -red-> n3 -blue-> n4 -red-> n5 "
                        "-blue-> n6 -red-> n7 -blue-> n8 -red-> n9 -blue-> n10")
    assert lines[-1].startswith("  1,991: -red-> n1991 ")
    assert lines[-1].endswith(" -blue-> n2000")


def test_dominoes_and_plain_walks_read_as_before() -> None:
    dominoes = load_spec_text("trailkit: 1\nkind: domino-chain\ndominoes: [1 2, 2 3]\n")
    assert walk_block(dominoes, Walk((0, 1, 2), (0, 1))) == ["  [1|2] [2|3]"]
    plain = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b, a b, b c]\n")
    assert walk_block(plain, Walk((0, 1, 0, 1, 2), (0, 1, 0, 2))) == \
        ["  a -#0-> b -#1-> a -#0-> b -> c"]
