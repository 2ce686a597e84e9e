"""The SAT backend's option grammar, read in one place: ``NAME/ENCODING``.

``sat`` is CaDiCaL, ``sat:NAME`` another python-sat solver; either chooses the encoding
of an exactly-once walk by the size estimates (:mod:`.auto`; encoding ``auto``, which
may also be written ``/auto``). ``/position`` or ``/transition`` after either
(``sat/transition``, ``sat:glucose4/position``) forces one. Either part may be left
out.

>>> SatChoice.parse("glucose4/transition")
SatChoice(solver='glucose4', encoding='transition', name='sat:glucose4/transition')
>>> SatChoice.parse("/transition").name, SatChoice.parse("").encoding
('sat/transition', 'auto')
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.backends.sat.runner import resolve_solver

__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "SatChoice"]

ENCODINGS = {
    "position": "one variable per step, edge and direction (any rule; DRUP proofs)",
    "transition": "at each node, how the walk pairs its edge ends (only balanced where the "
                  "rules allow every pairing), with cut clauses added lazily (exactly-once "
                  "walks; other rules use the position encoding)",
}
DEFAULT_ENCODING = "auto"
"""No encoding named: chosen per puzzle by :func:`.auto.choose_encoding`."""


@dataclass(frozen=True, slots=True)
class SatChoice:
    """A solver (canonical python-sat name), an encoding, and the backend's name."""

    solver: str
    encoding: str
    name: str

    @classmethod
    def parse(cls, option: str) -> SatChoice:
        """Read ``NAME``, ``NAME/ENCODING`` or ``/ENCODING`` (empty parts: the defaults)."""
        wanted, slash, encoding = option.partition("/")
        solver = resolve_solver(wanted)
        chosen = encoding.lower() or DEFAULT_ENCODING
        if chosen not in (DEFAULT_ENCODING, *ENCODINGS):
            raise BackendUnavailable(f"unknown SAT encoding {encoding!r}; choose from "
                                     f"{', '.join((DEFAULT_ENCODING, *ENCODINGS))}")
        name = "sat" + (f":{wanted}" if wanted else "") + (f"/{encoding}" if slash else "")
        return cls(solver, chosen, name)
