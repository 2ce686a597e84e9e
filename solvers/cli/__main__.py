"""``python -m trailkit.solvers.cli``: the same as the ``trailkit`` command."""

import sys

from trailkit.solvers.cli.main import main

sys.exit(main())
