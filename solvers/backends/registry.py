"""The one map from backend names to backends.

Names are ``direct``, ``cpsat``, ``sat`` and ``sat:NAME`` (any python-sat solver), with
an optional ``/ENCODING`` for ``sat`` (``sat/transition``, ``sat:glucose4/position``),
and the external backends ``minizinc:SOLVER`` (any solver the installed MiniZinc
lists) and ``dimacs:COMMAND`` (a SAT solver program reading DIMACS: a name on PATH or a
path, with flags). The external ones are not among :func:`backend_names` (``--backend
all`` and the default ``compare`` run trailkit's own); :data:`EXTERNAL_EXAMPLES` names
one of each.
A name is parsed once, by :meth:`BackendName.parse`, into a small value; everything
after that reads its fields. Backends are imported lazily, so a missing optional
library only matters when its backend is asked for, and the error names the package
to install.

>>> get_backend("direct").name
'direct'
>>> BackendName.parse("sat:glucose4")
BackendName(family='sat', option='glucose4')
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from trailkit.models.errors import BackendUnavailable
from trailkit.models.support.hints import did_you_mean
from trailkit.solvers.backends.base import Backend
from trailkit.solvers.support.extras import pip_install

__all__ = ["BACKENDS", "EXTERNAL_EXAMPLES", "BackendName", "backend_names", "get_backend"]


@dataclass(frozen=True, slots=True)
class _Entry:
    module: str
    cls: str
    package: str  # the pip package that provides the backend's library
    takes_option: bool = False  # accepts a ``name:OPTION`` suffix
    external: bool = False  # runs a program installed outside Python (not in backend_names)


BACKENDS: dict[str, _Entry] = {
    "direct": _Entry("trailkit.solvers.backends.direct", "DirectBackend", "trailkit"),
    "cpsat": _Entry("trailkit.solvers.backends.cpsat", "CpSatBackend", "ortools"),
    "sat": _Entry("trailkit.solvers.backends.sat", "SatBackend", "python-sat", takes_option=True),
    "minizinc": _Entry("trailkit.solvers.backends.minizinc", "MiniZincBackend", "trailkit",
                       takes_option=True, external=True),
    "dimacs": _Entry("trailkit.solvers.backends.dimacs", "DimacsBackend", "trailkit",
                     takes_option=True, external=True),
}

#: One name of each external backend (the tests run them when they are installed).
EXTERNAL_EXAMPLES = ("minizinc:gecode", "dimacs:cadical")


@dataclass(frozen=True, slots=True)
class BackendName:
    """A backend choice: its registered ``family`` and the ``option`` after a colon."""

    family: str
    option: str = ""

    @classmethod
    def parse(cls, text: str | BackendName) -> BackendName:
        """Read ``direct``, ``sat``, ``sat:NAME`` or ``sat:NAME/ENCODING`` (``sat/ENCODING``
        for the default solver: the option is then ``/ENCODING``); an unknown family
        lists the known ones."""
        if isinstance(text, BackendName):
            return text
        family, _, option = text.strip().partition(":")
        if "/" in family and not option:  # sat/transition: an option without a name
            family, slash, rest = family.partition("/")
            option = slash + rest
        entry = BACKENDS.get(family)
        if entry is None:
            raise BackendUnavailable(
                f"unknown backend {text!r}{did_you_mean(family, BACKENDS)}; choose from "
                f"{', '.join(backend_names())}, sat:SOLVER[/ENCODING], minizinc:SOLVER or "
                f"dimacs:COMMAND")
        if option and not entry.takes_option:
            raise BackendUnavailable(f"backend {family!r} takes no ':{option}' option")
        return cls(family, option)

    def __str__(self) -> str:
        if self.option.startswith("/"):
            return f"{self.family}{self.option}"
        return f"{self.family}:{self.option}" if self.option else self.family


def backend_names() -> list[str]:
    """The names of trailkit's own backends, in a stable order (the external ones,
    ``minizinc:SOLVER`` and ``dimacs:COMMAND``, are asked for by name)."""
    return [name for name, entry in BACKENDS.items() if not entry.external]


def get_backend(name: str | BackendName) -> Backend:
    """Return a fresh backend for ``name`` (``direct``, ``cpsat``, ``sat``, ``sat:glucose4``)."""
    choice = BackendName.parse(name)
    base, option = choice.family, choice.option
    entry = BACKENDS[base]
    try:
        module = importlib.import_module(entry.module)
    except ImportError as exc:
        if (exc.name or "").startswith("trailkit"):
            raise BackendUnavailable(f"backend {base!r} is not part of this trailkit "
                                     f"installation ({exc})") from exc
        raise BackendUnavailable(
            f"backend {base!r} needs the package {entry.package!r} "
            f"({pip_install(entry.package)}): {exc}") from exc
    cls = getattr(module, entry.cls)
    backend: Backend = cls(option) if entry.takes_option else cls()
    return backend
