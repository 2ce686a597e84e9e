"""trailkit's short Python face: ``import trailkit as tk``, then ``tk.solve(...)``.

Every name of :mod:`trailkit.solvers.api` (the stable home of the Python API) is here
too, as ``networkx`` is ``nx`` and ``cpmpy`` is ``cp``::

    >>> import trailkit as tk
    >>> puzzle = tk.load_spec("specs/nikolaus.yaml")
    >>> tk.solve(puzzle, "cpsat").length
    8

The names are looked up on first use (PEP 562), so importing ``trailkit.models`` or the
command line does not pay for the whole API (OR-Tools, the drawing code) at start-up.
This module is the package ``trailkit`` itself; its file sits in ``solvers/face/``
because the repository's top level holds only the design card's six names
(``pyproject.toml`` maps the package here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker sees: exactly the API's names
    from trailkit.solvers.api import *  # noqa: F403


def __getattr__(name: str) -> object:
    """A name of :mod:`trailkit.solvers.api`, imported on first use; ``__all__`` is the
    API's own list, so ``from trailkit import *`` gives the same names."""
    from trailkit.solvers import api

    if name == "__all__" or name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module 'trailkit' has no attribute {name!r} "
                         f"(the Python API's names are listed in trailkit.solvers.api.__all__)")


def __dir__() -> list[str]:
    """The API's names, for ``dir(tk)`` and completion in a notebook."""
    from trailkit.solvers import api

    return sorted(api.__all__)
