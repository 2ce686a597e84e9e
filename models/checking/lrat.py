"""A small, independent LRAT checker: the last word on a clausal refutation.

LRAT is the proof format the SAT community's verified checker ``cake_lpr`` reads (proved
correct in CakeML), and what ``drat-trim -L`` writes. A line adds or deletes clauses,
each clause named by an id; the formula's clauses have the ids 1, 2, ... in file order::

    ID LITERALS 0 HINTS 0     add the lemma LITERALS as clause ID
    ID d IDS 0                delete the clauses IDS (the leading ID is not used)

A lemma is checked by unit propagation over its hints alone, in their order: with every
literal of the lemma assumed false, each hint must be unit (one literal left open,
which then becomes true) until one is false throughout (the conflict). So each line costs
the size of its hints, and checking is linear in the proof. The proof must add the
empty clause; nothing after it is read. Only RUP lemmas are accepted (a negative hint,
as RAT steps use, is rejected: trailkit never writes one).

This module is plain Python and shares no code with trailkit's DRUP checker
(:mod:`trailkit.models.checking.drup`) or its Numba kernel: it is short enough to read whole,
which is the point. A rejection names the proof line and the reason: a hint that is not
unit (``wrong hint``), hints that end without a conflict though the clauses present imply
the lemma (``a hint is missing``) or do not (``the lemma does not follow``), an id named
before it exists or after its deletion, or no empty clause.

>>> check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], "5 2 0 1 2 0\\n6 0 5 3 4 0\\n")
(True, 'the LRAT proof derives the empty clause at line 2 (2 lemmas checked)')
>>> check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], "5 2 0 1 0\\n")
(False, 'LRAT line 1: hint 1 (clause 1) leaves the lemma open: a hint is missing')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.puzzle import Puzzle

__all__ = ["LratError", "check_lrat", "check_lrat_certificate", "check_lrat_files",
           "lrat_verdict", "read_dimacs"]

Lines = Iterable[str] | str | bytes | os.PathLike[str]


class LratError(Exception):
    """Why a proof is rejected, at a line (1-based) of the LRAT text."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"LRAT line {line}: {reason}")


def _lines(proof: Lines) -> Iterator[str]:
    """The proof's lines, one at a time (a text, or bytes, is not split or decoded
    whole: a big proof is never held twice; a file's path, read line by line)."""
    if isinstance(proof, os.PathLike):  # split at "\n" alone, as a text or bytes is
        with open(proof, encoding="ascii", errors="replace", newline="\n") as handle:
            yield from handle
        return
    if isinstance(proof, bytes | bytearray | str):
        newline: Any = b"\n" if isinstance(proof, bytes | bytearray) else "\n"
        start = 0
        while start < len(proof):
            end = proof.find(newline, start)
            end = len(proof) if end < 0 else end
            line = proof[start:end]
            yield line if isinstance(line, str) else line.decode("ascii", errors="replace")
            start = end + 1
        return
    yield from proof


def _numbers(line: int, tokens: list[str]) -> list[int]:
    try:
        return [int(token) for token in tokens]
    except ValueError:
        raise LratError(line, f"{' '.join(tokens)[:40]!r} holds something that is not a "
                        "number") from None


def _follows(lemma: list[int], hints: list[int], clauses: Mapping[int, Sequence[int]],
             line: int, deleted: Mapping[int, int]) -> None:
    """Raise unless unit propagation over ``hints`` refutes the negation of ``lemma``."""
    true = {-x for x in lemma}
    if any(-x in true for x in true):
        return  # a tautology holds on its own
    for number, hint in enumerate(hints, 1):
        clause = clauses.get(hint)
        if clause is None:
            raise LratError(line, _absent(hint, deleted, f"hint {number}"))
        open_literal = 0
        for x in clause:
            if x in true:
                raise _rejection(line, lemma, clauses, f"hint {number} (clause {hint}) is "
                                 "already satisfied", "wrong hint")
            if -x not in true and x != open_literal:
                if open_literal:
                    raise _rejection(line, lemma, clauses, f"hint {number} (clause {hint}) "
                                     "has two open literals", "wrong hint")
                open_literal = x
        if not open_literal:
            return  # the conflict: the lemma follows
        true.add(open_literal)
    where = f"hint {len(hints)} (clause {hints[-1]})" if hints else "no hint"
    raise _rejection(line, lemma, clauses, f"{where} leaves the lemma open",
                     "a hint is missing")


def _rejection(line: int, lemma: list[int], clauses: Mapping[int, Sequence[int]],
               what: str, fault: str) -> LratError:
    """The error for hints that fail as ``what`` says: the hints' ``fault`` when unit
    propagation over all clauses present implies the lemma, else the lemma's."""
    implied = _implied({-x for x in lemma}, clauses)
    return LratError(line, f"{what}: {fault if implied else 'the lemma does not follow'}")


def _implied(true: set[int], clauses: Mapping[int, Sequence[int]]) -> bool:
    """Whether unit propagation over all ``clauses`` from ``true`` reaches a conflict (only
    to word a rejection: a full pass per round, not linear)."""
    changed = True
    while changed:
        changed = False
        for clause in clauses.values():
            open_literals = [x for x in clause if -x not in true]
            if any(x in true for x in open_literals):
                continue
            if not open_literals:
                return True
            if len(set(open_literals)) == 1:
                true.add(open_literals[0])
                changed = True
    return False


def _absent(clause_id: int, deleted: Mapping[int, int], what: str) -> str:
    if clause_id in deleted:
        return f"{what} names clause {clause_id}, deleted at line {deleted[clause_id]}"
    return f"{what} names clause {clause_id} before it exists"


def check_lrat(formula: Sequence[Sequence[int]], proof: Lines) -> tuple[bool, str]:
    """Check an LRAT refutation of ``formula`` (clause ``k`` has id ``k + 1``); return
    ``(ok, message)``. ``proof`` is its lines, its whole text (``str`` or ``bytes``), or
    its file's path;
    the message names the first failing line and why."""
    clauses: dict[int, Sequence[int]] = {k: clause for k, clause in enumerate(formula, 1)}
    deleted: dict[int, int] = {}
    last, lemmas, number = len(formula), 0, 0
    try:
        for number, raw in enumerate(_lines(proof), 1):
            tokens = raw.split()
            if not tokens or tokens[0].startswith("c"):
                continue
            if len(tokens) > 1 and tokens[1] == "d":
                _delete(number, tokens, clauses, deleted)
                continue
            clause_id, lemma, hints = _addition(number, tokens, last)
            _follows(lemma, hints, clauses, number, deleted)
            lemmas += 1
            last = clause_id
            if not lemma:
                return True, (f"the LRAT proof derives the empty clause at line {number} "
                              f"({lemmas} lemma{'s' * (lemmas != 1)} checked)")
            clauses[clause_id] = lemma
    except LratError as error:
        return False, str(error)
    return False, (f"the LRAT proof ends after {number} lines without the empty clause: it "
                   "is not a refutation (truncated?)")


def _delete(number: int, tokens: list[str], clauses: dict[int, Sequence[int]],
            deleted: dict[int, int]) -> None:
    """Apply the deletion line ``number`` (``ID d IDS 0``): its clauses leave ``clauses``,
    each remembered in ``deleted`` with the line, so a later use can say where it went."""
    ids = _numbers(number, tokens[2:])
    if not ids or ids[-1] != 0 or 0 in ids[:-1]:
        raise LratError(number, "a deletion line ends with its only 0")
    for clause_id in ids[:-1]:
        if clauses.pop(clause_id, None) is None:
            raise LratError(number, _absent(clause_id, deleted, "the deletion"))
        deleted[clause_id] = number


def _addition(number: int, tokens: list[str], last: int) -> tuple[int, list[int], list[int]]:
    """The id, lemma and hints of the addition line ``number`` (``ID LITERALS 0 HINTS 0``),
    checked for form: an id above every id before (``last``), only RUP hints."""
    values = _numbers(number, tokens)
    if values.count(0) != 2 or values[-1] != 0 or values[0] <= 0:
        raise LratError(number, "an addition line is ID LITERALS 0 HINTS 0 (two 0s, "
                        "a positive id)")
    clause_id, cut = values[0], values.index(0)
    lemma, hints = values[1:cut], values[cut + 1:-1]
    if clause_id <= last:
        raise LratError(number, f"clause id {clause_id} is not above every id before "
                        f"it ({last}): ids must grow")
    if any(hint < 0 for hint in hints):
        raise LratError(number, "a negative hint (a RAT step): only RUP lemmas are "
                        "checked here")
    return clause_id, lemma, hints


def read_dimacs(text: str, source: str = "<cnf>") -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of DIMACS CNF text; ``ValueError`` naming the line when it
    is not DIMACS (comments, the ``p cnf`` line, clauses ending with 0, any layout)."""
    variables, expected, numbers = None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("c") or parts[0] == "%":
            continue
        try:
            if parts[0] == "p":
                if len(parts) != 4 or parts[1] != "cnf":
                    raise ValueError
                variables, expected = int(parts[2]), int(parts[3])
                continue
            numbers += [int(part) for part in parts]
        except ValueError:
            raise ValueError(f"{source}:{number}: not a DIMACS line: {line[:60]!r}") from None
    if variables is None:
        raise ValueError(f"{source}: no 'p cnf VARIABLES CLAUSES' line")
    clauses, clause = [], []
    for x in numbers:
        if x:
            clause.append(x)
        else:
            clauses.append(clause)
            clause = []
    if clause or len(clauses) != expected:
        unfinished = " and an unfinished one" if clause else ""
        raise ValueError(f"{source}: {len(clauses)} clauses{unfinished}, the p line says "
                         f"{expected}")
    return variables, clauses


def check_lrat_files(cnf: str | Path, lrat: str | Path) -> tuple[bool, str]:
    """Check the LRAT file ``lrat`` against the DIMACS file ``cnf`` (read line by line)."""
    _, clauses = read_dimacs(Path(cnf).read_text(encoding="utf-8"), str(cnf))
    return check_lrat(clauses, Path(lrat))


def check_lrat_certificate(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    """Why a ``drup`` certificate whose ``proof`` is LRAT (``proof_format: lrat``) fails
    (``[]``: accepted): :func:`lrat_verdict`'s problems."""
    return lrat_verdict(puzzle, data).problems


def lrat_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``drup`` certificate whose ``proof`` is LRAT: why it fails, or (accepted)
    what was verified, in the checker's words
    (:func:`trailkit.models.checking.check_words.refutation`).

    The formula is rebuilt from ``puzzle`` with the encoding and parameters ``data`` names
    (:func:`trailkit.models.formulas.formulas.rebuild`, the formula's trusted definition), and the
    formula the certificate stores (``cnf``, ``cnf_sha256``) must be that one
    (:func:`trailkit.models.checking.stored_formula.formula_problems`); then the proof (lines, a
    text, bytes or a side file's path) is checked against it."""
    from trailkit.models.checking.stored_formula import formula_problems
    from trailkit.models.formulas.formulas import rebuild

    if data.get("format") != "trailkit-drup/1":
        return Verdict([f"unknown drup certificate format {data.get('format')!r} (expected "
                        "'trailkit-drup/1')"])
    try:
        formula = rebuild(puzzle, data)
        if isinstance(formula, list):
            return Verdict(formula)
        problems = formula_problems(formula, data)  # the stored formula is the certified one
        if problems:
            return Verdict(problems)
        proof = data["proof"]
        ok, message = check_lrat(formula.clauses, proof
                                 if isinstance(proof, str | bytes | os.PathLike)
                                 else [str(line) for line in proof])
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict([f"malformed LRAT certificate: {exc!r}"])
    if not ok:
        return Verdict([message])
    return Verdict([], check_words.refutation(formula, str(data["cnf_sha256"]), message,
                                              lrat=True, cuts=len(data.get("cuts") or [])))
