"""The circuit backends under node rules (CONTRACT 1.4 §7): ``cpsat`` (``AddCircuit``)
and ``minizinc:gecode`` (``subcircuit``) against the brute-force oracle of
tests/node_oracle.py, which shares no code with them, on random small graphs near the
Hamiltonicity threshold with random node rules, on boards built with
:meth:`Puzzle.build`, and on givens; solvable and unsolvable alike."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from node_oracle import node_rule_walks, obeys_node_rules

from trailkit.models.answer import Status
from trailkit.models.encodings.minizinc_model import minizinc_model
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.backends.cpsat.choices import walk_using
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.frontends.cli.assignments import export_model
from trailkit.solvers.pipeline import solve

BACKENDS = ["cpsat", pytest.param("minizinc:gecode", marks=pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="MiniZinc is not installed"))]
LIMITS = Limits(time_limit=60)
NAMES = "abcdefg"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return get_backend(request.param)


def _refused(backend: Backend, puzzle: Puzzle) -> bool:
    """Combinations a backend refuses by design (the refusal names another backend)."""
    reuse = puzzle.use is EdgeUse.ANY
    if backend.family == "cpsat":
        return reuse and bool(puzzle.via or puzzle.at or (
            puzzle.colours is not None and puzzle.visit is not NodeVisit.ANY))
    return puzzle.visit is NodeVisit.ANY or puzzle.colours is not None \
        or puzzle.use is EdgeUse.EXACTLY_ONCE


def agree(backend: Backend, puzzle: Puzzle) -> None:
    """Solve and count agree with the oracle: the walk is one of the oracle's (of the
    best length under an objective), unsolvable exactly when it has none, the count is
    the number of its walks."""
    walks = node_rule_walks(puzzle, max_steps=max(puzzle.num_nodes, puzzle.num_edges))
    try:  # (a refused puzzle may still be answered where no model is needed)
        answer = backend.solve(puzzle, LIMITS)
        counted = backend.count(puzzle, LIMITS)
    except UnsupportedPuzzle as exc:
        assert _refused(backend, puzzle), exc
        assert "--backend" in str(exc)
        return
    if not walks:
        assert answer.status is Status.UNSOLVABLE, answer
    else:
        assert answer.status is Status.SOLVED, answer.reason
        assert answer.walk is not None
        got = (tuple(answer.walk.nodes), tuple(answer.walk.edges))
        assert got in {(w.nodes, w.edges) for w in walks}, got
    assert counted.complete
    assert counted.solutions == len(walks)


@st.composite
def node_puzzles(draw: st.DrawFn) -> Puzzle:
    """A random graph of 3 to 6 nodes with about n ln n / 2 edges (the Hamiltonicity
    threshold), some parallel or one-way, with random node and edge rules."""
    n = draw(st.integers(3, 6))
    names = NAMES[:n]
    m = draw(st.integers(max(2, round(n * math.log(n) / 2) - 1), round(n * math.log(n) / 2) + 2))
    pair = st.tuples(st.sampled_from(names), st.sampled_from(names))
    edges = [list(e) for e in draw(st.lists(pair, min_size=m, max_size=m))]
    coloured = draw(st.booleans()) and draw(st.booleans())
    if coloured:
        for e in edges:
            e.append(draw(st.sampled_from(["r", "g"])))
    directed = draw(st.lists(st.booleans(), min_size=m, max_size=m)) \
        if draw(st.booleans()) else None
    visit = draw(st.sampled_from(list(NodeVisit)))
    use = draw(st.sampled_from(list(EdgeUse)))
    avoid = draw(st.sets(st.sampled_from(names), max_size=1))
    free = [v for v in names if v not in avoid]
    via = draw(st.sets(st.sampled_from(free), max_size=2))
    at: dict[str, int] = {}
    if draw(st.booleans()):
        top = len(free) if visit is NodeVisit.EVERY_ONCE else n + 1
        at[draw(st.sampled_from(free))] = draw(st.integers(1, top))
    objective = draw(st.sampled_from(list(Objective)))
    if use is EdgeUse.ANY:  # reusable edges: every backend answers the shortest walk
        objective = Objective.SHORTEST
    elif objective is Objective.LONGEST:
        use = EdgeUse.AT_MOST_ONCE
    ends = st.none() | st.sets(st.sampled_from(names), min_size=1, max_size=2)
    puzzle = Puzzle.build(
        edges=edges, nodes=names, directed=directed,
        colours=ColourRule.from_cycle(["r", "g"]) if coloured else None,
        use=use, visit=visit, via=via, avoid=avoid, at=at, objective=objective,
        closed=draw(st.booleans()), start=draw(ends), end=draw(ends))
    assume(puzzle.has_node_rules)
    return puzzle


@pytest.mark.parametrize("name", BACKENDS)
@costly(0.6, "each example runs CP-SAT or MiniZinc against the oracle's walks",
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=node_puzzles())
def test_random_node_rules_agree_with_the_oracle(name: str, puzzle: Puzzle) -> None:
    agree(get_backend(name), puzzle)


def _grid(cols: int, rows: int, knight: bool = False) -> list[tuple[str, str]]:
    cell = [[f"{chr(97 + c)}{r + 1}" for r in range(rows)] for c in range(cols)]
    moves = [(1, 2), (2, 1), (2, -1), (1, -2)] if knight else [(1, 0), (0, 1)]
    return [(cell[c][r], cell[c + dc][r + dr]) for c in range(cols) for r in range(rows)
            for dc, dr in moves if 0 <= c + dc < cols and 0 <= r + dr < rows]


CASES: dict[str, dict[str, Any]] = {
    # a 3x3 grid's Hamiltonian paths from a corner, and none from an edge's middle cell
    "grid-path-corner": dict(edges=_grid(3, 3), start=["a1"]),
    "grid-path-odd-cell": dict(edges=_grid(3, 3), start=["b1"]),
    # bipartite 4x3 grid: Hamiltonian cycles exist; a 3x3 one has none (odd cells)
    "grid-cycle-4x3": dict(edges=_grid(4, 3), closed=True),
    "grid-cycle-3x3": dict(edges=_grid(3, 3), closed=True),
    # Numbrix-like givens on a 3x3 grid: a1 first, c3 at position 9, b2 at 5
    "grid-givens": dict(edges=_grid(3, 3), at={"a1": 1, "b2": 5, "c3": 9}),
    "grid-givens-clash": dict(edges=_grid(3, 3), at={"a1": 1, "b2": 4}),
    # a 3x4 knight's graph: open knight's tours exist (closed ones do not)
    "knight-3x4-open": dict(edges=_grid(3, 4, knight=True)),
    "knight-3x4-closed": dict(edges=_grid(3, 4, knight=True), closed=True),
    # a hole in the board, a checkpoint under at-most-once, the longest simple path
    "grid-hole": dict(edges=_grid(3, 3), avoid=["b2"], closed=True),
    "grid-longest-via": dict(edges=_grid(3, 3), visit=NodeVisit.AT_MOST_ONCE,
                             via=["c3"], start=["a1"], objective=Objective.LONGEST),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_boards_agree_with_the_oracle(backend: Backend, case: str) -> None:
    rules = {"visit": NodeVisit.EVERY_ONCE, "use": EdgeUse.AT_MOST_ONCE, **CASES[case]}
    agree(backend, Puzzle.build(**rules))


@pytest.mark.parametrize("closed", [False, True])
def test_parallel_edges_and_the_two_step_ring(backend: Backend, closed: bool) -> None:
    """Two parallel edges make a two-step ring a-b-a (edges used at most once): two
    walks from each start; with one edge there is none unless edges are reusable."""
    for edges, use in [([("a", "b"), ("a", "b")], EdgeUse.AT_MOST_ONCE),
                       ([("a", "b")], EdgeUse.AT_MOST_ONCE),
                       ([("a", "b")], EdgeUse.ANY)]:
        agree(backend, Puzzle.build(edges=edges, use=use, closed=closed,
                                    visit=NodeVisit.EVERY_ONCE,
                                    objective=Objective.SHORTEST))


def test_a_self_loop_is_the_one_step_ring(backend: Backend) -> None:
    """A closed walk of one step (a self-loop) holds one position: a checkpoint there
    and a given at 1 keep it; under every-once only when no other node is left."""
    edges = [("a", "a"), ("a", "b"), ("b", "c"), ("c", "a")]
    for rules in [dict(via=["a"]), dict(at={"a": 1}), dict(at={"b": 1}),
                  dict(visit=NodeVisit.EVERY_ONCE, avoid=["b"])]:
        base: dict[str, Any] = {"visit": NodeVisit.AT_MOST_ONCE, **rules}
        agree(backend, Puzzle.build(edges=edges, use=EdgeUse.AT_MOST_ONCE, closed=True,
                                    **base))


needs_minizinc = pytest.mark.skipif(shutil.which("minizinc") is None,
                                    reason="MiniZinc is not installed")


@needs_minizinc
@pytest.mark.parametrize("case", ["grid-givens", "grid-hole", "knight-3x4-open"])
def test_exported_mzn_runs_as_written(case: str, tmp_path: Path) -> None:
    """``export --format mzn`` of a node-rule puzzle, solved by ``minizinc --solver
    gecode`` as written: the ``succ`` array read back is one of the oracle's walks."""
    puzzle = Puzzle.build(**{"visit": NodeVisit.EVERY_ONCE, "use": EdgeUse.AT_MOST_ONCE,
                             **CASES[case]})
    out = tmp_path / "model.mzn"
    out.write_text(export_model(puzzle, "mzn"))
    done = subprocess.run(["minizinc", "--solver", "gecode", "--json-stream",
                           "--output-mode", "json", "--time-limit", "60000", str(out)],
                          capture_output=True, text=True, check=False, timeout=120)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    solutions = [e["output"]["json"]["succ"] for e in events if e["type"] == "solution"]
    walk = minizinc_model(puzzle).decode(solutions[-1])
    assert (walk.nodes, walk.edges) in {(w.nodes, w.edges) for w in node_rule_walks(puzzle)}


def test_mzn_refuses_node_rules_it_cannot_state() -> None:
    """Node rules under a colour rule (or with every edge required, or visit: any) are
    no node-level circuit: the export says so and names the backend that states them."""
    coloured = Puzzle.build(edges=[("a", "b", "r"), ("b", "c", "g")], use="at-most-once",
                            colours=ColourRule.from_cycle(["r", "g"]),
                            visit=NodeVisit.EVERY_ONCE)
    checkpoint = Puzzle.build(edges=[("a", "b"), ("b", "c")], via=["b"])
    for puzzle in (coloured, checkpoint):
        with pytest.raises(UnsupportedPuzzle, match="--backend cpsat"):
            export_model(puzzle, "mzn")


def test_cpsat_estimates_the_node_circuit_before_building_it() -> None:
    """A memory limit below the node-level model's estimate is ``unknown`` with the
    estimate, also for reusable edges (which the edge-level estimate waved through)."""
    puzzle = Puzzle.build(edges=_grid(4, 4), visit=NodeVisit.EVERY_ONCE, use=EdgeUse.ANY,
                          closed=True)
    answer = get_backend("cpsat").solve(puzzle, Limits(memory_mb=50))
    assert answer.status is Status.UNKNOWN
    assert "arcs" in answer.reason and "memory limit of 50 MB" in answer.reason


def test_the_pipeline_runs_cpsat_on_node_rules() -> None:
    """``solve`` through the pipeline hands a node-rule puzzle to cpsat (no longer
    refused) and verifies its walk: a closed knight's tour of the 3x10 board."""
    puzzle = Puzzle.build(edges=_grid(3, 10, knight=True), visit=NodeVisit.EVERY_ONCE,
                          use=EdgeUse.AT_MOST_ONCE, closed=True)
    answer = solve(puzzle, "cpsat", LIMITS, None)
    assert answer.status is Status.SOLVED and answer.verified
    assert answer.walk is not None
    assert sorted(answer.walk.nodes[:-1]) == list(range(30))
    assert obeys_node_rules(puzzle, answer.walk.nodes)


def test_explain_queries_keep_the_node_rules() -> None:
    """The query explain asks of CP-SAT (a walk using given edges) keeps the node rules:
    on the 4x3 grid a Hamiltonian cycle through edge 0, and,
    with a2 avoided, none through a1-b1 (a1 is left with one neighbour)."""
    grid = _grid(4, 3)
    tour = Puzzle.build(edges=grid, visit=NodeVisit.EVERY_ONCE, use=EdgeUse.AT_MOST_ONCE,
                        closed=True)
    status, walk = walk_using(tour, {0}, LIMITS)
    assert status == "solved" and walk is not None and 0 in walk.edges
    assert obeys_node_rules(tour, walk.nodes)
    holed = Puzzle.build(edges=grid, visit=NodeVisit.EVERY_ONCE, use=EdgeUse.AT_MOST_ONCE,
                         closed=True, avoid=["a2"])
    assert walk_using(holed, {grid.index(("a1", "b1"))}, LIMITS) == ("unsolvable", None)


def _lcf(shifts: list[int], n: int) -> list[tuple[str, str]]:
    """A cubic Hamiltonian graph in LCF notation: a ring of n nodes and chords."""
    edges = {tuple(sorted((i, (i + 1) % n))) for i in range(n)}
    edges |= {tuple(sorted((i, (i + shifts[i % len(shifts)]) % n))) for i in range(n)}
    return [(str(u), str(v)) for u, v in sorted(edges)]


def _hypercube(d: int) -> list[tuple[str, str]]:
    return [(str(v), str(v ^ (1 << b))) for v in range(2 ** d) for b in range(d)
            if v < v ^ (1 << b)]


@pytest.mark.parametrize(("edges", "cycles", "nodes"), [
    (_lcf([10, 7, 4, -4, -7, 10, -4, 7, -7, 4], 20), 30, 20),  # the dodecahedron (Icosian)
    (_hypercube(4), 1344, 16),  # OEIS A066037: Hamiltonian cycles of the 4-cube
    (_hypercube(3), 6, 8),
])
def test_cpsat_counts_hamiltonian_cycles_as_published(edges: list[tuple[str, str]],
                                                      cycles: int, nodes: int) -> None:
    """Counts of Hamiltonian cycles (each walked from every node, both ways) match the
    published numbers, each ring enumerated once and multiplied by its starts."""
    puzzle = Puzzle.build(edges=edges, use=EdgeUse.AT_MOST_ONCE, visit=NodeVisit.EVERY_ONCE,
                          closed=True)
    counted = get_backend("cpsat").count(puzzle, LIMITS)
    assert counted.complete
    assert counted.solutions == cycles * 2 * nodes
    assert counted.stats["distinct_circuits"] == cycles * 2
