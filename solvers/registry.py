"""The one map from backend names to backends.

Names are ``direct``, ``cpsat``, ``sat`` and ``sat:NAME`` (any python-sat solver).
Backends are imported lazily, so a missing optional library only matters when its
backend is asked for, and the error names the package to install.

>>> get_backend("direct").name
'direct'
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.base import Backend

__all__ = ["BACKENDS", "backend_names", "get_backend"]


@dataclass(frozen=True, slots=True)
class _Entry:
    module: str
    cls: str
    package: str  # the pip package that provides the backend's library
    takes_option: bool = False  # accepts a ``name:OPTION`` suffix


BACKENDS: dict[str, _Entry] = {
    "direct": _Entry("trailkit.solvers.direct", "DirectBackend", "trailkit"),
    "cpsat": _Entry("trailkit.solvers.cpsat", "CpSatBackend", "ortools"),
    "sat": _Entry("trailkit.solvers.sat", "SatBackend", "python-sat", takes_option=True),
}


def backend_names() -> list[str]:
    """The registered backend names, in a stable order."""
    return list(BACKENDS)


def get_backend(name: str) -> Backend:
    """Return a fresh backend for ``name`` (``direct``, ``cpsat``, ``sat``, ``sat:glucose4``)."""
    base, _, option = name.partition(":")
    entry = BACKENDS.get(base)
    if entry is None:
        close = difflib.get_close_matches(base, BACKENDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BackendUnavailable(
            f"unknown backend {name!r}{hint}; choose from {', '.join(backend_names())}"
            " or sat:SOLVER")
    if option and not entry.takes_option:
        raise BackendUnavailable(f"backend {base!r} takes no ':{option}' option")
    try:
        module = importlib.import_module(entry.module)
    except ImportError as exc:
        if (exc.name or "").startswith("trailkit"):
            raise BackendUnavailable(f"backend {base!r} is not part of this trailkit "
                                     f"installation ({exc})") from exc
        raise BackendUnavailable(
            f"backend {base!r} needs the package {entry.package!r} "
            f"(pip install {entry.package}): {exc}") from exc
    cls = getattr(module, entry.cls)
    return cls(option) if entry.takes_option else cls()
