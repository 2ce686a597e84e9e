"""The workshop's Prove offers the claims that apply to the puzzle in the editor and
certifies the one chosen, as ``trailkit prove --claim`` does (issue 41, item 23: Prove
answered "nothing to prove" on every solvable puzzle and took no claim)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from workshop_server import Served, start

ROOT = Path(__file__).resolve().parents[4]
NIKOLAUS = (ROOT / "specs" / "nikolaus.yaml").read_text()
RESTORED = (ROOT / "specs" / "tyre-puzzle" / "restored.yaml").read_text()
KOENIGSBERG = (ROOT / "specs" / "koenigsberg.yaml").read_text()

httpx = pytest.importorskip("httpx")


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    server: Served = start(None)
    try:
        with httpx.Client(base_url=server.base, cookies={"trailkit_workshop": server.token},
                          timeout=120, headers={"origin": server.base}) as c:
            yield c
    finally:
        assert server.stop() == 0


def _prove(client: httpx.Client, text: str, claim: str | None = None) -> dict:
    body = {"op": "prove", "text": text, **({"claim": claim} if claim else {})}
    response = client.post("/api/run", json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("text, offered", [
    (NIKOLAUS, ["unsolvable", "unique", "count", "fewest-changes", "minimal-core"]),
    (RESTORED, ["unsolvable", "shortest", "unique", "count", "fewest-changes"]),
], ids=["once-only trail", "colour walk"])
def test_the_analysis_offers_the_claims_that_apply(client: httpx.Client, text: str,
                                                   offered: list[str]) -> None:
    """A trail has no shortest walk to certify (every walk has every edge), and a walk
    whose planks may be reused has no core: the picker leaves those out."""
    puzzle = client.post("/api/analyse", json={"text": text}).json()["puzzle"]
    assert puzzle["claims"] == offered


def test_prove_of_a_solvable_puzzle_says_what_can_be_proven(client: httpx.Client) -> None:
    out = _prove(client, NIKOLAUS)
    assert out["status"] == "solved" and out["next_claim"] == "unique"
    assert "what can be proven of it instead: unique, count, fewest-changes" in out["text"]


@pytest.mark.parametrize("text, claim, said, value", [
    (NIKOLAUS, "count", "count: 88 solutions (proven count", ("solutions", 88)),
    (RESTORED, "shortest", "shortest: 25 steps (layers certificate accepted", ("length", 25)),
    (RESTORED, "unique", "unique: the only shortest walk", ("unique", True)),
    (NIKOLAUS, "fewest-changes", "fewest changes: 0 changes", ("changes", 0)),
    (KOENIGSBERG, "minimal-core", "minimal core: 7 edges (odd-nodes certificate", None),
])
def test_prove_certifies_the_chosen_claim(client: httpx.Client, text: str, claim: str,
                                          said: str, value: tuple[str, object] | None
                                          ) -> None:
    """The command line's words and JSON, the claim checked by the independent checker."""
    out = _prove(client, text, claim)
    assert out["claim"] == claim and out["text"].startswith(said), out["text"]
    answer = out["answer"]
    assert answer["claim"] == claim and [c["checked"] for c in answer["claims"]] == [True]
    if value is not None:
        assert answer[value[0]] == value[1]
    assert "<svg" in out["svg"]


def test_a_claim_that_does_not_apply_says_which_do(client: httpx.Client) -> None:
    out = _prove(client, NIKOLAUS, "shortest")
    assert out["status"] == "error"
    assert "the shortest claim does not apply" in out["text"]
    assert "claims that apply here: unsolvable, unique, count" in out["text"]


def test_an_unknown_claim_is_refused(client: httpx.Client) -> None:
    response = client.post("/api/run", json={"op": "prove", "text": NIKOLAUS,
                                             "claim": "fastest"})
    assert response.status_code == 400
    assert "unknown claim 'fastest'; choose from unsolvable, shortest" in response.text

