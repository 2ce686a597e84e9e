"""A designed tour puzzle written as a spec, read back and certified (``design tour``).

The spec is an ordinary one: ``kind: tour`` with ``closed: false`` (Hidato and Numbrix
ask for a path, not a cycle), the ``board:``, the givens as ``at:`` and an ``expect:``
block, with comments saying how it was made and what each claim rests on. It is read
back by the spec reader, then:

* **solved** by the pipeline: a path through every cell, verified by the independent
  checker;
* with uniqueness asked for, the pipeline's ``unique`` claim is asked for. Where the
  checker accepted a certificate of it, the spec says *certified*; where no certificate
  speaks of node rules yet, the spec and the output say so, and that the uniqueness
  rests on the direct backend's exhaustive tour search, run again on the spec as
  written (:func:`~.tour_givens.only_path`). A second path, or the pipeline's walk
  other than the designed path, is a bug in the design, raised as
  :class:`VerificationFailure`.

>>> text = tour_spec_text(3, 1, "orthogonal", [("a1", 1)], made="test")
>>> "board: {size: [3, 1], moves: orthogonal}" in text and "at: {a1: 1}" in text
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trailkit.models.answer import Claim, Status
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.models.spec.board import Board
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.tour_arrows import ARROWS, arrow_lines
from trailkit.solvers.tools.design.tour_givens import Only, only_path

__all__ = ["PUZZLE_NAMES", "UNIQUE_RESTS_ON", "Certified", "certify_tour", "tour_spec_text"]

PUZZLE_NAMES = {"king": "Hidato", "orthogonal": "Numbrix", "knight": "knight's tour puzzle",
                "diagonal": "diagonal tour puzzle", ARROWS: "Signpost"}
"""What puzzle books call a path through every cell, by the board's moves."""

UNIQUE_RESTS_ON = ("the direct backend's exhaustive tour search, run on the spec as "
                   "written, found no second path")


def tour_spec_text(cols: int, rows: int, moves: str, at: Sequence[tuple[str, int]], *,
                   made: str, notes: Sequence[str] = (),
                   expect: dict[str, object] | None = None, expect_note: str = "",
                   path: Sequence[int] = ()) -> str:
    """The spec of a ``cols`` x ``rows`` board with ``moves`` and the givens ``at``
    (cell name, position), in order of position; with ``moves`` ``arrows``, the
    Signpost whose arrows follow ``path`` (cell indices, row by row from ``a1``)."""
    given = ", ".join(f"{name}: {q}" for name, q in sorted(at, key=lambda g: g[1]))
    how = ARROWS if moves == ARROWS else f"{moves} moves"
    out = ["trailkit: 1", f'name: "Designed {PUZZLE_NAMES[moves]} ({cols}x{rows}, {how})"',
           f"# Made by: {made}"]
    out += [f"# {note}" for note in notes]
    out += ["kind: tour", "closed: false"]
    out += arrow_lines(cols, rows, path) if moves == ARROWS else \
        [f"board: {{size: [{cols}, {rows}], moves: {moves}}}"]
    out.append(f"at: {{{given}}}")
    if expect is not None:
        out += [f"# {expect_note}"] if expect_note else []
        out.append("expect: {" + ", ".join(f"{k}: {v}" for k, v in expect.items()) + "}")
    return "\n".join(out) + "\n"


@dataclass(frozen=True, slots=True)
class Certified:
    """A tour puzzle certified: its spec text, its claims in words, the contract's
    ``unique`` claim (when asked for) and the puzzle read back."""

    text: str
    claims: tuple[str, ...]
    certificates: tuple[Claim, ...]
    puzzle: Puzzle


def _unique_words(puzzle: Puzzle, path: Sequence[int], claim: Claim, seconds: float
                  ) -> str:
    """The uniqueness in words: certified, or what it rests on (the search again)."""
    if claim.refuted or (claim.checked and claim.value is not True):
        raise VerificationFailure("the pipeline found a second path of a designed puzzle")
    if claim.checked:
        kind = claim.certificate.kind if claim.certificate else "unique"
        return (f"certified: the path is the only solution ({kind} certificate accepted "
                "by the independent checker)")
    said, _ = only_path(puzzle, path, seconds)
    if said is Only.SECOND:
        raise VerificationFailure("a designed puzzle has a second path")
    again = UNIQUE_RESTS_ON if said is Only.UNIQUE else (
        "the direct backend's exhaustive tour search found no second path as each given "
        "was taken away (its run on the spec as written reached the time limit)")
    return f"unique: {claim.why}: {again}"


def certify_tour(cols: int, rows: int, moves: str, at: Sequence[tuple[str, int]],
                 path_names: Sequence[str], *, unique: bool, made: str,
                 seconds: float) -> Certified:
    """The puzzle written, read back, solved and (``unique``) its uniqueness said; see
    the module docstring. ``path_names`` are the designed path's cells in order."""
    length = len(path_names) - 1
    expect: dict[str, object] = {"status": "solved", "length": length}
    if unique:
        expect["solutions"] = 1
    cell = {name: i for i, name in enumerate(Board(cols, rows, "king").cells)}
    cells = [cell[name] for name in path_names] if moves == ARROWS else []
    puzzle = load_spec_text(tour_spec_text(cols, rows, moves, at, made=made, expect=expect,
                                           path=cells), source="<design>")
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    path = [index[name] for name in path_names]
    answer = solve(puzzle, limits=Limits(time_limit=max(seconds, 1.0)), unique=unique)
    if answer.status is not Status.SOLVED or not answer.verified or answer.walk is None:
        raise VerificationFailure(f"a designed tour puzzle is {answer.status.value}")
    claims = ["verified: a path through every cell obeying the givens (the walk checked "
              "by the independent checker)"]
    certificates: tuple[Claim, ...] = ()
    note = "status and length verified"
    if unique:
        claim = next(c for c in answer.claims if c.claim == "unique")
        if [int(v) for v in answer.walk.nodes] != path:
            raise VerificationFailure("the pipeline's path is not the designed one")
        claims.append(_unique_words(puzzle, path, claim, seconds))
        certificates = (claim,)
        note += "; solutions: 1 " + ("certified" if claim.checked else
                                     "not certified (see above)")
    text = tour_spec_text(cols, rows, moves, at, made=made, expect=expect,
                          notes=tuple(f"{c[0].upper()}{c[1:]}." for c in claims),
                          expect_note=f"The expect: block: {note}.", path=cells)
    return Certified(text, tuple(claims), certificates,
                     load_spec_text(text, source="<design>"))
