"""Claims stay sound under node rules: a certificate that counts walks ignoring the node
rules (a ``best-formula`` count, a ``layers`` count) is neither made nor accepted for a
node-rule puzzle, while an argument that no walk exists still proves it; and the
structural pre-check answers node-rule puzzles for every backend. The brute-force oracle
(``tests/node_oracle.py``) says what is true."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.node_oracle import node_rule_walks
from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.claim_table import Statement, mismatch, proven
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import NO_LIMITS
from trailkit.solvers.backends.direct.orientation_list import formula_applies
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.formula_claims import formula_count_claim
from trailkit.solvers.pipeline.layered_count import reusable_count_claim, zero_count_claim
from trailkit.solvers.pipeline.solving import _precheck_answer

ROOT = Path(__file__).resolve().parents[3]


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


def board5(closed: bool = True) -> Puzzle:
    """The 5x5 board's knight moves, every cell once."""
    cells = [(c, r) for c in range(5) for r in range(5)]
    moves = [(f"{'abcde'[c]}{r + 1}", f"{'abcde'[c + dc]}{r + dr + 1}") for c, r in cells
             for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2)) if (c + dc, r + dr) in cells]
    return Puzzle.build(edges=moves, use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE,
                        closed=closed)


def test_a_count_of_0_rests_on_the_node_cut() -> None:
    claim = zero_count_claim(board5())
    assert claim.checked and claim.value == 0 and claim.certificate is not None
    assert claim.certificate.kind == "node-cut"


@pytest.fixture
def board_spec(monkeypatch: pytest.MonkeyPatch) -> str:
    """A spec path the command line reads as the 5x5 board (no spec on this branch
    writes node rules yet)."""
    import trailkit.solvers.frontends.cli.answers as answers

    monkeypatch.setattr(answers, "load_spec", lambda path, *a, **k: board5())
    return str(ROOT / "specs" / "nikolaus.yaml")


def test_check_certificate_accepts_the_node_cut_and_rejects_its_forgery(
        board_spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = _precheck_answer(board5(), get_backend("direct"))
    assert answer is not None and answer.certificate is not None
    good = tmp_path / "cut.json"
    good.write_text(json.dumps({"claim": "count", "solutions": 0,
                                "certificate": answer.certificate.to_json()}))
    assert main(["check-certificate", board_spec, str(good)]) == 0
    assert "13 pieces" in capsys.readouterr().out
    body = answer.certificate.to_json()
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({"certificate": {**body, "joins": 13}}))
    assert main(["check-certificate", board_spec, str(forged)]) == 1
    assert "a walk can join 12 pieces here, not 13" in capsys.readouterr().out
    claimed = tmp_path / "claimed.json"
    claimed.write_text(json.dumps({"claim": "count", "solutions": 1760,
                                   "certificate": body}))
    assert main(["check-certificate", board_spec, str(claimed)]) == 1
    assert "the file claims 1,760 solutions" in capsys.readouterr().out
