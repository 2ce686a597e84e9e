"""A walk named in words: its size in the puzzle's own unit, and the noun that says what
the puzzle asked for (counts and ordinals come from :mod:`trailkit.models.support.words`,
shared with every other message). Pictures put them in captions and the presenter in
answers, so they live below both: the presenter naming a walk's size no longer loads
every picture module with them.
"""

from __future__ import annotations

from trailkit.models.answer import Answer
from trailkit.models.puzzle import Objective, Puzzle
from trailkit.models.support.words import plural

__all__ = ["walk_noun", "walk_size"]


def walk_size(puzzle: Puzzle, n: int) -> str:
    """A walk's length in the puzzle's own unit: ``7 steps``, ``1 domino``."""
    if puzzle.kind == "domino-chain":
        return plural(n, "domino", "dominoes")
    return plural(n, "step")


def walk_noun(puzzle: Puzzle, answer: Answer) -> str:
    """``A shortest walk`` or ``A longest walk`` when the answer is proven best by what
    the puzzle asks for (its ``objective``), else ``A walk``."""
    if answer.optimal:
        if puzzle.objective is Objective.LONGEST:
            return "A longest walk"
        if puzzle.objective is Objective.SHORTEST:
            return "A shortest walk"
    return "A walk"
