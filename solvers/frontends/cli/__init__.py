"""The ``trailkit`` command line: the one package that parses arguments, prints and
picks exit codes. Everything else in trailkit returns data.

* :mod:`.app`: the parser, the dispatch and the mapping of errors to exit codes;
* :mod:`.options`: shared option types, the limits options, exit-code constants;
* :mod:`.output`: printing (JSON, status lines, text safe for any console);
* one module per command family: :mod:`.answers` (solve, count, prove,
  check-certificate), :mod:`.compare`, :mod:`.makers` (generate, import, export),
  :mod:`.lint`, :mod:`.drawing`, :mod:`.repair`, :mod:`.report`, :mod:`.designer` (inspect,
  design colour-walk), :mod:`.trail_designer`, :mod:`.campaign_runs`, :mod:`.schemas`,
  :mod:`.serve`; outputs are written through
  :mod:`trailkit.solvers.support.files`.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``trailkit`` console script; returns the exit code.

    The command line's module is imported here, inside a guard, so that a Ctrl-C while
    it loads is an interrupt (exit 130) like any other, not a traceback (the command's
    own modules load in :func:`.app.main`, under the same rule). Run as the
    command (``argv`` from ``sys.argv``), an interrupted trailkit ends as soon as its
    output is flushed (:func:`trailkit.solvers.frontends.cli.app.exit_now`: tearing down a big
    formula would delay the exit by a good part of a second); once it has answered, a
    late Ctrl-C is ignored, so the exit code stays the answer's, and the heap is frozen
    (:func:`gc.freeze`) so that the exit does not collect it.
    """
    try:
        from trailkit.solvers.frontends.cli.app import exit_now
        from trailkit.solvers.frontends.cli.app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("trailkit: interrupted\n")
        return 130
    code = run(argv)
    if argv is None:
        # The answer is out: a Ctrl-C during the interpreter's teardown (freeing a big
        # formula takes a while) must not turn the exit into a death by SIGINT.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # Nor need the interpreter's last collections walk every object Numba, NumPy
        # and the solvers made (about 100,000): frozen, the heap is left to the exit.
        # That walk and the teardown it led to took 0.2 s of a 1.8 s proof check.
        # Every file trailkit writes is closed by then; atexit handlers still run.
        gc.freeze()
        if os.environ.get("TRAILKIT_TEST_SIGNS") == "1":
            sys.stderr.write("trailkit: answered\n")
            sys.stderr.flush()
    if code == 130 and argv is None:  # an interrupted count, compare, ...
        exit_now(code)
    return code
