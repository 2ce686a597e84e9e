"""The givens' distances in the node formula (``"distances": true``,
:mod:`trailkit.models.formulas.node_positions`): the step literals no walk can take are
left out, and the formula's models stay exactly the brute-force oracle's walks
(``tests/node_oracle.py``) on small puzzles with givens, open and closed, one-way edges
among them, and on small boards. A ``walk-blocked-v1`` certificate made with them is
accepted (by drat-trim too), one of earlier versions (no parameter) still is, and one
made with a wrong distance (a literal pruned that a walk takes) is rejected.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from node_oracle import given_paths, node_rule_walks
from outside_tools import tool
from pysat.solvers import Solver

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.formulas import node_positions
from trailkit.models.formulas.blocked_walks import blocked_formula, blocking_clause, walk_json
from trailkit.models.formulas.node_positions import (
    encode_node_prefix,
    given_distances,
    node_horizon,
)
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.backends.sat.runner import DEFAULT_SOLVER, Deadline, Verdict
from trailkit.solvers.backends.sat.walk_proof import enumerate_walks
from trailkit.solvers.pipeline.refuted_claims import count_claim, only_walk_claim
from trailkit.solvers.tools.design.inspect_parts import without_edge

NAMES = "abcde"
Key = tuple[tuple[int, ...], tuple[int, ...]]

HIDATO = """trailkit: 1
kind: tour
closed: false
board: {size: [4, 4], moves: king}
at: {d1: 4, c2: 6, b2: 7, b4: 11, b3: 12, c4: 14, d4: 16}
"""


@st.composite
def given_puzzles(draw: st.DrawFn) -> Puzzle:
    """A small random graph with one to three givens, other node rules and edge rules,
    some edges one-way, the walk open or closed."""
    n = draw(st.integers(2, 5))
    names = NAMES[:n]
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                          min_size=1, max_size=8))
    directed = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    visit = draw(st.sampled_from(list(NodeVisit)))
    use = draw(st.sampled_from([EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE] +
                               ([EdgeUse.ANY] if visit is not NodeVisit.ANY else [])))
    avoid = draw(st.sets(st.sampled_from(names), max_size=1))
    at_nodes = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    places = draw(st.lists(st.integers(1, n + 1), min_size=len(at_nodes),
                           max_size=len(at_nodes), unique=True))
    return Puzzle.build(edges=pairs, nodes=names, directed=directed, use=use, visit=visit,
                        avoid=avoid, at=dict(zip(at_nodes, places, strict=True)),
                        closed=draw(st.booleans()))


def solutions(puzzle: Puzzle, *, distances: bool = False) -> list[Walk]:
    """Every walk of the node prefix with "a first step", each blocked once found."""
    horizon = node_horizon(puzzle)
    if horizon == 0:
        return []
    clauses, vmap = encode_node_prefix(puzzle, horizon, distances=distances)
    found = []
    with Solver(name="cadical195", bootstrap_with=[*clauses, [vmap.active[0]]]) as solver:
        while solver.solve():
            walk = vmap.decode(puzzle, solver.get_model() or [])
            found.append(walk)
            block = blocking_clause(puzzle, vmap, walk)
            assert isinstance(block, list)
            solver.add_clause(block)
    return found


def models(puzzle: Puzzle, *, distances: bool) -> set[Key]:
    return {(tuple(w.nodes), tuple(w.edges)) for w in solutions(puzzle, distances=distances)}


@costly(0.5, "each example lists every model of a formula with a SAT solver")
@given(given_puzzles())
def test_the_pruned_formulas_models_are_exactly_the_oracles_walks(puzzle: Puzzle) -> None:
    oracle = {(tuple(w.nodes), tuple(w.edges)) for w in node_rule_walks(puzzle) if w.edges}
    assert models(puzzle, distances=True) == oracle


@st.composite
def given_boards(draw: st.DrawFn) -> Puzzle:
    """A Hidato-like board of up to 4 x 3 cells (king, orthogonal or knight moves) with one
    to three cells given random positions: an open path through every cell."""
    cols, rows = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    cells = [f"{'abcd'[c]}{r + 1}" for r in range(rows) for c in range(cols)]
    given = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
    places = draw(st.lists(st.integers(1, len(cells)), min_size=len(given),
                           max_size=len(given), unique=True))
    at = ", ".join(f"{c}: {q}" for c, q in zip(given, places, strict=True))
    moves = draw(st.sampled_from(["king", "orthogonal", "knight"]))
    return load_spec_text(f"trailkit: 1\nkind: tour\nclosed: false\n"
                          f"board: {{size: [{cols}, {rows}], moves: {moves}}}\nat: {{{at}}}\n")


@costly(0.25, "each example lists every path of a board with a SAT solver")
@given(given_boards())
def test_the_pruned_formulas_paths_on_a_board_are_the_oracles(puzzle: Puzzle) -> None:
    paths = {tuple(w.nodes) for w in solutions(puzzle, distances=True)}
    assert paths == given_paths(puzzle)


def test_a_node_stands_only_as_far_from_a_given_as_the_steps_between() -> None:
    """a -> b -> c -> d one way, d given at position 4: a can only be at position 1,
    b at 1 or 2, c at 1 to 3, and after d (position 5) none of them, none being
    reachable from d; d itself anywhere (distances say nothing of a second visit)."""
    line = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d")], directed=[True] * 3,
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.AT_MOST_ONCE, at={"d": 4})
    stands = given_distances(line, 4)
    assert [[i for i, ok in enumerate(row) if ok] for row in stands] == \
        [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3, 4]]


def test_a_closed_walks_return_to_its_start_obeys_the_same_bounds() -> None:
    """A one-way ring a -> b -> c -> d -> a with a chord b -> d, c given at position 3:
    the return to the start comes k - 3 steps after c, as the bounds say (a at index 4
    only if d(c, a) <= 2): the one closed walk is kept, the chord pruned."""
    ring = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("b", "d")],
                        directed=[True] * 5, use=EdgeUse.AT_MOST_ONCE,
                        visit=NodeVisit.EVERY_ONCE, closed=True, at={"c": 3})
    oracle = {(tuple(w.nodes), tuple(w.edges)) for w in node_rule_walks(ring)}
    assert models(ring, distances=True) == oracle == {((0, 1, 2, 3, 0), (0, 1, 2, 3))}
    _, vmap = encode_node_prefix(ring, node_horizon(ring), distances=True)
    assert all(e != 4 for _, e, _ in vmap.index)


def hidato_walk(puzzle: Puzzle) -> Walk:
    (walk,) = solutions(puzzle)
    return walk


def test_a_hidatos_uniqueness_is_certified_on_the_near_steps_only() -> None:
    """The 4x4 Hidato's ``unique`` certificate keeps only the step literals the givens'
    distances allow: far fewer variables than the formula of earlier versions, and the
    checker accepts it."""
    puzzle = load_spec_text(HIDATO)
    walk = hidato_walk(puzzle)
    claim = only_walk_claim(puzzle, walk)
    assert claim.checked and claim.value is True and claim.certificate is not None
    data = claim.certificate.data
    assert data["encoding"] == "walk-blocked-v1" and data["distances"] is True
    full = blocked_formula(puzzle, {"walks": [walk_json(puzzle, walk)], "solutions": 1,
                                    "cardinality": "seqcounter"})
    assert not isinstance(full, list)
    assert data["num_vars"] < full.num_vars / 2
    assert verdict(puzzle, claim.certificate).accepted


def test_drat_trim_accepts_the_pruned_refutation(tmp_path: Path) -> None:
    """The formula a certificate stores is the pruned one, and an outside checker reads
    its proof as trailkit's does."""
    program = tool("DRAT_TRIM", "drat-trim")
    if program is None:
        pytest.skip("drat-trim is not installed")
    puzzle = load_spec_text(HIDATO)
    claim = only_walk_claim(puzzle, hidato_walk(puzzle))
    assert claim.certificate is not None
    (tmp_path / "f.cnf").write_text(str(claim.certificate.data["cnf"]))
    (tmp_path / "p.drat").write_text("\n".join(claim.certificate.data["proof"]) + "\n")
    done = subprocess.run([program, str(tmp_path / "f.cnf"), str(tmp_path / "p.drat")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert "s VERIFIED" in done.stdout, done.stdout[-500:]


def certificate(puzzle: Puzzle, *, distances: bool) -> Certificate:
    """A count certificate made by hand, as a maker with or without the distances."""
    result, walks, proof = enumerate_walks(puzzle, DEFAULT_SOLVER, Deadline(60), 100,
                                           distances=distances)
    assert result is Verdict.UNSAT and proof is not None
    data = {"walks": [walk_json(puzzle, w) for w in walks], "solutions": len(walks),
            "cardinality": "seqcounter", **({"distances": True} if distances else {})}
    formula = blocked_formula(puzzle, data)
    assert not isinstance(formula, list)
    made = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    assert made is not None
    return Certificate(made.kind, {**made.data, "claim": "count"}, made.explanation)


def test_a_certificate_of_earlier_versions_still_checks() -> None:
    """No ``distances`` parameter: the formula of every step literal, as before."""
    puzzle = load_spec_text(HIDATO)
    made = certificate(puzzle, distances=False)
    assert "distances" not in made.data
    assert verdict(puzzle, made).accepted
    forged = Certificate(made.kind, {**made.data, "distances": True}, made.explanation)
    assert not verdict(puzzle, forged).accepted


def test_a_certificate_made_with_a_wrong_distance_is_rejected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two paths through a, b, c, d from a to c (a b d c and a d b c): a wrong distance
    prunes d at position 2, so the maker's formula has one walk of the two, and its
    refutation lists only that one; the checker re-derives the true formula and rejects
    the certificate."""
    square = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("a", "d"), ("d", "c"),
                                 ("b", "d")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE,
                          at={"a": 1, "c": 4})
    assert len(node_rule_walks(square)) == 2
    truth, d = given_distances, square.nodes.index("d")

    def wrong(puzzle: Puzzle, horizon: int) -> list[list[bool]]:
        stands = truth(puzzle, horizon)
        stands[d][1] = False  # d at position 2, where a walk stands
        return stands

    monkeypatch.setattr(node_positions, "given_distances", wrong)
    made = certificate(square, distances=True)
    assert made.data["solutions"] == 1
    monkeypatch.undo()
    refused = verdict(square, made)
    assert not refused.accepted and "formula" in " ".join(refused.problems)


def test_the_distances_parameter_must_be_true_or_false() -> None:
    puzzle = load_spec_text(HIDATO)
    data = {"walks": [walk_json(puzzle, hidato_walk(puzzle))], "solutions": 1,
            "cardinality": "seqcounter", "distances": "yes"}
    assert blocked_formula(puzzle, data) == [
        "the certificate's distances must be true or false, not 'yes'"]


def test_the_known_walk_is_blocked_before_the_first_call() -> None:
    """The walk the caller has is listed first and never found again; a walk the formula
    has no steps for is refused."""
    puzzle = load_spec_text(HIDATO)
    walk = hidato_walk(puzzle)
    result, walks, proof = enumerate_walks(puzzle, DEFAULT_SOLVER, Deadline(60), 1,
                                           distances=True, known=[walk])
    assert result is Verdict.UNSAT and proof is not None and walks == [walk]
    too_long = Walk(walk.nodes + walk.nodes[-2:-1], walk.edges + walk.edges[-1:])
    with pytest.raises(ValueError, match="a known walk"):
        enumerate_walks(puzzle, DEFAULT_SOLVER, Deadline(60), 1, known=[too_long])


def test_a_count_with_givens_is_made_on_the_near_steps() -> None:
    puzzle = load_spec_text(HIDATO.replace("b2: 7, ", ""))
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked and claim.certificate is not None
    assert claim.certificate.data["distances"] is True
    assert claim.value == len(solutions(puzzle)) > 1


def test_an_unsolvable_hidato_is_refuted_on_the_near_steps() -> None:
    """The 4x4 Hidato without the edge c2 -- b2 its path takes (a critical edge, as
    ``inspect`` certifies it): the ``node-positions-v1`` refutation has the parameter and
    is accepted; the same proof read without the parameter (the formula of every step)
    is rejected."""
    puzzle = load_spec_text(HIDATO)
    walk = hidato_walk(puzzle)
    less = without_edge(puzzle, walk.edges[5])
    assert not solutions(less)
    made = get_backend("sat/position").prove(less)
    assert made is not None and made.data["encoding"] == "node-positions-v1"
    assert made.data["distances"] is True and verdict(less, made).accepted
    plain = {k: v for k, v in made.data.items() if k != "distances"}
    assert not verdict(less, Certificate(made.kind, plain, made.explanation)).accepted
