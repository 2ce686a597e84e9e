"""Which encoding plain ``sat`` builds for an exactly-once walk, chosen by the size estimates.

``sat`` and ``sat:NAME`` (no ``/ENCODING``) estimate both encodings of an exactly-once
puzzle before building either (:mod:`trailkit.models.encodings.sizes`) and build

* the transition encoding when the position encoding would not fit in the memory
  budget and the transition encoding would, or when the position encoding would be
  at least :data:`POSITION_FLOOR_MB` and :data:`MUCH_LARGER` times the transition
  encoding's size;
* the position encoding otherwise (with its ``position-v1`` certificates).

The thresholds come from the project's corpus (``specs/``, every exactly-once puzzle,
the structural pre-check off; figures in ``docs/benchmarks.md``): where the position
encoding is many times the transition encoding's size the transition encoding is the
faster by far, and on small formulas both answer at once. Walks that may use an edge
less or more often than once have only the position encoding (and the layered one for
reusable edges).

>>> from trailkit.models.puzzle import Puzzle
>>> choose_encoding(Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")]), 4096).encoding
'position'
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.encodings.sizes import position_size, transition_size
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["MUCH_LARGER", "POSITION_FLOOR_MB", "EncodingChoice", "choose_encoding"]

POSITION_FLOOR_MB = 10.0
"""Below this estimate the position encoding is kept whatever the ratio."""
MUCH_LARGER = 8.0
"""How many times the transition encoding's size makes the position encoding "much larger"."""


@dataclass(frozen=True, slots=True)
class EncodingChoice:
    """The encoding to build (``position`` or ``transition``) and why, in words."""

    encoding: str
    why: str


def choose_encoding(puzzle: Puzzle, memory_mb: int | None) -> EncodingChoice:
    """The encoding plain ``sat`` builds for ``puzzle`` within ``memory_mb`` (see the
    module docstring)."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or puzzle.num_edges == 0:
        return EncodingChoice("position", "only the position encoding covers this puzzle")
    position = position_size(puzzle, puzzle.num_edges).megabytes()
    transition = transition_size(puzzle).megabytes()
    sizes = f"about {_mb(position)} against {_mb(transition)}"
    if memory_mb is not None and position > memory_mb >= transition:
        return EncodingChoice("transition", f"the position encoding would need {sizes} for "
                              f"the transition encoding, over the memory limit of "
                              f"{memory_mb:,} MB")
    if position >= POSITION_FLOOR_MB and position >= MUCH_LARGER * transition:
        return EncodingChoice("transition", f"the position encoding would be "
                              f"{position / transition:,.0f} times the size of the "
                              f"transition encoding ({sizes})")
    return EncodingChoice("position", f"the position encoding is small ({sizes} for the "
                          "transition encoding)")


def _mb(size: float) -> str:
    return f"{size:,.1f} MB" if size >= 0.1 else "under 0.1 MB"
