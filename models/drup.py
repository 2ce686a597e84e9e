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
skipped (the refutation stands without it). ``backward=False`` checks every lemma
when it is added. Either way the proof must contain the empty clause, and every
lemma a refutation rests on is checked against the clauses present at its line.

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

:func:`check_drup_certificate` binds a proof to a puzzle: it re-encodes the puzzle
with the encoding the certificate names, requires the certified CNF to be exactly
that formula (by SHA-256), and then checks the proof against the re-encoded CNF.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["MAX_LEMMAS", "check_drup", "check_drup_certificate", "cnf_sha256", "cnf_text"]

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


class _Checker:
    """Clause database with two watched literals and a top-level trail.

    Literal ``v`` is coded ``2v`` and ``-v`` is ``2v + 1`` (so ``code ^ 1`` negates);
    code 0 is a literal that is always true, written into a removed clause's first
    slot so propagation drops it from watch lists on sight. ``truth[code]`` is 1 when
    that literal is true. Every stored clause has an id (``cid``): the formula's
    clauses come first, then one id per proof line. Top-level assignments are only
    undone by :meth:`rollback` in the backward pass (deletions of their reasons are
    ignored), so a RUP check only undoes what it added itself.

    Watch invariant (what makes rolling back the top-level trail safe): a watched
    literal that is false at top level is paired with a true watched literal that
    was assigned no later. Propagation keeps it; :meth:`restore` re-establishes it.
    """

    def __init__(self, num_vars: int, num_ids: int) -> None:
        size = 2 * (num_vars + 1)
        self.truth = bytearray(size)
        self.truth[_TRUE] = 1
        self.reason: list[list[int] | None] = [None] * (num_vars + 1)
        self.position = [0] * (num_vars + 1)  # trail index of a top-level assignment
        self.watches: list[list[list[int]]] = [[] for _ in range(size)]
        self.by_key: dict[tuple[int, ...], list[list[int]]] = {}
        self.trail: list[int] = []
        self.qhead = 0
        self.conflict: list[int] | None = None  # a clause falsified at top level
        self.cid_of: dict[int, int] = {}  # id(clause object) -> cid
        self.core = bytearray(num_ids)  # 1 = the clause took part in a conflict

    @property
    def inconsistent(self) -> bool:
        """Whether unit propagation alone has reached a conflict at top level."""
        return self.conflict is not None

    def propagate(self) -> bool:
        """Unit-propagate the trail; on a conflict set ``self.conflict`` and return True.

        The hot loop of the checker: each watch list is rebuilt while it is scanned
        (iterating is cheaper than index bookkeeping in Python).
        """
        truth, watches, trail, reason = self.truth, self.watches, self.trail, self.reason
        qhead = self.qhead
        while qhead < len(trail):
            false_lit = trail[qhead] ^ 1
            qhead += 1
            keep: list[list[int]] = []
            push = keep.append
            scan = iter(watches[false_lit])
            for c in scan:
                first = c[0]
                if first == false_lit:
                    first = c[0] = c[1]
                    c[1] = false_lit
                elif first == _TRUE:
                    continue  # a removed clause: drop its watch
                if truth[first]:
                    push(c)
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if not truth[lit ^ 1]:
                        c[1] = lit
                        c[k] = false_lit
                        watches[lit].append(c)
                        break
                else:
                    push(c)
                    if truth[first ^ 1]:
                        keep.extend(scan)
                        watches[false_lit] = keep
                        self.qhead = qhead
                        self.conflict = c
                        return True
                    truth[first] = 1
                    reason[first >> 1] = c
                    trail.append(first)
            watches[false_lit] = keep
        self.qhead = qhead
        return False

    def rup(self, lits: Sequence[int], *, mark: bool = False) -> bool:
        """Whether the clause ``lits`` follows by reverse unit propagation.

        With ``mark``, the clauses the derivation uses (the conflict and the reasons
        behind it, down to the top level) are marked in ``self.core``.
        """
        if self.inconsistent:
            return True
        truth, trail, reason = self.truth, self.trail, self.reason
        top = len(trail)
        saved_conflict = self.conflict
        start: list[int] | None = None
        implied = False
        for lit in lits:
            if truth[lit]:  # already true at top level (lits is no tautology)
                implied, start = True, reason[lit >> 1]
                break
            if not truth[lit ^ 1]:
                truth[lit ^ 1] = 1
                reason[lit >> 1] = None
                trail.append(lit ^ 1)
        if not implied:
            implied = self.propagate()
            start = self.conflict
        if implied and mark and start is not None:
            self.analyze(start)
        for lit in trail[top:]:
            truth[lit] = 0
        del trail[top:]
        self.qhead = top
        self.conflict = saved_conflict
        return implied

    def analyze(self, clause: list[int]) -> None:
        """Mark ``clause`` (falsified, or the reason of a true literal) and every
        reason it rests on, following the implication graph back to the units."""
        reason, cid_of, core = self.reason, self.cid_of, self.core
        seen: set[int] = set()
        stack = [clause]
        while stack:
            c = stack.pop()
            core[cid_of[id(c)]] = 1
            for lit in c:
                var = lit >> 1
                if var not in seen:
                    seen.add(var)
                    r = reason[var]
                    if r is not None and r is not c:
                        stack.append(r)

    def add(self, lits: list[int], cid: int) -> list[int] | None:
        """Add an (implied) clause with id ``cid`` and propagate at top level.

        Returns the stored clause object (None for a tautology, which never
        propagates). A clause that is false at once becomes ``self.conflict``.
        """
        truth = self.truth
        if any(lit ^ 1 in lits for lit in lits):
            return None
        key = tuple(lits)
        lits = sorted(lits, key=lambda lit: truth[lit ^ 1])  # literals not false first
        self.cid_of[id(lits)] = cid
        self.by_key.setdefault(key, []).append(lits)
        if not lits or truth[lits[0] ^ 1]:
            self.conflict = lits
            return lits
        if len(lits) == 1 or truth[lits[1] ^ 1]:
            if not truth[lits[0]]:
                top = len(self.trail)
                truth[lits[0]] = 1
                self.reason[lits[0] >> 1] = lits
                self.trail.append(lits[0])
                self.propagate()
                for index in range(top, len(self.trail)):
                    self.position[self.trail[index] >> 1] = index
            if len(lits) == 1:
                return lits
        self.watches[lits[0]].append(lits)
        self.watches[lits[1]].append(lits)
        return lits

    def delete(self, lits: list[int]) -> list[int] | None:
        """Delete a clause, unless it is a unit or the reason of a top-level assignment.

        Returns the removed clause object (None when nothing was removed).
        """
        found = self.by_key.get(tuple(lits))
        if not found or len(lits) <= 1:
            return None
        c = found[-1]
        for lit in c:
            if self.truth[lit] and self.reason[lit >> 1] is c:
                return None
        found.pop()
        c[0] = _TRUE
        return c

    def remove(self, clause: list[int]) -> None:
        """Take a clause out of propagation (backward pass: going back past its lemma)."""
        if len(clause) > 1:
            clause[0] = _TRUE

    def restore(self, lits: list[int], cid: int) -> list[int]:
        """Put a deleted clause back (backward pass), keeping the watch invariant.

        At this point of the proof the clause was present and propagation was
        complete, so it has two literals that are not false, or one true literal
        assigned no later than its last false literal: watch those two.
        """
        truth, position = self.truth, self.position
        c = sorted(lits, key=lambda lit: (truth[lit ^ 1], -position[lit >> 1]))
        self.cid_of[id(c)] = cid
        self.watches[c[0]].append(c)
        self.watches[c[1]].append(c)
        return c

    def rollback(self, size: int) -> None:
        """Undo the top-level assignments after the first ``size`` on the trail."""
        truth, trail = self.truth, self.trail
        for lit in trail[size:]:
            truth[lit] = 0
        del trail[size:]
        self.qhead = size
        self.conflict = None


_TRUE = 0  # the code of the always-true pseudo-literal (variable 0 is never used)
_Line = tuple[int, str, bool, list[int]]  # (line number, text, is deletion, literal codes)


def _parse(line: str) -> tuple[bool, list[int]]:
    """``(is_deletion, literals)`` of one proof line; ``ValueError`` if malformed."""
    parts = line.split()
    deletion = bool(parts) and parts[0] == "d"
    if deletion:
        parts = parts[1:]
    if not parts or parts[-1] != "0":
        raise ValueError("the line does not end with 0")
    lits = [int(x) for x in parts[:-1]]
    if 0 in lits:
        raise ValueError("0 inside a clause")
    return deletion, lits


def _code(lit: int) -> int:
    return 2 * lit if lit > 0 else -2 * lit + 1


def _parse_proof(proof_lines: Iterable[str], max_lemmas: int) -> list[_Line] | str:
    """The proof's clause lines with literal codes (sorted, no repeats), or why not."""
    parsed: list[_Line] = []
    for number, raw in enumerate(proof_lines, 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        try:
            deletion, lits = _parse(line)
        except ValueError as exc:
            return f"proof line {number} ({line[:60]!r}) is malformed: {exc}"
        parsed.append((number, line, deletion, sorted({_code(x) for x in lits})))
        if len(parsed) > max_lemmas:
            return (f"unchecked: the proof has more than {max_lemmas} lines "
                    "(too large to check)")
    return parsed


class _OutOfTime(Exception):
    """The time limit ran out at a proof line (the proof is unchecked)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


class _Failed(Exception):
    """A lemma does not follow by reverse unit propagation."""

    def __init__(self, number: int, line: str) -> None:
        super().__init__(number)
        self.number, self.line = number, line


def _tick(deadline: float | None, count: int, number: int) -> None:
    """Raise :class:`_OutOfTime` once the deadline has passed (looked at every 64
    lines: one long lemma can take milliseconds, so the cap is not overshot much)."""
    if deadline is not None and count % 64 == 0 and time.monotonic() > deadline:
        raise _OutOfTime(number)


def _forward(checker: _Checker, parsed: list[_Line], base: int, check: bool,
             deadline: float | None) -> tuple[int, list[tuple[int, list[int] | None, int]]]:
    """Add the proof's clauses in order (RUP-checking each lemma if ``check``) until
    the database is inconsistent or an empty-clause line is reached.

    Returns the index of the line where that happened (``len(parsed)`` if neither)
    and, per line, ``(cid, clause object or None, trail size before the line)``.
    """
    log: list[tuple[int, list[int] | None, int]] = []
    for index, (number, line, deletion, codes) in enumerate(parsed):
        _tick(deadline, index, number)
        if checker.inconsistent or (not codes and not deletion):
            return index, log
        before = len(checker.trail)
        if deletion:
            removed = checker.delete(codes)
            cid = -1 if removed is None else checker.cid_of[id(removed)]
            log.append((cid, removed, before))
            continue
        if check and not checker.rup(codes):
            raise _Failed(number, line)
        log.append((base + index, checker.add(codes, base + index), before))
    return len(parsed), log


def _backward(checker: _Checker, parsed: list[_Line], log: list[tuple[int, list[int] | None,
              int]], deadline: float | None) -> int:
    """Walk the proof back from the conflict: undo lemmas, restore deleted clauses,
    and RUP-check (marking what each derivation uses) the lemmas marked as used.
    Returns how many lemmas were checked."""
    if checker.conflict is None:
        return 0
    checker.analyze(checker.conflict)
    live = {cid: obj for cid, obj, _ in log if obj is not None}
    checked = 0
    for index in range(len(log) - 1, -1, -1):
        cid, obj, before = log[index]
        number, line, deletion, codes = parsed[index]
        _tick(deadline, index, number)
        if obj is None:
            continue
        if deletion:
            live[cid] = checker.restore(codes, cid)
            continue
        checker.remove(live[cid])
        checker.rollback(before)
        if checker.core[cid]:
            checked += 1
            if not checker.rup(codes, mark=True):
                raise _Failed(number, line)
    return checked


def check_drup(clauses: Iterable[Sequence[int]], proof_lines: Iterable[str], *,
               time_limit: float | None = None, max_lemmas: int = MAX_LEMMAS,
               backward: bool = True) -> tuple[bool, str]:
    """Check a DRUP refutation of ``clauses``; return ``(ok, message)``.

    The proof must contain an empty-clause line (``0``), and unit propagation on
    the formula and the lemmas before it must reach a conflict. With ``backward``
    (the default, as drat-trim) lemmas are first added unchecked up to that
    conflict; then the proof is walked back and only the lemmas the conflict (and
    the derivations of lemmas already checked) rest on are RUP-checked. A lemma no
    derivation uses is skipped: the refutation holds without it. With
    ``backward=False`` every lemma is checked when it is added.

    The message names the first proof line (1-based) that fails, or says that the
    proof ends without the empty clause. ``time_limit`` (seconds) and ``max_lemmas``
    bound the work: a proof over either is reported as unchecked (``ok`` false).
    """
    clauses = [sorted({_code(x) for x in c}) for c in clauses]
    parsed = _parse_proof(proof_lines, max_lemmas)
    if isinstance(parsed, str):
        return False, parsed
    num_vars = max((c[-1] >> 1 for c in clauses if c), default=0)
    num_vars = max([num_vars, *(codes[-1] >> 1 for *_, codes in parsed if codes)])
    checker = _Checker(num_vars, len(clauses) + len(parsed))
    for cid, c in enumerate(clauses):
        if not checker.inconsistent:
            checker.add(c, cid)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    lemmas = sum(1 for *_, deletion, _ in parsed if not deletion)
    try:
        stop, log = _forward(checker, parsed, len(clauses), not backward, deadline)
        empty = next((i for i in range(stop, len(parsed))
                      if not parsed[i][2] and not parsed[i][3]), None)
        if empty is None:
            return False, (f"the proof ends after {len(parsed)} lines without deriving the "
                           "empty clause: it is not a refutation (truncated?)")
        number, line, *_ = parsed[empty]
        if not checker.inconsistent:
            return False, (f"proof line {number} ({line!r}) does not follow by reverse "
                           "unit propagation")
        if backward:
            checked = 1 + _backward(checker, parsed, log, deadline)
        else:
            checked = 1 + sum(1 for *_, deletion, _ in parsed[:stop] if not deletion)
    except _OutOfTime as out:
        return False, (f"unchecked: the time limit of {time_limit} s ran out at proof "
                       f"line {out.number}")
    except _Failed as failed:
        return False, (f"proof line {failed.number} ({failed.line[:60]!r}) does not follow "
                       "by reverse unit propagation")
    how = "backward" if backward else "forward"
    return True, (f"the proof derives the empty clause at line {number} ({checked} of "
                  f"{lemmas} lemmas checked, {how})")


# ------------------------------------------------------------- certificates
CERTIFICATE_FORMAT = "trailkit-drup/1"


def check_drup_certificate(puzzle: Puzzle, certificate: Certificate, *,
                           time_limit: float | None = None) -> list[str]:
    """Check a ``drup`` certificate against ``puzzle``; return why it fails ([] = accepted).

    The data must carry ``format``, ``encoding``, ``cardinality``, ``length``,
    ``symmetry``, ``num_vars``, ``cnf_sha256`` and ``proof`` (a list of lines, or one
    text); ``cnf`` (DIMACS text), ``variables``, ``trailkit_version``, ``spec_sha256``
    and ``solver`` are informative. The formula is re-derived from the puzzle, so a
    proof made for another spec or another formula is rejected.
    """
    try:
        return _check_drup_data(puzzle, certificate.data, time_limit)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"malformed drup certificate: {exc!r}"]


def _check_drup_data(puzzle: Puzzle, data: Mapping[str, Any],
                     time_limit: float | None) -> list[str]:
    # The encoder is imported here only: the checking algorithm above uses no solver code.
    from trailkit.solvers.sat.encode import ENCODING_NAME, encode

    if data.get("format") != CERTIFICATE_FORMAT:
        return [f"unknown drup certificate format {data.get('format')!r} "
                f"(expected {CERTIFICATE_FORMAT!r})"]
    if data["encoding"] != ENCODING_NAME:
        return [f"unknown encoding {data['encoding']!r} (this trailkit encodes "
                f"{ENCODING_NAME!r})"]
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return ["a drup certificate only covers puzzles whose edges are used exactly once"]
    m = puzzle.num_edges
    if m == 0:
        return ["a puzzle without edges is decided without a proof"]
    if int(data["length"]) != m:
        return [f"the certified formula asks for {data['length']} steps, but an exactly-once "
                f"walk of this puzzle has {m}"]
    clauses, vmap = encode(puzzle, m, cardinality=str(data["cardinality"]),
                           break_symmetry=bool(data["symmetry"]))
    digest = cnf_sha256(vmap.num_vars, clauses)
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
    lines = proof.splitlines() if isinstance(proof, str) else [str(x) for x in proof]
    ok, message = check_drup(clauses, lines, time_limit=time_limit)
    return [] if ok else [message]
