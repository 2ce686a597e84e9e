"""``best-formula`` certificates (issue 32): counts made by the BEST theorem, recomputed.

A count of walks that use every edge exactly once (no colour rule) is made by direct's
formula; its certificate lists the formula's inputs (the graph, every class of Eulerian
orientations of each graph the walks need), and the independent checker
(``models/checking/best_formula.py``) recomputes the number with methods of its own. The
certificate is accepted on the bundled specs the formula counts (beyond 10^5 walks too),
its number agrees with brute force on random small multigraphs, and it is rejected, with
the reason, on a nearby spec and when edited.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import all_walks, euler_puzzles

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.refuted_claims import count_claim

ROOT = Path(__file__).resolve().parents[3]
NIKOLAUS = ROOT / "specs" / "nikolaus.yaml"
GRID = ROOT / "docs" / "examples" / "grid-figure.yaml"
FORMULA_SPECS = ["specs/nikolaus.yaml", "specs/nikolaus-crossing.yaml",
                 "specs/one-way-streets.yaml", "specs/koenigsberg.yaml",
                 "specs/dominoes/double-six.yaml", "specs/dominoes/triangle.yaml",
                 "specs/dominoes/double-nine.yaml", "docs/examples/grid-figure.yaml"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def certificate_of(puzzle: Puzzle) -> Certificate:
    claim = count_claim(puzzle)
    assert claim.checked and claim.certificate is not None, claim.why
    assert claim.certificate.kind == "best-formula"
    return claim.certificate


def problems(puzzle: Puzzle, data: dict[str, object]) -> list[str]:
    return verdict(puzzle, Certificate("best-formula", data, "")).problems


@pytest.mark.parametrize("spec", FORMULA_SPECS)
def test_bundled_counts_by_formula_are_certified(spec: str) -> None:
    puzzle = load_spec(ROOT / spec)
    certificate = certificate_of(puzzle)
    counted = count(puzzle, "direct", crosscheck=None)
    assert certificate.data["solutions"] == counted.solutions
    assert counted.claims[0].checked and counted.claims[0].certificate is not None
    assert counted.claims[0].certificate.kind == "best-formula"
    assert verdict(puzzle, certificate).accepted


def test_a_count_beyond_the_enumerations_reach_is_certified(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["count", str(GRID), "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["solutions"] == 123_648
    assert answer["claims"] == [{"claim": "count", "certificate": "best-formula",
                                 "checked": True}]
    code, out = run(["count", str(GRID)], capsys)
    assert "count: 123,648 solutions (proven count: BEST theorem recomputed, best-formula " \
        "certificate accepted by the independent checker)" in out


@st.composite
def eulerian_multigraphs(draw: st.DrawFn) -> Puzzle:
    """A random walk's steps made edges (so a trail uses them all): loops where it stays,
    parallel edges where it goes back and forth, each one-way along the walk or two-way;
    closed or open, with any ends."""
    n = draw(st.integers(1, 4))
    path = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=8))
    if draw(st.booleans()):
        path.append(path[0])
    edges = list(pairwise(path))
    directed = draw(st.sampled_from(["none", "all", "mixed"]))
    flags = None if directed == "none" else [True] * len(edges) if directed == "all" else \
        draw(st.lists(st.booleans(), min_size=len(edges), max_size=len(edges)))
    ends = st.none() | st.frozensets(st.integers(0, n - 1), min_size=1)
    return Puzzle(kind="walk", nodes=tuple(f"v{i}" for i in range(n)),
                  tail=[u for u, _ in edges], head=[v for _, v in edges], directed=flags,
                  closed=draw(st.booleans()), start=draw(ends), end=draw(ends),
                  use=EdgeUse.EXACTLY_ONCE)


@given(eulerian_multigraphs() | euler_puzzles())
def test_certified_counts_match_brute_force(puzzle: Puzzle) -> None:
    if not puzzle.num_edges:
        return
    walks = sum(1 for w in all_walks(puzzle, puzzle.num_edges) if len(w) == puzzle.num_edges)
    claim = count_claim(puzzle)
    assert claim.checked and claim.value == walks
    assert claim.certificate is not None and claim.certificate.kind == "best-formula"


def test_the_count_of_a_nearby_spec_is_rejected_naming_why() -> None:
    data = dict(certificate_of(load_spec(NIKOLAUS)).data)
    text = NIKOLAUS.read_text(encoding="utf-8").replace("expect:", "# expect:")
    fewer = load_spec_text(text.replace("c e, d e]", "c e]"))
    assert problems(fewer, data) == ["the certificate's graph is not the spec's: two-way "
                                     "edges between d and e: the spec has 0, the certificate 1"]
    more = load_spec_text(text.replace("c e, d e]", "c e, d e, a e, a d]"))
    assert "the certificate's graph is not the spec's: two-way edges between a and d" in \
        problems(more, data)[0]
    only_d = load_spec_text(text.replace("kind: trail", "kind: trail\nstart: [d]\nend: [e]"))
    assert problems(only_d, data) == ["the certificate lists orientations for the trails "
                                      "from e to d though no walk of the puzzle needs them"]


def test_an_edited_certificate_is_rejected_naming_why() -> None:
    puzzle = load_spec(NIKOLAUS)
    data = dict(certificate_of(puzzle).data)
    graphs = data["graphs"]
    assert isinstance(graphs, list)
    first = graphs[0]
    listed = first["orientations"]

    def with_first(orientations: list[str]) -> dict[str, object]:
        return {**data, "graphs": [{**first, "orientations": orientations}, *graphs[1:]]}

    assert problems(puzzle, {**data, "solutions": 90}) == [
        "the certificate states 90 solutions, but the formula recomputed gives 88"]
    assert problems(puzzle, with_first(listed[1:])) == [
        "the trails from d to e: 8 Eulerian orientation classes exist, the certificate "
        "lists 7"]
    assert problems(puzzle, with_first([*listed, listed[0]])) == [
        f"the trails from d to e: orientation {len(listed) + 1} is listed twice (as "
        "orientation 1)"]
    flipped = listed[0][:-1] + ("1" if listed[0][-1] == "0" else "0")
    assert "is not Eulerian" in problems(puzzle, with_first([flipped, *listed[1:]]))[0]
    assert problems(puzzle, {**data, "graphs": graphs[:1]}) == [
        "no orientations are listed for the trails from e to d"]


def test_a_count_past_the_limit_says_what_it_rests_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.solvers.backends.direct import orientation_list

    monkeypatch.setattr(orientation_list, "ORIENTATION_LIMIT", 5)
    claim = count_claim(load_spec(NIKOLAUS))
    assert not claim.checked and claim.why == (
        "not certified (the formula sums 16 Eulerian orientation classes; a certificate "
        "lists at most 5); rests on direct's formula")
    monkeypatch.setattr(orientation_list, "ORIENTATION_LIMIT", 100)
    monkeypatch.setattr(orientation_list, "WORK_LIMIT", 1_000)
    claim = count_claim(load_spec(NIKOLAUS))
    assert not claim.checked and claim.why == (
        "not certified (the formula sums 16 Eulerian orientation classes of 5 nodes: about "
        "1,024 steps to check (classes times nodes cubed); limit 1,000); rests on direct's formula")


def test_prove_writes_a_file_check_certificate_accepts_and_rejects_on_a_nearby_spec(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "count.json"
    code, out = run(["prove", str(GRID), "--claim", "count", "--out", str(cert)], capsys)
    assert code == 0 and out.startswith("count: 123,648 solutions (proven count: BEST "
                                        "theorem recomputed, best-formula certificate")
    assert json.loads(cert.read_text())["certificate"]["type"] == "best-formula"
    code, out = run(["check-certificate", str(GRID), str(cert)], capsys)
    assert code == 0 and out.startswith("accepted: best-formula certificate holds:")
    assert "123,648 walks" in out
    nearby = tmp_path / "nearby.yaml"
    nearby.write_text(GRID.read_text().replace("K P, L P]", "K P, L P, K L, K P]")
                      .replace("expect:", "# expect:"))
    code, out = run(["check-certificate", str(nearby), str(cert)], capsys)
    assert code == 1 and "rejected: best-formula certificate: the certificate's graph is " \
        "not the spec's: two-way edges between K and L: the spec has 2, the certificate 1" in out


@pytest.mark.parametrize("spec", ["specs/nikolaus.yaml", "specs/nikolaus-crossing.yaml",
                                  "specs/koenigsberg.yaml"])
def test_count_with_failures_still_certifies_the_solutions(
        spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``count --failures`` enumerates, yet the number of solutions is the same claim as
    without failures (the formula's certificate, checked), while the failures are said
    plainly to rest on the enumeration."""
    puzzle = load_spec(ROOT / spec)
    result = count(puzzle, failures=True)
    [claim] = result.claims
    assert claim.checked and claim.value == result.solutions
    assert claim.certificate is not None and claim.certificate.kind == "best-formula"
    code, out = run(["count", str(ROOT / spec), "--failures"], capsys)
    assert code == 0
    assert "proven count" in out
    assert "failures: not certified (no certificate covers failures); they rest on " \
           "direct's enumeration" in out


def test_a_long_path_is_counted_and_its_certificate_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``count`` of a 1,000-edge path was exit 4 (a RecursionError); ``prove --claim
    count`` of a 20,000-edge one counted its orientation classes for 9-14 s (never
    looking at the clock) to find one class of 20,000 rows, far past what a checker may
    be asked: with one class too many, none are counted."""
    from trailkit.solvers.backends.direct import orientation_list

    def never(*_: object) -> int:
        raise AssertionError("the classes were counted")

    monkeypatch.setattr(orientation_list, "orientation_classes", never)
    spec = tmp_path / "path.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges:\n" + "".join(
        f"  - n{i} n{i + 1}\n" for i in range(2_000)))
    code, out = run(["count", str(spec), "--json"], capsys)
    assert code == 0
    answer = json.loads(out)
    assert answer["solutions"] == 2 and answer["complete"]
    assert "determinants have 2,000 rows" in answer["claims"][0]["why"]
    assert main(["prove", str(spec), "--claim", "count"]) == 3
    assert "not certified (the formula's determinants have 2,000 rows" in \
        capsys.readouterr().out


def test_counting_the_classes_looks_at_the_clock() -> None:
    """The classes' dynamic programme stops at its deadline."""
    from trailkit.models.formulas.euler_orientations import orientation_classes

    n = 30  # a ring: every node needs one of its two edges out
    pairs = [(i, i + 1, 1) for i in range(n - 1)] + [(0, n - 1, 1)]
    assert orientation_classes(n, [1] * n, pairs) == 2
    with pytest.raises(TimeoutError):
        orientation_classes(n, [1] * n, pairs, deadline=0.0)
