"""Counts and captions in words, for every picture: ``1 step``, ``2 steps``, ``every 2nd
step``, and the sentence that names the walk shown by what the puzzle asked for.

>>> count(1, "step"), count(1_024, "domino", "dominoes"), ordinal(2), ordinal(13)
('1 step', '1,024 dominoes', '2nd', '13th')
"""

from __future__ import annotations

from trailkit.models.answer import Answer
from trailkit.models.puzzle import Objective, Puzzle

__all__ = ["count", "ordinal", "walk_noun", "walk_size"]


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with its noun, singular for exactly one (thousands separated)."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def walk_size(puzzle: Puzzle, n: int) -> str:
    """A walk's length in the puzzle's own unit: ``7 steps``, ``1 domino``."""
    if puzzle.kind == "domino-chain":
        return count(n, "domino", "dominoes")
    return count(n, "step")


def walk_noun(puzzle: Puzzle, answer: Answer) -> str:
    """``A shortest walk`` or ``A longest walk`` when the answer is proven best by what
    the puzzle asks for (its ``objective``), else ``A walk``."""
    if answer.optimal:
        if puzzle.objective is Objective.LONGEST:
            return "A longest walk"
        if puzzle.objective is Objective.SHORTEST:
            return "A shortest walk"
    return "A walk"
