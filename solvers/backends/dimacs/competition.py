"""Reading a SAT solver's answer in the SAT competition's format.

``s SATISFIABLE`` / ``s UNSATISFIABLE`` / ``s UNKNOWN`` and ``v`` lines of literals
ending in ``0``, exit codes 10 (satisfiable) and 20 (unsatisfiable). MiniSat's own
result file (``SAT`` / ``UNSAT`` on the first line, then the literals) and its bare
``SATISFIABLE`` line on standard output are read too. A solver whose ``s`` line and
exit code disagree, or whose model is unreadable, is not believed
(:class:`SolverOutputError`).

>>> read_answer("c hi\\ns SATISFIABLE\\nv 1 -2\\nv 3 0\\n", 10)
('SAT', [1, -2, 3])
>>> read_answer("s UNSATISFIABLE\\n", 20)
('UNSAT', [])
"""

from __future__ import annotations

import re

__all__ = ["SolverOutputError", "read_answer", "read_minisat_result"]

_LITERAL = re.compile(r"-?[0-9]{1,12}")
_VERDICTS = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "UNKNOWN": "UNKNOWN",
             "INDETERMINATE": "UNKNOWN"}
_CODES = {10: "SAT", 20: "UNSAT"}


class SolverOutputError(ValueError):
    """The solver's output says something impossible or unreadable."""


def _literals(tokens: list[str]) -> list[int]:
    out = []
    for token in tokens:
        if not _LITERAL.fullmatch(token):
            raise SolverOutputError(f"cannot read {token[:40]!r} as a literal")
        if token != "0":
            out.append(int(token))
    return out


def read_answer(stdout: str, returncode: int) -> tuple[str, list[int]]:
    """``("SAT", model)``, ``("UNSAT", [])`` or ``("UNKNOWN", [])`` from the solver's
    standard output and exit code."""
    verdict = ""
    tokens: list[str] = []
    for line in stdout.splitlines():
        if line.startswith("s "):
            said = _VERDICTS.get(line[2:].strip())
            if said is None:
                raise SolverOutputError(f"unknown status line {line[:60]!r}")
            if verdict and said != verdict:
                raise SolverOutputError(f"two status lines: {verdict} and {said}")
            verdict = said
        elif line.startswith("v"):
            tokens += line[1:].split()
        elif not verdict and line.strip() in ("SATISFIABLE", "UNSATISFIABLE"):
            verdict = _VERDICTS[line.strip()]  # MiniSat without a result file
    coded = _CODES.get(returncode)
    if verdict and coded and verdict != coded:
        raise SolverOutputError(f"the output says {verdict} but the exit code is {returncode}")
    verdict = verdict or coded or "UNKNOWN"
    return verdict, (_literals(tokens) if verdict == "SAT" else [])


def read_minisat_result(text: str) -> tuple[str, list[int]]:
    """MiniSat's result file: ``SAT`` and the literals, ``UNSAT``, or ``INDET``."""
    lines = text.split(None, 1)
    if not lines:
        return "UNKNOWN", []
    head = lines[0]
    if head == "SAT":
        return "SAT", _literals(lines[1].split() if len(lines) > 1 else [])
    return ("UNSAT", []) if head == "UNSAT" else ("UNKNOWN", [])
