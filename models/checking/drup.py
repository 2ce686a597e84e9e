"""trailkit's own DRUP proof checker, and the checker for ``drup`` certificates.

A DRUP proof refutes a CNF formula: each *lemma* line (``-3 5 0``) must follow
from the clauses so far by *reverse unit propagation* (assume every literal of the
lemma false; unit propagation must reach a conflict), each ``d ... 0`` line deletes
a clause, and the proof must derive the empty clause (``0``). A proof without it
is not a refutation: a truncated proof file is rejected.

By default the checker works *backward*, as drat-trim does: it first adds the
lemmas without checking them (two watched literals, unit propagation at top
level) until propagation reaches a conflict; then it walks the proof back,
taking lemmas out and putting deleted clauses back, and RUP-checks only the
lemmas marked as used: the clauses of the final conflict and, for every lemma
checked, the conflict and reasons its derivation used. A lemma nothing uses is
skipped (the refutation stands without it). Propagation in the backward pass
is *core-first*, as in drat-trim: clauses already marked are propagated before
any other, so conflicts rest on them where they can and fewer lemmas join the
core (how many fewer on solver proofs: ``docs/benchmarks.md``). ``backward=False``
checks every lemma when it is added. Either way the proof must contain the empty
clause, and every lemma a refutation rests on is checked against the clauses present
at its line.

As drat-trim does, the checker ignores deletions of unit clauses and of clauses
that are the reason of a top-level assignment: Glucose and MapleChrono delete
such clauses, and honouring those deletions would reject valid proofs. Ignoring
a deletion only keeps an implied clause, so it can never make an invalid proof
pass. (python-sat 1.9's Maplesat writes every variable ``v`` as ``v + 1`` in its
proofs, so they are rejected: they are not proofs of the formula it was given.)

>>> check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"])
(True, 'the proof derives the empty clause at line 2 (2 of 2 lemmas checked, backward)')
>>> check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0"])[0]
False

This module binds the proof to the formula: the proof (its lines, its whole text as
``str`` or ``bytes``, or its file's path) is read straight into the clause database as
literal codes by :mod:`trailkit.models.proofs.drup_read` (a file in blocks, never held whole;
each deletion resolved to the clause it deletes as it is read); the clause database
itself, and every loop over the proof, is the compiled kernel of
:mod:`trailkit.models.proofs.drup_kernel`. The time limit is looked at every 256 proof lines.

:func:`check_drup_certificate` binds a proof to a puzzle: it re-encodes the puzzle
with the encoding the certificate names, requires the certified CNF to be exactly
that formula (by SHA-256), and then checks the proof against the re-encoded CNF.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from trailkit.models.answer import Certificate
from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.proofs import drup_kernel, drup_read_kernel, lrat_kernel
from trailkit.models.proofs.drup_read import (
    Lines,
    Proof,
    ProofChanged,
    ProofText,
    build_database,
    read_proof,
    text_size,
)
from trailkit.models.puzzle import Puzzle
from trailkit.models.support import jit

kernel = jit.Kernels(drup_kernel)
hint_kernel = jit.Kernels(lrat_kernel)

_INTERPRETED_BELOW = 4
"""A check runs interpreted when its formula's literals and its proof's bytes come to
fewer than ``jit.COMPILE_FROM / _INTERPRETED_BELOW`` (5,000; RUP checking does more work
per literal than the linear kernels ``COMPILE_FROM`` was set for)."""

__all__ = ["COMPILING", "MAX_LEMMAS", "check_drup", "check_drup_certificate", "cnf_sha256",
           "cnf_text", "drup_to_lrat", "drup_verdict", "will_compile"]

MAX_LEMMAS = 2_000_000
"""Proofs with more lemma lines than this are not accepted as certificates (too big)."""


def cnf_text(num_vars: int, clauses: Iterable[Sequence[int]]) -> str:
    """Canonical DIMACS text of a formula (no comments): what certificates hash."""
    clauses = list(clauses)
    lines = [f"p cnf {num_vars} {len(clauses)}"]
    lines.extend(" ".join(map(str, c)) + " 0" if c else "0" for c in clauses)
    return "\n".join(lines) + "\n"


def cnf_sha256(num_vars: int, clauses: Iterable[Sequence[int]]) -> str:
    """SHA-256 of :func:`cnf_text` (hex)."""
    return hashlib.sha256(cnf_text(num_vars, clauses).encode()).hexdigest()


_CHUNK = 256
"""Proof lines per call into the kernel: the time limit is looked at between calls."""

_NO_MEMORY = "unchecked: the proof needs more memory than the checker has"


def _watching_at_most(db: drup_kernel.Database, deletion: np.ndarray, target: np.ndarray,
                      base: int) -> int:
    """How many clauses can be in propagation at once: the formula's, plus the lemmas
    added so far, less the clauses deleted so far, at its largest over the proof (a
    unit is never deleted). A deletion the checker refuses (of a reason) keeps one
    more: then the pool sized by this is short, and the check runs again with room
    for every clause (:func:`_check`)."""
    if len(deletion) == 0:
        return base
    deleted = (target >= 0) & (db.size[np.maximum(target, 0)] > 1)
    steps = (deletion == 0).astype(np.int8) - deleted.astype(np.int8)
    return base + max(0, int(np.cumsum(steps, dtype=np.int32).max()))


def _tidy(db: drup_kernel.Database) -> None:
    """Compact the watch lists once most entries belong to clauses that left
    propagation (deleted clauses leave theirs behind: dropping them costs a pass)."""
    if int(db.wlen.sum()) > 8 * int(db.meta[kernel.WATCHING]) + 4096:
        kernel.compact(db)


Progress = Callable[[str], None]
_PROGRESS_EVERY = 0.5
"""Seconds between two progress reports."""


class _Reporter:
    """Calls ``progress`` with how far the check has got, at most twice a second: the
    share of a proof file read, then (once :attr:`numbers` is set) the line reached."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.numbers = np.zeros(1, dtype=np.int64)
        self.last = time.monotonic()

    def _due(self) -> Progress | None:
        """``progress``, when a report is due now."""
        if self.progress is None or time.monotonic() - self.last < _PROGRESS_EVERY:
            return None
        self.last = time.monotonic()
        return self.progress

    def reading(self, phase: str, done: int, total: int) -> None:
        if (progress := self._due()) is not None:
            progress(f"DRUP proof: {phase}, {100 * done // max(total, 1)}% of the file")

    def __call__(self, phase: str, index: int) -> None:
        if (progress := self._due()) is not None:
            progress(f"DRUP proof: {phase}, line {self.numbers[index]:,} of "
                     f"{self.numbers[-1]:,}")


class _OutOfTime(Exception):
    """The time limit ran out at a proof line (the proof is unchecked)."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def _tick(deadline: float | None, index: int) -> None:
    """Raise :class:`_OutOfTime` once the deadline has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise _OutOfTime(index)


def check_drup(clauses: Iterable[Sequence[int]], proof_lines: ProofText, *,
               time_limit: float | None = None, max_lemmas: int = MAX_LEMMAS,
               backward: bool = True, core_first: bool = True,
               progress: Progress | None = None) -> tuple[bool, str]:
    """Check a DRUP refutation of ``clauses``; return ``(ok, message)``.

    The proof must contain an empty-clause line (``0``), and unit propagation on
    the formula and the lemmas before it must reach a conflict. With ``backward``
    (the default, as drat-trim) lemmas are first added unchecked up to that
    conflict; then the proof is walked back and only the lemmas the conflict (and
    the derivations of lemmas already checked) rest on are RUP-checked. A lemma no
    derivation uses is skipped: the refutation holds without it. With
    ``backward=False`` every lemma is checked when it is added. ``core_first``
    (backward only) propagates the clauses already used first, as drat-trim does,
    so that fewer lemmas need checking; a proof whose lemmas all follow is accepted
    either way.

    ``proof_lines`` is the proof's lines, or its whole text (``str``, or ``bytes`` read
    as UTF-8, split into lines as :meth:`str.splitlines` does): a text is read without
    a string per line, so a long proof file is best passed as its bytes.

    The message names the first proof line (1-based) that fails, or says that the
    proof ends without the empty clause. ``time_limit`` (seconds) and ``max_lemmas``
    bound the work: a proof over either is reported as unchecked (``ok`` false).
    ``progress``, if given, is called about twice a second with a line saying how
    far the check has got (for a terminal: long proofs take a while).
    """
    ok, message, _ = _check(clauses, proof_lines, time_limit, max_lemmas, backward,
                            core_first, progress)
    return ok, message


def _check(clauses: Iterable[Sequence[int]], proof_lines: ProofText,
           time_limit: float | None, max_lemmas: int, backward: bool,
           core_first: bool = True, progress: Progress | None = None,
           lrat: Write | None = None) -> tuple[bool, str, drup_kernel.Database | None]:
    """:func:`check_drup`, also returning the database it ended with (None if the
    proof could not be parsed), for tests that look inside. With ``lrat`` (a
    :data:`Write`), the check is backward and an accepted proof's LRAT text is handed to
    it in blocks."""
    clauses = list(clauses)
    size = sum(map(len, clauses)) + text_size(proof_lines)
    small = size * _INTERPRETED_BELOW < jit.COMPILE_FROM
    if progress is not None and not small and will_compile(lrat is not None):
        progress(COMPILING)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with jit.interpreted(small):  # a second try, if any, runs within the same time limit
        found = _check_with(clauses, proof_lines, time_limit, deadline, max_lemmas,
                            backward, core_first, progress, lrat, True)
        if found[1] == _NO_MEMORY and found[2] is not None:  # the tight pool was short
            found = _check_with(clauses, proof_lines, time_limit, deadline, max_lemmas,
                                backward, core_first, progress, lrat, False)
        return found


COMPILING = ("compiling the DRUP checker (once after installing or upgrading trailkit; "
             "10 to 30 seconds)")
"""What ``progress`` hears before a check that compiles the kernels first."""


def will_compile(lrat: bool = False) -> bool:
    """Whether the next check of a proof too big to run interpreted compiles the
    checker's kernels first (nothing cached yet: the first check after installing);
    with ``lrat``, of a check that writes LRAT (its backward pass is another kernel)."""
    last = lrat_kernel.backward_hints if lrat else drup_kernel.backward
    return jit.will_compile(drup_kernel.forward, last, drup_read_kernel.scan_proof,
                            drup_read_kernel.fill_proof)


class _Pass(NamedTuple):
    """What the forward and backward passes share: the database and the per-line arrays."""

    db: drup_kernel.Database
    kind: np.ndarray
    target: np.ndarray
    before: np.ndarray
    applied: np.ndarray
    base: int
    deadline: float | None
    report: _Reporter


def _load(clauses: list[Sequence[int]], proof_lines: ProofText, max_lemmas: int,
          report: _Reporter, names: list[np.ndarray], tight: bool,
          ) -> tuple[drup_kernel.Database, Lines, Proof] | str:
    """The proof read into a new database, with a watch pool for every clause or, with
    ``tight``, for the clauses in propagation at once; or why it cannot be checked."""
    proof = read_proof(proof_lines, max_lemmas, report.reading)
    if isinstance(proof, str):
        return proof
    try:
        db, found = build_database(clauses, proof, names, report.reading)
    except MemoryError:
        return _NO_MEMORY
    except ProofChanged:
        return "unchecked: the proof file changed while it was read"
    report.numbers = found.numbers
    # the pool's pages are touched as lists grow: a smaller pool holds less
    watching = (_watching_at_most(db, found.kind, found.target, len(clauses)) if tight
                else len(clauses) + proof.clauses)
    return db._replace(watches=drup_kernel.new_pool(watching, len(db.truth))), found, proof


def _check_with(clauses: list[Sequence[int]], proof_lines: ProofText, time_limit: float | None,
                deadline: float | None, max_lemmas: int, backward: bool, core_first: bool,
                progress: Progress | None, lrat: Write | None,
                tight: bool) -> tuple[bool, str, drup_kernel.Database | None]:
    """:func:`_check` with its kernels chosen; with ``tight``, the watch pool is sized
    for the clauses in propagation at once (:func:`_watching_at_most`), not for all.
    ``deadline`` is when ``time_limit`` runs out (:func:`time.monotonic`)."""
    report = _Reporter(progress)
    names: list[np.ndarray] = []
    loaded = _load(clauses, proof_lines, max_lemmas, report, names, tight)
    if isinstance(loaded, str):
        return False, loaded, None
    db, found, proof = loaded
    base, lines = len(clauses), proof.clauses
    kind, target, numbers = found.kind, found.target, found.numbers
    run = _Pass(db, kind, target, np.zeros(lines, dtype=np.int32),
                np.zeros(lines, dtype=np.uint8), base, deadline,
                report)
    try:
        passed = _passes(run, lines, backward, core_first, lrat, names)
    except _OutOfTime as out:
        return False, (f"unchecked: the time limit of {time_limit} s ran out at proof "
                       f"line {numbers[out.index]}"), db
    except MemoryError:
        return False, _NO_MEMORY, db
    if passed is None:
        return False, (f"the proof ends after {numbers[-1] if lines else 0} lines "
                       "without deriving the empty clause: it is not a refutation "
                       "(truncated?)"), db
    index, ok = passed
    if not ok:
        number = int(numbers[index])
        return False, (f"proof line {number} ({proof.line(index, number)[:60]!r}) "
                       "does not follow by reverse unit propagation"), db
    lemmas = lines - int(kind.sum())
    how = "backward" if backward else "forward"
    return True, (f"the proof derives the empty clause at line {numbers[index]} "
                  f"({1 + int(db.meta[kernel.CHECKED])} of {lemmas} lemmas checked, {how})"), db


def _passes(run: _Pass, lines: int, backward: bool, core_first: bool, lrat: Write | None,
            names: list[np.ndarray]) -> tuple[int, bool] | None:
    """The checking passes: forward (checking each lemma unless ``backward``) up to the
    first empty clause derived, then for a backward check the conflict's analysis and the
    backward pass over the lemmas it needs (writing LRAT hints with ``lrat``). Gives the
    index of that empty clause and ``True``; or the index of the line that failed and
    ``False``; ``None`` when no empty clause is derived (no refutation)."""
    db, meta = run.db, run.db.meta
    stop = _forward(run, lines, not backward)
    if stop < 0:
        return int(meta[kernel.AT]), False
    empty = np.flatnonzero((run.kind[stop:] == 0) & (db.size[run.base + stop:] == 0))
    if len(empty) == 0:
        return None
    index = stop + int(empty[0])
    if meta[kernel.CONFLICT] == -1:
        return index, False
    if backward:
        meta[kernel.CORE_FIRST] = int(core_first)
        kernel.analyze(db, int(meta[kernel.CONFLICT]))
        at = _backward(run, stop) if lrat is None else _backward_lrat(run, stop, lrat, names)
        if at >= 0:
            return at, False
    return index, True


def _forward(run: _Pass, lines: int, check: bool) -> int:
    """Add the formula and the proof lines until the database is inconsistent (or an
    empty-clause line); return that line's index, or -1 when a lemma fails (``check``)."""
    db = run.db
    kernel.add_formula(db, run.base)
    for first in range(0, lines, _CHUNK):
        _tick(run.deadline, first)
        run.report("adding lemmas", first)
        status = kernel.forward(db, run.kind, run.target, run.before, run.applied, run.base,
                                first, min(lines, first + _CHUNK), check)
        if status == kernel.FAILED:
            return -1
        if status == kernel.STOPPED:
            return int(db.meta[kernel.AT])
        _tidy(db)
    return lines


def _backward(run: _Pass, stop: int) -> int:
    """The backward pass over lines ``stop - 1 .. 0``: -1, or the index of a lemma that
    does not follow."""
    db = run.db
    for last in range(stop, 0, -_CHUNK):
        _tick(run.deadline, last - 1)
        run.report("checking lemmas backward", last - 1)
        status = kernel.backward(db, run.kind, run.target, run.before, run.applied, run.base,
                                 max(0, last - _CHUNK), last)
        if status == kernel.FAILED:
            return int(db.meta[kernel.AT])
        _tidy(db)
    return -1


Write = Callable[[memoryview], object]
"""Takes the LRAT text a block at a time (ASCII bytes, a view valid during the call)."""

LRAT_BLOCK = 1 << 22
"""Bytes of LRAT text handed to ``write`` at a time (4 MiB, or the longest line)."""


def _backward_lrat(run: _Pass, stop: int, write: Write, names: list[np.ndarray]) -> int:
    """:func:`_backward`, recording each checked lemma's hints; on success the LRAT text
    goes to ``write``."""
    db, base = run.db, run.base
    room = len(db.reason) + 2
    hints = np.zeros(max(1 << 16, 4 * room), dtype=np.int32)
    keys = np.zeros(2 * room, dtype=np.int64)  # the hints' positions, and the sort's room
    starts = np.zeros(max(stop, 1), dtype=np.int64)
    ends = np.full(max(stop, 1), -1, dtype=np.int64)
    at = int(hint_kernel.collect_hints(db, int(db.meta[kernel.CONFLICT]), -1, hints, 0, keys))
    final = hints[:at].copy()
    at = 0
    last = stop
    while last > 0:
        _tick(run.deadline, last - 1)
        run.report("checking lemmas backward", last - 1)
        first = max(0, last - _CHUNK)
        status, at = hint_kernel.backward_hints(db, run.kind, run.target, run.before,
                                                run.applied, base, first, last, hints,
                                                starts, ends, keys, at)
        if status == kernel.FAILED:
            return int(db.meta[kernel.AT])
        if status == lrat_kernel.ROOM:  # grown in place (no second copy held meanwhile)
            hints.resize(2 * len(hints), refcheck=False)
            last = int(db.meta[kernel.AT]) + 1
            continue
        last = first
        _tidy(db)
    _write_lrat(run, stop, hints[:at], starts, ends, final, names[0] if names else None,
                write)
    return -1


def _write_lrat(run: _Pass, stop: int, hints: np.ndarray, starts: np.ndarray,
                ends: np.ndarray, final: np.ndarray, names: np.ndarray | None,
                write: Write) -> None:
    """Hand the LRAT proof to ``write`` in blocks: the checked lemmas with their hints,
    the deletions of the clauses it holds, and the empty clause. Formula clause ``c``
    has id ``c + 1``; the lemmas are numbered on from ``base + 1`` in proof order."""
    db, base = run.db, run.base
    checked = ends[:stop] >= 0
    ids = np.zeros(base + stop, dtype=np.int64)
    ids[:base] = np.arange(1, base + 1)
    ids[base:][checked] = base + 1 + np.arange(int(checked.sum()))
    variables = (np.arange(len(db.reason) + 1) if names is None
                 else np.concatenate(([0], names))).astype(np.int64)
    numbers = db.size[base:base + stop] + (ends[:stop] - starts[:stop])
    longest = max(int(numbers[checked].max()) if checked.any() else 0, len(final))
    out = np.empty(max(LRAT_BLOCK, lrat_kernel.NUMBER * (longest + 3) + 8), dtype=np.uint8)
    state = np.zeros(lrat_kernel.LRAT_SLOTS, dtype=np.int64)
    state[lrat_kernel.LAST_ID] = base
    view = memoryview(out)  # type: ignore[arg-type]  # a NumPy array is a buffer
    while state[lrat_kernel.NEXT] <= stop:
        end = hint_kernel.write_lrat(db, run.kind, run.target, run.applied, base, stop,
                                     hints, starts, ends, final, ids, variables, out, state)
        write(view[:end])


def drup_to_lrat(clauses: Iterable[Sequence[int]], proof_lines: ProofText, *,
                 time_limit: float | None = None, max_lemmas: int = MAX_LEMMAS,
                 progress: Progress | None = None, write: Write | None = None,
                 ) -> tuple[bool, str, str | None]:
    """Check a DRUP refutation of ``clauses`` (backward, core-first, as
    :func:`check_drup`) and turn it into LRAT: ``(ok, message, lrat_text)``, the text
    ``None`` when the proof is rejected. With ``write`` (a file's ``write``, say), the
    text is handed to it a block at a time as it is made, never held whole, and the
    third item is ``None``; nothing is written unless the proof is accepted.

    Each checked lemma's hints are the clauses its reverse-unit-propagation check used,
    in the order they became unit (as ``drat-trim -L`` writes them); the formula's
    clauses have ids ``1 .. len(clauses)`` and the lemmas follow. Lemmas the refutation
    does not use are left out, as are deletions of clauses the LRAT proof never holds
    and the deletions the checker ignores (of units and reasons)."""
    blocks: list[bytes] = []
    ok, message, _ = _check(clauses, proof_lines, time_limit, max_lemmas, True, True,
                            progress, write or (lambda block: blocks.append(bytes(block))))
    text = b"".join(blocks).decode("ascii") if ok and write is None else None
    return ok, message, text


# ------------------------------------------------------------- certificates
CERTIFICATE_FORMAT = "trailkit-drup/1"


def check_drup_certificate(puzzle: Puzzle, certificate: Certificate, *,
                           time_limit: float | None = None,
                           progress: Progress | None = None) -> list[str]:
    """Check a ``drup`` certificate against ``puzzle``; return why it fails ([] = accepted):
    :func:`drup_verdict`'s problems.

    The data must carry ``format``, ``encoding`` with the parameters that encoding
    needs (:func:`trailkit.models.formulas.formulas.rebuild`: ``cardinality``, ``length`` and
    ``symmetry`` for ``position-v1``; ``cardinality`` for ``walk-v1``; ``cuts`` for
    ``transition-v1``), ``cnf_sha256`` and ``proof`` (a list of lines, one text as
    ``str`` or ``bytes``, or the path of a side file);
    ``cnf`` (DIMACS text), ``num_vars``, ``variables``, ``trailkit_version``,
    ``spec_sha256`` and ``solver`` are informative. The formula is re-derived from the
    puzzle, so a proof made for another spec or another formula is rejected.
    ``progress`` is as for :func:`check_drup`.
    """
    return drup_verdict(puzzle, certificate, time_limit=time_limit,
                        progress=progress).problems


def drup_verdict(puzzle: Puzzle, certificate: Certificate, *,
                 time_limit: float | None = None,
                 progress: Progress | None = None) -> Verdict:
    """Check a ``drup`` certificate as :func:`check_drup_certificate` does: why it fails,
    or (accepted) what was verified, in the checker's words
    (:func:`trailkit.models.checking.check_words.refutation`)."""
    try:
        return _check_drup_data(puzzle, certificate.data, time_limit, progress)
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict([f"malformed drup certificate: {exc!r}"])


def _check_drup_data(puzzle: Puzzle, data: Mapping[str, Any], time_limit: float | None,
                     progress: Progress | None) -> Verdict:
    # The formula's trusted definition; the checking algorithm above uses none of it.
    from trailkit.models.checking.stored_formula import formula_problems
    from trailkit.models.formulas.formulas import rebuild

    if data.get("format") != CERTIFICATE_FORMAT:
        return Verdict([f"unknown drup certificate format {data.get('format')!r} "
                        f"(expected {CERTIFICATE_FORMAT!r})"])
    formula = rebuild(puzzle, data)
    if isinstance(formula, list):
        return Verdict(formula)
    clauses = formula.clauses
    problems = formula_problems(formula, data)  # the stored formula is the certified one
    if problems:
        return Verdict(problems)
    proof = data["proof"]
    text = proof if isinstance(proof, str | bytes | os.PathLike) else [str(x) for x in proof]
    ok, message = check_drup(clauses, text, time_limit=time_limit, progress=progress)
    if not ok:
        return Verdict([message])
    return Verdict([], check_words.refutation(formula, str(data["cnf_sha256"]), message,
                                              lrat=False, cuts=len(data.get("cuts") or [])))
