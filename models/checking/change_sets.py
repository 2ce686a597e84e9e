"""The ``change-sets`` certificate of the claim ``fewest-changes``: no repair is smaller.

A repair of ``k`` changes has the fewest when every set of at most ``k`` - 1 changes the
spec's ``repair:`` rules allow leaves the puzzle unsolvable. The certificate lists each
such set with an unsolvability certificate of the puzzle it makes (of a kind that proves
no walk exists, :mod:`trailkit.models.checking.claim_table`: a certificate that holds but
proves something else, such as a count, is rejected), and one repair of ``k`` changes
with its walk (``k`` = 0: no set, and the puzzle's own walk)::

    {"changes": 2, "candidates": 6,
     "sets": [{"changes": [], "certificate": {"type": "disconnected", ...}},
              {"changes": [{"op": "add", "from": "1", "to": "3", "colour": null}],
               "certificate": {"type": "parity", ...}}, ...],
     "repair": {"changes": [CHANGE, CHANGE], "start": "2", "walk": [EDGE ID, ...]}}

(``CHANGE``: the contract's change object.) The checker trusts none of it. It derives
the allowed changes from the rules itself, sharing no code with the repair search
(:mod:`trailkit.models.formulas.repair_changes`). It lists every set of fewer than ``k``
of them touching distinct existing edges, applies each to the puzzle itself and has that
set's certificate checked by the checker of its kind; the repair is applied alike, its
walk verified.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.check_words import Verdict
from trailkit.models.checking.claim_table import proven
from trailkit.models.formulas.repair_changes import (
    Key,
    allowed_changes,
    applied,
    change_key,
    repair_walk,
    set_key,
    set_words,
)
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import in_puzzle_words, plural

__all__ = ["SET_LIMIT", "allowed_changes", "change_sets_verdict", "set_count"]

SET_LIMIT = 2_000
"""The most change sets a ``change-sets`` certificate may need (sum of C(n, j), j < k)."""

def set_count(candidates: int, changes: int, *, stop: int | None = None) -> int:
    """Sets of fewer than ``changes`` of ``candidates`` changes, clashes included: the
    bound a certificate is held to before anything is made or checked (the sum stops
    once past ``stop``, for a file that states an absurd number).

    >>> set_count(6, 2), set_count(2016, 2), set_count(30, 4)
    (7, 2017, 4526)
    """
    total = 0
    for j in range(min(max(changes, 0), candidates + 1)):
        total += math.comb(candidates, j)
        if stop is not None and total > stop:
            break
    return total


def change_sets_verdict(puzzle: Puzzle, data: Mapping[str, Any], *, rules: Any = None
                        ) -> Verdict:
    """Check a ``change-sets`` certificate (module docstring) against ``puzzle``, under
    ``rules`` (the repair rules in force; default the spec's ``repair:`` block, read by
    the spec reader): why it is rejected, or what holds."""
    k = data.get("changes")
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        return Verdict([f"the number of changes {k!r} is not a whole number"])
    allowed = allowed_changes(puzzle, rules)
    if isinstance(allowed, str):
        return Verdict([allowed])
    if data.get("candidates") != len(allowed):
        return Verdict([f"the spec's repair rules allow {plural(len(allowed), 'change')}, "
                        f"the certificate counted {data.get('candidates')!r}"])
    if set_count(len(allowed), k, stop=SET_LIMIT) > SET_LIMIT:
        return Verdict([f"{plural(k, 'change')} would need more than {SET_LIMIT:,} change "
                        "sets refuted; the checker checks at most that many"])
    sets = data.get("sets")
    listed = {set_key(item["changes"]): item for item in
              (sets if isinstance(sets, list) else [])
              if isinstance(item, Mapping) and isinstance(item.get("changes"), list)}
    kinds: Counter[str] = Counter()
    for combo in _clash_free(puzzle, allowed, k):
        refuted = _refuted(puzzle, combo, listed.get(combo))
        if isinstance(refuted, str):
            return Verdict([refuted])
        kinds[refuted.kind] += 1
    walked = repair_walk(puzzle, allowed, data.get("repair"), k)
    if isinstance(walked, str):
        return Verdict([walked])
    return Verdict(holds=_holds(puzzle, k, kinds, len(allowed), walked))


def _refuted(puzzle: Puzzle, combo: tuple[Key, ...], item: Mapping[str, Any] | None
             ) -> Certificate | str:
    """The certificate ``item`` gives that the change set ``combo`` leaves the puzzle
    unsolvable, once checked on the changed puzzle; or why it does not show that (none
    given, rejected by its checker, or proving some other claim)."""
    if item is None:
        return f"no certificate for {set_words(puzzle, combo)}"
    order = [change_key(c) for c in item["changes"]]
    body = item.get("certificate")
    if not isinstance(body, Mapping):
        return f"no certificate for {set_words(puzzle, combo)}"
    certificate = Certificate.from_json(body)
    changed = applied(puzzle, order)
    found = verdict(changed, certificate)
    if found.problems:
        return (f"the {certificate.kind} certificate for "
                f"{set_words(puzzle, combo)} fails: {found.problems[0]}")
    shown = proven(changed, certificate)
    if "unsolvable" not in shown.claims:  # it holds, but of something else
        return (f"the {shown.kind} certificate for {set_words(puzzle, combo)} "
                f"proves {shown.says()}, not that no walk exists")
    return certificate


def _holds(puzzle: Puzzle, k: int, kinds: Counter[str], allowed: int, walked: int) -> str:
    """What an accepted certificate of ``k`` changes showed, in the checker's words."""
    if not k:
        return (f"the puzzle as given has a verified walk of {plural(walked, 'step')}: no "
                "change is needed")
    if k == 1:
        return in_puzzle_words(puzzle, (
            f"the puzzle as given is unsolvable ({next(iter(kinds))} certificate accepted), "
            f"and a repair of 1 change that the spec's repair rules allow "
            f"({plural(allowed, 'candidate change')}, derived by the checker) has a "
            f"verified walk of {plural(walked, 'step')}: no repair has fewer"))
    refuted = sum(kinds.values())
    return in_puzzle_words(puzzle, (
        f"each of the {plural(refuted, 'set')} of at most {plural(k - 1, 'change')} that the "
        f"spec's repair rules allow ({plural(allowed, 'candidate change')}, derived "
        "by the checker) leaves the puzzle unsolvable ("
        + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        + f" certificates accepted), and a repair of {plural(k, 'change')} has a verified "
        f"walk of {plural(walked, 'step')}: no repair has fewer"))


def _clash_free(puzzle: Puzzle, allowed: Sequence[Key], k: int) -> list[tuple[Key, ...]]:
    """Each set of fewer than ``k`` allowed changes touching distinct existing edges,
    once (as sorted keys)."""
    found: dict[tuple[Key, ...], None] = {}
    for j in range(min(k, len(allowed) + 1)):
        for combo in combinations(allowed, j):
            edges = [c[4] for c in combo if c[0] != "add"]
            if len(set(edges)) == len(edges):
                found[set_key(combo)] = None
    return list(found)


