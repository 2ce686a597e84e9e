"""Work run in an isolated child process, under hard limits: what the comparisons of
campaigns and the workshop's runs both stand on.

A job is forked into a child with ``RLIMIT_AS`` set to a memory budget (and
``RLIMIT_CPU`` to a processor-time one); it sends one JSON object back through a pipe and
exits. The caller reads the pipe, kills a child past its deadline, and reaps it with
:func:`finish_worker`, which turns what it said, or its silence, into a result:
``timeout``, ``memout`` (a :class:`MemoryError`, or last words on stderr that speak of
memory: C++ ``std::bad_alloc``, "Cannot allocate memory") or ``crash``. Children ignore
Ctrl-C and die with the parent.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import resource
import signal
import stat
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from trailkit.solvers.support.interrupts import ignore_interrupts_and_die_with_parent
from trailkit.solvers.support.signs import stop_listening

__all__ = ["GRACE_S", "Worker", "finish_worker", "start_worker"]

#: Seconds a worker may run past its time limit before it is killed as a timeout.
GRACE_S = 5.0
_MEMORY_WORDS = ("bad_alloc", "memoryerror", "cannot allocate memory", "out of memory",
                 "failed to map segment")


@dataclass
class Worker:
    """A running worker: its pid, the pipe its answer comes through, its deadline."""

    index: int
    pid: int
    fd: int
    stderr: BinaryIO
    deadline: float
    wall: float
    data: bytearray = field(default_factory=bytearray)
    started: float = 0.0
    cpu_limit: int | None = None
    limit_s: float | None = None  # the run's own time limit (``wall`` adds a grace)


def start_worker(job: Callable[[], Mapping[str, Any]], *, wall_s: float,
                 memory_mb: int | None, index: int = 0, cpu_s: float | None = None,
                 limit_s: float | None = None) -> Worker:
    """Fork a child that runs ``job()`` under an address-space limit of ``memory_mb`` MB
    (and ``RLIMIT_CPU`` of ``cpu_s`` seconds, rounded up, when given) and pipes back its
    result (plain JSON data), ignoring Ctrl-C; the caller reads ``child.fd`` until it
    closes, kills ``child.pid`` past ``child.deadline`` (``wall_s`` from now), and then
    calls :func:`finish_worker`. Any run of trailkit code in an isolated child goes
    through here (a comparison's solves, the workshop's runs)."""
    cpu_limit = None if cpu_s is None else max(1, math.ceil(cpu_s))
    started = time.monotonic()
    read_fd, write_fd = os.pipe()
    stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _finish, after the child ends
    parent = os.getpid()
    pid = os.fork()  # the child ends with os._exit: it never flushes the parent's buffers
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(read_fd)
            _confine(parent, stderr.fileno(), memory_mb, cpu_limit)
            _send(write_fd, job())
        except BaseException as exc:  # e.g. an import that fails under the memory limit
            os.write(2, traceback.format_exc().encode())  # the child's last words
            code = 70
            kind = "memout" if _speaks_of_memory(repr(exc)) or isinstance(exc, MemoryError) \
                else "crash"
            with contextlib.suppress(BaseException):
                _send(write_fd, {"status": kind, "detail": f"{type(exc).__name__}: {exc}"})
        finally:
            os._exit(code)
    os.close(write_fd)
    return Worker(index, pid, read_fd, stderr, started + wall_s, wall_s, started=started,
                  cpu_limit=cpu_limit, limit_s=limit_s)


def _confine(parent: int, stderr_fd: int, memory_mb: int | None, cpu_limit: int | None
             ) -> None:
    """Set up a worker child before its job: free to start helpers of its own, deaf to
    Ctrl-C (the parent decides) but dying with ``parent``, its stderr into the file the
    parent reads, under the address-space and CPU-time limits given."""
    if multiprocessing.current_process().daemon:  # forked in a Dask worker: the run
        multiprocessing.current_process().daemon = False  # may start its own helpers
    ignore_interrupts_and_die_with_parent(parent)
    stop_listening()
    _let_go_of_sockets()
    os.dup2(stderr_fd, 2)
    if memory_mb:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if cpu_limit:  # SIGXCPU at the soft limit, SIGKILL a second later
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))


def _let_go_of_sockets() -> None:
    """In a forked child, let go of every socket it inherited: each becomes a descriptor
    of ``/dev/null`` under the same number.

    A fork copies every open descriptor. A workshop's analyser, forked while a browser's
    connection was open, kept that connection alive after the server closed its own end;
    the browser, seeing no close, sent its next request (a Save) there, and nobody ever
    read it. Closing the number instead would free it for the child's next ``open``, and
    a parent's object still holding it (its event loop's wake-up socket) could then write
    into that file; ``/dev/null`` under the same number takes such writes harmlessly."""
    fds = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
    try:
        names = os.listdir(fds)
    except OSError:
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for name in names:
            fd = int(name)
            with contextlib.suppress(OSError):  # the listing's own descriptor, gone now
                if fd != null and stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)


def finish_worker(child: Worker, *, killed: bool) -> dict[str, Any]:
    """Reap a worker of :func:`start_worker` (``killed``: by the caller, past its deadline
    or cancelled) and return its result: what it sent, else ``timeout``, ``memout`` or
    ``crash`` with a ``detail``; ``peak_mb`` is its peak memory, ``wall_s`` and ``cpu_s``
    (user + system, from ``wait4``) its times, ``limit_hit`` the limit that ended it
    (``wall``, ``cpu``, ``memory``) or ``None``."""
    return _finish(child, killed=killed)


def _send(fd: int, result: Mapping[str, Any]) -> None:
    """Write a run result to the pipe, all of it."""
    view = memoryview(json.dumps(result).encode())
    while view:
        view = view[os.write(fd, view):]


def _speaks_of_memory(text: str) -> bool:
    lowered = text.lower()
    return any(word in lowered for word in _MEMORY_WORDS)


def _finish(child: Worker, *, killed: bool) -> dict[str, Any]:
    """Reap a child and turn what it said (or its silence) into a run result."""
    os.close(child.fd)
    _, status, usage = os.wait4(child.pid, 0)
    wall_s = time.monotonic() - child.started
    cpu_s = usage.ru_utime + usage.ru_stime
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    child.stderr.seek(0, os.SEEK_END)
    child.stderr.seek(max(0, child.stderr.tell() - 4096))
    last_words = child.stderr.read().decode("utf-8", "replace").strip()
    child.stderr.close()
    result: dict[str, Any]
    limit_hit = None
    if killed:
        within = f"{child.wall:.0f} s" if child.limit_s is None else (
            f"the time limit of {child.limit_s:g} s (stopped after {child.wall:.0f} s)")
        result = {"status": "timeout", "detail": f"no answer within {within}"}
        limit_hit = "wall"
    else:
        try:
            result = json.loads(bytes(child.data))
        except ValueError:
            result = _silent_death(status, last_words)
            if _cpu_limit_ended(child, status, cpu_s):
                result = {"status": "timeout", "detail": f"no answer within "
                          f"{child.cpu_limit} s of processor time ({result['detail']})"}
                limit_hit = "cpu"
    if result["status"] == "memout":
        limit_hit = "memory"
    result.update(peak_mb=round(peak_mb, 1), wall_s=round(wall_s, 6), cpu_s=round(cpu_s, 6),
                  limit_hit=limit_hit)
    return result


def _cpu_limit_ended(child: Worker, status: int, cpu_s: float) -> bool:
    """Whether ``RLIMIT_CPU`` ended the child: SIGXCPU, or SIGKILL at the hard limit."""
    if child.cpu_limit is None or not os.WIFSIGNALED(status):
        return False
    signum = os.WTERMSIG(status)
    return signum == signal.SIGXCPU or (signum == signal.SIGKILL and cpu_s >= child.cpu_limit)


def _silent_death(status: int, last_words: str) -> dict[str, Any]:
    """A worker that died without an answer: out of memory, or a crash."""
    if os.WIFSIGNALED(status):
        how = f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    else:
        how = f"exited with code {os.WEXITSTATUS(status)}"
    tail = last_words.splitlines()[-1] if last_words else ""
    detail = f"worker {how}" + (f": {tail}" if tail else "")
    kind = "memout" if _speaks_of_memory(last_words) else "crash"
    return {"status": kind, "detail": detail}
