"""Certificates for the claims an answer makes beyond its walk: shortest, unique.

The maker side of CONTRACT 1.3 §6. Each function here makes a certificate for one claim
about a verified walk, has the independent checker
(:mod:`trailkit.models.checking.shortest`, which shares no code with this module or any
backend) accept it, and returns a :class:`~trailkit.models.answer.Claim` saying what the
claim rests on: the certificate the checker accepted, or why there is none ("not
certified: ..."). A certificate the checker rejects for a walk a backend called
shortest is a bug, raised as :class:`VerificationFailure`.

``layers`` certificates (open walks): each (node, colour-phase) state's breadth-first
layer, the search's own when direct found the walk
(:mod:`trailkit.solvers.pipeline.layered`), stored compactly
(:mod:`trailkit.models.checking.layer_numbers`). Their size is known before any work:
past :data:`~trailkit.solvers.pipeline.layered.STATE_LIMIT` states the claim is "not
certified", with the states and the memory the check would take.

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.pipeline.solving import solve
>>> p = load_spec_text("trailkit: 1\\nkind: colour-walk\\ncolours: [red, blue]\\n"
...                    "start: a\\ngoal: c\\nedges: [a b red, b c blue, b c blue]\\n")
>>> walk = solve(p).walk
>>> shortest = shortest_claim(p, walk)
>>> shortest.checked, shortest.value, shortest.certificate.kind
(True, 2, 'layers')
>>> other = unique_claim(p, walk)
>>> other.value, other.checked, other.witness.edges, walk.edges
(False, True, (0, 2), (0, 1))
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from trailkit.models.answer import Answer, Certificate, Claim, Status, Walk
from trailkit.models.checking.layer_numbers import encode_layer_numbers
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.checking.verify import verify
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.pipeline.claim_rules import unproven
from trailkit.solvers.pipeline.layered import (
    STATE_LIMIT,
    layer_numbers,
    layered,
    layers_to_goal,
)

__all__ = ["STATE_LIMIT", "answer_claims", "best_shortest_claim", "fewest_changes_claim",
           "found_shortest_claim", "minimal_core_claim", "shortest_claim", "unique_claim"]


def answer_claims(puzzle: Puzzle, answer: Answer, *, unique: bool = False,
                  state_limit: int = STATE_LIMIT, limits: Limits = NO_LIMITS,
                  drup: bool = False) -> tuple[Claim, ...]:
    """The claims a solved, verified ``answer`` makes beyond its walk, each with what it
    rests on: ``shortest`` (or ``longest``) when it says its walk is optimal (not for
    exactly-once walks: they all have one length, the number of edges), and with
    ``unique`` whether the walk is the only solution (the only optimal one under an
    objective). Unsolved answers make none here (their certificate is their claim).

    ``longest``, ``unique`` for once-only walks, and ``shortest`` for once-only walks the
    ``layers`` cannot certify, are refutations
    (:mod:`trailkit.solvers.pipeline.refuted_claims`,
    :mod:`trailkit.solvers.pipeline.optimal_refutations`), within ``limits``; with
    ``drup`` a once-only walk's claims are refutations even where layers would do (for
    ``prove --proof-dir``: outside checkers read only proofs)."""
    walk = answer.walk
    if answer.status is not Status.SOLVED or walk is None:
        return ()
    rests_on = answer.decided_by or answer.backend
    claims: list[Claim] = []
    optimal = _optimal_claim(puzzle, answer, walk, rests_on, state_limit, limits, drup)
    if optimal is not None:
        claims.append(optimal)
    if unique:
        claims.append(_unique_claim(puzzle, answer, walk, claims, rests_on, state_limit,
                                    limits, drup))
    return tuple(claims)


def _optimal_claim(puzzle: Puzzle, answer: Answer, walk: Walk, rests_on: str,
                   state_limit: int, limits: Limits, drup: bool) -> Claim | None:
    """The ``longest`` or ``shortest`` claim of an answer that says its walk is optimal,
    or none (not optimal, or an exactly-once walk: they all have one length). Apart from
    uniqueness because that claim reads this one (a certified shortest walk's layers)."""
    # A refutation brings the SAT backend and the DRUP checker: each is imported where a
    # claim needs it, so a plain solve (a one-stroke drawing's) loads neither.
    if answer.optimal and puzzle.wants_longest:
        from trailkit.solvers.pipeline.refuted_claims import longest_claim

        return longest_claim(puzzle, walk, limits, rests_on=f"{rests_on}'s search")
    if answer.optimal and puzzle.use is not EdgeUse.EXACTLY_ONCE:  # else: one length
        return best_shortest_claim(puzzle, walk, rests_on=rests_on,
                                   state_limit=state_limit, limits=limits, drup=drup,
                                   layers=answer.stats.get("layers"))
    return None


def _unique_claim(puzzle: Puzzle, answer: Answer, walk: Walk, claims: list[Claim],
                  rests_on: str, state_limit: int, limits: Limits, drup: bool) -> Claim:
    """The ``unique`` claim, chosen by how it can rest: the empty once-only walk and a
    once-only walk of no objective (or exactly-once) by refutation, the rest by
    :func:`_uniqueness` (which reads the optimality claim already in ``claims``)."""
    from trailkit.solvers.pipeline.optimal_refutations import empty_unique_claim
    from trailkit.solvers.pipeline.refuted_claims import only_walk_claim

    search = f"{rests_on}'s search"
    once_only = puzzle.use is not EdgeUse.ANY
    # under objective: shortest the empty walk is a shortest walk like any other: the
    # layers count the walks of 0 steps (a walk of some steps is no second one)
    if once_only and not len(walk) and puzzle.objective is not Objective.SHORTEST:
        return empty_unique_claim(puzzle, walk, limits, rests_on=search)
    if once_only and (puzzle.objective is Objective.ANY or
                      puzzle.use is EdgeUse.EXACTLY_ONCE):
        return only_walk_claim(puzzle, walk, limits, rests_on=search)
    return _uniqueness(puzzle, answer, walk, claims, rests_on, state_limit, limits, drup)


def best_shortest_claim(puzzle: Puzzle, walk: Walk, *, rests_on: str,
                        state_limit: int = STATE_LIMIT, limits: Limits = NO_LIMITS,
                        drup: bool = False, layers: Any = None) -> Claim:
    """The claim that ``walk`` (verified, called shortest by ``rests_on``) is a shortest
    walk: by ``layers`` where they decide it (always for the empty walk; ``layers``: the
    search's own, when it gave them), else by a refutation of ``walk-shorter-v1``; with
    ``drup`` (or node rules, which layers do not know) a walk of some steps by refutation
    only (outside checkers read only proofs). An exactly-once walk has one length, the
    number of edges: ``prove --claim shortest`` certifies it the same way."""
    by_refutation = (drup or puzzle.has_node_rules) and len(walk)  # layers: no node rules
    shortest = None if by_refutation else shortest_claim(
        puzzle, walk, rests_on=rests_on, state_limit=state_limit, layers=layers)
    if shortest is None or not shortest.checked:
        from trailkit.solvers.pipeline.optimal_refutations import refuted_shortest_claim

        refuted = refuted_shortest_claim(puzzle, walk, limits, rests_on=f"{rests_on}'s search")
        if refuted.checked or shortest is None:
            return refuted
        return replace(refuted, why=_both(shortest.why, refuted.why))
    return shortest


def _both(first: str, second: str) -> str:
    """Two reasons a claim is not certified (``not certified (WHY); rests on X``), the
    layers' and the refutation's, said in one: neither estimate is lost."""
    opening, rests = "not certified (", "); rests on "
    if not (first.startswith(opening) and second.startswith(opening) and rests in first
            and rests in second):
        return second
    layers = first.removeprefix(opening).rpartition(rests)[0]
    refutation, _, on = second.removeprefix(opening).rpartition(rests)
    return f"{opening}{layers}; {refutation}{rests}{on}"


def _uniqueness(puzzle: Puzzle, answer: Answer, walk: Walk, claims: list[Claim],
                rests_on: str, state_limit: int, limits: Limits, drup: bool) -> Claim:
    """The ``unique`` claim under an objective: by layers when the walk is a certified
    shortest one (and they decide it), else by refutation; why not, for a walk of no
    objective that may reuse edges."""
    layered = bool(claims) and claims[0].checked and claims[0].certificate is not None \
        and claims[0].certificate.kind == "layers"
    drup = drup and bool(len(walk))  # 0 steps: the layers of one layer are the proof
    if puzzle.objective is not Objective.ANY and not answer.optimal:
        why = f"{rests_on} does not say its walk is the {puzzle.objective.value}"
        return Claim("unique", False, why=_unproven(why, rests_on))
    if layered and not drup:
        found = unique_claim(puzzle, walk, rests_on=rests_on, state_limit=state_limit,
                             layers=answer.stats.get("layers"))
        if found.checked:
            return found
    if puzzle.objective is not Objective.ANY:
        from trailkit.solvers.pipeline.optimal_refutations import refuted_unique_claim

        return refuted_unique_claim(puzzle, walk, limits, rests_on=f"{rests_on}'s search")
    return Claim("unique", False, why="not decided (only shortest walks and once-only "
                 "walks have a uniqueness certificate so far; trailkit count counts the "
                 "solutions)")


def fewest_changes_claim(changes: int | None, original: Answer, *, minimal: bool,
                         proof: str) -> Claim:
    """The claim that no repair has fewer than ``changes`` changes (``repair``), given the
    answer for the puzzle as given (``original``, checked by the pipeline) and what the
    repair search says it proved (``minimal``, ``proof``).

    0 changes: the original's verified walk. 1 change or more: a ``change-sets`` (or
    ``repair-fewer-v1``) certificate, which the repair makes; here, without one, not
    certified: the original's unsolvability certificate proves only that some change is
    needed, not that this repair is allowed and has a walk; the claim rests on the
    repair search's own argument."""
    if changes == 0 and original.status is Status.SOLVED and original.verified:
        return Claim("fewest-changes", True, value=0,
                     holds="the puzzle as given has a verified walk: no change is needed")
    if changes == 1 and original.status is Status.UNSOLVABLE and \
            original.certificate_checked:
        why = ("the unsolvability certificate of the puzzle as given is only a lower "
               "bound; no change-sets certificate was made")
    elif changes == 1:
        why = "the puzzle as given has no checked unsolvability certificate"
    elif not minimal:
        why = "fewer changes are not ruled out"
    else:
        why = f"no certificate for repairs of {changes} changes yet"
    rests = f"; rests on the repair search: {proof}" if minimal and proof else ""
    return Claim("fewest-changes", False, value=changes, why=f"not certified ({why}){rests}")


def minimal_core_claim(minimal: bool, certificate: Certificate | None,
                       witnesses: int, *, holds: str = "", why: str = "") -> Claim:
    """The claim that a core (``explain``) is one and is minimal (no member can be left
    out; smaller cores elsewhere are not ruled out): its ``certificate`` of unsolvability
    (the ``odd-nodes`` argument, or a ``drup`` refutation of the core's ``walk-core-v1``
    formula; ``None`` when it rests on CP-SAT alone, ``why`` saying why) and, for each of
    its members, a witness walk using all the others (``witnesses`` of them, all checked
    when ``minimal``), the whole accepted by the independent checker
    (:func:`~trailkit.models.checking.core_certificates.core_verdict`; ``holds``: what it
    verified, in its words)."""
    if minimal and certificate is not None:
        said = holds or (f"the core's {certificate.kind} argument and "
                         f"{plural(witnesses, 'witness walk')} (one without each member)")
        return Claim("minimal-core", True, certificate, value=witnesses, holds=(
            f"{said}; accepted by the independent checker"))
    reason = (f"{why or 'no short certificate applies'}; its unsolvability rests on CP-SAT "
              "alone; each member's witness walk is verified" if minimal else
              "a member without a verified witness walk")
    return Claim("minimal-core", False, certificate, value=witnesses,
                 why=f"not certified ({reason})")


def shortest_claim(puzzle: Puzzle, walk: Walk, *, rests_on: str = "direct",
                   state_limit: int = STATE_LIMIT, layers: Any = None) -> Claim:
    """The claim that no walk solving ``puzzle`` is shorter than ``walk`` (verified, and
    said to be shortest by ``rests_on``): a ``layers`` certificate the independent checker
    accepted, or, unchecked, why there is none and that it rests on ``rests_on``.
    ``layers``: the layer numbers of the search that found the walk, when it gave them
    (else direct's search makes them)."""
    numbers = layer_numbers(puzzle, len(walk), state_limit, layers)
    if isinstance(numbers, str):
        return Claim("shortest", False, value=len(walk), why=_unproven(numbers, rests_on))
    certificate = _certificate(puzzle, "shortest", walk, numbers)
    return _checked(puzzle, "shortest", certificate, len(walk), rests_on)


def found_shortest_claim(puzzle: Puzzle, *, rests_on: str = "direct's search",
                         state_limit: int = STATE_LIMIT) -> Claim:
    """The claim that the shortest walk of ``puzzle`` (an open walk) has L steps, found
    and certified at once: the ``layers`` up to the first where the walk may stop, one
    walk through them, and the certificate the independent checker accepted (``value``
    L); or, unchecked (``value`` None), why not and that it rests on ``rests_on`` (the
    search that found L): over
    ``state_limit`` states, a closed walk, or no walk at all. ``inspect`` asks it of each
    puzzle with an edge taken away."""
    built = layers_to_goal(puzzle, state_limit)
    if built is None:
        return Claim("shortest", False, why=unproven("no walk at all", rests_on))
    if isinstance(built, str):
        return Claim("shortest", False, why=unproven(built, rests_on))
    walk = next(built.walks_found(), None)
    if walk is None or verify(puzzle, walk):
        return Claim("shortest", False, why=unproven(
            "the layers reach the goal, but no walk through them keeps the rules",
            rests_on))
    certificate = _certificate(puzzle, "shortest", walk, built.numbers)
    return _checked(puzzle, "shortest", certificate, len(walk), rests_on)


def unique_claim(puzzle: Puzzle, walk: Walk, *, rests_on: str = "direct",
                 state_limit: int = STATE_LIMIT, layers: Any = None) -> Claim:
    """Whether ``walk`` (verified, and shortest) is the only shortest walk of ``puzzle``.

    ``value`` True: a ``layers`` certificate through step ``len(walk)``, whose walks the
    checker counted (one). ``value`` False: ``witness`` is a second walk of the same
    length, verified. ``checked`` False (``value`` None): why it could not be decided.
    """
    length = len(walk)
    numbers = layer_numbers(puzzle, length, state_limit, layers)
    if isinstance(numbers, str):
        return Claim("unique", False, why=_unproven(numbers, rests_on))
    built = layered(puzzle, numbers, length)
    if built.walks() == 1:
        certificate = _certificate(puzzle, "unique", walk, numbers)
        return _checked(puzzle, "unique", certificate, True, rests_on)
    for other in built.walks_found():
        if other != walk and not verify(puzzle, other):
            return Claim("unique", True, value=False, witness=other, holds=(
                f"a second walk of {plural(length, 'step')}, verified by the independent "
                "checker"))
    return Claim("unique", False, why=_unproven(
        "the layers count more than one walk, but the others break the once-only rules",
        rests_on))


def _unproven(why: str, rests_on: str) -> str:
    return unproven(why, f"{rests_on}'s search")


def _checked(puzzle: Puzzle, claim: str, certificate: Certificate, value: object,
             rests_on: str) -> Claim:
    """``certificate`` checked by the independent checker: the claim, or a loud failure."""
    verdict = layers_verdict(puzzle, certificate.data)
    if verdict.problems:
        raise VerificationFailure(f"the {claim} certificate for {rests_on}'s walk is "
                                  f"rejected by the independent checker: "
                                  f"{'; '.join(verdict.problems[:3])}")
    return Claim(claim, True, certificate, value=value, holds=verdict.holds)


def _certificate(puzzle: Puzzle, claim: str, walk: Walk, numbers: np.ndarray
                 ) -> Certificate:
    """The ``layers`` certificate of ``claim`` for ``walk`` (its edges by name): each
    state's layer ``numbers``, compressed."""
    names = puzzle.nodes
    data = {
        "claim": claim, "length": len(walk),
        "start": names[walk.nodes[0]] if walk.nodes else None,
        "walk": [puzzle.edge_id(e) for e in walk.edges],
        "layer_numbers": encode_layer_numbers(numbers),
    }
    what = "no shorter walk" if claim == "shortest" else "no other walk as short"
    last = len(walk) - 1 if claim == "shortest" else len(walk)
    return Certificate("layers", data, f"the states 0 to {max(last, 0)} steps first "
                       f"reach, layer by layer: {what} solves the puzzle")
