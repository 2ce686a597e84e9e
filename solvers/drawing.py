"""0.1's import path of the module named below: still works, with a DeprecationWarning."""

from trailkit.models.support.moved import warn_moved
from trailkit.solvers.tools.drawing import *  # noqa: F403
from trailkit.solvers.tools.drawing import Emphasis, draw_svg, html_page, render_png  # noqa: F401

warn_moved("trailkit.solvers.drawing", "trailkit.solvers.tools.drawing")
