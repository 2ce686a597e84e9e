"""The suite itself: the processes the tests start receive Ctrl-C, however the suite was
started (``tests/conftest.py``)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: Run with Ctrl-C ignored, as a shell without job control starts a background command:
#: load the suite's conftest, then ask a child what it does with a SIGINT.
_PROBE = (
    "import subprocess, sys\n"
    f"sys.path.insert(0, {str(TESTS)!r})\n"
    "import conftest  # noqa: F401\n"
    "child = ('import signal; '\n"
    "         'print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)')\n"
    "print(subprocess.run([sys.executable, '-c', child], capture_output=True, text=True)"
    ".stdout.strip())\n")


def _ignoring_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_a_suite_started_with_ctrl_c_ignored_still_delivers_it() -> None:
    """A test run started in the background of a script ignored SIGINT, and so did every
    trailkit it started: the Ctrl-C tests then failed (exit 0, not 130) for a reason that
    was not trailkit's. The conftest gives Ctrl-C back its default."""
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          preexec_fn=_ignoring_ctrl_c, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True", done.stdout
