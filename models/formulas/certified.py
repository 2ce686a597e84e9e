"""What a certified formula is: the CNF a ``drup`` certificate refutes, with the
parameters that rebuild it, and the size estimate of a formula not built yet.

These are plain data shared by the encodings (:mod:`.position_encoding`,
:mod:`.walk_formula`, :mod:`.transition_encoding`, :mod:`.lazy_clauses`) and by the table
of formulas in :mod:`.formulas` that rebuilds them, so that the table can import the
encodings without the encodings importing the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CertifiedFormula", "Clause", "Size"]

Clause = list[int]


@dataclass(frozen=True)
class CertifiedFormula:
    """A formula a refutation is a certificate for.

    ``params`` are stored in the certificate next to ``encoding`` and are all the
    checker needs to rebuild exactly these clauses; ``variables`` gives the meaning of
    the primary variables (informative); ``claim`` says in words what a refutation
    proves.
    """

    encoding: str
    params: Mapping[str, Any]
    clauses: list[Clause]
    num_vars: int
    claim: str
    variables: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Size:
    """A formula's size, estimated before it is built: variables, clauses, literals."""

    variables: int
    clauses: int
    literals: int

    def megabytes(self) -> float:
        """Peak memory to build the formula in Python and load it into a solver, in MB:
        about 250 bytes per clause and 60 per literal, measured on the transition and
        position encodings with CaDiCaL (the Python lists, the copy the solver is given,
        its own clauses and watch lists)."""
        return (250 * self.clauses + 60 * self.literals) / 1e6
