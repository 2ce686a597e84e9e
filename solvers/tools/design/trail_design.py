"""``trailkit design trail``: a one-stroke figure whose number of drawings is in a range.

A figure is a set of a field's touching pairs (its lines). The search draws random
strokes on the field, each a random walk that never reuses a line: the lines of a
stroke are connected and have an Euler trail by construction, so every candidate is a
one-stroke figure. A stroke's length is steered by the count: longer while the figure
has too few drawings, shorter while it has too many. Each candidate is counted by
direct's exact count (the BEST theorem over Eulerian orientations), and the figure kept
is written as a spec, read back, solved (the stroke verified) and counted again by the
pipeline, whose count claim carries the formula's ``best-formula`` certificate checked
by the independent checker: the spec and the output say "certified (BEST theorem
recomputed by the independent checker)", or, where none could be made, what the count
rests on: "counted by direct's exact count (BEST theorem); not certified (why)".

Every count is even (a drawing drawn backwards is another), so a range holding no even
number is answered at once as impossible.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from trailkit.models.answer import Status
from trailkit.models.errors import VerificationFailure
from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.direct.exact_count import exact_count
from trailkit.solvers.pipeline import count, solve
from trailkit.solvers.tools.design.certify_design import DesignStatus, Made
from trailkit.solvers.tools.design.fields import Field

__all__ = ["COUNT_RESTS_ON", "make_trails", "trail_spec_text"]

#: What a designed figure's count rests on when it could not be certified.
COUNT_RESTS_ON = "counted by direct's exact count (BEST theorem); not certified"


@dataclass(frozen=True, slots=True)
class _Found:
    lines: tuple[int, ...] | None
    solutions: int
    tries: int


def trail_spec_text(field: Field, lines: tuple[int, ...], *, made: str,
                    notes: tuple[str, ...] = (), solutions: int | None = None) -> str:
    """The spec of the figure made of ``field``'s pairs ``lines``: kind ``trail``, the
    layout of the nodes it uses, and (given ``solutions``) an ``expect:`` block."""
    used = sorted({v for i in lines for v in field.pairs[i]})
    names = field.nodes
    out = ["trailkit: 1", f'name: "Designed one-stroke figure ({field.shape})"',
           f"# Made by: {made}"]
    out += [f"# {note}" for note in notes]
    out += ["kind: trail", "layout:"]
    out += [f"  {names[v]}: [{_number(field.positions[v][0])}, "
            f"{_number(field.positions[v][1])}]" for v in used]
    out.append("edges:")
    out += [f"  - {names[field.pairs[i][0]]} {names[field.pairs[i][1]]}" for i in lines]
    if solutions is not None:
        out.append(f"expect: {{status: solved, length: {len(lines)}, "
                   f"solutions: {solutions}}}")
    return "\n".join(out) + "\n"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _stroke(field: Field, rng: random.Random, length: int) -> tuple[int, ...]:
    """The lines of a random stroke of at most ``length`` lines, none used twice."""
    touching: dict[int, list[tuple[int, int]]] = {}
    for i, (u, v) in enumerate(field.pairs):
        touching.setdefault(u, []).append((i, v))
        touching.setdefault(v, []).append((i, u))
    at = rng.choice(sorted(touching))
    used: list[int] = []
    while len(used) < length:
        free = [(i, v) for i, v in touching[at] if i not in used]
        if not free:
            break
        i, at = rng.choice(free)
        used.append(i)
    return tuple(sorted(used))


def _count(field: Field, lines: tuple[int, ...], deadline: float) -> int | None:
    """The figure's number of one-stroke drawings (``None`` past the deadline)."""
    puzzle = load_spec_text(trail_spec_text(field, lines, made="search"), source="<design>")
    counted = exact_count(puzzle, max(0.0, deadline - time.monotonic()))
    return counted.solutions if counted is not None and counted.complete else None


def _search(field: Field, low: int, high: int, seed: int, deadline: float,
            made: frozenset[tuple[int, ...]]) -> _Found:
    """Random strokes, their length steered by the count, until one is in range."""
    rng = random.Random(seed)
    length = max(1, len(field.pairs) // 2)
    tries = 0
    while time.monotonic() < deadline:
        tries += 1
        lines = _stroke(field, rng, length)
        if lines in made:
            length = min(len(field.pairs), length + 1)
            continue
        n = _count(field, lines, deadline)
        if n is None:
            break
        if low <= n <= high:
            return _Found(lines, n, tries)
        length = min(len(field.pairs), length + 1) if n < low else max(1, length - 1)
    return _Found(None, 0, tries)


def make_trails(field: Field, low: int, high: int, *, seed: int, how_many: int,
                time_limit: float, made: str) -> tuple[Made, ...]:
    """Up to ``how_many`` different figures with ``low`` to ``high`` drawings, within
    ``time_limit`` seconds in all; each written, read back, solved and counted again."""
    started = time.monotonic()
    if not any(n % 2 == 0 for n in range(low, min(high, low + 1) + 1)):
        return (Made(DesignStatus.IMPOSSIBLE, None, None, 0, (), (
            f"no figure has {low} one-stroke drawings: every count is even (each "
            "drawing drawn backwards is another)",), seed, 0, 0.0),)
    out: list[Made] = []
    done: set[tuple[int, ...]] = set()
    for n in range(how_many):
        t0 = time.monotonic()
        found = _search(field, low, high, seed + n, started + time_limit, frozenset(done))
        took = time.monotonic() - t0
        if found.lines is None:
            out.append(Made(DesignStatus.NOT_FOUND, None, None, 0, (), (
                f"no figure with {low} to {high} one-stroke drawings was found before "
                "the time ran out",), seed + n, found.tries, took))
            break
        done.add(found.lines)
        out.append(_written(field, found, seed + n, made, took))
    return tuple(out)


def _written(field: Field, found: _Found, seed: int, made: str, took: float) -> Made:
    """The figure as a spec, read back, solved and counted again by the pipeline, whose
    count claim (the formula's certificate, checked) says what the number rests on."""
    assert found.lines is not None
    plain = load_spec_text(trail_spec_text(field, found.lines, made=made), source="<design>")
    counted = count(plain)
    proof = next((c for c in counted.claims if c.claim == "count"), None)
    rests = ("certified (BEST theorem recomputed by the independent checker)"
             if proof is not None and proof.checked and proof.value == found.solutions else
             proof.why if proof is not None and proof.why else COUNT_RESTS_ON)
    claim = f"{found.solutions:,} one-stroke drawings: {rests}"
    text = trail_spec_text(field, found.lines, made=f"{made} --seed {seed}",
                           notes=(f"{claim[0].upper()}{claim[1:]}.",),
                           solutions=found.solutions)
    puzzle = load_spec_text(text, source="<design>")
    answer = solve(puzzle)
    if answer.status is not Status.SOLVED or not answer.verified \
            or not counted.complete or counted.solutions != found.solutions:
        raise VerificationFailure(f"the design search counted {found.solutions} drawings; "
                                  f"the pipeline: {answer.status.value}, "
                                  f"{counted.solutions}")
    return Made(DesignStatus.DESIGNED, text, len(found.lines), found.solutions,
                (claim, "verified: a one-stroke drawing (the walk checked by the "
                        "independent checker)"), (), seed, found.tries, took)
