"""The certificate that a repair of 2 or more changes has the fewest: every smaller set refuted.

A repair of ``k`` changes has the fewest when no set of at most ``k`` - 1 allowed changes
makes the puzzle solvable. :func:`fewest_claim` makes the ``change-sets`` certificate
that says so: for every such set (the candidate changes of the repair search, the sets
its size-by-size search tries), an unsolvability certificate of the puzzle with the set
applied: the one the repair search got for it, else made and checked by the pipeline's
``prove`` (a set is not solved twice); with the repair itself and its verified walk.
The independent checker (:mod:`trailkit.models.checking.change_sets`, which derives the
allowed changes from the rules itself) must accept it before the claim is called proven.

The work is bounded before anything is made: past
:data:`~trailkit.models.checking.change_sets.SET_LIMIT` sets (the sum of C(n, j), j < k,
for n candidate changes) the claim rests on one refutation of the repair formula instead
(:mod:`trailkit.solvers.tools.repair.fewest_formula`), and so it does when a set's
certificate cannot be made within the limits; where that cannot be had either, it is "not
certified" and says what the number rests on.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from trailkit.models.answer import Answer, Certificate, Claim, Status, Walk
from trailkit.models.checking.change_sets import SET_LIMIT, change_sets_verdict, set_count
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import in_puzzle_words, plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline.policy import time_left
from trailkit.solvers.pipeline.proving import prove
from trailkit.solvers.tools.repair.changes import (
    Change,
    apply_changes,
    changes_json,
    describe_changes,
)
from trailkit.solvers.tools.repair.fewest_formula import formula_claim
from trailkit.solvers.tools.repair.size_by_size import change_sets

__all__ = ["fewest_claim"]


def fewest_claim(puzzle: Puzzle, rules: Any, candidates: Sequence[Change],
                 chosen: Sequence[Change], repaired: Puzzle, walk: Walk, original: Answer,
                 limits: Limits, *, minimal: bool, rests_on: str,
                 known: Mapping[tuple[int, ...], Certificate] | None = None) -> Claim:
    """The ``fewest-changes`` claim for the repair ``chosen`` (its puzzle ``repaired``
    with the verified ``walk``), under ``rules`` with ``candidates`` the changes they
    allow: checked with a ``change-sets`` certificate, or why not and what it rests on
    (``rests_on``, the search's proof). ``known`` are the certificates the repair search
    already has, by set of candidate indices (each still checked with the whole). A
    smaller repair found while certifying, where the search said ``minimal``, is a bug,
    raised as :class:`VerificationFailure`."""
    k = len(chosen)
    rests = f"; rests on the repair search: {rests_on}" if rests_on else ""
    needed = set_count(len(candidates), k)
    if needed > SET_LIMIT:
        return formula_claim(puzzle, rules, chosen, repaired, walk, limits, minimal=minimal,
                             rests=rests, sets=f"{needed:,} change sets to refute; limit "
                             f"{SET_LIMIT:,}")
    began = time.perf_counter()
    sets: list[dict[str, Any]] = []
    for size in range(k):
        for combo in change_sets(candidates, size):
            changes = [candidates[i] for i in combo]
            left = replace(limits, time_limit=time_left(limits, began))
            made = (known or {}).get(combo) or _refuted(puzzle, changes, original, left)
            if isinstance(made, Answer):
                if minimal:
                    raise VerificationFailure(
                        f"the repair search proved {k} changes the fewest, but "
                        f"{describe_changes(puzzle, changes)} repairs the puzzle")
                return Claim("fewest-changes", False, value=k, why=(
                    "not certified (a repair of " f"{plural(size, 'change')} exists: "
                    f"{in_puzzle_words(puzzle, describe_changes(puzzle, changes))})"))
            if isinstance(made, str):  # the one formula may still do
                return formula_claim(puzzle, rules, chosen, repaired, walk,
                                     replace(limits, time_limit=time_left(limits, began)),
                                     minimal=minimal, rests=rests, sets=made)
            sets.append({"changes": changes_json(puzzle, changes),
                         "certificate": made.to_json()})
    return _checked_claim(puzzle, rules, len(candidates), chosen, repaired, walk, sets)


def _checked_claim(puzzle: Puzzle, rules: Any, candidates: int, chosen: Sequence[Change],
                   repaired: Puzzle, walk: Walk, sets: list[dict[str, Any]]) -> Claim:
    """The ``change-sets`` certificate made of the refuted ``sets`` (one certificate each)
    and the repair ``chosen`` with its ``walk``, and the claim it proves once the
    independent checker accepted it: a rejection is a bug in the maker, raised loudly."""
    k = len(chosen)
    data = {"changes": k, "candidates": candidates, "sets": sets,
            "repair": {"changes": changes_json(puzzle, chosen),
                       "start": repaired.nodes[walk.nodes[0]] if walk.nodes else None,
                       "walk": [repaired.edge_id(e) for e in walk.edges]}}
    certificate = Certificate("change-sets", data, (
        f"each of the {plural(len(sets), 'set')} of fewer than {plural(k, 'change')} the "
        f"repair rules allow leaves the puzzle unsolvable (a certificate for each), and "
        f"this repair of {plural(k, 'change')} has a walk" if k else
        "the puzzle as given has a walk: no change is needed"))
    verdict = change_sets_verdict(puzzle, data, rules=rules)
    if verdict.problems:
        raise VerificationFailure("the fewest-changes certificate is rejected by the "
                                  f"independent checker: {verdict.problems[0]}")
    return Claim("fewest-changes", True, certificate, value=k, holds=verdict.holds)


def _refuted(puzzle: Puzzle, changes: Sequence[Change], original: Answer, limits: Limits
             ) -> Certificate | Answer | str:
    """A checked certificate that ``puzzle`` with ``changes`` is unsolvable; the verified
    answer when it is solvable; or why no certificate was made."""
    if not changes and original.certificate_checked and original.certificate is not None:
        return original.certificate
    if limits.time_limit == 0:
        return "the time limit was reached before every change set was refuted"
    proof = prove(apply_changes(puzzle, changes), limits=limits)
    if proof.status is Status.UNSOLVABLE and proof.certificate is not None:
        return proof.certificate
    what = "the puzzle as given" if not changes else \
        in_puzzle_words(puzzle, describe_changes(puzzle, changes))
    if proof.status is Status.SOLVED:
        return Answer(Status.SOLVED, "direct", reason=proof.reason)
    return f"no unsolvability certificate for {what}: {proof.reason}"
