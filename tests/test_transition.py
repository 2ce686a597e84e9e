"""The transition encoding and its cut clauses: models counted against brute force (each
walk exactly once), cut clauses checked one by one and forged ones rejected, every
refutation certified, and sizes estimated before anything is built."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from pysat.solvers import Solver
from test_sat import all_walks, puzzles

from trailkit.models.answer import Certificate, Status, Walk
from trailkit.models.certificates import check_certificate
from trailkit.models.errors import BackendUnavailable
from trailkit.models.lazy_clauses import check_cut, cut_clause
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.models.transition_encoding import encode_transitions
from trailkit.models.verify import verify
from trailkit.solvers.base import Limits
from trailkit.solvers.pipeline import solve
from trailkit.solvers.registry import BackendName, get_backend
from trailkit.solvers.sat import SatBackend

RGB = ColourRule.from_cycle(["red", "blue", "green"])
TRANSITION = SatBackend("/transition")
# every degree even, but red -> blue -> green cannot close: no structural argument
TRIANGLES = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
    ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
# two triangles joined at a node only by a red -> red step the rule forbids
BOWTIE = Puzzle.build(kind="walk", colours=RGB, closed=True, edges=[
    ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
    ("a", "d", "blue"), ("d", "e", "green"), ("e", "a", "red")])


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


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_nodes=4, max_edges=5))
def test_one_piece_models_are_exactly_the_walks(puzzle: Puzzle) -> None:
    puzzle = replace(puzzle, use=EdgeUse.EXACTLY_ONCE)
    assume(puzzle.num_edges > 0)
    walks = list(all_walks(puzzle, puzzle.num_edges))
    expected = len({ring_key(puzzle, w) for w in walks}) if puzzle.closed else len(walks)
    assert connected_models(puzzle) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_nodes=5, max_edges=7))
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
