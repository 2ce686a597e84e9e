"""Structural certificates of node rules (``node-cut``, ``avoided-edge``): made, checked,
claimed, and never accepted where a walk exists (the brute-force oracle of
``tests/node_oracle.py`` decides)."""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from tests.node_oracle import node_rule_walks
from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate, verdict
from trailkit.models.checking.claim_table import Statement, mismatch, proven
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.direct.node_structural import node_rule_certificate
from trailkit.solvers.pipeline.solving import precheck

EVERY, ONCE = NodeVisit.EVERY_ONCE, NodeVisit.AT_MOST_ONCE


def knight_board(cols: int, rows: int, **rules: Any) -> Puzzle:
    """A board's knight moves, cells named as on a chess board."""
    def name(c: int, r: int) -> str:
        return f"{chr(ord('a') + c)}{r + 1}"

    edges = [(name(c, r), name(c + dc, r + dr))
             for c in range(cols) for r in range(rows)
             for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2))
             if 0 <= c + dc < cols and 0 <= r + dr < rows]
    return Puzzle.build(edges=edges, use=EdgeUse.AT_MOST_ONCE, visit=EVERY, **rules)


def accepted(puzzle: Puzzle, certificate: Certificate) -> bool:
    return not check_certificate(puzzle, certificate)


# ------------------------------------------------------------- the 5x5 board
def test_the_5x5_closed_knights_tour_is_refuted_by_its_colours_in_milliseconds() -> None:
    board = knight_board(5, 5, closed=True)
    began = time.perf_counter()
    certificate = node_rule_certificate(board)
    made = time.perf_counter() - began
    assert certificate is not None and certificate.kind == "node-cut"
    assert (len(certificate.data["removed"]), len(certificate.data["pieces"]),
            certificate.data["joins"]) == (12, 13, 12)
    began = time.perf_counter()
    checked = verdict(board, certificate)
    assert checked.problems == [] and "13 pieces" in checked.holds
    assert made < 0.5 and time.perf_counter() - began < 0.5  # milliseconds, measured
    assert proven(board, certificate).claims == {"unsolvable": None, "count": 0}


def test_the_precheck_costs_little_on_a_big_board() -> None:
    board = knight_board(30, 30)  # 900 cells with open tours: nothing to find, quickly
    began = time.perf_counter()
    assert node_rule_certificate(board) is None
    assert time.perf_counter() - began < 2.0  # measured: 0.06 s (cut nodes in linear time)


def test_the_5x5_open_tour_has_no_colour_argument() -> None:
    # 13 against 12 is what an open tour needs: it starts and ends on the 13
    assert node_rule_certificate(knight_board(5, 5)) is None


def test_the_pipeline_precheck_answers_the_5x5_tour() -> None:
    answer = precheck(knight_board(5, 5, closed=True))
    assert answer is not None and answer.certificate is not None
    assert answer.status.value == "unsolvable" and answer.certificate.kind == "node-cut"


# ------------------------------------------------- every case, and a neighbour
PATH3 = [("a", "b"), ("b", "c")]
STAR = [("a", "b"), ("a", "c"), ("a", "d")]
TRIANGLES = [("x", "a1"), ("a1", "a2"), ("a2", "x"), ("x", "b1"), ("b1", "b2"), ("b2", "x"),
             ("x", "c1"), ("c1", "c2"), ("c2", "x")]
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # name: (the unsolvable puzzle, a nearby puzzle that has a walk)
    "dead end in a cycle": (dict(edges=[*PATH3, ("b", "d"), ("c", "d")], closed=True,
                                 use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
                            dict(edges=[*PATH3, ("b", "d"), ("c", "d"), ("a", "d")],
                                 closed=True, use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "cut node of a path": (dict(edges=STAR, use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
                           dict(edges=[*STAR, ("b", "c")], use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "three triangles at one node": (
        dict(edges=[*TRIANGLES], use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
        dict(edges=[*TRIANGLES, ("a2", "b1")], use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "checkpoints apart": (dict(edges=[("a", "b"), ("c", "d")], use=EdgeUse.ANY, via=["a", "d"]),
                          dict(edges=[("a", "b"), ("c", "d"), ("b", "c")], use=EdgeUse.ANY,
                               via=["a", "d"])),
    "isolated must-visit node": (dict(edges=[("a", "b")], nodes=["a", "b", "z"],
                                      use=EdgeUse.AT_MOST_ONCE, via=["z", "a"]),
                                 dict(edges=[("a", "b"), ("b", "z")], use=EdgeUse.AT_MOST_ONCE,
                                      via=["z", "a"])),
    "start fixed in the middle": (dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                       start=["b"]),
                                  dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                       start=["a"])),
    "given start in the middle": (dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                       at={"b": 1}),
                                  dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                       at={"b": 2})),
    "given end in the middle": (dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                     at={"b": 3}),
                                dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, visit=EVERY,
                                     at={"c": 3})),
    "avoided node cuts the graph": (dict(edges=PATH3, use=EdgeUse.AT_MOST_ONCE, via=["a", "c"],
                                         avoid=["b"]),
                                    dict(edges=[*PATH3, ("a", "c")], use=EdgeUse.AT_MOST_ONCE,
                                         via=["a", "c"], avoid=["b"])),
    "one-way edges, colours out of balance": (
        dict(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "e"), ("e", "c")],
             directed=[True] * 6, closed=True, use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
        dict(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "e"), ("e", "c"),
                    ("b", "d")], directed=[True] * 7, use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "one-way: a node no edge enters, in a cycle": (
        dict(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")], directed=[True] * 4,
             closed=True, use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
        dict(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a"), ("c", "d")],
             directed=[True] * 5, closed=True, use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "one-way: two nodes no edge enters": (
        dict(edges=[("a", "b"), ("b", "c"), ("d", "b")], directed=[True] * 3,
             use=EdgeUse.AT_MOST_ONCE, visit=EVERY),
        dict(edges=[("a", "b"), ("b", "c"), ("d", "b"), ("c", "d")], directed=[True] * 4,
             use=EdgeUse.AT_MOST_ONCE, visit=EVERY)),
    "one-way: the one node no edge leaves may not end": (
        dict(edges=[("a", "b"), ("b", "c")], directed=[True] * 2, use=EdgeUse.AT_MOST_ONCE,
             visit=EVERY, end=["b"]),
        dict(edges=[("a", "b"), ("b", "c")], directed=[True] * 2, use=EdgeUse.AT_MOST_ONCE,
             visit=EVERY, end=["c"])),
    "givens too far apart": (
        dict(edges=[*PATH3, ("c", "d")], use=EdgeUse.ANY, at={"a": 1, "d": 3}),
        dict(edges=[*PATH3, ("c", "d")], use=EdgeUse.ANY, at={"a": 1, "d": 4})),
    "givens of the wrong parity": (
        dict(edges=[*PATH3, ("c", "d"), ("d", "a")], use=EdgeUse.AT_MOST_ONCE,
             visit=EVERY, at={"a": 1, "c": 4}),
        dict(edges=[*PATH3, ("c", "d"), ("d", "a")], use=EdgeUse.AT_MOST_ONCE,
             visit=EVERY, at={"a": 1, "c": 3})),
    "givens behind a one-way edge": (
        dict(edges=[*PATH3], directed=[True, True], use=EdgeUse.AT_MOST_ONCE,
             at={"c": 1, "a": 3}),
        dict(edges=[*PATH3], directed=[True, True], use=EdgeUse.AT_MOST_ONCE,
             at={"a": 1, "c": 3})),
    "avoided node on an edge that must be used": (
        dict(edges=[*PATH3, ("c", "a")], closed=True, avoid=["b"]),
        dict(edges=[*PATH3, ("c", "a")], closed=True)),
}


def _build(rules: dict[str, Any]) -> Puzzle:
    return Puzzle.build(**rules)


@pytest.mark.parametrize("case", list(CASES))
def test_each_certificate_is_made_checked_sound_and_rejected_nearby(case: str) -> None:
    bad, good = (_build(rules) for rules in CASES[case])
    assert node_rule_walks(bad) == []  # the oracle: no walk
    certificate = node_rule_certificate(bad)
    assert certificate is not None, case
    assert verdict(bad, certificate).problems == []
    assert proven(bad, certificate).primary == "unsolvable"
    assert node_rule_walks(good)  # the neighbour has a walk ...
    assert check_certificate(good, certificate)  # ... and the certificate fails there
    assert node_rule_certificate(good) is None


def test_the_three_triangles_are_cut_at_their_common_node() -> None:
    certificate = node_rule_certificate(_build(CASES["three triangles at one node"][0]))
    assert certificate is not None and certificate.data["removed"] == ["x"]


def test_the_petersen_graph_gets_no_fake_short_argument() -> None:
    outer = [(f"o{i}", f"o{(i + 1) % 5}") for i in range(5)]
    inner = [(f"i{i}", f"i{(i + 2) % 5}") for i in range(5)]
    spokes = [(f"o{i}", f"i{i}") for i in range(5)]
    petersen = Puzzle.build(edges=outer + inner + spokes, use=EdgeUse.AT_MOST_ONCE,
                            visit=EVERY, closed=True)
    assert node_rule_walks(petersen) == []  # no Hamiltonian cycle ...
    assert node_rule_certificate(petersen) is None  # ... and no short argument for it
    assert not any(accepted(petersen, c) for c in _every_degree(petersen))


# ------------------------------------------------------------------ forgeries
def test_forged_node_cuts_are_rejected() -> None:
    board = knight_board(5, 5, closed=True)
    certificate = node_rule_certificate(board)
    assert certificate is not None
    data = certificate.data

    def forged(**changes: Any) -> list[str]:
        return check_certificate(board, Certificate("node-cut", {**data, **changes}, ""))

    assert any("in one piece" in p for p in forged(removed=data["removed"][1:]))
    assert any("can join 12 pieces here, not 13" in p for p in forged(joins=13))
    assert any("is removed" in p for p in forged(pieces=[*data["pieces"],
                                                          data["removed"][0]]))
    assert any("do not rule out" in p for p in forged(pieces=data["pieces"][:12]))
    assert any("twice" in p for p in forged(pieces=[*data["pieces"], data["pieces"][0]]))
    assert any("not in the puzzle" in p for p in forged(removed=[*data["removed"], "z9"]))
    assert any("must be a list" in p for p in forged(removed=None))
    assert any("malformed" in p for p in check_certificate(board, Certificate(
        "node-cut", {"removed": []}, "")))
    assert forged(joins=True)  # a true is no count


def test_visit_any_accepts_no_removed_node() -> None:
    # a, c each once via b: under visit: any b may hold many positions
    p = Puzzle.build(edges=[*STAR], use=EdgeUse.ANY, via=["b", "c", "d"])
    cut = Certificate("node-cut", {"removed": ["a"], "pieces": ["b", "c", "d"], "joins": 2}, "")
    assert any("visit: any" in p for p in check_certificate(p, cut))
    assert node_rule_walks(p, max_steps=6)


def test_a_forged_avoided_edge_is_rejected() -> None:
    bad = _build(CASES["avoided node on an edge that must be used"][0])
    certificate = node_rule_certificate(bad)
    assert certificate is not None and certificate.kind == "avoided-edge"
    wrong_edge = Certificate("avoided-edge", {**certificate.data, "edge": 2}, "")
    assert any("does not touch" in p for p in check_certificate(bad, wrong_edge))
    at_most = _build({**CASES["avoided node on an edge that must be used"][0],
                      "use": EdgeUse.AT_MOST_ONCE})
    assert any("exactly once" in p for p in check_certificate(at_most, certificate))


def test_a_file_may_not_claim_more_than_no_walk() -> None:
    board = knight_board(5, 5, closed=True)
    certificate = node_rule_certificate(board)
    assert certificate is not None
    found = proven(board, certificate)
    assert mismatch(board, found, [Statement("count", {"solutions": 0})]) == ""
    assert "1,760 solutions" in mismatch(board, found,
                                          [Statement("count", {"solutions": 1760})])


# ------------------------------------------------ random puzzles, every cut
def _random_puzzle(rng: random.Random) -> Puzzle:
    names = "abcde"[:rng.randint(3, 5)]
    pairs = [p for p in combinations(names, 2) if rng.random() < 0.45]
    if not pairs:
        pairs = [(names[0], names[1])]
    visit = rng.choice([NodeVisit.ANY, ONCE, EVERY])
    use = rng.choice([EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE])
    nodes_used = sorted({v for pair in pairs for v in pair})
    avoid = [v for v in nodes_used if rng.random() < 0.15]
    free = [v for v in nodes_used if v not in avoid]
    via = [v for v in free if rng.random() < 0.3]
    at = {}
    if free and rng.random() < 0.35:  # one or two givens, anywhere up to the 5th position
        nodes = rng.sample(free, min(len(free), rng.randint(1, 2)))
        at = dict(zip(nodes, rng.sample(range(1, 6), len(nodes)), strict=True))
    return Puzzle.build(edges=pairs, use=use, visit=visit, via=via, avoid=avoid, at=at,
                        closed=rng.random() < 0.4,
                        directed=[rng.random() < 0.3 for _ in pairs],
                        start=[free[-1]] if free and rng.random() < 0.2 else None)


def _every_cut(puzzle: Puzzle) -> list[Certificate]:
    """Every node-cut certificate of at most two removed nodes, with every listing of
    pieces the checker could take and every bound up to the node count."""
    names = [v for v in puzzle.nodes]
    out = []
    for k in range(3):
        for removed in combinations(names, k):
            rest = [v for v in names if v not in removed]
            for size in range(1, len(rest) + 1):
                for pieces in combinations(rest, size):
                    out += [Certificate("node-cut", {"removed": list(removed),
                                                     "pieces": list(pieces),
                                                     "joins": joins}, "")
                            for joins in range(size)]  # every bound the listing beats
    return out


def _every_given(puzzle: Puzzle) -> list[Certificate]:
    """Every given-positions certificate: each ordered pair of nodes, both arguments."""
    return [Certificate("given-positions", {"from": x, "to": y, "parity": parity}, "")
            for x in puzzle.nodes for y in puzzle.nodes if x != y
            for parity in (False, True)]


def _every_degree(puzzle: Puzzle) -> list[Certificate]:
    """Every node-degree certificate of one or two nodes, both ways."""
    return [Certificate("node-degree", {"way": way, "nodes": list(nodes)}, "")
            for way in ("in", "out") for k in (1, 2)
            for nodes in combinations(puzzle.nodes, k)]


def test_no_accepted_node_cut_on_random_puzzles_with_a_walk() -> None:
    """Soundness of the checker itself, apart from the maker: on random small puzzles,
    every node-cut certificate the checker could be handed (every set of up to two
    removed nodes, every listing) and every node-degree and given-positions one is
    accepted only where the oracle finds no walk."""
    rng = random.Random(43)
    kinds: Counter[str] = Counter()
    with_walks = 0
    for _ in range(250):
        puzzle = _random_puzzle(rng)
        walks = node_rule_walks(puzzle)
        with_walks += bool(walks)
        made = node_rule_certificate(puzzle)
        if made is not None:
            assert not walks and verdict(puzzle, made).problems == []
        for certificate in [*_every_cut(puzzle), *_every_degree(puzzle),
                            *_every_given(puzzle)]:
            if accepted(puzzle, certificate):
                kinds[certificate.kind] += 1
                assert not walks, (puzzle, certificate.data, walks[0])
    # both sides were exercised: puzzles with walks, and certificates of each kind accepted
    assert with_walks > 50 and kinds["node-cut"] > 50 and kinds["node-degree"] > 10 and \
        kinds["given-positions"] > 10, kinds


def test_exactly_once_counts_every_edge_end_as_must_visit() -> None:
    # every edge must be walked, so both pieces' nodes are passed: no single walk
    p = Puzzle.build(edges=[("a", "b"), ("c", "d")], use=EdgeUse.EXACTLY_ONCE, visit=ONCE)
    certificate = node_rule_certificate(p)
    assert certificate is not None and accepted(p, certificate)
    assert p.use is EdgeUse.EXACTLY_ONCE and node_rule_walks(p) == []
