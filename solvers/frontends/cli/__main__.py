"""``python -m trailkit.solvers.frontends.cli``: the same as the ``trailkit`` command."""

import sys

from trailkit.solvers.frontends.cli import main

sys.exit(main())
