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

This module binds the proof to the formula: the proof (its lines, or its whole text
as ``str`` or ``bytes``) is read by the kernel's compiled byte scanner straight into
the clause database as literal codes, with no Python string per line; a malformed line,
or text the scanner leaves alone (non-ASCII, rare line breaks), goes through the exact
per-line reader (a regular expression per line), which gives the same lines and names
the malformed one. Sparse variable numbers are renumbered densely, and a compiled hash
table resolves which clause each deletion line deletes; the clause database itself, and
every loop over the proof, is the compiled kernel of :mod:`trailkit.models.drup_kernel`.
The time limit is looked at every 256 proof lines.

:func:`check_drup_certificate` binds a proof to a puzzle: it re-encodes the puzzle
with the encoding the certificate names, requires the certified CNF to be exactly
that formula (by SHA-256), and then checks the proof against the re-encoded CNF.
"""

from __future__ import annotations

import hashlib
import re
import time
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from trailkit.models import drup_kernel, jit, lrat_kernel
from trailkit.models.answer import Certificate
from trailkit.models.puzzle import Puzzle

_SMALL: ContextVar[bool] = ContextVar("small_drup_check", default=False)
"""Whether the check under way runs its kernels interpreted (see :class:`_Kernels`)."""


class _Kernels:
    """:mod:`trailkit.models.drup_kernel` (or another kernel module) as this module calls
    it: each kernel compiled, or, during the check of a small proof, interpreted. Loading
    Numba and the checker's cached machine code (compiling it on first use, all the more)
    costs far more than a proof of a few hundred lines takes interpreted; the very same
    code runs either way (the tests compare the two)."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if isinstance(value, jit.Kernel):
            return value.interpreted if _SMALL.get() else value.compiled
        return value


kernel = _Kernels(drup_kernel)
hint_kernel = _Kernels(lrat_kernel)

_INTERPRETED_BELOW = 4
"""A check runs interpreted when its formula's literals and its proof's bytes come to
fewer than ``jit.COMPILE_FROM / _INTERPRETED_BELOW`` (5,000; RUP checking does more work
per literal than the linear kernels ``COMPILE_FROM`` was set for)."""

__all__ = ["COMPILING", "MAX_LEMMAS", "check_drup", "check_drup_certificate", "cnf_sha256",
           "cnf_text", "drup_to_lrat", "will_compile"]

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


_LINE = re.compile(r"(?:d\s+)?(?:-?[1-9]\d{0,9}\s+)*0", re.ASCII)
"""A well-formed proof line: an optional ``d``, literals, and the closing ``0`` (ASCII
digits and blanks: other Unicode digits or spaces make a line malformed)."""
_LITERAL = re.compile(r"-?[1-9]\d{0,9}", re.ASCII)
_CHUNK = 256
"""Proof lines per call into the kernel: the time limit is looked at between calls."""

ProofText = Iterable[str] | str | bytes
"""A proof: its lines, or its whole text (``str``, or ``bytes`` read as UTF-8)."""


class _Proof(NamedTuple):
    """The clause lines of a proof (comments and blank lines left out), as arrays."""

    numbers: np.ndarray   # int64: 1-based line number in the proof text, per clause line
    deletion: np.ndarray  # uint8 per clause line: 1 for a "d" line (kernel.DELETION)
    sizes: np.ndarray     # int32 per clause line: its number of literals
    # (numbers, deletion and sizes may be filled only by fill(), with the literals)
    literals: int         # literals in all clause lines
    top: int              # the largest variable number they name
    fill: Callable[[np.ndarray, int, bool], None]
    """``fill(out, offset, codes)`` writes every line's literals to ``out[offset:]``,
    as literal codes (``codes``) or as signed numbers."""
    line: Callable[[int], str]
    """The text (stripped) of clause line ``i``: for messages."""


def _malformed(line: str) -> str:
    """Why a proof line that does not match :data:`_LINE` is malformed."""
    parts = line.split()
    if parts[0] == "d":
        parts = parts[1:]
    if not parts or parts[-1] != "0":
        return "the line does not end with 0"
    for part in parts[:-1]:
        if part == "0":
            return "0 inside a clause"
        if not _LITERAL.fullmatch(part):
            return f"{part[:20]!r} is not a literal (a nonzero integer below 10^10)"
    return "unexpected characters (a proof line is ASCII digits, '-', 'd' and blanks)"


_NO_MEMORY = "unchecked: the proof needs more memory than the checker has"


def _too_many(max_lemmas: int) -> str:
    return f"unchecked: the proof has more than {max_lemmas} lines (too large to check)"


def _read_proof(proof: ProofText, max_lemmas: int) -> _Proof | str:
    """The proof's clause lines, or why they cannot be checked.

    The whole text goes through the kernel's byte scanner (no string per line). A
    list of lines is joined first; where that could change the lines (a line
    holding a line break) or the scanner leaves a line to the exact reader (a
    malformed line, non-ASCII text, rare line breaks), the lines go through
    :func:`_exact_proof`, which gives the same lines and names the malformed one.
    """
    lines: list[str] | None = None
    data: bytes | bytearray | None
    if isinstance(proof, bytes | bytearray | memoryview):
        data = bytes(proof) if isinstance(proof, memoryview) else proof
    elif isinstance(proof, str):
        data = proof.encode("ascii") if proof.isascii() else None
    else:
        lines = proof if isinstance(proof, list) else list(proof)
        joined = "\n".join(lines)
        fits = joined.isascii() and joined.count("\n") == max(0, len(lines) - 1)
        data = joined.encode("ascii") if fits else None
        del joined
    if data is not None:
        text = np.frombuffer(data, dtype=np.uint8)
        empty_i32, empty_u8 = np.zeros(0, np.int32), np.zeros(0, np.uint8)
        status, clauses, literals, top = kernel.scan_proof(
            text, max_lemmas, False, empty_i32, 0, empty_i32, empty_u8,
            np.zeros(0, np.int64), True)
        if status == kernel.TOO_MANY:
            return _too_many(max_lemmas)
        if status == kernel.SCANNED:
            return _scanned(text, clauses, literals, top, lines)
    if lines is None:
        assert isinstance(proof, str | bytes | bytearray | memoryview)  # lines were joined
        text_lines = proof if isinstance(proof, str) else bytes(proof).decode(
            "utf-8", errors="replace")
        lines = text_lines.splitlines()
    return _exact_proof(lines, max_lemmas)


def _scanned(text: np.ndarray, clauses: int, literals: int, top: int,
             lines: list[str] | None) -> _Proof:
    """A proof the byte scanner accepted: its arrays, and its literals on demand."""
    numbers = np.zeros(clauses, dtype=np.int64)
    deletion = np.zeros(clauses, dtype=np.uint8)
    sizes = np.zeros(clauses, dtype=np.int32)

    def fill(out: np.ndarray, offset: int, codes: bool) -> None:
        kernel.scan_proof(text, clauses, True, out, offset, sizes, deletion, numbers, codes)

    def line(i: int) -> str:
        number = int(numbers[i])
        if lines is not None:
            return lines[number - 1].strip()
        breaks = np.flatnonzero(text == 10)
        first = int(breaks[number - 2]) + 1 if number > 1 else 0
        last = int(breaks[number - 1]) if number - 1 < len(breaks) else len(text)
        return text[first:last].tobytes().decode("ascii").strip()

    return _Proof(numbers, deletion, sizes, literals, top, fill, line)


def _exact_proof(proof_lines: list[str], max_lemmas: int) -> _Proof | str:
    """The proof's clause lines read one by one (a regular expression per line), or
    why they cannot be checked: the reference the byte scanner agrees with."""
    numbers: list[int] = []
    texts: list[str] = []
    match = _LINE.fullmatch
    for number, raw in enumerate(proof_lines, 1):
        line = raw.strip()
        if not line or line[0] == "c":
            continue
        if match(line) is None:
            return f"proof line {number} ({line[:60]!r}) is malformed: {_malformed(line)}"
        numbers.append(number)
        texts.append(line)
        if len(texts) > max_lemmas:
            return _too_many(max_lemmas)
    deletion = np.fromiter((text[0] == "d" for text in texts), dtype=np.uint8,
                           count=len(texts))
    joined = " ".join(texts)
    if deletion.any():
        joined = joined.replace("d", " ")
    values = np.fromstring(joined, dtype=np.int64, sep=" ") if texts else np.zeros(0, np.int64)
    ends = np.flatnonzero(values == 0)
    sizes = (np.diff(ends, prepend=-1) - 1).astype(np.int32)
    literals = values[values != 0]
    top = int(np.abs(literals).max()) if len(literals) else 0

    def fill(out: np.ndarray, offset: int, codes: bool) -> None:
        target = out[offset:offset + len(literals)]
        if codes:
            kernel.literal_codes(literals, target)
        else:
            target[:] = literals

    return _Proof(np.array(numbers, dtype=np.int64), deletion, sizes, len(literals), top,
                  fill, texts.__getitem__)


def _database(clauses: list[Sequence[int]], proof: _Proof,
              names: list[np.ndarray] | None = None) -> drup_kernel.Database:
    """The kernel's database over the formula's clauses then one clause per proof line.

    Sparse variable numbers are renumbered densely (so a proof naming variable 10^9
    costs nothing), and every clause is sorted, without repeats, with tautologies
    flagged. Dense ones are written as literal codes straight from the proof's
    text into the one array the database keeps (no copy of the numbers). ``names``, if
    given, receives the original number of each dense variable (when renumbered).
    """
    formula_sizes = np.fromiter(map(len, clauses), dtype=np.int32, count=len(clauses))
    formula = np.fromiter(chain.from_iterable(clauses), dtype=np.int64,
                          count=int(formula_sizes.sum()))
    count = len(formula) + proof.literals
    clauses_in_all = len(clauses) + len(proof.sizes)
    room = kernel.HEADER * clauses_in_all  # the headers: literals are packed after them
    if room + count >= 2**31 or clauses_in_all >= 2**29:
        raise MemoryError("too many literals for the DRUP checker's 32-bit clause offsets")
    num_vars = max(kernel.largest_variable(formula), proof.top)
    codes = np.empty(room + count, dtype=np.int32)
    if num_vars <= 2 * count + 1024:
        kernel.literal_codes(formula, codes[room:])
        proof.fill(codes, room + len(formula), True)
    else:  # sparse numbering: renumber densely
        literals = np.empty(count, dtype=np.int64)
        literals[:len(formula)] = formula
        proof.fill(literals, len(formula), False)
        variables, dense = np.unique(np.abs(literals), return_inverse=True)
        codes[room:] = 2 * (dense + 1) + (literals < 0)
        num_vars = len(variables)
        if names is not None:
            names.append(variables)
        del literals, dense
    sizes = np.concatenate((formula_sizes, proof.sizes))
    starts = np.arange(kernel.HEADER, room + 1, kernel.HEADER, dtype=np.int64)
    starts[1:] += np.cumsum(sizes[:-1])
    kernel.spread(codes, starts, sizes, room)
    db = kernel.new_database(codes, starts, sizes, num_vars)
    kernel.normalise(db)
    return db


def _deletion_targets(db: drup_kernel.Database, deletion: np.ndarray, base: int) -> np.ndarray:
    """Per proof line, the id of the clause a deletion line deletes (-1 for none, and
    for lemmas): the latest clause with the same literals not deleted before."""
    target = np.full(len(deletion), -1, dtype=np.int32)
    if deletion.any():
        kernel.deletion_targets(db, deletion, base, target)
    return target


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
    """Calls ``progress`` with the proof line reached, at most twice a second."""

    def __init__(self, progress: Progress | None, numbers: np.ndarray) -> None:
        self.progress, self.numbers = progress, numbers
        self.last = time.monotonic()

    def __call__(self, phase: str, index: int) -> None:
        if self.progress is None or time.monotonic() - self.last < _PROGRESS_EVERY:
            return
        self.last = time.monotonic()
        self.progress(f"DRUP proof: {phase}, line {self.numbers[index]:,} of "
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
           lrat: list[str] | None = None) -> tuple[bool, str, drup_kernel.Database | None]:
    """:func:`check_drup`, also returning the database it ended with (None if the
    proof could not be parsed), for tests that look inside. With ``lrat`` (a list),
    the check is backward and an accepted proof's LRAT text is appended to it."""
    clauses = list(clauses)
    size = sum(map(len, clauses)) + _text_size(proof_lines)
    small = size * _INTERPRETED_BELOW < jit.COMPILE_FROM
    if progress is not None and not small and will_compile(lrat is not None):
        progress(COMPILING)
    token = _SMALL.set(small)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:  # a second try, if any, runs within the same time limit
        found = _check_with(clauses, proof_lines, time_limit, deadline, max_lemmas,
                            backward, core_first, progress, lrat, True)
        if found[1] == _NO_MEMORY and found[2] is not None:  # the tight pool was short
            found = _check_with(clauses, proof_lines, time_limit, deadline, max_lemmas,
                                backward, core_first, progress, lrat, False)
        return found
    finally:
        _SMALL.reset(token)


COMPILING = ("compiling the DRUP checker (once after installing or upgrading trailkit; "
             "10 to 30 seconds)")
"""What ``progress`` hears before a check that compiles the kernels first."""


def will_compile(lrat: bool = False) -> bool:
    """Whether the next check of a proof too big to run interpreted compiles the
    checker's kernels first (nothing cached yet: the first check after installing);
    with ``lrat``, of a check that writes LRAT (its backward pass is another kernel)."""
    last = lrat_kernel.backward_hints if lrat else drup_kernel.backward
    return jit.will_compile(drup_kernel.forward, last, drup_kernel.scan_proof,
                            drup_kernel.normalise)


def _text_size(proof: ProofText) -> int:
    """About how many bytes the proof's text has."""
    if isinstance(proof, str | bytes | bytearray | memoryview):
        return len(proof)
    if isinstance(proof, Sequence):
        return sum(map(len, proof)) + len(proof)
    return jit.COMPILE_FROM  # an iterator: not measured, taken as big


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


def _check_with(clauses: list[Sequence[int]], proof_lines: ProofText,
                time_limit: float | None, deadline: float | None, max_lemmas: int,
                backward: bool,
                core_first: bool, progress: Progress | None, lrat: list[str] | None,
                tight: bool) -> tuple[bool, str, drup_kernel.Database | None]:
    """:func:`_check` with its kernels chosen; with ``tight``, the watch pool is sized
    for the clauses in propagation at once (:func:`_watching_at_most`), not for all.
    ``deadline`` is when ``time_limit`` runs out (:func:`time.monotonic`)."""
    proof = _read_proof(proof_lines, max_lemmas)
    if isinstance(proof, str):
        return False, proof, None
    base, lines = len(clauses), len(proof.sizes)
    names: list[np.ndarray] = []
    try:
        db = _database(clauses, proof, names)
    except MemoryError:
        return False, _NO_MEMORY, None
    kind = proof.deletion
    target = _deletion_targets(db, kind, base)
    if tight:  # the pool's pages are touched as lists grow: a smaller pool holds less
        db = db._replace(watches=drup_kernel.new_pool(
            _watching_at_most(db, kind, target, base), len(db.truth)))
    run = _Pass(db, kind, target, np.zeros(lines, dtype=np.int32),
                np.zeros(lines, dtype=np.uint8), base, deadline,
                _Reporter(progress, proof.numbers))
    meta = db.meta

    def failed(index: int) -> tuple[bool, str, drup_kernel.Database]:
        return False, (f"proof line {proof.numbers[index]} ({proof.line(index)[:60]!r}) "
                       "does not follow by reverse unit propagation"), db

    try:
        stop = _forward(run, lines, not backward)
        if stop < 0:
            return failed(int(meta[kernel.AT]))
        empty = np.flatnonzero((kind[stop:] == 0) & (db.size[base + stop:] == 0))
        if len(empty) == 0:
            return False, (f"the proof ends after {proof.numbers[-1] if lines else 0} lines "
                           "without deriving the empty clause: it is not a refutation "
                           "(truncated?)"), db
        index = stop + int(empty[0])
        if meta[kernel.CONFLICT] == -1:
            return failed(index)
        if backward:
            meta[kernel.CORE_FIRST] = int(core_first)
            kernel.analyze(db, int(meta[kernel.CONFLICT]))
            at = _backward(run, stop) if lrat is None else _backward_lrat(run, stop, lrat,
                                                                            names)
            if at >= 0:
                return failed(at)
    except _OutOfTime as out:
        return False, (f"unchecked: the time limit of {time_limit} s ran out at proof "
                       f"line {proof.numbers[out.index]}"), db
    except MemoryError:
        return False, _NO_MEMORY, db
    lemmas = lines - int(kind.sum())
    how = "backward" if backward else "forward"
    return True, (f"the proof derives the empty clause at line {proof.numbers[index]} "
                  f"({1 + int(meta[kernel.CHECKED])} of {lemmas} lemmas checked, {how})"), db


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


def _backward_lrat(run: _Pass, stop: int, out: list[str], names: list[np.ndarray]) -> int:
    """:func:`_backward`, recording each checked lemma's hints; on success the LRAT text
    goes to ``out``."""
    db, base = run.db, run.base
    room = len(db.reason) + 2
    hints = np.zeros(max(1 << 16, 4 * room), dtype=np.int32)
    keys = np.zeros(room, dtype=np.int64)
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
        if status == lrat_kernel.ROOM:
            hints = np.concatenate((hints, np.zeros(len(hints), dtype=np.int32)))
            last = int(db.meta[kernel.AT]) + 1
            continue
        last = first
        _tidy(db)
    out.append(_lrat_text(run, stop, hints, starts, ends, final,
                          names[0] if names else None))
    return -1


def _lrat_text(run: _Pass, stop: int, hints: np.ndarray, starts: np.ndarray,
               ends: np.ndarray, final: np.ndarray, names: np.ndarray | None) -> str:
    """The LRAT proof: the checked lemmas with their hints, the deletions of the clauses
    it holds, and the empty clause. Formula clause ``c`` has id ``c + 1``; the lemmas
    are numbered on from ``base + 1`` in proof order."""
    db, base = run.db, run.base
    checked = ends[:stop] >= 0
    ids = np.zeros(base + stop, dtype=np.int64)
    ids[:base] = np.arange(1, base + 1)
    ids[base:][checked] = base + 1 + np.arange(int(checked.sum()))
    variables = (np.arange(len(db.reason) + 1) if names is None
                 else np.concatenate(([0], names))).astype(np.int64)
    numbers = (int(db.size[base:base + stop][checked].sum())
               + int((ends[:stop] - starts[:stop])[checked].sum()) + 3 * int(checked.sum()))
    room = 12 * (numbers + len(final) + 3) + 27 * int(run.kind[:stop].sum()) + 64
    out = np.empty(room, dtype=np.uint8)
    end = hint_kernel.write_lrat(db, run.kind, run.target, run.applied, base, stop, hints,
                                 starts, ends, final, ids, variables, out)
    return out[:end].tobytes().decode("ascii")


def drup_to_lrat(clauses: Iterable[Sequence[int]], proof_lines: ProofText, *,
                 time_limit: float | None = None, max_lemmas: int = MAX_LEMMAS,
                 progress: Progress | None = None) -> tuple[bool, str, str | None]:
    """Check a DRUP refutation of ``clauses`` (backward, core-first, as
    :func:`check_drup`) and turn it into LRAT: ``(ok, message, lrat_text)``, the text
    ``None`` when the proof is rejected.

    Each checked lemma's hints are the clauses its reverse-unit-propagation check used,
    in the order they became unit (as ``drat-trim -L`` writes them); the formula's
    clauses have ids ``1 .. len(clauses)`` and the lemmas follow. Lemmas the refutation
    does not use are left out, as are deletions of clauses the LRAT proof never holds
    and the deletions the checker ignores (of units and reasons)."""
    out: list[str] = []
    ok, message, _ = _check(clauses, proof_lines, time_limit, max_lemmas, True, True,
                            progress, out)
    return ok, message, out[0] if ok and out else None


# ------------------------------------------------------------- certificates
CERTIFICATE_FORMAT = "trailkit-drup/1"


def check_drup_certificate(puzzle: Puzzle, certificate: Certificate, *,
                           time_limit: float | None = None,
                           progress: Progress | None = None) -> list[str]:
    """Check a ``drup`` certificate against ``puzzle``; return why it fails ([] = accepted).

    The data must carry ``format``, ``encoding`` with the parameters that encoding
    needs (:func:`trailkit.models.formulas.rebuild`: ``cardinality``, ``length`` and
    ``symmetry`` for ``position-v1``; ``cardinality`` for ``walk-v1``; ``cuts`` for
    ``transition-v1``), ``cnf_sha256`` and ``proof`` (a list of lines, or one text, as
    ``str`` or as the ``bytes`` of a side file);
    ``cnf`` (DIMACS text), ``num_vars``, ``variables``, ``trailkit_version``,
    ``spec_sha256`` and ``solver`` are informative. The formula is re-derived from the
    puzzle, so a proof made for another spec or another formula is rejected.
    ``progress`` is as for :func:`check_drup`.
    """
    try:
        return _check_drup_data(puzzle, certificate.data, time_limit, progress)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"malformed drup certificate: {exc!r}"]


def _check_drup_data(puzzle: Puzzle, data: Mapping[str, Any], time_limit: float | None,
                     progress: Progress | None) -> list[str]:
    # The formula's trusted definition; the checking algorithm above uses none of it.
    from trailkit.models.formulas import rebuild

    if data.get("format") != CERTIFICATE_FORMAT:
        return [f"unknown drup certificate format {data.get('format')!r} "
                f"(expected {CERTIFICATE_FORMAT!r})"]
    formula = rebuild(puzzle, data)
    if isinstance(formula, list):
        return formula
    clauses = formula.clauses
    digest = cnf_sha256(formula.num_vars, clauses)
    problems = []
    if digest != data["cnf_sha256"]:
        problems.append("the certified CNF is not the encoding of this puzzle (hash "
                        f"{str(data['cnf_sha256'])[:12]}… != {digest[:12]}…): a proof for "
                        "another spec or formula")
    if "cnf" in data and data["cnf"] is not None:
        stored = hashlib.sha256(str(data["cnf"]).encode()).hexdigest()
        if stored != data["cnf_sha256"]:
            problems.append("the CNF stored in the certificate does not match its hash")
    if problems:
        return problems
    proof = data["proof"]
    text = proof if isinstance(proof, str | bytes) else [str(x) for x in proof]
    ok, message = check_drup(clauses, text, time_limit=time_limit, progress=progress)
    return [] if ok else [message]
