"""The transition encoding and its cut clauses: models counted against brute force (each
walk exactly once), cut clauses checked one by one and forged ones rejected, every
refutation certified, and sizes estimated before anything is built."""

from __future__ import annotations

from dataclasses import replace

import pytest
from budget import costly
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import all_walks, tiny_puzzles
from pysat.solvers import Solver

from trailkit.models.answer import Certificate, Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.errors import BackendUnavailable
from trailkit.models.formulas.lazy_clauses import certified_formula, check_cut, cut_clause
from trailkit.models.formulas.transition_encoding import encode_transitions
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import BackendName, get_backend
from trailkit.solvers.backends.sat import SatBackend
from trailkit.solvers.pipeline import solve

RGB = ColourRule.from_cycle(["red", "blue", "green"])
TRANSITION = SatBackend("/transition")
# every degree even, but red -> blue -> green cannot close: no structural argument
TRIANGLES = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
    ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
# two triangles joined at a node only by a red -> red step the rule forbids
BOWTIE_EDGES = [("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
                ("a", "d", "blue"), ("d", "e", "green"), ("e", "a", "red")]
BOWTIE = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=BOWTIE_EDGES)


def ring_key(puzzle: Puzzle, walk: Walk) -> tuple:
    """A closed walk up to rotation (the transition encoding has one model per ring)."""
    steps = [(e, walk.nodes[k]) for k, e in enumerate(walk.edges)]
    return min(tuple(steps[k:] + steps[:k]) for k in range(len(steps)))


def connected_models(puzzle: Puzzle, version: str = "transition-v1") -> int:
    """One-piece models, with cut clauses added for every split model (as the backend
    does), each model blocked on its pair, start, finish and orientation variables."""
    clauses, tmap = encode_transitions(puzzle, version)
    primary = tmap.primary()
    count = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            pieces = tmap.pieces(puzzle, model)
            if len(pieces) > 1:
                cuts = [cut_clause(tmap, puzzle, piece) for piece in pieces]
                if not all(cuts):  # a piece no step can leave: no walk at all
                    return count
                for cut in cuts:
                    solver.add_clause(cut)
                continue
            walk = tmap.walk(puzzle, model)
            assert walk is not None and verify(puzzle, walk) == []
            count += 1
            true = set(model)
            block = [-v if v in true else v for v in primary]
            if not block:  # the only model
                return count
            solver.add_clause(block)
    return count


@costly(0.4, "each example builds a transition encoding and enumerates its models")
@given(tiny_puzzles(max_nodes=4, max_edges=5))
def test_one_piece_models_are_exactly_the_walks(puzzle: Puzzle) -> None:
    puzzle = replace(puzzle, use=EdgeUse.EXACTLY_ONCE)
    assume(puzzle.num_edges > 0)
    walks = list(all_walks(puzzle, puzzle.num_edges))
    expected = len({ring_key(puzzle, w) for w in walks}) if puzzle.closed else len(walks)
    assert connected_models(puzzle) == expected


@costly(0.2, "each example builds a transition encoding and enumerates its models")
@given(tiny_puzzles(max_nodes=5, max_edges=7))
def test_agrees_with_brute_force_and_certifies_every_refutation(puzzle: Puzzle) -> None:
    puzzle = replace(puzzle, use=EdgeUse.EXACTLY_ONCE)
    assume(puzzle.num_edges > 0)
    answer = TRANSITION.solve(puzzle)
    has_walk = any(True for _ in all_walks(puzzle, puzzle.num_edges))
    assert (answer.status is Status.SOLVED) == has_walk
    if answer.status is Status.SOLVED:
        assert verify(puzzle, answer.walk) == []
    else:
        cert = answer.certificate
        assert cert is not None and cert.data["encoding"] == "transition-v2"
        assert check_certificate(puzzle, cert) == []
        assert check_certificate(puzzle, Certificate.from_json(cert.to_json())) == []


def test_cut_clauses_are_checked_one_by_one_and_forged_ones_rejected() -> None:
    _, tmap = encode_transitions(TRIANGLES)
    first = [0, 1, 2]  # the triangle a-b-c
    clause = cut_clause(tmap, TRIANGLES, first)
    assert clause and check_cut(TRIANGLES, tmap, ["0", "1", "2"], clause) == []
    assert check_cut(TRIANGLES, tmap, ["0", "1", "2"], [*clause, -1]) == []  # weaker: fine
    forged = {
        "a crossing pair left out": (["0", "1", "2"], clause[1:]),
        "no edge": ([], []),
        "every edge": ([str(e) for e in range(6)], []),
        "an unknown edge": (["0", "9"], clause),
        "a literal outside the formula": (["0", "1", "2"], [*clause, tmap.num_vars + 1]),
        "an edge twice": (["0", "0"], clause),
        "the clause of another cut": (["0", "1", "2"], cut_clause(tmap, TRIANGLES, [0])),
    }
    for what, (edges, lits) in forged.items():
        assert check_cut(TRIANGLES, tmap, edges, lits), what


def test_certificates_with_forged_cuts_or_proofs_are_rejected() -> None:
    cert = TRANSITION.prove(BOWTIE)
    assert cert is not None and cert.data["encoding"] == "transition-v2"
    assert check_certificate(BOWTIE, cert) == []
    cuts = cert.data["cuts"]
    if cuts:
        bad = [{**cuts[0], "clause": cuts[0]["clause"][1:]}, *cuts[1:]]
        problems = check_certificate(BOWTIE, replace(cert, data={**cert.data, "cuts": bad}))
        assert problems and "leaves out the crossing pair" in problems[0]
    # a cut that is no consequence: "the piece a-b-c must be left by ... nothing"
    forged = [{"edges": [0, 1, 2], "clause": [1]}]
    problems = check_certificate(BOWTIE, replace(cert, data={**cert.data, "cuts": forged}))
    assert problems and "cut 0" in problems[0]
    proof = [line for line in cert.data["proof"] if line != "0"]
    assert check_certificate(BOWTIE, replace(cert, data={**cert.data, "proof": proof}))
    other = replace(BOWTIE, closed=False)
    assert check_certificate(other, cert)


def test_memory_budget_answers_unknown_with_the_estimate() -> None:
    answer = TRANSITION.solve(TRIANGLES, Limits(memory_mb=0))
    assert answer.status is Status.UNKNOWN
    assert "transition encoding would need about" in answer.reason
    answer = SatBackend("").solve(TRIANGLES, Limits(memory_mb=0))
    assert answer.status is Status.UNKNOWN and "sat/transition" in answer.reason
    assert SatBackend("").prove(TRIANGLES, Limits(memory_mb=0)) is None


def test_names_and_encodings() -> None:
    assert str(BackendName.parse("sat/transition")) == "sat/transition"
    assert get_backend("sat:glucose4/transition").name == "sat:glucose4/transition"
    assert get_backend("sat:glucose4/position").encoding == "position"
    with pytest.raises(BackendUnavailable, match="transition"):
        get_backend("sat/nosuchencoding")
    # other rules fall back to the position encoding
    p = replace(TRIANGLES, use=EdgeUse.AT_MOST_ONCE)
    assert solve(p, "sat/transition").status is Status.SOLVED


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_solvers_prove_the_bowtie(solver: str) -> None:
    answer = solve(BOWTIE, f"sat:{solver}/transition", precheck=False, crosscheck=None)
    assert answer.status is Status.UNSOLVABLE and answer.certificate_checked
    assert answer.certificate is not None
    assert answer.certificate.data["encoding"] == "transition-v2"


def test_cpsat_circuit_model_is_estimated_before_it_is_built() -> None:
    answer = get_backend("cpsat").solve(TRIANGLES, Limits(memory_mb=1))
    assert answer.status is Status.UNKNOWN and "arcs" in answer.reason


def test_counting_refuses_a_formula_over_the_budget() -> None:
    result = SatBackend("").count(TRIANGLES, Limits(memory_mb=0))
    assert not result.complete and "memory limit" in result.reason


# ------------------------------------------ transition-v2: free nodes, bundles in order
@st.composite
def multigraphs(draw, max_nodes: int = 4, max_bundles: int = 3, max_copies: int = 3):
    """Exactly-once puzzles made of bundles: a few node pairs, each joined by up to
    ``max_copies`` parallel edges of one colour and direction rule (some written the
    other way round), shuffled: parallel edges are the rule, not the exception."""
    n = draw(st.integers(1, max_nodes))
    names = "abcdef"[:n]
    coloured = draw(st.booleans())
    edges, directed = [], []
    for _ in range(draw(st.integers(1, max_bundles))):
        u, v = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        colour = draw(st.sampled_from(RGB.names)) if coloured else None
        one_way = draw(st.booleans())
        for _ in range(draw(st.integers(1, max_copies))):
            flip = not one_way and draw(st.booleans())
            edges.append(((v, u) if flip else (u, v)) + ((colour,) if coloured else ()))
            directed.append(one_way)
    order = draw(st.permutations(range(len(edges))))
    node_set = st.none() | st.sets(st.sampled_from(names), min_size=1).map(sorted)
    return Puzzle.build(kind="walk", nodes=names, edges=[edges[k] for k in order],
                        directed=[directed[k] for k in order], colours=RGB if coloured else None,
                        start=draw(node_set), end=draw(node_set), closed=draw(st.booleans()))


@pytest.mark.slow
@costly(0.4, "each example builds a transition encoding and enumerates its models")
@given(multigraphs())
def test_bundles_in_order_keep_exactly_the_solvable_puzzles(puzzle: Puzzle) -> None:
    """Brute force on multigraphs: sat/transition (transition-v2, order clauses on) says
    solvable exactly when a walk exists, and its refutations are checked certificates."""
    has_walk = any(True for _ in all_walks(puzzle, puzzle.num_edges))
    answer = TRANSITION.solve(puzzle)
    assert (answer.status is Status.SOLVED) == has_walk
    if answer.walk is not None:
        assert verify(puzzle, answer.walk) == []
    else:
        cert = answer.certificate
        assert cert is not None and cert.data["encoding"] == "transition-v2"
        assert check_certificate(puzzle, cert) == []


def disconnected(puzzle: Puzzle) -> bool:
    """Whether some edge cannot be reached from edge 0 through shared nodes."""
    seen, stack = {puzzle.tail[0]}, [puzzle.tail[0]]
    while stack:
        u = stack.pop()
        for e in range(puzzle.num_edges):
            for a, b in ((puzzle.tail[e], puzzle.head[e]), (puzzle.head[e], puzzle.tail[e])):
                if a == u and b not in seen:
                    seen.add(b)
                    stack.append(b)
    return any(puzzle.tail[e] not in seen for e in range(puzzle.num_edges))


@costly(0.3, "each example builds a transition encoding and enumerates its models")
@given(multigraphs(max_copies=2))
def test_every_model_of_a_connected_uncoloured_puzzle_is_one_piece(puzzle: Puzzle) -> None:
    """All nodes free: the decoder joins whatever pieces the balanced orientation gives,
    so every model (no cut added) decodes to a verified walk when the edges are
    connected."""
    puzzle = replace(puzzle, colours=None, colour=None, directed=None)
    assume(not disconnected(puzzle))
    clauses, tmap = encode_transitions(puzzle)
    assert not tmap.pairs and all(tmap.free[v] for v in set(puzzle.tail) | set(puzzle.head))
    primary = set(tmap.primary())
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for _ in range(50):
            if not solver.solve():
                break
            model = solver.get_model()
            walk = tmap.walk(puzzle, model)
            assert walk is not None and verify(puzzle, walk) == []
            solver.add_clause([-lit for lit in model if abs(lit) in primary])


# the bow-tie with every plank doubled: even degrees, bundles of two, still no walk
DOUBLE_BOWTIE = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    *BOWTIE_EDGES, *[(v, u, c) for u, v, c in BOWTIE_EDGES]])


def test_refutations_with_bundles_in_order_are_certified_and_rebuilt_by_the_checker() -> None:
    clauses, _ = encode_transitions(DOUBLE_BOWTIE)
    order = order_clauses_of(DOUBLE_BOWTIE)
    assert order and all(clause in clauses for clause in order)  # part of the formula
    answer = solve(DOUBLE_BOWTIE, "sat/transition", precheck=False, crosscheck=None)
    assert answer.status is Status.UNSOLVABLE and answer.certificate_checked
    cert = answer.certificate
    assert cert is not None and cert.data["encoding"] == "transition-v2"
    assert check_certificate(DOUBLE_BOWTIE, cert) == []
    # a CNF without the order clauses is not the certified formula: rejected
    lines = cert.data["cnf"].splitlines()
    dropped = {" ".join(map(str, c)) + " 0" for c in order}
    kept = [line for line in lines[1:] if line not in dropped]
    header = f"p cnf {cert.data['num_vars']} {len(kept)}"
    forged = {**cert.data, "cnf": "\n".join([header, *kept]) + "\n",
              "num_clauses": len(kept)}
    assert check_certificate(DOUBLE_BOWTIE, replace(cert, data=forged))


def order_clauses_of(puzzle: Puzzle) -> list[list[int]]:
    """The clauses transition-v2 has and transition-v1 lacks: the order clauses, where
    no node is free (both then number their variables alike)."""
    v2, tmap = encode_transitions(puzzle)
    v1, _ = encode_transitions(puzzle, "transition-v1")
    assert not any(tmap.free)
    old = {tuple(c) for c in v1}
    return [c for c in v2 if tuple(c) not in old]


def test_a_cut_through_a_free_node_is_rejected() -> None:
    # two uncoloured triangles sharing a: every node is free, so a walk may pass from
    # one triangle to the other at a; no clause over pair variables can forbid that
    p = Puzzle.build(kind="trail", closed=True, edges=[("a", "b"), ("b", "c"), ("c", "a"),
                                                       ("a", "d"), ("d", "e"), ("e", "a")])
    _, tmap = encode_transitions(p)
    assert all(tmap.free) and not tmap.pairs
    problems = check_cut(p, tmap, ["0", "1", "2"], [])
    assert problems and "node a allows every pairing" in problems[0]
    _, old = encode_transitions(p, "transition-v1")  # v1 has pairs at a: the cut is fine
    assert check_cut(p, old, ["0", "1", "2"], cut_clause(old, p, [0, 1, 2])) == []


def test_transition_v1_certificates_still_check() -> None:
    """A refutation of the transition-v1 formula (as older trailkits made them) is
    rebuilt and accepted; the same proof offered as transition-v2 is not (here the two
    formulas differ by the order clauses of the doubled planks)."""
    clauses, tmap = encode_transitions(DOUBLE_BOWTIE, "transition-v1")
    cuts: list[dict] = []
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            pieces = tmap.pieces(DOUBLE_BOWTIE, solver.get_model())
            clause = cut_clause(tmap, DOUBLE_BOWTIE, pieces[-1])
            cuts.append({"edges": [DOUBLE_BOWTIE.edge_id(e) for e in pieces[-1]], "clause": clause})
            solver.add_clause(clause)
    formula = certified_formula(clauses, tmap, cuts)
    with Solver(name="cadical195", bootstrap_with=formula.clauses, with_proof=True) as fresh:
        assert not fresh.solve()
        proof = fresh.get_proof()
    cert = make_certificate(DOUBLE_BOWTIE, formula, proof, "cadical195")
    assert cert is not None and cert.data["encoding"] == "transition-v1"
    assert check_certificate(DOUBLE_BOWTIE, cert) == []
    relabelled = replace(cert, data={**cert.data, "encoding": "transition-v2"})
    assert check_certificate(DOUBLE_BOWTIE, relabelled)
