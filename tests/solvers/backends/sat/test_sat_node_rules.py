"""The SAT encoding of node rules (``node-positions-v1``) and the ``sat`` and ``dimacs:*``
backends on it, against the brute-force oracle of ``tests/node_oracle.py`` (which shares
nothing with the formula); its refutations checked by trailkit's checker, and by
drat-trim and cake_lpr when they are installed; a certificate refused on a nearby
puzzle that has a tour.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from node_oracle import node_rule_walks, obeys_node_rules
from outside_tools import tool

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.proof_files import formula_file, lrat_file, proof_file
from trailkit.models.formulas.blocked_walks import blocking_clause
from trailkit.models.formulas.node_positions import encode_node_prefix, node_horizon
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.refuted_claims import count_claim

SOLVERS = [pytest.param(p, marks=pytest.mark.skipif(shutil.which(p) is None,
                                                   reason=f"{p} is not installed"))
           for p in ("cadical", "minisat")]
BACKENDS = ["sat", *(pytest.param(f"dimacs:{p.values[0]}", marks=p.marks) for p in SOLVERS)]
#: The backends whose solver writes a proof: an unsolvable answer carries a certificate.
PROVERS = ["sat", "sat/position", BACKENDS[1]]
NAMES = "abcde"


@st.composite
def node_puzzles(draw: st.DrawFn) -> Puzzle:
    """A small random graph with random node rules (and edge rules beside them)."""
    n = draw(st.integers(2, 5))
    names = NAMES[:n]
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                          min_size=1, max_size=7))
    directed = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    visit = draw(st.sampled_from(list(NodeVisit)))
    uses = [EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE]
    use = draw(st.sampled_from(uses + ([EdgeUse.ANY] if visit is not NodeVisit.ANY else [])))
    avoid = draw(st.sets(st.sampled_from(names), max_size=1))
    free = [v for v in names if v not in avoid]
    via = draw(st.sets(st.sampled_from(free), max_size=2)) if free else set()
    at_nodes = draw(st.lists(st.sampled_from(free), max_size=2, unique=True)) if free else []
    places = draw(st.lists(st.integers(1, n), min_size=len(at_nodes), max_size=len(at_nodes),
                           unique=True))
    at = dict(zip(at_nodes, places, strict=True))
    if visit is NodeVisit.ANY and not (via or avoid or at):
        visit = NodeVisit.AT_MOST_ONCE
    start = draw(st.none() | st.sets(st.sampled_from(names), min_size=1, max_size=2))
    return Puzzle.build(edges=pairs, nodes=names, directed=directed, use=use, visit=visit,
                        via=via, avoid=avoid, at=at, closed=draw(st.booleans()), start=start)


def walks_of(puzzle: Puzzle) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {(tuple(w.nodes), tuple(w.edges)) for w in node_rule_walks(puzzle)}


def obeys(puzzle: Puzzle, walk: Walk) -> bool:
    return not verify(puzzle, walk) and obeys_node_rules(puzzle, tuple(walk.nodes))


def formula_models(puzzle: Puzzle) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every walk of the node prefix with "a first step" (``node-positions-v1``'s clauses,
    built even where the empty walk is allowed), each model blocked once found; the
    empty walks added from the oracle's own list (the formula speaks of walks of a step)."""
    from pysat.solvers import Solver

    found = {w for w in walks_of(puzzle) if not w[1]}
    horizon = node_horizon(puzzle)
    if horizon == 0:
        return found
    clauses, vmap = encode_node_prefix(puzzle, horizon)
    with Solver(name="cadical195", bootstrap_with=[*clauses, [vmap.active[0]]]) as solver:
        while solver.solve():
            model = solver.get_model()
            walk = vmap.decode(puzzle, model)
            found.add((tuple(walk.nodes), tuple(walk.edges)))
            block = blocking_clause(puzzle, vmap, walk)
            assert isinstance(block, list)
            solver.add_clause(block)
    return found


@costly(0.75, "each example builds a formula and lists its models",
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(node_puzzles())
def test_the_formulas_models_are_exactly_the_oracles_walks(puzzle: Puzzle) -> None:
    if puzzle.use is EdgeUse.ANY and puzzle.visit is NodeVisit.ANY:
        return
    assert formula_models(puzzle) == walks_of(puzzle)


@pytest.mark.parametrize("backend", BACKENDS)
@costly(0.2, "each example runs a SAT backend against the oracle's walks",
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=node_puzzles())
def test_every_sat_backend_solves_node_rules_as_the_oracle(backend: str,
                                                          puzzle: Puzzle) -> None:
    answer = get_backend(backend).solve(puzzle)
    if walks_of(puzzle):
        assert answer.status == "solved" and answer.walk is not None
        assert obeys(puzzle, answer.walk)
    else:
        assert answer.status == "unsolvable"
        if answer.certificate is not None:
            assert verdict(puzzle, answer.certificate).accepted


@costly(0.3, "each example counts the walks with the SAT backend",
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(node_puzzles())
def test_the_sat_count_matches_the_oracle(puzzle: Puzzle) -> None:
    if puzzle.use is EdgeUse.ANY:
        return  # count gives the shortest walks there
    assert get_backend("sat").count(puzzle).solutions == len(walks_of(puzzle))


@costly(0.2, "each example makes and checks a count certificate",
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(node_puzzles())
def test_certified_counts_of_node_rules_match_the_oracle(puzzle: Puzzle) -> None:
    if puzzle.use is EdgeUse.ANY:
        return
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked, claim.why
    assert claim.value == len(walks_of(puzzle))
    assert claim.certificate is not None and verdict(puzzle, claim.certificate).accepted


@pytest.mark.parametrize("objective", [Objective.SHORTEST, Objective.LONGEST])
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_best_walk_under_node_rules(backend: str, objective: Objective) -> None:
    """Through c (via), never through x: the shortest from a to d has 3 steps, the
    longest (nodes at most once) 4."""
    puzzle = Puzzle.build(edges=[("a", "b"), ("b", "d"), ("a", "c"), ("c", "d"), ("a", "x"),
                                 ("x", "d"), ("b", "c"), ("c", "e"), ("e", "d")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.AT_MOST_ONCE,
                          via=["c"], avoid=["x"], start=["a"], end=["d"], objective=objective)
    answer = get_backend(backend).solve(puzzle)
    assert answer.walk is not None and obeys(puzzle, answer.walk)
    best = {len(w.edges) for w in node_rule_walks(puzzle)}
    assert len(answer.walk) == (min(best) if objective is Objective.SHORTEST else max(best))
    assert answer.optimal


# ------------------------------------------------------------------ certificates
def k23(*extra: tuple[str, str]) -> Puzzle:
    """K(2,3) (a, b against x, y, z) has no Hamiltonian cycle; with x-y it has one."""
    return Puzzle.build(edges=[(u, v) for u in "ab" for v in "xyz"] + list(extra),
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True)


def petersen() -> Puzzle:
    outer = [(f"o{i}", f"o{(i + 1) % 5}") for i in range(5)]
    spokes = [(f"o{i}", f"i{i}") for i in range(5)]
    inner = [(f"i{i}", f"i{(i + 2) % 5}") for i in range(5)]
    return Puzzle.build(edges=outer + spokes + inner, use=EdgeUse.AT_MOST_ONCE,
                        visit=NodeVisit.EVERY_ONCE, closed=True)


@pytest.mark.parametrize("backend", PROVERS)
def test_a_refutation_is_accepted_and_refused_on_a_nearby_puzzle_with_a_tour(
        backend: str) -> None:
    answer = get_backend(backend).solve(k23())
    certificate = answer.certificate
    assert answer.status == "unsolvable" and certificate is not None
    assert certificate.data["encoding"] == ("node-cuts-v1" if backend == "sat" else
                                            "node-positions-v1")
    assert verdict(k23(), certificate).accepted
    nearby = k23(("x", "y"))
    assert get_backend("sat").solve(nearby).status == "solved"
    refused = verdict(nearby, certificate)
    assert not refused.accepted and "formula" in " ".join(refused.problems)


@pytest.mark.parametrize("backend", ["sat", "sat/position"])
def test_petersen_has_no_hamiltonian_cycle_by_a_checked_refutation(backend: str) -> None:
    certificate = get_backend(backend).prove(petersen(), Limits(time_limit=60))
    assert certificate is not None and verdict(petersen(), certificate).accepted


def test_a_count_certificate_is_refused_when_the_rules_change() -> None:
    """Four tours of the square with a diagonal through its corners... walks counted
    under visit every-once; the same certificate on visit at-most-once (more walks) is
    refused."""
    square = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True)
    claim = count_claim(square, by_refutation=True)
    assert claim.checked and claim.value == len(node_rule_walks(square)) == 8
    looser = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.AT_MOST_ONCE, closed=True)
    assert claim.certificate is not None
    assert not verdict(looser, claim.certificate).accepted


def outside_files(puzzle: Puzzle, certificate: Certificate, folder: Path) -> Path:
    """The files ``prove --proof-dir DIR --lrat`` writes for ``certificate``."""
    (folder / "formula.cnf").write_text(formula_file(certificate.data, "petersen"))
    (folder / "proof.drat").write_text(proof_file(certificate.data))
    (folder / "proof.lrat").write_text(lrat_file(puzzle, certificate.data))
    return folder


@pytest.mark.parametrize("backend", ["sat", "sat/position"])
@pytest.mark.parametrize("checker", ["drat-trim", "cake_lpr"])
def test_outside_checkers_accept_a_node_rule_refutation(checker: str, backend: str,
                                                        tmp_path: Path) -> None:
    """Petersen's graph refuted by node-cuts-v1 (sat) and node-positions-v1 (sat/position):
    drat-trim reads the DRUP proof, cake_lpr (verified in CakeML) the LRAT one."""
    program = tool("DRAT_TRIM" if checker == "drat-trim" else "CAKE_LPR", checker)
    if program is None:
        pytest.skip(f"{checker} is not installed")
    certificate = get_backend(backend).prove(petersen(), Limits(time_limit=60))
    assert certificate is not None
    folder = outside_files(petersen(), certificate, tmp_path)
    proof = "proof.drat" if checker == "drat-trim" else "proof.lrat"
    done = subprocess.run([program, str(folder / "formula.cnf"), str(folder / proof)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert "s VERIFIED" in done.stdout, done.stdout[-500:]


# ------------------------------------------------- certificates that know no node rules
def test_a_layers_certificate_is_refused_where_node_rules_make_the_walk_longer() -> None:
    """a-c is the shortest walk from a to c; through b (via) it is a-b-c. The layers of
    (node, colour) states know nothing of via: their certificate of 1 step is refused."""
    from trailkit.solvers.pipeline.claims import shortest_claim

    rules = {"edges": [("a", "b"), ("b", "c"), ("a", "c")], "use": EdgeUse.AT_MOST_ONCE,
             "start": ["a"], "end": ["c"], "objective": Objective.SHORTEST}
    plain = Puzzle.build(**rules)
    claim = shortest_claim(plain, Walk((0, 2), (2,)))
    assert claim.checked and claim.certificate is not None
    assert claim.certificate.kind == "layers"
    through_b = Puzzle.build(**rules, via=["b"])
    refused = verdict(through_b, claim.certificate)
    assert not refused.accepted and "node rules" in refused.problems[0]


def test_a_best_formula_count_is_refused_where_a_given_start_cuts_it() -> None:
    """The triangle's closed walks using each edge once are 6 (3 starts, 2 ways); with a
    at position 1 they are 2. The BEST formula counts the 6 and knows no at."""
    from trailkit.solvers.pipeline.formula_claims import formula_count_claim

    rules = {"edges": [("a", "b"), ("b", "c"), ("c", "a")], "closed": True}
    claim = formula_count_claim(Puzzle.build(**rules))
    assert claim.checked and claim.value == 6 and claim.certificate is not None
    given = Puzzle.build(**rules, at={"a": 1})
    assert len(node_rule_walks(given)) == 2
    refused = verdict(given, claim.certificate)
    assert not refused.accepted and "node rule" in refused.problems[0]
    assert count_claim(given).value == 2


def test_a_count_certificate_listing_a_walk_that_breaks_a_node_rule_is_refused() -> None:
    """The walks of the path a-b-c that avoid nothing are listed, then checked against the
    same path with c avoided: the listed walks that pass c break the rule."""
    rules = {"edges": [("a", "b"), ("b", "c")], "use": EdgeUse.AT_MOST_ONCE,
             "visit": NodeVisit.AT_MOST_ONCE}
    claim = count_claim(Puzzle.build(**rules), by_refutation=True)
    assert claim.checked and claim.certificate is not None
    avoided = Puzzle.build(**rules, avoid=["c"])
    refused = verdict(avoided, claim.certificate)
    assert not refused.accepted
    # one reading of the node rules (verify's): the broken rule said once
    said = "node c holds position 1, but it is in avoid"
    assert refused.problems[0].count(said) == 1, refused.problems[0]
    assert "avoided" not in refused.problems[0]


# ------------------------------------------------------------ the other claims
def test_unique_shortest_and_longest_are_certified_under_node_rules() -> None:
    """A Hamiltonian path from a in a square with a tail: through every node once,
    starting at a, the walk a-b-c-d-e is the only one; the shortest and longest walk
    from a to e through b (nodes at most once) are checked against the oracle."""
    from trailkit.solvers.pipeline.optimal_refutations import refuted_shortest_claim
    from trailkit.solvers.pipeline.refuted_claims import longest_claim, only_walk_claim

    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("d", "e")]
    hamilton = Puzzle.build(edges=edges, use=EdgeUse.AT_MOST_ONCE,
                            visit=NodeVisit.EVERY_ONCE, at={"a": 1})
    walks = node_rule_walks(hamilton)
    assert len(walks) == 1
    unique = only_walk_claim(hamilton, walks[0])
    assert unique.checked and unique.certificate is not None
    assert verdict(hamilton, unique.certificate).accepted
    for objective in (Objective.SHORTEST, Objective.LONGEST):
        best = Puzzle.build(edges=edges, use=EdgeUse.AT_MOST_ONCE,
                            visit=NodeVisit.AT_MOST_ONCE, via=["b"], start=["a"], end=["e"],
                            objective=objective)
        walk = node_rule_walks(best)[0]
        claim = (refuted_shortest_claim if objective is Objective.SHORTEST
                 else longest_claim)(best, walk)
        assert claim.checked and claim.value == len(walk), claim.why
        assert claim.certificate is not None and verdict(best, claim.certificate).accepted


def test_the_exported_formula_obeys_the_node_rules() -> None:
    """export --format dimacs of a node-rule puzzle writes node-positions-v1: its models
    (read back by walk_from_model) are the oracle's walks, not the walks of the edges
    alone. b at position 1 and every node once: b-a-c and b-c-a only."""
    from pysat.solvers import Solver

    from trailkit.solvers.backends.sat.exported_formula import (
        encode_for_export,
        to_dimacs,
        walk_from_model,
    )

    puzzle = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("a", "c")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, at={"b": 1})
    text = to_dimacs(puzzle)
    assert text.startswith("c trailkit node-positions-v1") and "node b at position 1" in text
    clauses, vmap = encode_for_export(puzzle)
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            line = "v " + " ".join(map(str, model)) + " 0\n"
            walk = walk_from_model(puzzle, text, "s SATISFIABLE\n" + line)
            found.add((tuple(walk.nodes), tuple(walk.edges)))
            solver.add_clause([-v for v in vmap.primary(model)])
    assert found == walks_of(puzzle)


@pytest.mark.parametrize("backend", ["sat", "sat/position", BACKENDS[1]])
def test_a_formula_past_the_memory_limit_is_not_built(backend: str) -> None:
    """A ring of 60 nodes through every node: its formula's size is estimated first, and
    past the memory limit the answer is unknown, naming the estimate."""
    ring = Puzzle.build(edges=[(f"n{i}", f"n{(i + 1) % 60}") for i in range(60)],
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True)
    answer = get_backend(backend).solve(ring, Limits(memory_mb=1 if backend != "sat" else 0))
    assert answer.status == "unknown"
    assert "more than the memory limit" in answer.reason
    assert ("node-cuts" if backend == "sat" else "node-positions-v1") in answer.reason


def test_the_longest_walk_under_at_most_once_nodes_is_certified() -> None:
    """Two triangles at a (a-b-c, a-d-e) and two leaves f, g at b: using edges once,
    f-b-c-a-d-e-a-b-g (8 steps) is a walk; with nodes at most once the longest walks
    have 5 steps (f-b-c-a-d-e), fewer than the 6 the nodes allow, so the refutation of
    "more than 5 steps" must speak of the node rules to exist."""
    from trailkit.solvers.pipeline.refuted_claims import longest_claim

    puzzle = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("a", "d"), ("d", "e"),
                                 ("e", "a"), ("f", "b"), ("b", "g")],
                          use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.AT_MOST_ONCE,
                          objective=Objective.LONGEST)
    walk = node_rule_walks(puzzle)[0]
    assert len(walk) == 5
    claim = longest_claim(puzzle, walk)
    assert claim.checked and claim.value == 5, claim.why
    assert claim.certificate is not None and verdict(puzzle, claim.certificate).accepted
