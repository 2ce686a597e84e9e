"""Optional extras: the one way trailkit says how to install what is missing.

The command names the interpreter trailkit runs in, so it installs into that
environment (a bare ``pip`` may be the system's, or another virtual environment's).

>>> "-m pip install 'trailkit[draw]'" in pip_install("trailkit[draw]")
True
"""

from __future__ import annotations

import shlex
import sys

__all__ = ["pip_install"]


def pip_install(*requirements: str) -> str:
    """The shell command that installs ``requirements`` (``trailkit[draw]``, ``ortools``)
    into the environment trailkit runs in."""
    return " ".join([shlex.quote(sys.executable), "-m", "pip", "install",
                     *(shlex.quote(r) for r in requirements)])
