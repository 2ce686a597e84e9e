"""Every claim says what it rests on (issue 32), on a small sample of the random corpus.

For each puzzle of a fixed sample (``tests/corpus.py``) the answers ``solve --unique``,
``count``, ``repair`` and ``explain`` give are asked for their claims: each is either
checked (a certificate the independent checker accepted, with the checker's sentence, or
for ``unique`` false a verified second walk) or carries a ``why`` that says it is not
certified and names what it rests on instead. The words an answer prints never say
"proven" without the certificate that proves it. How many are checked is measured by
``tests/bench/bench_claim_coverage.py``, not asserted here, except for ``solve``'s claims
(the best walk, and whether it is the only one), ``count``'s own claim (made up to 1,000
walks) and the cores' claims, which are all certified.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from corpus import random_corpus

from trailkit.models.answer import Claim, Status
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.frontends.presenter.results import answer_text, count_text
from trailkit.solvers.pipeline.claims import fewest_changes_claim
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.explanation import explain
from trailkit.solvers.tools.repair.fewest_changes import repair

LIMITS = Limits(time_limit=20)
SAMPLE = random_corpus(24, seed=32)
PROVEN = re.compile(r"proven(?: (\w[\w-]*))?:? ?([^;)]*)")


def said_well(claim: Claim, puzzle: Puzzle) -> None:
    """The claim is checked, with what checked it, or says why not and what it rests on."""
    if claim.checked:
        assert not claim.why
        if claim.claim == "unique" and claim.value is False:
            assert claim.witness is not None and not verify(puzzle, claim.witness)
        else:
            assert claim.holds, claim
        return
    assert claim.why.startswith(("not certified (", "not decided (")), claim.why
    if claim.why.startswith("not certified") and "not ruled out" not in claim.why:
        # (a repair search that stopped early claims no fewest: "fewer ... not ruled out")
        assert "rests on " in claim.why, claim.why


def never_bare(text: str) -> None:
    """Every "proven" in ``text`` names what proves it (a certificate, a verified walk,
    a refutation)."""
    for match in PROVEN.finditer(text):
        assert re.search(r"certificate|verified|refuted|checked", match.group(0)), \
            match.group(0)


def answers(puzzle: Puzzle) -> list[Claim]:
    """The claims of every answer the puzzle gets, the words of solve and count checked.
    The claims of ``solve`` (shortest, longest, unique) are all certified: the small
    puzzles of the sample are well within the limits."""
    made: list[Claim] = []
    variants = [puzzle] + ([dataclasses.replace(puzzle, objective=Objective.LONGEST)]
                           if puzzle.use is EdgeUse.AT_MOST_ONCE else [])
    for asked in variants:
        answer = solve(asked, "direct", LIMITS, crosscheck=None, unique=True)
        never_bare(answer_text(asked, answer, None))
        assert all(claim.checked for claim in answer.claims), answer.claims
        made += answer.claims
    counted = count(puzzle, "direct", LIMITS, crosscheck=None)
    never_bare(count_text(puzzle, counted, None, failures=False))
    assert all(claim.checked for claim in counted.claims), counted.claims
    made += counted.claims
    if solve(puzzle, "direct", LIMITS, crosscheck=None).status is Status.UNSOLVABLE:
        fixed = repair(puzzle, limits=LIMITS)
        if fixed.changes is not None:
            made.append(fixed.claim or fewest_changes_claim(
                fixed.changes, fixed.original, minimal=fixed.minimal, proof=fixed.proof))
        core = explain(puzzle, LIMITS).core
        if core is not None and core.edges:
            assert core.claim().checked, core.claim()
            made.append(core.claim())
    return made


#: The first half of the sample runs in the README's test command; the whole sample (a
#: sweep of every verb on 24 puzzles, minutes of CPU) is marked ``long``, for CI.
INDICES = [index if index < len(SAMPLE) // 2 else
           pytest.param(index, marks=pytest.mark.long) for index in range(len(SAMPLE))]


@pytest.mark.slow
@pytest.mark.parametrize("index", INDICES)
def test_every_claim_is_checked_or_says_what_it_rests_on(index: int) -> None:
    puzzle = SAMPLE[index]
    for claim in answers(puzzle):
        said_well(claim, puzzle)
