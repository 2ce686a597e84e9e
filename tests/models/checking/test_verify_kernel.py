"""The verifier's compiled fast path against its plain checker (the oracle): the
kernel must accept exactly the walks the plain checker finds no fault in, compiled
and interpreted, and a long walk's messages must not change.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import walk_puzzles

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import _violations, verify, walk_ok
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.jit import COMPILE_FROM

pytestmark = pytest.mark.usefixtures("compiled_kernels")


@st.composite
def puzzles_and_walks(draw: st.DrawFn) -> tuple[Puzzle, Walk]:
    """A random puzzle and a walk that is often nearly right: a random sequence of
    steps along its edges, sometimes with one index broken."""
    use = draw(st.sampled_from(list(EdgeUse)))
    p = draw(walk_puzzles(use=use, max_nodes=4, max_edges=6))
    n, m = p.num_nodes, p.num_edges
    at = draw(st.integers(0, n - 1))
    nodes, edges = [at], []
    for _ in range(draw(st.integers(0, 8))):
        touching = [e for e in range(m) if at in (p.tail[e], p.head[e])]
        if not touching:
            break
        e = draw(st.sampled_from(touching))
        at = p.head[e] if p.tail[e] == at else p.tail[e]
        nodes.append(at)
        edges.append(e)
    if draw(st.booleans()):
        target = draw(st.sampled_from(["node", "edge", "length"]))
        if target == "node":
            nodes[draw(st.integers(0, len(nodes) - 1))] = draw(st.integers(-1, n))
        elif target == "edge" and edges:
            edges[draw(st.integers(0, len(edges) - 1))] = draw(st.integers(-1, m))
        else:
            nodes.append(draw(st.integers(0, n - 1)))
    return p, Walk(tuple(nodes), tuple(edges))


@given(puzzles_and_walks())
def test_fast_path_accepts_exactly_what_the_plain_checker_accepts(
        case: tuple[Puzzle, Walk]) -> None:
    puzzle, walk = case
    expected = _violations(puzzle, walk) == []
    assert walk_ok(puzzle, walk) == expected
    assert walk_ok(puzzle, walk, compiled=False) == expected


def _long_circuit() -> tuple[Puzzle, Walk]:
    rng = random.Random(2)
    n, m = 500, COMPILE_FROM + 500
    seq = [rng.randrange(n) for _ in range(m)]
    puzzle = Puzzle(kind="trail", nodes=tuple(f"v{i}" for i in range(n)),
                    tail=seq, head=seq[1:] + seq[:1], closed=True)
    return puzzle, Walk((*seq, seq[0]), tuple(range(m)))


def test_a_long_valid_walk_passes_the_fast_path() -> None:
    puzzle, walk = _long_circuit()
    assert walk_ok(puzzle, walk)
    assert verify(puzzle, walk) == [] == _violations(puzzle, walk)


def test_a_long_broken_walk_keeps_the_plain_messages() -> None:
    puzzle, walk = _long_circuit()
    edges = list(walk.edges)
    edges[7], edges[8] = edges[8], edges[7]
    broken = Walk(walk.nodes, tuple(edges))
    problems = verify(puzzle, broken)
    assert problems == _violations(puzzle, broken)
    assert [p.step for p in problems] == [7, 8]
    assert "does not lead from" in problems[0].message
