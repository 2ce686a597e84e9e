"""The tour search compiled once, in the background, when the workshop starts.

The first ``design tour`` after installing or upgrading trailkit compiles the direct
backend's tour search with Numba: about 28 s on a shared 2-core machine, more than the
Design panel's default limit of 10 s, which then answered "not found". Compiling is not
the author's search. So the server starts, beside its workers, a process of its own
(off the event loop, at low priority, stopped after :data:`WARM_SECONDS`) that runs
:func:`compile_tours` and leaves the machine code in Numba's disk cache, from which a
worker loads it in a moment; a tour design asked meanwhile waits for it before its
own time limit starts, the page saying "compiling (once)", and the compile goes on at
normal priority from then (:meth:`Warmup.hurry`: at low priority beside a busy
machine's other work it got a tenth of a core, and the design waited five minutes).
Where nothing would compile (the cache has it already, or Numba is missing) nothing
starts. Where the cache cannot be written the worker compiles again, as it did before.

>>> Warmup(needed=False).compiling
False
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["WARM_SECONDS", "Warmup", "compile_tours", "lock_path", "one_at_a_time",
           "tour_search_compiles", "warm_once"]

WARM_SECONDS = 300.0
"""The longest the background compile may run before it is stopped."""

#: The background process (:func:`warm_once`); with ``--now``, at normal priority.
_COMMAND = [sys.executable, "-m", __name__]

#: The Design panel's own request, on a board small enough to design at once.
_ASK = {"kind": "tour", "board": "5x5", "moves": "king", "unique": True, "seed": 1}


def compile_tours() -> None:
    """Compile (or load from the disk cache) every kernel a tour design runs: one
    design as the Design panel asks it (search, givens, certificate), on a small
    board."""
    from trailkit.solvers.frontends.workshop.designs import design, read_design

    design(read_design(_ASK, "warm-up"), "", time_limit=WARM_SECONDS)


def tour_search_compiles() -> bool:
    """Whether the tour search would compile at its first use (nothing in this process
    or the disk cache yet)."""
    from trailkit.models.support.jit import will_compile
    from trailkit.solvers.backends.direct import hamilton_kernel

    return will_compile(hamilton_kernel.tour_search)


class Warmup:
    """The background compile of the tour search (module docstring): started by
    :meth:`start` when ``needed`` (default: when it would compile), done when its
    process ends or is stopped."""

    def __init__(self, needed: bool | None = None, seconds: float = WARM_SECONDS) -> None:
        self._needed = needed
        self._seconds = seconds
        self._done = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None
        self._swap = threading.Lock()
        self._hurried = False
        if needed is False:
            self._done.set()

    @property
    def compiling(self) -> bool:
        """Whether the compile is running (or about to)."""
        return not self._done.is_set()

    def start(self) -> Warmup:
        """Start the compile in a process of its own, watched by a thread that stops it
        after the time allowed; nothing when it is not needed. Returns itself."""
        needed = tour_search_compiles() if self._needed is None else self._needed
        if not needed:
            self._done.set()
            return self
        self._process = _spawn(now=False)
        threading.Thread(target=self._watch, name="warmup", daemon=True).start()
        return self

    def _watch(self) -> None:
        """Wait for the compile's process, or for the one :meth:`hurry` put in its
        place, killing it past the time allowed; then the compile is done."""
        deadline = time.monotonic() + self._seconds
        try:
            while True:
                process = self._process
                assert process is not None
                try:
                    process.wait(timeout=max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                    return
                with self._swap:
                    if self._process is process:
                        return
        finally:
            self._done.set()

    def hurry(self) -> None:
        """Someone waits for the compile: from now on it is their time, not spare time.
        A process cannot raise its own priority again without privileges, so one at
        normal priority takes the low-priority one's place (it waits for its lock, and
        finds cached what the first compiled); once only."""
        with self._swap:
            old = self._process
            if self._hurried or old is None or old.poll() is not None:
                return
            self._hurried = True
            self._process = _spawn(now=True)
            old.kill()

    async def ready(self) -> None:
        """Wait, off the event loop, until the compile is done (at most the time it is
        allowed, which its watcher enforces), hurrying it first."""
        if self.compiling:
            self.hurry()
            await asyncio.to_thread(self._done.wait, self._seconds + 5)

    def close(self) -> None:
        """Stop the compile (the server is stopping)."""
        with self._swap:
            if self._process is not None and self._process.poll() is None:
                self._process.kill()


def _spawn(now: bool) -> subprocess.Popen[bytes]:
    """The background process: at low priority, or with ``now`` at normal priority."""
    return subprocess.Popen([*_COMMAND, *(["--now"] if now else [])],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def lock_path() -> Path:
    """The warm-up lock of this user, Python installation and Numba cache (per user: a
    file another user made in the shared temporary folder is never opened)."""
    user = os.getuid() if hasattr(os, "getuid") else 0
    tag = hashlib.sha256(
        f"{user}|{sys.prefix}|{os.environ.get('NUMBA_CACHE_DIR', '')}".encode())
    return Path(tempfile.gettempdir()) / f"trailkit-warmup-{tag.hexdigest()[:16]}.lock"


@contextmanager
def one_at_a_time() -> Iterator[None]:
    """Hold the machine's one warm-up lock (a file in the temporary folder, per Python
    installation): two workshops started at once (a user's, or a test suite's dozens)
    compile once, the second waiting for the first and then finding the cache filled.
    Where file locks do not exist (not POSIX) or the lock file cannot be opened, nothing
    is held: the compile then runs as it did before there was a lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover (Windows)
        yield
        return
    try:
        lock = open(lock_path(), "a")  # noqa: SIM115 (held across the yield)
    except OSError:
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def warm_once(now: bool = False) -> None:
    """The background process's work: lower priority (unless ``now``: a design waits),
    wait for any other warm-up, and compile only if the cache still lacks the tour
    search."""
    if not now:
        os.nice(10)
    with one_at_a_time():
        if tour_search_compiles():
            compile_tours()


if __name__ == "__main__":  # the background process
    warm_once(now="--now" in sys.argv[1:])
