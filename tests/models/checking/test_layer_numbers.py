"""The compact ``layers`` certificate (issue 45): one layer number per state.

Made from direct's own breadth-first search (no second search), known too big before any
work, and checked by :mod:`trailkit.models.checking.layer_numbers`. Every forgery of the
compact form is rejected (tests/forgeries.py style): each layer number edited to every
other value, a state dropped, another length claimed, damaged or oversized data; what
the checker does accept is held to brute force (:func:`oracles.reusable_shortest`).
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from corpus import random_corpus
from oracles import reusable_shortest

from trailkit.models.answer import Status
from trailkit.models.checking.layer_numbers import decode_layer_numbers, encode_layer_numbers
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import layered
from trailkit.solvers.pipeline.claims import best_shortest_claim, shortest_claim, unique_claim
from trailkit.solvers.pipeline.layered_count import reusable_count_claim
from trailkit.solvers.pipeline.solving import solve

ROOT = Path(__file__).resolve().parents[3]
TYRE = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def phases(puzzle: Puzzle) -> int:
    return 2 if puzzle.colours is None else len(puzzle.colours.names) + 1


def numbers_of(puzzle: Puzzle, data: dict[str, Any]) -> np.ndarray:
    found = decode_layer_numbers(data["layer_numbers"], puzzle.num_nodes * phases(puzzle))
    assert not isinstance(found, str), found
    return found


def with_numbers(data: dict[str, Any], numbers: np.ndarray, **change: Any) -> dict[str, Any]:
    return {**data, **change, "layer_numbers": encode_layer_numbers(numbers.astype(np.uint8))}


@pytest.fixture(scope="module")
def made() -> list[tuple[Puzzle, int, int, dict[str, Any]]]:
    """Small open puzzles whose edges may be reused, a walk each: (puzzle, shortest
    length, number of shortest walks, the count certificate's data)."""
    out = []
    for puzzle in random_corpus(400):
        if puzzle.use is not EdgeUse.ANY or puzzle.closed:
            continue
        length, walks = reusable_shortest(puzzle)
        if length is None:
            continue
        claim = reusable_count_claim(puzzle)
        assert claim.checked and claim.certificate is not None, claim
        out.append((puzzle, length, walks, dict(claim.certificate.data)))
    assert len(out) >= 20
    return out[:40]


def test_the_maker_writes_the_breadth_first_layers(made: list) -> None:
    for puzzle, length, walks, data in made:
        assert "layers" not in data and (data["length"], data["solutions"]) == (length, walks)
        assert int(numbers_of(puzzle, data).max()) == length


def test_every_edited_layer_number_is_rejected(made: list) -> None:
    """The layers are the breadth-first ones: any single number changed is rejected."""
    tried = 0
    for puzzle, length, _, data in made:
        numbers = numbers_of(puzzle, data)
        for state in range(len(numbers)):
            for value in range(length + 2):
                if value == numbers[state]:
                    continue
                forged = numbers.copy()
                forged[state] = value
                assert layers_verdict(puzzle, with_numbers(data, forged)).problems, \
                    (puzzle, state, value)
                tried += 1
    assert tried > 400


def test_a_dropped_state_is_rejected(made: list) -> None:
    for puzzle, _, _, data in made:
        numbers = numbers_of(puzzle, data)
        short = with_numbers(data, np.delete(numbers, len(numbers) // 2))
        assert layers_verdict(puzzle, short).problems[0].startswith(
            f"the certificate numbers {len(numbers) - 1} states; the puzzle has")
        short["layer_numbers"]["states"] = len(numbers)
        assert layers_verdict(puzzle, short).problems == [
            f"the layer numbers hold {len(numbers) - 1:,} states, not {len(numbers):,}"]


def test_another_length_or_count_is_rejected_and_what_is_accepted_is_true(made: list) -> None:
    """Claims of another length (the numbers kept, capped or raised) or another count:
    rejected; anything accepted is what brute force says."""
    for puzzle, length, walks, data in made:
        numbers = numbers_of(puzzle, data)
        for claimed in {0, max(length - 1, 0), length, length + 1}:
            for layers in {numbers.tobytes(): numbers,
                           np.minimum(numbers, claimed).tobytes(): np.minimum(numbers, claimed)
                           }.values():
                for solutions in {walks, walks + 1, max(walks - 1, 1)}:
                    forged = with_numbers(data, layers, length=claimed, solutions=solutions,
                                          per_start=None)
                    accepted = layers_verdict(puzzle, forged).accepted
                    assert accepted == (claimed == length and solutions == walks and
                                        int(layers.max()) == length), (puzzle, claimed)


@pytest.mark.parametrize(("change", "reason"), [
    ({"encoding": "npz"}, "layer numbers must be encoded zlib-base64, not 'npz'"),
    ({"dtype": "int8"}, "layer numbers are stored as uint8, uint16, uint32, not 'int8'"),
    ({"data": "not base64!"}, "the layer numbers cannot be read: "),
    ({"data": base64.b64encode(b"not zlib").decode()}, "the layer numbers cannot be read: "),
    ({"data": base64.b64encode(zlib.compress(bytes(10**7))).decode()},
     "the layer numbers hold more than 152 states"),
])
def test_damaged_or_oversized_numbers_are_rejected(change: dict, reason: str) -> None:
    puzzle = load_spec(str(TYRE))
    data = dict(shortest_claim(puzzle, solve(puzzle, "direct", crosscheck=None).walk)
                .certificate.data)
    data["layer_numbers"] = {**data["layer_numbers"], **change}
    problems = layers_verdict(puzzle, data).problems
    assert problems and problems[0].startswith(reason), problems


def test_an_edited_certificate_file_is_rejected_by_check_certificate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "shortest.json"
    assert main(["prove", str(TYRE), "--claim", "shortest", "--out", str(cert)]) == 0
    assert main(["check-certificate", str(TYRE), str(cert)]) == 0
    document = json.loads(cert.read_text(encoding="utf-8"))
    body = document["certificate"]
    puzzle = load_spec(str(TYRE))
    numbers = numbers_of(puzzle, body)
    numbers[int(np.flatnonzero(numbers == 7)[0])] = 9
    body["layer_numbers"] = encode_layer_numbers(numbers.astype(np.uint8))
    cert.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert main(["check-certificate", str(TYRE), str(cert)]) == 1
    assert "rejected: layers certificate: a step goes more than one layer on" in \
        capsys.readouterr().out


def _no_search(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a second search of the states")


def test_direct_s_walk_is_certified_with_its_own_layers(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """No second search: the claims are made from the layers direct's search handed over."""
    monkeypatch.setattr(layered, "solve_reusable", _no_search)
    monkeypatch.setattr(layered, "build_state_graph", _no_search, raising=False)
    answer = solve(load_spec(str(TYRE)), "direct", crosscheck=None)
    assert answer.status is Status.SOLVED and isinstance(answer.stats["layers"], np.ndarray)
    (claim,) = answer.claims
    assert claim.claim == "shortest" and claim.checked and claim.value == 25


def test_layers_too_big_are_known_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A puzzle with more states than the limit gives up at once, saying the estimate."""
    puzzle = load_spec(str(TYRE))
    walk = solve(puzzle, "direct", crosscheck=None).walk
    monkeypatch.setattr(layered, "solve_reusable", _no_search)
    monkeypatch.setattr(layered, "build_state_graph", _no_search, raising=False)
    for make in (shortest_claim, unique_claim):
        claim = make(puzzle, walk, state_limit=151)
        assert not claim.checked and claim.why == (
            "not certified (the layers would number 152 states, about 1 MB to make and "
            "check; limit 151 states); rests on direct's search")
    assert reusable_count_claim(puzzle, state_limit=151).why.startswith(
        "not certified (the layers would number 152 states")


def test_another_backends_walk_gets_the_layers_of_direct_s_search() -> None:
    puzzle = load_spec(str(TYRE))
    answer = solve(puzzle, "cpsat", crosscheck=None)
    assert "layers" not in answer.stats
    (claim,) = answer.claims
    assert claim.checked and claim.value == 25 and "layer_numbers" in claim.certificate.data


def test_the_answer_states_the_layers_estimate_beside_the_refutations() -> None:
    """Layers too big and the refutation's formula over the memory limit: the claim says
    both estimates, each known before any work (not only the formula's, as it did)."""
    puzzle = load_spec(str(TYRE))
    walk = solve(puzzle, "direct", crosscheck=None).walk
    claim = best_shortest_claim(puzzle, walk, rests_on="direct", state_limit=100,
                                limits=Limits(memory_mb=1))
    assert not claim.checked and claim.why.startswith(
        "not certified (the layers would number 152 states, about 1 MB to make and check; "
        "limit 100 states; the walk formula would need about ")
    assert claim.why.endswith("; rests on direct's search")
