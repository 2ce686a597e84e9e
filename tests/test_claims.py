"""Claims beyond the walk (issue 32, CONTRACT 1.3 §6): shortest and unique, certified.

The maker (:mod:`trailkit.solvers.pipeline.claims`) and the independent checker
(:mod:`trailkit.models.checking.shortest`) against the tyre puzzle, nearby specs where the
claim is false, edited certificates, and random small colour walks judged by a
breadth-first count written here.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import steps_from, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.pipeline.claims import shortest_claim, unique_claim
from trailkit.solvers.pipeline.solving import solve

ROOT = Path(__file__).resolve().parent.parent
TYRE = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def tyre_with(*planks: str) -> Puzzle:
    """The restored tyre puzzle with ``planks`` (``"T Z red"``) added, no expect block."""
    text = TYRE.read_text(encoding="utf-8").split("\nexpect:")[0]
    return load_spec_text(text + "".join(f"\n  - {plank}" for plank in planks) + "\n")


@pytest.fixture(scope="module")
def tyre() -> tuple[Puzzle, object]:
    puzzle = load_spec(str(TYRE))
    return puzzle, solve(puzzle, "direct", crosscheck=None).walk


def test_the_tyre_puzzles_shortest_walk_is_certified(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = shortest_claim(puzzle, walk)
    assert claim.checked and claim.value == 25 and claim.certificate.kind == "layers"
    assert len(claim.certificate.data["layers"]) == 25
    assert layers_verdict(puzzle, claim.certificate.data).accepted


def test_the_tyre_puzzles_walk_is_certified_unique(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = unique_claim(puzzle, walk)
    assert claim.checked and claim.value is True
    assert layers_verdict(puzzle, claim.certificate.data).accepted


def test_a_plank_that_makes_a_shorter_walk_rejects_the_shortest_certificate(
        tyre: tuple) -> None:
    puzzle, walk = tyre
    data = shortest_claim(puzzle, walk).certificate.data
    problems = layers_verdict(tyre_with("A T red"), data).problems
    assert problems and "leaves layer 1" in problems[0], problems


def test_a_parallel_plank_rejects_the_unique_certificate(tyre: tuple) -> None:
    puzzle, walk = tyre
    data = unique_claim(puzzle, walk).certificate.data
    nearby = tyre_with("T Z red")  # a second plank for the walk's last step
    problems = layers_verdict(nearby, data).problems
    assert problems == ["more than one walk of 25 steps solves the puzzle, counted "
                        "through the layers"]
    assert layers_verdict(nearby, shortest_claim(puzzle, walk).certificate.data).accepted


def test_a_parallel_plank_gives_a_second_verified_walk(tyre: tuple) -> None:
    nearby = tyre_with("T Z red")
    walk = solve(nearby, "direct", crosscheck=None).walk
    claim = unique_claim(nearby, walk)
    assert claim.checked and claim.value is False
    assert claim.witness is not None and claim.witness != walk
    assert len(claim.witness) == len(walk) == 25
    assert claim.witness.edges[:-1] == walk.edges[:-1]  # only the last plank differs


@pytest.mark.parametrize(("change", "reason"), [
    ({"length": 24}, "the certificate claims 24 steps but its walk has 25"),
    ({"claim": "longest"}, "a layers certificate claims one of shortest, unique"),
    ({"claim": "unique"}, "a unique claim for 25 steps needs 26 layers (0 to 25), not 25"),
    ({"length": -1}, "the length must be a whole number of steps"),
    ({"start": "B"}, "the walk's edges do not follow one another"),
    ({"walk": [0, 999]}, "the walk's edge '999' is not in the puzzle"),
])
def test_an_edited_certificate_is_rejected_with_its_reason(tyre: tuple, change: dict,
                                                           reason: str) -> None:
    puzzle, walk = tyre
    data = {**shortest_claim(puzzle, walk).certificate.data, **change}
    problems = layers_verdict(puzzle, data).problems
    assert problems and problems[0].startswith(reason), problems


def test_a_dropped_state_is_named(tyre: tuple) -> None:
    puzzle, walk = tyre
    data = copy.deepcopy(shortest_claim(puzzle, walk).certificate.data)
    dropped = data["layers"][3].pop()
    problems = layers_verdict(puzzle, data).problems
    node, colour = dropped
    assert problems == [problems[0]] and f"({node}, after {colour}) leaves layer 3" in \
        problems[0]


@pytest.mark.parametrize("name", backend_names())
def test_every_backends_tyre_walk_is_certified_shortest_and_unique(name: str) -> None:
    puzzle = load_spec(str(TYRE))
    answer = solve(puzzle, name, crosscheck=None)
    assert answer.status is Status.SOLVED and answer.optimal
    for make in (shortest_claim, unique_claim):
        claim = make(puzzle, answer.walk, rests_on=name)
        assert claim.checked and claim.value in (25, True), claim


def test_the_state_limit_leaves_the_claim_unchecked_saying_why(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = shortest_claim(puzzle, walk, state_limit=100)
    assert not claim.checked and claim.certificate is None
    assert claim.why.startswith("not certified (the layers hold ")
    assert "limit 100); rests on direct's search" in claim.why


def brute_count(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest length, how many walks have it) by breadth-first search over walks
    grouped by where they stand and their last colour, each group with its number."""
    rule = puzzle.colours
    colour = puzzle.colour or [-1] * puzzle.num_edges
    layer = Counter({(v, None): 1 for v in puzzle.start_nodes()})
    for length in range(puzzle.num_nodes * 4 + 2):
        done = sum(n for (v, _), n in layer.items() if puzzle.end is None or v in puzzle.end)
        if done:
            return length, done
        following: Counter = Counter()
        for (v, last), n in layer.items():
            for e, w in steps_from(puzzle, v):
                c = colour[e]
                if rule is not None and (c < 0 or (last is None and puzzle.first is not None
                                                   and c not in puzzle.first)
                                         or (last is not None and c not in rule.successors[last])):
                    continue
                following[(w, c)] += n
        layer = following
    return None, 0


@settings(deadline=None)
@given(walk_puzzles(closed=False), st.sampled_from(["direct", "cpsat"]))
def test_shortest_and_unique_agree_with_brute_force(puzzle: Puzzle, name: str) -> None:
    length, walks = brute_count(puzzle)
    answer = solve(puzzle, name, crosscheck=None)
    if length is None:
        assert answer.status is Status.UNSOLVABLE
        return
    shortest = shortest_claim(puzzle, answer.walk)
    assert shortest.checked and shortest.value == length
    unique = unique_claim(puzzle, answer.walk)
    assert unique.checked and unique.value is (walks == 1)
    if walks == 1:
        assert layers_verdict(puzzle, unique.certificate.data).accepted
    else:
        assert len(unique.witness) == length and unique.witness != answer.walk


@settings(deadline=None, max_examples=30)
@given(walk_puzzles(closed=False))
def test_a_certificate_moved_to_a_puzzle_with_another_length_is_rejected(
        puzzle: Puzzle) -> None:
    length, _ = brute_count(puzzle)
    if length is None or length == 0:
        return
    claim = shortest_claim(puzzle, solve(puzzle, "direct", crosscheck=None).walk)
    nothing_left = dataclasses.replace(puzzle, end=frozenset(puzzle.start_nodes()))
    if brute_count(nothing_left)[0] != length:
        assert not layers_verdict(nothing_left, claim.certificate.data).accepted
