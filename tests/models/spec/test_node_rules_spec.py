"""The node rules of the spec language (CONTRACT 1.4 §7): ``visit``, ``via``, ``avoid``,
``at``, ``kind: tour`` and ``board:`` read into the Puzzle fields, and every mistake the
contract lists located (line, column) with what to do; the contract's "not errors" load.
"""

from __future__ import annotations

import pytest

from trailkit.models.errors import SpecError
from trailkit.models.puzzle import EdgeUse, NodeVisit
from trailkit.models.spec import check_spec_text, load_spec_text

HEAD = "trailkit: 1\n"
PATH = HEAD + "kind: walk\nedges: [a b, b c, c d]\n"


def test_node_rules_become_the_puzzle_fields() -> None:
    p = load_spec_text(PATH + "visit: every-once\nvia: [b]\navoid: [d]\nat: {a: 1, c: 3}\n")
    index = p.nodes.index
    assert p.visit is NodeVisit.EVERY_ONCE
    assert p.via == {index("b")} and p.avoid == {index("d")}
    assert p.at == {index("a"): 1, index("c"): 3}
    assert p.use is EdgeUse.AT_MOST_ONCE  # visit other than any: at-most-once by default
    assert p.has_node_rules


@pytest.mark.parametrize(("rules", "use"), [
    ("visit: at-most-once\nuse: any\n", EdgeUse.ANY),
    ("visit: any\n", EdgeUse.EXACTLY_ONCE),
    ("via: [a]\n", EdgeUse.EXACTLY_ONCE),
])
def test_use_defaults_to_at_most_once_only_under_a_visit_rule(rules: str, use: EdgeUse) -> None:
    assert load_spec_text(PATH + rules).use is use


def test_a_single_name_is_a_list_of_one() -> None:
    p = load_spec_text(PATH + "via: c\navoid: d\n")
    assert p.via == {p.nodes.index("c")} and p.avoid == {p.nodes.index("d")}


def test_every_graph_kind_takes_node_rules() -> None:
    for text in (HEAD + "kind: trail\nedges: [a b, b c]\nvia: [b]\n",
                 HEAD + "kind: domino-chain\ndominoes: [[1, 2], [2, 1]]\navoid: ['3']\n"
                 "nodes: ['1', '2', '3']\n",
                 HEAD + "kind: colour-walk\nedges: [a b red, b c blue]\nstart: a\ngoal: c\n"
                 "visit: at-most-once\n"):
        assert load_spec_text(text).has_node_rules


def test_a_tour_visits_every_node_once_closed_unless_said() -> None:
    tour = load_spec_text(HEAD + "kind: tour\nedges: [a b, b c, c a]\n")
    assert (tour.visit, tour.use, tour.closed) == (NodeVisit.EVERY_ONCE,
                                                    EdgeUse.AT_MOST_ONCE, True)
    path = load_spec_text(HEAD + "kind: tour\nedges: [a b, b c]\nclosed: false\n")
    assert path.visit is NodeVisit.EVERY_ONCE and not path.closed
    longest = load_spec_text(HEAD + "kind: walk\nedges: [a b, b c]\nvisit: at-most-once\n"
                             "objective: longest\n")
    assert longest.wants_longest


@pytest.mark.parametrize(("size", "moves", "edges"), [
    ((8, 8), "knight", 168), ((3, 3), "knight", 8), ((3, 3), "king", 20),
    ((3, 3), "orthogonal", 12), ((3, 3), "diagonal", 8), ((1, 1), "king", 0),
    ((4, 2), "orthogonal", 10),
])
def test_a_board_has_the_moves_edges(size: tuple[int, int], moves: str, edges: int) -> None:
    p = load_spec_text(HEAD + f"kind: tour\nboard: {{size: [{size[0]}, {size[1]}], "
                       f"moves: {moves}}}\n")
    assert p.num_nodes == size[0] * size[1] and p.num_edges == edges
    assert p.meta["board"] == {"cols": size[0], "rows": size[1], "moves": moves}
    assert not p.any_directed
    assert len({frozenset((p.tail[e], p.head[e])) for e in range(p.num_edges)}) == edges


def test_board_cells_are_named_as_on_a_chess_board() -> None:
    p = load_spec_text(HEAD + "kind: walk\nboard: {size: [28, 2], moves: orthogonal}\n")
    assert p.nodes[:3] == ("a1", "b1", "c1") and p.nodes[25:28] == ("z1", "aa1", "ab1")
    assert p.nodes[28] == "a2"
    assert p.layout is not None
    assert p.layout["a1"] == (0.0, 0.0) and p.layout["ab2"] == (27.0, 1.0)
    knight = load_spec_text(HEAD + "kind: tour\nboard: {size: [8, 8], moves: knight}\n")
    b1 = knight.nodes.index("b1")
    jumps = {knight.nodes[knight.head[e] if knight.tail[e] == b1 else knight.tail[e]]
             for e in range(knight.num_edges) if b1 in (knight.tail[e], knight.head[e])}
    assert jumps == {"a3", "c3", "d2"}


def test_edges_add_to_a_board_with_ids_after_its_own() -> None:
    p = load_spec_text(HEAD + "kind: walk\nboard: {size: [2, 2], moves: orthogonal}\n"
                       "edges: [a1 b2, b2 x]\navoid: [b1]\nlayout: {x: [3, 3]}\n")
    assert p.num_edges == 6 and p.edge_id(4) == 4
    assert (p.nodes[p.tail[4]], p.nodes[p.head[4]]) == ("a1", "b2")
    assert p.avoid == {p.nodes.index("b1")}  # a hole in the board
    assert p.layout is not None and p.layout["x"] == (3.0, 3.0) and p.layout["b2"] == (1, 1)


def _problems(text: str) -> list[tuple[int | None, int | None, str]]:
    return [(e.location.line, e.location.column, e.message) for e in check_spec_text(text)]


# (spec text, line, column, words the message must contain)
BAD = {
    "position-below-1": (PATH + "at: {a: 0}\n", 4, 9, ["at.a", "position 0", "from 1"]),
    "two-nodes-one-position": (PATH + "at: {a: 2, b: 2}\n", 4, 15,
                               ["position 2", "'a'", "'b'", "one node"]),
    "past-the-end": (PATH + "visit: every-once\navoid: [d]\nat: {c: 4}\n", 6, 9,
                     ["at.c", "position 4", "only 3 positions", "1 to 3"]),
    "tour-past-the-end": (HEAD + "kind: tour\nedges: [a b, b c, c a]\nat: {a: 4}\n", 4, 9,
                          ["position 4", "only 3"]),
    "via-and-avoid": (PATH + "via: [b]\navoid: [b]\n", 4, 7, ["'b'", "'via'", "'avoid'",
                                                            "line 5"]),
    "at-and-avoid": (PATH + "avoid: [c]\nat: {c: 2}\n", 5, 9, ["'c'", "'at'", "'avoid'"]),
    "unknown-via": (PATH + "via: [bb]\n", 4, 7, ["'bb'", "did you mean 'b'"]),
    "unknown-avoid": (PATH + "avoid: [e, D]\n", 4, 12, ["'D'", "did you mean 'd'"]),
    "unknown-at": (PATH + "at: {cc: 1}\n", 4, 6, ["'cc'", "did you mean 'c'"]),
    "undeclared": (HEAD + "kind: walk\nnodes: [a, b]\nedges: [a b]\nvia: [c]\n", 5, 7,
                   ["'c'", "not listed in 'nodes:'"]),
    "bad-visit": (PATH + "visit: every-one\n", 4, 8, ["visit", "did you mean 'every-once'"]),
    "bad-position": (PATH + "at: {a: first}\n", 4, 9, ["at.a", "whole number"]),
    "misspelt-key": (PATH + "vias: [a]\n", 4, 1, ["'vias'", "did you mean 'via'"]),
    "givens-key": (PATH + "givens: {a: 1}\n", 4, 1, ["did you mean 'at'"]),
    "tour-visit": (HEAD + "kind: tour\nedges: [a b]\nvisit: any\n", 4, 1,
                   ["kind 'tour' fixes 'visit'", "kind: walk"]),
    "tour-closed-ends": (HEAD + "kind: tour\nedges: [a b, b c]\nstart: a\nend: c\n", 5, 6,
                         ["closed: true", "closed: false"]),
    "board-moves": (HEAD + "kind: tour\nboard: {size: [5, 5], moves: knigth}\n", 3, 30,
                    ["board.moves", "did you mean 'knight'"]),
    "board-size": (HEAD + "kind: tour\nboard: {size: 5, moves: king}\n", 3, 15,
                   ["board.size", "[COLS, ROWS]"]),
    "board-size-0": (HEAD + "kind: tour\nboard: {size: [0, 3], moves: king}\n", 3, 16,
                     ["board.size[0]", "at least 1"]),
    "board-no-moves": (HEAD + "kind: tour\nboard: {size: [3, 3]}\n", 3, 8,
                       ["board needs 'moves'"]),
    "board-key": (HEAD + "kind: tour\nboard: {size: [3, 3], move: king}\n", 3, 23,
                  ["'move'", "did you mean 'moves'"]),
    "board-cell": (HEAD + "kind: tour\nboard: {size: [3, 3], moves: king}\nvia: [c4]\n",
                   4, 7, ["'c4'", "no node", "cells are a1 to c3"]),
    "board-in-colour-walk": (HEAD + "kind: colour-walk\nboard: {size: [3, 3], moves: king}\n"
                             "start: a1\ngoal: c3\n", 3, 1, ["'board'"]),
    "board-needs-colours": (HEAD + "kind: walk\ncolours: {cycle: [red, blue]}\n"
                            "board: {size: [2, 2], moves: king}\n", 4, 1, ["no colour"]),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_every_mistake_is_located(name: str) -> None:
    text, line, column, words = BAD[name]
    found = _problems(text)
    assert found, f"{name}: no problem found"
    assert any(ln == line and col == column and all(w in msg for w in words)
               for ln, col, msg in found), found


def test_every_mistake_of_one_spec_is_reported() -> None:
    found = _problems(PATH + "visit: every-once\nvia: [a, zz]\navoid: [a]\n"
                      "at: {b: 0, c: 9}\n")
    assert len(found) == 4, found


@pytest.mark.parametrize("text", [
    # an avoided node that an edge which must be used touches: unsolvable, not an error
    HEAD + "kind: trail\nedges: [a b, b c]\navoid: [b]\n",
    # a position no walk can reach: unsolvable, not an error
    PATH + "at: {a: 50}\n",
    PATH + "visit: at-most-once\nat: {a: 5}\n",
    # under visit: any a node may hold other positions too; the start may be elsewhere
    PATH + "at: {a: 1}\nstart: b\n",
    # a node listed with no edge may be avoided or required
    HEAD + "kind: walk\nnodes: [a, b, z]\nedges: [a b]\nvia: [z]\n",
])
def test_the_contracts_not_errors_load(text: str) -> None:
    assert load_spec_text(text).has_node_rules


def test_a_bad_spec_raises_a_located_spec_error() -> None:
    with pytest.raises(SpecError) as caught:
        load_spec_text(PATH + "at: {a: -3}\n")
    assert caught.value.location.line == 4 and "-3" in caught.value.message
