"""Old import paths kept working: the one warning each gives, naming where the code went.

A module that moved leaves a small module at its old path that imports everything from
the new one and calls :func:`warn_moved`; ``trailkit.solvers.api.MOVED`` lists them.
"""

from __future__ import annotations

import warnings


def warn_moved(old: str, new: str) -> None:
    """Warn, at the line of the user's code that imported ``old``, where it lives now."""
    warnings.warn(f"{old} has moved to {new}; import from trailkit.solvers.api, the stable "
                  "home of trailkit's Python API (see docs/python.md)",
                  DeprecationWarning, stacklevel=3)
