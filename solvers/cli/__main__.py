"""``python -m trailkit.solvers.cli``: the same as the ``trailkit`` command."""

import sys

from trailkit.solvers.cli import main

sys.exit(main())
