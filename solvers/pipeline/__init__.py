"""The orchestration of every verb: solve, count, prove, check a certificate.

Each verb takes a :class:`~trailkit.models.puzzle.Puzzle`, a backend choice and
:class:`~trailkit.solvers.backends.base.Limits`, and returns frozen data (an
:class:`~trailkit.models.answer.Answer`, a :class:`~trailkit.models.counts.CountResult`,
a :class:`~trailkit.solvers.pipeline.proving.Proof`, ...): never text, never an exit
code; the front ends (:mod:`trailkit.solvers.frontends`) present them. The policies they
share live in :mod:`.policy`: the default backend, the cross-check rule, the limits a
second opinion gets.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> solve(p).status.value, count(p).solutions
('solved', 6)
"""

from trailkit.solvers.pipeline.counting import count
from trailkit.solvers.pipeline.policy import AUTO, default_backend
from trailkit.solvers.pipeline.proving import Proof, check_certificate_file, prove
from trailkit.solvers.pipeline.solving import check_answer, solve

__all__ = ["AUTO", "Proof", "check_answer", "check_certificate_file", "count",
           "default_backend", "prove", "solve"]
