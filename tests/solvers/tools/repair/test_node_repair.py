"""``repair`` on puzzles with node rules (issue 43 item 3): the fewest changes, each
repaired puzzle solved by a backend that obeys the node rules, and "fewest" certified
only by certificates whose refutations speak of the node rules too.

Against a brute force written here: every set of the changes the repair rules allow,
each changed puzzle built from the arrays and every walk listed by
:mod:`node_oracle` (which shares no code with the backends or the checker).
"""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from budget import costly
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from node_oracle import node_rule_walks
from node_rule_puzzles import node_rule_puzzles

from trailkit.models.checking.change_sets import change_sets_verdict
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.repair_rules import CandidateEdge, RepairRules
from trailkit.models.spec import load_spec_text
from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

ROOT = Path(__file__).resolve().parents[4]
KNIGHT_3X4 = ROOT / "docs" / "examples" / "knight-3x4-closed.yaml"

#: Two separate edges: a tour through the four nodes needs two new edges.
TWO_EDGES = """trailkit: 1
kind: tour
edges: [a b, c d]
repair: {add: any}
"""

#: A triangle and a node apart: a tour needs d joined by two new edges (without the node
#: rules the triangle alone is a closed walk: no change needed).
TRIANGLE_AND_D = """trailkit: 1
kind: tour
nodes: [a, b, c, d]
edges: [a b, b c, c a]
repair: {add: any}
"""


# ------------------------------------------------------------------ brute force
def _changed(puzzle: Puzzle, adds: list[tuple[int, int]], removed: set[int]) -> Puzzle:
    """``puzzle`` with the new edges ``adds`` (node indices) and without the edges
    ``removed``, built from the arrays (node rules kept: they speak of nodes)."""
    kept = [e for e in range(puzzle.num_edges) if e not in removed]
    directed = [puzzle.is_directed(e) for e in kept] + [False] * len(adds)
    return dataclasses.replace(
        puzzle, tail=[puzzle.tail[e] for e in kept] + [u for u, _ in adds],
        head=[puzzle.head[e] for e in kept] + [v for _, v in adds],
        directed=directed if any(directed) else None, colour=None, edge_ids=None,
        repair=None, expect=None)


def fewest_by_brute_force(puzzle: Puzzle, adds: list[tuple[int, int]], remove: bool,
                          most: int) -> int | None:
    """The fewest of the allowed changes (``adds``; every edge removed when ``remove`` and
    edges are used exactly once) after which the oracle lists a walk; ``None``: none
    within ``most`` changes."""
    changes: list[tuple[str, Any]] = [("add", pair) for pair in adds]
    if remove and puzzle.use is EdgeUse.EXACTLY_ONCE:
        changes += [("remove", e) for e in range(puzzle.num_edges)]
    for k in range(min(most, len(changes)) + 1):
        for combo in combinations(changes, k):
            changed = _changed(puzzle, [c[1] for c in combo if c[0] == "add"],
                               {c[1] for c in combo if c[0] == "remove"})
            if node_rule_walks(changed):
                return k
    return None


def _oracle_ready(puzzle: Puzzle) -> bool:
    """Node rules the oracle lists every walk of (a walk that may revisit both nodes
    and edges has no bound it could list up to)."""
    return puzzle.has_node_rules and not (
        puzzle.visit is NodeVisit.ANY and puzzle.use is EdgeUse.ANY)


@costly(0.15, "each example runs the repair search, the pipeline on every change set, "
        "and the brute force over change sets",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(node_rule_puzzles(), st.data())
def test_the_fewest_changes_match_brute_force(puzzle: Puzzle, data: st.DataObject) -> None:
    """The fewest changes under node rules is brute force's (each repair obeys the node
    rules); a certified claim's certificate is accepted by the checker, and rejected
    once a smaller set's refutation is dropped."""
    assume(_oracle_ready(puzzle))
    assume(not puzzle.avoid & (puzzle.via | set(puzzle.at)))  # input errors of a spec
    names = puzzle.nodes
    pairs = data.draw(st.lists(st.tuples(st.integers(0, len(names) - 1),
                                         st.integers(0, len(names) - 1)),
                               min_size=1, max_size=3, unique=True))
    remove = data.draw(st.booleans())
    rules = RepairRules(add=tuple(CandidateEdge(names[u], names[v]) for u, v in pairs),
                        remove=remove)
    puzzle = dataclasses.replace(puzzle, repair=rules)
    fewest = fewest_by_brute_force(puzzle, pairs, remove, 2)
    result = repair(puzzle, max_changes=2)
    if result.status is RepairStatus.UNKNOWN:
        return  # allowed: the search gave up (never a wrong answer)
    if fewest is None:
        assert result.status is RepairStatus.NO_REPAIR, result
        return
    assert result.changes == fewest, (result.status, result.proof)
    if fewest == 0:
        assert result.status is RepairStatus.SOLVABLE
        return
    best = result.repairs[0]
    assert any(w.edges == best.answer.walk.edges for w in node_rule_walks(best.puzzle))
    claim = result.claim
    assert claim is not None and claim.checked, claim
    assert change_sets_verdict(puzzle, claim.certificate.data).accepted
    if fewest == 2:
        cut = {**claim.certificate.data, "sets": claim.certificate.data["sets"][1:]}
        assert "no certificate for" in change_sets_verdict(puzzle, cut).problems[0]


# ------------------------------------------------------------------ the certificate
def test_two_new_edges_are_certified_fewest() -> None:
    """The empty set and each of the 6 single new edges refuted, each by a certificate
    of the node rules, and the checker accepts the whole."""
    puzzle = load_spec_text(TWO_EDGES)
    result = repair(puzzle)
    assert result.status is RepairStatus.REPAIRED and result.changes == 2 and result.minimal
    claim = result.claim
    assert claim is not None and claim.checked
    data = claim.certificate.data
    assert len(data["sets"]) == 7
    assert change_sets_verdict(puzzle, data).accepted


def test_a_set_whose_refutation_is_swapped_is_rejected() -> None:
    """Each set's certificate is checked on the puzzle that set makes (node rules kept):
    the puzzle as given falls into two pieces, a-b and c-d, but not once a-c is added;
    give that set the puzzle's own refutation, and the checker names the set."""
    puzzle = load_spec_text(TWO_EDGES)
    data = repair(puzzle).claim.certificate.data
    sets = [dict(item) for item in data["sets"]]
    empty = next(item for item in sets if not item["changes"])
    joined = next(item for item in sets if [(c["from"], c["to"]) for c in item["changes"]]
                  == [("a", "c")])
    joined["certificate"] = empty["certificate"]
    found = change_sets_verdict(puzzle, {**data, "sets": sets})
    assert not found.accepted
    assert found.problems[0].startswith("the node-cut certificate for adding a"), found
    assert "edge a-c fails: " in found.problems[0]


def test_a_certificate_made_without_the_node_rules_is_rejected() -> None:
    """Without its node rules the puzzle needs no change (the triangle is a closed
    walk); that certificate, checked against the puzzle with its node rules, fails:
    the listed walk misses d."""
    puzzle = load_spec_text(TRIANGLE_AND_D)
    bare = dataclasses.replace(puzzle, visit=NodeVisit.ANY)
    bare_claim = repair(bare)
    assert bare_claim.status is RepairStatus.SOLVABLE
    result = repair(puzzle)
    assert result.changes == 2 and result.claim is not None and result.claim.checked
    walk = bare_claim.original.walk
    data = {"changes": 0, "candidates": result.claim.certificate.data["candidates"],
            "sets": [], "repair": {"changes": [], "start": puzzle.nodes[walk.nodes[0]],
                                   "walk": [puzzle.edge_id(e) for e in walk.edges]}}
    assert change_sets_verdict(bare, data).accepted
    found = change_sets_verdict(puzzle, data)
    assert not found.accepted and "breaks the rules" in found.problems[0]


def test_past_the_set_limit_the_repair_formula_speaks_of_the_node_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The closed knight's tour of the 3 × 4 board needs one new move. Forced past the
    limit of change sets, the claim rests on a refutation of ``repair-fewer-v1``, which
    must hold the node rules: without them the board has closed walks as it is, so an
    edge-only formula has a model (and the search's proven 1 looked like a bug)."""
    import trailkit.solvers.tools.repair.fewest_certificate as fewest_certificate

    monkeypatch.setattr(fewest_certificate, "SET_LIMIT", 0)
    from trailkit.models.spec import load_spec

    result = repair(load_spec(KNIGHT_3X4))
    assert result.status is RepairStatus.REPAIRED and result.changes == 1
    claim = result.claim
    assert claim is not None and claim.checked, claim
    assert claim.certificate.kind == "drup"
    assert claim.certificate.data["encoding"] == "repair-fewer-v1"


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_the_optimisers_refuse_node_rules(backend: str) -> None:
    """The optimisers' models know only edge rules: asked for by name on a node-rule
    puzzle, they are refused (exit 2 on the command line), not run."""
    with pytest.raises(UnsupportedPuzzle, match="does not take node rules"):
        repair(load_spec_text(TWO_EDGES), backend=backend)


@pytest.mark.parametrize("backend", ["auto", "direct"])
def test_the_size_by_size_search_takes_node_rules(backend: str) -> None:
    result = repair(load_spec_text(TWO_EDGES), backend=backend)
    assert result.changes == 2 and result.minimal and result.method == "search"
