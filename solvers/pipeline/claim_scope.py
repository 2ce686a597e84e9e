"""Which claims ``prove --claim`` can certify for a puzzle, and why not the others.

A claim speaks of the walks the puzzle counts as solutions: ``shortest`` of a puzzle that
asks for the fewest steps, ``longest`` of one that asks for the most, ``unique`` of any
puzzle whose solutions are finitely many (the shortest walks, the once-only walks, the
longest once-only walk), ``count`` of those the certificates can count. This module says,
in the puzzle's own terms (its edge rule and its objective), why a claim does not apply,
and lists the claims that do, so an error never names a claim that fails in turn nor
says the puzzle is something it is not.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> why_not(p, "shortest").split(", and ")[1]
'this one uses every edge exactly once with no objective: every solution has 3 steps'
>>> applying(p)
['unsolvable', 'unique', 'count', 'fewest-changes', 'minimal-core (when no walk exists)']
"""

from __future__ import annotations

from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.pipeline.refuted_claims import refutation_applies

__all__ = ["CLAIMS", "applying", "why_not"]

CLAIMS = ("unsolvable", "shortest", "unique", "count", "longest")
"""The claims :func:`~trailkit.solvers.pipeline.proving.prove_claim` certifies (the
repair search and the core certify ``fewest-changes`` and ``minimal-core``)."""


def _rules(puzzle: Puzzle) -> str:
    """The puzzle's edge rule and objective in words: ``uses every edge exactly once with
    no objective``."""
    use = {EdgeUse.ANY: "may reuse its edges", EdgeUse.AT_MOST_ONCE: "uses each edge at "
           "most once", EdgeUse.EXACTLY_ONCE: "uses every edge exactly once"}[puzzle.use]
    objective = "no objective" if puzzle.objective is Objective.ANY else \
        f"objective: {puzzle.objective.value}"
    return f"{use} with {objective}"


def why_not(puzzle: Puzzle, claim: str) -> str:
    """Why ``claim`` does not apply to ``puzzle`` (empty: it does)."""
    if claim not in CLAIMS:
        return f"trailkit certifies {', '.join(CLAIMS)}"
    once_only = refutation_applies(puzzle, longest=claim == "longest",
                                   count=claim == "count")
    if claim == "count" and puzzle.use is EdgeUse.ANY:
        return ""  # the shortest walks, counted through layers
    if claim in ("count", "longest") and once_only:
        return once_only
    if claim == "longest" and not puzzle.wants_longest:
        return (f"it speaks of puzzles that ask for the most steps (objective: longest, "
                f"edges used at most once), and this one {_rules(puzzle)}")
    if claim == "shortest" and puzzle.objective is not Objective.SHORTEST:
        exact = f": every solution has {plural(puzzle.num_edges, 'step')}" \
            if puzzle.use is EdgeUse.EXACTLY_ONCE else ""
        return ("it speaks of puzzles that ask for the fewest steps (objective: shortest, "
                f"as every colour walk does), and this one {_rules(puzzle)}{exact}")
    if claim == "unique" and puzzle.objective is not Objective.SHORTEST and \
            puzzle.use is EdgeUse.ANY:
        return ("it speaks of the shortest walk (objective: shortest) or of once-only "
                f"walks (edges used at most once or exactly once), and this one "
                f"{_rules(puzzle)}")
    return ""


def applying(puzzle: Puzzle) -> list[str]:
    """The claims ``prove --claim`` can certify for ``puzzle``, in words for a list
    (``minimal-core`` only where the puzzle has no walk, which is not known before)."""
    found = [claim for claim in CLAIMS if not why_not(puzzle, claim)]
    found.append("fewest-changes")
    if puzzle.use is not EdgeUse.ANY:
        found.append("minimal-core (when no walk exists)")
    return found
