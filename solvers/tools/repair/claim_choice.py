"""Every claim ``prove --claim`` certifies, proven by its name.

The claims beyond ``unsolvable`` are made in three places: the walk claims (``shortest``,
``unique``, ``count``, ``longest``) in :func:`trailkit.solvers.pipeline.proving.prove_claim`,
``fewest-changes`` by the repair search (:mod:`.fewest_proof`) and ``minimal-core`` by the
core search (:mod:`.core_prove`). The command line and the workshop's Prove panel both
have one made by its name here, so they answer alike; which claims apply to a puzzle is
:func:`trailkit.solvers.pipeline.claim_rules.claims_that_apply`.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c]\\n")
>>> certify_claim(p, "count").claim.value
2
"""

from __future__ import annotations

from trailkit.models.answer import Status
from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.pipeline.claim_rules import claims_in_words
from trailkit.solvers.pipeline.proving import Proof, prove_claim

__all__ = ["certify_claim"]


def certify_claim(puzzle: Puzzle, claim: str, limits: Limits = NO_LIMITS, *,
                  spec_path: str | None = None, drup: bool = False) -> Proof:
    """The proof of ``claim`` (any of ``prove --claim``'s but ``unsolvable``, which
    :func:`~trailkit.solvers.pipeline.proving.prove` makes with a backend's proof), its
    certificate checked by the independent checker; ``drup``: by refutation where one
    applies. Raises :class:`TrailkitError` (an input error) when the claim does not
    apply, saying which do."""
    if claim == "fewest-changes":
        from trailkit.solvers.tools.repair.fewest_proof import prove_fewest_changes

        return prove_fewest_changes(puzzle, limits, spec_path=spec_path)
    if claim != "minimal-core":
        return prove_claim(puzzle, claim, limits, spec_path=spec_path, drup=drup)
    from trailkit.solvers.tools.repair.core_prove import prove_minimal_core

    if puzzle.use is EdgeUse.ANY:
        raise TrailkitError("the minimal-core claim (--claim minimal-core) applies to puzzles "
                            "whose edges are used once (a reusable edge never hurts, so "
                            "there is no core); 'trailkit explain' shows the reachable "
                            "situations instead")
    proof = prove_minimal_core(puzzle, limits, spec_path=spec_path, drup=drup)
    if proof.status is Status.SOLVED:
        here = [c for c in claims_in_words(puzzle) if not c.startswith("minimal-core")]
        raise TrailkitError(f"the minimal-core claim (--claim minimal-core): {proof.reason}; "
                            f"it applies to an unsolvable puzzle (claims that apply here: "
                            f"{', '.join(here)})")
    return proof
