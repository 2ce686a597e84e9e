"""trailkit's own DRUP proof checker, and the checker for ``drup`` certificates.

A DRUP proof refutes a CNF formula: each *lemma* line (``-3 5 0``) must follow
from the clauses so far by *reverse unit propagation* (assume every literal of the
lemma false; unit propagation must reach a conflict), each ``d ... 0`` line deletes
a clause, and the proof must derive the empty clause (``0``). A proof without it
is not a refutation: a truncated proof file is rejected.

The checker works forward (each lemma is checked when it is added) with two
watched literals, and shares no code with any solver. As drat-trim does, it
ignores deletions of unit clauses and of clauses that are the reason of a
top-level assignment: Glucose and MapleChrono delete such clauses, and honouring
those deletions would reject valid proofs. Ignoring a deletion only keeps an
implied clause, so it can never make an invalid proof pass.

>>> check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"])
(True, 'the proof derives the empty clause at line 2 (2 lemmas checked)')
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
    code 0 is a literal that is always true, written into a deleted clause's first
    slot so propagation drops it from watch lists on sight. ``truth[code]`` is 1 when
    that literal is true. Top-level assignments are never undone (deletions of their
    reasons are ignored), so a RUP check only undoes what it added itself.
    """

    def __init__(self, num_vars: int) -> None:
        size = 2 * (num_vars + 1)
        self.truth = bytearray(size)
        self.truth[_TRUE] = 1
        self.reason: list[list[int] | None] = [None] * (num_vars + 1)
        self.watches: list[list[list[int]]] = [[] for _ in range(size)]
        self.by_key: dict[tuple[int, ...], list[list[int]]] = {}
        self.trail: list[int] = []
        self.qhead = 0
        self.inconsistent = False  # the empty clause follows by unit propagation alone

    def propagate(self) -> bool:
        """Unit-propagate the trail; return True on a conflict."""
        truth, watches, trail, reason = self.truth, self.watches, self.trail, self.reason
        while self.qhead < len(trail):
            false_lit = trail[self.qhead] ^ 1
            self.qhead += 1
            ws = watches[false_lit]
            i = j = 0
            n = len(ws)
            while i < n:
                c = ws[i]
                i += 1
                first = c[0]
                if first == _TRUE:
                    continue  # a deleted clause: drop its watch
                if first == false_lit:
                    first = c[0] = c[1]
                    c[1] = false_lit
                if truth[first]:
                    ws[j] = c
                    j += 1
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if not truth[lit ^ 1]:
                        c[1] = lit
                        c[k] = false_lit
                        watches[lit].append(c)
                        break
                else:
                    ws[j] = c
                    j += 1
                    if truth[first ^ 1]:
                        ws[j:j + n - i] = ws[i:n]
                        del ws[j + n - i:]
                        return True
                    truth[first] = 1
                    reason[first >> 1] = c
                    trail.append(first)
            del ws[j:]
        return False

    def rup(self, lits: Sequence[int]) -> bool:
        """Whether the clause ``lits`` follows by reverse unit propagation."""
        if self.inconsistent:
            return True
        top = len(self.trail)
        truth = self.truth
        implied = False
        for lit in lits:
            if truth[lit]:
                implied = True
                break
            if not truth[lit ^ 1]:
                truth[lit ^ 1] = 1
                self.trail.append(lit ^ 1)
        if not implied:
            implied = self.propagate()
        for lit in self.trail[top:]:
            truth[lit] = 0
        del self.trail[top:]
        self.qhead = top
        return implied

    def add(self, lits: list[int]) -> None:
        """Add an (implied) clause and propagate at top level."""
        if self.inconsistent:
            return
        truth = self.truth
        if any(lit ^ 1 in lits for lit in lits):
            return  # a tautology never propagates
        key = tuple(lits)
        lits = sorted(lits, key=lambda lit: truth[lit ^ 1])  # literals not false first
        self.by_key.setdefault(key, []).append(lits)
        if not lits or truth[lits[0] ^ 1]:
            self.inconsistent = True
            return
        if len(lits) == 1 or truth[lits[1] ^ 1]:
            if not truth[lits[0]]:
                truth[lits[0]] = 1
                self.reason[lits[0] >> 1] = lits
                self.trail.append(lits[0])
                if self.propagate():
                    self.inconsistent = True
                    return
            if len(lits) == 1:
                return
        self.watches[lits[0]].append(lits)
        self.watches[lits[1]].append(lits)

    def delete(self, lits: list[int]) -> None:
        """Delete a clause, unless it is a unit or the reason of a top-level assignment."""
        found = self.by_key.get(tuple(lits))
        if not found or len(lits) <= 1:
            return
        c = found[-1]
        for lit in c:
            if self.truth[lit] and self.reason[lit >> 1] is c:
                return
        found.pop()
        c[0] = _TRUE


_TRUE = 0  # the code of the always-true pseudo-literal (variable 0 is never used)


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


def check_drup(clauses: Iterable[Sequence[int]], proof_lines: Iterable[str], *,
               time_limit: float | None = None,
               max_lemmas: int = MAX_LEMMAS) -> tuple[bool, str]:
    """Check a DRUP refutation of ``clauses``; return ``(ok, message)``.

    The message names the first proof line (1-based) that fails, or says that the
    proof ends without the empty clause. ``time_limit`` (seconds) and ``max_lemmas``
    bound the work: a proof over either is reported as unchecked (``ok`` false).
    """
    clauses = [list(c) for c in clauses]
    parsed: list[tuple[int, str, bool, list[int]]] = []
    for number, raw in enumerate(proof_lines, 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        try:
            deletion, lits = _parse(line)
        except ValueError as exc:
            return False, f"proof line {number} ({line[:60]!r}) is malformed: {exc}"
        parsed.append((number, line, deletion, lits))
        if len(parsed) > max_lemmas:
            return False, (f"unchecked: the proof has more than {max_lemmas} lines "
                           "(too large to check)")
    num_vars = max((abs(x) for c in clauses for x in c), default=0)
    num_vars = max([num_vars, *(abs(x) for *_, lits in parsed for x in lits)])
    checker = _Checker(num_vars)
    for c in clauses:
        checker.add(sorted({_code(x) for x in c}))
    deadline = None if time_limit is None else time.monotonic() + time_limit
    lemmas = 0
    for count, (number, line, deletion, lits) in enumerate(parsed):
        codes = sorted({_code(x) for x in lits})
        if deletion:
            checker.delete(codes)
            continue
        lemmas += 1
        if not checker.rup(codes):
            return False, (f"proof line {number} ({line[:60]!r}) does not follow by reverse "
                           "unit propagation")
        if not codes:
            return True, (f"the proof derives the empty clause at line {number} "
                          f"({lemmas} lemmas checked)")
        checker.add(codes)
        if deadline is not None and count % 1024 == 0 and time.monotonic() > deadline:
            return False, (f"unchecked: the time limit of {time_limit} s ran out at proof "
                           f"line {number}")
    return False, (f"the proof ends after {len(parsed)} lines without deriving the empty "
                   "clause: it is not a refutation (truncated?)")


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
