"""Turning a solver's DRUP proof into a self-contained ``drup`` certificate (shared by
the ``sat`` backend and the external ``dimacs:COMMAND`` one, hence here, below both).

The certificate carries the CNF (DIMACS text and its SHA-256), the proof lines,
the meaning of the primary variables, the encoding's name and parameters, the
solver, the trailkit version and the SHA-256 of the spec file when there is one.
:func:`trailkit.models.checking.drup.check_drup_certificate` re-encodes the puzzle and
checks the proof with trailkit's own checker.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path

from trailkit.models.answer import Certificate
from trailkit.models.checking.drup import (
    CERTIFICATE_FORMAT,
    MAX_LEMMAS,
    check_drup,
    cnf_sha256,
    cnf_text,
)
from trailkit.models.formulas.formulas import CertifiedFormula
from trailkit.models.puzzle import Puzzle

__all__ = ["MAX_PROOF_LINES", "make_certificate"]

MAX_PROOF_LINES = MAX_LEMMAS
"""A longer proof is not offered as a certificate (it would be too slow to check)."""
SHORT_PROOF = 10_000
"""An unfinished proof up to this long is completed with "0" if that checks at once."""


@functools.cache
def _version() -> str:
    """The installed trailkit version, looked up once (a lookup reads the installed
    packages' metadata: milliseconds, for every one of hundreds of small proofs)."""
    try:
        return metadata.version("trailkit")
    except metadata.PackageNotFoundError:
        return "unknown"


def _spec_sha256(puzzle: Puzzle) -> str | None:
    if not puzzle.source:
        return None
    try:
        return hashlib.sha256(Path(puzzle.source).read_bytes()).hexdigest()
    except OSError:
        return None


def make_certificate(puzzle: Puzzle, formula: CertifiedFormula, proof: list[str],
                     solver: str) -> Certificate | None:
    """A ``drup`` certificate that ``formula`` is refuted, or ``None`` when the proof is
    missing, unfinished or too big."""
    clauses = formula.clauses
    lines = [line.strip() for line in proof if line.strip()]
    if any(not clause for clause in clauses):
        # The formula holds the empty clause (an edge no walk can take, a node that can
        # never balance): "0" alone refutes it, whatever the solver logged on the way.
        lines = ["0"]
    if len(lines) > MAX_PROOF_LINES:
        return None
    if not lines or lines[-1] != "0":
        # The solver stopped before logging the empty clause (e.g. it saw the conflict
        # while loading clauses). Offer "0" only if unit propagation really refutes.
        if len(lines) > SHORT_PROOF or not check_drup(clauses, [*lines, "0"])[0]:
            return None
        lines.append("0")
    lemmas = sum(1 for line in lines if not line.startswith("d"))
    data = {
        "format": CERTIFICATE_FORMAT,
        "encoding": formula.encoding,
        **formula.params,
        "num_vars": formula.num_vars,
        "num_clauses": len(clauses),
        "cnf_sha256": cnf_sha256(formula.num_vars, clauses),
        "cnf": cnf_text(formula.num_vars, clauses),
        "variables": {str(v): text for v, text in formula.variables.items()},
        "proof": lines,
        "proof_lemmas": lemmas,
        "solver": solver,
        "trailkit_version": _version(),
        "spec_sha256": _spec_sha256(puzzle),
    }
    explanation = (f"The SAT solver {solver} refuted the {formula.encoding} encoding "
                   f"({formula.num_vars} variables, {len(clauses)} clauses), so "
                   f"{formula.claim}; its DRUP proof has {lemmas} "
                   f"lemma{'s' * (lemmas != 1)} and is checked by trailkit's own "
                   "reverse-unit-propagation checker.")
    return Certificate("drup", data, explanation)
