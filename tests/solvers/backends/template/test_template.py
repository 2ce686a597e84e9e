"""The template backend (``solvers/backends/template``), beyond the behaviour every backend
shares (``tests/solvers/backends/test_backends.py`` runs it there too): what ``docs/backends.md``
says it
shows, a longest walk, limits that give ``unknown``, and registration for the tests only.
"""

from __future__ import annotations

import dataclasses

from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from oracles import once_walks, walk_puzzles

from trailkit.models.answer import Status
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import BACKENDS, backend_names
from trailkit.solvers.backends.template import MAX_ONCE_EDGES, TemplateBackend
from trailkit.solvers.pipeline import solve


@costly(0.2, "each example runs a longest-walk search and the brute-force oracle")
@given(st.data())
def test_longest_walk_matches_brute_force(data: st.DataObject) -> None:
    p = data.draw(walk_puzzles(EdgeUse.AT_MOST_ONCE, max_nodes=4, max_edges=6))
    p = dataclasses.replace(p, objective=Objective.LONGEST)
    best = max((len(w) for w in once_walks(p)), default=None)
    answer = TemplateBackend().solve(p)
    if best is None:
        assert answer.status is Status.UNSOLVABLE
    else:
        assert answer.status is Status.SOLVED and answer.optimal is True
        assert len(answer.walk) == best


def test_a_loop_back_to_the_start_is_a_walk() -> None:
    """After a step along a loop the walk stands where it started, as before its first
    step, yet it is not the empty walk: a closed walk may end there."""
    loop = Puzzle.build(kind="walk", edges=[("a", "a")], use=EdgeUse.ANY, closed=True)
    answer = TemplateBackend().solve(loop)
    assert answer.status is Status.SOLVED and answer.walk.edges == (0,)


def _path(edges: int) -> Puzzle:
    return Puzzle.build(kind="trail", edges=[(f"v{i}", f"v{i + 1}") for i in range(edges)])


def test_a_puzzle_beyond_its_size_is_unknown_without_a_search() -> None:
    answer = TemplateBackend().solve(_path(MAX_ONCE_EDGES + 1))
    assert answer.status is Status.UNKNOWN and "at most 16 edges" in answer.reason
    assert "states" not in answer.stats  # refused before searching


def test_the_memory_limit_is_estimated_before_the_search() -> None:
    answer = TemplateBackend().solve(_path(MAX_ONCE_EDGES), Limits(memory_mb=1))
    assert answer.status is Status.UNKNOWN and "memory limit of 1 MB" in answer.reason
    assert TemplateBackend().solve(_path(MAX_ONCE_EDGES)).status is Status.SOLVED


def test_a_work_limit_reached_is_unknown() -> None:
    answer = TemplateBackend().solve(_path(8), Limits(work_limit=3))
    assert answer.status is Status.UNKNOWN and "limit" in answer.reason
    assert TemplateBackend().solve(_path(8), Limits(work_limit=100)).status is Status.SOLVED


def test_users_never_see_it() -> None:
    assert "template" not in BACKENDS and "template" not in backend_names()


def test_the_pipeline_runs_it_once_registered(template_backend: str) -> None:
    """Registered (by the fixture, with the line a new backend adds to ``BACKENDS``), the
    pipeline finds it by name; the checked certificate of its "unsolvable" and the
    cross-check come from the others."""
    koenigsberg = Puzzle.build(kind="trail", edges=[("a", "b"), ("a", "b"), ("a", "c"),
                                                    ("a", "c"), ("a", "d"), ("b", "d"),
                                                    ("c", "d")])
    answer = solve(koenigsberg, template_backend, precheck=False)
    assert answer.status is Status.UNSOLVABLE and answer.backend == "template"
    assert answer.certificate_checked and answer.crosscheck.agrees
