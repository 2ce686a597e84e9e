"""The independent verifier under node rules (CONTRACT 1.4 §7): it accepts exactly the
walks that the brute-force oracle (``tests/node_oracle.py``, sharing no code with it)
lists, on random small puzzles with random node rules, its compiled fast path agreeing;
and a rejection names the rule and the node or position it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from hypothesis import given
from node_oracle import node_rule_walks
from node_rule_puzzles import node_rule_puzzles

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import _violations, verify, walk_ok
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.jit import COMPILE_FROM
from trailkit.solvers.backends.base import trivial_answer


def _every_walk(puzzle: Puzzle, max_steps: int) -> Iterator[Walk]:
    """Every walk along the edges' directions of up to ``max_steps`` steps, whatever the
    other rules (written here, so that it shares nothing with the oracle either)."""
    stack = [((v,), ()) for v in range(puzzle.num_nodes)]
    while stack:
        nodes, edges = stack.pop()
        yield Walk(nodes, edges)
        if len(edges) < max_steps:
            for e in range(puzzle.num_edges):
                for a, b in ((puzzle.tail[e], puzzle.head[e]), (puzzle.head[e], puzzle.tail[e])):
                    if a == nodes[-1] and ((a, b) == (puzzle.tail[e], puzzle.head[e])
                                           or not puzzle.is_directed(e)):
                        stack.append(((*nodes, b), (*edges, e)))


def _key(walk: Walk) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(walk.nodes), tuple(walk.edges)


@given(node_rule_puzzles())
def test_verify_accepts_exactly_the_walks_the_oracle_lists(puzzle: Puzzle) -> None:
    steps = min(puzzle.num_nodes + 1, 4)
    solving = {_key(w) for w in node_rule_walks(puzzle, max_steps=steps)}
    for walk in _every_walk(puzzle, steps):
        if puzzle.closed and not walk.edges:
            continue  # the edge rules' "a closed walk needs a step" (no node rule's)
        accepted = verify(puzzle, walk) == []
        assert accepted == (_key(walk) in solving), (walk, _violations(puzzle, walk))
        assert walk_ok(puzzle, walk, compiled=False) == accepted


def _square(**rules: object) -> Puzzle:
    return Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
                        use=EdgeUse.ANY, **rules)  # type: ignore[arg-type]


def _messages(puzzle: Puzzle, nodes: str) -> list[str]:
    """What verify says of the walk through ``nodes`` (each step by the first edge)."""
    index = puzzle.nodes.index
    path = [index(v) for v in nodes]
    steps = []
    for a, b in pairwise(path):
        steps.append(next(e for e in range(puzzle.num_edges)
                          if {puzzle.tail[e], puzzle.head[e]} == {a, b}))
    walk = Walk(tuple(path), tuple(steps))
    found = [str(v) for v in verify(puzzle, walk)]
    assert walk_ok(puzzle, walk) == (found == [])
    return found


def test_a_node_twice_names_its_positions_and_the_rule() -> None:
    found = _messages(_square(visit=NodeVisit.AT_MOST_ONCE), "abcab")
    assert "node a holds positions 1 and 4, but visit: at-most-once" in found
    assert "node b holds positions 2 and 5, but visit: at-most-once" in found


def test_a_closed_walks_return_is_no_new_position() -> None:
    assert _messages(_square(visit=NodeVisit.EVERY_ONCE, closed=True), "abcda") == []
    found = _messages(_square(visit=NodeVisit.EVERY_ONCE, closed=True), "abca")
    assert found == ["node d holds no position, but visit: every-once"]


def test_via_avoid_and_at_are_named() -> None:
    assert _messages(_square(via=["d"]), "abc") == ["node d holds no position, but it is "
                                                    "in via"]
    assert _messages(_square(avoid=["b"]), "abc") == ["node b holds position 2, but it is "
                                                      "in avoid"]
    assert _messages(_square(at={"c": 2}), "abc") == ["position 2 is held by node b, but at "
                                                      "gives it to node c"]
    assert _messages(_square(at={"d": 9}), "abc") == ["at gives node d position 9, but the "
                                                      "walk has only 3 positions"]
    assert _messages(_square(at={"c": 3}, avoid=["d"], via=["b"]), "abc") == []


def test_without_node_rules_a_node_may_come_back() -> None:
    assert _messages(_square(), "abcab") == []


@given(node_rule_puzzles())
def test_the_empty_walk_and_the_trivial_answer_obey_node_rules(puzzle: Puzzle) -> None:
    solving = node_rule_walks(puzzle, max_steps=min(puzzle.num_nodes + 1, 3))
    standing = sorted(w.nodes[0] for w in solving if not w.edges)
    if puzzle.closed and puzzle.num_edges:
        standing = []  # a closed walk needs a step (an edge rule)
    assert puzzle.empty_walk_nodes() == standing
    answer = trivial_answer("test", puzzle)
    if answer is not None and answer.walk is not None:
        assert verify(puzzle, answer.walk) == []
    elif answer is not None:
        assert not node_rule_walks(puzzle)


def test_a_long_walk_is_checked_by_the_compiled_path_with_the_same_words() -> None:
    n = COMPILE_FROM + 10
    names = [f"v{i}" for i in range(n)]
    line = Puzzle.build(nodes=names, edges=[(names[i], names[i + 1]) for i in range(n - 1)],
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE,
                        at={"v0": 1, names[-1]: n})
    walk = Walk(tuple(range(n)), tuple(range(n - 1)))
    assert walk_ok(line, walk) and verify(line, walk) == []
    shifted = Puzzle.build(nodes=names, edges=[(names[i], names[i + 1]) for i in range(n - 1)],
                           use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE,
                           at={"v5": 7})
    assert not walk_ok(shifted, walk)
    assert [str(v) for v in verify(shifted, walk)] == [
        "position 7 is held by node v6, but at gives it to node v5"]
