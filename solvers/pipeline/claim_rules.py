"""Which claims apply to a puzzle, by its form alone: cheap questions, asked before any
proof (``prove --claim`` refusing one that does not apply, the workshop's picker
offering those that do), kept apart from the proving so that asking loads nothing
heavy (the SAT backend, the DRUP checker).

>>> from trailkit.models.spec import load_spec_text
>>> trail = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c]\\n")
>>> claims_that_apply(trail)
['unsolvable', 'unique', 'count', 'fewest-changes', 'minimal-core']
>>> claim_applies(trail, "shortest").split(", and ")[1]
'this one uses every edge exactly once with no objective: every solution has 2 steps'
>>> claims_in_words(trail)[-1]
'minimal-core (when no walk exists)'
"""

from __future__ import annotations

from trailkit.models.answer import CLAIM_NAMES
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural

__all__ = ["CLAIMS", "applying_claims", "claim_applies", "claims_in_words",
           "claims_that_apply", "refutation_applies", "unproven"]

CLAIMS = ("unsolvable", "shortest", "unique", "count", "longest")
"""The claims :func:`trailkit.solvers.pipeline.proving.prove_claim` certifies (and
``unsolvable``, :func:`~trailkit.solvers.pipeline.proving.prove`'s)."""


def refutation_applies(puzzle: Puzzle, *, longest: bool = False, count: bool = False
                       ) -> str:
    """Why the walk formulas do not describe ``puzzle``'s walks (empty: they do). For
    ``longest`` an allowed empty walk does not matter; a ``count`` lists the empty walks
    apart."""
    if puzzle.use is EdgeUse.ANY:
        return "the refutation certificates cover once-only walks (edges used at most once)"
    if not puzzle.num_nodes and count:
        return "the puzzle has no nodes: the walk that stands nowhere is its one solution"
    if (puzzle.empty_walk_nodes() or not puzzle.num_nodes) and not (longest or count):
        return "the empty walk is allowed"
    return ""


def _rules(puzzle: Puzzle) -> str:
    """The puzzle's edge rule and objective in words: ``uses every edge exactly once with
    no objective``."""
    use = {EdgeUse.ANY: "may reuse its edges", EdgeUse.AT_MOST_ONCE: "uses each edge at "
           "most once", EdgeUse.EXACTLY_ONCE: "uses every edge exactly once"}[puzzle.use]
    objective = "no objective" if puzzle.objective is Objective.ANY else \
        f"objective: {puzzle.objective.value}"
    return f"{use} with {objective}"


def claim_applies(puzzle: Puzzle, claim: str) -> str:
    """Why ``claim`` (one of :data:`CLAIMS`) does not apply to ``puzzle``, in the
    puzzle's own terms (its edge rule and its objective); empty: it does."""
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


def applying_claims(puzzle: Puzzle) -> list[str]:
    """The claims of :data:`CLAIMS` that apply to ``puzzle`` (``unsolvable`` always), in
    that order."""
    return [claim for claim in CLAIMS if not claim_applies(puzzle, claim)]


def claims_that_apply(puzzle: Puzzle) -> list[str]:
    """Every claim of ``prove --claim`` that can be asked of ``puzzle`` by its form, in
    :data:`~trailkit.models.answer.CLAIM_NAMES` order: :func:`applying_claims`,
    ``fewest-changes`` (0 changes for a puzzle with a walk), and ``minimal-core`` for
    once-only edges (a reusable edge never hurts, so there is no core). Whether it has a
    walk is not known before a run: ``unsolvable`` and ``minimal-core`` are for puzzles
    without one, the others for puzzles with one (``count`` either way)."""
    walk_claims = applying_claims(puzzle)
    return [claim for claim in CLAIM_NAMES
            if claim in walk_claims or claim == "fewest-changes"
            or (claim == "minimal-core" and puzzle.use is not EdgeUse.ANY)]


def claims_in_words(puzzle: Puzzle) -> list[str]:
    """:func:`claims_that_apply` for an error's list: ``minimal-core`` says it is for a
    puzzle without a walk, which is not known before a run."""
    return [claim if claim != "minimal-core" else "minimal-core (when no walk exists)"
            for claim in claims_that_apply(puzzle)]


def unproven(why: str, rests_on: str) -> str:
    """``not certified (WHY); rests on RESTS_ON``: a claim that could not be certified."""
    return f"not certified ({why}); rests on {rests_on}"
