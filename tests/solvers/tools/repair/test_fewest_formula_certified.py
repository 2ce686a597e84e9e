"""The claim ``fewest-changes`` certified by refuting the repair formula (issue 32).

Where the change sets to refute one by one are too many (past
:data:`~trailkit.models.checking.change_sets.SET_LIMIT`), the maker
(:mod:`trailkit.solvers.tools.repair.fewest_formula`) refutes ``repair-fewer-v1`` once,
and the independent checker (:mod:`trailkit.models.formulas.repair_formula`) rebuilds it
from the spec's ``repair:`` rules. Here: the double-nine set (5 changes over 45
candidates, 164,221 sets), small specs with the set limit forced to 0, nearby specs where
fewer changes do, edited certificates, the outside checker drat-trim, a formula too big
to build; and, on random small puzzles, the formula's models against a brute force over
change sets (:func:`oracles.fewest_changes_oracle`), and the certified claim likewise.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from oracles import fewest_changes_oracle, walk_puzzles
from outside_tools import tool
from pysat.solvers import Solver

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.drup import cnf_sha256, cnf_text
from trailkit.models.formulas.repair_formula import repair_clauses, repair_formula
from trailkit.models.puzzle import EdgeUse
from trailkit.models.repair_rules import RepairRules
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.repair import fewest_certificate, fewest_formula
from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

ROOT = Path(__file__).resolve().parents[4]
DOUBLE_NINE = ROOT / "specs" / "dominoes" / "double-nine.yaml"
TWO_PIECES = ROOT / "specs" / "dominoes" / "two-pieces.yaml"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def no_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The change-sets route refused for every repair of 2 or more changes."""
    monkeypatch.setattr(fewest_certificate, "SET_LIMIT", 0)


def _prove(spec: Path, out: Path, capsys: pytest.CaptureFixture[str], changes: int) -> None:
    code, said = run(["prove", str(spec), "--claim", "fewest-changes", "--json", "--out",
                      str(out)], capsys)
    answer = json.loads(said)
    assert code == 0 and answer["changes"] == changes, said
    assert answer["claims"] == [{"claim": "fewest-changes", "certificate": "drup",
                                 "checked": True}]
    assert json.loads(out.read_text())["certificate"]["encoding"] == "repair-fewer-v1"


def test_double_nine_is_certified_by_one_refutation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """164,221 sets of at most 4 new dominoes: past the set limit, one formula refuted,
    re-checked by check-certificate and, from --proof-dir, by drat-trim."""
    out = tmp_path / "fewest.json"
    _prove(DOUBLE_NINE, out, capsys, 5)
    code, said = run(["check-certificate", str(DOUBLE_NINE), str(out)], capsys)
    assert code == 0, said
    assert "so no repair with at most 4 changes of the 45 changes the spec's repair " \
        "rules allow has a chain, and the listed repair of 5 changes has a verified " \
        "chain of 60 steps" in said
    code, said = run(["repair", str(DOUBLE_NINE)], capsys)
    assert code == 0 and "repair with 5 changes (the fewest, proven: the repair formula " \
        "with fewer changes refuted, drup certificate accepted by the independent " \
        "checker;" in said, said


def test_the_proof_files_say_what_they_refute_and_drat_trim_agrees(
        no_sets: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "proof"
    code, said = run(["prove", str(TWO_PIECES), "--claim", "fewest-changes", "--proof-dir",
                      str(folder), "--lrat"], capsys)
    assert code == 0 and "proof files written" in said, said
    cnf = (folder / "formula.cnf").read_text()
    assert "c its refutation means: no repair with at most 1 change: no set of at most " \
        "1 of the 6 changes the spec's repair rules allow" in cnf
    assert "= chosen: adding a domino 1-3" in cnf
    trim = tool("DRAT_TRIM", "drat-trim")
    if trim is None:
        pytest.skip("drat-trim is not installed ($DRAT_TRIM or PATH)")
    checked = subprocess.run([trim, str(folder / "formula.cnf"),
                              str(folder / "proof.drat")], capture_output=True, text=True,
                             timeout=300, check=False)
    assert "s VERIFIED" in checked.stdout


@pytest.fixture
def two_pieces(no_sets: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The two dominoes that never meet, certified by the formula (2 changes)."""
    out = tmp_path / "fewest.json"
    _prove(TWO_PIECES, out, capsys, 2)
    return out


def test_a_small_spec_with_the_set_limit_forced_is_certified(
        two_pieces: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refuting it takes the walk, not only the degrees: the pips are all even."""
    code, said = run(["check-certificate", str(TWO_PIECES), str(two_pieces)], capsys)
    assert code == 0, said
    assert "no repair with at most 1 change of the 6 changes" in said


@pytest.mark.parametrize(("text", "reason"), [
    # a chain need not close: adding 1-3 alone repairs it (the repair's ring still a walk)
    ("dominoes: [[1, 2], [3, 4]]\nclosed: false", "the certificate's formula is not the "
     "one this spec gives"),
    # a third domino 2-3 joins the pieces: adding 1-4 alone closes the ring
    ("dominoes: [[1, 2], [3, 4], [2, 3]]", "the repair's walk does not follow the repaired "
     "puzzle's edges"),
], ids=["open", "one-more"])
def test_a_nearby_spec_where_fewer_changes_do_is_rejected(
        two_pieces: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        text: str, reason: str) -> None:
    near = tmp_path / "near.yaml"
    near.write_text(f"trailkit: 1\nkind: domino-chain\n{text}\n", encoding="utf-8")
    assert repair(load_spec(near)).changes == 1  # the claim is false here
    code, said = run(["check-certificate", str(near), str(two_pieces)], capsys)
    assert code == 1 and reason in said, said


def test_the_proof_does_not_refute_the_nearby_formula(two_pieces: Path,
                                                      tmp_path: Path) -> None:
    """The open chain's formula stored in the certificate instead: the stored formula
    is the spec's now, and the proof fails on it (it has a model: 1 change)."""
    path = tmp_path / "open.yaml"
    path.write_text("trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], [3, 4]]\n"
                    "closed: false\n", encoding="utf-8")
    puzzle = load_spec(path)
    data = json.loads(two_pieces.read_text())["certificate"]
    formula = repair_formula(puzzle, data)
    assert not isinstance(formula, list)
    data |= {"cnf": cnf_text(formula.num_vars, formula.clauses),
             "cnf_sha256": cnf_sha256(formula.num_vars, formula.clauses),
             "num_vars": formula.num_vars, "num_clauses": len(formula.clauses)}
    problems = verdict(puzzle, Certificate.from_json(data)).problems
    assert problems and "does not follow by reverse unit propagation" in problems[0], problems


def _edited(certificate: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    document = json.loads(certificate.read_text())
    edit(document)
    out = certificate.with_name("edited.json")
    out.write_text(json.dumps(document))
    return out


def _both(n: int) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        document["changes"] = document["certificate"]["changes"] = n
    return edit


def _candidates(document: dict[str, Any]) -> None:
    document["certificate"]["candidates"] = 7


def _claim(document: dict[str, Any]) -> None:
    document["claim"] = document["certificate"]["claim"] = "unsolvable"


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda d: d.update(changes=1), "the file claims 1 change as the fewest; this drup "
                                    "repair-fewer-v1 certificate proves 2 changes as the fewest"),
    (_both(1), "the repair given is not 1 change the spec's repair rules allow"),
    (_both(3), "the repair given is not 3 changes the spec's repair rules allow"),
    (_candidates, "the spec's repair rules allow 6 changes, the certificate counted 7"),
    (_claim, "a repair-fewer-v1 refutation proves the claim 'fewest-changes', not "
             "'unsolvable'"),
], ids=["file-only", "one", "three", "candidates", "claim"])
def test_an_edited_certificate_is_rejected(
        two_pieces: Path, capsys: pytest.CaptureFixture[str],
        edit: Callable[[dict[str, Any]], None], reason: str) -> None:
    code, said = run(["check-certificate", str(TWO_PIECES), str(_edited(two_pieces, edit))],
                     capsys)
    assert code == 1 and reason in said, said


def test_a_set_without_a_certificate_leaves_it_to_the_formula(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend that returns unknown for one change set: the formula certifies instead."""
    from trailkit.models.answer import Status
    from trailkit.solvers.pipeline.proving import Proof

    real = fewest_certificate.prove

    def prove(puzzle: Any, **kwargs: Any) -> Proof:
        if puzzle.num_edges == 3 and {puzzle.tail[2], puzzle.head[2]} == {1, 2}:
            return Proof(Status.UNKNOWN, reason="the time limit was reached")
        return real(puzzle, **kwargs)

    monkeypatch.setattr(fewest_certificate, "prove", prove)
    claim = repair(load_spec(TWO_PIECES)).claim
    assert claim is not None and claim.checked and claim.value == 2, claim
    assert claim.certificate is not None
    assert claim.certificate.data["encoding"] == "repair-fewer-v1"


def test_a_formula_too_big_says_what_the_claim_rests_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fewest_formula, "LITERAL_LIMIT", 1_000)
    claim = repair(load_spec(DOUBLE_NINE)).claim
    assert claim is not None and not claim.checked
    assert claim.why.startswith(
        "not certified (164,221 change sets to refute; limit 2,000; the repair formula: "
        "the repair formula would have about "), claim.why
    assert "; rests on the repair search: 10 nodes touch an odd number" in claim.why


# ------------------------------------------------------------------ brute force
def _satisfiable(clauses: list[list[int]]) -> bool:
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return bool(solver.solve())


@pytest.mark.parametrize("use", list(EdgeUse), ids=str)
@costly(0.2, "each example tries every set of up to 2 changes by brute force",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_the_formula_has_a_model_exactly_when_brute_force_repairs(
        use: EdgeUse, data: st.DataObject) -> None:
    """``repair-fewer-v1`` with at most f changes is satisfiable exactly when some set of
    at most f allowed changes makes a puzzle brute force finds a walk in."""
    p = data.draw(walk_puzzles(use, max_nodes=4, max_edges=3))
    remove = use is EdgeUse.EXACTLY_ONCE and data.draw(st.booleans())
    p = dataclasses.replace(p, repair=RepairRules(add="any", remove=remove))
    fewer = data.draw(st.integers(0, 2))
    built = repair_clauses(p, fewer)
    if isinstance(built, str):  # the empty walk: the formula is refused, never wrong
        assert fewest_changes_oracle(p, remove, fewer) is not None, built
        return
    assert _satisfiable(built.clauses) == \
        (fewest_changes_oracle(p, remove, fewer) is not None)


@pytest.mark.parametrize("use", list(EdgeUse), ids=str)
@costly(0.05, "each example runs the repair search and refutes the repair formula "
        "(about a second each; the filter keeps 1 in 12 to 40 draws, each brute-forced: "
        "at 0.03 a run found no draw it keeps in 459 and failed)",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_certified_fewest_changes_by_the_formula_match_brute_force(
        use: EdgeUse, data: st.DataObject) -> None:
    """With the change-sets route refused, every repair of 2 changes is certified by the
    formula, states the fewest brute force finds, and the checker accepts it."""
    p = data.draw(walk_puzzles(use, max_nodes=4, max_edges=3))
    remove = use is EdgeUse.EXACTLY_ONCE and data.draw(st.booleans())
    p = dataclasses.replace(p, repair=RepairRules(add="any", remove=remove))
    fewest = fewest_changes_oracle(p, remove, 2)
    assume(fewest == 2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fewest_certificate, "SET_LIMIT", 0)
        result = repair(p, max_changes=2)
    if result.status is RepairStatus.UNKNOWN:
        return  # allowed: the search gave up (never a wrong answer)
    assert result.status is RepairStatus.REPAIRED and result.changes == 2
    claim = result.claim
    assert claim is not None and claim.checked and claim.value == 2, claim
    assert claim.certificate is not None
    assert claim.certificate.data["encoding"] == "repair-fewer-v1"
    assert verdict(p, claim.certificate).accepted


@costly(0.5, "each example tries every set of up to 2 changes by brute force",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_recolouring_protecting_and_candidate_lists_match_the_sets_applied(
        data: st.DataObject) -> None:
    """Under every other ``repair:`` rule (recolour, protect, a candidate list, remove),
    the formula has a model exactly when one of the sets of at most f allowed changes,
    each to a different edge, made by the change-sets checker's own ``applied``, has a
    walk brute force finds."""
    from itertools import combinations

    from oracles import expected_walk

    from trailkit.models.formulas.repair_changes import allowed_changes, applied
    from trailkit.models.repair_rules import CandidateEdge

    use = data.draw(st.sampled_from(list(EdgeUse)))
    p = data.draw(walk_puzzles(use, max_nodes=4, max_edges=3))
    names = p.nodes
    listed = tuple(CandidateEdge(data.draw(st.sampled_from(names)),
                                 data.draw(st.sampled_from(names)),
                                 data.draw(st.none() | st.sampled_from(p.colour_names)),
                                 data.draw(st.booleans()))
                   for _ in range(data.draw(st.integers(0, 3))))
    rules = RepairRules(add=data.draw(st.sampled_from(["none", "any", listed])),
                        recolour=data.draw(st.booleans()), remove=data.draw(st.booleans()),
                        protect=frozenset(data.draw(st.sets(st.sampled_from(names),
                                                            max_size=1))))
    p = dataclasses.replace(p, repair=rules)
    fewer = data.draw(st.integers(0, 2))
    allowed = allowed_changes(p)
    assert not isinstance(allowed, str)
    assume(sum(1 for j in range(fewer + 1) for _ in combinations(allowed, j)) <= 400)
    found = any(expected_walk(applied(p, combo)) is not None
                for j in range(fewer + 1) for combo in combinations(allowed, j)
                if len({c[4] for c in combo if c[0] != "add"}) ==
                sum(1 for c in combo if c[0] != "add"))
    built = repair_clauses(p, fewer)
    if isinstance(built, str):
        assert found, built
        return
    assert _satisfiable(built.clauses) == found


@costly(0.3, "each example tries every set of up to 2 changes by brute force",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_the_balance_clauses_of_two_alternating_colours_lose_no_repair(
        data: st.DataObject) -> None:
    """Closed walks whose two colours alternate, every edge once (where the balance
    clauses of :mod:`trailkit.models.formulas.repair_balance` join the formula): a model
    exactly when brute force repairs with at most f changes, recolouring included."""
    from itertools import combinations

    from oracles import expected_walk

    from trailkit.models.formulas.repair_balance import alternating_colours
    from trailkit.models.formulas.repair_changes import allowed_changes, applied
    from trailkit.models.puzzle import ColourRule

    p = data.draw(walk_puzzles(EdgeUse.EXACTLY_ONCE, max_nodes=4, max_edges=4, closed=True))
    colours = [data.draw(st.sampled_from([0, 1, 1, 0, -1])) for _ in range(p.num_edges)]
    p = dataclasses.replace(p, colours=ColourRule.from_cycle(["red", "blue"]),
                            colour_names=("red", "blue"), colour=colours, first=None,
                            repair=RepairRules(add="any", recolour=data.draw(st.booleans()),
                                               remove=data.draw(st.booleans())))
    assert alternating_colours(p) == ("red", "blue")
    fewer = data.draw(st.integers(0, 2))
    allowed = allowed_changes(p)
    assert not isinstance(allowed, str)
    found = any(expected_walk(applied(p, combo)) is not None
                for j in range(fewer + 1) for combo in combinations(allowed, j)
                if len({c[4] for c in combo if c[0] != "add"}) ==
                sum(1 for c in combo if c[0] != "add"))
    built = repair_clauses(p, fewer)
    if isinstance(built, str):
        assert found, built
        return
    assert _satisfiable(built.clauses) == found


def test_a_recoloured_loop_moves_its_node_twice() -> None:
    """Two red loops on one node, red and blue alternating: recolouring one loop (-2 at
    each of its two ends, both on the node) balances it; one change is enough."""
    from trailkit.models.puzzle import ColourRule, Puzzle

    p = Puzzle.build(edges=[("a", "a", "red"), ("a", "a", "red")], closed=True,
                     colours=ColourRule.from_cycle(["red", "blue"]))
    p = dataclasses.replace(p, repair=RepairRules(add="none", recolour=True))
    built = repair_clauses(p, 1)
    assert not isinstance(built, str) and _satisfiable(built.clauses)
    built = repair_clauses(p, 0)
    assert not isinstance(built, str) and not _satisfiable(built.clauses)
