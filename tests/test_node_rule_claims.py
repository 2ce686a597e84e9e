"""Claims stay sound under node rules: a certificate that counts walks ignoring the node
rules (a ``best-formula`` count, a ``layers`` count) is neither made nor accepted for a
node-rule puzzle, while an argument that no walk exists still proves it; and the
structural pre-check answers node-rule puzzles for every backend. The brute-force oracle
(``tests/node_oracle.py``) says what is true."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.node_oracle import node_rule_walks
from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.claim_table import Statement, mismatch, proven
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import NO_LIMITS
from trailkit.solvers.backends.direct.orientation_list import formula_applies
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.formula_claims import formula_count_claim
from trailkit.solvers.pipeline.layered_count import reusable_count_claim
from trailkit.solvers.pipeline.solving import _precheck_answer

ROOT = Path(__file__).resolve().parent.parent


def test_a_count_of_euler_trails_proves_nothing_under_node_rules() -> None:
    nikolaus = load_spec(ROOT / "specs" / "nikolaus.yaml")
    counted = formula_count_claim(nikolaus)
    assert counted.checked and counted.value == 88 and counted.certificate is not None
    once = replace(nikolaus, visit=NodeVisit.AT_MOST_ONCE)
    assert node_rule_walks(once) == []  # no trail of 8 edges passes 5 nodes once each
    assert check_certificate(once, counted.certificate)  # so 88 is rejected
    assert not formula_applies(once)


def test_a_layers_count_proves_nothing_under_node_rules() -> None:
    # two planks a-c, and a path a-b-c; the walk must pass b
    plain = Puzzle.build(edges=[("a", "c"), ("a", "c"), ("a", "b"), ("b", "c")],
                         use=EdgeUse.ANY, start=["a"], end=["c"])
    counted = reusable_count_claim(plain)
    assert counted.checked and counted.value == 2 and counted.certificate is not None
    via_b = replace(plain, via=frozenset({plain.node_index("b")}))
    shortest = node_rule_walks(replace(via_b, objective=via_b.objective.SHORTEST))
    assert len(shortest) == 1 and len(shortest[0].edges) == 2  # the truth: 1 walk of 2
    assert check_certificate(via_b, counted.certificate)  # "2 walks of 1 step" rejected
    claim = reusable_count_claim(via_b)
    assert not claim.checked and "node rules" in (claim.why or "")


def test_no_walk_of_the_edge_rules_still_proves_unsolvable() -> None:
    koenigsberg = load_spec(ROOT / "specs" / "koenigsberg.yaml")
    certificate = Certificate("parity", {"nodes": ["A", "B", "C", "D"]}, "")
    ruled = replace(koenigsberg, via=frozenset({0}))
    assert check_certificate(ruled, certificate) == []
    assert proven(ruled, certificate).claims == {"unsolvable": None, "count": 0}


def test_a_node_cut_file_states_only_what_it_proves() -> None:
    star = Puzzle.build(edges=[("a", "b"), ("a", "c"), ("a", "d")],
                        use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE)
    cut = Certificate("node-cut", {"removed": ["a"], "pieces": ["b", "c", "d"], "joins": 2},
                      "")
    found = proven(star, cut)
    assert found.primary == "unsolvable"
    assert "the file claims that the walk is the only solution" in mismatch(
        star, found, [Statement("unique")])
    assert "a walk of 3 steps" in mismatch(star, found, [Statement("", {"length": 3})])


def test_the_precheck_answers_node_rules_for_direct_too() -> None:
    board = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("b", "e")],
                         use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE)
    answer = _precheck_answer(board, get_backend("direct"))
    assert answer is not None and answer.certificate is not None
    assert answer.certificate.kind == "node-cut" and node_rule_walks(board) == []


def test_find_certificate_makes_the_node_cut_first() -> None:
    cycle = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")],
                         use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE, closed=True)
    certificate, maker = find_certificate(cycle, get_backend("direct"), NO_LIMITS)
    assert certificate is not None and certificate.kind == "node-cut", maker
    assert certificate.data["removed"] == ["c"] and node_rule_walks(cycle) == []
