"""The tools that reason about a puzzle's edges refuse its node rules, for now.

``repair`` (which edges to add, remove or recolour), ``explain`` (a minimal core of
edges, the situations a reusable walk reaches) and ``inspect`` (the edges a puzzle
cannot lose, the edges that make it shorter) search models and states that know only
the edge rules; under node rules (``visit``, ``via``, ``avoid``, ``at``) their answers
would be another puzzle's (a core no walk of the edge rules can use, a repair whose
minimality rests on a search that ignores the node rules). Rather than answer wrongly,
each refuses such a puzzle as an input error (exit code 2), saying what still works.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> tour = Puzzle.build(edges=[("a", "b")], visit=NodeVisit.EVERY_ONCE)
>>> refuse_node_rules(tour, "explain")
Traceback (most recent call last):
...
trailkit.models.errors.UnsupportedPuzzle: explain does not take node rules (visit, via, \
avoid, at) into account yet; solve, count and prove do (prove's certificate says why no \
walk exists)
"""

from __future__ import annotations

from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import Puzzle

__all__ = ["refuse_node_rules"]


def refuse_node_rules(puzzle: Puzzle, verb: str) -> None:
    """Raise :class:`UnsupportedPuzzle` when ``puzzle`` has node rules: ``verb``
    (``repair``, ``explain``, ``inspect``) would ignore them."""
    if puzzle.has_node_rules:
        raise UnsupportedPuzzle(
            f"{verb} does not take node rules (visit, via, avoid, at) into account yet; "
            "solve, count and prove do (prove's certificate says why no walk exists)")
