"""A one-stroke figure of ``design trail``: written as a spec, counted, certified.

A figure (:data:`Figure`) is its lines, each a field pair with its way (0: both ways;
1: one-way from the pair's first node; -1: towards it). :func:`judge` is the search's
fast judge: direct's exact count (BEST theorem) of the drawings and the points they
start from, or, when failures are asked for, direct's enumeration of every walk.

:func:`certify_figure` does not trust the judge. The figure is written as a spec
(:func:`trail_spec_text`), read back, and then:

* **solved** by the pipeline (a stroke verified by the independent checker);
* **counted** by the pipeline, which must agree with the judge; the count is
  certified by the ``count`` claim
  (:func:`~trailkit.solvers.pipeline.refuted_claims.count_claim`), or the spec and the
  output say why it is not and what it rests on;
* **failures** (when asked for) counted again by the pipeline; no certificate covers
  failures, so they are said to rest on direct's enumeration;
* **one start** (when asked for): the figure with every other point as its start is
  solved, and must be unsolvable, with a certificate the independent checker accepts.

A disagreement is a bug in the search, raised as :class:`VerificationFailure`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from trailkit.models.answer import Claim, Status
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.exact_count import exact_count
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline import count, solve
from trailkit.solvers.pipeline.refuted_claims import capped, count_claim
from trailkit.solvers.support.interrupts import passed_on
from trailkit.solvers.tools.design.fields import Field
from trailkit.solvers.tools.design.spec_out import layout_lines

__all__ = ["COUNT_RESTS_ON", "Certified", "Figure", "Judged", "certify_figure", "judge",
           "trail_spec_text"]

#: What a designed figure's count rests on when the count claim is not certified.
COUNT_RESTS_ON = "direct's exact count (BEST theorem)"
#: What failures rest on: no certificate covers them.
FAILURES_REST_ON = ("counted by direct's enumeration of every walk; not certified (no "
                    "certificate covers failures)")

Figure = tuple[tuple[int, int], ...]
"""A figure's lines: (field pair, way), sorted by pair."""


@dataclass(frozen=True, slots=True)
class Judged:
    """What the judge counted: drawings, failures and early failures (``None``: not
    asked), the points that start a drawing, and whether the count finished."""

    solutions: int
    failures: int | None
    early_failures: int | None
    starts: tuple[str, ...]
    complete: bool


def _line(field: Field, pair: int, way: int) -> str:
    u, v = (field.nodes[x] for x in field.pairs[pair])
    return f"  - {u} {v}" if way == 0 else f"  - {u} -> {v}" if way > 0 else f"  - {v} -> {u}"


def trail_spec_text(field: Field, figure: Figure, *, made: str, notes: tuple[str, ...] = (),
                    expect: dict[str, int] | None = None, expect_note: str = "",
                    start: tuple[str, ...] = ()) -> str:
    """The spec of ``figure`` on ``field``: kind ``trail``, the layout of the nodes it
    uses, ``start:`` when given (``start``), and (given ``expect``) an ``expect:`` block
    after the comment ``expect_note``."""
    used = sorted({v for i, _ in figure for v in field.pairs[i]})
    out = ["trailkit: 1", f'name: "Designed one-stroke figure ({field.shape})"',
           f"# Made by: {made}"]
    out += [f"# {note}" for note in notes]
    out.append("kind: trail")
    if start:
        out.append(f"start: [{', '.join(start)}]")
    out += layout_lines(field, used)
    out.append("edges:")
    out += [_line(field, i, way) for i, way in figure]
    if expect is not None:
        out += [f"# {expect_note}"] if expect_note else []
        out.append("expect: {status: solved, " + ", ".join(
            f"{k}: {v}" for k, v in expect.items()) + "}")
    return "\n".join(out) + "\n"


def judge(field: Field, figure: Figure, deadline: float, *, failures: bool) -> Judged:
    """The figure's counts, within the time left before ``deadline``."""
    puzzle = load_spec_text(trail_spec_text(field, figure, made="search"), source="<design>")
    left = max(0.0, deadline - time.monotonic())
    if failures:
        counted = passed_on(get_backend("direct").count(puzzle, Limits(time_limit=left),
                                                        failures=True))
    else:
        found = exact_count(puzzle, left)
        if found is None:
            raise VerificationFailure("the exact count does not apply to a designed figure")
        counted = passed_on(found)
    rows = counted.per_start or {}
    starts = tuple(name for name, row in rows.items() if row.solutions)
    return Judged(counted.solutions, counted.failures, counted.early_failures, starts,
                  counted.complete)


def _count_words(puzzle: Puzzle, judged: Judged, seconds: float) -> tuple[str, Claim]:
    """The drawings counted again by the pipeline and certified (the count claim), in
    words; a count other than the judge's is a loud failure."""
    counted = passed_on(count(puzzle))
    if not counted.complete or counted.solutions != judged.solutions:
        raise VerificationFailure(f"the design search counted {judged.solutions} drawings, "
                                  f"the pipeline {counted.solutions}")
    claim = next((c for c in counted.claims if c.claim == "count"), None)
    if claim is None:  # the pipeline certifies small counts itself, larger ones here
        claim = count_claim(puzzle, capped(Limits(time_limit=seconds)),
                            limit=max(judged.solutions, 1), rests_on=COUNT_RESTS_ON)
    if claim.checked and claim.value != judged.solutions:
        raise VerificationFailure(f"the count certificate says {claim.value} drawings, the "
                                  f"design search {judged.solutions}")
    n = plural(judged.solutions, "one-stroke drawing")
    if claim.checked:
        kind = claim.certificate.kind if claim.certificate else "count"
        return (f"certified: {n} (count: {kind} certificate accepted by the independent "
                "checker)"), claim
    return f"{n}: {claim.why}", claim


def _failures_words(puzzle: Puzzle, judged: Judged) -> str:
    """The failures counted again by the pipeline, in words (never certified)."""
    counted = passed_on(count(puzzle, "direct", failures=True))
    if (counted.failures, counted.early_failures) != (judged.failures, judged.early_failures):
        raise VerificationFailure(f"the design search counted {judged.failures} failures, "
                                  f"the pipeline {counted.failures}")
    return (f"{plural(judged.failures or 0, 'failure')} and "
            f"{plural(judged.early_failures or 0, 'early failure')}: {FAILURES_REST_ON}")


def _one_start_words(field: Field, figure: Figure, judged: Judged) -> str:
    """That no drawing starts anywhere but the judge's one start: the figure with every
    other point as its start solved by the pipeline, unsolvable and certified."""
    used = sorted({v for i, _ in figure for v in field.pairs[i]})
    others = tuple(field.nodes[v] for v in used if field.nodes[v] != judged.starts[0])
    if not others:
        return f"every drawing starts at {judged.starts[0]} (the figure's only point)"
    elsewhere = load_spec_text(trail_spec_text(field, figure, made="check", start=others),
                               source="<design>")
    answer = solve(elsewhere)
    if answer.status is not Status.UNSOLVABLE:
        raise VerificationFailure(f"the design search found one start, "
                                  f"{judged.starts[0]}, but from elsewhere the figure is "
                                  f"{answer.status.value}")
    how = (f"{answer.certificate.kind} certificate accepted by the independent checker"
           if answer.certificate_checked and answer.certificate is not None
           else f"not certified; rests on {answer.backend}")
    return (f"{'certified' if answer.certificate_checked else 'found'}: every drawing "
            f"starts at {judged.starts[0]} (from any other point the figure cannot be "
            f"drawn: {how})")


def _one_way_words(figure: Figure, fewest: bool | None) -> str:
    """``one-way lines: 2 of 15, the fewest that leave one start (...)``."""
    head = f"one-way lines: {sum(1 for _, way in figure if way)} of {len(figure)}"
    if fewest:
        return (f"{head}, the fewest that leave one start (every choice of fewer, each "
                "line either way, counted by direct's exact count: more than one start; "
                "not certified)")
    return f"{head} (fewer were not all tried before the time ran out)"


@dataclass(frozen=True, slots=True)
class Certified:
    """A figure certified: its spec text, its claims in words, its measures by name and
    the contract's claims (the ``count`` claim, checked or saying why not)."""

    text: str
    claims: tuple[str, ...]
    measures: dict[str, Any]
    certificates: tuple[Claim, ...]


def certify_figure(field: Field, figure: Figure, judged: Judged, *, made: str,
                   claim_seconds: float, unique_start: bool = False,
                   fewest: bool | None = None) -> Certified:
    """The figure written, read back and certified (see the module docstring); with one
    start asked for, how many of its lines are one-way, and (``fewest``) whether every
    choice of fewer was ruled out."""
    expect = {"length": len(figure), "solutions": judged.solutions}
    if judged.failures is not None and judged.early_failures is not None:
        expect.update(failures=judged.failures, early_failures=judged.early_failures)
    sketch = trail_spec_text(field, figure, made=made, expect=expect)
    puzzle = load_spec_text(sketch, source="<design>")
    answer = solve(puzzle)
    if answer.status is not Status.SOLVED or not answer.verified:
        raise VerificationFailure(f"a designed figure is {answer.status.value}")
    said, claim = _count_words(puzzle, judged, claim_seconds)
    claims = [said, "verified: a one-stroke drawing (the walk checked by the independent "
                    "checker)"]
    if judged.failures is not None:
        claims.append(_failures_words(puzzle, judged))
    if unique_start:
        claims.append(_one_start_words(field, figure, judged))
        claims.append(_one_way_words(figure, fewest))
    note = ("solutions certified by the count claim" if claim.checked
            else "solutions counted, not certified (see above)")
    if judged.failures is not None:
        note += "; failures and early failures counted, not certified"
    text = trail_spec_text(field, figure, made=made, expect=expect,
                           notes=tuple(f"{c[0].upper()}{c[1:]}." for c in claims),
                           expect_note=f"The expect: block: {note}.")
    load_spec_text(text, source="<design>")  # the file as written reads back
    measures: dict[str, Any] = {"lines": len(figure), "solutions": judged.solutions,
                                "one_way": sum(1 for _, way in figure if way),
                                "failures": judged.failures,
                                "early_failures": judged.early_failures,
                                "starts": list(judged.starts)}
    return Certified(text, tuple(claims), measures, (claim,))
