"""The inner loops of trailkit's DRUP checker, on flat integer arrays.

:mod:`trailkit.models.checking.drup` parses a proof and binds it to a formula; this module
is the clause database it checks the proof with: two watched literals, unit
propagation at top level, reverse-unit-propagation (RUP) checks, and the forward
and backward passes over the proof. Everything lives in NumPy arrays (one
:class:`Database`) and every function is written in the subset of Python that
Numba compiles, so with Numba installed the hot loop runs as machine code (far
faster than the same code interpreted: ``docs/benchmarks.md``, from
``tests/bench/bench_sat.py --checker``). Without Numba, or with
``NUMBA_DISABLE_JIT=1``, the very same functions run as plain Python: slower, never
different.

Encoding. Variables are numbered from 1; literal ``v`` is coded ``2v``
and ``-v`` is ``2v + 1`` (``code ^ 1`` negates). ``truth[code]`` is 1 when that
literal is true at the moment. Clause ``c`` is ``lits[start[c]:start[c] + size[c]]``
(literals sorted and without repeats), after a three-slot header (where the last
search for a new watch stopped, its size, its id and flags); the formula's clauses
come first, then one clause id per proof line (``base + line index``): a deletion
line's is an empty clause sharing the header at ``lits[0:3]``, its literals never
stored (:mod:`trailkit.models.proofs.drup_read_kernel` fills the database). A clause in
propagation watches its first two literals. Each literal has two watch lists, one
for the clauses marked core and one for the rest (list ``2 * code + core``), so
that core-first propagation visits only the entries of the pass it is in (in one
mixed list, as drat-trim keeps them, three visits in four on a backward check were
of the other pass's clauses, passed over: ``docs/benchmarks.md``). A clause marked
core moves its entries to the core lists of its watched literals. Each list is a
contiguous run of one shared pool (one int64 entry ``start << 32 | blocker``,
MiniSat style: a true blocker literal settles the entry without touching the
clause); a full run moves to the pool's end, and a full pool is compacted. A
clause leaves propagation lazily: its entries are dropped when a scan or a
compaction meets them.

Watch invariant (what makes rolling back the top-level trail safe): a clause
that watches a literal false at top level is satisfied by a literal (its other
watch, or the entry's blocker) that is undone no earlier than that false one:
assigned before it, or by the same proof line. Propagation keeps this, and
:func:`restore` re-establishes it for a clause put back.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "COMPILED",
    "CONTINUE",
    "FAILED",
    "STOPPED",
    "Database",
    "add_formula",
    "analyze",
    "backward",
    "compact",
    "forward",
    "new_database",
    "new_pool",
]

from functools import partial

from trailkit.models.support.jit import COMPILED, kernel

# Every kernel here runs without Numba's reference counting: none allocates an array or
# keeps one past its return (the arrays are the Database's, held by the caller), and
# the counting cost an atomic increment and decrement per array a call was handed or
# took from the Database: about 180 per proof line, 14% of a check (docs/benchmarks.md).
_kernel = partial(kernel, refcounts=False)

# meta[] slots: the database's scalar state.
TRAIL = 0     # number of literals on the trail
QHEAD = 1     # trail index of the next literal to propagate
CONFLICT = 2  # id of a clause false at top level, or -1
STAMP = 3     # last mark used by analyze
AT = 4        # the proof line index a pass stopped or failed at
CHECKED = 5   # lemmas RUP-checked so far
POOL_END = 6  # first unused pool entry
SCAN_LIT = 7  # the watch list propagate() is scanning, or -1
SCAN_READ = 8   # ... its next entry to read
SCAN_WRITE = 9  # ... its next entry to keep
MOVES = 10    # compactions so far (a scan reloads its place after one)
CORE_FIRST = 11  # 1: propagate core clauses first (set for the backward pass)
WATCHING = 12   # clauses in propagation now
RESUME_LIT = 13  # the watch list whose REST scan stopped after an assignment, or -1
RESUME_AT = 14   # ... the pool entry to go on from (entries before it were visited)
SLOTS = 15

# A clause's header: lits[start[c] - 3] is where the last search for a new watch
# stopped (an offset from start[c], 2 at first), lits[start[c] - 2] is its size,
# lits[start[c] - 1] is
# c << 2 | WATCHED (in propagation: watches its first two) | CORE_CLAUSE (used by a
# checked derivation; never cleared). A watch entry names the clause by its start, so
# a scan finds the flags, the id, the size, the search position and the watched
# literals in one cache line (a separate array of search positions was one more cache
# miss per visit).
HEADER = 3
WATCHED = 1
CORE_CLAUSE = 2
# A watch entry is start << 32 | blocker (a literal code, below 2^31).
BLOCKER = (1 << 32) - 1

# propagate()'s scan modes: which watching clauses a scan visits.
ALL = 0
CORE = 1
REST = 2

# What forward() and backward() return.
CONTINUE = 0  # the chunk of lines is done
STOPPED = 1   # forward: the database became inconsistent, or an empty-clause line
FAILED = 2    # a lemma does not follow by reverse unit propagation (line meta[AT])

DELETION = 1  # kind[] of a deletion line (0 = lemma)

# Size of the watch pool, in entries. A clause in propagation has two entries, and
# a compaction gives each list twice its length: 16 per clause leaves room for the
# entries that deleted clauses leave behind between compactions.
POOL_PER_CLAUSE = 16
POOL_PER_LITERAL = 8
POOL_SLACK = 1024


class Database(NamedTuple):
    """The clause database and top-level assignment (see the module docstring)."""

    lits: np.ndarray      # int32: every clause's header, then its literal codes
    start: np.ndarray     # int64 per clause: offset into lits
    size: np.ndarray      # int32 per clause
    tautology: np.ndarray  # uint8 per clause: holds x and -x (never stored)
    alive: np.ndarray     # uint8 per clause: in the database now
    truth: np.ndarray     # uint8 per literal code
    woff: np.ndarray      # int64 per watch list (2 per literal code): where it starts
    wlen: np.ndarray      # int64 per watch list: its entries
    wcap: np.ndarray      # int64 per watch list: room of its run
    watches: np.ndarray   # int64 watch pool: watching clause << 32 | blocker literal
    reason: np.ndarray    # int32 per variable: clause that implied it, -1 = none
    position: np.ndarray  # int32 per variable: trail index of a top-level assignment
    seen: np.ndarray      # int64 per variable: analyze's marks
    trail: np.ndarray     # int32: assigned literal codes, in order
    stack: np.ndarray     # int32: analyze's work list
    order: np.ndarray     # int64 per watch list: compact()'s work space
    meta: np.ndarray      # int64: the slots named below


def new_database(lits: np.ndarray, start: np.ndarray, size: np.ndarray,
                 num_vars: int, tautology: np.ndarray | None = None,
                 watching: int | None = None) -> Database:
    """An empty database over the clauses ``lits``/``start``/``size`` (none added yet),
    with their ``tautology`` flags (none by default), and a watch pool for ``watching``
    clauses in propagation at once (default: all of them; see :func:`new_pool`)."""
    clauses, codes = len(size), 2 * (num_vars + 1)
    meta = np.zeros(SLOTS, dtype=np.int64)
    meta[CONFLICT] = meta[SCAN_LIT] = meta[RESUME_LIT] = -1
    lists = 2 * codes
    return Database(
        lits=lits, start=start, size=size,
        tautology=np.zeros(clauses, dtype=np.uint8) if tautology is None else tautology,
        alive=np.zeros(clauses, dtype=np.uint8),
        truth=np.zeros(codes, dtype=np.uint8),
        woff=np.zeros(lists, dtype=np.int64),
        wlen=np.zeros(lists, dtype=np.int64),
        wcap=np.zeros(lists, dtype=np.int64),
        watches=new_pool(clauses if watching is None else watching, codes),
        reason=np.full(num_vars + 1, -1, dtype=np.int32),
        position=np.zeros(num_vars + 1, dtype=np.int32),
        seen=np.zeros(num_vars + 1, dtype=np.int64),
        trail=np.zeros(num_vars + 1, dtype=np.int32),
        stack=np.zeros(num_vars + 2, dtype=np.int32),
        order=np.zeros(lists, dtype=np.int64),
        meta=meta,
    )


def new_pool(watching: int, codes: int) -> np.ndarray:
    """An empty watch pool for at most ``watching`` clauses in propagation at once, over
    ``codes`` literal codes. NumPy's zeros are the operating system's untouched pages:
    the part of the pool never reached costs no memory."""
    return np.zeros(POOL_PER_CLAUSE * watching + POOL_PER_LITERAL * codes + POOL_SLACK,
                    dtype=np.int64)


@_kernel
def _belongs(lits: np.ndarray, b: int, lst: int) -> bool:
    """Whether the clause starting at ``b`` is in propagation, watches the literal of
    watch list ``lst``, and is of that list's pass (a core clause's entries in the
    other list are stale: its live ones moved when it was marked core)."""
    header = lits[b - 1]
    lit = lst >> 1
    return (header & WATCHED != 0 and (lits[b] == lit or lits[b + 1] == lit)
            and (lst & 1 == 1 or header & CORE_CLAUSE == 0))


@_kernel(inline=True)
def _sift(keys: np.ndarray, order: np.ndarray, root: int, end: int) -> None:
    """Move ``order[root]`` down the max-heap ``order[:end]`` (keyed by ``keys``)."""
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and keys[order[child + 1]] > keys[order[child]]:
            child += 1
        if keys[order[child]] <= keys[order[root]]:
            return
        order[root], order[child] = order[child], order[root]
        root = child


@_kernel
def sort_by(keys: np.ndarray, order: np.ndarray) -> None:
    """Fill ``order`` with the indices of ``keys`` in increasing order of key: a heap
    sort in place, as an argsort would allocate (these kernels allocate nothing)."""
    n = len(order)
    for i in range(n):
        order[i] = i
    for root in range(n // 2 - 1, -1, -1):
        _sift(keys, order, root, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift(keys, order, 0, end)


@_kernel
def compact(db: Database) -> None:
    """Pack every watch list at the pool's start, dropping entries that no longer
    belong to it, and give each room for twice its length. The list propagate() is
    scanning keeps its read entries and its unread ones, and its place moves with it
    (``meta[SCAN_*]``), as does the point a stopped REST scan goes on from
    (``meta[RESUME_*]``), so a compaction never changes what is visited.

    In place, in three passes, so the pool needs no scratch copy (that copy was a
    third of the checker's arrays on long proofs): each list is filtered inside its
    own run; the lists are packed tightly to the left in the order of where they
    stand (a list never moves right, so none is overwritten before it is read); then
    they are spread to the right, last first, to their final runs.
    """
    meta = db.meta
    watches, woff, wlen, wcap = db.watches, db.woff, db.wlen, db.wcap
    scanned, resumed = meta[SCAN_LIT], meta[RESUME_LIT]
    resume_kept = 0  # entries kept before the resume point (they stay before it)
    for lst in range(len(woff)):  # 1: filter each list inside its own run
        off, n = woff[lst], wlen[lst]
        if n == 0:
            continue
        w = off
        if lst == scanned:
            w = meta[SCAN_WRITE]
            for k in range(meta[SCAN_READ], off + n):
                watches[w] = watches[k]
                w += 1
            meta[SCAN_READ] = meta[SCAN_WRITE]
        else:
            for k in range(off, off + n):
                if lst == resumed and k == meta[RESUME_AT]:
                    resume_kept = w - off
                if _belongs(db.lits, watches[k] >> 32, lst):
                    watches[w] = watches[k]
                    w += 1
            if lst == resumed and meta[RESUME_AT] >= off + n:
                resume_kept = w - off
        wlen[lst] = w - off
    order = db.order
    sort_by(woff, order)
    end = 0
    room = 0
    for lst in order:  # 2: pack to the left, in the order the lists stand
        off, n = woff[lst], wlen[lst]
        if n == 0:
            woff[lst] = wcap[lst] = 0
            if lst == scanned:
                meta[SCAN_WRITE] = meta[SCAN_READ] = 0
            continue
        for k in range(n):
            watches[end + k] = watches[off + k]
        if lst == scanned:
            meta[SCAN_WRITE] += end - off
            meta[SCAN_READ] += end - off
        woff[lst] = end
        end += n
        room += 2 * n + 2
    if room > len(watches):
        raise MemoryError("the DRUP checker's watch pool is full")
    at = room
    for i in range(len(order) - 1, -1, -1):  # 3: spread to the right, last list first
        lst = order[i]
        off, n = woff[lst], wlen[lst]
        if n == 0:
            continue
        at -= 2 * n + 2
        for k in range(n - 1, -1, -1):
            watches[at + k] = watches[off + k]
        if lst == scanned:
            meta[SCAN_WRITE] += at - off
            meta[SCAN_READ] += at - off
        woff[lst], wcap[lst] = at, 2 * n + 2
    if resumed != -1:
        meta[RESUME_AT] = woff[resumed] + resume_kept
    meta[POOL_END] = room
    meta[MOVES] += 1


@_kernel
def _entry(b: int, blocker: int) -> np.int64:
    """The watch pool entry of the clause starting at ``b`` with ``blocker`` (both
    below 2^31)."""
    return (np.int64(b) << 32) | np.int64(blocker)


@_kernel
def _list_of(lit: int, header: int) -> int:
    """The watch list of literal code ``lit`` that a clause with ``header`` goes in."""
    return 2 * lit + ((header & CORE_CLAUSE) >> 1)


@_kernel(inline=True)
def _append(db: Database, lst: int, entry: np.int64) -> None:
    """Append ``entry`` to watch list ``lst`` (never the list being scanned), moving
    the list to the pool's end, or compacting the pool, when its run is full."""
    n = db.wlen[lst]
    if n == db.wcap[lst]:
        room = max(4, 2 * n)
        if db.meta[POOL_END] + room > len(db.watches):
            compact(db)
            n = db.wlen[lst]
        if n == db.wcap[lst]:
            if db.meta[POOL_END] + room > len(db.watches):
                raise MemoryError("the DRUP checker's watch pool is full")
            off, end = db.woff[lst], db.meta[POOL_END]
            for k in range(n):  # to the pool's end, past every run: no overlap
                db.watches[end + k] = db.watches[off + k]
            db.woff[lst], db.wcap[lst] = end, room
            db.meta[POOL_END] = end + room
    db.watches[db.woff[lst] + n] = entry
    db.wlen[lst] = n + 1


@_kernel(inline=True)
def _watch(db: Database, lit: int, b: int, blocker: int) -> None:
    """Add the clause starting at ``b`` with ``blocker`` to the watch list of ``lit``
    for its pass."""
    _append(db, _list_of(lit, db.lits[b - 1]), _entry(b, blocker))


@_kernel
def propagate(db: Database) -> bool:
    """Unit-propagate the trail; on a conflict set ``meta[CONFLICT]`` and return True.

    Each literal made false has its watch lists scanned: each clause there finds a
    new literal to watch, or assigns its last open literal, or is the conflict.
    Without ``meta[CORE_FIRST]`` (the forward pass) both lists of a literal are
    scanned in turn (mode ALL). With it (the backward pass), clauses already marked
    core are propagated to a fixpoint before any other clause is looked at (CORE
    scans), and a scan of the other clauses (REST) stops after its first assignment,
    so that core clauses come first again (drat-trim's core-first mode): conflicts
    then rest on core clauses where they can, so fewer lemmas join the core and need
    checking. The fixpoint reached is the same. A REST scan that stops records where
    to go on (``meta[RESUME_*]``), as drat-trim does: the entries before that point
    need no second visit (what settled them stays true), and no entry joins the list
    of a false literal meanwhile. A REST scan drops the entries of clauses marked
    core meanwhile: each is a stale copy (the clause's live entries moved to the core
    lists when it was marked).

    The scans are this one function's loops, not a function called per literal: each
    call of a function taking the database takes and drops a reference count on
    every array in it, and per scan that was over half the backward pass's time.
    """
    lits, truth, reason = db.lits, db.truth, db.reason
    watches, trail, meta = db.watches, db.trail, db.meta
    woff, wlen, wcap = db.woff, db.wlen, db.wcap
    top, qhead = meta[TRAIL], meta[QHEAD]
    qcore = qhead  # core-first: trail[:qcore] went through the core clauses, [:qhead] all
    core_first = meta[CORE_FIRST] != 0
    part = 0  # without core-first: 0 while the rest list of trail[qhead] is next, 1 its core list
    meta[RESUME_LIT] = -1
    while meta[CONFLICT] == -1:
        if not core_first:
            if qhead >= top:
                break
            lst, mode = 2 * (trail[qhead] ^ 1) + part, ALL
        elif qcore < top:
            lst, mode = 2 * (trail[qcore] ^ 1) + 1, CORE
        elif qhead < top:
            lst, mode = 2 * (trail[qhead] ^ 1), REST
        else:
            break
        assigned = top
        false_lit = lst >> 1
        read = write = woff[lst]
        end = read + wlen[lst]
        if mode == REST:
            if meta[RESUME_LIT] == lst:
                read = write = meta[RESUME_AT]
            meta[RESUME_LIT] = -1
        stopped = False
        while read < end:
            entry = watches[read]
            read += 1
            if truth[entry & BLOCKER] != 0:  # settled by its blocker
                if write != read - 1:
                    watches[write] = entry
                write += 1
                continue
            b, blocker = entry >> 32, entry & BLOCKER
            header = lits[b - 1]
            if header & WATCHED == 0:
                continue  # left propagation: drop the entry
            if mode == REST and header & CORE_CLAUSE != 0:
                continue  # a stale copy of a core clause's entry: drop it
            c = header >> 2
            if lits[b] == false_lit:
                lits[b], lits[b + 1] = lits[b + 1], false_lit
            elif lits[b + 1] != false_lit:
                continue  # watches other literals now: drop the entry
            other = lits[b]
            if other != blocker and truth[other] != 0:
                watches[write] = _entry(b, other)
                write += 1
                continue
            # Look for a literal that is not false, going round from where the last
            # search stopped (long lemmas would otherwise be rescanned from the start).
            n = lits[b - 2]
            found = -1
            if n > 2:
                resume = b + lits[b - 3]
                for k in range(resume, b + n):
                    if truth[lits[k] ^ 1] == 0:
                        found = k
                        break
                if found < 0:
                    for k in range(b + 2, resume):
                        if truth[lits[k] ^ 1] == 0:
                            found = k
                            break
            if found >= 0:
                lits[b - 3] = found - b
                lit = lits[found]
                lits[b + 1], lits[found] = lit, false_lit
                target = _list_of(lit, header)
                length = wlen[target]
                if length < wcap[target]:  # room: append here (a call costs more)
                    watches[woff[target] + length] = _entry(b, other)
                    wlen[target] = length + 1
                    continue
                meta[SCAN_LIT], meta[SCAN_READ], meta[SCAN_WRITE] = lst, read, write
                moves = meta[MOVES]
                _append(db, target, _entry(b, other))
                if meta[MOVES] != moves:  # the pool was compacted: find our place
                    read, write = meta[SCAN_READ], meta[SCAN_WRITE]
                    end = woff[lst] + wlen[lst]
                meta[SCAN_LIT] = -1
                continue
            watches[write] = _entry(b, other)
            write += 1
            if truth[other ^ 1] != 0:
                meta[CONFLICT] = c
            else:
                truth[other] = 1
                reason[other >> 1] = c
                trail[top] = other
                top += 1
            if meta[CONFLICT] != -1:
                while read < end:  # stop here: keep the entries not visited
                    watches[write] = watches[read]
                    write += 1
                    read += 1
            elif mode == REST:  # stop here: fill the gap with the last entries, go on later
                gap = read - write
                moved = min(gap, end - read)
                for t in range(moved):
                    watches[write + t] = watches[end - 1 - t]
                meta[RESUME_LIT], meta[RESUME_AT] = lst, write
                wlen[lst] = end - gap - woff[lst]
                stopped = True
                break
        if not stopped:
            wlen[lst] = write - woff[lst]
        if not core_first:
            qhead += part
            part ^= 1
        elif mode == CORE:
            qcore += 1
        elif top == assigned:  # every other clause watching it was visited
            qhead += 1
    meta[TRAIL], meta[QHEAD], meta[RESUME_LIT] = top, qhead, -1
    return meta[CONFLICT] != -1


@_kernel
def _take(db: Database, lst: int, b: int) -> np.int64:
    """Take the clause at ``b`` out of watch list ``lst``, which keeps its order;
    returns one of its entries there (a deleted and restored clause may have left a
    stale one beside its live one), or -1."""
    watches = db.watches
    off = db.woff[lst]
    write = off
    taken = np.int64(-1)
    for k in range(off, off + db.wlen[lst]):
        entry = watches[k]
        if entry >> 32 == b:
            if taken == -1:
                taken = entry
        else:
            watches[write] = entry
            write += 1
    db.wlen[lst] = write - off
    return taken


@_kernel
def _promote(db: Database, b: int) -> None:
    """Move the clause at ``b`` (just marked core) from the other clauses' watch lists
    of its two watched literals to their core lists, with its blockers (no scan is
    under way). Both are taken out before either is put back: putting one back may
    compact the pool, which drops a core clause's entries from the other lists."""
    first, second = db.lits[b], db.lits[b + 1]
    one = _take(db, 2 * first, b)
    two = _take(db, 2 * second, b)
    if one != -1:
        _append(db, 2 * first + 1, one)
    if two != -1:
        _append(db, 2 * second + 1, two)


@_kernel(inline=True)
def analyze(db: Database, clause: int) -> None:
    """Mark ``clause`` (falsified, or the reason of a true literal) and every reason
    it rests on as core, following the implication graph back to the units."""
    lits, start, size, reason, seen, stack = (db.lits, db.start, db.size, db.reason,
                                              db.seen, db.stack)
    db.meta[STAMP] += 1
    stamp = db.meta[STAMP]
    stack[0] = clause
    depth = 1
    while depth > 0:
        depth -= 1
        c = stack[depth]
        b = start[c]
        if lits[b - 1] & CORE_CLAUSE == 0:
            lits[b - 1] |= CORE_CLAUSE
            if lits[b - 1] & WATCHED != 0:
                _promote(db, b)
        for k in range(start[c], start[c] + size[c]):
            var = lits[k] >> 1
            if seen[var] != stamp:
                seen[var] = stamp
                r = reason[var]
                if r != -1 and r != c:
                    stack[depth] = r
                    depth += 1


@_kernel(inline=True)
def rup(db: Database, clause: int, mark: bool) -> bool:
    """Whether ``clause`` follows by reverse unit propagation from the database.

    With ``mark``, the clauses the derivation uses (the conflict and the reasons
    behind it, down to the top level) are marked core. The trail is left as found.
    """
    meta, truth, trail, lits = db.meta, db.truth, db.trail, db.lits
    if meta[CONFLICT] != -1:
        return True
    top = meta[TRAIL]
    implied = False
    source = -1
    for k in range(db.start[clause], db.start[clause] + db.size[clause]):
        lit = lits[k]
        if truth[lit] != 0:  # already true at top level (the clause is no tautology)
            implied = True
            source = db.reason[lit >> 1]
            break
        if truth[lit ^ 1] == 0:
            truth[lit ^ 1] = 1
            db.reason[lit >> 1] = -1
            trail[meta[TRAIL]] = lit ^ 1
            meta[TRAIL] += 1
    if not implied:
        implied = propagate(db)
        source = meta[CONFLICT]
    if implied and mark and source != -1:
        analyze(db, source)
    for k in range(top, meta[TRAIL]):
        truth[trail[k]] = 0
    meta[TRAIL], meta[QHEAD], meta[CONFLICT] = top, top, -1
    return implied


@_kernel(inline=True)
def _watch_front(db: Database, c: int) -> None:
    """Watch clause ``c``'s first two literals."""
    b = db.start[c]
    db.lits[b - 1] |= WATCHED  # first: a compaction while watching keeps only watching clauses
    db.meta[WATCHING] += 1
    _watch(db, db.lits[b], b, db.lits[b + 1])
    _watch(db, db.lits[b + 1], b, db.lits[b])


@_kernel(inline=True)
def add(db: Database, c: int) -> None:
    """Add the implied clause ``c`` and propagate at top level (not a tautology).

    A clause false at once becomes ``meta[CONFLICT]``.
    """
    lits, truth, meta = db.lits, db.truth, db.meta
    b, n = db.start[c], db.size[c]
    db.alive[c] = 1
    free = 0  # bring up to two literals that are not false to the front
    for k in range(b, b + n):
        if truth[lits[k] ^ 1] == 0:
            lits[b + free], lits[k] = lits[k], lits[b + free]
            free += 1
            if free == 2:
                break
    if free == 0:
        meta[CONFLICT] = c
        return
    if n == 1 or free == 1:  # unit under the top-level assignment
        unit = lits[b]
        if truth[unit] == 0:
            top = meta[TRAIL]
            truth[unit] = 1
            db.reason[unit >> 1] = c
            db.trail[top] = unit
            meta[TRAIL] = top + 1
            propagate(db)
            for k in range(top, meta[TRAIL]):
                db.position[db.trail[k] >> 1] = k
        if n == 1:
            return
    _watch_front(db, c)


@_kernel(inline=True)
def _remove(db: Database, c: int) -> None:
    """Take clause ``c`` out of propagation (its watch entries go lazily)."""
    h = db.start[c] - 1
    if db.lits[h] & WATCHED != 0:
        db.lits[h] &= ~WATCHED
        db.meta[WATCHING] -= 1
    db.alive[c] = 0


@_kernel
def delete(db: Database, c: int) -> bool:
    """Delete clause ``c``, unless it is absent, a unit, or the reason of a top-level
    assignment (as drat-trim does: Glucose and MapleChrono delete such clauses).
    Returns whether it was removed."""
    if c < 0 or db.alive[c] == 0 or db.size[c] <= 1:
        return False
    for k in range(db.start[c], db.start[c] + db.size[c]):
        lit = db.lits[k]
        if db.truth[lit] != 0 and db.reason[lit >> 1] == c:
            return False
    _remove(db, c)
    return True


@_kernel
def _restore_key(truth: np.ndarray, position: np.ndarray, lit: int) -> int:
    """Order of watch preference in :func:`restore`: not false first, then latest."""
    return int(truth[lit ^ 1]) * 4294967296 - int(position[lit >> 1])


@_kernel(inline=True)
def restore(db: Database, c: int) -> None:
    """Put a deleted clause back (backward pass), keeping the watch invariant.

    At this point of the proof the clause was present and propagation was
    complete, so it has two literals that are not false, or one true literal
    assigned no later than its last false literal: watch those two.
    """
    lits, truth, position = db.lits, db.truth, db.position
    b, n = db.start[c], db.size[c]
    for front in range(2):  # selection of the two best: not false, then latest
        best = b + front
        best_key = _restore_key(truth, position, lits[best])
        for k in range(b + front + 1, b + n):
            key = _restore_key(truth, position, lits[k])
            if key < best_key:
                best, best_key = k, key
        lits[b + front], lits[best] = lits[best], lits[b + front]
    db.alive[c] = 1
    _watch_front(db, c)


@_kernel(inline=True)
def _rollback(db: Database, size: int) -> None:
    """Undo the top-level assignments after the first ``size`` on the trail."""
    for k in range(size, db.meta[TRAIL]):
        db.truth[db.trail[k]] = 0
    db.meta[TRAIL], db.meta[QHEAD], db.meta[CONFLICT] = size, size, -1


@_kernel
def add_formula(db: Database, count: int) -> None:
    """Add the formula's clauses ``0 .. count - 1`` until the database is inconsistent."""
    for c in range(count):
        if db.meta[CONFLICT] != -1:
            return
        if db.tautology[c] == 0:
            add(db, c)


@_kernel
def forward(db: Database, kind: np.ndarray, target: np.ndarray, before: np.ndarray,
            applied: np.ndarray, base: int, first: int, last: int, check: bool) -> int:
    """Apply proof lines ``first .. last - 1`` in order, RUP-checking each lemma if
    ``check``; stop (STOPPED, line in ``meta[AT]``) once the database is inconsistent
    or at an empty-clause line.

    Per line it records the trail size before it and whether it changed the
    database (a deletion that was ignored, or a tautology, did not).
    """
    meta = db.meta
    for i in range(first, last):
        c = base + i
        if meta[CONFLICT] != -1 or (kind[i] != DELETION and db.size[c] == 0):
            meta[AT] = i
            return STOPPED
        before[i] = meta[TRAIL]
        if kind[i] == DELETION:
            applied[i] = 1 if delete(db, target[i]) else 0
            continue
        if check:
            if not rup(db, c, False):
                meta[AT] = i
                return FAILED
            meta[CHECKED] += 1
        if db.tautology[c] != 0:
            applied[i] = 0
        else:
            add(db, c)
            applied[i] = 1
    return CONTINUE


@_kernel
def backward(db: Database, kind: np.ndarray, target: np.ndarray, before: np.ndarray,
             applied: np.ndarray, base: int, first: int, last: int) -> int:
    """Walk proof lines ``last - 1`` down to ``first``: take lemmas out, put deleted
    clauses back, and RUP-check (marking what each derivation uses) the lemmas
    marked core. FAILED names the line in ``meta[AT]``."""
    for i in range(last - 1, first - 1, -1):
        if applied[i] == 0:
            continue
        if kind[i] == DELETION:
            restore(db, target[i])
            continue
        c = base + i
        _remove(db, c)
        _rollback(db, before[i])
        if db.lits[db.start[c] - 1] & CORE_CLAUSE != 0:
            db.meta[CHECKED] += 1
            if not rup(db, c, True):
                db.meta[AT] = i
                return FAILED
    return CONTINUE
