"""0.1's import path of the module named below: still works, with a DeprecationWarning."""

from trailkit.models.checking.lrat import *  # noqa: F403
from trailkit.models.checking.lrat import check_lrat, check_lrat_files, read_dimacs  # noqa: F401
from trailkit.models.support.moved import warn_moved

warn_moved("trailkit.models.lrat", "trailkit.models.checking.lrat")
