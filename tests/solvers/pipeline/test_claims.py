"""Claims beyond the walk (issue 32, CONTRACT 1.3 §6): shortest and unique, certified.

The maker (:mod:`trailkit.solvers.pipeline.claims`) and the independent checker
(:mod:`trailkit.models.checking.shortest`) against the tyre puzzle, nearby specs where the
claim is false, edited certificates, and random small colour walks judged by a
breadth-first count written here.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from budget import costly
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import steps_from, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.checking.layer_numbers import decode_layer_numbers, encode_layer_numbers
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.claims import shortest_claim, unique_claim
from trailkit.solvers.pipeline.solving import solve

ROOT = Path(__file__).resolve().parents[3]
TYRE = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def tyre_with(*planks: str) -> Puzzle:
    """The restored tyre puzzle with ``planks`` (``"T Z red"``) added, no expect block."""
    text = TYRE.read_text(encoding="utf-8").split("\nexpect:")[0]
    return load_spec_text(text + "".join(f"\n  - {plank}" for plank in planks) + "\n")


@pytest.fixture(scope="module")
def tyre() -> tuple[Puzzle, object]:
    puzzle = load_spec(str(TYRE))
    return puzzle, solve(puzzle, "direct", crosscheck=None).walk


def test_the_tyre_puzzles_shortest_walk_is_certified(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = shortest_claim(puzzle, walk)
    assert claim.checked and claim.value == 25 and claim.certificate.kind == "layers"
    packed = claim.certificate.data["layer_numbers"]
    numbers = decode_layer_numbers(packed, puzzle.num_nodes * 4)  # before, red, blue, green
    assert packed["dtype"] == "uint8" and numbers.max() == 25 and (numbers < 25).sum() > 25
    assert layers_verdict(puzzle, claim.certificate.data).accepted


def test_the_tyre_puzzles_walk_is_certified_unique(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = unique_claim(puzzle, walk)
    assert claim.checked and claim.value is True
    assert layers_verdict(puzzle, claim.certificate.data).accepted


def test_a_plank_that_makes_a_shorter_walk_rejects_the_shortest_certificate(
        tyre: tuple) -> None:
    puzzle, walk = tyre
    data = shortest_claim(puzzle, walk).certificate.data
    problems = layers_verdict(tyre_with("A T red"), data).problems
    assert problems == ["a step goes more than one layer on: from (A, before the first "
                        "step), layer 0, to (T, after red), layer 25"]


def test_a_parallel_plank_rejects_the_unique_certificate(tyre: tuple) -> None:
    puzzle, walk = tyre
    data = unique_claim(puzzle, walk).certificate.data
    nearby = tyre_with("T Z red")  # a second plank for the walk's last step
    problems = layers_verdict(nearby, data).problems
    assert problems == ["more than one walk of 25 steps solves the puzzle, counted "
                        "through the layers"]
    assert layers_verdict(nearby, shortest_claim(puzzle, walk).certificate.data).accepted


def test_a_parallel_plank_gives_a_second_verified_walk(tyre: tuple) -> None:
    nearby = tyre_with("T Z red")
    walk = solve(nearby, "direct", crosscheck=None).walk
    claim = unique_claim(nearby, walk)
    assert claim.checked and claim.value is False
    assert claim.witness is not None and claim.witness != walk
    assert len(claim.witness) == len(walk) == 25
    assert claim.witness.edges[:-1] == walk.edges[:-1]  # only the last plank differs


@pytest.mark.parametrize(("change", "reason"), [
    ({"length": 24}, "the certificate claims 24 steps but its walk has 25"),
    ({"claim": "longest"}, "a layers certificate claims one of shortest, unique"),
    ({"claim": "count"}, "the number of solutions must be a whole number, not None"),
    ({"layer_numbers": {"encoding": "zlib-base64", "dtype": "uint8", "states": 10,
                        "data": ""}}, "the certificate numbers 10 states; the puzzle has 152"),
    ({"length": -1}, "the length must be a whole number of steps"),
    ({"start": "B"}, "the walk's edges do not follow one another"),
    ({"walk": [0, 999]}, "the walk's edge '999' is not in the puzzle"),
])
def test_an_edited_certificate_is_rejected_with_its_reason(tyre: tuple, change: dict,
                                                           reason: str) -> None:
    puzzle, walk = tyre
    data = {**shortest_claim(puzzle, walk).certificate.data, **change}
    problems = layers_verdict(puzzle, data).problems
    assert problems and problems[0].startswith(reason), problems


def test_a_state_moved_a_layer_on_is_named(tyre: tuple) -> None:
    puzzle, walk = tyre
    data = copy.deepcopy(shortest_claim(puzzle, walk).certificate.data)
    numbers = decode_layer_numbers(data["layer_numbers"], puzzle.num_nodes * 4).copy()
    moved = int(np.flatnonzero(numbers == 4)[0])
    numbers[moved] = 5
    data["layer_numbers"] = encode_layer_numbers(numbers.astype(np.uint8))
    problems = layers_verdict(puzzle, data).problems
    node, phase = divmod(moved, 4)
    colour = ("red", "blue", "green")[phase - 1]
    assert problems == [problems[0]] and problems[0].startswith(
        "a step goes more than one layer on: from ") and \
        f"to ({puzzle.nodes[node]}, after {colour}), layer 5" in problems[0]


def test_an_old_certificate_of_listed_layers_is_still_read(tyre: tuple) -> None:
    """Layers written as lists of states (before the compact form) are checked as before:
    the states 0, 1, 2 steps reach on Das Haus vom Nikolaus-sized colour walks."""
    puzzle = load_spec_text("trailkit: 1\nkind: colour-walk\ncolours: [red, blue]\n"
                            "start: a\ngoal: c\nedges: [a b red, b c blue, b c blue]\n")
    data = {"claim": "shortest", "length": 2, "start": "a", "walk": [0, 1],
            "layers": [[["a", None]], [["b", "red"]]]}
    assert layers_verdict(puzzle, data).accepted
    dropped = {**data, "layers": [[["a", None]], []]}
    assert layers_verdict(puzzle, dropped).problems == [
        "the step from (a, before the first step) to (b, after red) leaves layer 1"]


@pytest.mark.parametrize("name", backend_names())
def test_every_backends_tyre_walk_is_certified_shortest_and_unique(name: str) -> None:
    puzzle = load_spec(str(TYRE))
    answer = solve(puzzle, name, crosscheck=None)
    assert answer.status is Status.SOLVED and answer.optimal
    for make in (shortest_claim, unique_claim):
        claim = make(puzzle, answer.walk, rests_on=name)
        assert claim.checked and claim.value in (25, True), claim


def test_the_state_limit_leaves_the_claim_unchecked_saying_why(tyre: tuple) -> None:
    puzzle, walk = tyre
    claim = shortest_claim(puzzle, walk, state_limit=100)
    assert not claim.checked and claim.certificate is None
    assert claim.why == ("not certified (the layers would number 152 states, about 1 MB to "
                         "make and check; limit 100 states); rests on direct's search")


def brute_count(puzzle: Puzzle) -> tuple[int | None, int]:
    """(shortest length, how many walks have it) by breadth-first search over walks
    grouped by where they stand and their last colour, each group with its number."""
    rule = puzzle.colours
    colour = puzzle.colour or [-1] * puzzle.num_edges
    layer = Counter({(v, None): 1 for v in puzzle.start_nodes()})
    for length in range(puzzle.num_nodes * 4 + 2):
        done = sum(n for (v, _), n in layer.items() if puzzle.end is None or v in puzzle.end)
        if done:
            return length, done
        following: Counter = Counter()
        for (v, last), n in layer.items():
            for e, w in steps_from(puzzle, v):
                c = colour[e]
                if rule is not None and (c < 0 or (last is None and puzzle.first is not None
                                                   and c not in puzzle.first)
                                         or (last is not None and c not in rule.successors[last])):
                    continue
                following[(w, c)] += n
        layer = following
    return None, 0


@settings(deadline=None)
@given(walk_puzzles(closed=False), st.sampled_from(["direct", "cpsat"]))
def test_shortest_and_unique_agree_with_brute_force(puzzle: Puzzle, name: str) -> None:
    length, walks = brute_count(puzzle)
    answer = solve(puzzle, name, crosscheck=None)
    if length is None:
        assert answer.status is Status.UNSOLVABLE
        return
    shortest = shortest_claim(puzzle, answer.walk)
    assert shortest.checked and shortest.value == length
    unique = unique_claim(puzzle, answer.walk)
    assert unique.checked and unique.value is (walks == 1)
    if walks == 1:
        assert layers_verdict(puzzle, unique.certificate.data).accepted
    else:
        assert len(unique.witness) == length and unique.witness != answer.walk


@costly(0.15, "each example lists the walks by brute force and makes and checks a "
        "certificate", deadline=None)
@given(walk_puzzles(closed=False))
def test_a_certificate_moved_to_a_puzzle_with_another_length_is_rejected(
        puzzle: Puzzle) -> None:
    length, _ = brute_count(puzzle)
    if length is None or length == 0:
        return
    claim = shortest_claim(puzzle, solve(puzzle, "direct", crosscheck=None).walk)
    nothing_left = dataclasses.replace(puzzle, end=frozenset(puzzle.start_nodes()))
    if brute_count(nothing_left)[0] != length:
        assert not layers_verdict(nothing_left, claim.certificate.data).accepted


# ------------------------------------------------------------- the command line
def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write_tyre_with(tmp_path: Path, *planks: str) -> str:
    text = TYRE.read_text(encoding="utf-8").split("\nexpect:")[0]
    path = tmp_path / "nearby.yaml"
    path.write_text(text + "".join(f"\n  - {plank}" for plank in planks) + "\n",
                    encoding="utf-8")
    return str(path)


def test_solve_says_what_shortest_rests_on(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(TYRE)], capsys)
    assert code == 0
    assert "25 steps (proven shortest: layers certificate accepted by the independent " \
        "checker)" in out
    code, out, _ = run(["solve", str(TYRE), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "shortest", "certificate": "layers",
                                          "checked": True}]


def test_solve_unique_shows_a_second_walk(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(TYRE), "--unique"], capsys)
    assert code == 0 and "unique: the only shortest walk (proven: layers certificate" in out
    nearby = write_tyre_with(tmp_path, "T Z red")
    code, out, _ = run(["solve", nearby, "--unique", "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["unique"] is False
    assert len(answer["other_steps"]) == 25 and answer["other_steps"] != answer["steps"]
    assert answer["claims"][1] == {"claim": "unique", "holds": False, "witness": {
        "start": answer["other_start"], "steps": answer["other_steps"]}}  # CONTRACT 1.4 §7


def test_unique_on_a_trail_shows_a_second_verified_walk(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(ROOT / "specs" / "nikolaus.yaml"), "--unique"], capsys)
    assert code == 0 and "not unique: a second solution of 8 steps, verified" in out
    assert "not decided" not in out


def test_prove_claim_writes_what_check_certificate_accepts_and_rejects(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for claim in ("shortest", "unique"):
        cert = tmp_path / f"{claim}.json"
        code, out, _ = run(["prove", str(TYRE), "--claim", claim, "--out", str(cert)], capsys)
        assert code == 0 and f"certificate written to {cert}" in out
        document = json.loads(cert.read_text(encoding="utf-8"))
        assert document["claim"] == claim and document["length"] == 25
        code, out, _ = run(["check-certificate", str(TYRE), str(cert)], capsys)
        assert code == 0 and out.startswith("accepted: layers certificate holds")
    shorter = write_tyre_with(tmp_path, "A T red")
    code, out, _ = run(["check-certificate", shorter, str(tmp_path / "shortest.json")],
                       capsys)
    assert code == 1 and "a step goes more than one layer on" in out
    parallel = write_tyre_with(tmp_path, "T Z red")
    code, out, _ = run(["check-certificate", parallel, str(tmp_path / "unique.json")],
                       capsys)
    assert code == 1 and "more than one walk of 25 steps" in out


def test_a_certificate_file_edited_to_another_length_is_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "cert.json"
    run(["prove", str(TYRE), "--claim", "shortest", "--out", str(cert)], capsys)
    document = json.loads(cert.read_text(encoding="utf-8"))
    for edit in ({"length": 24}, {"certificate": {**document["certificate"], "length": 24}}):
        cert.write_text(json.dumps({**document, **edit}), encoding="utf-8")
        code, out, _ = run(["check-certificate", str(TYRE), str(cert)], capsys)
        assert code == 1 and "24" in out and out.startswith("rejected: layers certificate")


def test_prove_claim_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["prove", str(ROOT / "specs" / "nikolaus.yaml"), "--claim",
                        "shortest"], capsys)
    assert code == 2 and "claims that apply here: unsolvable" in err
    code, out, _ = run(["prove", str(ROOT / "specs" / "tyre-puzzle" / "original.yaml"),
                        "--claim", "shortest"], capsys)
    assert code == 1 and out.startswith("unsolvable")
    code, out, _ = run(["prove", write_tyre_with(tmp_path, "T Z red"), "--claim", "unique",
                        "--json"], capsys)
    assert code == 1 and json.loads(out)["unique"] is False


# --------------------------------------------------------------- fewest changes
def test_a_one_change_repair_rests_on_its_change_sets_not_the_original_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    original = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
    code, out, _ = run(["repair", str(original)], capsys)
    assert code == 0
    assert "repair with 1 change (the fewest, proven: the puzzle as given refuted and the " \
        "repair allowed, change-sets certificate accepted by the independent checker;" in out
    _, out, _ = run(["repair", str(original), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "fewest-changes",
                                          "certificate": "change-sets", "checked": True}]


def test_a_two_change_repair_is_certified_by_its_change_sets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "two.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nclosed: true\nedges: [a b, c d]\n",
                    encoding="utf-8")
    code, out, _ = run(["repair", str(spec)], capsys)
    assert code == 0
    assert "repair with 2 changes (the fewest, proven: every smaller set of changes " \
        "refuted, change-sets certificate accepted by the independent checker;" in out
    _, out, _ = run(["repair", str(spec), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "fewest-changes",
                                          "certificate": "change-sets", "checked": True}]


def test_fewest_changes_claims_follow_the_original_answer() -> None:
    from trailkit.models.answer import Answer, Certificate, Walk
    from trailkit.solvers.pipeline.claims import fewest_changes_claim

    solved = Answer.solved("direct", Walk((0,), ())).with_(verified=True)
    assert fewest_changes_claim(0, solved, minimal=True, proof="").checked
    parity = Certificate("parity", {"nodes": ["a", "b", "c", "d"]}, "")
    checked = Answer.unsolvable("direct", parity).with_(certificate_checked=True)
    alone = fewest_changes_claim(1, checked, minimal=True, proof="")
    assert not alone.checked and "only a lower bound" in alone.why  # the repair unshown
    unchecked = Answer.unsolvable("direct", parity)
    claim = fewest_changes_claim(1, unchecked, minimal=True, proof="two backends agree")
    assert not claim.checked and "no checked unsolvability certificate" in claim.why


# ---------------------------------------------------------------- minimal cores
def test_explain_lists_the_minimal_core_claim(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["explain", str(ROOT / "specs" / "koenigsberg.yaml"), "--json"], capsys)
    found = json.loads(out)
    assert found["claims"] == [{"claim": "minimal-core", "certificate": "odd-nodes",
                                "checked": True}]
    assert len(found["core"]["witnesses"]) == len(found["core"]["edges"])


def test_a_core_resting_on_cpsat_is_not_certified() -> None:
    from trailkit.models.answer import Certificate
    from trailkit.solvers.pipeline.claims import minimal_core_claim

    odd = Certificate("odd-nodes", {}, "")
    assert minimal_core_claim(True, odd, 5).checked
    claim = minimal_core_claim(True, None, 5)
    assert not claim.checked and "rests on CP-SAT alone" in claim.why
    assert not minimal_core_claim(False, odd, 4).checked


def test_a_count_of_reusable_walks_is_certified_by_layers(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["count", str(TYRE), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "count", "certificate": "layers",
                                          "checked": True}]


def test_a_count_of_trails_is_certified(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["count", str(ROOT / "specs" / "nikolaus.yaml"), "--json"], capsys)
    assert json.loads(out)["claims"] == [{"claim": "count", "certificate": "best-formula",
                                          "checked": True}]


def test_a_second_walk_names_the_parallel_plank_it_takes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["prove", write_tyre_with(tmp_path, "T Z red"), "--claim", "unique"],
                       capsys)
    said = out.splitlines()
    assert said[1] == "  start: A", out  # wrapped as solve prints a walk
    assert code == 1 and said[-1].endswith("-> Z -red-#86-> T"), out


def test_prove_fewest_changes_certifies_one_plank_and_check_certificate_rechecks_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CONTRACT 1.3 §6: the tyre puzzle as found needs one plank (its unsolvability
    certificate proves that none fewer will do, and the repair that one is enough);
    restored, none; the certificate is refused once the plank is back, and refused when
    edited to claim 2."""
    original = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
    cert = tmp_path / "fewest.json"
    code, out, _ = run(["prove", str(original), "--claim", "fewest-changes", "--json",
                        "--out", str(cert)], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["changes"] == 1
    assert answer["claims"] == [{"claim": "fewest-changes", "certificate": "change-sets",
                                 "checked": True}]
    assert run(["check-certificate", str(original), str(cert)], capsys)[0] == 0
    code, out, _ = run(["check-certificate", str(TYRE), str(cert)], capsys)
    assert code == 1 and "the spec's repair rules allow 15 changes" in out
    edited = tmp_path / "two.json"
    edited.write_text(cert.read_text().replace('"changes": 1', '"changes": 2', 1))
    code, out, _ = run(["check-certificate", str(original), str(edited)], capsys)
    assert code == 1 and "the file claims 2 changes as the fewest; this change-sets " \
        "certificate proves 1 change as the fewest" in out
    code, out, _ = run(["prove", str(TYRE), "--claim", "fewest-changes", "--json"], capsys)
    assert code == 0 and json.loads(out)["changes"] == 0
