"""The DRUP checker's backward pass, recording LRAT hints (as ``drat-trim -L`` does).

The backward pass of :mod:`trailkit.models.proofs.drup_kernel` RUP-checks each core lemma: with
its literals false, unit propagation reaches a conflict, and :func:`analyze` marks the
clauses that conflict rests on. Those clauses, ordered by when the literal each one
implied was assigned (the conflict last), are the lemma's LRAT hints: each is unit in
that order, the last is false. :func:`backward_hints` is the backward pass doing exactly
that and writing every checked lemma's hints to one growing buffer. The lemma's own
variables are marked first, so a top-level reason of a literal the lemma assumes anyway
is not a hint (in LRAT it would be satisfied, not unit).

Clause ids in the buffer are the checker's (formula ``0 ..``, then ``base + line``);
:func:`write_lrat` renumbers them as LRAT ids as it writes the file's text.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from trailkit.models.proofs.drup_kernel import (
    AT,
    CHECKED,
    CONFLICT,
    CORE_CLAUSE,
    DELETION,
    FAILED,
    STAMP,
    TRAIL,
    Database,
    _remove,
    _rollback,
    analyze,
    propagate,
    restore,
    sort_by,
)
from trailkit.models.support.jit import kernel

# Without Numba's reference counting, as the DRUP checker's kernels (see drup_kernel):
# nothing here allocates an array.
_kernel = partial(kernel, refcounts=False)

__all__ = ["LAST_ID", "LRAT_SLOTS", "NEXT", "NUMBER", "ROOM", "backward_hints", "collect_hints",
           "write_lrat"]

ROOM = 3
"""What :func:`backward_hints` returns when the buffer may not hold the next lemma's
hints (line ``meta[AT]``): grow it and call again from that line."""
CONTINUE = 0
_SORT_IN_PLACE = 32
"""Up to this many hints, :func:`collect_hints` orders them by insertion sort; more by a
heap sort (through ``keys[count:]``: nothing is allocated)."""


@_kernel(inline=True)
def collect_hints(db: Database, conflict: int, lemma: int, hints: np.ndarray, at: int,
                  keys: np.ndarray) -> int:
    """Write to ``hints[at:]`` the clauses ``conflict`` rests on, in the order their
    literals were assigned (``db.position`` of each implied variable), ``conflict`` last;
    the variables of clause ``lemma`` (-1: none) are assumptions, not followed. Returns
    the end of what was written. Needs ``len(hints) - at`` above the number of variables,
    and ``keys`` twice that (the sort's work space)."""
    lits, start, size, reason, seen, stack = (db.lits, db.start, db.size, db.reason,
                                              db.seen, db.stack)
    db.meta[STAMP] += 1
    stamp = db.meta[STAMP]
    if lemma >= 0:
        for k in range(start[lemma], start[lemma] + size[lemma]):
            seen[lits[k] >> 1] = stamp
    stack[0] = conflict
    depth = 1
    count = 0
    while depth > 0:
        depth -= 1
        c = stack[depth]
        for k in range(start[c], start[c] + size[c]):
            var = lits[k] >> 1
            if seen[var] != stamp:
                seen[var] = stamp
                r = reason[var]
                if r != -1 and r != c:
                    stack[depth] = r
                    depth += 1
                    hints[at + count] = r
                    keys[count] = db.position[var]
                    count += 1
    if count <= _SORT_IN_PLACE:  # the usual case: sorted in place, nothing allocated
        for k in range(1, count):
            key, hint = keys[k], hints[at + k]
            j = k - 1
            while j >= 0 and keys[j] > key:
                keys[j + 1], hints[at + j + 1] = keys[j], hints[at + j]
                j -= 1
            keys[j + 1], hints[at + j + 1] = key, hint
    else:  # positions are distinct: any sort gives the one order
        order = keys[count:2 * count]
        sort_by(keys[:count], order)
        for k in range(count):
            keys[k] = hints[at + order[k]]
        for k in range(count):
            hints[at + k] = keys[k]
    hints[at + count] = conflict
    return at + count + 1


@_kernel(inline=True)
def _rup_hints(db: Database, clause: int, hints: np.ndarray, at: int,
               keys: np.ndarray) -> int:
    """:func:`trailkit.models.proofs.drup_kernel.rup` with ``mark``, also writing the lemma's
    hints to ``hints[at:]``; returns their end, or -1 when the lemma does not follow."""
    meta, truth, trail, lits = db.meta, db.truth, db.trail, db.lits
    top = meta[TRAIL]
    source = -1
    for k in range(db.start[clause], db.start[clause] + db.size[clause]):
        lit = lits[k]
        if truth[lit] != 0:  # true at top level: its reason is falsified by the others
            source = db.reason[lit >> 1]
            break
        if truth[lit ^ 1] == 0:
            truth[lit ^ 1] = 1
            db.reason[lit >> 1] = -1
            trail[meta[TRAIL]] = lit ^ 1
            meta[TRAIL] += 1
    if source == -1 and propagate(db):
        source = meta[CONFLICT]
    end = -1
    if source != -1:
        for k in range(top, meta[TRAIL]):
            db.position[trail[k] >> 1] = k
        analyze(db, source)
        end = collect_hints(db, source, clause, hints, at, keys)
    _rollback(db, top)
    return end


@_kernel
def backward_hints(db: Database, kind: np.ndarray, target: np.ndarray, before: np.ndarray,
                   applied: np.ndarray, base: int, first: int, last: int,
                   hints: np.ndarray, hint_start: np.ndarray, hint_end: np.ndarray,
                   keys: np.ndarray, at: int) -> tuple[int, int]:
    """:func:`trailkit.models.proofs.drup_kernel.backward` over lines ``last - 1`` down to
    ``first``, writing each checked lemma's hints to ``hints[hint_start[i]:hint_end[i]]``
    from ``at`` on. Returns ``(status, at)``: FAILED (line ``meta[AT]``), ROOM (line
    ``meta[AT]`` not begun: the buffer needs to grow) or CONTINUE."""
    room = len(db.reason) + 2
    for i in range(last - 1, first - 1, -1):
        if applied[i] == 0:
            continue
        if kind[i] == DELETION:
            restore(db, target[i])
            continue
        c = base + i
        core = db.lits[db.start[c] - 1] & CORE_CLAUSE != 0
        if core and len(hints) - at < room:
            db.meta[AT] = i
            return ROOM, at
        _remove(db, c)
        _rollback(db, before[i])
        if core:
            db.meta[CHECKED] += 1
            end = _rup_hints(db, c, hints, at, keys)
            if end < 0:
                db.meta[AT] = i
                return FAILED, at
            hint_start[i], hint_end[i] = at, end
            at = end
    return CONTINUE, at


@_kernel
def _put(out: np.ndarray, at: int, value: int, after: int) -> int:
    """Write ``value`` in decimal, then the byte ``after``, at ``out[at:]``; returns the end."""
    if value < 0:
        out[at] = 45  # "-"
        at += 1
        value = -value
    digits = 1
    rest = value // 10
    while rest > 0:
        digits += 1
        rest //= 10
    end = at + digits
    for k in range(end - 1, at - 1, -1):
        out[k] = 48 + value % 10
        value //= 10
    out[end] = after
    return end + 1


# write_lrat()'s state[] slots: where the text has got, between two calls.
NEXT = 0     # the next proof line to write (stop: the empty clause; stop + 1: done)
LAST_ID = 1  # the LRAT id of the last lemma written (the formula's last at first)
PENDING = 2  # 1 while a line of deletions is open
LRAT_SLOTS = 3
NUMBER = 12
"""Bytes a number takes at most in the text: ten digits (ids and variables are below
2^31), a sign and a space."""


@_kernel
def write_lrat(db: Database, kind: np.ndarray, target: np.ndarray, applied: np.ndarray,
               base: int, stop: int, hints: np.ndarray, hint_start: np.ndarray,
               hint_end: np.ndarray, final: np.ndarray, ids: np.ndarray,
               variables: np.ndarray, out: np.ndarray, state: np.ndarray) -> int:
    """Write the LRAT proof as ASCII to ``out`` from where ``state`` says, as far as
    ``out`` has room for whole lines; returns the length written (call again, with the
    same ``state``, until ``state[NEXT] > stop``). ``out`` must hold the longest line:
    :data:`NUMBER` bytes a number, and 4 more. Lines ``0 .. stop - 1`` in order: each
    checked lemma (``hint_end[i] >= 0``) as ``ID LITERALS 0 HINTS 0``, the applied
    deletions of clauses with an id (``ids[c] > 0``) gathered as ``ID d IDS 0``, then the
    empty clause with the ``final`` hints. Literal codes name variables through
    ``variables``."""
    lits, start, size = db.lits, db.start, db.size
    at = 0
    room = len(out) - 4  # the closing "0\n" of an open deletion line, and of the last
    i = state[NEXT]
    while i < stop:
        if applied[i] == 0 or (kind[i] != DELETION and hint_end[i] < 0):
            i += 1
            continue
        if kind[i] == DELETION:
            t = target[i]
            if ids[t] != 0:
                if at + 3 * NUMBER > room:
                    break
                if state[PENDING] == 0:
                    at = _put(out, at, state[LAST_ID], 32)
                    out[at], out[at + 1] = 100, 32  # "d "
                    at += 2
                    state[PENDING] = 1
                at = _put(out, at, ids[t], 32)
            i += 1
            continue
        c = base + i
        if at + NUMBER * (size[c] + hint_end[i] - hint_start[i] + 3) > room:
            break
        if state[PENDING] != 0:
            out[at], out[at + 1] = 48, 10
            at += 2
            state[PENDING] = 0
        state[LAST_ID] = ids[c]
        at = _put(out, at, ids[c], 32)
        for k in range(start[c], start[c] + size[c]):
            v = variables[lits[k] >> 1]
            at = _put(out, at, -v if lits[k] & 1 else v, 32)
        out[at], out[at + 1] = 48, 32
        at += 2
        for k in range(hint_start[i], hint_end[i]):
            at = _put(out, at, ids[hints[k]], 32)
        out[at], out[at + 1] = 48, 10
        at += 2
        i += 1
    state[NEXT] = i
    if i < stop or at + NUMBER * (len(final) + 3) > room:
        if i == stop and at == 0:
            raise ValueError("write_lrat: the buffer cannot hold the empty clause's line")
        return at
    if state[PENDING] != 0:
        out[at], out[at + 1] = 48, 10
        at += 2
        state[PENDING] = 0
    at = _put(out, at, state[LAST_ID] + 1, 32)
    out[at], out[at + 1] = 48, 32
    at += 2
    for k in range(len(final)):
        at = _put(out, at, ids[final[k]], 32)
    out[at], out[at + 1] = 48, 10
    state[NEXT] = stop + 1
    return at + 2
