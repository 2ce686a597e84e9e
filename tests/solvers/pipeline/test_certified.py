"""Every "unsolvable" carries a checked certificate: measured on a fixed random corpus,
per backend, with and without the structural pre-check; and an answer that cannot get
one says so plainly and what it rests on."""

from __future__ import annotations

from collections import Counter

import pytest
from corpus import random_corpus

from trailkit.models.answer import Answer, Certificate, Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.pipeline import solve

CORPUS = random_corpus(120)


def certified_fraction(backend: str, precheck: bool) -> tuple[float, Counter[str]]:
    """The share of the corpus's unsolvable answers with a checked certificate, and the
    certificate kinds (drup ones by encoding)."""
    unsolvable = certified = 0
    kinds: Counter[str] = Counter()
    for puzzle in CORPUS:
        answer = solve(puzzle, backend, Limits(time_limit=20), crosscheck=None,
                       precheck=precheck)
        assert answer.status is not Status.UNKNOWN, answer.reason
        if answer.status is Status.UNSOLVABLE:
            unsolvable += 1
            if answer.certificate_checked and answer.certificate is not None:
                certified += 1
                assert check_certificate(puzzle, answer.certificate) == []
                cert = answer.certificate
                kinds[str(cert.data.get("encoding", cert.kind))] += 1
    assert unsolvable >= 30  # the corpus says something
    return certified / unsolvable, kinds


@pytest.mark.parametrize("precheck", [True, False], ids=["precheck", "no-precheck"])
@pytest.mark.parametrize("backend", ["direct", "cpsat", "sat"])
def test_every_unsolvable_answer_is_certified(backend: str, precheck: bool) -> None:
    fraction, kinds = certified_fraction(backend, precheck)
    assert fraction == 1.0, kinds
    # the hard cases are in the corpus: proofs over every length, and position proofs
    assert kinds["walk-v1"] >= 2 and kinds["position-v1"] >= 2, kinds


class Unproven(Backend):
    """Says "unsolvable" without a certificate, and makes no proof when asked."""

    name = "unproven"
    supports_proof = True

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        return Answer.unsolvable(self.name, reason="its search found nothing")

    def prove(self, puzzle: Puzzle, limits: Limits = Limits()) -> Certificate | None:
        return None


# a closed walk from a could only come back along the edge it left by: with edges
# reusable there is one (so no closed set of states settles it), at most once none
RING = Puzzle.build(kind="walk", use=EdgeUse.AT_MOST_ONCE, start=["a"], end=["a"], closed=True,
                    edges=[("a", "b"), ("b", "c")])


def test_an_uncertified_answer_says_so_and_what_it_rests_on() -> None:
    answer = solve(RING, Unproven(), crosscheck="direct")
    assert answer.status is Status.UNSOLVABLE and not answer.certificate_checked
    assert "no certificate: unproven made no DRUP proof" in answer.reason
    assert "rests on unproven's search" in answer.reason and "confirmed" in answer.reason


def test_a_direct_search_asks_the_sat_backend_for_the_certificate() -> None:
    answer = solve(RING, "direct", crosscheck=None)
    assert answer.status is Status.UNSOLVABLE and answer.certificate_checked
    assert answer.certificate is not None and answer.certificate.data["encoding"] == "walk-v1"
    assert "made by sat" in answer.reason
