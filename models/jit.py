"""How trailkit compiles its hot loops: one decorator, used by every kernel.

:func:`kernel` compiles a function with Numba (``njit``, cached on disk) when Numba
is installed, and leaves it as plain Python otherwise; ``NUMBA_DISABLE_JIT=1`` runs
the very same code interpreted (the tests compare both). When no cache folder is
writable it compiles in every process instead. Kernels are written in the subset of
Python that Numba compiles: loops over NumPy arrays and scalars.

This module holds the *mechanism* only, never a kernel: the verifier's compiled
checks (:mod:`trailkit.models.verify`) and the backends' compiled algorithms
(:mod:`trailkit.solvers.direct`) share no code beyond this decorator.

>>> @kernel
... def total(xs):
...     s = 0
...     for x in xs:
...         s += x
...     return s
>>> import numpy as np
>>> int(total(np.arange(5)))
10
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["COMPILED", "kernel"]

try:
    from numba import njit as _numba_njit
except ImportError:  # pragma: no cover - exercised only where Numba is missing
    _numba_njit = None

COMPILED = _numba_njit is not None
"""Whether kernels run compiled (Numba is installed)."""


def kernel(function: Callable[..., Any]) -> Callable[..., Any]:
    """Compile ``function`` with Numba (cached on disk) when Numba is available."""
    if _numba_njit is None:  # pragma: no cover
        return function
    try:
        return _numba_njit(cache=True, nogil=True)(function)
    except RuntimeError:  # nowhere writable to cache: compile in every process
        return _numba_njit(nogil=True)(function)
