"""Reading a DRUP proof into the checker's clause database, without holding its text.

A proof is given as its lines, its whole text (``str``, or ``bytes`` read as UTF-8), or
the path of its file (:class:`os.PathLike`). A file is read in blocks of
:data:`BLOCK` bytes, each cut at its last line end, twice: once to check every line
and count what the database needs, once to fill it (:mod:`.drup_read_kernel`).
So the text of a proof file is never held whole, and no Python string is made per
line; each deletion line is resolved to the clause it deletes as it is read, and its
literals are not kept. Peak memory for a solver's proof is then about the database
itself (``docs/benchmarks.md``: against drat-trim on a proof of 4.6 million lines).

A proof the byte scanner leaves alone (a malformed line, non-ASCII text, line breaks
other than ``\\n`` and ``\\r\\n``) is read whole by :func:`exact_lines`, a regular
expression per line, which names the malformed line, or gives the clause lines as a
clean text that is then read the same way (messages still name the lines of the
proof as given).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from pathlib import Path
from typing import NamedTuple

import numpy as np

from trailkit.models.proofs import drup_kernel, drup_read_kernel
from trailkit.models.proofs.drup_read_kernel import (
    AT,
    CHANGED,
    CLAUSES,
    KEPT,
    LEMMAS,
    LINE,
    LITERALS,
    LONGEST,
    SCANNED,
    TOO_MANY,
    TOP,
    VARIABLES,
)
from trailkit.models.support import jit

__all__ = ["BLOCK", "Lines", "Proof", "ProofText", "build_database", "exact_lines",
           "read_proof", "text_size"]

kernel = jit.Kernels(drup_read_kernel)

ProofText = Iterable[str] | str | bytes | os.PathLike[str]
"""A proof: its lines, its whole text (``str``, or ``bytes`` read as UTF-8), or its
file's path."""

BLOCK = 1 << 22
"""Bytes of a proof file read at a time (4 MiB; a longer line gets a larger block)."""

_LINE = re.compile(r"(?:d\s+)?(?:-?[1-9]\d{0,9}\s+)*0", re.ASCII)
"""A well-formed proof line: an optional ``d``, literals, and the closing ``0`` (ASCII
digits and blanks: other Unicode digits or spaces make a line malformed)."""
_LITERAL = re.compile(r"-?[1-9]\d{0,9}", re.ASCII)


Reading = Callable[[str, int, int], None]
"""Told ``(phase, bytes done, bytes in all)`` after each block of a proof file."""


def _read_only(data: bytes | bytearray, count: int = -1) -> np.ndarray:
    """The first ``count`` bytes of ``data`` (all: -1) as a read-only array, without a
    copy. Read-only whatever ``data`` is, so the compiled scan and fill see one type: a
    file's blocks (a bytearray) and a text's bytes were two signatures to Numba, each
    compiled apart (seconds each on a first run)."""
    array = np.frombuffer(data, dtype=np.uint8, count=count)
    array.setflags(write=False)
    return array


class _Text:
    """A proof's text in memory: one block, no copy."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def blocks(self, phase: str = "", report: Reading | None = None) -> Iterator[np.ndarray]:
        yield _read_only(self.data)

    def line(self, number: int) -> str:
        """The text of line ``number`` (1-based, stripped)."""
        at = 0
        for _ in range(number - 1):
            at = self.data.find(b"\n", at) + 1
            if at == 0:
                return ""
        end = self.data.find(b"\n", at)
        return self.data[at:end if end >= 0 else len(self.data)].decode("ascii").strip()


class _File:
    """A proof file, read in blocks that end at a line end (see :data:`BLOCK`)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def blocks(self, phase: str = "", report: Reading | None = None) -> Iterator[np.ndarray]:
        """The file's blocks; ``report``, if given, hears ``phase`` and how far."""
        buffer = bytearray(BLOCK)
        held = 0  # bytes of an unfinished line at the buffer's start
        done = 0
        with self.path.open("rb") as file:
            total = os.fstat(file.fileno()).st_size
            while True:
                got = file.readinto(memoryview(buffer)[held:])
                end = held + got
                if got == 0:  # the end: the last line has no line end
                    if held:
                        yield _read_only(buffer, held)
                        if report is not None:
                            report(phase, total, total)
                    return
                cut = buffer.rfind(b"\n", 0, end) + 1
                if cut == 0:  # no line end yet: a longer line needs a larger block
                    if end == len(buffer):
                        buffer = buffer + bytearray(len(buffer))
                    held = end
                    continue
                yield _read_only(buffer, cut)
                done += cut
                if report is not None:
                    report(phase, done, total)
                held = end - cut
                buffer[:held] = buffer[cut:end]

    def line(self, number: int) -> str:
        """The text of line ``number`` (1-based, stripped)."""
        with self.path.open("rb") as file:
            found = next(islice(file, number - 1, None), b"")
        return found.decode("ascii", errors="replace").strip()


class Proof(NamedTuple):
    """A proof whose lines were all checked and counted, ready to fill a database."""

    source: _Text | _File
    counts: np.ndarray  # drup_read_kernel's state after scan_proof: CLAUSES, KEPT, ...
    numbers: np.ndarray | None
    """The line number of each clause line in the proof as given, when the source is
    :func:`exact_lines`'s clean text (else the source's own numbers are right)."""
    line: Callable[[int, int], str]
    """``line(i, number)``: the text (stripped) of clause line ``i``, line ``number`` of
    the proof as given: for messages."""

    @property
    def clauses(self) -> int:
        return int(self.counts[CLAUSES])


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


def _too_many(max_lemmas: int) -> str:
    """Why a proof over the cap is not checked."""
    return f"unchecked: the proof has more than {max_lemmas} lines (too large to check)"


def exact_lines(lines: Iterable[str], max_lemmas: int) -> tuple[bytes, list[int], list[str]] | str:
    """The proof's clause lines read one by one (a regular expression per line): a clean
    text of them (one per line, stripped), the line number of each, and each line's
    text; or why they cannot be checked. The reference the byte scanner agrees with."""
    numbers: list[int] = []
    texts: list[str] = []
    match = _LINE.fullmatch
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] == "c":
            continue
        if match(line) is None:
            return f"proof line {number} ({line[:60]!r}) is malformed: {_malformed(line)}"
        numbers.append(number)
        texts.append(line)
        if len(texts) > max_lemmas:
            return _too_many(max_lemmas)
    # single spaces: a line given alone may hold any ASCII blank ("\v", "\f") inside
    clean = "\n".join(" ".join(text.split()) for text in texts)
    return clean.encode("ascii"), numbers, texts


def _scan(source: _Text | _File, max_lemmas: int,
          report: Reading | None = None) -> tuple[int, np.ndarray]:
    """Check and count every line of ``source``: the scanner's status and counts."""
    state = np.zeros(drup_read_kernel.SLOTS, dtype=np.int64)
    for block in source.blocks("reading", report):
        status = kernel.scan_proof(block, max_lemmas, state)
        if status != SCANNED:
            return int(status), state
    return SCANNED, state


def _source(proof: ProofText) -> tuple[_Text | _File | None, list[str] | None]:
    """Where the byte scanner reads ``proof`` from (None when it is text the scanner
    cannot take: not ASCII, or lines that would change when joined), and its lines
    when it was given as lines."""
    if isinstance(proof, os.PathLike):
        return _File(Path(proof)), None
    if isinstance(proof, bytes | bytearray | memoryview):
        return _Text(bytes(proof) if isinstance(proof, memoryview) else proof), None
    if isinstance(proof, str):
        return (_Text(proof.encode("ascii")) if proof.isascii() else None), None
    lines = proof if isinstance(proof, list) else list(proof)
    joined = "\n".join(lines)
    fits = joined.isascii() and joined.count("\n") == max(0, len(lines) - 1)
    return (_Text(joined.encode("ascii")) if fits else None), lines


def _text_lines(proof: ProofText) -> Iterable[str]:
    """The proof's lines as :meth:`str.splitlines` splits its text (for the exact way)."""
    if isinstance(proof, os.PathLike):
        return Path(proof).read_bytes().decode("utf-8", errors="replace").splitlines()
    if isinstance(proof, bytes | bytearray | memoryview):
        return bytes(proof).decode("utf-8", errors="replace").splitlines()
    if isinstance(proof, str):
        return proof.splitlines()
    return proof


def read_proof(proof: ProofText, max_lemmas: int, report: Reading | None = None
               ) -> Proof | str:
    """The proof, checked and counted, or why it cannot be checked (a malformed line,
    named; more than ``max_lemmas`` clause lines). ``report`` hears how far a file's
    reading has got."""
    source, lines = _source(proof)
    if source is not None:
        status, counts = _scan(source, max_lemmas, report)
        if status == TOO_MANY:
            return _too_many(max_lemmas)
        if status == SCANNED:
            if lines is not None:
                return Proof(source, counts, None, lambda _, number: lines[number - 1].strip())
            return Proof(source, counts, None, lambda _, number: source.line(number))
    exact = exact_lines(lines if lines is not None else _text_lines(proof), max_lemmas)
    if isinstance(exact, str):
        return exact
    text, numbers, texts = exact
    clean = _Text(text)
    status, counts = _scan(clean, max_lemmas)
    assert status == SCANNED, "the exact reader's lines are in the scanner's subset"
    return Proof(clean, counts, np.array(numbers, dtype=np.int64), lambda i, _: texts[i])


class Lines(NamedTuple):
    """Per clause line of a proof, what the checker's passes need."""

    kind: np.ndarray     # uint8: 1 for a deletion line (drup_kernel.DELETION), 0 a lemma
    numbers: np.ndarray  # int64: its 1-based line number in the proof as given
    target: np.ndarray   # int32: the clause a deletion line deletes; -1 for none, lemmas


class ProofChanged(Exception):
    """The proof file changed between the two passes that read it."""


class _Renumbering(NamedTuple):
    """The open-addressing table that renumbers sparse variables densely (empty arrays:
    variables keep their numbers), and the original number of each dense variable."""

    keys: np.ndarray   # int64: a variable's original number, 0 for an empty slot
    ids: np.ndarray    # int32: its dense number
    names: np.ndarray  # int64: names[v - 1] is dense variable v's original number


def _renumbering(sparse: bool, kept: int) -> _Renumbering:
    """The table for at most ``kept`` variables (at most half full), if ``sparse``."""
    table = 1 << max(1, 2 * kept).bit_length() if sparse else 0
    return _Renumbering(np.zeros(table, dtype=np.int64), np.zeros(table, dtype=np.int32),
                        np.zeros(kept if sparse else 0, dtype=np.int64))


def build_database(clauses: Sequence[Sequence[int]], proof: Proof,
                   names: list[np.ndarray] | None = None, report: Reading | None = None,
                   ) -> tuple[drup_kernel.Database, Lines]:
    """The checker's database over the formula's clauses then one clause per proof
    line, and the proof's :class:`Lines`. Its watch pool is the smallest (the caller
    gives it the pool it needs: :func:`trailkit.models.proofs.drup_kernel.new_pool`).

    Every array is allocated once at its final size from the counts; the proof's
    literals are written as literal codes straight from its text. Sparse variable
    numbers are renumbered densely (so a proof naming variable 10^9 costs nothing);
    ``names``, if given, then receives the original number of each dense variable;
    ``report`` hears how far a file's reading has got. Raises :class:`MemoryError` when
    the database would not fit the kernel's 32-bit clause offsets, :class:`ProofChanged`
    when a proof file changed while it was read.
    """
    counts = proof.counts
    base, lines = len(clauses), proof.clauses
    sizes = np.fromiter(map(len, clauses), dtype=np.int32, count=base)
    formula = np.fromiter(chain.from_iterable(clauses), dtype=np.int64, count=int(sizes.sum()))
    kept = len(formula) + int(counts[KEPT])
    room = drup_kernel.HEADER * (1 + base + int(counts[LEMMAS])) + kept
    if room >= 2**31 or base + lines >= 2**29:
        raise MemoryError("too many literals for the DRUP checker's 32-bit clause offsets")
    top = max(int(np.abs(formula).max()) if len(formula) else 0, int(counts[TOP]))
    sparse = top > 2 * (len(formula) + int(counts[LITERALS])) + 1024
    renumbering = _renumbering(sparse, kept)
    clause_arrays, chains = _allocated(room, base + lines, base + int(counts[LEMMAS]))
    state = np.zeros(drup_read_kernel.SLOTS, dtype=np.int64)
    state[AT], state[TOP] = drup_kernel.HEADER, top  # a larger variable: a changed file
    kernel.place_formula(formula, sizes, *clause_arrays, *chains, *renumbering, state)
    found = _fill(proof, base, state, clause_arrays, chains, renumbering, report)
    del chains
    num_vars = top
    if sparse:
        num_vars = int(state[VARIABLES])
        if names is not None:
            names.append(renumbering.names[:num_vars])
    return drup_kernel.new_database(*clause_arrays[:3], num_vars, clause_arrays[3], 0), found


def _allocated(room: int, clauses: int, present: int) -> tuple[
        tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The database's arrays, each at its final size: the literal pool of ``room`` codes
    and, per clause (``clauses`` in all), its start, size and tautology flag; and the
    hash table of the clauses present at once (at most ``present``), sized to a power of
    two, with its chains (newest first)."""
    lits = np.empty(room, dtype=np.int32)
    lits[:drup_kernel.HEADER] = 0  # the header every deletion line's empty clause shares
    clause_arrays = (lits, np.empty(clauses, dtype=np.int64),  # start
                     np.empty(clauses, dtype=np.int32),  # size
                     np.zeros(clauses, dtype=np.uint8))  # tautology
    # the hash table of the clauses present, chains newest first
    chains = (np.full(1 << max(0, present - 1).bit_length(), -1,
                      dtype=np.int32), np.empty(clauses, dtype=np.int32))
    return clause_arrays, chains


def _fill(proof: Proof, base: int, state: np.ndarray, clause_arrays: tuple[np.ndarray, ...],
          chains: tuple[np.ndarray, np.ndarray], renumbering: _Renumbering,
          report: Reading | None) -> Lines:
    """The fill pass over the proof's text (:func:`drup_read_kernel.fill_proof`): its
    clauses written to ``clause_arrays``, its :class:`Lines` returned."""
    lines = proof.clauses
    found = Lines(np.zeros(lines, dtype=np.uint8), np.zeros(lines, dtype=np.int64),
                  np.full(lines, -1, dtype=np.int32))
    longest = int(proof.counts[LONGEST])
    values, scratch = np.empty(longest, dtype=np.int64), np.empty(longest, dtype=np.int32)
    state[LINE] = state[CLAUSES] = 0
    status = SCANNED
    for block in proof.source.blocks("building the clause database", report):
        status = kernel.fill_proof(block, state, base, values, scratch, *clause_arrays,
                                   *found, *chains, *renumbering)
        if status == CHANGED:
            break
    if status == CHANGED or state[CLAUSES] != lines:
        raise ProofChanged
    if proof.numbers is not None:
        found.numbers[:] = proof.numbers
    return found


def text_size(proof: ProofText) -> int:
    """About how many bytes the proof's text has."""
    if isinstance(proof, os.PathLike):
        return os.path.getsize(proof)
    if isinstance(proof, str | bytes | bytearray | memoryview):
        return len(proof)
    if isinstance(proof, Sequence):
        return sum(map(len, proof)) + len(proof)
    return jit.COMPILE_FROM  # an iterator: not measured, taken as big
