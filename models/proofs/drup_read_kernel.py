"""The compiled loops that read a DRUP proof's text into the checker's clause database.

:mod:`trailkit.models.proofs.drup_read` hands these loops the proof's bytes in blocks that end
at line ends (a file is read a few megabytes at a time, never held whole), twice:

1. :func:`scan_proof` checks every line against the proof grammar and counts what the
   database needs (clause lines, the literals of lemma lines, the longest line, the
   largest variable), so that every array is allocated once, at its final size;
2. :func:`fill_proof` writes each lemma line as a clause of the database (literal codes,
   sorted, without repeats, tautologies flagged, after its three-slot header) and
   resolves each deletion line at once: the clause it deletes is the latest clause with
   the same literals not deleted before, found in a hash table of the clauses present
   (chains newest first). A deletion line's literals are never stored: they live in a
   scratch buffer while the line is matched (on solver proofs half of all literals are
   in deletion lines).

:func:`place_formula` does step 2 for the formula's clauses, which come first. A clause
id is the formula's clause index, then ``base + line index`` for each proof line; a
deletion line's id is an empty clause whose start is the shared header at ``lits[0:3]``
(never read: a deletion line is never a clause in propagation).

Variable numbers are used as they are when they are dense. A proof naming sparse
numbers (variable 10^9 among a few thousand) is renumbered densely as it is read, in
order of first appearance (formula first), through an open-addressing table
(``keys``/``ids``); ``names`` receives each dense variable's original number. A
deletion naming a variable no clause has deletes nothing.

Every block is read by the same grammar as :func:`trailkit.models.proofs.drup_read.exact_lines`
applies (blank and ``c`` lines skipped, an optional ``d`` and blanks, literals
``-?[1-9]\\d{0,9}`` each followed by blanks, the closing ``0``); a line outside it, or a
byte outside printable ASCII and tab (``\\r`` only before ``\\n`` or at the end), makes
:func:`scan_proof` say UNSUPPORTED, and the proof goes the exact way. :func:`fill_proof`
checks the grammar again and every bound it writes within: a file that changed between
the two passes gives CHANGED, never a write out of bounds.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from trailkit.models.proofs.drup_kernel import HEADER
from trailkit.models.support.jit import kernel

# No Numba reference counting here either (see drup_kernel): nothing is allocated.
_kernel = partial(kernel, refcounts=False)

__all__ = ["CHANGED", "SCANNED", "SLOTS", "TOO_MANY", "UNSUPPORTED", "fill_proof",
           "place_formula", "scan_proof"]

# What scan_proof() and fill_proof() return.
SCANNED = 0      # every line so far is in the scanner's subset
UNSUPPORTED = 1  # a line is malformed, or uses bytes the scanner leaves to the exact path
TOO_MANY = 2     # more clause lines than the cap
CHANGED = 3      # fill_proof: the text is not the one scan_proof counted

# state[] slots: what the passes carry from one block to the next.
LINE = 0       # lines read so far (the 1-based number of the last one)
CLAUSES = 1    # clause lines so far
LITERALS = 2   # literals in all clause lines
KEPT = 3       # literals in lemma lines
LEMMAS = 4     # lemma lines
TOP = 5        # the largest variable number named (fill: the largest allowed)
LONGEST = 6    # the most literals on one line
AT = 7         # fill: the next free slot of lits
VARIABLES = 8  # fill, renumbering: dense variables given so far
SLOTS = 9


@_kernel(inline=True)
def _blank(b: int) -> bool:
    """Space or tab (or the carriage return of a CRLF line end)."""
    return b == 32 or b == 9 or b == 13


@_kernel(inline=True)
def _line_end(text: np.ndarray, i: int) -> int:
    """Where the line starting at ``text[i]`` ends (its ``\\n``, or the text's end), or
    -1 at a byte the scanner leaves to the exact path."""
    n = len(text)
    j = i
    while j < n and text[j] != 10:
        b = text[j]
        if b >= 127 or (b < 32 and b != 9 and not (
                b == 13 and (j + 1 == n or text[j + 1] == 10))):
            return -1
        j += 1
    return j


@_kernel(inline=True)
def _parse(text: np.ndarray, a: int, e: int, values: np.ndarray) -> tuple[int, int, int]:
    """Read the clause line ``text[a:e]`` (stripped: neither blank nor a comment).

    Returns ``(count, deletion, largest)``: its number of literals (-1 when malformed),
    1 for a ``d`` line, and its largest variable number. The first ``len(values)``
    literals go to ``values`` as signed numbers."""
    k = a
    deletion = 0
    if text[k] == 100:  # "d"
        deletion = 1
        k += 1
        if k == e or not _blank(text[k]):
            return -1, 0, 0
        while _blank(text[k]):  # ends before e: text[e - 1] is not blank
            k += 1
    count = 0
    largest = 0
    while True:
        negative = text[k] == 45  # "-"
        if negative:
            k += 1
            if k == e:
                return -1, 0, 0
        b = text[k]
        if b == 48:  # "0": the clause's end, and the line's
            if negative or k + 1 != e:
                return -1, 0, 0
            return count, deletion, largest
        if b < 49 or b > 57:
            return -1, 0, 0
        value = 0
        digits = 0
        while k < e and 48 <= text[k] <= 57:
            value = 10 * value + (int(text[k]) - 48)  # int: uint8 arithmetic wraps
            digits += 1
            k += 1
        if digits > 10 or k == e or not _blank(text[k]):
            return -1, 0, 0
        while _blank(text[k]):
            k += 1
        if count < len(values):
            values[count] = -value if negative else value
        count += 1
        largest = max(largest, value)


NO_CLAUSE = -2
"""What :func:`_next_clause` counts for a blank line or a comment."""


@_kernel(inline=True)
def _next_clause(text: np.ndarray, i: int, state: np.ndarray,
                 values: np.ndarray) -> tuple[int, int, int, int]:
    """Read the line starting at ``text[i]``, counted in ``state[LINE]``: returns
    ``(next, count, deletion, largest)``, ``next`` where the next line starts and the
    rest as :func:`_parse` gives them; ``count`` is :data:`NO_CLAUSE` for a blank line
    or a comment, -1 for a line (or a byte) the scanner leaves to the exact path."""
    state[LINE] += 1
    j = _line_end(text, i)
    if j < 0:
        return i, -1, 0, 0
    a, e = i, j
    while a < e and _blank(text[a]):
        a += 1
    while e > a and _blank(text[e - 1]):
        e -= 1
    if a == e or text[a] == 99:  # blank, or a comment ("c")
        return j + 1, NO_CLAUSE, 0, 0
    count, deletion, largest = _parse(text, a, e, values)
    return j + 1, count, deletion, largest


@_kernel
def scan_proof(text: np.ndarray, max_lines: int, state: np.ndarray) -> int:
    """Check and count the lines of one block (see the module docstring): SCANNED,
    UNSUPPORTED or TOO_MANY (more than ``max_lines`` clause lines)."""
    none = state[:0]  # no values kept (a view: these kernels allocate nothing)
    i = 0
    while i < len(text):
        i, count, deletion, largest = _next_clause(text, i, state, none)
        if count == NO_CLAUSE:
            continue
        if count < 0:
            return UNSUPPORTED
        state[CLAUSES] += 1
        state[LITERALS] += count
        if deletion == 0:
            state[KEPT] += count
            state[LEMMAS] += 1
        state[TOP] = max(state[TOP], largest)
        state[LONGEST] = max(state[LONGEST], count)
        if state[CLAUSES] > max_lines:
            return TOO_MANY
    return SCANNED


@_kernel(inline=True)
def _dense(value: int, keys: np.ndarray, ids: np.ndarray, names: np.ndarray,
           state: np.ndarray, give: bool) -> int:
    """The dense number of variable ``value``: itself without renumbering (``keys``
    empty); else from the table, given now if new and ``give`` (-1 if new otherwise, or
    if ``names`` is full: more variables than counted, a changed file)."""
    if len(keys) == 0:
        return value
    mask = len(keys) - 1
    h = ((value ^ (value >> 17)) * 40503) & mask  # below 2^51: no overflow
    while keys[h] != 0:
        if keys[h] == value:
            return ids[h]
        h = (h + 1) & mask
    if not give or state[VARIABLES] == len(names):
        return -1
    state[VARIABLES] += 1
    keys[h] = value
    ids[h] = state[VARIABLES]
    names[state[VARIABLES] - 1] = value
    return ids[h]


@_kernel(inline=True)
def _codes(values: np.ndarray, count: int, out: np.ndarray, b: int, keys: np.ndarray,
           ids: np.ndarray, names: np.ndarray, state: np.ndarray, give: bool) -> bool:
    """Write the literal codes of ``values[:count]`` (``2v``, ``2v + 1`` for ``-v``) to
    ``out[b:]``; False if a variable has no dense number (see :func:`_dense`)."""
    for k in range(count):
        x = values[k]
        v = _dense(abs(x), keys, ids, names, state, give)
        if v < 0:
            return False
        out[b + k] = 2 * v + 1 if x < 0 else 2 * v
    return True


@_kernel(inline=True)
def _normalise(lits: np.ndarray, b: int, n: int) -> tuple[int, int]:
    """Sort ``lits[b:b + n]`` and drop repeats; returns ``(kept, tautology)``."""
    for i in range(b + 1, b + n):  # insertion sort: clauses are short
        x = lits[i]
        j = i - 1
        while j >= b and lits[j] > x:
            lits[j + 1] = lits[j]
            j -= 1
        lits[j + 1] = x
    kept = 0
    tautology = 0
    for i in range(b, b + n):
        if kept == 0 or lits[i] != lits[b + kept - 1]:
            if kept > 0 and lits[i] == lits[b + kept - 1] ^ 1:
                tautology = 1
            lits[b + kept] = lits[i]
            kept += 1
    return kept, tautology


@_kernel(inline=True)
def _hash(lits: np.ndarray, b: int, n: int) -> np.int64:
    """A hash of the literals ``lits[b:b + n]`` (30 bits: no overflow, interpreted or not)."""
    h = np.int64(n)
    for k in range(b, b + n):
        h = (h * 1000003 + lits[k]) & 0x3FFFFFFF
    return h


@_kernel(inline=True)
def _keep(lits: np.ndarray, start: np.ndarray, size: np.ndarray, tautology: np.ndarray,
          c: int, b: int, n: int, head: np.ndarray, after: np.ndarray) -> int:
    """Make the literal codes at ``lits[b:b + n]`` clause ``c``: normalised, its header
    written, and (no tautology) at the front of its hash chain. Returns its end."""
    kept, tautological = _normalise(lits, b, n)
    lits[b - 3] = 2  # where the next search for a watch starts
    lits[b - 2] = kept
    lits[b - 1] = c << 2
    start[c], size[c], tautology[c] = b, kept, tautological
    if tautological == 0:
        h = _hash(lits, b, kept) & (len(head) - 1)
        after[c] = head[h]
        head[h] = c
    return b + kept


@_kernel(inline=True)
def _take(lits: np.ndarray, start: np.ndarray, size: np.ndarray, scratch: np.ndarray,
          n: int, head: np.ndarray, after: np.ndarray) -> int:
    """Take the newest clause with the literals ``scratch[:n]`` (normalised) out of the
    hash table and return it, or -1 for none."""
    h = _hash(scratch, 0, n) & (len(head) - 1)
    previous = -1
    d = head[h]
    while d != -1:
        if size[d] == n:
            b = start[d]
            same = True
            for k in range(n):
                if lits[b + k] != scratch[k]:
                    same = False
                    break
            if same:
                if previous == -1:
                    head[h] = after[d]
                else:
                    after[previous] = after[d]
                return d
        previous = d
        d = after[d]
    return -1


@_kernel
def place_formula(formula: np.ndarray, sizes: np.ndarray, lits: np.ndarray,
                  start: np.ndarray, size: np.ndarray, tautology: np.ndarray,
                  head: np.ndarray, after: np.ndarray, keys: np.ndarray, ids: np.ndarray,
                  names: np.ndarray, state: np.ndarray) -> None:
    """Write the formula's clauses (``formula``: their signed literals one after the
    other, ``sizes``: how many each) as clauses ``0 ..`` from ``lits[state[AT]]`` on."""
    at = 0
    for c in range(len(sizes)):
        b = state[AT] + HEADER
        _codes(formula[at:at + sizes[c]], sizes[c], lits, b, keys, ids, names, state, True)
        state[AT] = _keep(lits, start, size, tautology, c, b, sizes[c], head, after)
        at += sizes[c]


@_kernel
def fill_proof(text: np.ndarray, state: np.ndarray, base: int, values: np.ndarray,
               scratch: np.ndarray, lits: np.ndarray, start: np.ndarray, size: np.ndarray,
               tautology: np.ndarray, kind: np.ndarray, numbers: np.ndarray,
               target: np.ndarray, head: np.ndarray, after: np.ndarray, keys: np.ndarray,
               ids: np.ndarray, names: np.ndarray) -> int:
    """Read one block of proof lines into the database (see the module docstring):
    per clause line its kind (1 for a deletion), its 1-based line ``number``, and for a
    deletion the clause it deletes (``target``, -1 for none). ``values`` and
    ``scratch`` hold a line's literals (room for the longest line). SCANNED, or
    CHANGED when the text is not the one :func:`scan_proof` counted."""
    i = 0
    while i < len(text):
        i, count, deletion, largest = _next_clause(text, i, state, values)
        if count == NO_CLAUSE:
            continue
        line = state[CLAUSES]
        if count < 0 or count > len(values) or line >= len(kind):
            return CHANGED
        # without renumbering, the checker's arrays end at the largest variable counted
        beyond = len(keys) == 0 and largest > state[TOP]
        state[CLAUSES] = line + 1
        c = base + line
        kind[line], numbers[line] = deletion, state[LINE]
        if deletion != 0:  # of a clause with a variable beyond them: of none
            start[c], size[c] = HEADER, 0
            if not beyond and _codes(values, count, scratch, 0, keys, ids, names, state,
                                     False):
                n, tautological = _normalise(scratch, 0, count)
                if tautological == 0:
                    target[line] = _take(lits, start, size, scratch, n, head, after)
            continue
        b = state[AT] + HEADER
        if beyond or b + count > len(lits):
            return CHANGED
        if not _codes(values, count, lits, b, keys, ids, names, state, True):
            return CHANGED
        state[AT] = _keep(lits, start, size, tautology, c, b, count, head, after)
    return SCANNED
