"""``node-cuts-v1``: walks through every node by arc literals and lazily added cut
clauses (:mod:`trailkit.models.formulas.node_cuts`, solved by
:mod:`trailkit.solvers.backends.sat.hamilton_cuts`), against the brute-force oracle of
``tests/node_oracle.py``; its certificates checked, and a forged cut refused.
"""

from __future__ import annotations

from budget import cheap
from hypothesis import given
from hypothesis import strategies as st
from node_oracle import node_rule_walks, obeys_node_rules

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.formulas.node_cuts import check_cut, cuts_apply, encode_cuts
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.sat.hamilton_cuts import solve_cuts
from trailkit.solvers.backends.sat.runner import DEFAULT_SOLVER, Deadline, Verdict

NAMES = "abcdef"


@st.composite
def hamiltonian_puzzles(draw: st.DrawFn) -> Puzzle:
    """A small random graph, asked for a walk through every node (not avoided) once."""
    n = draw(st.integers(3, 6))
    names = NAMES[:n]
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                          min_size=2, max_size=10))
    directed = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    avoid = draw(st.sets(st.sampled_from(names), max_size=1 if n > 3 else 0))
    free = [v for v in names if v not in avoid]
    first = draw(st.none() | st.sampled_from(free))
    start = draw(st.none() | st.sets(st.sampled_from(names), min_size=1, max_size=3))
    end = draw(st.none() | st.sets(st.sampled_from(names), min_size=1, max_size=3))
    return Puzzle.build(edges=pairs, nodes=names, directed=directed,
                        use=draw(st.sampled_from([EdgeUse.AT_MOST_ONCE, EdgeUse.ANY])),
                        visit=NodeVisit.EVERY_ONCE, avoid=avoid,
                        at={first: 1} if first else {}, start=start, end=end,
                        closed=draw(st.booleans()))


def certificate_of(puzzle: Puzzle) -> Certificate | None:
    out = solve_cuts(puzzle, DEFAULT_SOLVER, Deadline(60), proof=True)
    assert out.status is Verdict.UNSAT and out.formula is not None and out.proof is not None
    return make_certificate(puzzle, out.formula, out.proof, DEFAULT_SOLVER)


@cheap(2, "a puzzle of at most a few nodes: the cut loop and the oracle take milliseconds")
@given(hamiltonian_puzzles())
def test_the_cut_loop_finds_a_walk_exactly_where_the_oracle_does(puzzle: Puzzle) -> None:
    assert not cuts_apply(puzzle)
    walks = node_rule_walks(puzzle)
    out = solve_cuts(puzzle, DEFAULT_SOLVER, Deadline(60), proof=True)
    if walks:
        assert out.status is Verdict.SAT and out.walk is not None
        assert not verify(puzzle, out.walk)
        assert obeys_node_rules(puzzle, tuple(out.walk.nodes))
    else:
        assert out.status is Verdict.UNSAT and out.formula is not None
        assert out.proof is not None
        certificate = make_certificate(puzzle, out.formula, out.proof, DEFAULT_SOLVER)
        assert certificate is not None and verdict(puzzle, certificate).accepted


def two_triangles(*extra: tuple[str, str]) -> Puzzle:
    return Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("d", "e"), ("e", "f"),
                               ("f", "d"), *extra], use=EdgeUse.AT_MOST_ONCE,
                        visit=NodeVisit.EVERY_ONCE, closed=True)


def test_two_triangles_are_refuted_by_a_cut_and_a_bridge_spec_is_refused() -> None:
    """Two triangles: the first model is the two of them, the cut of one refutes the
    rest; the certificate lists that cut. With two edges joining them a tour exists, and
    the certificate is refused there."""
    certificate = certificate_of(two_triangles())
    assert certificate is not None and certificate.data["encoding"] == "node-cuts-v1"
    assert certificate.data["cuts"]
    assert verdict(two_triangles(), certificate).accepted
    joined = two_triangles(("a", "d"), ("b", "e"))
    assert solve_cuts(joined, DEFAULT_SOLVER, Deadline(60)).status is Verdict.SAT
    assert not verdict(joined, certificate).accepted


def test_a_cut_that_leaves_out_a_crossing_arc_or_names_every_node_is_refused() -> None:
    puzzle = two_triangles(("a", "d"))
    _, cmap = encode_cuts(puzzle)
    crossing = [k + 1 for k, (_, _, u, v) in enumerate(cmap.arcs)
                if {puzzle.nodes[u], puzzle.nodes[v]} == {"a", "d"}]
    assert check_cut(puzzle, cmap, ["a", "b", "c"], crossing) == []
    dropped = check_cut(puzzle, cmap, ["a", "b", "c"], crossing[:1])
    assert dropped and "leaves out the crossing arc" in dropped[0]
    every = check_cut(puzzle, cmap, list("abcdef"), [])
    assert every and "not all" in every[0]
    assert check_cut(puzzle, cmap, ["z"], [])[0].endswith("is no node the walk must visit")
