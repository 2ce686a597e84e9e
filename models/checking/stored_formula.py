"""Whether a ``drup`` certificate carries the formula it certifies.

A ``drup`` certificate (a DRUP or an LRAT proof) stores the formula its proof refutes:
``cnf``, the canonical DIMACS text (a ``p cnf`` line, then one clause a line), with
``cnf_sha256``, ``num_vars`` and ``num_clauses``. The checkers never trust that copy: they
check the proof against the formula re-derived from the spec
(:func:`trailkit.models.formulas.formulas.rebuild`). But a certificate is also a document that
others read (``prove --proof-dir`` writes its formula for drat-trim and cake_lpr), so it
must not carry a formula other than the one certified: :func:`formula_problems` compares
every stored part with the re-derived formula and names the first difference (which
clause, or which field). Soundness never depends on it; honesty does.

>>> from trailkit.models.formulas.certified import CertifiedFormula
>>> f = CertifiedFormula("walk-v1", {}, [[1, 2], [-1], [-2]], 2, "no walk")
>>> text = "p cnf 2 3\\n1 2 0\\n-1 0\\n-2 0\\n"
>>> data = {"cnf": text, "cnf_sha256": canonical_sha256(2, f.clauses)}
>>> formula_problems(f, data)
[]
>>> formula_problems(f, {**data, "cnf": "p cnf 2 3\\n1 2 0\\n-1 0\\n-1 0\\n"})[0][58:]
"clause 3 differs (stored '-1 0', the spec gives '-2 0')"
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from itertools import zip_longest
from typing import Any

from trailkit.models.formulas.certified import CertifiedFormula

__all__ = ["canonical_lines", "canonical_sha256", "formula_problems"]

NOT_THIS = "the certificate's formula is not the one this spec gives"


def canonical_lines(num_vars: int, clauses: Sequence[Sequence[int]]) -> Iterator[str]:
    """The canonical DIMACS lines of a formula (no line ends): what certificates store."""
    yield f"p cnf {num_vars} {len(clauses)}"
    for clause in clauses:
        yield " ".join(map(str, clause)) + " 0" if clause else "0"


def canonical_sha256(num_vars: int, clauses: Sequence[Sequence[int]]) -> str:
    """SHA-256 (hex) of the canonical DIMACS text, one ``\\n`` after every line."""
    digest = hashlib.sha256()
    for line in canonical_lines(num_vars, clauses):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def _stored_lines(text: str) -> Iterator[str]:
    """The stored text's lines, one at a time (a big formula is not split whole)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1


def _first_difference(stored: str, formula: CertifiedFormula) -> str | None:
    """Where the stored DIMACS text first differs from the re-derived formula's."""
    derived = canonical_lines(formula.num_vars, formula.clauses)
    lines = _stored_lines(stored)
    header, want = next(lines, ""), next(derived)
    count = len(formula.clauses)
    for number, (have, give) in enumerate(zip_longest(lines, derived), 1):
        if have == give:
            continue
        if have is None:
            return f"clause {number} is missing (the spec gives {count} clauses)"
        if give is None:
            return (f"clause {number} ({have[:60]!r}) is one too many (the spec gives "
                    f"{count} clauses)")
        return f"clause {number} differs (stored {have[:60]!r}, the spec gives {give[:60]!r})"
    if header != want:
        return f"its header is {header[:60]!r}, the spec gives {want!r}"
    return None


def formula_problems(formula: CertifiedFormula, data: Mapping[str, Any]) -> list[str]:
    """Why the formula ``data`` stores is not ``formula``, re-derived from the spec (``[]``:
    it is): ``cnf_sha256``, then the stored ``cnf`` clause by clause, ``num_vars`` and
    ``num_clauses`` where they are given. Each problem names what differs."""
    problems = []
    digest = canonical_sha256(formula.num_vars, formula.clauses)
    claimed = str(data.get("cnf_sha256"))
    if claimed != digest:
        problems.append(f"{NOT_THIS}: its hash cnf_sha256 {claimed[:12]}… does not match "
                        f"the formula of this spec ({digest[:12]}…): not the encoding of "
                        "this puzzle, or a proof for another spec or formula")
    stored = data.get("cnf")
    if stored is not None:
        where = _first_difference(str(stored), formula)
        if where is not None:
            problems.append(f"{NOT_THIS}: {where}")
    for key, value in (("num_vars", formula.num_vars), ("num_clauses", len(formula.clauses))):
        if key in data and data[key] is not None and str(data[key]) != str(value):
            problems.append(f"{NOT_THIS}: {key} is {data[key]}, the spec gives {value}")
    return problems
