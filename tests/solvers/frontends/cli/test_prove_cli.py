"""``trailkit prove`` and ``trailkit check-certificate`` as the contract states them:
exit 1 with a checked certificate written for an unsolvable puzzle, exit 0 with
nothing written for a solvable one; a certificate accepted with exit 0, and a
tampered, truncated or misplaced one rejected with exit 2 and the reason."""

from __future__ import annotations

import hashlib
import json
import random
import tracemalloc
from pathlib import Path

import pytest

from trailkit.models.answer import Answer, Status
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import proving

SPECS = Path(__file__).resolve().parents[4] / "specs"
KOENIGSBERG = str(SPECS / "koenigsberg.yaml")
DOUBLE_NINE = str(SPECS / "dominoes" / "double-nine.yaml")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def proved(tmp_path: Path, capsys, *extra: str) -> Path:
    cert = tmp_path / "cert.json"
    code, out, _ = run(["prove", KOENIGSBERG, "--out", str(cert), *extra], capsys)
    assert code == 1, out
    assert "unsolvable" in out and cert.exists()
    return cert


def test_structural_certificate_is_written_and_accepted(tmp_path: Path, capsys) -> None:
    cert = proved(tmp_path, capsys)
    document = json.loads(cert.read_text())
    assert document["format"] == "trailkit-certificate/1"
    assert document["certificate"]["type"] == "parity"
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 0 and out.startswith("accepted:")


def test_drup_certificate_round_trip_and_rejections(tmp_path: Path, capsys) -> None:
    cert = proved(tmp_path, capsys, "--drup")
    document = json.loads(cert.read_text())
    assert document["certificate"]["type"] == "drup"
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(cert), "--json"], capsys)
    assert code == 0 and json.loads(out)["accepted"] is True

    side = cert.with_suffix(".drat")  # the proof lives next to the JSON, hashed in it
    assert document["certificate"]["proof_file"] == side.name and side.exists()
    assert "proof" not in document["certificate"]
    lines = side.read_text().splitlines()
    truncated = json.loads(cert.read_text())
    inline = {**truncated["certificate"], "proof": lines[:-1]}
    del inline["proof_file"], inline["proof_sha256"]
    bad = tmp_path / "truncated.json"  # an old certificate, its proof inline: still read
    bad.write_text(json.dumps({**truncated, "certificate": inline}))
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(bad)], capsys)
    assert code == 1 and out.startswith("rejected:") and "empty clause" in out
    bad.write_text(json.dumps({**truncated, "certificate": {**inline, "proof": lines}}))
    assert run(["check-certificate", KOENIGSBERG, str(bad)], capsys)[0] == 0

    side.write_text("\n".join(lines[:-1]) + "\n")  # the side file changed under its hash
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 1 and "does not match the SHA-256" in out
    side.unlink()
    code, out, err = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 2 and "cannot read the certificate's proof file" in err

    side.write_text("\n".join(lines) + "\n")
    code, out, _ = run(["check-certificate", DOUBLE_NINE, str(cert)], capsys)
    assert code == 1 and out.startswith("rejected:")  # made for another spec

    cut = tmp_path / "cut.json"
    cut.write_text(cert.read_text()[:200])
    code, out, err = run(["check-certificate", KOENIGSBERG, str(cut)], capsys)
    assert code == 2 and out == "" and "not valid JSON" in err  # unreadable: input trouble
    assert f"{cut}:" in err and ": error: " in err

    code, out, err = run(["check-certificate", KOENIGSBERG, str(tmp_path / "missing.json")],
                         capsys)
    assert code == 2 and "cannot read" in err


@pytest.mark.long  # a proof file of 80,000 extra lines: its size is the point
def test_a_big_side_file_is_checked_without_holding_it(tmp_path: Path, capsys) -> None:
    # The certificate's own proof, with 80,000 deletions of clauses that are not there
    # before its empty clause (still a valid proof), re-hashed: the check reads the file
    # in pieces, so its peak stays far below the file's size.
    cert = proved(tmp_path, capsys, "--drup")
    document = json.loads(cert.read_text())
    side = cert.with_suffix(".drat")
    lines = side.read_text().splitlines()
    rng = random.Random(3)
    padding = ["d " + " ".join(str(rng.choice([-1, 1]) * rng.randint(10**6, 10**7))
                               for _ in range(40)) + " 0" for _ in range(80_000)]
    side.write_text("\n".join([*lines[:-1], *padding, lines[-1]]) + "\n")
    size = side.stat().st_size
    document["certificate"]["proof_sha256"] = hashlib.sha256(side.read_bytes()).hexdigest()
    cert.write_text(json.dumps(document))
    puzzle = load_spec(KOENIGSBERG)
    proving.check_certificate_file(puzzle, str(cert))  # the kernels loaded first
    tracemalloc.start()
    try:
        check = proving.check_certificate_file(puzzle, str(cert))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert check.accepted, check.message
    assert size > 24_000_000
    # a 4 MiB block and about 40 bytes a line; the file's literal codes alone: 12.8 MB
    assert peak < size / 3, (peak, size)


def test_solvable_puzzle_writes_no_certificate(tmp_path: Path, capsys) -> None:
    cert = tmp_path / "cert.json"
    code, out, _ = run(["prove", str(SPECS / "nikolaus.yaml"), "--out", str(cert)], capsys)
    assert code == 0 and "solvable" in out and not cert.exists()


def test_a_drup_proof_settles_what_direct_gave_up_on(monkeypatch) -> None:
    # every degree even, but red -> blue -> green cannot close: no structural argument
    rgb = ColourRule.from_cycle(["red", "blue", "green"])
    triangles = Puzzle.build(kind="walk", colours=rgb, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
        ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
    monkeypatch.setattr(proving, "solve", lambda puzzle, backend, limits: Answer(
        Status.UNKNOWN, backend, reason="work limit reached"))
    outcome = proving.prove(triangles, "sat", Limits(), spec_path=None)
    assert outcome.status is Status.UNSOLVABLE and outcome.decided_by == "sat"
    assert outcome.document is not None
    assert outcome.document["certificate"]["type"] == "drup"


def test_with_drup_the_proof_comes_before_directs_search(monkeypatch) -> None:
    # --drup wants a DRUP proof whatever direct says; direct's search (which on colours
    # and once-only edges may spend its whole work limit) runs only if no proof came
    rgb = ColourRule.from_cycle(["red", "blue", "green"])
    triangles = Puzzle.build(kind="walk", colours=rgb, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
        ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
    asked: list[str] = []
    real_solve = proving.solve

    def spied(puzzle: Puzzle, backend: str, limits: Limits) -> Answer:
        asked.append(backend)
        return real_solve(puzzle, backend, limits)

    monkeypatch.setattr(proving, "solve", spied)
    outcome = proving.prove(triangles, "sat", Limits(), drup=True)
    assert outcome.status is Status.UNSOLVABLE and outcome.decided_by == "sat"
    assert asked == []  # the checked proof settled it
    walkable = Puzzle.build(kind="walk", colours=rgb, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green")])
    outcome = proving.prove(walkable, "sat", Limits(), drup=True)
    assert outcome.status is Status.SOLVED and outcome.length == 3
    assert asked == ["direct"]  # no proof (a walk exists): direct found and verified it


def test_direct_searches_in_full_only_when_no_proof_comes(monkeypatch) -> None:
    # a search that would need more than FIRST_LOOK nodes (as on the bench's balanced
    # specs, 40 to 80 s to give up): the proof is asked for after the first look, and the
    # whole search runs only when none comes, so a walk is still found
    rgb = ColourRule.from_cycle(["red", "blue", "green"])
    triangles = Puzzle.build(kind="walk", colours=rgb, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green"),
        ("a", "d", "red"), ("d", "e", "green"), ("e", "a", "blue")])
    walkable = Puzzle.build(kind="walk", colours=rgb, closed=True, edges=[
        ("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "green")])
    budgets: list[int | None] = []
    real_solve = proving.solve

    def slow_search(puzzle: Puzzle, backend: str, limits: Limits) -> Answer:
        budgets.append(limits.work_limit)
        if limits.work_limit == proving.FIRST_LOOK:
            return Answer(Status.UNKNOWN, backend, reason="work limit reached")
        return real_solve(puzzle, backend, limits)

    monkeypatch.setattr(proving, "solve", slow_search)
    outcome = proving.prove(triangles, "sat", Limits())
    assert outcome.status is Status.UNSOLVABLE and outcome.decided_by == "sat"
    assert budgets == [proving.FIRST_LOOK]  # the proof settled it: no whole search
    budgets.clear()
    outcome = proving.prove(walkable, "sat", Limits())
    assert outcome.status is Status.SOLVED and outcome.length == 3
    assert budgets == [proving.FIRST_LOOK, None]  # no proof: searched in full
    budgets.clear()
    outcome = proving.prove(walkable, "sat", Limits(work_limit=7))
    assert budgets == [7]  # a work limit given is the user's: kept
    budgets.clear()
    outcome = proving.prove(walkable, "cpsat", Limits())  # makes no proofs: no first look
    assert outcome.status is Status.SOLVED and budgets == [None]


def test_lrat_certificate_round_trip_and_rejections(tmp_path: Path, capsys) -> None:
    cert = proved(tmp_path, capsys, "--lrat")
    body = json.loads(cert.read_text())["certificate"]
    assert body["type"] == "drup" and body["proof_format"] == "lrat"
    side = cert.with_suffix(".lrat")
    assert body["proof_file"] == side.name
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 0 and "LRAT" in out, out

    lines = side.read_text().splitlines()
    inline = {**body, "proof": lines[:-1]}  # inline, without its empty clause
    del inline["proof_file"], inline["proof_sha256"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"certificate": inline}))
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(bad)], capsys)
    assert code == 1 and "without the empty clause" in out
    first = next(k for k, line in enumerate(lines) if " d " not in line)
    numbers = lines[first].split()
    lines[first] = " ".join([*numbers[:-2], "0"])  # the conflict's hint dropped
    bad.write_text(json.dumps({"certificate": {**inline, "proof": lines}}))
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(bad)], capsys)
    assert code == 1 and f"LRAT line {first + 1}:" in out and "hint is missing" in out
    code, out, _ = run(["check-certificate", DOUBLE_NINE, str(cert)], capsys)
    assert code == 1 and out.startswith("rejected:")  # made for another spec


def _tampered_cnf(cnf: str, how: str) -> tuple[str, str]:
    """The certificate's DIMACS text changed as ``how`` says, and the clause it names."""
    lines = cnf.splitlines()
    clauses = lines[1:]
    if how == "dropped":
        del clauses[16]
        where = "clause 17 differs"
    elif how == "added":
        clauses.append("1 2 0")
        where = f"clause {len(clauses)} ('1 2 0') is one too many"
    else:  # a changed literal
        numbers = clauses[16].split()
        numbers[0] = str(-int(numbers[0]))
        clauses[16] = " ".join(numbers)
        where = "clause 17 differs"
    return "\n".join([lines[0], *clauses]) + "\n", where


@pytest.mark.parametrize("proof", ["--drup", "--lrat"])
@pytest.mark.parametrize("how", ["dropped", "added", "changed"])
@pytest.mark.parametrize("hashed", ["hash kept", "hash updated"])
@pytest.mark.parametrize("inline", [False, True])
def test_a_stored_formula_that_is_not_the_certified_one_is_rejected(
        tmp_path: Path, capsys, proof: str, how: str, hashed: str, inline: bool) -> None:
    # The proof is checked against the formula re-derived from the spec, so it still
    # holds; but the certificate must not carry another formula: it is rejected, naming
    # the clause (and the hash, when it was updated to the changed text).
    cert = proved(tmp_path, capsys, proof)
    document = json.loads(cert.read_text())
    body = document["certificate"]
    cnf, where = _tampered_cnf(body["cnf"], how)
    body["cnf"] = cnf
    if hashed == "hash updated":
        body["cnf_sha256"] = hashlib.sha256(cnf.encode()).hexdigest()
    if inline:
        side = cert.parent / body.pop("proof_file")
        del body["proof_sha256"]
        body["proof"] = side.read_text().splitlines()
    cert.write_text(json.dumps(document))
    code, out, _ = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 1 and out.startswith("rejected:"), out
    assert "the certificate's formula is not the one this spec gives" in out
    assert where in out
    assert ("does not match the formula of this spec" in out) == (hashed == "hash updated")


FORGED = "FORGED: this certificate was checked by nobody"
FIVE = [("parity", KOENIGSBERG, [], "have odd degrees (5, 3, 3 and 3)"),
        ("disconnected", str(SPECS / "dominoes" / "two-pieces.yaml"), [],
         "no edge joins the 2 nodes 1 and 2 to the other nodes"),
        ("closed-set", str(SPECS / "colour-walk-dead-end.yaml"), [],
         "the closed set of 3 (place, last colour) situations at 3 places holds every "
         "start situation and none at D, where the walk must finish"),
        ("drup", KOENIGSBERG, ["--drup"], "trailkit's DRUP checker found that the proof "
         "derives the empty clause"),
        ("drup", KOENIGSBERG, ["--lrat"], "trailkit's LRAT checker found that the LRAT "
         "proof derives the empty clause")]


@pytest.mark.parametrize(("kind", "spec", "extra", "words"), FIVE,
                         ids=["parity", "disconnected", "closed-set", "drup", "lrat"])
def test_check_certificate_speaks_its_own_words(tmp_path: Path, capsys, kind: str,
                                                spec: str, extra: list[str],
                                                words: str) -> None:
    # What "holds" is the checker's own sentence, never the file's explanation: forged
    # here, and never echoed, on acceptance (text and JSON) or on rejection.
    cert = tmp_path / "cert.json"
    assert run(["prove", spec, "--out", str(cert), *extra], capsys)[0] == 1
    document = json.loads(cert.read_text())
    assert document["certificate"]["type"] == kind
    document["certificate"]["explanation"] = FORGED
    cert.write_text(json.dumps(document))
    code, out, err = run(["check-certificate", spec, str(cert)], capsys)
    assert code == 0 and out.startswith(f"accepted: {kind} certificate holds: "), out
    assert words in out and "FORGED" not in out + err
    code, out, err = run(["check-certificate", spec, str(cert), "--json"], capsys)
    assert code == 0 and words in json.loads(out)["message"] and "FORGED" not in out + err
    other = KOENIGSBERG if spec != KOENIGSBERG else str(SPECS / "nikolaus.yaml")
    code, out, err = run(["check-certificate", other, str(cert)], capsys)
    assert code == 1 and out.startswith("rejected:") and "FORGED" not in out + err


def test_the_other_structural_kinds_speak_their_own_words(tmp_path: Path) -> None:
    from trailkit.models.answer import Certificate
    from trailkit.solvers.backends.direct.structural import alternation_certificate
    from trailkit.solvers.pipeline import solve

    imbalanced = Puzzle(kind="walk", tail=[0, 0], head=[1, 1], nodes=("a", "b"),
                        directed=[True] * 2)
    ends = Puzzle(kind="walk", tail=[0, 1, 2, 0], head=[1, 2, 0, 1], nodes=("a", "b", "c"),
                  directed=[True] * 4, start=frozenset({1}))
    rule = ColourRule.from_transitions(["red", "blue"], {"red": ["blue"], "blue": ["red"]})
    ring = Puzzle.build(kind="walk", colours=rule, closed=True, use=EdgeUse.EXACTLY_ONCE,
                        edges=[("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"),
                               ("d", "a", "red")])
    said = {"imbalance": "+2 at a and -2 at b", "endpoints": "only the ends from a to b",
            "alternation": "red minus blue edge ends are +2 at a and +2 at d"}
    for puzzle in (imbalanced, ends, ring):
        certificate = (alternation_certificate(puzzle) if puzzle is ring
                       else solve(puzzle, "direct", Limits(), crosscheck=None).certificate)
        assert certificate is not None
        forged = Certificate(certificate.kind, certificate.data, FORGED)
        path = tmp_path / f"{certificate.kind}.json"
        path.write_text(json.dumps({"certificate": forged.to_json()}))
        check = proving.check_certificate_file(puzzle, str(path))
        assert check.accepted and "FORGED" not in check.message, check.message
        assert said[certificate.kind] in check.message


@pytest.mark.parametrize("spoil, where", [
    (lambda text: text.replace('"type"', '"solutions": ' + "7" * 5000 + ', "type"', 1),
     ":5000 digits"),
    (lambda text: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_a_certificate_no_reader_takes_is_an_input_error(tmp_path: Path, capsys, spoil,
                                                         where: str) -> None:
    """A 5,000-digit number (Python's limit on reading integers) or JSON nested 100,000
    deep were internal errors (exit 4): exit 2, located, saying what is wrong."""
    cert = proved(tmp_path, capsys)
    cert.write_text(spoil(cert.read_text()))
    code, out, err = run(["check-certificate", KOENIGSBERG, str(cert)], capsys)
    assert code == 2 and not out
    assert str(cert) in err and "INTERNAL" not in err
    if where.startswith(":"):
        line, column = err.split(str(cert))[1].split(":")[1:3]
        raw = cert.read_text().splitlines()[int(line) - 1]
        assert raw[int(column) - 1:].startswith("7" * 5000)
        assert "(5,000 digits)" in err
    else:
        assert where in err
