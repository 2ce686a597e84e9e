"""A core's certificate: that no walk uses all of it, and that each member is needed.

The maker side of the claim ``minimal-core`` (``explain``). A core found by
:mod:`trailkit.solvers.tools.repair.cores` rests on CP-SAT's INFEASIBLE unless a short
argument applies (``odd-nodes``); here the SAT backend refutes the core's own formula,
``walk-core-v1`` (:mod:`trailkit.models.formulas.core_formula`: the spec with edges used at
most once and each core edge demanded), with proof logging, within bounds: the formula's
size is estimated first (:func:`~trailkit.solvers.pipeline.refuted_claims.too_big`) and
the solver gets at most :data:`~trailkit.solvers.pipeline.refuted_claims.CLAIM_SECONDS`
unless the command's own limit is shorter. Past a bound, the reason is returned instead,
and the claim says it rests on CP-SAT.

:func:`core_data` gathers the whole ``core`` certificate (the core's edge ids, the
argument, one witness walk per member) and :func:`checked_core` has the independent
checker (:func:`~trailkit.models.checking.core_certificates.core_verdict`) accept it; a
certificate it rejects is a bug, raised as :class:`VerificationFailure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.core_certificates import check_witness, core_verdict
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.errors import VerificationFailure
from trailkit.models.formulas.blocked_walks import walk_json
from trailkit.models.formulas.core_formula import core_formula, core_puzzle
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.sat.runner import (
    DEFAULT_SOLVER,
    Verdict,
    run_or_stopped,
    small_puzzle,
)
from trailkit.solvers.backends.sat.walk_proof import refute_core
from trailkit.solvers.pipeline.refuted_claims import capped, too_big

__all__ = ["checked_core", "core_data", "core_refutation", "odd_cuts_certificate"]


def odd_cuts_certificate(puzzle: Puzzle, core: Sequence[int]) -> Certificate | None:
    """The ``odd-cuts`` argument for ``core``, when it applies: the pieces the edges
    outside the core join the nodes into, each left by an odd number of (core) edges, when
    there are more of them than a walk has ends. Pieces are the finest such sets (a set
    of pieces left by an odd number of edges holds a piece that is)."""
    members = set(core)
    piece = list(range(puzzle.num_nodes))

    def find(v: int) -> int:
        while piece[v] != v:
            piece[v] = piece[piece[v]]
            v = piece[v]
        return v

    for e in range(puzzle.num_edges):
        if e not in members:
            piece[find(puzzle.tail[e])] = find(puzzle.head[e])
    leaving = [0] * puzzle.num_nodes
    for e in members:
        a, b = find(puzzle.tail[e]), find(puzzle.head[e])
        if a != b:
            leaving[a] += 1
            leaving[b] += 1
    odd = sorted({find(v) for v in range(puzzle.num_nodes) if leaving[find(v)] % 2})
    if len(odd) <= (0 if puzzle.closed else 2):
        return None
    sets = [[puzzle.nodes[v] for v in range(puzzle.num_nodes) if find(v) == root]
            for root in odd]
    allowed = "returns to its start, so it has no ends" if puzzle.closed else "has two ends"
    text = (f"The edges leaving each of {len(sets)} sets of nodes ("
            + "; ".join(", ".join(s) for s in sets) + ") are all in the core, an odd number "
            "each, so a walk that uses the whole core has an end in each set; a walk "
            f"{allowed}.")
    return Certificate("odd-cuts", {"sets": sets}, text)


def core_refutation(puzzle: Puzzle, core: Sequence[int], limits: Limits) -> Certificate | str:
    """A ``drup`` certificate refuting ``walk-core-v1`` for ``core`` (edge indices), not yet
    checked; or why there is none (the formula too big, the time limit, the proof too
    large). ``limits``' time limit is capped (:func:`capped`): a core is shown whatever
    its certificate."""
    why = too_big(core_puzzle(puzzle), limits)
    if why:
        return why
    limits = capped(limits)
    result, walk, proof = run_or_stopped(
        lambda d: refute_core(puzzle, DEFAULT_SOLVER, d, list(core)), DEFAULT_SOLVER,
        limits.time_limit, small=small_puzzle(puzzle)) or (Verdict.INTERRUPTED, None, None)
    if result is Verdict.SAT and walk is not None:
        if not check_witness(puzzle, walk, core):
            raise VerificationFailure("CP-SAT called a set of edges a core, but a verified "
                                      "walk uses all of them")
        return "the SAT solver's model is no walk using the whole core"
    if proof is None:
        return (f"the time limit of {limits.time_limit or 0:.1f} s was reached before the "
                "refutation")
    ids = [puzzle.edge_id(e) for e in core]
    formula = core_formula(puzzle, {"core": ids})
    if isinstance(formula, list):
        raise VerificationFailure(f"the core makes no formula: {formula[0]}")
    certificate = make_certificate(puzzle, formula, proof, DEFAULT_SOLVER)
    return "the proof is too large to check" if certificate is None else certificate


def core_data(puzzle: Puzzle, core: Sequence[int], unsolvable: Certificate,
              witnesses: Sequence[Walk]) -> dict[str, Any]:
    """The ``core`` certificate's data: the core (edge ids), the argument ``unsolvable``
    that no walk uses all of it, and each member's ``witnesses`` walk (in core order)."""
    return {"claim": "minimal-core", "core": [puzzle.edge_id(e) for e in core],
            "unsolvable": unsolvable.to_json(),
            "witnesses": [{"without": puzzle.edge_id(e), **walk_json(puzzle, w)}
                          for e, w in zip(core, witnesses, strict=True)]}


#: Below this many seconds left, a proof is checked interpreted when the checker's
#: kernels are not compiled yet (as ``prove`` does: compiling takes 10 to 30 s).
COMPILE_S = 30.0


def checked_core(puzzle: Puzzle, data: dict[str, Any], time_limit: float | None = None
                 ) -> str | None:
    """What the independent checker verified of the ``core`` certificate ``data`` (its
    own words), within ``time_limit`` (``None``: not checked in time); raises
    :class:`VerificationFailure` when it rejects it."""
    from trailkit.models.checking import drup
    from trailkit.models.support import jit

    small = time_limit is not None and time_limit < COMPILE_S and drup.will_compile()
    with jit.interpreted(small):
        verdict = core_verdict(puzzle, data, time_limit=time_limit)
    if verdict.problems and verdict.problems[0].startswith("unchecked: the time limit"):
        return None
    if verdict.problems:
        raise VerificationFailure("the core's certificate is rejected by the independent "
                                  f"checker: {'; '.join(verdict.problems[:3])}")
    return verdict.holds
