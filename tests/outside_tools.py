"""Where the outside proof checkers are, for the tests that run them when installed.

drat-trim, lrat-check and cake_lpr are never bundled: each is found from an environment
variable (``$DRAT_TRIM``, ``$LRAT_CHECK``, ``$CAKE_LPR``) naming the file, or on ``PATH``;
a test that needs one it cannot find checks what it can without it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def tool(variable: str, name: str) -> str | None:
    """An outside checker, from ``$variable`` or ``PATH`` (never bundled); ``None`` when
    neither names one."""
    given = os.environ.get(variable)
    if given and Path(given).is_file():
        return given
    return shutil.which(name)
