"""Proving unsolvability and other claims (``prove``), and the certificate files it writes.

A certificate file is JSON::

    {"format": "trailkit-certificate/1", "trailkit": "0.1.0",
     "spec": "specs/koenigsberg.yaml", "spec_sha256": "...",
     "certificate": {"type": "parity", "nodes": ["A", "B", "C", "D"], "explanation": "..."}}

A ``drup`` certificate's proof (a million lines, for big puzzles) is written to a side file
next to it (:func:`certificate_files`: ``CERT.drat``, or ``CERT.lrat`` for an LRAT proof),
which the JSON names (``proof_file``) with its SHA-256 (``proof_sha256``); certificates
holding their proof inline (``proof``: a list of lines) are read as ever.

Checking such a file (``check-certificate``) is
:mod:`~trailkit.solvers.pipeline.certificate_check`'s, which loads none of the makers;
:func:`check_certificate_file` and :class:`CertificateCheck` are also importable here.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from trailkit.models.answer import Answer, Certificate, Claim, Status
from trailkit.models.checking.certificates import verdict
from trailkit.models.errors import (
    UnsupportedPuzzle,
    VerificationFailure,
)
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.certificate_check import (
    CertificateCheck,
    check_certificate_file,
    spec_sha256,
)
from trailkit.solvers.pipeline.claim_rules import CLAIMS, claim_applies, claims_in_words
from trailkit.solvers.pipeline.claims import STATE_LIMIT, answer_claims, best_shortest_claim
from trailkit.solvers.pipeline.policy import UNCHECKED, checked_within, time_left
from trailkit.solvers.pipeline.refuted_claims import count_claim, over_listing_limit
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.support.version import trailkit_version

__all__ = ["CERTIFICATE_FORMAT", "CLAIMS", "CertificateCheck", "Proof", "certificate_files",
           "check_certificate_file", "claim_document", "prove", "prove_claim"]

CERTIFICATE_FORMAT = "trailkit-certificate/1"
FIRST_LOOK = 50_000
"""Search nodes ``prove`` gives direct's exhaustive search before the SAT backend is asked
(when no work limit is given): that search only looks for a walk, and giving up at its
default limit takes tens of seconds (``docs/benchmarks.md``); it goes on to that limit
only when no proof comes, so every answer is the same as with the whole limit."""


@dataclass(frozen=True)
class Proof:
    """What ``prove`` found.

    ``status`` is ``unsolvable`` only with a ``certificate`` the independent checker
    accepted; ``solved`` carries the ``length`` of a verified walk (nothing to prove);
    ``unknown`` says in ``reason`` why no certificate was made. ``document`` is the
    self-contained certificate file's content (``None`` without a certificate).
    For another claim (:func:`prove_claim`), ``claim`` is that claim as made and checked:
    ``solved`` with a checked claim (``unique`` may be false, with a second walk).
    """

    status: Status
    certificate: Certificate | None = None
    document: dict[str, Any] | None = None
    reason: str = ""
    length: int | None = None
    decided_by: str = ""
    claim: Claim | None = None


def prove(puzzle: Puzzle, backend: str | None = None, limits: Limits = NO_LIMITS, *,
          spec_path: str | None = None, drup: bool = False, precheck: bool = True,
          progress: Callable[[str], None] | None = None) -> Proof:
    """Find a checkable certificate that ``puzzle`` has no walk.

    Structural certificates come first (they are one line); otherwise, or always with
    ``drup`` (or ``precheck=False``), ``backend`` (a SAT backend, ``sat`` by default)
    is asked for a DRUP proof, which is checked before it is returned. That is also
    tried when direct reaches its limit: a checked proof settles the question, and
    without one the answer stays unknown. With ``drup`` (or ``precheck=False``) the
    proof is asked for before direct runs, and direct only when none came (the puzzle
    may have a walk). Without a work limit, direct's search first gets
    :data:`FIRST_LOOK` nodes, and its whole default only if no proof comes.
    ``progress`` hears how the check of a long proof goes (and that the checker compiles
    first, the first time after installing).
    """
    engine = get_backend(backend or "sat")
    why_not = engine.why_no_proof(puzzle) if engine.supports_proof else None
    certificate, decided_by, tried = None, engine.name, False
    left = _Clock(limits)  # --time-limit is the whole command's: each phase gets what is left
    if (drup or not precheck) and engine.supports_proof and why_not is None:
        # Only a DRUP proof will do, so it is asked for first: direct would only look
        # for a walk, and on a puzzle of colours and once-only edges its search may
        # spend its whole work limit (tens of seconds, docs/benchmarks.md) before
        # giving up. Direct runs after, when no proof came (a walk may exist).
        certificate, tried = _checked_proof(engine, puzzle, left(), progress), True
    if certificate is None:
        return _search_then_proof(puzzle, engine, why_not, tried, left, spec_path=spec_path,
                                  drup=drup, precheck=precheck, progress=progress)
    return _unsolvable(certificate, spec_path, decided_by)


def _search_then_proof(puzzle: Puzzle, engine: Backend, why_not: str | None, tried: bool,
                       left: _Clock, *, spec_path: str | None, drup: bool, precheck: bool,
                       progress: Callable[[str], None] | None) -> Proof:
    """``prove`` when no proof was asked for first, or none came: direct's search (a
    first look when a proof comes next), its checked certificate, else ``engine``'s
    checked DRUP proof, else direct's whole search for a walk; what it found, or unknown
    saying why no certificate."""
    limits = left.limits
    certificate, decided_by = None, engine.name
    # a proof is asked for next: direct's search first takes a look only
    proof_next = engine.supports_proof and why_not is None and not tried
    phase = left() if tried else limits  # the first phase has the whole limit
    first = (replace(phase, work_limit=FIRST_LOOK)
             if proof_next and limits.work_limit is None else phase)
    answer = solve(puzzle, "direct", first)
    if answer.status is Status.SOLVED:
        return _solved(answer)
    if answer.certificate_checked and not drup and precheck:
        certificate, decided_by = answer.certificate, answer.decided_by
    elif not engine.supports_proof:
        raise UnsupportedPuzzle(f"backend {engine.name!r} makes no proofs; use sat or "
                                "sat:NAME")
    elif why_not is not None:
        return _no_proof_applies(answer, why_not, drup, precheck)
    elif not tried:  # also when direct gave up: a checked proof settles the question
        certificate = _checked_proof(engine, puzzle, left(), progress)
    if certificate is None and answer.status is Status.UNKNOWN and \
            first.work_limit != limits.work_limit and left.more():
        answer = solve(puzzle, "direct", left())  # no proof: the whole search, for a walk
        if answer.status is Status.SOLVED:
            return _solved(answer)
    if certificate is None:
        if answer.status is Status.UNKNOWN:
            return Proof(Status.UNKNOWN, reason=answer.reason if left.more() else
                         f"the time limit of {limits.time_limit:g} s was reached")
        return Proof(Status.UNKNOWN, reason=f"unsolvable ({answer.reason}), but no "
                     "checkable certificate could be made within the limits")
    return _unsolvable(certificate, spec_path, decided_by)


def _unsolvable(certificate: Certificate, spec_path: str | None, decided_by: str) -> Proof:
    """The proof of no walk by ``certificate``, with its certificate file's content
    (which names the spec file and its hash, to notice a later change)."""
    document = {"format": CERTIFICATE_FORMAT, "trailkit": trailkit_version(), "spec": spec_path,
                "spec_sha256": spec_sha256(spec_path), "certificate": certificate.to_json()}
    return Proof(Status.UNSOLVABLE, certificate, document, decided_by=decided_by)


def prove_claim(puzzle: Puzzle, claim: str, limits: Limits = NO_LIMITS, *,
                spec_path: str | None = None, state_limit: int = STATE_LIMIT,
                drup: bool = False) -> Proof:
    """Make and check the certificate of ``claim`` (``shortest``, ``unique``, ``count``,
    ``longest``) for ``puzzle``: ``solved`` with the checked claim and its certificate
    file's content;
    ``unsolvable`` when there is no walk at all (for ``count``, with the checked claim of 0
    solutions and its file: the unsolvability certificate); ``unknown`` when a limit came first or
    the certificate could not be made. Raises :class:`UnsupportedPuzzle` when the claim
    does not apply to the puzzle (saying which claims do). With ``drup`` the claim is
    proven by refutation even where ``layers`` or the count's formula certificate would
    do (the proof files of ``--proof-dir``)."""
    why_not = claim_applies(puzzle, claim)
    if why_not:
        raise UnsupportedPuzzle(f"the {claim} claim does not apply: {why_not}; claims that "
                                f"apply here: {', '.join(claims_in_words(puzzle))}")
    answer = solve(puzzle, "direct", limits)
    settled = _settled_by_search(puzzle, answer, claim, spec_path, drup)
    if settled is not None:
        return settled
    if claim == "count":
        found = over_listing_limit(puzzle, limits, by_refutation=drup) or \
            count_claim(puzzle, limits, by_refutation=drup)
    else:
        found = _walk_claim(puzzle, answer, claim, state_limit, limits, drup)
    if not found.checked:
        return Proof(Status.UNKNOWN, reason=found.why, claim=found, length=answer.length,
                     decided_by=answer.decided_by)
    document = None
    if found.certificate is not None:
        document = claim_document(spec_path, claim, found.certificate, length=answer.length,
                                  **({"solutions": found.value} if claim == "count" else {}))
    return Proof(Status.UNSOLVABLE if found.value == 0 and claim == "count" else
                 Status.SOLVED, found.certificate, document, length=answer.length,
                 decided_by=answer.decided_by, claim=found)


def _settled_by_search(puzzle: Puzzle, answer: Answer, claim: str, spec_path: str | None,
                       drup: bool) -> Proof | None:
    """What ``prove_claim`` says when direct's search already settles it, before any
    claim is made: no walk at all (for ``count``: 0 solutions, by its checked
    unsolvability certificate) or no answer within the limits; ``None`` to go on (a
    ``count`` of an unsolvable puzzle without that certificate still counts)."""
    no_walk = answer.status is Status.UNSOLVABLE and answer.certificate_checked
    if claim == "count" and not drup and no_walk and answer.certificate is not None:
        return _no_walk_counted(puzzle, answer, spec_path)
    counts_anyway = claim == "count" and not no_walk  # its certificate may show 0 walks
    if answer.status is Status.UNSOLVABLE and not counts_anyway:
        return Proof(Status.UNSOLVABLE, answer.certificate, decided_by=answer.decided_by,
                     reason=f"there is no walk at all, so no {claim} one")
    if answer.status is not Status.SOLVED and not counts_anyway:
        return Proof(Status.UNKNOWN, reason=answer.reason, decided_by=answer.decided_by)
    return None


def _walk_claim(puzzle: Puzzle, answer: Answer, claim: str, state_limit: int,
                limits: Limits, drup: bool) -> Claim:
    """The claim ``claim`` about ``answer``'s verified walk, as ``solve`` makes it; for
    ``shortest`` of an exactly-once walk (which ``solve`` does not claim: every walk has
    one length, the number of edges), certified here the same way."""
    made = answer_claims(puzzle, answer, unique=claim == "unique",
                         state_limit=state_limit, limits=limits, drup=drup)
    found = next((c for c in made if c.claim == claim), None)
    if found is not None:
        return found
    if claim == "shortest" and puzzle.use is EdgeUse.EXACTLY_ONCE and \
            answer.walk is not None:
        return best_shortest_claim(puzzle, answer.walk,
                                   rests_on=answer.decided_by or answer.backend,
                                   state_limit=state_limit, limits=limits, drup=drup)
    return Claim(claim, False, why=f"not certified ({answer.backend} does not say its "
                 f"walk is the {claim}: its search stopped at a limit)")


def _no_walk_counted(puzzle: Puzzle, answer: Answer, spec_path: str | None) -> Proof:
    """``prove --claim count`` of a puzzle with no walk: 0 solutions, its unsolvability
    certificate (checked with the answer) the count's, in a file stating ``solutions`` 0."""
    certificate = answer.certificate
    assert certificate is not None
    checked = verdict(puzzle, certificate)
    if checked.problems:
        raise VerificationFailure("the unsolvability certificate is rejected by the "
                                  f"independent checker: {'; '.join(checked.problems[:3])}")
    claim = Claim("count", True, certificate, value=0,
                  holds=f"no walk at all: {checked.holds}")
    return Proof(Status.UNSOLVABLE, certificate,
                 claim_document(spec_path, "count", certificate, solutions=0),
                 decided_by=answer.decided_by, claim=claim,
                 reason="there is no walk at all: 0 solutions")


def claim_document(spec_path: str | None, claim: str, certificate: Certificate,
                   **stated: Any) -> dict[str, Any]:
    """A ``trailkit-certificate/1`` file's content for ``claim``: the claimed values
    (``stated``: ``length``, ``solutions``, ``changes``) beside the certificate."""
    return {"format": CERTIFICATE_FORMAT, "trailkit": trailkit_version(), "spec": spec_path,
            "spec_sha256": spec_sha256(spec_path), "claim": claim, **stated,
            "certificate": certificate.to_json()}


def _no_proof_applies(answer: Answer, why_not: str, drup: bool, precheck: bool) -> Proof:
    """Unknown, saying why no DRUP proof applies and what would prove it instead; an
    input error when only a DRUP proof would do (``drup``, or no ``precheck``)."""
    unless = "no DRUP proof is asked for" if drup else "the pre-check is on"
    instead = (f" (when {unless}, trailkit proves it with its "
               f"{answer.certificate.kind} certificate)"
               if answer.certificate_checked and answer.certificate is not None else "")
    message = f"no DRUP proof applies: {why_not}{instead}"
    if drup or not precheck:  # asked for what cannot apply: an input error
        raise UnsupportedPuzzle(message)
    return Proof(Status.UNKNOWN, reason=message)


def _solved(answer: Answer) -> Proof:
    return Proof(Status.SOLVED, length=answer.length, decided_by=answer.decided_by,
                 reason=f"a verified walk of {plural(answer.length or 0, 'step')} exists")


class _Clock:
    """What is left of a command's ``limits`` (its time limit counted from now): call it
    for the limits of the next phase."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.started = time.perf_counter()

    def __call__(self) -> Limits:
        return replace(self.limits, time_limit=time_left(self.limits, self.started))

    def more(self) -> bool:
        """Whether any time is left (always, without a time limit)."""
        return self().time_limit != 0


def _checked_proof(engine: Backend, puzzle: Puzzle, limits: Limits,
                   progress: Callable[[str], None] | None) -> Certificate | None:
    """``engine``'s DRUP certificate that ``puzzle`` has no walk, checked by the
    independent checker within ``limits.time_limit`` (``None``: solvable, or no proof
    made and checked within the limits)."""
    if limits.time_limit == 0:
        return None
    began = time.perf_counter()
    certificate = engine.prove(puzzle, limits)
    if certificate is None:
        return None
    problems = checked_within(puzzle, certificate, time_left(limits, began), progress)
    if problems and problems[0].startswith(UNCHECKED):
        return None  # not checked in time: no certificate
    if problems:
        raise VerificationFailure(f"{engine.name} made a proof the checker rejects: "
                                  f"{'; '.join(problems[:3])}")
    return certificate


def certificate_files(document: dict[str, Any], out: str | Path) -> list[tuple[Path, str]]:
    """The files ``prove --out OUT`` writes, in order, with their contents: for a ``drup``
    certificate first its proof, in a side file next to ``OUT`` (``OUT`` with the suffix
    ``.drat``, or ``.lrat`` for an LRAT proof), then ``OUT``, the JSON naming the side
    file and its SHA-256."""
    target = Path(out)
    body = document.get("certificate") or {}
    if body.get("type") != "drup" or "proof" not in body:
        return [(target, json.dumps(document, indent=1) + "\n")]
    proof = body["proof"]
    text = proof if isinstance(proof, str) else "".join(f"{line}\n" for line in proof)
    side = target.with_suffix(".lrat" if body.get("proof_format") == "lrat" else ".drat")
    if side == target:
        side = target.with_name(target.name + ".proof")
    digest = hashlib.sha256(text.encode("ascii")).hexdigest()
    moved = {**{k: v for k, v in body.items() if k != "proof"}, "proof_file": side.name,
             "proof_sha256": digest}
    return [(side, text),
            (target, json.dumps({**document, "certificate": moved}, indent=1) + "\n")]

