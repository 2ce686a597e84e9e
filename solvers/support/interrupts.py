"""One Ctrl-C stops any solver: native calls that can be stopped, helpers that cannot outlive us.

A native solver call (CP-SAT's ``solve``, python-sat's ``solve_limited``) holds the
main thread in C++, where Python never runs its SIGINT handler. :func:`run_stoppable`
runs such a call on a worker thread instead, so the main thread waits in Python and
takes the Ctrl-C as a :class:`KeyboardInterrupt`; it then asks the solver to stop
(``stop_search()``, ``interrupt()``), waits for the call to return and raises the
interrupt on. The same wait enforces a deadline (the solver is asked to stop when
it passes, and the call's own result says it was stopped).

Solvers may not catch SIGINT themselves: CP-SAT's handler turns a Ctrl-C into an
``UNKNOWN`` status and then leaves SIGINT at its default action (so a later Ctrl-C
kills the process without a word); python-sat's C code jumps (``longjmp``) out of its
signal handler, which leaves SIGINT blocked for the rest of the process (every
later Ctrl-C is lost) and, when the signal lands inside ``malloc``, aborts or
deadlocks it. :func:`keep_pysat_off_sigint` switches python-sat's handler off; CP-SAT's
is switched off per solver (``catch_sigint_signal``) by :mod:`trailkit.solvers.backends.cpsat`.

A forked helper process (a python-sat solver that cannot be interrupted runs in one,
so that it can be killed) calls :func:`ignore_interrupts_and_die_with_parent`: the
parent decides what a Ctrl-C means, and a helper whose parent died (killed, say)
is killed too, so none is left behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # no import at run time: the command line loads this module first
    from trailkit.models.counts import CountResult

__all__ = ["STOP_GRACE_S", "ignore_interrupts_and_die_with_parent", "interrupts_held",
           "interrupts_reach_here", "keep_pysat_off_sigint", "passed_on", "run_stoppable"]

T = TypeVar("T")
R = TypeVar("R", bound="CountResult")


def passed_on(result: R) -> R:
    """``result``, unless a Ctrl-C stopped it: then the interrupt, raised on. A count
    keeps a Ctrl-C to itself, so that ``count`` can print what it had counted (a lower
    bound); a command that counts as one step of its own work (``inspect``'s measures,
    ``design``'s judge) must stop on it instead of going on with the next step (``design
    trail`` ran on to its time limit, ``inspect`` ended with exit 0)."""
    if result.stats.get("interrupted"):
        raise KeyboardInterrupt
    return result

STOP_GRACE_S = 2.0
"""How long a stopped call may take to return before the interrupt goes on without it
(measured: CP-SAT and python-sat's interruptible solvers return within milliseconds)."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_POLL_S = 0.05


def interrupts_reach_here() -> bool:
    """Whether a Ctrl-C can reach this code as a :class:`KeyboardInterrupt`: on the main
    thread, with a Python SIGINT handler (not ignored: a compare worker, ``cmd &``)."""
    return (threading.current_thread() is threading.main_thread()
            and callable(signal.getsignal(signal.SIGINT)))


def run_stoppable(call: Callable[[], T], stop: Callable[[], None], *,
                  timeout: float | None = None) -> T:
    """``call()``'s result, with Ctrl-C (and ``timeout`` seconds, if given) calling
    ``stop()`` so that the call returns early.

    After a Ctrl-C the :class:`KeyboardInterrupt` is raised once the call has returned
    (a second Ctrl-C meanwhile does not cut that wait short: the solver's memory must
    not be freed under it), or after :data:`STOP_GRACE_S` seconds if it does not: the
    caller must then leave the solver alone (python-sat's is not freed, see
    :mod:`trailkit.solvers.backends.sat.runner`). When neither a Ctrl-C nor a timeout can
    happen the call runs on this thread.

    The calls run one at a time on one long-lived worker thread (a thread per call
    would cost more than a small solver call, ``docs/benchmarks.md``: counting asks
    the solver once per solution).
    """
    if timeout is None and not interrupts_reach_here():
        return call()
    worker = _SolverThread.idle()
    job = _Job(call)
    try:
        worker.run(job)
        if not _wait(job.done, timeout):  # the deadline passed: the result says it stopped
            stop()
            _wait(job.done, None)
    except KeyboardInterrupt:
        if not job.cancel() and not _wait_out(job.done, stop, STOP_GRACE_S):
            worker.abandoned = True  # the next call gets a fresh worker
        raise
    ok, value = job.outcome[0]
    if not ok:
        raise value  # type: ignore[misc]  # the worker's exception, carried as an object
    return value  # type: ignore[return-value]  # the call's own result


class _Job:
    """One call handed to the worker: queued, running or cancelled before it ran."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.call = call
        self.outcome: list[tuple[bool, object]] = []
        self.done = threading.Event()  # not Thread.join: Python 3.11 marks a thread whose
        # join a Ctrl-C interrupted as stopped while it runs (bpo-45274's fix)
        self._lock = threading.Lock()
        self._state = "queued"

    def take(self) -> bool:
        """(The worker.) Whether to run the call: not if it was cancelled."""
        with self._lock:
            if self._state == "cancelled":
                return False
            self._state = "running"
            return True

    def cancel(self) -> bool:
        """Whether the call was stopped before it began (then it never will)."""
        with self._lock:
            if self._state == "queued":
                self._state = "cancelled"
            return self._state == "cancelled"

    def run(self) -> None:
        if self.take():
            try:
                self.outcome.append((True, self.call()))
            except BaseException as exc:  # handed to the waiting thread, raised there
                self.outcome.append((False, exc))
        self.done.set()


class _SolverThread:
    """The daemon thread that runs :func:`run_stoppable`'s calls, one at a time."""

    _current: _SolverThread | None = None

    def __init__(self) -> None:
        self.pid = os.getpid()  # a forked child has the object but not the thread
        self.abandoned = False  # a stopped call that never returned still holds it
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="trailkit-solver",
                                        daemon=True)

    @classmethod
    def idle(cls) -> _SolverThread:
        """The worker, started on first use (again after a fork or an abandoned call)."""
        worker = cls._current
        if worker is None or worker.pid != os.getpid() or worker.abandoned:
            worker = cls._current = cls()
            worker._start()
        return worker

    def run(self, job: _Job) -> None:
        self._jobs.put(job)

    def _serve(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # a Ctrl-C is for main
        while True:
            self._jobs.get().run()

    def _start(self) -> None:
        """Start the thread (start() waits for it: a Ctrl-C raised inside would lose
        track of it)."""
        with interrupts_held():
            self._thread.start()


def _wait(done: threading.Event, timeout: float | None) -> bool:
    """``done.wait(timeout)`` in slices of :data:`_POLL_S`: the kernel may hand a Ctrl-C
    to another thread (a native one of a library), which does not wake this wait; Python
    then raises it between two slices."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = _POLL_S if deadline is None else min(_POLL_S, deadline - time.monotonic())
        if done.wait(max(left, 0.0)):
            return True
        if deadline is not None and time.monotonic() >= deadline:
            return False


def _wait_out(done: threading.Event, stop: Callable[[], None], seconds: float) -> bool:
    """Ask the worker's call to stop and wait up to ``seconds`` for it to end (``done``),
    through further Ctrl-Cs; whether it ended. The request is repeated while waiting: a
    call that had not yet begun when it was first made (CP-SAT ignores a
    ``stop_search()`` before its search exists) gets it again."""
    deadline = time.monotonic() + seconds
    while not done.is_set():
        stop()
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(KeyboardInterrupt):
            done.wait(min(left, _POLL_S))
    return True


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C back while the block runs and raise it when the block ends: for
    starting a thread or a helper process, which must be known to whoever cleans up
    before an interrupt can unwind.

    Blocking SIGINT alone does not hold it back (the kernel hands it to another thread,
    and Python raises it all the same), so the Python handler is swapped for one that
    only notes it; SIGINT is blocked too, so that a process forked in the block starts
    with it blocked and cannot be interrupted before it ignores Ctrl-C
    (:func:`ignore_interrupts_and_die_with_parent`).
    """
    if not interrupts_reach_here():
        yield
        return
    noted: list[int] = []
    handler = signal.signal(signal.SIGINT, lambda signum, _: noted.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending one is noted now
        signal.signal(signal.SIGINT, handler)
        if noted:
            signal.raise_signal(signal.SIGINT)  # to the handler it was meant for


def keep_pysat_off_sigint() -> None:
    """Stop python-sat's C code from installing its SIGINT handler around its calls.

    It installs one only when called from the main thread, as ``MainThread.check()``
    says; answering "no" keeps Python's handler in place, so a Ctrl-C during a
    cardinality encoder or a solver call is a :class:`KeyboardInterrupt` as soon as the
    call returns. Long solver calls are made stoppable by :func:`run_stoppable` or run in
    a helper process that can be killed (:func:`trailkit.solvers.backends.sat.runner.run_guarded`).
    """
    from pysat import _utils

    _utils.MainThread.check = staticmethod(lambda: False)  # pysat is untyped: Any


def ignore_interrupts_and_die_with_parent(parent: int) -> None:
    """In a forked helper: ignore Ctrl-C (the parent, in the same process group, gets it
    too and decides) and be killed when the parent dies (Linux; elsewhere a no-op).
    A Ctrl-C held back since the fork (:func:`interrupts_held`) is dropped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
