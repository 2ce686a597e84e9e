"""What the commands share: the argument parser class, option types, the limits
options and the exit codes.

Exit codes (like grep and diff): 0 solved / succeeded, 1 proven unsolvable, 2 trouble
with the input or the command line, 3 unknown (a limit was reached), 4 internal
inconsistency (an answer failed verification or a cross-check: a bug), 130
interrupted.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trailkit.models.answer import Status
    from trailkit.models.puzzle import Puzzle
    from trailkit.solvers.backends.base import Limits

    #: How ``--backend`` options describe their choices (made on first use, by
    #: :func:`__getattr__`: the registry imports the backends' base, and NumPy with it).
    BACKEND_HELP: str

__all__ = ["BACKEND_HELP", "Exit", "Parser", "add_json", "add_limits", "add_out",
           "add_precheck", "add_spec", "command_time_left", "examples", "exit_for",
           "limits_from", "load_within", "positive_float", "positive_int"]


class Exit(IntEnum):
    """The process exit codes of the contract."""

    OK = 0
    UNSOLVABLE = 1
    INPUT = 2
    UNKNOWN = 3
    INCONSISTENT = 4
    INTERRUPTED = 130


# Keyed by the statuses' values (a Status is its value): this module is imported by
# ``trailkit --help``, which must not import the answers' module (and NumPy with it).
_STATUS_EXIT = {"solved": Exit.OK, "unsolvable": Exit.UNSOLVABLE, "unknown": Exit.UNKNOWN}


def __getattr__(name: str) -> Any:
    """``BACKEND_HELP``, made when a command module first asks for it."""
    if name == "BACKEND_HELP":
        from trailkit.solvers.backends.registry import backend_names

        return ", ".join([*backend_names(), "sat:NAME", "minizinc:SOLVER", "dimacs:COMMAND"])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def exit_for(status: Status) -> Exit:
    """The exit code of an answer with this status."""
    return _STATUS_EXIT[status]


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors say how to get help (exit code 2, as argparse does)."""

    def error(self, message: str) -> None:  # type: ignore[override]  # exits, as argparse's does
        self.print_usage(sys.stderr)
        self.exit(Exit.INPUT, f"{self.prog}: error: {message}\n"
                              f"(run '{self.prog} --help' for the options)\n")


def _positive(convert: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)``, a finite number more than 0 (``nan`` and
    ``inf`` are not numbers of seconds: a limit of either would stop everything at once
    or never)."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}: give a finite "
                                             "number more than 0")
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
        return value

    return parse


positive_float = _positive(float, "a number of seconds")
positive_int = _positive(int, "a whole number")


def add_spec(p: argparse.ArgumentParser) -> None:
    """The ``SPEC`` argument, the same on every command that reads one puzzle."""
    p.add_argument("spec", metavar="SPEC", help="the puzzle: a YAML spec file (see the README, "
                   "'Spec language'; 'trailkit schema spec' for editors)")


def add_json(p: argparse.ArgumentParser, what: str = "the answer") -> None:
    """``--json``: one JSON object on standard output (its schema: ``trailkit schema``)."""
    p.add_argument("--json", action="store_true",
                   help=f"print {what} as one JSON object (errors too); 'trailkit schema' "
                        "prints its JSON Schema")


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords that end a command's ``--help`` with example commands."""
    return {"epilog": "examples:\n" + "\n".join(f"  {line}" for line in lines),
            "formatter_class": argparse.RawDescriptionHelpFormatter}


#: Search nodes direct's exhaustive searches stop at without ``--work-limit``: the
#: value of :data:`trailkit.solvers.backends.direct.exhaustive.DEFAULT_WORK_LIMIT`, written here
#: so that ``--help`` need not import the backend (``tests/solvers/frontends/cli/test_cli.py``
#: compares them).
DIRECT_WORK_LIMIT = 5_000_000


def add_limits(p: argparse.ArgumentParser, run_time_limit: float | None = None) -> None:
    """The options every solving command takes: time and work limits, workers, seed.

    Each says its default in ``--help``; ``run_time_limit`` is the time limit of each
    run when none is given (``compare``'s), else there is none."""
    from trailkit.solvers.backends.base import DEFAULT_MEMORY_MB

    if run_time_limit is None:
        time_help = "give up after S seconds (answer: unknown, exit code 3; default: none)"
    else:
        time_help = (f"give up on a run after S seconds (default {run_time_limit:g}); a run "
                     "still going then is a 'timeout' row")
    p.add_argument("--time-limit", type=positive_float, metavar="S", help=time_help)
    p.add_argument("--work-limit", type=positive_int, metavar="N",
                   help="bound the backend's work: N search nodes (direct's exhaustive "
                        "searches) or N conflicts (cpsat); refused by backends without one "
                        f"(default: none, but direct's searches stop at {DIRECT_WORK_LIMIT:,} "
                        "nodes)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N",
                   help="solver threads for CP-SAT (default 1: deterministic)")
    p.add_argument("--seed", type=int, default=0, help="random seed for the solvers "
                   "(default 0)")
    p.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help="memory a backend may use, in MB (0: none; default "
                        f"{DEFAULT_MEMORY_MB}): a model estimated to need more is not built "
                        "(answer: unknown, exit code 3); compare also caps each worker's "
                        "address space at it ('memout' rows)")


def add_out(p: argparse.ArgumentParser, metavar: str, what: str, *,
            stdout: bool = True, replaced: str = "the --out file if it exists") -> None:
    """``--out FILE`` and ``--force``, the same way on every command that writes a file
    (``replaced``: what ``--force`` lets it replace, where it writes more than ``--out``)."""
    instead = " instead of standard output" if stdout else ""
    p.add_argument("--out", metavar=metavar, help=f"write {what} to {metavar}{instead} "
                   "(atomically; never over an input file)")
    p.add_argument("--force", action="store_true",
                   help=f"replace {replaced} (refused otherwise)")


def add_precheck(p: argparse.ArgumentParser) -> None:
    """``--precheck on|off``: whether the structural pre-check may decide the answer."""
    p.add_argument("--precheck", choices=("on", "off"), default="on",
                   help="run the structural pre-check (parity, connectivity, closed sets) "
                        "before the backend (default on); off: the backend decides alone")


_STARTED = time.monotonic()  # replaced at each command's start (:func:`start_clock`)


def _process_age_s() -> float:
    """Seconds since this process started (Linux's ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat, \
                open("/proc/uptime", encoding="ascii") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
            return max(0.0, float(uptime.read().split()[0])
                       - started / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def start_clock(whole_process: bool) -> None:
    """Start the command's clock: at the process's start when the command is the
    process (start-up included), else now (a command run by a test or a script)."""
    global _STARTED
    _STARTED = time.monotonic() - (_process_age_s() if whole_process else 0.0)


def command_s() -> float:
    """The wall time since the command started, reading its spec included: the one time
    a command prints, in words and in JSON alike (CONTRACT 1.4 §7)."""
    return time.monotonic() - _STARTED


def command_time_left(time_limit: float | None) -> float | None:
    """What is left now of a ``--time-limit`` that runs from the command's start (the
    clock of :func:`command_s`: start-up and reading the spec count; CONTRACT 1.4 §7),
    zero when it is spent; ``None``: no limit."""
    return None if time_limit is None else max(0.0, time_limit - command_s())


READING_GRACE_S = 0.5
"""The least time :func:`load_within` gives the reading of a spec, whatever is left."""


def load_within(spec: str, time_limit: float | None) -> Puzzle:
    """The puzzle of the spec file ``spec``, its reading stopped
    (:class:`~trailkit.models.support.deadline.TimeLimitReached`) once ``--time-limit``,
    counted from the command's start, has passed: a 10^6-edge spec takes seconds to
    read, and the answer is then "unknown" (exit 3), within a second of the limit.
    The reading always gets :data:`READING_GRACE_S` at least: a small spec is read in
    milliseconds, and its answer says "unknown" in its own format (a count's "at
    least"), as it did when the limit was spent before the reading began.
    Its sign (``trailkit: reading with SPEC`` under ``TRAILKIT_TEST_SIGNS=1``) lets a
    test press Ctrl-C while it reads."""
    from trailkit.models.spec import load_spec
    from trailkit.models.support.deadline import reading_until
    from trailkit.solvers.support.signs import sign

    sign("reading", spec)
    left = command_time_left(time_limit)
    with reading_until(None if left is None
                       else time.monotonic() + max(left, READING_GRACE_S)):
        return load_spec(spec)


def limits_from(args: argparse.Namespace, *, per_run: bool = False) -> Limits:
    """The one place the command line turns options into :class:`Limits`.

    ``--time-limit`` bounds the command from its start (start-up and reading the spec
    included, the clock of :func:`command_s`): what is left of it now is the limit
    given on. ``per_run``: the limit is each run's own, whole (compare's
    runs, each in its worker with its own clock)."""
    from trailkit.models.errors import TrailkitError
    from trailkit.solvers.backends.base import Limits

    if args.memory_limit < 0:
        raise TrailkitError("--memory-limit must be a number of MB, or 0 for none")
    time_limit = args.time_limit if per_run else command_time_left(args.time_limit)
    return Limits(time_limit=time_limit, work_limit=args.work_limit,
                  workers=args.workers, seed=args.seed, memory_mb=args.memory_limit or None)
