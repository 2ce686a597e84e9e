"""The rating of tour puzzles by propagation (``tour_reasoning``): cells counted by hand on
small boards, and the propagation never ruling out a solution the brute-force oracle of
``tests/node_oracle.py`` lists."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from node_oracle import given_paths

from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.tools.design.tour_reasoning import (
    deduce,
    rate_tour,
    rating_words,
    reasoning_applies,
)


def board(cols: int, rows: int, moves: str, at: str) -> Puzzle:
    return load_spec_text(f"trailkit: 1\nkind: tour\nclosed: false\n"
                          f"board: {{size: [{cols}, {rows}], moves: {moves}}}\nat: {{{at}}}\n")


def test_a_line_with_its_start_given_is_filled_by_forced_moves() -> None:
    rated = rate_tour(board(5, 1, "orthogonal", "a1: 1"))
    assert (rated.cells, rated.givens, rated.deduced, rated.search_depth) == (5, 1, 4, 0)


def test_a_three_by_three_filled_by_hand() -> None:
    # a1 1, c1 3: b1 is the only cell one step from both (2); c2 the only free
    # neighbour of c1 (4); c3 given 9, so c2's one free neighbour b2 is 5; b3 the one
    # free neighbour of c3 (8); a2 then the one free neighbour of b2 (6), a3 is 7
    puzzle = board(3, 3, "orthogonal", "a1: 1, c1: 3, c3: 9")
    filled = deduce(puzzle)
    assert filled is not None
    assert {q: puzzle.nodes[v] for q, v in filled.items()} == {
        1: "a1", 2: "b1", 3: "c1", 4: "c2", 5: "b2", 6: "a2", 7: "a3", 8: "b3", 9: "c3"}
    rated = rate_tour(puzzle)
    assert (rated.deduced, rated.search_depth, rating_words(0)) == (6, 0, "easy")


def test_a_puzzle_with_three_solutions_is_never_filled() -> None:
    puzzle = board(3, 3, "orthogonal", "a1: 1, c1: 3")
    assert len(given_paths(puzzle)) == 3  # after c2: b2 a2 a3 b3 c3, c3 b3 a3 a2 b2, c3 b3 b2 a2 a3
    rated = rate_tour(puzzle)
    assert rated.search_depth is None and rated.deduced == 2  # b1 and c2, by hand


def test_a_cell_with_one_neighbour_is_an_end() -> None:
    # a 1 x 3 line with its middle given 2: each end cell has one neighbour, so is an end;
    # which end is 1 is not forced (two solutions)
    rated = rate_tour(board(3, 1, "orthogonal", "b1: 2"))
    assert rated.deduced == 0 and rated.search_depth is None


def test_givens_too_far_apart_are_a_contradiction() -> None:
    assert deduce(board(4, 1, "orthogonal", "a1: 1, d1: 2")) is None


def test_it_applies_to_open_paths_through_every_node_only() -> None:
    closed = replace(board(3, 3, "orthogonal", "a1: 1"), closed=True)
    assert "open paths" in reasoning_applies(closed)
    assert reasoning_applies(board(3, 3, "king", "a1: 1")) == ""


@pytest.mark.parametrize("seed", range(12))
def test_propagation_keeps_every_solution_of_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    cols, rows = rng.choice([(3, 3), (4, 3), (4, 4)])
    moves = rng.choice(["orthogonal", "king"])
    plain = board(cols, rows, moves, "")
    cells = list(range(plain.num_nodes))
    rng.shuffle(cells)
    positions = rng.sample(range(1, len(cells) + 1), rng.randint(1, 4))
    puzzle = replace(plain, at=dict(zip(cells, positions, strict=False)))
    solutions = given_paths(puzzle)
    filled = deduce(puzzle)
    if filled is None:
        assert not solutions
        return
    for path in solutions:
        assert all(path[q - 1] == v for q, v in filled.items())
    rated = rate_tour(puzzle)
    if rated.search_depth is not None:  # filled every cell: the one solution
        assert len(solutions) == 1
