"""0.1's import path of the module named below: still works, with a DeprecationWarning."""

from trailkit.models.support.moved import warn_moved
from trailkit.solvers.tools.interchange import *  # noqa: F403
from trailkit.solvers.tools.interchange import from_networkx, to_networkx  # noqa: F401

warn_moved("trailkit.solvers.interchange", "trailkit.solvers.tools.interchange")
