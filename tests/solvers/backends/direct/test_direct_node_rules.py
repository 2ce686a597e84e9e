"""The direct backend under node rules (``visit``, ``via``, ``avoid``, ``at``), against the
brute-force oracle of ``tests/node_oracle.py`` that shares no code with it: every walk
it finds is one the oracle lists, it finds one exactly when the oracle does, its counts
and tours are the oracle's; and counts of famous graphs match OEIS, each graph built here.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from node_oracle import node_rule_walks, obeys_node_rules

from trailkit.models.answer import Status, Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct import DirectBackend
from trailkit.solvers.backends.direct import hamilton as hamilton_module
from trailkit.solvers.backends.direct.hamilton import solve_tour

DIRECT = DirectBackend()
NAMES = "abcde"


# ------------------------------------------------------------------ the oracle's answer
def expected(puzzle: Puzzle, max_steps: int | None = None) -> list[Walk]:
    """The oracle's solving walks in the project's conventions: a closed walk needs a
    step when there are edges (as the verifier says), and with reusable edges and nodes
    only the shortest walks count (there are infinitely many)."""
    walks = node_rule_walks(dataclasses.replace(puzzle, objective=Objective.ANY), max_steps)
    if puzzle.closed and puzzle.num_edges:
        walks = [w for w in walks if w.edges]
    objective = puzzle.objective
    if puzzle.use is EdgeUse.ANY and puzzle.visit is NodeVisit.ANY:
        objective = Objective.SHORTEST
    if walks and objective is not Objective.ANY:
        pick = min if objective is Objective.SHORTEST else max
        best = pick(len(w.edges) for w in walks)
        walks = [w for w in walks if len(w.edges) == best]
    return walks


def same(a: Walk, b: Walk) -> bool:
    return tuple(a.nodes) == tuple(b.nodes) and tuple(a.edges) == tuple(b.edges)


@st.composite
def node_rule_puzzles(draw: st.DrawFn, reusable: bool = False) -> Puzzle:
    """Small puzzles with every node rule, edge rules, one-way edges and colour rules."""
    n = draw(st.integers(1, 4))
    names = NAMES[:n]
    node = st.sampled_from(names)
    rule = draw(st.sampled_from([None, ColourRule.from_cycle(["r", "g"])]))
    colour = st.sampled_from("rg") if rule else st.none()
    edges = draw(st.lists(st.tuples(node, node, colour), max_size=6))
    if reusable:
        visit, use = NodeVisit.ANY, EdgeUse.ANY
    else:
        visit = draw(st.sampled_from(list(NodeVisit)))
        uses = list(EdgeUse) if visit is not NodeVisit.ANY else [
            EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE]
        use = draw(st.sampled_from(uses))
    via = draw(st.sets(node, max_size=2))
    avoid = draw(st.sets(node, max_size=2)) - via
    at = draw(st.dictionaries(node, st.integers(1, n + 1), max_size=1))
    at = {v: p for v, p in at.items() if v not in avoid}
    extra = {}
    if draw(st.booleans()):
        extra["start"] = [draw(node)]
    if draw(st.booleans()):
        extra["end"] = [draw(node)]
    if rule and draw(st.booleans()):
        extra["first"] = ["g"]
    puzzle = Puzzle.build(
        nodes=names, edges=edges, directed=draw(st.lists(st.booleans(), min_size=len(edges),
                                                          max_size=len(edges))),
        colours=rule, visit=visit, use=use, closed=draw(st.booleans()), via=via,
        avoid=avoid, at=at, objective=Objective.SHORTEST if reusable else draw(
            st.sampled_from(list(Objective))), **extra)
    if not puzzle.has_node_rules:
        puzzle = dataclasses.replace(puzzle, via=frozenset({0}))
    return puzzle


def check_solve(puzzle: Puzzle, walks: list[Walk]) -> None:
    answer = DIRECT.solve(puzzle, Limits())
    assert (answer.status is Status.SOLVED) == bool(walks), (answer, walks)
    if answer.walk is not None:
        assert any(same(answer.walk, w) for w in walks)
        assert obeys_node_rules(puzzle, tuple(answer.walk.nodes))
        assert not verify(puzzle, answer.walk)


# --------------------------------------------------------------------- against the oracle
@given(node_rule_puzzles())
def test_solve_and_count_agree_with_the_oracle(puzzle: Puzzle) -> None:
    walks = expected(puzzle)
    check_solve(puzzle, walks)
    result = DIRECT.count(puzzle, Limits())
    assert result.complete and result.solutions == len(walks)
    if puzzle.closed and puzzle.visit is NodeVisit.EVERY_ONCE:
        assert result.tours == len({frozenset(w.edges) for w in walks})
    else:
        assert result.tours is None


@given(node_rule_puzzles(reusable=True))
def test_reusable_walks_are_the_shortest_the_oracle_lists(puzzle: Puzzle) -> None:
    walks = expected(puzzle, max_steps=6)
    answer = DIRECT.solve(puzzle, Limits())
    if answer.walk is not None and len(answer.walk) > 6:
        assert not walks  # beyond what the oracle lists: it must have found none shorter
        return
    check_solve(puzzle, walks)
    assert DIRECT.count(puzzle, Limits()).solutions == len(walks)


@given(node_rule_puzzles(), st.booleans())
def test_the_tour_search_compiled_and_interpreted(puzzle: Puzzle, compiled: bool) -> None:
    """The compiled kernel and the same code interpreted find the oracle's walks."""
    puzzle = dataclasses.replace(puzzle, visit=NodeVisit.EVERY_ONCE, colours=None,
                                 use=EdgeUse.AT_MOST_ONCE, objective=Objective.ANY)
    if not hamilton_module.tour_applies(puzzle):
        return
    walks = expected(puzzle)
    with pytest.MonkeyPatch.context() as patch:  # no interpreted dive: compiled at once
        patch.setattr(hamilton_module, "_DIVE", 0 if compiled else 10**6)
        patch.setattr(hamilton_module, "_DIVE_MORE", 0 if compiled else 10**6)
        answer = solve_tour(puzzle, Limits())
    assert (answer.status is Status.SOLVED) == bool(walks)
    if answer.walk is not None:
        assert any(same(answer.walk, w) for w in walks)


# ------------------------------------------------------------------------------ graphs
def knight(cols: int, rows: int) -> list[tuple[str, str]]:
    """A knight's moves on a board, cells named as on a chess board."""
    def column(x: int) -> str:  # a .. z, aa, ab, ...
        letters = "abcdefghijklmnopqrstuvwxyz"
        return letters[x] if x < 26 else column(x // 26 - 1) + letters[x % 26]

    def cell(x: int, y: int) -> str:
        return f"{column(x)}{y + 1}"
    return [(cell(x, y), cell(x + dx, y + dy)) for x in range(cols) for y in range(rows)
            for dx, dy in ((1, 2), (2, 1), (2, -1), (1, -2))
            if 0 <= x + dx < cols and 0 <= y + dy < rows]


def grid(cols: int, rows: int) -> list[tuple[str, str]]:
    """The grid graph P_cols x P_rows."""
    cells = {(x, y) for x in range(cols) for y in range(rows)}
    return [(f"{x},{y}", f"{x + dx},{y + dy}") for x, y in sorted(cells)
            for dx, dy in ((1, 0), (0, 1)) if (x + dx, y + dy) in cells]


def hypercube(d: int) -> list[tuple[str, str]]:
    return [(str(a), str(a ^ 1 << i)) for a in range(1 << d) for i in range(d)
            if a < a ^ 1 << i]


def dodecahedron() -> list[tuple[str, str]]:
    """The generalised Petersen graph G(10, 2): the dodecahedron's skeleton."""
    return ([(f"o{i}", f"o{(i + 1) % 10}") for i in range(10)]
            + [(f"o{i}", f"i{i}") for i in range(10)]
            + [(f"i{i}", f"i{(i + 2) % 10}") for i in range(10)])


def tour(edges: list[tuple[str, str]], closed: bool = True, **rules: object) -> Puzzle:
    return Puzzle.build(edges=edges, visit=NodeVisit.EVERY_ONCE, use=EdgeUse.AT_MOST_ONCE,
                        closed=closed, **rules)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "edges", "tours"), [
    ("dodecahedron (Hamilton's Icosian game)", dodecahedron(), 30),
    ("hypercube Q3 (A066037)", hypercube(3), 6),
    ("hypercube Q4 (A066037)", hypercube(4), 1344),
    ("grid P4 x P4 (A003763)", grid(4, 4), 6),
])
def test_hamiltonian_cycles_match_oeis(name: str, edges: list[tuple[str, str]],
                                       tours: int) -> None:
    puzzle = tour(edges)
    result = DIRECT.count(puzzle, Limits())
    assert result.complete and result.tours == tours, name
    # every cycle walked from each of its n nodes in both directions
    assert result.solutions == tours * puzzle.num_nodes * 2


def test_open_knights_tours_from_a_corner_match_oeis() -> None:
    """A165134's table: 304 directed open tours of the 5x5 board start at a corner."""
    result = DIRECT.count(tour(knight(5, 5), closed=False, at={"a1": 1}), Limits())
    assert result.complete and result.solutions == 304
    assert result.tours is None


@pytest.mark.slow
@pytest.mark.long  # the full 6x6 count (smaller grids: the tests above)
def test_hamiltonian_cycles_of_the_6x6_grid_match_oeis() -> None:
    assert DIRECT.count(tour(grid(6, 6)), Limits()).tours == 1072  # A003763


def test_one_way_cycles_and_their_reverses_are_two_tours() -> None:
    """On one-way edges a cycle and its reverse are two tours (CONTRACT §7)."""
    ring = [("a", "b"), ("b", "c"), ("c", "a")]
    both = Puzzle.build(edges=ring + [(v, u) for u, v in ring], directed=[True] * 6,
                        visit=NodeVisit.EVERY_ONCE, use=EdgeUse.AT_MOST_ONCE, closed=True)
    result = DIRECT.count(both, Limits())
    assert (result.solutions, result.tours) == (6, 2)
    assert result.tours == len({frozenset(w.edges) for w in expected(both)})


# ------------------------------------------------------------------------------ boards
@pytest.mark.parametrize(("size", "closed"), [(5, False), (6, True), (8, False), (8, True),
                                              (12, False), (20, True), (30, True)])
def test_knights_tours_are_found_and_obey_every_rule(size: int, closed: bool) -> None:
    puzzle = tour(knight(size, size), closed=closed)
    answer = DIRECT.solve(puzzle, Limits(time_limit=30))
    assert answer.status is Status.SOLVED
    assert answer.walk is not None and len(answer.walk) == size * size - (not closed)
    assert obeys_node_rules(puzzle, tuple(answer.walk.nodes))
    assert not verify(puzzle, answer.walk)


def test_no_closed_knights_tour_on_an_odd_board() -> None:
    """5x5: 13 cells of one colour, 12 of the other, and a knight alternates colours."""
    answer = DIRECT.solve(tour(knight(5, 5)), Limits())
    assert answer.status is Status.UNSOLVABLE


def test_numbrix_givens_are_kept() -> None:
    """A Numbrix-like walk on a 4x4 grid: every cell once, with cells given positions."""
    givens = {"0,0": 1, "3,0": 4, "3,3": 7, "0,3": 16}
    puzzle = tour(grid(4, 4), closed=False, at=givens)
    answer = DIRECT.solve(puzzle, Limits())
    assert answer.walk is not None
    assert all(answer.walk.nodes[p - 1] == puzzle.node_index(v) for v, p in givens.items())
    small = tour(grid(3, 3), closed=False, at={"0,0": 1, "2,2": 5})
    assert DIRECT.count(small, Limits()).solutions == len(expected(small)) > 0


# ------------------------------------------------------------------------------ limits
def test_a_work_limit_is_unknown_never_a_guess() -> None:
    puzzle = tour(grid(4, 5), avoid=["0,0"])  # unsolvable: the colours are out of balance
    assert DIRECT.solve(puzzle, Limits()).status is Status.UNSOLVABLE
    assert DIRECT.solve(puzzle, Limits(work_limit=3)).status is Status.UNKNOWN
    general = dataclasses.replace(puzzle, visit=NodeVisit.AT_MOST_ONCE,
                                  objective=Objective.LONGEST)
    answer = DIRECT.solve(general, Limits(work_limit=5))
    assert answer.status is Status.UNKNOWN or answer.optimal is False


def test_a_stopped_count_is_a_lower_bound() -> None:
    puzzle = tour(hypercube(4))
    full = DIRECT.count(puzzle, Limits())
    stopped = DIRECT.count(puzzle, Limits(work_limit=2000))
    assert not stopped.complete and "at least" in stopped.reason
    assert stopped.solutions <= full.solutions and stopped.tours is None


def test_failures_are_refused_clearly() -> None:
    with pytest.raises(UnsupportedPuzzle, match="not counted under node rules"):
        DIRECT.count(tour(hypercube(3)), Limits(), failures=True)


def test_longest_simple_path() -> None:
    """visit: at-most-once with objective: longest is the longest simple path."""
    edges = [(a, b) for a, b in itertools.combinations("abcd", 2)] + [("d", "e"), ("e", "f")]
    puzzle = Puzzle.build(edges=edges, visit=NodeVisit.AT_MOST_ONCE,
                          use=EdgeUse.AT_MOST_ONCE, objective=Objective.LONGEST)
    answer = DIRECT.solve(puzzle, Limits())
    assert answer.optimal and len(answer.walk or Walk((), ())) == 5
    assert DIRECT.count(puzzle, Limits()).solutions == len(expected(puzzle))


# ------------------------------------------------------------------- words and JSON
def test_count_words_and_json_say_the_tours() -> None:
    """``count`` says the tours in words and in JSON (CONTRACT §7), valid by its schema."""
    from conftest import validate_output

    from trailkit.solvers.frontends.cli.output import plain_json
    from trailkit.solvers.frontends.presenter.results import count_json, count_text
    from trailkit.solvers.pipeline.counting import count

    puzzle = tour(dodecahedron())
    result = count(puzzle)
    assert "  tours:          30 (each cycle once, whatever its start and direction)" \
        in count_text(puzzle, result, None, False)
    obj = count_json(puzzle, result, None, False)
    assert (obj["solutions"], obj["tours"]) == (1200, 30)
    validate_output(plain_json(obj))
    path = tour(hypercube(3), closed=False)
    assert "tours" not in count_json(path, count(path), None, False)
    stopped = count(tour(hypercube(4)), limits=Limits(work_limit=100))
    assert count_json(tour(hypercube(4)), stopped, None, False)["tours"] is None


def test_tours_counted_from_one_node_keep_the_start_and_end_rules() -> None:
    """Closed tours are counted from one node and multiplied by the allowed starts; the
    start and end rules choose those starts, never the node counted from."""
    ring = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a")], end=["b"],
                        visit=NodeVisit.EVERY_ONCE, use=EdgeUse.AT_MOST_ONCE, closed=True)
    result = DIRECT.count(ring, Limits())
    walks = expected(ring)
    assert (result.solutions, result.tours) == (len(walks), 1) == (2, 1)


def test_a_second_backend_that_ignores_node_rules_is_not_asked() -> None:
    """The pipeline asks no backend without node rules to confirm the direct backend's
    "unsolvable" (it would answer the puzzle without them: a false disagreement)."""
    from trailkit.solvers.pipeline.solving import solve

    answer = solve(tour(knight(5, 5)))
    assert answer.status in (Status.UNSOLVABLE, Status.UNKNOWN)
    assert answer.walk is None


def test_ctrl_c_stops_a_count_with_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a count: what was counted so far, said to be a lower bound."""
    from trailkit.solvers.backends.direct import node_count

    monkeypatch.setattr(node_count, "_PROGRESS_EVERY", 50)

    def interrupt(_: int) -> None:
        raise KeyboardInterrupt

    puzzle = tour(hypercube(4))
    result = DIRECT.count(puzzle, Limits(), progress=interrupt)
    assert not result.complete and result.stats["interrupted"]
    assert "at least" in result.reason
    assert result.solutions <= DIRECT.count(puzzle, Limits()).solutions


@given(node_rule_puzzles())
def test_the_table_over_subsets_counts_as_the_oracle(puzzle: Puzzle) -> None:
    """The compiled dynamic programme over subsets (the search tries no state first)."""
    from trailkit.solvers.backends.direct import node_count, subset_count

    puzzle = dataclasses.replace(puzzle, visit=NodeVisit.EVERY_ONCE, colours=None,
                                 use=EdgeUse.AT_MOST_ONCE)
    if not subset_count.applies(puzzle, None):
        return
    walks = expected(puzzle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(node_count, "TRIAL_STATES", 0)
        result = DIRECT.count(puzzle, Limits())
    assert result.solutions == len(walks)  # (the search may finish with no state made)
    if puzzle.closed:
        assert result.tours == len({frozenset(w.edges) for w in walks})


@pytest.mark.parametrize(("edges", "tours"), [(dodecahedron(), 30), (hypercube(4), 1344)])
def test_the_table_over_subsets_matches_oeis(edges: list[tuple[str, str]], tours: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.solvers.backends.direct import node_count

    monkeypatch.setattr(node_count, "TRIAL_STATES", 0)
    puzzle = tour(edges)
    result = DIRECT.count(puzzle, Limits())
    assert result.method == "dynamic programme over subsets"
    assert (result.solutions, result.tours) == (tours * puzzle.num_nodes * 2, tours)
