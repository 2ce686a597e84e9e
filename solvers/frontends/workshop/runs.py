"""The workshop's runs: each solve, count, prove, repair or explain in its own worker
process, bounded in time and memory, a few at a time, cancellable.

Workers are forked by :func:`trailkit.solvers.support.workers.start_worker` (the comparison's
isolation: ``RLIMIT_AS``, Ctrl-C ignored, a kill past the deadline) from the server's
event loop, which waits on their pipes without blocking. The server runs no threads
of its own, so nothing holds a lock when a worker is forked.

* At most ``workers`` runs at once; up to ``queue`` more wait their turn; beyond that a
  run is refused at once (:class:`Busy`: the server answers 503).
* Each run belongs to a *slot* (one per page): a newer run in the same slot cancels the
  older one, running or waiting (a newer edit makes the old answer moot), or still
  getting *ready* (a tour design waits for the background compile before it queues:
  one whose page went away, or that a newer run replaced meanwhile, never starts).
* A run past its time limit is killed and answers ``unknown`` with the reason, as does one
  past its memory limit (``memout``) or one that crashed.
* :meth:`RunManager.close` cancels everything and reaps every worker: none outlives
  the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from trailkit.solvers.frontends.workshop.jobs import Job, run_job
from trailkit.solvers.support.workers import GRACE_S, finish_worker, start_worker

__all__ = ["Busy", "RunManager"]

#: What a run that stopped before answering says, by how it stopped.
_WHY = {"timeout": "the time limit was reached", "memout": "the memory limit was reached",
        "crash": "the worker crashed", "cancelled": "a newer run replaced it"}


class Busy(Exception):
    """Too many runs waiting already: try again in a moment."""


@dataclass
class _Run:
    slot: str
    job: Job
    done: asyncio.Future[dict[str, Any]]
    child: Any = None
    killed: bool = False
    cancelled: bool = False
    timer: asyncio.TimerHandle | None = None
    data: bytearray = field(default_factory=bytearray)


class RunManager:
    """Runs jobs in workers (see the module docstring)."""

    def __init__(self, *, workers: int = 2, queue: int = 8, memory_mb: int = 2048) -> None:
        self.workers, self.queue, self.memory_mb = workers, queue, memory_mb
        self._running: dict[int, _Run] = {}  # by pipe fd
        self._waiting: deque[_Run] = deque()
        self._readying: list[_Run] = []  # waiting for ``ready`` before they queue
        self._closed = False

    # ------------------------------------------------------------------ public
    async def run(self, slot: str, job: Job,
                  ready: Callable[[], Awaitable[None]] | None = None) -> dict[str, Any]:
        """Run ``job`` in ``slot`` (cancelling the slot's older run) once ``ready()``
        (if given) returned, and return its outcome; a run that hit a limit says
        ``status: unknown`` and why. Raises :class:`Busy` when the queue is full."""
        if self._closed:
            return _stopped(job, "cancelled", "the workshop is shutting down")
        self.cancel(slot)
        run = _Run(slot, job, asyncio.get_running_loop().create_future())
        try:
            if ready is not None and not await self._got_ready(run, ready):
                return run.done.result()  # cancelled while it got ready
            if len(self._running) >= self.workers and len(self._waiting) >= self.queue:
                raise Busy(f"{len(self._running)} runs are running and "
                           f"{len(self._waiting)} waiting; try again in a moment")
            self._waiting.append(run)
            self._start_waiting()
            return await asyncio.shield(run.done)
        except asyncio.CancelledError:  # the request went away: so does its run
            self._cancel_run(run)
            raise

    async def _got_ready(self, run: _Run, ready: Callable[[], Awaitable[None]]) -> bool:
        """Wait for ``ready()`` or ``run``'s cancelling, whichever comes first; whether
        it got ready (uncancelled)."""
        self._readying.append(run)
        waiting: asyncio.Future[Any] = asyncio.ensure_future(ready())
        try:
            await asyncio.wait({waiting, run.done}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            self._readying.remove(run)
        return not run.done.done()

    def cancel(self, slot: str) -> int:
        """Cancel every run of ``slot``, running, waiting or getting ready; how many
        there were."""
        runs = [r for r in [*self._running.values(), *self._waiting, *self._readying]
                if r.slot == slot]
        for run in runs:
            self._cancel_run(run)
        return len(runs)

    @property
    def busy(self) -> dict[str, int]:
        """How many runs are running, waiting, and getting ready (a tour design while
        the search compiles) now."""
        return {"running": len(self._running), "waiting": len(self._waiting),
                "readying": len(self._readying), "workers": self.workers,
                "queue": self.queue}

    def worker_pids(self) -> list[int]:
        """The pids of the running workers."""
        return [r.child.pid for r in self._running.values()]

    def close(self) -> None:
        """Cancel every run and reap every worker (the server is stopping)."""
        self._closed = True
        for run in [*self._running.values(), *self._waiting, *self._readying]:
            self._cancel_run(run, why="the workshop is shutting down")

    # ----------------------------------------------------------------- workers
    def _start_waiting(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting and len(self._running) < self.workers and not self._closed:
            run = self._waiting.popleft()
            job = run.job
            run.child = start_worker(partial(run_job, job),
                                     wall_s=job.time_limit + GRACE_S,
                                     memory_mb=self.memory_mb)
            fd = run.child.fd
            os.set_blocking(fd, False)
            self._running[fd] = run
            loop.add_reader(fd, self._readable, fd)
            run.timer = loop.call_later(job.time_limit + GRACE_S, self._kill, run)

    def _readable(self, fd: int) -> None:
        run = self._running.get(fd)
        if run is None:
            return
        try:
            chunk = os.read(fd, 1 << 20)
        except BlockingIOError:
            return
        run.data += chunk
        if not chunk:
            self._reap(run)

    def _kill(self, run: _Run) -> None:
        if run.child is not None and run.child.fd in self._running:
            run.killed = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(run.child.pid, signal.SIGKILL)
            self._reap(run)

    def _reap(self, run: _Run) -> None:
        fd = run.child.fd
        asyncio.get_running_loop().remove_reader(fd)
        del self._running[fd]
        if run.timer is not None:
            run.timer.cancel()
        run.child.data = run.data
        result = finish_worker(run.child, killed=run.killed)
        if not run.done.done():
            if run.cancelled:
                result = _stopped(run.job, "cancelled", _WHY["cancelled"])
            run.done.set_result(_outcome(run.job, result))
        self._start_waiting()

    def _cancel_run(self, run: _Run, why: str = _WHY["cancelled"]) -> None:
        run.cancelled = True
        if not run.done.done():
            run.done.set_result(_stopped(run.job, "cancelled", why))
        if run in self._waiting:
            self._waiting.remove(run)
        elif run.child is not None and run.child.fd in self._running:
            self._kill(run)


def _stopped(job: Job, status: str, why: str) -> dict[str, Any]:
    return {"op": job.op, "status": status, "text": f"{status}: {why}"}


def _outcome(job: Job, result: dict[str, Any]) -> dict[str, Any]:
    """A worker's result; a run that stopped without an answer is ``unknown``, and why."""
    if "op" in result:  # the job's own answer
        return {**result, "peak_mb": result.get("peak_mb")}
    kind = result.get("status", "crash")
    why = _WHY.get(kind, kind)
    detail = result.get("detail") or ""
    return {"op": job.op, "status": "unknown", "stopped": kind,
            "text": f"unknown: {why}" + (f" ({detail})" if detail else ""),
            "peak_mb": result.get("peak_mb")}
