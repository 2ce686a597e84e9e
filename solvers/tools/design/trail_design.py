"""``trailkit design trail``: a one-stroke figure whose counts are in the ranges asked.

A figure is a set of a field's touching pairs (its lines), some of them one-way with
``--unique-start``. The search draws random strokes on the field, each a random walk
that never reuses a line: the lines of a stroke are connected and have an Euler trail
by construction, so every candidate is a one-stroke figure. A stroke's length is
steered by the counts: longer while the figure has too few drawings (or failures),
shorter while it has too many. Each candidate is judged by direct's exact count (the
BEST theorem over Eulerian orientations) or, when failures are asked for, by direct's
enumeration of every walk (:mod:`.figure_judge`).

Targets (:class:`TrailTargets`):

* ``solutions``: the number of one-stroke drawings, as ``trailkit count`` gives it;
* ``failures``: the number of failures (walks that get stuck before every line is
  drawn), as ``trailkit count --failures`` gives it;
* ``unique_start``: exactly one point starts a drawing. A figure whose lines all go
  both ways never has that (its drawings start at both of its two odd points, or at
  any point when none is odd), so the search makes the fewest of the stroke's lines
  one-way that leave one start (:func:`_fewest_one_way`), the rest two-way: a stroke
  that ends where it began never can (its drawings are circuits, started anywhere);
  one from s to t can with the lines that enter t (or leave s) the way the stroke drew
  them, m + 1 of them at a point of 2m + 1 lines, and every smaller choice of one-way
  lines, each either way, is judged first; the figure says how many it has and
  whether fewer were all ruled out.

The figure kept is written as a spec, read back and certified
(:func:`~.figure_judge.certify_figure`): solved (the stroke verified), counted again by
the pipeline, its count certified by the ``count`` claim (the formula's ``best-formula``
certificate, the BEST theorem recomputed by the independent checker; with one-way lines
or failures asked for, the walks listed and every other walk refuted) or, where it
cannot be within the limits, the spec and the output say why and what the count rests
on.

Every count of drawings of a figure whose lines all go both ways is even (a drawing
drawn backwards is another), so such a range holding no even number is answered at once
as impossible.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass

from trailkit.solvers.tools.design.certify_design import DesignStatus, Made
from trailkit.solvers.tools.design.fields import Field
from trailkit.solvers.tools.design.figure_judge import (
    COUNT_RESTS_ON,
    Figure,
    Judged,
    certify_figure,
    judge,
    trail_spec_text,
)

__all__ = ["COUNT_RESTS_ON", "TrailTargets", "make_trails", "trail_spec_text"]


@dataclass(frozen=True, slots=True)
class TrailTargets:
    """What a figure must have: ``solutions`` and ``failures`` ranges (``(low, high)``,
    ``None``: any) and ``unique_start`` (exactly one point starts a drawing)."""

    solutions: tuple[int, int] | None = None
    failures: tuple[int, int] | None = None
    unique_start: bool = False

    def steer(self, got: Judged) -> int:
        """+1 when the figure needs more lines, -1 fewer, 0 when it meets the counts."""
        for bounds, value in ((self.solutions, got.solutions), (self.failures, got.failures)):
            if bounds is None or value is None:
                continue
            if value < bounds[0]:
                return 1
            if value > bounds[1]:
                return -1
        return 0

    def met(self, got: Judged) -> bool:
        return got.complete and self.steer(got) == 0 and (
            not self.unique_start or len(got.starts) == 1)

    def words(self) -> str:
        """The targets as the options that ask for them."""
        out = [f"--{name} {b[0]}..{b[1]}" for name, b in
               (("solutions", self.solutions), ("failures", self.failures)) if b]
        return " ".join(out + (["--unique-start"] if self.unique_start else []))


def _stroke(field: Field, rng: random.Random, length: int) -> list[tuple[int, int]]:
    """A random stroke of at most ``length`` lines, none used twice: each line with
    the node it was drawn from."""
    touching: dict[int, list[tuple[int, int]]] = {}
    for i, (u, v) in enumerate(field.pairs):
        touching.setdefault(u, []).append((i, v))
        touching.setdefault(v, []).append((i, u))
    at = rng.choice(sorted(touching))
    used: list[tuple[int, int]] = []
    while len(used) < length:
        free = [(i, v) for i, v in touching[at] if all(i != j for j, _ in used)]
        if not free:
            break
        i, v = rng.choice(free)
        used.append((i, at))
        at = v
    return used


def _figure(stroke: list[tuple[int, int]], one_way: dict[int, int] | None = None
            ) -> Figure:
    """The stroke's lines, sorted; those in ``one_way`` one-way (1: from the pair's first
    node, -1: towards it), the others two-way."""
    ways = one_way or {}
    return tuple(sorted((i, ways.get(i, 0)) for i, _ in stroke))


@dataclass(frozen=True, slots=True)
class OneWay:
    """The one-way lines of a one-start figure: ``figure``, and whether every figure of
    the same lines with fewer one-way lines was judged to have more than one start
    (``fewest``), or the time ran out first."""

    figure: Figure
    fewest: bool


def _fewest_one_way(field: Field, stroke: list[tuple[int, int]], deadline: float,
                    failures: bool) -> OneWay | None:
    """The stroke's lines with the fewest one-way lines that leave one start (module
    docstring); ``None`` for a stroke that ends where it began."""
    drawn = {i: 1 if field.pairs[i][0] == frm else -1 for i, frm in stroke}
    ends = [frm for _, frm in stroke[:1]] + [_to(field, *stroke[-1])] if stroke else []
    if not ends or ends[0] == ends[1]:
        return None
    leave = {i: w for (i, frm), w in zip(stroke, drawn.values(), strict=True)
             if frm == ends[0]}
    enter = {i: w for (i, frm), w in zip(stroke, drawn.values(), strict=True)
             if _to(field, i, frm) == ends[1]}
    enough = min(leave, enter, key=len)
    lines = [i for i, _ in stroke]
    for k in range(len(enough)):  # from none at all: every smaller choice judged
        for chosen in itertools.combinations(lines, k):
            for ways in itertools.product((1, -1), repeat=k):
                if time.monotonic() >= deadline:
                    return OneWay(_figure(stroke, enough), False)
                figure = _figure(stroke, dict(zip(chosen, ways, strict=True)))
                got = judge(field, figure, deadline, failures=failures)
                if not got.complete:
                    return OneWay(_figure(stroke, enough), False)
                if len(got.starts) == 1:
                    return OneWay(figure, True)
    return OneWay(_figure(stroke, enough), True)


def _to(field: Field, pair: int, frm: int) -> int:
    """The node a stroke's line ``pair``, drawn from ``frm``, goes to."""
    u, v = field.pairs[pair]
    return v if frm == u else u


@dataclass(frozen=True, slots=True)
class _Found:
    figure: Figure | None
    judged: Judged | None
    tries: int
    best: Judged | None = None
    one_way: OneWay | None = None


def _search(field: Field, targets: TrailTargets, seed: int, deadline: float,
            made: frozenset[Figure]) -> _Found:
    """Random strokes, their length steered by the counts, until one meets every
    target (``best``: the last complete judgement, for what a miss lacks)."""
    rng = random.Random(seed)
    length = max(1, len(field.pairs) // 2)
    tries, best = 0, None
    while time.monotonic() < deadline:
        tries += 1
        stroke = _stroke(field, rng, length)
        figure, one_way = _figure(stroke), None
        if not targets.unique_start:  # as many draws as before: each seed's figures stay
            for _ in stroke:
                rng.random()
        else:
            one_way = _fewest_one_way(field, stroke, deadline, targets.failures is not None)
            if one_way is None:  # a closed stroke: started anywhere, so longer or shorter
                length = min(len(field.pairs), max(1, length + rng.choice((-1, 1))))
                continue
            figure = one_way.figure
        if figure in made:
            length = min(len(field.pairs), length + 1)
            continue
        got = judge(field, figure, deadline, failures=targets.failures is not None)
        if not got.complete:
            if time.monotonic() >= deadline:
                break
            length = max(1, length - 1)  # too many walks to count in time: smaller
            continue
        best = got
        if targets.met(got):
            return _Found(figure, got, tries, got, one_way)
        step = targets.steer(got)
        length = min(len(field.pairs), max(1, length + (step or rng.choice((-1, 1)))))
    return _Found(None, None, tries, best)


def _impossible(low: int, high: int, targets: TrailTargets) -> str:
    """Why no figure can meet the targets (empty: some may)."""
    if not targets.unique_start and low == high and low % 2:
        return (f"no figure has {low} one-stroke drawings: every count is even (each "
                "drawing drawn backwards is another)")
    return ""


def make_trails(field: Field, low: int = 1, high: int = 1_000_000, *, seed: int,
                how_many: int, time_limit: float, made: str,
                failures: tuple[int, int] | None = None, unique_start: bool = False
                ) -> tuple[Made, ...]:
    """Up to ``how_many`` different figures with ``low`` to ``high`` drawings (and, when
    given, ``failures`` in range, one start with ``unique_start``), within
    ``time_limit`` seconds of search in all; each written, read back and certified."""
    started = time.monotonic()
    targets = TrailTargets((low, high), failures, unique_start)
    why = _impossible(low, high, targets)
    if why:
        return (Made(DesignStatus.IMPOSSIBLE, None, None, 0, (), (why,), seed, 0, 0.0),)
    out: list[Made] = []
    done: set[Figure] = set()
    for n in range(how_many):
        t0 = time.monotonic()
        found = _search(field, targets, seed + n, started + time_limit, frozenset(done))
        took = time.monotonic() - t0
        if found.figure is None or found.judged is None:
            out.append(Made(DesignStatus.NOT_FOUND, None, None, 0, (),
                            _lacks(targets, found.best), seed + n, found.tries, took))
            break
        done.add(found.figure)
        done_ = certify_figure(field, found.figure, found.judged,
                               made=f"{made} --seed {seed + n}", claim_seconds=time_limit,
                               unique_start=unique_start,
                               fewest=found.one_way.fewest if found.one_way else None)
        out.append(Made(DesignStatus.DESIGNED, done_.text, len(found.figure),
                        found.judged.solutions, done_.claims, (), seed + n, found.tries, took,
                        done_.measures, done_.certificates))
    return tuple(out)


def _lacks(targets: TrailTargets, best: Judged | None) -> tuple[str, ...]:
    """What the search's last figure lacked when the time ran out, in words."""
    head = f"no figure with {targets.words()} was found before the time ran out"
    if best is None:
        return (head,)
    have = [f"{best.solutions:,} drawings"]
    if best.failures is not None:
        have.append(f"{best.failures:,} failures")
    if targets.unique_start:
        have.append(f"{len(best.starts)} points that start a drawing")
    return (f"{head} (the last figure counted had {', '.join(have)})",)
