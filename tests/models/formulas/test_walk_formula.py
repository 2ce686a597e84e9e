"""The walk-v1 formula (once-only walks of any length): its models are exactly the walks
(counted against brute force), its refutations are certificates the checker accepts,
and mutated or misplaced ones are rejected."""

from __future__ import annotations

from dataclasses import replace

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from oracles import all_walks, tiny_puzzles
from pysat.solvers import Solver

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.formulas.walk_formula import encode_walks, walk_formula
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.solvers.backends.sat import SatBackend

ONCE_ONLY = [EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE]
RGB = ColourRule.from_cycle(["red", "blue", "green"])


def model_count(puzzle: Puzzle) -> int:
    """Models of walk-v1, told apart by their step variables only (a model's walk is
    blocked with its length: a longer walk with the same first steps stays allowed)."""
    clauses, vmap = encode_walks(puzzle)
    if vmap is None:
        return 0
    count = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            count += 1
            chosen = vmap.primary(solver.get_model())
            k = len(vmap.decode(puzzle, chosen))
            longer = [vmap.active[k]] if k < vmap.length else []
            solver.add_clause([-v for v in chosen] + longer)
    return count


def with_proof(cert: Certificate, proof: list[str]) -> Certificate:
    return replace(cert, data={**cert.data, "proof": proof})


@costly(0.3, "each example builds a walk formula and enumerates its models")
@given(tiny_puzzles(max_nodes=4, max_edges=5), st.sampled_from(ONCE_ONLY))
def test_models_are_exactly_the_walks(puzzle: Puzzle, use: EdgeUse) -> None:
    puzzle = replace(puzzle, use=use)
    assume(not puzzle.empty_walk_nodes())
    walks = [w for w in all_walks(puzzle, puzzle.num_edges) if len(w)]
    assert model_count(puzzle) == len(walks)


def test_a_formula_only_for_the_puzzles_it_describes() -> None:
    p = Puzzle.build(edges=[("a", "b")], use=EdgeUse.AT_MOST_ONCE)
    assert "empty walk" in walk_formula(p)[0]  # type: ignore[index]
    assert "reusable" in walk_formula(replace(p, use=EdgeUse.ANY))[0]  # type: ignore[index]


@costly(0.2, "each example builds a walk formula and enumerates its models",
        suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=6))
def test_every_refutation_is_an_accepted_certificate(puzzle: Puzzle) -> None:
    puzzle = replace(puzzle, use=EdgeUse.AT_MOST_ONCE)
    cert = SatBackend("").prove(puzzle)
    walks = [w for w in all_walks(puzzle, puzzle.num_edges) if len(w)]
    if walks or puzzle.empty_walk_nodes():
        assert cert is None
        return
    assert cert is not None and cert.data["encoding"] == "walk-v1"
    assert check_certificate(puzzle, cert) == []
    assert check_certificate(puzzle, Certificate.from_json(cert.to_json())) == []
    proof = list(cert.data["proof"])
    assert check_certificate(puzzle, with_proof(cert, [x for x in proof if x != "0"]))
    tampered = replace(cert, data={**cert.data, "cnf_sha256": "0" * 64})
    assert check_certificate(puzzle, tampered)


# a red -> blue -> green ring through a: with planks reusable there is one (so no closed
# set of states settles it), with each plank at most once there is none, of any length
DETOUR = Puzzle.build(kind="walk", colours=RGB, use=EdgeUse.AT_MOST_ONCE, start=["a"],
                      end=["a"], closed=True, edges=[
                          ("b", "a", "red"), ("a", "c", "red"), ("a", "c", "blue"),
                          ("c", "d", "blue"), ("b", "d", "blue"), ("c", "a", "green")])


@pytest.mark.slow
def test_mutated_and_misplaced_proofs_are_rejected() -> None:
    cert = SatBackend("").prove(DETOUR)
    assert cert is not None and check_certificate(DETOUR, cert) == []
    proof = list(cert.data["proof"])
    lemmas = [i for i, line in enumerate(proof) if not line.startswith("d") and line != "0"]
    rejected = []
    for i in lemmas:
        lits = proof[i].split()
        flipped = " ".join([str(-int(lits[0])), *lits[1:]])
        rejected.append(bool(check_certificate(DETOUR, with_proof(
            cert, [*proof[:i], flipped, *proof[i + 1:]]))))
        rejected.append(bool(check_certificate(DETOUR, with_proof(
            cert, proof[:i] + proof[i + 1:]))))
    assert lemmas and any(rejected)
    assert check_certificate(DETOUR, with_proof(cert, []))
    # the same proof for a puzzle that has a walk (a may now be left for good)
    open_walk = replace(DETOUR, closed=False, end=frozenset({3}))
    problems = check_certificate(open_walk, cert)
    assert problems and "not the encoding" in problems[0]
    # ... and for one where the empty walk is a solution
    assert "empty walk" in check_certificate(replace(DETOUR, closed=False), cert)[0]
    # a walk-v1 certificate claims nothing about reusable edges
    assert "reusable" in check_certificate(replace(DETOUR, use=EdgeUse.ANY), cert)[0]


def test_no_usable_edge_is_the_empty_clause() -> None:
    p = Puzzle.build(kind="walk", edges=[("a", "b")], use=EdgeUse.AT_MOST_ONCE, start=["a"],
                     end=["b"], directed=[True])
    p = replace(p, tail=[1], head=[0])  # the only edge runs b -> a
    cert = SatBackend("").prove(p)
    assert cert is not None and check_certificate(p, cert) == []
