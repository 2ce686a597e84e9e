"""Run the ``trailkit`` command line inside the test process: what a terminal would show.

A test that starts ``python -m trailkit.solvers.frontends.cli ARGS`` only to read what it
prints and its exit code pays for a fresh interpreter every time: importing NumPy,
OR-Tools and Numba and loading the compiled kernels costs 0.3 to 1 s of CPU before any
work. :func:`trailkit` calls :func:`trailkit.solvers.frontends.cli.main` instead, in a
given folder, with ``COLUMNS=80``; standard output and standard error are UTF-8 streams
(errors ``strict`` and ``backslashreplace``, as ``PYTHONIOENCODING=utf-8`` gives a process)
recorded apart and together in the order written, as a terminal shows them; the exit code
is ``main``'s return value or a ``SystemExit``'s. Warnings print on standard error under
a fresh interpreter's filters (not pytest's, which would record them out of sight).

Afterwards everything the command may have changed in this process is put back: the
working folder, ``os.environ``, every signal handler and the signal mask,
``sys.stdout``/``sys.stderr``, the root logger, the warning filters, the compile
listeners the command line adds (:func:`trailkit.models.support.jit.on_compile`) and
the puzzle names it spells output by (:func:`trailkit.solvers.frontends.cli.output.use_names`), so
nothing leaks into the worker's later tests. What must not happen at all fails the
test: a resource limit changed here (``RLIMIT_AS``/``RLIMIT_CPU`` belong to the forked
children of :mod:`trailkit.solvers.support.workers` and
:mod:`trailkit.solvers.support.external`) or a non-daemon thread left running (the
solver thread of :mod:`trailkit.solvers.support.interrupts` is a daemon, kept on purpose).

What only a real process shows stays a subprocess: Ctrl-C and other signals, a console
that is not UTF-8, environment variables read when the interpreter starts, standard
input, ``serve`` and the workshop, limits measured on the process, start-up and imports.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import resource
import signal
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

__all__ = ["Ran", "trailkit"]

_LIMITS = [getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_")]
# A fresh interpreter's warning filters (no -W, no PYTHONWARNINGS), first to last.
_FRESH_FILTERS: list[tuple[Literal["default", "ignore"], type[Warning], str]] = [
    ("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""), ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, "")]


@dataclass(frozen=True)
class Ran:
    """A finished command, named as :class:`subprocess.CompletedProcess` names it."""

    returncode: int
    stdout: str
    stderr: str
    output: str  # standard output and standard error, in the order written


def trailkit(args: Sequence[str], cwd: str | Path | None = None,
             env: Mapping[str, str | None] | None = None) -> Ran:
    """Run ``trailkit ARGS`` in this process, in the folder ``cwd`` (default: the current
    one), with ``COLUMNS=80`` and the variables of ``env`` set (``None``: unset)."""
    from trailkit.solvers.frontends.cli import main

    together = bytearray()
    out, err = _Recorder(together), _Recorder(together)
    # Held here: a wrapper that nothing refers to closes its recorder.
    streams = (io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", newline="\n",
                                write_through=True))
    with _restored(), _environment({"COLUMNS": "80", **(env or {})}), _warnings_printed():
        if cwd is not None:
            os.chdir(cwd)
        sys.stdout, sys.stderr = streams
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse: --help, --version, a usage error
            code = _exit_code(exc.code, streams[1])
        for stream in streams:  # (the command may have replaced sys.stdout or sys.stderr)
            stream.flush()
    return Ran(code, _text(out.getvalue()), _text(err.getvalue()), _text(bytes(together)))


class _Recorder(io.BytesIO):
    """A stream's bytes, each write also appended to the record both streams share."""

    def __init__(self, together: bytearray) -> None:
        super().__init__()
        self._together = together

    def write(self, data: object) -> int:
        self._together += bytes(data)  # type: ignore[call-overload]  # bytes-like
        return super().write(data)  # type: ignore[arg-type]


def _text(data: bytes) -> str:
    """``data`` read as ``subprocess.run(..., text=True, encoding="utf-8")`` reads a
    pipe: UTF-8, universal newlines."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(code: object, stderr: TextIO) -> int:
    """The exit status of ``sys.exit(code)``: a message is printed and means 1."""
    if code is None or isinstance(code, int):
        return int(code or 0)
    print(code, file=stderr)
    return 1


@contextlib.contextmanager
def _environment(changes: Mapping[str, str | None]) -> Iterator[None]:
    saved = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    try:
        yield
    finally:
        if dict(os.environ) != saved:
            os.environ.clear()
            os.environ.update(saved)


@contextlib.contextmanager
def _warnings_printed() -> Iterator[None]:
    """Warnings shown on the (current) standard error as a fresh interpreter shows them."""
    with warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in reversed(_FRESH_FILTERS):
            warnings.filterwarnings(action, category=category, module=module)
        warnings.showwarning = _show_warning
        yield


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: object = None, line: str | None = None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _restored() -> Iterator[None]:
    """Put back the process state a command may change; fail on what it must not change."""
    from trailkit.models.support import jit
    from trailkit.solvers.frontends.cli import output

    folder, streams_before = os.getcwd(), (sys.stdout, sys.stderr)
    handlers, mask = _handlers(), signal.pthread_sigmask(signal.SIG_BLOCK, ())
    root = logging.getLogger()
    logged_by, level, disabled = list(root.handlers), root.level, logging.root.manager.disable
    listeners, limits = list(jit._compile_listeners), _limits()
    threads = set(threading.enumerate())
    try:
        yield
    finally:
        sys.stdout, sys.stderr = streams_before
        os.chdir(folder)
        for number, handler in _handlers().items():
            if handler is not handlers[number]:
                signal.signal(number, handlers[number])
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        root.handlers[:] = logged_by
        root.setLevel(level)
        logging.disable(disabled)
        jit._compile_listeners[:] = listeners
        output.use_names(None)  # the last puzzle's names, kept for what it printed
    _check_nothing_leaked(limits, threads)


def _handlers() -> dict[int, Any]:
    """The handler of every signal that can have one (not SIGKILL, SIGSTOP)."""
    found = {}
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            found[int(number)] = signal.getsignal(number)
    return {n: h for n, h in found.items() if n not in (signal.SIGKILL, signal.SIGSTOP)}


def _limits() -> dict[int, tuple[int, int]]:
    return {limit: resource.getrlimit(limit) for limit in _LIMITS}


def _check_nothing_leaked(limits: dict[int, tuple[int, int]], threads: set[threading.Thread]
                          ) -> None:
    changed = {k: v for k, v in _limits().items() if limits[k] != v}
    for limit in changed:  # put back for the worker's next tests, then fail this one
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(limit, limits[limit])
    assert not changed, f"trailkit changed this process's resource limits: {changed}"
    running = [t.name for t in threading.enumerate()
               if t not in threads and t.is_alive() and not t.daemon]
    assert not running, f"trailkit left threads running: {running}"
