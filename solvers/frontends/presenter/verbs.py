"""The verbs, composed once for both front doors: each runs the library's verb on a loaded
puzzle and says its outcome in words and in JSON.

The command line (:mod:`trailkit.solvers.frontends.cli`) and the workshop
(:mod:`trailkit.solvers.frontends.workshop.jobs`) both call these, so a verb asked of
either runs the same pipeline with the same options and is said in the same words; each
front door then adds only what is its own (the command line: files written, exit codes,
progress lines on a terminal; the workshop: pictures and steps for the page).

``clock``, where a verb takes one, gives the time the answer is to say it took (the
command line's wall time from its start: CONTRACT 1.4 §7, "times are wall times"); without
one the library's own measure stands.

>>> from trailkit.models.spec import load_spec_text
>>> said = count_verb(load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c]\\n"),
...                   "line.yaml", None)
>>> said.data["solutions"], said.text.splitlines()[1].split()
(2, ['solutions:', '2'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.frontends.presenter.claim_words import (
    proved_claim_document,
    proved_claim_text,
)
from trailkit.solvers.frontends.presenter.inspect import inspect_said
from trailkit.solvers.frontends.presenter.repairs import (
    explain_json,
    explain_text,
    repair_json,
    repair_text,
)
from trailkit.solvers.frontends.presenter.results import count_json, count_text
from trailkit.solvers.pipeline.policy import AUTO

if TYPE_CHECKING:
    from trailkit.models.puzzle import Puzzle
    from trailkit.models.repair_rules import RepairRules

__all__ = ["Said", "claim_verb", "count_verb", "explain_verb", "inspect_verb", "repair_verb"]


@dataclass(frozen=True)
class Said:
    """A verb's outcome: the library's ``result`` (a count, an explanation, ...), and
    what both front doors say of it, ``text`` for people and ``data`` (the contract's
    JSON object)."""

    result: Any
    text: str
    data: dict[str, Any]


def count_verb(puzzle: Puzzle, source: str, backend: str | None,
               limits: Limits = NO_LIMITS, *, failures: bool = False, method: str = "auto",
               crosscheck: str | None = AUTO, precheck: bool = True,
               progress: Callable[[int], None] | None = None,
               clock: Callable[[], float] | None = None,
               shown: Callable[[str], str] = str) -> Said:
    """``count``: the puzzle's solutions (and, asked, failures); ``shown`` spells a
    start's name as the console shows it (the table's column widths)."""
    from trailkit.solvers.pipeline.counting import count

    result = count(puzzle, backend, limits, failures=failures, method=method,
                   crosscheck=crosscheck, precheck=precheck, progress=progress)
    if clock is not None:
        result = replace(result, stats={**result.stats, "time_s": clock()})
    return Said(result, count_text(puzzle, result, source, failures, shown=shown),
                count_json(puzzle, result, source, failures))


def explain_verb(puzzle: Puzzle, source: str, limits: Limits = NO_LIMITS) -> Said:
    """``explain``: why the puzzle has no walk (its core, its near misses)."""
    from trailkit.solvers.tools.repair.explanation import explain

    found = explain(puzzle, limits)
    return Said(found, explain_text(found, source), explain_json(found, source))


def repair_verb(puzzle: Puzzle, source: str, rules: RepairRules | None,
                limits: Limits = NO_LIMITS, *, max_changes: int | None = None,
                all_repairs: bool = False, backend: str = "auto") -> Said:
    """``repair``: the fewest allowed changes that make the puzzle solvable."""
    from trailkit.solvers.tools.repair.fewest_changes import repair

    result = repair(puzzle, rules, max_changes=max_changes, all_repairs=all_repairs,
                    backend=backend, limits=limits)
    return Said(result, repair_text(result, source), repair_json(result, source))


def inspect_verb(puzzle: Puzzle, source: str, limits: Limits = NO_LIMITS, *,
                 clock: Callable[[], float] | None = None) -> Said:
    """``inspect``: what the puzzle cannot lose, and its measures."""
    from trailkit.solvers.tools.design.inspection import inspect_puzzle

    result = inspect_puzzle(puzzle, limits)
    if clock is not None:
        result = replace(result, time_s=clock())
    text, data = inspect_said(puzzle, result, source)
    return Said(result, text, data)


def claim_verb(puzzle: Puzzle, source: str, claim: str, limits: Limits = NO_LIMITS, *,
               drup: bool = False, out: str | None = None,
               then: Callable[[Any], Any] | None = None) -> Said:
    """``prove --claim C`` for every claim but ``unsolvable`` (whose proof a backend
    makes): the claim certified, or why not; ``out`` names where the certificate file
    goes, for the JSON; ``then``, given, turns the proof into the one to say (the
    command line's: with a DRUP proof for ``--proof-dir``). The result is the
    :class:`~trailkit.solvers.pipeline.proving.Proof`."""
    from trailkit.solvers.tools.repair.claim_choice import certify_claim

    proof = certify_claim(puzzle, claim, limits, spec_path=source, drup=drup)
    if then is not None:
        proof = then(proof)
    return Said(proof, claim_words(puzzle, claim, proof),
                proved_claim_document(source, proof, claim, out, puzzle))


def claim_words(puzzle: Puzzle, claim: str, proof: Any) -> str:
    """What is said of a proof of ``claim``."""
    return proved_claim_text(puzzle, claim, proof.status, proof.claim, proof.length,
                             proof.reason)
