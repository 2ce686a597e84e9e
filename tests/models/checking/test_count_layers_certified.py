"""Counts of reusable walks certified by ``layers``, and counts of 0 by unsolvability (issue 32).

A puzzle whose edges may be reused counts its shortest walks; the ``layers`` certificate
with the claim ``count`` lets the independent checker count them itself. These tests make
the certificate on bundled specs, check it, and check it again on nearby specs where the
count is false (a parallel plank, a plank removed, a plank that makes a shorter walk) and
with its number edited: each rejection names its reason. Hypothesis compares the certified
count, in all and per start, with a brute-force count of shortest walks written here.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest
from budget import costly
from hypothesis import given
from oracles import walk_puzzles

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names, get_backend
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.layered_count import reusable_count_claim
from trailkit.solvers.pipeline.refuted_claims import count_claim

ROOT = Path(__file__).resolve().parents[3]
TYRE = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"
REUSABLE = [TYRE, ROOT / "specs" / "colour-revisit.yaml",
            ROOT / "specs" / "bench" / "medium-colour-walk-8-yes.yaml",
            ROOT / "specs" / "bench" / "small-colour-walk-4-yes.yaml"]
NO_WALK = [ROOT / "specs" / "colour-walk-dead-end.yaml", ROOT / "specs" / "koenigsberg.yaml",
           *(ROOT / "specs" / "bench" / f"small-{name}-no.yaml" for name in (
               "colour-walk-4", "dominoes-6", "alternating-6", "trail-10"))]
ONCE_ONLY_SHORTEST_NO_WALK = """trailkit: 1
kind: walk
use: at-most-once
objective: shortest
start: a
end: c
edges: [a b, b a, d c]
"""
TWO_WAYS = """trailkit: 1
kind: colour-walk
colours: [red, blue]
start: [a, x]
goal: c
edges: [a b red, b c blue, b c blue, x y red, y c blue]
"""


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def brute_shortest_walks(puzzle: Puzzle) -> dict[int, int] | None:
    """Per start node, the walks of the fewest steps any walk needs (edges reusable; a
    walk is its start and its sequence of edges): a breadth-first search over (start,
    node, last colour) carrying path counts. ``None`` when no walk exists."""
    rule = puzzle.colours
    starts = sorted(set(puzzle.start_nodes()))

    def may_follow(last: int | None, colour: int) -> bool:
        if rule is None:
            return True
        if colour < 0:
            return False
        if last is None:
            return puzzle.first is None or colour in puzzle.first
        return colour in rule.successors[last]

    layer: Counter[tuple[int, int, int | None]] = Counter({(s, s, None): 1 for s in starts})
    phases = 1 + (len(rule.names) if rule else 1)
    for _ in range(puzzle.num_nodes * phases + 1):
        ending = {s: 0 for s in starts}
        for (s, v, _), n in layer.items():
            if puzzle.end is None or v in puzzle.end:
                ending[s] += n
        if any(ending.values()):
            return ending
        after: Counter[tuple[int, int, int | None]] = Counter()
        for (s, v, last), n in layer.items():
            for e in range(puzzle.num_edges):
                u, w = puzzle.tail[e], puzzle.head[e]
                colour = -1 if puzzle.colour is None else puzzle.colour[e]
                ends = ([w] if u == v else []) + \
                    ([u] if w == v and u != w and not puzzle.is_directed(e) else [])
                for to in ends:
                    if may_follow(last, colour):
                        after[(s, to, colour if rule else 0)] += n
        layer = after
    return None


def _prove(spec: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code, text, _ = run(["prove", str(spec), "--claim", "count", "--out", str(out)], capsys)
    return code, text


def _nearby(tmp_path: Path, spec: Path, *, add: str = "", drop: str = "") -> Path:
    """``spec`` with a plank added or one removed (its ``expect:`` block left out)."""
    text = spec.read_text(encoding="utf-8").split("\nexpect:")[0]
    if drop:
        assert f"\n  - {drop}\n" in text
        text = text.replace(f"\n  - {drop}\n", "\n")
    path = tmp_path / "nearby.yaml"
    path.write_text(text.rstrip("\n") + (f"\n  - {add}" if add else "") + "\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("spec", REUSABLE, ids=lambda p: p.stem)
def test_prove_count_makes_a_layers_certificate_check_certificate_accepts(
        spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    walks = brute_shortest_walks(load_spec(spec))
    assert walks is not None
    cert = tmp_path / "count.json"
    code, out = _prove(spec, cert, capsys)
    total = sum(walks.values())
    assert code == 0, out
    assert f"solution{'s' if total != 1 else ''} (proven count: layers certificate accepted " \
        "by the independent checker)" in out
    doc = json.loads(cert.read_text(encoding="utf-8"))
    assert (doc["claim"], doc["solutions"], doc["certificate"]["type"]) == \
        ("count", total, "layers")
    code, out, _ = run(["check-certificate", str(spec), str(cert)], capsys)
    assert code == 0 and "accepted: layers certificate holds" in out
    assert f"{total:,} walk" in out


def test_count_says_its_number_and_each_start_are_proven(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["count", str(TYRE)], capsys)
    assert code == 0
    assert "  count: 1 solution (proven count: layers certificate accepted by the " \
        "independent checker)\n  by start node (each proven by the same certificate):" in out
    code, out, _ = run(["count", str(TYRE), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "count", "certificate": "layers",
                                          "checked": True}]


@pytest.fixture(scope="module")
def tyre_certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The restored tyre puzzle's count certificate (1 shortest walk of 25 steps)."""
    cert = tmp_path_factory.mktemp("tyre") / "count.json"
    assert main(["prove", str(TYRE), "--claim", "count", "--out", str(cert)]) == 0
    return cert


@pytest.mark.parametrize(("add", "drop", "reason"), [
    ("A E red", "", "the certificate claims 1 solution, but 2 walks of 25 steps solve the "
                    "puzzle, counted through the layers"),
    ("", "AA AB green", "no step reaches it from the layer before: (AA, after green), "
                        "layer 15"),
    ("A T red", "", "a step goes more than one layer on: from (A, before the first step), "
                    "layer 0, to (T, after red), layer 25"),
], ids=["parallel-plank", "plank-removed", "shorter-walk"])
def test_the_certificate_is_rejected_on_a_nearby_spec_where_the_count_is_false(
        tyre_certificate: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        add: str, drop: str, reason: str) -> None:
    nearby = _nearby(tmp_path, TYRE, add=add, drop=drop)
    code, out, _ = run(["check-certificate", str(nearby), str(tyre_certificate)], capsys)
    assert code == 1, out
    assert reason in out


@pytest.mark.parametrize(("edit", "reason"), [
    ({"solutions": 2}, "the certificate claims 2 solutions, but 1 walk of 25 steps solves "
                       "the puzzle"),
    ({"per_start": {"A": 3}}, "the certificate claims 3 walks from A, but the layers count 1"),
    ({"per_start": {"B": 1}}, "per_start must name every start node once: A"),
], ids=["number", "per-start", "start-names"])
def test_a_certificate_edited_to_claim_another_number_is_rejected(
        tyre_certificate: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        edit: dict[str, object], reason: str) -> None:
    doc = json.loads(tyre_certificate.read_text(encoding="utf-8"))
    doc["certificate"].update(edit)
    doc.update({k: v for k, v in edit.items() if k == "solutions"})
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(["check-certificate", str(TYRE), str(edited)], capsys)
    assert code == 1 and reason in out, out
    doc = json.loads(tyre_certificate.read_text(encoding="utf-8"))
    doc["solutions"] = 7  # the file's number alone
    edited.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(["check-certificate", str(TYRE), str(edited)], capsys)
    assert code == 1 and "the file claims 7 solutions; this layers certificate proves 1 " \
        "solution" in out, out


def test_per_start_counts_are_each_checked() -> None:
    puzzle = load_spec_text(TWO_WAYS)
    claim = reusable_count_claim(puzzle)
    assert claim.checked and claim.value == 3, claim
    assert claim.certificate is not None
    assert claim.certificate.data["per_start"] == {"a": 2, "x": 1}
    swapped = {**claim.certificate.data, "per_start": {"a": 1, "x": 2}}
    assert verdict(puzzle, Certificate("layers", swapped, "")).problems == [
        "the certificate claims 1 walks from a, but the layers count 2"]
    counted = count(puzzle)
    assert {k: v.solutions for k, v in (counted.per_start or {}).items()} == {"a": 2, "x": 1}


def test_the_state_limit_says_so_and_what_the_count_rests_on() -> None:
    claim = reusable_count_claim(load_spec(TYRE), rests_on="direct's enumeration",
                                 state_limit=40)
    assert not claim.checked
    assert claim.why == ("not certified (the layers would number 152 states, about 1 MB to "
                         "make and check; limit 40 states); rests on direct's enumeration")


def test_a_closed_colour_walk_is_counted_by_refutation_not_layers() -> None:
    """Two planks, red and blue, between a and b, colours alternating, the walk closed:
    from each end, either plank first and the other back (blue closes onto red), so 4
    shortest walks of 2 steps; layers say why they cannot count them, the refutation
    does."""
    puzzle = load_spec_text("trailkit: 1\nkind: walk\nuse: any\nclosed: true\n"
                            "colours: [red, blue]\nedges: [a b red, b a blue]\n")
    layered = reusable_count_claim(puzzle)
    assert not layered.checked
    assert "a closed walk has no layers certificate yet" in layered.why
    claim = count_claim(puzzle)
    assert claim.checked and claim.value == 4
    assert claim.certificate is not None
    assert claim.certificate.data["encoding"] == "walk-as-short-v1"


@pytest.mark.parametrize("spec", NO_WALK, ids=lambda p: p.stem)
def test_a_count_of_0_is_the_unsolvability_certificate_in_every_family(
        spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["count", str(spec), "--json"], capsys)
    assert code == 0
    found = json.loads(out)
    assert found["solutions"] == 0 and found["claims"][0]["checked"], found["claims"]
    cert = tmp_path / "count.json"
    code, out = _prove(spec, cert, capsys)
    assert code == 0 and out.startswith("count: 0 solutions (proven: no walk at all, "), out
    doc = json.loads(cert.read_text(encoding="utf-8"))
    assert (doc["claim"], doc["solutions"]) == ("count", 0)
    code, out, _ = run(["check-certificate", str(spec), str(cert)], capsys)
    assert code == 0, out
    doc["solutions"] = 3
    cert.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(["check-certificate", str(spec), str(cert)], capsys)
    assert code == 1 and "certificate proves that no walk exists" in out, out


def test_a_count_of_0_under_an_objective_is_certified() -> None:
    counted = count(load_spec_text(ONCE_ONLY_SHORTEST_NO_WALK))
    assert counted.solutions == 0
    assert counted.claims and counted.claims[0].checked and counted.claims[0].value == 0


def test_a_layers_certificate_never_claims_0_walks() -> None:
    claim = reusable_count_claim(load_spec_text(TWO_WAYS))
    assert claim.certificate is not None
    stranded = load_spec_text(TWO_WAYS.replace(
        "[a b red, b c blue, b c blue, x y red, y c blue]",
        "[a b red, b c red, b c red, x y red, y c red]"))
    zero = {**claim.certificate.data, "solutions": 0, "per_start": {"a": 0, "x": 0}}
    assert verdict(stranded, Certificate("layers", zero, "")).problems == [
        "no walk of 2 steps solves the puzzle, counted through the layers: the layers count "
        "the shortest walks only, and a count of 0 takes an unsolvability certificate"]


@pytest.mark.parametrize("backend", backend_names())
@pytest.mark.parametrize("spec", [REUSABLE[1], ROOT / "specs" / "colour-walk-dead-end.yaml"],
                         ids=lambda p: p.stem)
def test_every_backend_count_of_reusable_walks_is_certified(backend: str, spec: Path) -> None:
    if not get_backend(backend).supports_counting:
        pytest.skip(f"{backend} does not count")
    puzzle = load_spec(spec)
    walks = brute_shortest_walks(puzzle)
    counted = count(puzzle, backend)
    assert counted.complete and counted.claims, counted
    claim = counted.claims[0]
    assert claim.checked and claim.value == counted.solutions == sum((walks or {}).values())


@costly(0.75, "each example lists the shortest walks by brute force and makes and "
        "checks a count certificate", deadline=None)
@given(walk_puzzles(use=EdgeUse.ANY, closed=False))
def test_the_certified_count_is_the_brute_force_count(puzzle: Puzzle) -> None:
    walks = brute_shortest_walks(puzzle)
    claim = count_claim(puzzle)
    assert claim.checked, claim.why
    assert claim.certificate is not None
    assert claim.value == sum((walks or {}).values())
    if not walks:
        assert claim.certificate.kind != "layers"
        return
    data = claim.certificate.data
    assert claim.certificate.kind == "layers"
    assert data["per_start"] == {puzzle.nodes[s]: n for s, n in walks.items()}
    assert verdict(puzzle, claim.certificate).accepted
    wrong = Certificate("layers", {**data, "solutions": claim.value + 1}, "")
    assert verdict(puzzle, wrong).problems[0].startswith(
        f"the certificate claims {claim.value + 1:,} solutions, but ")


def test_counts_past_64_bits_are_exact() -> None:
    """4 parallel planks at each of 40 steps: 4^40 shortest walks, past NumPy's integers
    (a count in floating point could not tell 4^40 from 4^40 + 1)."""
    planks = ", ".join(f"n{i} n{i + 1} {('red', 'blue')[i % 2]}" for i in range(40)
                       for _ in range(4))
    puzzle = load_spec_text("trailkit: 1\nkind: colour-walk\ncolours: [red, blue]\n"
                            f"start: n0\ngoal: n40\nedges: [{planks}]\n")
    counted = count(puzzle, crosscheck=None)
    claim = counted.claims[0]
    assert claim.checked and claim.value == counted.solutions == 4 ** 40
    assert claim.certificate is not None
    one_more = {**claim.certificate.data, "solutions": 4 ** 40 + 1}
    assert verdict(puzzle, Certificate("layers", one_more, "")).problems == [
        f"the certificate claims {4 ** 40 + 1:,} solutions, but {4 ** 40:,} walks of 40 "
        "steps solve the puzzle, counted through the layers"]


@pytest.mark.parametrize("use", [EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE])
def test_a_layers_count_is_rejected_where_edges_may_not_be_reused(use: EdgeUse) -> None:
    """The layers count walks that may reuse edges: for once-only walks their number is
    only an upper bound, so the checker refuses to certify it."""
    puzzle = load_spec_text(TWO_WAYS)
    claim = reusable_count_claim(puzzle)
    assert claim.certificate is not None
    once = dataclasses.replace(puzzle, use=use)
    assert verdict(once, claim.certificate).problems == [
        "a layers certificate counts walks that may reuse edges; this puzzle uses each edge "
        f"{use.value.replace('-', ' ')}"]


def test_the_count_says_it_counts_the_shortest_walks(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """Walks that may reuse planks are endless; ``count`` counts the shortest, and says so
    with their length, so "1 solution" is not read as "one walk at all"."""
    code, text, _ = run(["count", str(ROOT / "specs" / "tyre-puzzle" / "restored.yaml")],
                        capsys)
    assert code == 0
    assert "  solutions:      1 (the shortest walks: 25 steps)\n" in text


CLOSED_REUSABLE = ("trailkit: 1\nkind: walk\nuse: any\nclosed: true\n"
                   "edges: [a b, b c, c a, a b, c d]\n")


def _closed_shortest_by_brute_force(puzzle: Puzzle) -> int:
    """The number of shortest closed walks (a start and a sequence of edges, each step
    along an edge from where the walk stands, back at the start), by trying every
    sequence of 1, 2, ... steps."""
    steps = [(u, v, e) for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True))]
    moves = [(u, v) for u, v, _ in steps] + [(v, u) for u, v, e in steps
                                              if not puzzle.is_directed(e)]
    edge_of = [e for *_, e in steps] + [e for u, v, e in steps if not puzzle.is_directed(e)]
    for length in range(1, 6):
        total = 0
        for start in range(puzzle.num_nodes):
            ends = {(start,): 1}
            for _ in range(length):
                after: dict[tuple[int], int] = {}
                for (at,), ways in ends.items():
                    for (u, v), _e in zip(moves, edge_of, strict=True):
                        if u == at:
                            after[(v,)] = after.get((v,), 0) + ways
                ends = after
            total += ends.get((start,), 0)
        if total:
            return total
    return 0


def test_closed_walks_reusing_edges_are_counted_by_refutation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Layers cannot count closed walks (their states would have to remember where the walk
    began); the shortest ones are listed and every other walk of as few steps refuted
    (``walk-as-short-v1``), and the number agrees with brute force."""
    spec = tmp_path / "closed.yaml"
    spec.write_text(CLOSED_REUSABLE)
    puzzle = load_spec(spec)
    result = count(puzzle, "direct", crosscheck=None)
    [claim] = result.claims
    assert claim.checked and claim.certificate is not None
    assert claim.certificate.data["encoding"] == "walk-as-short-v1"
    assert claim.value == result.solutions == _closed_shortest_by_brute_force(puzzle)
    out = tmp_path / "count.json"
    code, _ = _prove(spec, out, capsys)
    assert code == 0
    edited = json.loads(out.read_text())
    edited["solutions"] = edited["certificate"]["solutions"] = result.solutions + 1
    out.write_text(json.dumps(edited))
    code, text, _ = run(["check-certificate", str(spec), str(out)], capsys)
    assert code == 1 and text.startswith("rejected:")
