"""No wrong answer from the plumbing while backends learn the node rules: a backend that
does not obey them is never asked about a puzzle that has them (not as the solver, nor
for a second opinion, a confirmation, a recount or a relaxation taken for exact), and a
command on such a puzzle with such a backend exits 2 saying why.

A scripted backend that claims to obey the node rules stands in for the ones to come.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from node_oracle import node_rule_walks
from node_rule_puzzles import node_rule_puzzles

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.counts import CountResult
from trailkit.models.errors import BackendUnavailable
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.registry import backend_names, get_backend
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.policy import AUTO, second_opinion
from trailkit.solvers.pipeline.solving import check_answer, precheck, solve, solve_all

# a-b-c with edges reusable, but b avoided: no walk from a to c (a walk without the
# node rule exists, which a backend ignoring them would find)
AVOIDED = Puzzle.build(edges=[("a", "b"), ("b", "c")], use=EdgeUse.ANY, start=["a"],
                       end=["c"], avoid=["b"])


class Scripted(Backend):
    """A backend that obeys node rules by the oracle's listing (small puzzles only)."""

    name = "scripted"
    supports_node_rules = True
    supports_counting = True

    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        walks = node_rule_walks(puzzle, max_steps=puzzle.num_nodes + 1)
        if not walks:
            return Answer.unsolvable(self.name, None, reason="scripted: no walk")
        return Answer.solved(self.name, walks[0])

    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *, failures: bool = False,
              progress: object = None) -> CountResult:
        walks = node_rule_walks(puzzle, max_steps=puzzle.num_nodes + 1)
        return CountResult(backend=self.name, solutions=len(walks))


def _ignoring() -> list[str]:
    """The registered backends that do not obey node rules yet."""
    out = []
    for name in backend_names():
        try:
            if not get_backend(name).supports_node_rules:
                out.append(name)
        except BackendUnavailable:  # not installed here: nothing to ask
            continue
    return out


def test_an_uncertified_unsolvable_is_unknown_when_no_backend_can_confirm() -> None:
    if not _ignoring():
        pytest.skip("every backend obeys node rules now")
    answer = solve(AVOIDED, Scripted())
    assert answer.status in (Status.UNKNOWN, Status.UNSOLVABLE)
    if answer.status is Status.UNSOLVABLE:  # only with a checked certificate
        assert answer.certificate_checked


def test_a_solved_answer_is_not_cross_checked_by_a_backend_ignoring_node_rules() -> None:
    via = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("a", "c")], use=EdgeUse.AT_MOST_ONCE,
                       visit=NodeVisit.EVERY_ONCE, start=["a"])
    answer = solve(via, Scripted())
    assert answer.status is Status.SOLVED and answer.verified
    if answer.crosscheck is not None:
        assert get_backend(answer.crosscheck.backend).supports_node_rules


def test_the_second_opinion_passes_over_backends_that_ignore_node_rules() -> None:
    ignoring = _ignoring()
    if "direct" not in ignoring:
        pytest.skip("direct obeys node rules now")
    engine = Scripted()
    assert second_opinion(engine, AUTO, needs_confirmation=False) == "direct"
    chosen = second_opinion(engine, AUTO, needs_confirmation=False, puzzle=AVOIDED)
    assert chosen is None or get_backend(chosen).supports_node_rules


def test_a_recount_by_a_backend_ignoring_node_rules_is_declined() -> None:
    if "direct" not in _ignoring():
        pytest.skip("direct obeys node rules now")
    result = count(AVOIDED, Scripted())
    assert result.solutions == 0 and result.complete
    recount = result.stats.get("crosscheck")
    assert recount is None or recount["agrees"] is not False


def test_solve_all_skips_backends_that_ignore_node_rules() -> None:
    answers, skipped = solve_all(AVOIDED, Limits(time_limit=20))
    for name in _ignoring():
        assert "node rules" in skipped[name]
    for answer in answers:
        assert answer.status is not Status.SOLVED


def test_the_empty_walk_answer_obeys_node_rules() -> None:
    standing = Puzzle.build(edges=[("a", "b")], use=EdgeUse.ANY, via=["b"])
    answer = solve(standing, Scripted())
    assert answer.status is Status.SOLVED and answer.walk is not None
    assert standing.nodes.index("b") in answer.walk.nodes
    assert answer.walk != Walk((0,), ())


@given(node_rule_puzzles())
def test_the_precheck_stays_sound_under_node_rules(puzzle: Puzzle) -> None:
    """Node rules only take walks away: a structural certificate of no walk still holds,
    and the independent checker still accepts it."""
    answer = precheck(puzzle)
    if answer is not None:
        assert not node_rule_walks(puzzle)
        assert check_answer(puzzle, answer).certificate_checked


def test_a_given_on_an_avoided_node_gets_no_given_positions_certificate() -> None:
    """A given on an avoided node (an input error in a spec, possible from Python): the
    maker used to join the two givens through no edge while the checker went from the
    avoided one, so the pre-check's certificate was rejected (exit 4)."""
    puzzle = Puzzle.build(edges=[("a", "a"), ("b", "e")], nodes="abcde",
                          use=EdgeUse.AT_MOST_ONCE, avoid=["a", "e"], at={"b": 2, "e": 1})
    answer = precheck(puzzle)
    assert answer is None or check_answer(puzzle, answer).certificate_checked


NODE_SPEC = ("trailkit: 1\nkind: walk\nedges: [a b, b c, c a]\nvisit: every-once\n"
             "closed: true\n")


@pytest.mark.parametrize("verb", [["solve"], ["count"], ["prove"], ["solve", "--json"]])
@pytest.mark.parametrize("backend", backend_names())
def test_a_backend_ignoring_node_rules_exits_2(verb: list[str], backend: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    if backend not in _ignoring():
        pytest.skip(f"{backend} obeys node rules (or is not installed)")
    spec = tmp_path / "p.yaml"
    spec.write_text(NODE_SPEC)
    code = main([verb[0], str(spec), "--backend", backend, *verb[1:]])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "node rules" in out + err and "Traceback" not in err


@pytest.mark.parametrize("verb", ["repair", "explain", "compare"])
def test_the_tools_on_a_node_rule_spec_exit_2_while_direct_ignores_them(
        verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if "direct" not in _ignoring():
        pytest.skip("direct obeys node rules now")
    spec = tmp_path / "p.yaml"
    spec.write_text(NODE_SPEC)
    code = main([verb, str(spec)])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err
