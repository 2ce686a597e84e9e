"""How many claims carry a checked certificate on the test suite's random corpus (issue 32).

Run: ``python tests/bench/bench_claim_coverage.py [COUNT] [SEED] [TIME_LIMIT]`` (default
300 puzzles of ``tests/corpus.py``, seed 15, 20 s a command). For every answer the
pipeline gives with ``optimal: true`` (``solve --unique``, direct, no cross-check: its
``shortest`` or ``longest`` claim, and its ``unique`` claim), every complete count of at
most 100,000 solutions (``count``'s own claim, and where it makes none the one ``prove
--claim count`` makes), every repair (``repair``) and every core
(``explain``), it counts the claims whose certificate the independent checker accepted
and tallies the reasons of the rest (their ``why`` up to what it rests on, numbers
masked). The corpus has no
``objective: longest``; each at-most-once puzzle is also asked with it (rows marked
"longest variant").
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import random_corpus

from trailkit.models.answer import Claim, Status
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline.claims import fewest_changes_claim
from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.refuted_claims import count_claim
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.explanation import explain
from trailkit.solvers.tools.repair.fewest_changes import repair

COUNT_BOUND = 100_000


class Tally:
    """Claims of one kind: how many, how many checked, the reasons of the rest."""

    def __init__(self) -> None:
        self.total = self.checked = 0
        self.reasons: Counter[str] = Counter()

    def add(self, claim: Claim | None, missing: str = "") -> None:
        self.total += 1
        if claim is not None and claim.checked:
            self.checked += 1
            return
        why = (claim.why if claim is not None else missing).split("; rests on")[0]
        self.reasons[re.sub(r"\d[\d,.]*", "N", why or "(no why given)")] += 1


def _claim(claims: tuple[Claim, ...], name: str) -> Claim | None:
    return next((c for c in claims if c.claim == name), None)


def _answers(puzzle: Puzzle, limits: Limits, rows: dict[str, Tally], suffix: str) -> None:
    answer = solve(puzzle, "direct", limits, crosscheck=None, unique=True)
    if answer.status is not Status.SOLVED or not answer.optimal:
        return
    best = "longest" if puzzle.wants_longest else "shortest"
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        rows[f"optimal: {best}{suffix}"].add(_claim(answer.claims, best),
                                             "no claim made")
    rows[f"optimal: unique{suffix}"].add(_claim(answer.claims, "unique"), "no claim made")


def _others(puzzle: Puzzle, limits: Limits, rows: dict[str, Tally]) -> None:
    counted = count(puzzle, "direct", limits, crosscheck=None)
    if counted.complete and counted.solutions <= COUNT_BOUND:
        own = _claim(counted.claims, "count")
        rows["count <= 100,000 (count's own claim)"].add(own, "no count claim made")
        if own is None:  # what prove --claim count makes (up to 100,000 walks)
            own = count_claim(puzzle, limits, rests_on="direct's enumeration")
        rows["count <= 100,000 (with prove --claim count)"].add(own)
    fixed = repair(puzzle, limits=limits)
    if fixed.changes is not None and fixed.changes > 0:
        rows["repair (fewest changes)"].add(fixed.claim or fewest_changes_claim(
            fixed.changes, fixed.original, minimal=fixed.minimal, proof=fixed.proof))
    explained = explain(puzzle, limits)
    core = explained.core
    if core is not None and core.edges:
        rows["core (minimal)"].add(core.claim())


def main() -> None:
    number = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    limits = Limits(time_limit=float(sys.argv[3]) if len(sys.argv) > 3 else 20.0)
    rows: dict[str, Tally] = defaultdict(Tally)
    for puzzle in random_corpus(number, seed):
        _answers(puzzle, limits, rows, "")
        if puzzle.use is EdgeUse.AT_MOST_ONCE:
            longest = dataclasses.replace(puzzle, objective=Objective.LONGEST)
            _answers(longest, limits, rows, " (longest variant)")
        _others(puzzle, limits, rows)
    print(f"{number} puzzles (tests/corpus.py, seed {seed}, {limits.time_limit:g} s a "
          "command)\n")
    print("| claims | made | checked | share | why not (the rest) |")
    print("|---|---|---|---|---|")
    for name, row in sorted(rows.items()):
        why = "; ".join(f"{n}x {text}" for text, n in row.reasons.most_common())
        print(f"| {name} | {row.total} | {row.checked} | "
              f"{100 * row.checked / max(1, row.total):.1f}% | {why} |")


if __name__ == "__main__":
    main()
