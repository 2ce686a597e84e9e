"""The ``trailkit`` command line: build the parser from the command modules, dispatch,
and map what went wrong to an exit code.

Each command module has ``register(subparsers)``, which adds its subcommands with
``set_defaults(run=...)``; ``run(args)`` returns the exit code. Errors become one
located line on standard error and exit code 2 (input) or 4 (a bug), never a
traceback. A Ctrl-C is exit code 130 with "trailkit: interrupted" on standard error,
whatever the backend was doing (:mod:`trailkit.solvers.support.interrupts`); with
``TRAILKIT_TEST_SIGNS=1`` the phases of a run are written to standard error as they
begin (:mod:`trailkit.solvers.support.signs`), for tests that press Ctrl-C at a known moment.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Callable, Collection, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from trailkit.solvers.frontends.cli.options import Exit, Parser, start_clock

if TYPE_CHECKING:
    pass

__all__ = ["build_parser", "main"]

#: Every command: its name, the module of :mod:`trailkit.solvers.frontends.cli` that registers it
#: and its line in ``trailkit --help``, in the order that lists them. A command's module
#: is imported only when the command line names it (or by :func:`build_parser` with no
#: argument): ``trailkit --version`` and ``trailkit --help`` import none of them, and
#: ``trailkit solve`` not the workshop, the campaigns or the drawing (issue 30).
#: ``tests/solvers/frontends/cli/test_startup.py`` checks that these lines are the modules' own.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("solve", "answers", "find a (shortest) walk, or prove there is none"),
    ("count", "answers", "count solutions (and failures)"),
    ("prove", "answers", "write a certificate that the puzzle is unsolvable"),
    ("check-certificate", "answers", "check a certificate against a spec (exit 0 accepted, "
     "1 rejected, 2 unreadable)"),
    ("compare", "compare", "run several backends on specs and tabulate"),
    ("report", "report", "rank the backends of a compare --db campaign file"),
    ("generate", "makers", "write a random puzzle spec, reproducible from a seed"),
    ("export", "makers", "write the puzzle as a SAT (DIMACS) or CP-SAT model, or as a graph "
     "(Graphviz DOT, GraphML, NetworkX JSON, TSPLIB HCP)"),
    ("import", "makers", "turn a plank or domino list, or a TSPLIB Hamiltonian cycle file, "
     "into a YAML spec"),
    ("draw", "drawing", "draw the puzzle, a solution, a certificate or a repair (SVG, PNG or "
     "an HTML page with a step control)"),
    ("lint", "lint", "validate specs (files or folders): every problem, located"),
    ("repair", "repair", "the fewest changes that make an impossible puzzle solvable, each "
     "with a verified walk"),
    ("explain", "repair", "why an impossible puzzle is impossible: the certificate in words "
     "and a minimal core"),
    ("inspect", "designer", "which edges a solvable puzzle cannot lose, which make its walk "
     "longer, which givens (at:) keep its solution unique, and measures of how hard it is"),
    ("design", "designer", "make puzzles to order: a field's planks coloured so the walk is "
     "long, unique, robust (each property certified), tours with numbered givens"),
    ("schema", "schemas", "print the JSON Schema of an output format or of specs"),
    ("serve", "serve", "a puzzle workshop in the browser: write, see, solve, repair and "
     "explain specs as you type"),
)


def command_module(name: str) -> ModuleType:
    """The command module ``name`` (``"answers"``: :mod:`trailkit.solvers.frontends.cli.answers`),
    imported now."""
    return importlib.import_module(f"trailkit.solvers.frontends.cli.{name}")


def build_parser(load: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line: every command of every module.

    ``load`` names the command modules to import (None: all of them); every other
    command is listed by name and help line only, which is all that ``trailkit --help``
    and a mistyped command show."""
    parser = Parser(prog="trailkit", description="Solve, count and certify graph path "
                    "puzzles written as YAML specs; every answer is independently checked.")
    parser.add_argument("--version", action=_Version,
                        help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    registered: set[str] = set()
    for name, module, help_line in COMMANDS:
        if load is not None and module not in load:
            sub.add_parser(name, help=help_line, add_help=False)
        elif module not in registered:
            command_module(module).register(sub)
            registered.add(module)
    return parser


class _Version(argparse.Action):
    """``--version``: looks the version up only when asked (importlib.metadata takes
    longer to import than the rest of ``trailkit --help``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from trailkit.solvers.support.version import trailkit_version

        sys.stdout.write(f"trailkit {trailkit_version()}\n")
        parser.exit()


def _modules_named(argv: Sequence[str]) -> set[str]:
    """The command modules a command line needs: its first word's (none for a bare
    ``--help`` or ``--version``, or a word that is no command)."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return {module for name, module, _ in COMMANDS if name == first}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``trailkit`` console script; returns the exit code."""
    start_clock(whole_process=argv is None)
    words = sys.argv[1:] if argv is None else argv
    try:  # the command's modules load here: a Ctrl-C meanwhile is an interrupt too
        args = build_parser(_modules_named(words)).parse_args(argv)
        from trailkit.models.errors import TrailkitError, VerificationFailure
        from trailkit.models.support.deadline import TimeLimitReached
        from trailkit.solvers.frontends.cli import output
        from trailkit.solvers.frontends.cli.output import warn
        from trailkit.solvers.frontends.presenter import problems  # noqa: F401  (loaded under the guard)
        from trailkit.solvers.support.interrupts import keep_pysat_off_sigint
        from trailkit.solvers.support.signs import listen
    except KeyboardInterrupt:
        sys.stderr.write("trailkit: interrupted\n")
        return Exit.INTERRUPTED
    keep_pysat_off_sigint()
    if os.environ.get("TRAILKIT_TEST_SIGNS") == "1":
        listen(_show_sign)
    from trailkit.models.support.jit import on_compile

    on_compile(_compiling_status())
    as_json = bool(getattr(args, "json", False))
    output.use_names(None)  # a new command: no puzzle's names yet (tests call main again)
    try:
        return int(args.run(args))
    except VerificationFailure as exc:
        warn(f"trailkit: INTERNAL INCONSISTENCY (this is a bug, please report it): {exc}")
        return Exit.INCONSISTENT
    except (TrailkitError, TimeLimitReached) as exc:  # a SpecError; a limit while reading
        return _input_error(exc, as_json) if isinstance(exc, TrailkitError) \
            else _time_limit_reached(exc, args)
    except KeyboardInterrupt:
        return _interrupted(argv)
    except BrokenPipeError:
        return Exit.OK
    except Exception as exc:  # never exit 1 (= unsolvable) from an uncaught exception
        if os.environ.get("TRAILKIT_DEBUG") and not _is_interrupt(exc):
            raise
        return _uncaught(exc, argv)


def _input_error(exc: Exception, as_json: bool) -> int:
    """Say a problem with the user's input (also as JSON with ``--json``): exit code 2.
    A spec problem is located ("file:line:col: error: ..."), else trailkit says it."""
    from trailkit.models.errors import SpecError
    from trailkit.solvers.frontends.cli import output
    from trailkit.solvers.frontends.cli.output import warn
    from trailkit.solvers.frontends.presenter.problems import error_json, spelled_out

    if isinstance(exc, SpecError):  # located: "file:line:col: error: ..."; else say who speaks
        said = spelled_out(exc)
        if said.location:  # a spec that did not load: its words stay apart on ASCII consoles
            output.use_names_if_none(said.location.file)
        warn(str(said) if said.location else f"trailkit: {said}")
        if as_json:
            output.emit_json(error_json(said))
        return Exit.INPUT
    warn(f"trailkit: error: {exc}")
    if as_json:
        output.emit_json(error_json(exc))
    return Exit.INPUT


def _time_limit_reached(exc: Exception, args: argparse.Namespace) -> int:
    """The limit passed before there was a puzzle to answer about (reading a big spec):
    "unknown" (exit 3); with ``--json`` the command's own answer saying so, its spec's
    name and kind taken from the spec's lines (CONTRACT 1.4 §7: the answer says
    ``unknown``; ``trailkit-error/1`` is for wrong input)."""
    from trailkit.models.spec.peek import peek_header
    from trailkit.solvers.frontends.cli import output
    from trailkit.solvers.frontends.cli.options import command_s
    from trailkit.solvers.frontends.cli.output import warn
    from trailkit.solvers.frontends.presenter.unread import unread_json, unread_text

    warn(unread_text(str(exc)))
    answer = getattr(args, "unread", None)
    if getattr(args, "json", False) and answer is not None:
        output.emit_json(unread_json(
            answer, args.spec, peek_header(args.spec), str(exc),
            backend=args.backend or "auto", time_s=command_s(),
            method=getattr(args, "method", "auto"), claim=getattr(args, "claim", None)))
    return Exit.UNKNOWN


def _uncaught(exc: Exception, argv: Sequence[str] | None) -> int:
    """An exception no one caught: a Ctrl-C python-sat turned into its own error is an
    interrupt (130); anything else is a bug, said as one (never exit 1, "unsolvable")."""
    from trailkit.solvers.frontends.cli.output import warn

    if _is_interrupt(exc):
        return _interrupted(argv)
    warn(f"trailkit: INTERNAL ERROR (a bug, please report it; set TRAILKIT_DEBUG=1 for "
         f"the traceback): {type(exc).__name__}: {exc}")
    return Exit.INCONSISTENT


def _show_sign(phase: str, who: str) -> None:
    """``trailkit: solving with cpsat`` on standard error (``TRAILKIT_TEST_SIGNS=1``)."""
    from trailkit.solvers.frontends.cli.output import warn

    warn(f"trailkit: {phase} with {who}")


def _compiling_status() -> Callable[[str, float | None], None]:
    """What says on standard error that a kernel compiles (seconds of silence, once after
    installing or upgrading): a status line on a terminal while each compiles; else one
    line, at the first."""
    from trailkit.solvers.frontends.cli import output
    from trailkit.solvers.frontends.cli.output import warn

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
    from trailkit.solvers.frontends.cli.output import warn

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
