"""The orchestration of every verb: solve, count, prove, check a certificate.

Each verb takes a :class:`~trailkit.models.puzzle.Puzzle`, a backend choice and
:class:`~trailkit.solvers.backends.base.Limits`, and returns frozen data (an
:class:`~trailkit.models.answer.Answer`, a :class:`~trailkit.models.counts.CountResult`,
a :class:`~trailkit.solvers.pipeline.proving.Proof`, ...): never text, never an exit
code; the front ends (:mod:`trailkit.solvers.frontends`) present them. The policies they
share live in :mod:`.policy`: the default backend, the cross-check rule, the limits a
second opinion gets.

Each verb's module loads when its name is first asked for (``from
trailkit.solvers.pipeline import solve`` loads :mod:`.solving` only): counting and proving
bring the SAT backend and the DRUP checker, which ``trailkit solve`` of a small spec
never needs, and loading them took a quarter of its start-up.

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.pipeline import count, solve
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> solve(p).status.value, count(p).solutions
('solved', 6)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trailkit.solvers.pipeline.certificate_check import check_certificate_file
    from trailkit.solvers.pipeline.counting import count
    from trailkit.solvers.pipeline.policy import AUTO, default_backend
    from trailkit.solvers.pipeline.proving import Proof, prove
    from trailkit.solvers.pipeline.solving import check_answer, solve

#: Where each public name lives (its module is imported when the name is first used).
_HOMES = {"count": "counting", "AUTO": "policy", "default_backend": "policy",
          "Proof": "proving", "check_certificate_file": "certificate_check", "prove": "proving",
          "check_answer": "solving", "solve": "solving"}


def __getattr__(name: str) -> Any:
    """The public name ``name``, from its module (imported now, once)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value

__all__ = ["AUTO", "Proof", "check_answer", "check_certificate_file", "count",
           "default_backend", "prove", "solve"]
