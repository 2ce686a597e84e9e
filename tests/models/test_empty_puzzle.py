"""Puzzles without edges: trivially decided, and every answer checkable (issue 11).

A puzzle with no edges and no nodes is solved by the empty walk (contract v1.1, §1):
as the exercism "dominoes" suite has it, an empty set of dominoes forms a ring. The
walk stands on no node (:meth:`Walk.nowhere`); every backend solves it, every counter
counts it once, and the checker accepts it. With nodes but no edges and no node both
an allowed start and end, the structural ``endpoints`` certificate proves it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trailkit.models.answer import Certificate, Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import count, solve

BACKENDS = ["direct", "cpsat", "sat"]


def empty_dominoes() -> Puzzle:
    return Puzzle.build(kind="domino-chain", edges=[], closed=True)


def test_checker_accepts_the_walk_that_stands_nowhere() -> None:
    assert verify(empty_dominoes(), Walk.nowhere()) == []
    assert Walk.nowhere().start is None and len(Walk.nowhere()) == 0


def test_walk_nowhere_is_no_walk_of_a_puzzle_with_nodes() -> None:
    puzzle = Puzzle.build(kind="trail", edges=[], nodes=["a"])
    assert verify(puzzle, Walk.nowhere())


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_solves_the_empty_puzzle(backend: str) -> None:
    answer = solve(empty_dominoes(), backend)
    assert answer.status is Status.SOLVED
    assert answer.walk == Walk.nowhere() and answer.verified


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_counter_counts_the_empty_walk_once(backend: str) -> None:
    result = count(empty_dominoes(), backend, crosscheck="direct")
    assert result.complete and result.solutions == 1
    assert count(empty_dominoes(), method="exact").solutions == 1
    with_failures = count(empty_dominoes(), "direct", failures=True)
    assert (with_failures.solutions, with_failures.failures) == (1, 0)




def test_prove_edgeless_puzzle_whose_ends_differ(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The walk cannot move and must start at a but end at b: a one-line certificate."""
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nnodes: [a, b]\nedges: []\nstart: a\nend: b\n")
    cert = tmp_path / "cert.json"
    code = main(["prove", str(spec), "--out", str(cert)])
    assert code == 1, capsys.readouterr()
    assert json.loads(cert.read_text())["certificate"]["type"] == "endpoints"
    assert main(["check-certificate", str(spec), str(cert)]) == 0


@pytest.mark.parametrize("use", ["exactly-once", "at-most-once", "any"])
def test_checker_of_the_edgeless_endpoints_argument(use: str) -> None:
    certificate = Certificate("endpoints", {}, "")
    apart = Puzzle.build(kind="walk", edges=[], nodes=["a", "b"], start=["a"], end=["b"],
                         use=EdgeUse(use))
    assert check_certificate(apart, certificate) == []
    together = Puzzle.build(kind="walk", edges=[], nodes=["a", "b"], start=["a", "b"],
                            end=["b"], use=EdgeUse(use))
    assert check_certificate(together, certificate)
    assert check_certificate(empty_dominoes(), certificate)
