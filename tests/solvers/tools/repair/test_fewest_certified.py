"""The claim ``fewest-changes`` of 2 or more changes, certified (issue 32, CONTRACT 1.3 §6).

The maker (:mod:`trailkit.solvers.tools.repair.fewest_certificate`) and the independent
checker (:mod:`trailkit.models.checking.change_sets`) on the two dominoes that never meet
(2 changes), on nearby specs where that claim is false (one change suffices; none is
needed), on edited certificates, past the limit of change sets, and on random small
puzzles against a brute force written here: every set of changes tried in turn, each
changed puzzle built from the arrays and searched by :mod:`oracles`.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from oracles import fewest_changes_oracle, walk_puzzles

from trailkit.models.answer import Answer, Status
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.repair_rules import RepairRules
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.proving import Proof
from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

ROOT = Path(__file__).resolve().parents[4]
TWO_PIECES = ROOT / "specs" / "dominoes" / "two-pieces.yaml"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def certificate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """``prove --claim fewest-changes --out`` on the two dominoes that never meet."""
    out = tmp_path / "fewest.json"
    code, said = run(["prove", str(TWO_PIECES), "--claim", "fewest-changes", "--json",
                      "--out", str(out)], capsys)
    answer = json.loads(said)
    assert code == 0 and answer["changes"] == 2, said
    assert answer["claims"] == [{"claim": "fewest-changes", "certificate": "change-sets",
                                 "checked": True}]
    return out


def test_two_changes_are_certified_and_rechecked(
        certificate: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The empty set and each of the 6 single new dominoes: 7 sets, each refuted."""
    written = json.loads(certificate.read_text())
    assert written["changes"] == 2 and len(written["certificate"]["sets"]) == 7
    code, said = run(["check-certificate", str(TWO_PIECES), str(certificate)], capsys)
    assert code == 0, said
    assert "each of the 7 sets of at most 1 change" in said
    assert "a repair of 2 changes has a verified chain" in said


def test_repair_says_its_two_changes_are_proven(capsys: pytest.CaptureFixture[str]) -> None:
    code, said = run(["repair", str(TWO_PIECES)], capsys)
    assert code == 0
    assert "repair with 2 changes (the fewest, proven: every smaller set of changes " \
        "refuted, change-sets certificate accepted by the independent checker;" in said
    code, said = run(["repair", str(TWO_PIECES), "--json"], capsys)
    assert json.loads(said)["claims"] == [{"claim": "fewest-changes",
                                           "certificate": "change-sets", "checked": True}]


@pytest.mark.parametrize(("text", "reason"), [
    # the same two dominoes, but a chain need not close: adding 1-3 alone repairs it
    ("dominoes: [[1, 2], [3, 4]]\nclosed: false", "certificate for adding a domino 1-3 fails"),
    # a third domino 2-3 joins the pieces: adding 1-4 alone closes the ring
    ("dominoes: [[1, 2], [3, 4], [2, 3]]", "certificate for the puzzle as given fails"),
    # a ring already: the puzzle as given is solvable
    ("dominoes: [[1, 2], [3, 4], [2, 3], [4, 1]]", "certificate for the puzzle as given fails"),
], ids=["open", "one-more", "solvable"])
def test_a_nearby_spec_where_fewer_changes_do_is_rejected(
        certificate: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        text: str, reason: str) -> None:
    near = tmp_path / "near.yaml"
    near.write_text(f"trailkit: 1\nkind: domino-chain\n{text}\n", encoding="utf-8")
    assert repair(load_spec(near)).changes < 2  # the claim is false here
    code, said = run(["check-certificate", str(near), str(certificate)], capsys)
    assert code == 1 and reason in said, said


def _edited(certificate: Path, edit: Any) -> Path:
    document = json.loads(certificate.read_text())
    edit(document)
    out = certificate.with_name("edited.json")
    out.write_text(json.dumps(document))
    return out


def _both(n: int) -> Any:
    def edit(document: dict[str, Any]) -> None:
        document["changes"] = document["certificate"]["changes"] = n
    return edit


def _drop_single(document: dict[str, Any]) -> None:
    sets = document["certificate"]["sets"]
    sets[:] = [s for s in sets if [(c["from"], c["to"]) for c in s["changes"]] != [("1", "3")]]


def _swap(document: dict[str, Any]) -> None:
    sets = document["certificate"]["sets"]
    sets[1]["certificate"], sets[2]["certificate"] = sets[2]["certificate"], \
        sets[1]["certificate"]


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda d: d.update(changes=3), "the file claims 3 changes as the fewest; this "
                                        "change-sets certificate proves 2 changes as the fewest"),
    (_both(3), "no certificate for adding a domino 1-2 and adding a domino 1-3"),
    (_both(1), "the repair given is not 1 change"),
    (_drop_single, "no certificate for adding a domino 1-3"),
    (_swap, "fails:"),
    (lambda d: d["certificate"].update(candidates=5), "the spec's repair rules allow 6 "
                                                     "changes, the certificate counted 5"),
    (lambda d: d["certificate"]["repair"]["walk"].pop(), "the repair's walk breaks"),
    (lambda d: d["certificate"].update(sets=5), "no certificate for the puzzle as given"),
    (lambda d: d["certificate"].pop("repair"), "no repair of 2 changes is given"),
    (_both(10**9), "no certificate for adding a domino 1-2 and adding a domino 1-3"),
], ids=["stated", "three", "one", "dropped", "swapped", "candidates", "walk", "not-a-list",
        "no-repair", "absurd"])
def test_an_edited_certificate_is_rejected_with_its_reason(
        certificate: Path, capsys: pytest.CaptureFixture[str], edit: Any,
        reason: str) -> None:
    code, said = run(["check-certificate", str(TWO_PIECES), str(_edited(certificate, edit))],
                     capsys)
    assert code == 1 and reason in said, said


@pytest.mark.long  # the real limit: the search solves 2,016 changed puzzles first
def test_past_the_limit_the_repair_formula_is_refuted_instead(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """64 nodes, any new edge: 2,016 single changes, 2,017 sets to refute, past the
    limit: one refutation of the repair formula
    (tests/solvers/tools/repair/test_fewest_formula_certified.py)."""
    spec = tmp_path / "wide.yaml"
    names = ", ".join(f"n{i}" for i in range(64))
    spec.write_text(f"trailkit: 1\nkind: trail\nclosed: true\nnodes: [{names}]\n"
                    "edges: [n0 n1, n2 n3]\n", encoding="utf-8")
    code, said = run(["prove", str(spec), "--claim", "fewest-changes"], capsys)
    assert code == 0
    assert "so no repair with at most 1 change of the 2,016 changes the spec's repair " \
        "rules allow has a walk" in said


def _is_set_2_3(puzzle: Puzzle) -> bool:
    """Whether ``puzzle`` is the two pieces with the new domino 2-3 added."""
    return puzzle.num_edges == 3 and {puzzle.tail[2], puzzle.head[2]} == {1, 2}


def test_a_set_without_a_certificate_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A set the repair search refuted without a certificate (two backends agreeing), a
    backend that then returns unknown for it, and no time for the repair formula
    (tests/solvers/tools/repair/test_fewest_formula_certified.py): not certified, naming the set."""
    from trailkit.solvers.pipeline import solving
    from trailkit.solvers.tools.repair import fewest_certificate, fewest_formula

    real_prove, real_solve = fewest_certificate.prove, solving.solve

    def prove(puzzle: Puzzle, **kwargs: Any) -> Proof:
        if _is_set_2_3(puzzle):
            return Proof(Status.UNKNOWN, reason="the time limit was reached")
        return real_prove(puzzle, **kwargs)

    def solve(puzzle: Puzzle, *args: Any, **kwargs: Any) -> Answer:
        answer = real_solve(puzzle, *args, **kwargs)
        if _is_set_2_3(puzzle):
            return answer.with_(certificate=None, certificate_checked=False)
        return answer

    monkeypatch.setattr(fewest_certificate, "prove", prove)
    monkeypatch.setattr(solving, "solve", solve)  # what the size-by-size search calls
    monkeypatch.setattr(fewest_formula, "FORMULA_SECONDS", 0.0)
    claim = repair(load_spec(TWO_PIECES)).claim
    assert claim is not None and not claim.checked
    assert claim.why.startswith("not certified (no unsolvability certificate for add a new "
                                "domino 2-3: the time limit was reached; the repair "
                                "formula: "), claim.why
    assert "; rests on the repair search:" in claim.why


#: Three one-way streets into b: no single new edge gives a trail, the search shows
#: (the parity bound allows one), two do.
THREE_INTO_ONE = ("trailkit: 1\nkind: trail\nrepair: {add: any}\nedges: [{from: a, to: b, "
                  "directed: true}, {from: c, to: b, directed: true}, {from: d, to: b, "
                  "directed: true}]\n")


def test_the_sets_the_search_refuted_are_not_solved_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The repair search refuted each smaller set with a checked certificate: the
    ``change-sets`` certificate is made of those (each checked again with the whole by
    the independent checker), not of every set solved and proven once more."""
    from trailkit.models.checking import change_sets
    from trailkit.solvers.tools.repair import fewest_certificate

    proven: list[Puzzle] = []
    real = fewest_certificate.prove

    def prove(puzzle: Puzzle, **kwargs: Any) -> Proof:
        proven.append(puzzle)
        return real(puzzle, **kwargs)

    checked: list[int] = []
    real_verdict = fewest_certificate.change_sets_verdict

    def verdict(puzzle: Puzzle, data: Any, **kwargs: Any) -> change_sets.Verdict:
        checked.append(len(data["sets"]))
        return real_verdict(puzzle, data, **kwargs)

    monkeypatch.setattr(fewest_certificate, "prove", prove)
    monkeypatch.setattr(fewest_certificate, "change_sets_verdict", verdict)
    result = repair(load_spec_text(THREE_INTO_ONE))
    assert "all 6 sets of 1 changes refuted (6 with a checked certificate)" in result.proof
    assert result.changes == 2 and result.claim is not None and result.claim.checked
    assert checked == [7]  # the empty set and the 6 single new edges, all checked
    assert proven == []


def _either_way(change: dict[str, Any]) -> str:
    """A change object as text, a new two-way edge's ends in name order, ids as text."""
    change = {k: v for k, v in change.items() if k != "old_colour"}
    if "edge" in change:
        change["edge"] = str(change["edge"])
    if change["op"] == "add" and not change.get("directed") and change["to"] < change["from"]:
        change["from"], change["to"] = change["to"], change["from"]
    return json.dumps(change, sort_keys=True)


def test_the_checker_derives_the_changes_the_repair_search_chooses_from() -> None:
    """The checker's own derivation of the allowed changes (touching nodes of a layout
    found by a sweep, not the search's grid of cells) gives the same changes as the repair
    search's, on every bundled spec with few enough of them."""
    from trailkit.models.checking.change_sets import allowed_changes
    from trailkit.models.repair_rules import RepairRules
    from trailkit.solvers.tools.repair.candidates import candidate_changes

    tried = 0
    for path in sorted((ROOT / "specs").rglob("*.yaml")):
        puzzle = load_spec(path)
        rules = puzzle.repair or RepairRules.default(has_layout=bool(puzzle.layout))
        if rules.add == "any" and puzzle.num_nodes > 60:
            continue
        for variant in (rules, rules.with_(recolour=True, remove=True)):
            mine = allowed_changes(puzzle, variant)
            assert not isinstance(mine, str)
            theirs = [json.dumps(c.to_json(puzzle))
                      for c in candidate_changes(puzzle, variant)]
            said = [{"op": op, "from": u, "to": v, "colour": colour,
                     **({} if edge is None else {"edge": edge}),
                     **({"directed": True} if one_way else {})}
                    for op, u, v, colour, edge, one_way in mine]
            assert sorted(map(_either_way, said)) == \
                sorted(_either_way(json.loads(c)) for c in theirs), path
        tried += 1
    assert tried >= 20


# ------------------------------------------------------------------ brute force
@pytest.mark.parametrize("use", list(EdgeUse), ids=str)
@costly(0.03, "each example runs the repair search and refutes every smaller change "
        "set (about a second each; the filter's rejected draws are brute-forced too)",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_certified_fewest_changes_match_brute_force(use: EdgeUse, data: st.DataObject) -> None:
    """A certified claim states the fewest changes brute force finds, and the checker
    accepts its certificate under the spec's rules; 1 or more changes within the limit
    are always certified (1 too: with the repair, not the unsolvability certificate alone)."""
    from trailkit.models.checking.change_sets import change_sets_verdict

    p = data.draw(walk_puzzles(use, max_nodes=4, max_edges=3))
    remove = use is EdgeUse.EXACTLY_ONCE and data.draw(st.booleans())
    p = dataclasses.replace(p, repair=RepairRules(add="any", remove=remove))
    fewest = fewest_changes_oracle(p, remove, 2)
    assume(fewest in (1, 2))  # a repair to make, of a size brute force can confirm
    result = repair(p, max_changes=2)
    if result.status is RepairStatus.UNKNOWN:
        return  # allowed: the search gave up (never a wrong answer)
    assert result.status is RepairStatus.REPAIRED and result.changes is not None
    assert result.changes >= fewest
    claim = result.claim
    assert claim is not None and claim.checked, claim
    assert claim.value == fewest == result.changes
    assert change_sets_verdict(p, claim.certificate.data).accepted
    if fewest == 2:  # the checker needs every smaller set: drop one, and it refuses
        data_without = {**claim.certificate.data, "sets": claim.certificate.data["sets"][1:]}
        assert "no certificate for" in change_sets_verdict(p, data_without).problems[0]
