"""Running an outside solver program under a deadline, and finding it.

The external backends (``minizinc:SOLVER``, ``dimacs:COMMAND``) start a program, give
it the time limit, and kill it (its whole process group: MiniZinc starts the solver as
a child of its own) shortly after the limit if it has not stopped by itself: a
program's own limit may not cover everything it does (MiniZinc's does not cover
flattening). A Ctrl-C kills the program too and is raised on, so one Ctrl-C stops the
run. The program gets its own session, so the terminal's Ctrl-C reaches trailkit
alone and trailkit decides.

>>> run_program(["sh", "-c", "echo hello"], None).stdout
'hello\\n'
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trailkit.models.errors import BackendUnavailable

__all__ = ["GRACE_S", "Finished", "require_program", "run_program"]

#: How long after the time limit a program still running is killed.
GRACE_S = 1.0


@dataclass(frozen=True, slots=True)
class Finished:
    """What a program left: its output, exit code (negative: killed by that signal),
    whether trailkit killed it at the limit, and its wall time in seconds."""

    stdout: str
    stderr: str
    returncode: int
    killed: bool
    wall_s: float


def require_program(name: str, install: str) -> str:
    """The full path of program ``name`` (a name on PATH or a path), or
    :class:`BackendUnavailable` saying how to get it (``install``)."""
    found = shutil.which(name)
    if found is None:
        raise BackendUnavailable(f"the program {name!r} is not installed (not found on PATH); "
                                 f"{install}")
    return found


def _kill(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _bounded(memory_mb: int | None) -> Callable[[], None] | None:
    """What the child runs before the program: its address space capped at
    ``memory_mb`` (an allocation past it fails, so the program stops), or nothing."""
    if memory_mb is None:
        return None
    cap = memory_mb * 1024 * 1024

    def bound() -> None:  # in the child, between fork and exec: async-signal-safe calls
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return bound


def _start(argv: Sequence[str], cwd: str | None, memory_mb: int | None,
           started: list[subprocess.Popen[str]]) -> list[int]:
    """Start the program in its own session and put it in ``started``, a Ctrl-C meanwhile
    only noted (in the list returned): one raised inside ``Popen``, or between its return
    and the caller's hold on the program, would leave a running program that nobody
    kills (it is not in trailkit's process group: the terminal's Ctrl-C misses it). So
    the program is in ``started`` before Python's own handler is back."""
    def start() -> None:
        started.append(subprocess.Popen(
            list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, errors="replace", cwd=cwd,
            start_new_session=True, preexec_fn=_bounded(memory_mb)))

    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        start()  # only the main thread hears SIGINT; or it is ignored
        return pressed
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        start()
    finally:
        signal.signal(signal.SIGINT, previous)
    return pressed


def run_program(argv: Sequence[str], time_limit: float | None, *,
                cwd: str | None = None, grace: float = GRACE_S,
                memory_mb: int | None = None) -> Finished:
    """Run ``argv`` to its end, or kill it ``grace`` seconds (:data:`GRACE_S`) after
    ``time_limit`` seconds: a program told its own limit gets the grace to answer, one
    that is not (``grace=0``) is killed at the limit. With ``memory_mb`` its address
    space is capped there (Linux counts mapped, not only touched, memory: a cap the
    program cannot grow past, as every run is bounded)."""
    began = time.perf_counter()
    started: list[subprocess.Popen[str]] = []
    killed = False
    try:
        if _start(argv, cwd, memory_mb, started):  # a Ctrl-C held back while it started
            raise KeyboardInterrupt
        proc = started[0]
        try:
            out, err = proc.communicate(
                timeout=None if time_limit is None else time_limit + grace)
        except subprocess.TimeoutExpired:
            killed = True
            _kill(proc)
            out, err = proc.communicate()
    except BaseException:  # a Ctrl-C: the program, if it started, goes with it
        for program in started:
            _kill(program)
            program.wait()
        raise
    return Finished(out, err, proc.returncode, killed, time.perf_counter() - began)
