"""0.1's import path of the module named below: still works, with a DeprecationWarning."""

from trailkit.models.support.moved import warn_moved
from trailkit.solvers.tools.repair import *  # noqa: F403
from trailkit.solvers.tools.repair import explain, repair  # noqa: F401

warn_moved("trailkit.solvers.repair", "trailkit.solvers.tools.repair")
