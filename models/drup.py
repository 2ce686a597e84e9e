"""0.1's import path of the module named below: still works, with a DeprecationWarning."""

from trailkit.models.checking.drup import *  # noqa: F403
from trailkit.models.checking.drup import check_drup, drup_to_lrat  # noqa: F401
from trailkit.models.support.moved import warn_moved

warn_moved("trailkit.models.drup", "trailkit.models.checking.drup")
