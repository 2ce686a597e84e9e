"""The ``trailkit`` command line: build the parser from the command modules, dispatch,
and map what went wrong to an exit code.

Each command module has ``register(subparsers)``, which adds its subcommands with
``set_defaults(run=...)``; ``run(args)`` returns the exit code. Errors become one
located line on standard error and exit code 2 (input) or 4 (a bug), never a
traceback. A Ctrl-C is exit code 130 with "trailkit: interrupted" on standard error,
whatever the backend was doing (:mod:`trailkit.solvers.interrupts`); with
``TRAILKIT_TEST_SIGNS=1`` the phases of a run are written to standard error as they
begin (:mod:`trailkit.solvers.signs`), for tests that press Ctrl-C at a known moment.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import trailkit.solvers.cli.serve as serve
from trailkit.models.errors import SpecError, TrailkitError, VerificationFailure
from trailkit.solvers.cli import (
    answers,
    compare,
    drawing,
    lint,
    makers,
    output,
    ranking,
    repair,
    schemas,
)
from trailkit.solvers.cli.options import Exit, Parser
from trailkit.solvers.cli.output import warn
from trailkit.solvers.cli.report import error_json
from trailkit.solvers.interrupts import keep_pysat_off_sigint
from trailkit.solvers.signs import listen
from trailkit.solvers.version import trailkit_version

__all__ = ["build_parser", "main"]

#: The command modules, in the order ``trailkit --help`` lists their commands.
COMMAND_MODULES = (answers, compare, ranking, makers, drawing, lint, repair, schemas, serve)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: every command of every module."""
    parser = Parser(prog="trailkit", description="Solve, count and certify graph path "
                    "puzzles written as YAML specs; every answer is independently checked.")
    parser.add_argument("--version", action="version", version=f"trailkit {trailkit_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``trailkit`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    keep_pysat_off_sigint()
    if os.environ.get("TRAILKIT_TEST_SIGNS") == "1":
        listen(_show_sign)
    from trailkit.models.jit import on_compile

    on_compile(_compiling_status())
    as_json = bool(getattr(args, "json", False))
    try:
        return int(args.run(args))
    except VerificationFailure as exc:
        warn(f"trailkit: INTERNAL INCONSISTENCY (this is a bug, please report it): {exc}")
        return Exit.INCONSISTENT
    except SpecError as exc:  # located: "file:line:col: error: ..."; else say who speaks
        warn(str(exc) if exc.location else f"trailkit: {exc}")
        if as_json:
            output.emit_json(error_json(exc))
        return Exit.INPUT
    except TrailkitError as exc:
        warn(f"trailkit: error: {exc}")
        if as_json:
            output.emit_json(error_json(exc))
        return Exit.INPUT
    except KeyboardInterrupt:
        return _interrupted(argv)
    except BrokenPipeError:
        return Exit.OK
    except Exception as exc:  # never exit 1 (= unsolvable) from an uncaught exception
        if _is_interrupt(exc):
            return _interrupted(argv)
        if os.environ.get("TRAILKIT_DEBUG"):
            raise
        warn(f"trailkit: INTERNAL ERROR (a bug, please report it; set TRAILKIT_DEBUG=1 for "
             f"the traceback): {type(exc).__name__}: {exc}")
        return Exit.INCONSISTENT


def _show_sign(phase: str, who: str) -> None:
    """``trailkit: solving with cpsat`` on standard error (``TRAILKIT_TEST_SIGNS=1``)."""
    warn(f"trailkit: {phase} with {who}")


def _compiling_status() -> Callable[[str, float | None], None]:
    """What says on standard error that a kernel compiles (seconds of silence, once after
    installing or upgrading): a status line on a terminal while each compiles; else one
    line, at the first."""
    line = output.status_line()
    said: list[str] = []

    def show(what: str, seconds: float | None) -> None:
        if line is not None:
            if seconds is None:
                line(f"compiling {what} (once after installing or upgrading trailkit)")
            else:
                output.clear_status_line()
        elif seconds is None and not said:
            said.append(what)
            warn(f"trailkit: compiling {what} (and the other kernels this run needs: "
                 "once after installing or upgrading trailkit, seconds to a minute)")

    return show


def _is_interrupt(exc: BaseException) -> bool:
    """python-sat's C code catches Ctrl-C itself and raises its own error ("Caught
    keyboard interrupt", from the encoders and the solvers): that is an interrupt too."""
    return "keyboard interrupt" in str(exc).lower()


def _interrupted(argv: Sequence[str] | None) -> int:
    """Report a Ctrl-C: exit code 130.

    Run as the command (``argv`` from ``sys.argv``), trailkit ignores a second Ctrl-C
    (it must not turn the clean exit into a traceback) and exits here and now, its
    output flushed: the traceback being handled still holds the formula, and freeing a
    big one would delay the exit by a good part of a second, with nothing left to do
    (helper processes are gone, files are written atomically).
    """
    command = argv is None  # else called from Python: the caller's process goes on
    if command:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    warn("trailkit: interrupted")
    if command:
        exit_now(Exit.INTERRUPTED)
    return Exit.INTERRUPTED


def exit_now(code: int) -> NoReturn:
    """Flush the output and end the process without tearing it down."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
