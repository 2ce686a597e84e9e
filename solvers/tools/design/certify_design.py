"""Designs made, written as specs, read back and certified by the pipeline.

The search's judge (:mod:`.colour_search`) only proposes. Each design it finds is
written as spec text (:mod:`.spec_out`), read back by the spec reader, and then:

* **solved** by the pipeline: a walk verified by the independent checker, proven
  shortest by the direct backend's state search; its length must meet
  ``--min-length``/``--max-length``;
* **counted** by the pipeline (the shortest walks, the count cross-checked by a
  second backend): it must equal the judge's count, and be 1 for ``--unique``;
* for ``--robust``, each plank of the walk taken away in turn and the puzzle solved
  again: a verified walk each time (a plank off the walk cannot be critical).

A design that fails any of these is a bug in the search and raises
:class:`VerificationFailure`; it is never written.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from trailkit.models.answer import Claim, Status, Walk
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.models.support.words import listing, plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline import count, solve
from trailkit.solvers.pipeline.claims import shortest_claim, unique_claim
from trailkit.solvers.support.interrupts import passed_on
from trailkit.solvers.tools.design.colour_search import (
    Design,
    Targets,
    longest_possible,
    search,
)
from trailkit.solvers.tools.design.fields import Field
from trailkit.solvers.tools.design.inspection import without_edge
from trailkit.solvers.tools.design.spec_out import design_spec_text
from trailkit.solvers.tools.design.states import summarise, trap_step_range

__all__ = ["DesignStatus", "Made", "make_designs"]


class DesignStatus(StrEnum):
    """``designed``: every target met and certified; ``not-found``: the time ran out
    first (``text`` then holds the best found, saying what it lacks); ``impossible``:
    no colouring of the field can meet the targets."""

    DESIGNED = "designed"
    NOT_FOUND = "not-found"
    IMPOSSIBLE = "impossible"


@dataclass(frozen=True, slots=True)
class Made:
    """One design: its status, spec text (``None`` when there is nothing to write), the
    shortest length (a figure's lines) and number of shortest walks (a figure's
    drawings), the claims certified (sentences), what it lacks, the seed, the search's
    tries, the time taken, its measures by name (traps, failures, ...) and the
    contract's claims where one was made (checked, or saying why not), and the puzzle
    they speak of (its names name a refuted claim's witness)."""

    status: DesignStatus
    text: str | None
    length: int | None
    walks: int
    claims: tuple[str, ...]
    lacks: tuple[str, ...]
    seed: int
    tries: int
    time_s: float
    measures: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    certificates: tuple[Claim, ...] = ()
    puzzle: Puzzle | None = None


_NOT_ROBUST = "some plank is critical (not robust)"


def _lacks(design: Design, targets: Targets) -> tuple[str, ...]:
    """What a design that missed its targets lacks, in words."""
    if design.length is None:
        return ("the goal cannot be reached at all",)
    out = []
    if design.length < targets.min_length:
        out.append(f"its shortest walk has {design.length} steps, not at least "
                   f"{targets.min_length}")
    if targets.max_length is not None and design.length > targets.max_length:
        out.append(f"its shortest walk has {design.length} steps, not at most "
                   f"{targets.max_length}")
    if targets.unique and design.walks > 1:
        out.append(f"it has {design.walks:,} shortest walks, not one")
    if design.traps is not None and design.trap_steps is not None:
        out += _trap_lacks(design.traps, design.trap_steps, targets)
    if not out and targets.robust:
        out.append(_NOT_ROBUST)
    return tuple(out) or ("it repeats a design already made",)


def _trap_lacks(traps: int, steps: tuple[int, int], targets: Targets) -> list[str]:
    """What a design's traps and trap steps lack, in words."""
    out = []
    if targets.traps and not targets.traps[0] <= traps <= targets.traps[1]:
        out.append(f"it has {plural(traps, 'trap')}, not {targets.traps[0]} to "
                   f"{targets.traps[1]}")
    low, high = targets.trap_steps or (0, 0)
    if targets.trap_steps and not (low <= steps[0] and steps[1] <= high):
        have = f"{steps[0]}" if steps[0] == steps[1] else f"{steps[0]} to {steps[1]}"
        out.append(f"its shortest walks have {have} trap steps, not all {low} to {high}")
    return out


def _impossible(field: Field, targets: Targets) -> str:
    """Why no colouring of ``field`` can meet the targets (empty: some may)."""
    bound = longest_possible(field, targets.colours)
    if targets.min_length > bound:
        return (f"no colouring can have a shortest walk of {targets.min_length} steps: a "
                f"shortest walk enters a new (place, last colour) situation at every step, "
                f"and {len(field.nodes)} places with {targets.colours} colours have {bound}")
    most_traps = (len(field.nodes) - 1) * targets.colours
    if targets.traps and targets.traps[0] > most_traps:
        return (f"no colouring can have {targets.traps[0]} traps: a trap is a (place, last "
                f"colour) situation at a place other than the goal, and "
                f"{len(field.nodes)} places with {targets.colours} colours have "
                f"{most_traps}")
    longest = min(bound, targets.max_length or bound)
    if targets.trap_steps and targets.trap_steps[0] > longest:
        return (f"no colouring can have {targets.trap_steps[0]} trap steps: a shortest walk "
                f"here has at most {longest} steps")
    return ""


def _measured(puzzle: Puzzle, design: Design) -> tuple[str, dict[str, Any]]:
    """The traps and the trap steps of every shortest walk, measured by the state passes
    ``inspect`` reports (:mod:`.states`), in words and by name; when the search measured
    them too, the two must agree."""
    summary = summarise(puzzle)
    steps = trap_step_range(summary)
    if design.traps is not None and (len(summary.traps), steps) != (design.traps,
                                                                     design.trap_steps):
        raise VerificationFailure(
            f"the design search measured {design.traps} traps and trap steps "
            f"{design.trap_steps}; inspect's state passes {len(summary.traps)} and {steps}")
    assert steps is not None
    span = f"{steps[0]}" if steps[0] == steps[1] else f"{steps[0]} to {steps[1]}"
    return (f"measured: {plural(len(summary.traps), 'trap')}, {span} trap steps on every "
            "shortest walk (inspect's state passes, agreeing with the search's; measures, "
            "not certified claims)",
            {"traps": len(summary.traps), "trap_steps": list(steps),
             "situations": summary.reached})


def _certify(puzzle: Puzzle, design: Design, targets: Targets, limits: Limits,
             promised: bool) -> tuple[tuple[str, ...], tuple[Claim, ...], str | None]:
    """Solve, count and (robust) solve without each walk plank; the claims certified, in
    words, the ``shortest`` and ``unique`` claims themselves, and what a design not
    ``promised`` to meet its targets (the best found) lacks in robustness. Raises
    :class:`VerificationFailure` when the pipeline disagrees with the search."""
    answer = solve(puzzle, limits=limits)
    if answer.status is not Status.SOLVED or answer.length != design.length:
        raise VerificationFailure(f"the design search found a shortest walk of "
                                  f"{design.length} steps, the pipeline {answer.length}")
    assert answer.walk is not None
    shortest = shortest_claim(puzzle, answer.walk)
    unique = unique_claim(puzzle, answer.walk)
    counted = passed_on(count(puzzle, limits=limits))
    if not counted.complete or counted.solutions != design.walks or not shortest.checked \
            or (targets.unique and not (unique.checked and unique.value is True)):
        raise VerificationFailure(
            f"the design search counted {design.walks} shortest walks, the pipeline "
            f"{counted.solutions}; shortest claim: {shortest.holds or shortest.why}; "
            f"unique claim: {unique.holds or unique.why}")
    checked = "certificate accepted by the independent checker"
    claims = [f"certified: shortest walk {answer.length} steps (the walk verified, no "
              f"shorter walk: layers {checked})"]
    if unique.value is True and unique.checked:
        claims.append(f"certified: the shortest walk is unique (layers {checked})")
    else:
        claims.append(f"counted, not certified: {plural(counted.solutions, 'shortest walk')}"
                      f" (by {counted.backend})")
    lacks = _robust(puzzle, answer.walk, limits, promised) if targets.robust else None
    if targets.robust and lacks is None:
        claims.append("certified: robust: without any one plank of the walk a walk "
                      "remains, each verified (a plank off the walk cannot be critical)")
    return tuple(claims), (shortest, unique), lacks


def _robust(puzzle: Puzzle, walk: Walk, limits: Limits, promised: bool) -> str | None:
    """``None`` when a walk remains without any one plank of ``walk`` (each solved);
    else, for a design not ``promised`` robust (the best found), the planks it cannot
    lose, in words. A promised design with a critical plank is a loud failure."""
    critical = []
    for e in dict.fromkeys(walk.edges):
        other = solve(without_edge(puzzle, e), limits=limits)
        if other.status is not Status.SOLVED:
            if promised:
                raise VerificationFailure(f"the design search found no critical plank, "
                                          f"but without {puzzle.describe_edge(e)} the "
                                          f"puzzle is {other.status.value}")
            critical.append(puzzle.describe_edge(e))
    if not critical:
        return None
    return (f"not robust: without {listing(critical, 'or')} no walk remains "
            f"({plural(len(critical), 'critical plank')})")


def make_designs(field: Field, targets: Targets, names: tuple[str, ...], *, seed: int,
                 how_many: int, time_limit: float, made: str, best_effort: bool = False
                 ) -> tuple[Made, ...]:
    """Up to ``how_many`` different certified designs within ``time_limit`` seconds in
    all; stops at the first that is not found (with the best found when
    ``best_effort``)."""
    started = time.perf_counter()
    why = _impossible(field, targets)
    if why:
        return (Made(DesignStatus.IMPOSSIBLE, None, None, 0, (), (why,), seed, 0, 0.0),)
    out: list[Made] = []
    designed: set[tuple[int, ...]] = set()
    for n in range(how_many):
        left = time_limit - (time.perf_counter() - started)
        design = search(field, targets, seed + n, max(0.0, left), frozenset(designed))
        found = design.meets_targets and design.colour not in designed
        if not found and not (best_effort and design.length is not None):
            out.append(Made(DesignStatus.NOT_FOUND, None, design.length, design.walks, (),
                            _lacks(design, targets), seed + n, design.tries, design.time_s))
            break
        designed.add(design.colour)
        out.append(_written(field, design, targets, names, seed + n, made, found))
        if not found:
            break
    return tuple(out)


def _written(field: Field, design: Design, targets: Targets, names: tuple[str, ...],
             seed: int, made: str, found: bool) -> Made:
    """The design as a spec, read back and certified."""
    expect = {"status": "solved", "length": design.length, "solutions": design.walks}
    sketch = design_spec_text(field, design.colour, names, start=targets.start,
                              goal=targets.goal, made=made, claims=(), expect=expect)
    puzzle = load_spec_text(sketch, source="<design>")
    claims, certificates, fragile = _certify(puzzle, design, targets, Limits(), found)
    said, measures = _measured(puzzle, design)
    claims = (*claims, said)
    lacks = () if found else tuple(
        lack for lack in _lacks(design, targets) if lack != _NOT_ROBUST or fragile is None
    ) + ((fragile,) if fragile else ())
    notes = [f"{claim[0].upper()}{claim[1:]}." for claim in claims]
    notes += [f"NOT MET (best found when the time ran out): {lack}." for lack in lacks]
    text = design_spec_text(field, design.colour, names, start=targets.start,
                            goal=targets.goal, made=f"{made} --seed {seed}", claims=notes,
                            expect=expect)
    status = DesignStatus.DESIGNED if found else DesignStatus.NOT_FOUND
    return Made(status, text, design.length, design.walks, claims, lacks, seed,
                design.tries, design.time_s, measures, certificates, puzzle)
