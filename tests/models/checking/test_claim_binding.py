"""A certificate file is accepted only for the claim and value its certificate proves
(CONTRACT 1.4 §7; issue 40): the checker derives them from the certificate itself
(:mod:`trailkit.models.checking.claim_table`) and rejects a file stating anything else,
at any place it states it, naming both; forged claims of every kind, judged against brute
force (:mod:`forgeries`), are never accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from forgeries import CLAIMS, VALUE_KEY, forged, holds, truth
from hypothesis import HealthCheck, example, given
from hypothesis import strategies as st
from oracles import tiny_puzzles

from trailkit.models.formulas.formulas import encodings
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.proving import check_certificate_file

ROOT = Path(__file__).resolve().parents[3]
KOENIGSBERG = str(ROOT / "specs" / "koenigsberg.yaml")
NIKOLAUS = str(ROOT / "specs" / "nikolaus.yaml")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


def proved(tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, *extra: str
           ) -> dict[str, Any]:
    out = tmp_path / "made.json"
    run(["prove", spec, *extra, "--out", str(out)], capsys)
    document: dict[str, Any] = json.loads(out.read_text())
    return document


def checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str,
            document: dict[str, Any], name: str = "forged.json") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return run(["check-certificate", spec, str(path)], capsys)


# ------------------------------------------------------------- relabellings
def test_koenigsberg_count_edited_to_five_solutions_at_both_places_is_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = proved(tmp_path, capsys, KOENIGSBERG, "--claim", "count")
    assert document["solutions"] == 0 and checked(tmp_path, capsys, KOENIGSBERG,
                                                  document)[0] == 0
    document["solutions"] = 5
    document["certificate"]["solutions"] = 5  # the second place: inside the certificate
    code, out = checked(tmp_path, capsys, KOENIGSBERG, document)
    assert code == 1, out
    assert "the file claims 5 solutions; this parity certificate proves that no walk " \
        "exists" in out


@pytest.mark.parametrize("claim", ["shortest", "longest", "unique", "fewest-changes",
                                   "minimal-core"])
def test_koenigsberg_count_relabelled_is_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], claim: str) -> None:
    document = proved(tmp_path, capsys, KOENIGSBERG, "--claim", "count")
    for _, edited in forged(document, claim, 3 if claim in VALUE_KEY else None):
        edited["certificate"]["claim"] = claim
        if claim in VALUE_KEY:
            edited["certificate"][VALUE_KEY[claim]] = 3
        code, out = checked(tmp_path, capsys, KOENIGSBERG, edited)
        assert code == 1 and "this parity certificate proves that no walk exists" in out, out


def test_a_file_without_a_claim_gets_the_one_its_certificate_proves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = proved(tmp_path, capsys, NIKOLAUS, "--claim", "count")
    bare = {"certificate": {k: v for k, v in document["certificate"].items() if k != "claim"}}
    code, out = checked(tmp_path, capsys, NIKOLAUS, bare)
    assert code == 0 and out.endswith("claim proven: count, 88 solutions\n"), out
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(bare))
    code = main(["check-certificate", NIKOLAUS, str(path), "--json"])
    said = json.loads(capsys.readouterr().out)
    assert code == 0 and (said["claim"], said["value"]) == ("count", 88)


def test_the_check_json_says_the_claim_and_a_null_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = proved(tmp_path, capsys, KOENIGSBERG)
    path = tmp_path / "unsolvable.json"
    path.write_text(json.dumps(document))
    code = main(["check-certificate", KOENIGSBERG, str(path), "--json"])
    said = json.loads(capsys.readouterr().out)
    assert code == 0 and (said["claim"], said["value"]) == ("unsolvable", None)


def test_an_answer_file_relabelled_unsolvable_with_a_count_certificate_is_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = proved(tmp_path, capsys, NIKOLAUS, "--claim", "count")
    answer = {"format": "trailkit-result/1", "status": "unsolvable",
              "certificate": document["certificate"]}
    code, out = checked(tmp_path, capsys, NIKOLAUS, answer)
    assert code == 1 and "the file claims that no walk exists; this best-formula " \
        "certificate proves 88 solutions" in out, out
    answer["status"] = "solved"
    assert checked(tmp_path, capsys, NIKOLAUS, answer)[0] == 0


# ------------------------------------------------------------ fewest changes
def test_fewest_changes_one_is_not_proven_by_unsolvability_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``repair: {add: none}`` no repair exists at all: a parity certificate (a
    lower bound only) must not prove "1 change is the fewest"."""
    spec = tmp_path / "no-add.yaml"
    spec.write_text(Path(KOENIGSBERG).read_text(encoding="utf-8")
                    + "\nrepair: {add: none}\n", encoding="utf-8")
    document = proved(tmp_path, capsys, str(spec))
    document.update(claim="fewest-changes", changes=1)
    code, out = checked(tmp_path, capsys, str(spec), document)
    assert code == 1 and "the file claims 1 change as the fewest; this parity certificate " \
        "proves that no walk exists" in out, out


STAR = "trailkit: 1\nkind: trail\nedges: [a b, a c, a d]\n"


def _count_sets_certificate(puzzle: Puzzle) -> dict[str, Any]:
    """A ``change-sets`` certificate claiming 2 changes for the star (its fewest is 1):
    every single change's "refutation" a certificate that holds for that puzzle, a
    best-formula count where the change makes it solvable."""
    from trailkit.models.formulas.repair_changes import allowed_changes, applied
    from trailkit.solvers.pipeline.proving import prove
    from trailkit.solvers.pipeline.refuted_claims import count_claim
    from trailkit.solvers.pipeline.solving import solve

    allowed = allowed_changes(puzzle)
    assert not isinstance(allowed, str)

    def as_json(key: Any) -> dict[str, Any]:
        return {"op": key[0], "from": key[1], "to": key[2], "colour": key[3]}

    sets = [{"changes": [], "certificate": prove(puzzle).certificate.to_json()}]
    for key in allowed:
        changed = applied(puzzle, [key])
        made = count_claim(changed)
        assert made.checked and made.certificate is not None and made.value
        sets.append({"changes": [as_json(key)], "certificate": made.certificate.to_json()})
    pair = [allowed[0], allowed[-1]]
    fixed = applied(puzzle, pair)
    walk = solve(fixed).walk
    assert walk is not None
    return {"type": "change-sets", "changes": 2, "candidates": len(allowed), "sets": sets,
            "repair": {"changes": [as_json(k) for k in pair],
                       "start": fixed.nodes[walk.nodes[0]],
                       "walk": [fixed.edge_id(e) for e in walk.edges]}}


def test_change_sets_carrying_count_certificates_are_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "star.yaml"
    spec.write_text(STAR, encoding="utf-8")
    body = _count_sets_certificate(load_spec(str(spec)))
    document = {"format": "trailkit-certificate/1", "claim": "fewest-changes", "changes": 2,
                "certificate": body}
    code, out = checked(tmp_path, capsys, str(spec), document)
    assert code == 1 and "best-formula certificate for adding" in out and \
        "not that no walk exists" in out, out
    code, out = run(["prove", str(spec), "--claim", "fewest-changes"], capsys)
    assert code == 0 and "fewest changes: 1 change" in out


# ------------------------------------------------------------------- unique
FORKED = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: {objective}\nstart: a\n"
          "end: c\nedges: [a b, b c, a c]\n")


@pytest.mark.parametrize("drup", [False, True], ids=["layers", "walk-as-short-v1"])
def test_unique_of_the_shortest_is_not_unique_without_an_objective(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], drup: bool) -> None:
    """The only shortest walk (a-c) is not the only solution where every walk counts
    (a-b-c too): the same certificate is accepted for the one puzzle, rejected for the
    other."""
    shortest, plain = tmp_path / "shortest.yaml", tmp_path / "plain.yaml"
    shortest.write_text(FORKED.format(objective="shortest"), encoding="utf-8")
    plain.write_text(FORKED.format(objective="any"), encoding="utf-8")
    document = proved(tmp_path, capsys, str(shortest), "--claim", "unique",
                      *(["--drup"] if drup else []))
    assert checked(tmp_path, capsys, str(shortest), document)[0] == 0
    code, out = checked(tmp_path, capsys, str(plain), document)
    said = ("the file claims that the walk is the only solution; this layers certificate "
            "proves that the shortest walk has 1 step" if not drup else
            "a walk-as-short-v1 refutation does not prove the walk unique among this "
            "puzzle's solutions (every walk")
    assert code == 1 and said in out, out


EMPTY = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: shortest\nstart: a\nend: a\n"
         "edges: [a b, b a, a c]\n")


def test_the_empty_walk_alone_shortest_is_unique(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The empty walk on a is the only shortest walk (a-b-a is longer): the count
    certificate listing it alone proves it unique."""
    spec = tmp_path / "empty.yaml"
    spec.write_text(EMPTY, encoding="utf-8")
    document = proved(tmp_path, capsys, str(spec), "--claim", "count")
    assert document["solutions"] == 1
    del document["solutions"]
    document["claim"] = "unique"
    code, out = checked(tmp_path, capsys, str(spec), document)
    assert code == 0 and out.endswith("claim proven: unique\n"), out


# -------------------------------------------------------------------- the table
def test_every_kind_and_formula_is_in_the_table() -> None:
    from trailkit.models.checking import certificates
    from trailkit.models.checking.claim_table import FORMULAS, KINDS

    made = {*certificates._CHECKERS, "layers", "best-formula", "change-sets", "core"}
    assert made <= set(KINDS)
    assert set(encodings()) == set(FORMULAS)


def test_a_statement_is_compared_at_every_place() -> None:
    from trailkit.models.answer import Certificate
    from trailkit.models.checking.claim_table import mismatch, proven, stated

    p = load_spec(NIKOLAUS)

    body = {"type": "best-formula", "claim": "count", "solutions": 88}
    found = proven(p, Certificate("best-formula", body, ""))
    assert not mismatch(p, found, stated({"claim": "count", "solutions": 88}, body))
    assert "the file claims 5 solutions" in mismatch(
        p, found, stated({"claim": "count", "solutions": 88}, {**body, "solutions": 5}))
    assert "a walk of 7 steps" in mismatch(p, found, stated({"length": 7}, body))


# ---------------------------------------------------------------- forgeries
#: The corpus puzzles of the README's sweep: with the two bundled specs they give 12 kinds
#: of certificate (all the full sweep's but ``drup walk-v1``) and more false statements
#: than its first eight, in about half its time (corpus 0, 1 and 5 cost ~8 s between
#: them, mostly change-sets certificates made and checked again and again).
PICK = (2, 3, 4, 6, 7, 8, 9, 10)


@pytest.fixture(scope="module")
def tally(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from forgeries import run as forge

    return forge(11, tmp_path_factory.mktemp("forged"), bundled=("koenigsberg", "nikolaus"),
                 pick=PICK)


def test_no_forged_claim_is_accepted(tally: Any) -> None:
    assert tally.false_tried > 500
    assert tally.false_accepted == 0, tally.wrong[:10]


def test_true_claims_are_accepted(tally: Any) -> None:
    assert tally.true_accepted >= tally.true_tried // 3, tally.line()
    assert len(tally.kinds) >= 8, tally.line()


@pytest.mark.long  # the full sweep (1,162 files, each checked in full): breadth is its point
def test_the_full_forgery_sweep_accepts_no_false_claim(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    from forgeries import run as forge

    full = forge(8, tmp_path_factory.mktemp("full"), bundled=("koenigsberg", "nikolaus"))
    assert full.false_tried > 500
    assert full.false_accepted == 0, full.wrong[:10]
    assert full.true_accepted >= full.true_tried // 3, full.line()
    assert len(full.kinds) >= 8, full.line()


def _certificate_for(puzzle: Puzzle, claim: str) -> dict[str, Any] | None:
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.pipeline.proving import prove, prove_claim

    limits = Limits(time_limit=5)
    try:
        proof = prove(puzzle, limits=limits) if claim == "unsolvable" else \
            prove_claim(puzzle, claim, limits)
    except Exception:  # a maker's failure (the claim does not apply): nothing to forge
        return None
    return proof.document


@costly(0.3, "each example makes a certificate and brute-forces every walk",
        suppress_health_check=[HealthCheck.too_slow], deadline=None)
@example(puzzle=Puzzle(kind="walk", nodes=("a",), tail=[], head=[], use=EdgeUse.ANY,
                       closed=True), made_for="count", claim="count", value=1, top_only=False)
@given(puzzle=tiny_puzzles(max_nodes=3, max_edges=4),
       made_for=st.sampled_from(["unsolvable", "count", "unique", "shortest", "longest"]),
       claim=st.sampled_from(CLAIMS), value=st.integers(0, 6), top_only=st.booleans())
def test_random_claims_on_random_puzzles_agree_with_brute_force(
        tmp_path_factory: pytest.TempPathFactory, puzzle: Puzzle, made_for: str, claim: str,
        value: int, top_only: bool) -> None:
    document = _certificate_for(puzzle, made_for)
    if document is None:
        return
    true = holds(truth(puzzle), claim, value if claim in VALUE_KEY else None)
    if true is None:
        return
    files = list(forged(json.loads(json.dumps(document)), claim,
                        value if claim in VALUE_KEY else None))
    path = tmp_path_factory.mktemp("random") / "forged.json"
    for _, doc in files[:1] if top_only else files:
        path.write_text(json.dumps(doc))
        accepted = check_certificate_file(puzzle, str(path)).accepted
        assert not accepted or true, (claim, value, doc)

