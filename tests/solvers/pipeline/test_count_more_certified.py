"""The count claim certified where the empty walk solves the puzzle, and under an objective
(issue 32).

A once-only puzzle whose empty walk is allowed has that walk as a solution on every node
that may both start and end it: the ``walk-blocked-v1`` certificate lists those empty
walks beside the walks of some steps, and the checker finds for itself on which nodes
the empty walk is allowed, demanding exactly those. Under ``objective: shortest`` or
``longest`` an at-most-once count counts the walks of the best length L only: the
certificate lists them and refutes ``walk-as-short-v1`` (no walk of 1 to L steps outside
the list) or ``walk-as-long-v1`` (none of L or more steps outside it), which proves L and
the count at once. Each certificate is accepted on its spec and rejected, naming why, on
a nearby spec where the claim is false or when edited; brute force written here is the
oracle on random puzzles, and drat-trim reads the ``--proof-dir`` files when installed.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, given
from oracles import tiny_puzzles
from outside_tools import tool

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.drup import CERTIFICATE_FORMAT, cnf_sha256, cnf_text
from trailkit.models.checking.verify import verify
from trailkit.models.formulas.formulas import rebuild
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.refuted_claims import count_claim

# 18 walks from a or b: 2 of them empty (the walk may end anywhere)
EMPTY = """trailkit: 1
kind: walk
use: at-most-once
start: [a, b]
edges: [a b, b c, c a, c d]
"""
# a to d: a-b-d and a-c-d of 2 steps are the shortest (a-b-c-d, a-c-b-d take 3)
SHORTEST = """trailkit: 1
kind: walk
use: at-most-once
objective: shortest
start: a
end: d
edges: [a b, b d, a c, c d, b c]
"""
# the triangle with a tail: 4 walks of 4 steps, each round the triangle and along c-d
LONGEST = """trailkit: 1
kind: walk
use: at-most-once
objective: longest
edges: [a b, b c, c a, c d]
"""
# every node may start and end: the empty walks are the shortest (3 of them)
EMPTY_SHORTEST = """trailkit: 1
kind: walk
use: at-most-once
objective: shortest
edges: [a b, b c]
"""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out + err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def proven(spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """``prove SPEC --claim count --out CERT``, accepted by ``check-certificate``."""
    cert = tmp_path / f"{spec.stem}.json"
    code, out = run(["prove", str(spec), "--claim", "count", "--out", str(cert)], capsys)
    assert code == 0 and "proven count" in out, out
    code, out = run(["check-certificate", str(spec), str(cert)], capsys)
    assert code == 0 and out.startswith("accepted: drup certificate holds"), out
    return cert


# ----------------------------------------------------------------- brute force
def brute_walks(puzzle: Puzzle) -> list[Walk]:
    """Every walk of a once-only ``puzzle`` (no edge twice), by depth-first search over
    the edges at the current node, kept where :func:`verify` accepts it; the empty walk
    on each node included. Under an objective, the walks of the best length only."""
    found: list[Walk] = []
    for start in range(puzzle.num_nodes):
        stack: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((start,), ())]
        while stack:
            nodes, edges = stack.pop()
            walk = Walk(nodes, edges)
            if not verify(puzzle, walk):
                found.append(walk)
            for e in range(puzzle.num_edges):
                if e in edges:
                    continue
                u, v = puzzle.tail[e], puzzle.head[e]
                if u == nodes[-1]:
                    stack.append(((*nodes, v), (*edges, e)))
                if v == nodes[-1] and u != v and not puzzle.is_directed(e):
                    stack.append(((*nodes, u), (*edges, e)))
    if puzzle.use is EdgeUse.AT_MOST_ONCE and puzzle.objective is not Objective.ANY and found:
        pick = min if puzzle.objective is Objective.SHORTEST else max
        best = pick(len(w) for w in found)
        found = [w for w in found if len(w) == best]
    return found


def _once_only(puzzle: Puzzle) -> bool:
    return puzzle.use is not EdgeUse.ANY and puzzle.num_nodes > 0


# ----------------------------------------------------------------- accepted
@pytest.mark.parametrize(("text", "solutions", "encoding"), [
    (EMPTY, 18, "walk-blocked-v1"), (SHORTEST, 2, "walk-as-short-v1"),
    (LONGEST, 4, "walk-as-long-v1"), (EMPTY_SHORTEST, 3, "walk-as-short-v1")],
    ids=["empty-walks", "shortest", "longest", "empty-shortest"])
def test_the_count_is_proven_checked_and_equal_to_counts_number(
        text: str, solutions: int, encoding: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, "spec.yaml", text)
    document = json.loads(proven(spec, tmp_path, capsys).read_text())
    body = document["certificate"]
    assert document["solutions"] == body["solutions"] == len(body["walks"]) == solutions
    assert body["encoding"] == encoding
    puzzle = load_spec_text(text)
    counted = count(puzzle, crosscheck=None)
    assert counted.solutions == solutions and counted.claims[0].checked
    assert counted.claims[0].certificate.data["encoding"] == encoding
    per_start = Counter(walk["start"] for walk in body["walks"])
    assert per_start == {name: row.solutions for name, row in counted.per_start.items()
                         if row.solutions}
    assert sorted(brute_walks(puzzle), key=lambda w: (w.nodes[0], w.edges)) == sorted(
        (Walk.from_edges(puzzle, puzzle.nodes.index(w["start"]), w["edges"])
         for w in body["walks"]), key=lambda w: (w.nodes[0], w.edges))


@pytest.mark.parametrize("backend", backend_names())
@pytest.mark.parametrize("text", [EMPTY, SHORTEST, LONGEST, EMPTY_SHORTEST],
                         ids=["empty", "short", "long", "empty-short"])
def test_every_backends_count_carries_the_checked_claim(text: str, backend: str) -> None:
    puzzle = load_spec_text(text)
    counted = count(puzzle, backend, crosscheck=None)
    assert counted.solutions == len(brute_walks(puzzle))
    assert [c.checked for c in counted.claims] == [True], counted.claims
    assert counted.claims[0].value == counted.solutions


def test_the_empty_walks_are_listed_and_the_count_command_says_proven(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, "empty.yaml", EMPTY)
    code, out = run(["count", str(spec)], capsys)
    assert code == 0 and "count: 18 solutions (proven count" in out, out
    code, out = run(["count", str(spec), "--json"], capsys)
    claims = json.loads(out)["claims"]
    assert claims == [{"claim": "count", "certificate": "drup", "checked": True}]
    body = json.loads(proven(spec, tmp_path, capsys).read_text())["certificate"]
    assert [w["start"] for w in body["walks"] if not w["edges"]] == ["a", "b"]


# ----------------------------------------------------------------- rejected
@pytest.mark.parametrize(("text", "change", "reason"), [
    (EMPTY, ("start: [a, b]", "start: [a, b, d]"),
     "the empty walk on d solves the puzzle but is not listed"),
    (EMPTY, (", c d]", "]"), "listed walk 12: the walk's edge '3' is not in the puzzle"),
    (EMPTY, (", c d]", ", c d, d e]"), "not the one this spec gives"),
    (SHORTEST, ("b c]", "b c, a d]"), "not the one this spec gives"),
    (SHORTEST, ("end: d", "end: [d, b]"),
     "not the one this spec gives"),
    (LONGEST, ("c d]", "c d, d e]"), "not the one this spec gives"),
    (LONGEST, ("objective: longest", "objective: shortest"),
     "count counts its shortest walks only (objective: shortest) here, and a walk-as-long-v1 "
     "refutation does not prove that number"),
    (SHORTEST, ("objective: shortest", "objective: any"),
     "count counts every walk (objective: any) here, and a walk-as-short-v1 refutation does not "
     "prove that number"),
    (EMPTY, ("use: at-most-once", "use: at-most-once\nobjective: shortest"),
     "count counts its shortest walks only (objective: shortest) here, and a walk-blocked-v1 "
     "refutation does not prove that number"),
], ids=["empty-walk-added", "edge-removed", "edge-added", "shorter-plank",
        "shorter-end", "longer-edge", "other-objective", "no-objective", "objective-added"])
def test_a_nearby_spec_where_the_count_is_false_rejects_it(
        text: str, change: tuple[str, str], reason: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    cert = proven(write(tmp_path, "spec.yaml", text), tmp_path, capsys)
    assert change[0] in text
    nearby = write(tmp_path, "nearby.yaml", text.replace(change[0], change[1]))
    code, out = run(["check-certificate", str(nearby), str(cert)], capsys)
    assert code == 1 and out.startswith("rejected: drup certificate: ") and reason in out, out


@pytest.mark.parametrize(("text", "change"), [
    (EMPTY, (", c d]", ", c d, d b]")), (SHORTEST, ("b c]", "b c, a d]")),
    (LONGEST, ("c d]", "c d, b d]"))], ids=["empty", "shorter-plank", "longer-edge"])
def test_the_proof_fails_on_the_nearby_formula_even_if_the_certificate_stores_it(
        text: str, change: tuple[str, str]) -> None:
    """Past the stored formula's hash: the certificate given the nearby spec's own formula
    (a second walk of some length, a shorter walk, a longer one), its proof is refuted."""
    nearby = load_spec_text(text.replace(*change))
    certificate = count_claim(load_spec_text(text)).certificate
    assert certificate is not None
    formula = rebuild(nearby, certificate.data)
    assert not isinstance(formula, list)
    data = {**certificate.data, "cnf": cnf_text(formula.num_vars, formula.clauses),
            "cnf_sha256": cnf_sha256(formula.num_vars, formula.clauses),
            "num_vars": formula.num_vars, "num_clauses": len(formula.clauses)}
    problems = verdict(nearby, Certificate("drup", data, "")).problems
    assert len(problems) == 1 and "does not follow by reverse unit propagation" in problems[0]


@pytest.mark.parametrize("text", [EMPTY, SHORTEST, LONGEST], ids=["empty", "short", "long"])
@pytest.mark.parametrize(("where", "reason"), [
    ("file", "the file claims {n} solutions; this drup walk-"),
    ("both", "the certificate states {n} solutions but lists {m} walks"),
])
def test_a_count_edited_to_another_number_is_rejected(
        text: str, where: str, reason: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    cert = proven(write(tmp_path, "spec.yaml", text), tmp_path, capsys)
    document = json.loads(cert.read_text())
    m = document["solutions"]
    document["solutions"] = m + 1
    if where == "both":
        document["certificate"]["solutions"] = m + 1
    cert.write_text(json.dumps(document))
    code, out = run(["check-certificate", str(tmp_path / "spec.yaml"), str(cert)], capsys)
    assert code == 1 and reason.format(n=m + 1, m=m) in out, out


def _edited(puzzle: Puzzle, data: dict[str, Any], walks: list[dict[str, Any]]) -> list[str]:
    changed = {**data, "walks": walks, "solutions": len(walks)}
    return verdict(puzzle, Certificate("drup", changed, "")).problems


def test_an_empty_walk_missing_from_or_added_to_the_list_is_rejected() -> None:
    puzzle = load_spec_text(EMPTY)
    claim = count_claim(puzzle)
    assert claim.checked and claim.certificate is not None
    data = dict(claim.certificate.data)
    walks = list(data["walks"])
    missing = [w for w in walks if w != {"start": "b", "edges": []}]
    assert _edited(puzzle, data, missing) == [
        "the empty walk on b solves the puzzle but is not listed"]
    added = [*walks, {"start": "c", "edges": []}]
    assert _edited(puzzle, data, added) == [
        "listed walk 19: the walk of 0 steps from c breaks the rules: the walk starts at c, "
        "which is not an allowed start"]
    doubled = [*walks, {"start": "a", "edges": []}]
    assert _edited(puzzle, data, doubled) == ["listed walk 19 is listed twice"]


def test_the_shortest_empty_walks_must_all_be_listed() -> None:
    puzzle = load_spec_text(EMPTY_SHORTEST)
    certificate = count_claim(puzzle).certificate
    assert certificate is not None and certificate.data["length"] == 0
    walks = certificate.data["walks"][1:]
    assert _edited(puzzle, dict(certificate.data), walks) == [
        "the empty walk on a solves the puzzle but is not listed"]


def test_a_best_walk_of_another_length_or_none_listed_is_rejected() -> None:
    puzzle = load_spec_text(SHORTEST)
    certificate = count_claim(puzzle).certificate
    assert certificate is not None
    data = dict(certificate.data)
    longer = {"start": "a", "edges": [0, 4, 3]}  # a-b-c-d: a walk, of 3 steps
    assert _edited(puzzle, data, [*data["walks"], longer]) == [
        "the certificate claims 2 steps but a listed walk has 3"]
    assert _edited(puzzle, data, []) == ["the certificate lists no walk of the best length"]


# ----------------------------------------------------------------- outside checkers
@pytest.mark.parametrize(("text", "meaning"), [
    (EMPTY, "no walk other than the 16 that clauses"),
    (SHORTEST, "no walk of at most 2 steps other than the 2 the last 2 clauses block"),
    (LONGEST, "no walk of 4 or more steps other than the 4 the last 4 clauses block"),
    (EMPTY_SHORTEST, "no walk of at most 0 steps takes a step (the formula is the empty "
     "clause), so the 3 empty walks the certificate lists are the shortest walks"),
], ids=["empty", "shortest", "longest", "empty-shortest"])
def test_proof_dir_files_say_what_they_mean_and_drat_trim_verifies_them(
        text: str, meaning: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, "spec.yaml", text)
    folder = tmp_path / "proof"
    code, out = run(["prove", str(spec), "--claim", "count", "--proof-dir", str(folder)],
                    capsys)
    assert code == 0 and "proof files written" in out, out
    cnf = folder / "formula.cnf"
    said = [line for line in cnf.read_text().splitlines()
            if line.startswith("c its refutation means: ")]
    assert len(said) == 1 and meaning in said[0], said
    if text == EMPTY:
        assert "with the 2 empty walks listed beside them" in said[0]
    trim = tool("DRAT_TRIM", "drat-trim")
    if trim is not None:
        done = subprocess.run([trim, str(cnf), str(folder / "proof.drat")],
                              capture_output=True, text=True, timeout=120, check=False)
        assert "s VERIFIED" in done.stdout, done.stdout


# ----------------------------------------------------------------- brute force
@costly(0.3, "each example runs the SAT backend with proof logging and the checker",
        deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tiny_puzzles(max_nodes=4, max_edges=4).filter(_once_only))
def test_certified_counts_match_brute_force_with_empty_walks_and_objectives(
        puzzle: Puzzle) -> None:
    walks = brute_walks(puzzle)
    claim = count_claim(puzzle, by_refutation=True)
    assert claim.checked, claim.why
    assert claim.value == len(walks)
    assert claim.certificate is not None and verdict(puzzle, claim.certificate).accepted
    counted = count(puzzle, crosscheck=None)  # count's own claim agrees, or it raises
    assert counted.solutions == len(walks)
    assert counted.claims and counted.claims[0].checked


def test_a_puzzle_without_nodes_has_no_walk_formula_to_refute() -> None:
    """The walk that stands nowhere solves a puzzle without nodes (no dominoes): a
    refutation of its empty walk formula ("no step can be taken") proves nothing, and an
    ``unsolvable`` certificate of it was accepted before."""
    puzzle = Puzzle.build(kind="walk", edges=[], use=EdgeUse.AT_MOST_ONCE)
    data = {"format": CERTIFICATE_FORMAT, "encoding": "walk-v1", "cardinality": "seqcounter",
            "horizon": 0, "num_vars": 0, "num_clauses": 1, "cnf_sha256": cnf_sha256(0, [[]]),
            "cnf": cnf_text(0, [[]]), "variables": {}, "proof": ["0"]}
    assert verdict(puzzle, Certificate("drup", data, "")).problems == [
        "the puzzle has no nodes: the walk that stands nowhere solves it"]
    claim = count_claim(puzzle, by_refutation=True)
    assert not claim.checked and "the puzzle has no nodes" in claim.why
