"""The as-you-type analysis, off the server's event loop and within its own budget.

Lint and drawing take milliseconds on most specs, but not on all (a 600 KB spec of a
20,000-node path takes about 3 s to lay out and draw, and the first drawing in a fresh
process pays for loading the drawing code; while that ran in the server no other
request was answered). So each analysis runs in an *analyser*: a long-lived process
forked by :func:`trailkit.solvers.support.workers.start_worker` (its memory limit, Ctrl-C
ignored, dead with the server) that reads texts from a pipe and answers on another,
so a keystroke costs a pipe's round trip, not a fork. The event loop only waits on
the pipes.

* At most ``workers`` analyses run at once; the rest wait, and a newer one from the
  same page (*slot*) replaces its older waiting one (which answers ``cancelled``).
* An analysis past ``time_s`` seconds is stopped: its analyser is killed (a fresh one
  is forked when next needed) and the answer gives the problems lint found (they come
  first, before the drawing) and says that the budget was reached.
* An analysis whose page went away (:meth:`Analyses.cancel`, or its request task
  cancelled) is dropped, or stopped the same way when it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import struct
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from trailkit.solvers.frontends.workshop.analysis import analyse
from trailkit.solvers.support.workers import finish_worker, start_worker

__all__ = ["Analyses", "serve_analyses"]

_HEADER = struct.Struct(">I")


def _write_message(fd: int, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode()
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exactly(fd: int, n: int) -> bytes | None:
    data = bytearray()
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def serve_analyses(requests: int, answers: int) -> dict[str, Any]:
    """The analyser's loop (in its own process): read ``{text, source, base_dir}``
    requests from the fd ``requests`` until it closes, and answer each on ``answers``:
    first ``{"partial": true, "problems": ...}`` once lint is done, then the whole
    analysis (or ``stopped`` with why, when it failed)."""
    while True:
        header = _read_exactly(requests, _HEADER.size)
        if header is None:
            return {"status": "ok"}
        body = _read_exactly(requests, _HEADER.unpack(header)[0])
        if body is None:
            return {"status": "ok"}
        asked = json.loads(body)
        base = Path(asked["base_dir"]) if asked.get("base_dir") else None
        try:
            out = analyse(asked["text"], asked["source"], base, on_problems=lambda p:
                          _write_message(answers, {"partial": True, "problems": p}))
        except MemoryError:
            out = {"stopped": "memout"}
        except Exception as exc:  # an analysis that crashed says so; the loop goes on
            out = {"stopped": "crash", "detail": f"{type(exc).__name__}: {exc}"}
        _write_message(answers, {"done": True, **out})


@dataclass
class _Ask:
    slot: str
    request: dict[str, Any]
    done: asyncio.Future[dict[str, Any]]


@dataclass
class _Analyser:
    child: Any
    requests: int  # the write end of its request pipe
    answers: int  # the read end of its answer pipe
    current: _Ask | None = None
    partial: list[dict[str, Any]] | None = None
    timer: asyncio.TimerHandle | None = None
    data: bytearray = field(default_factory=bytearray)


class Analyses:
    """The analysers of one workshop (see the module docstring)."""

    def __init__(self, *, workers: int = 2, time_s: float = 5.0, memory_mb: int = 2048
                 ) -> None:
        self.workers, self.time_s, self.memory_mb = workers, time_s, memory_mb
        self._idle: list[_Analyser] = []
        self._busy: list[_Analyser] = []
        self._waiting: deque[_Ask] = deque()
        self._closed = False

    async def analyse(self, slot: str, text: str, source: str, base_dir: Path | None
                      ) -> dict[str, Any]:
        """The analysis of ``text`` (as :func:`~.analysis.analyse` answers), done by an
        analyser; ``cancelled: true`` when a newer one of ``slot`` replaced it, and
        ``stopped`` with the problems found so far when it ran out of budget."""
        for old in [a for a in self._waiting if a.slot == slot]:
            self._waiting.remove(old)
            _answer(old, _cancelled())
        request = {"text": text, "source": source,
                   "base_dir": str(base_dir) if base_dir else None}
        ask = _Ask(slot, request, asyncio.get_running_loop().create_future())
        self._waiting.append(ask)
        self._dispatch()
        try:
            return await asyncio.shield(ask.done)
        except asyncio.CancelledError:  # the request went away: so does its analysis
            self._drop(ask)
            raise

    def cancel(self, slot: str) -> int:
        """Drop or stop every analysis of ``slot`` (its page went away); how many."""
        asks = [a for a in self._waiting if a.slot == slot] + [
            b.current for b in self._busy if b.current is not None and b.current.slot == slot]
        for ask in asks:
            _answer(ask, _cancelled())
            self._drop(ask)
        return len(asks)

    @property
    def busy(self) -> dict[str, Any]:
        """How many analyses run and wait now, and the analysers' process ids."""
        return {"running": len(self._busy), "waiting": len(self._waiting),
                "pids": self.pids()}

    def pids(self) -> list[int]:
        """The analysers' process ids."""
        return [a.child.pid for a in [*self._idle, *self._busy]]

    def close(self) -> None:
        """Stop every analyser (the server is stopping)."""
        self._closed = True
        while self._waiting:
            _answer(self._waiting.popleft(), _cancelled())
        for analyser in [*self._idle, *self._busy]:
            self._stop(analyser, _cancelled())

    # ------------------------------------------------------------------ inside
    def _dispatch(self) -> None:
        while self._waiting and not self._closed and (
                self._idle or len(self._busy) < self.workers):
            analyser = self._idle.pop() if self._idle else self._start()
            ask = self._waiting.popleft()
            try:
                _write_message(analyser.requests, ask.request)
            except OSError:  # it died while idle: a fresh one takes the request
                self._waiting.appendleft(ask)
                self._stop(analyser, None)
                continue
            analyser.current, analyser.partial = ask, None
            self._busy.append(analyser)
            analyser.timer = asyncio.get_running_loop().call_later(
                self.time_s, self._overdue, analyser)

    def _start(self) -> _Analyser:
        """Fork a fresh analyser."""
        from_parent, to_child = os.pipe()
        from_child, to_parent = os.pipe()
        child = start_worker(partial(_child_loop, from_parent, to_parent, to_child,
                                     from_child),
                             wall_s=float("inf"), memory_mb=self.memory_mb)
        os.close(from_parent)
        os.close(to_parent)
        os.set_blocking(from_child, False)
        analyser = _Analyser(child, to_child, from_child)
        asyncio.get_running_loop().add_reader(from_child, self._readable, analyser)
        return analyser

    def _readable(self, analyser: _Analyser) -> None:
        try:
            chunk = os.read(analyser.answers, 1 << 20)
        except BlockingIOError:
            return
        if not chunk:  # it died: out of memory, or a crash
            self._stop(analyser, _stopped(analyser, "crash", self.time_s))
            self._dispatch()
            return
        analyser.data += chunk
        while len(analyser.data) >= _HEADER.size:
            size = _HEADER.unpack_from(analyser.data)[0]
            if len(analyser.data) < _HEADER.size + size:
                break
            message = json.loads(bytes(analyser.data[_HEADER.size:_HEADER.size + size]))
            del analyser.data[:_HEADER.size + size]
            if message.get("partial"):
                analyser.partial = message["problems"]
            else:
                self._finished(analyser, message)

    def _finished(self, analyser: _Analyser, message: dict[str, Any]) -> None:
        if analyser.timer is not None:
            analyser.timer.cancel()
        ask, analyser.current = analyser.current, None
        if ask is not None:
            message.pop("done", None)
            _answer(ask, message if "stopped" not in message else
                    _stopped(analyser, message["stopped"], self.time_s))
        self._busy.remove(analyser)
        self._idle.append(analyser)
        self._dispatch()

    def _overdue(self, analyser: _Analyser) -> None:
        self._stop(analyser, _stopped(analyser, "timeout", self.time_s))
        self._dispatch()

    def _drop(self, ask: _Ask) -> None:
        if ask in self._waiting:
            self._waiting.remove(ask)
        for analyser in self._busy:
            if analyser.current is ask:
                self._stop(analyser, _cancelled())
                self._dispatch()
                return

    def _stop(self, analyser: _Analyser, answer: dict[str, Any] | None) -> None:
        """Kill and reap ``analyser``; its current request gets ``answer``."""
        if analyser.timer is not None:
            analyser.timer.cancel()
        if analyser.current is not None and answer is not None:
            _answer(analyser.current, answer)
        analyser.current = None
        for pool in (self._idle, self._busy):
            if analyser in pool:
                pool.remove(analyser)
        with contextlib.suppress(RuntimeError):  # no loop any more: the server stopped
            asyncio.get_running_loop().remove_reader(analyser.answers)
        with contextlib.suppress(ProcessLookupError):
            os.kill(analyser.child.pid, signal.SIGKILL)
        for fd in (analyser.requests, analyser.answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        analyser.child.data = b""
        finish_worker(analyser.child, killed=True)


def _child_loop(requests: int, answers: int, *parents: int) -> dict[str, Any]:
    """In the analyser: close the server's ends of the pipes, then serve."""
    for fd in parents:
        os.close(fd)
    return serve_analyses(requests, answers)


def _answer(ask: _Ask, out: dict[str, Any]) -> None:
    if not ask.done.done():
        ask.done.set_result(out)


def _cancelled() -> dict[str, Any]:
    return {"cancelled": True, "problems": [], "svg": None, "puzzle": None}


def _stopped(analyser: _Analyser, why: str, time_s: float) -> dict[str, Any]:
    """The answer of an analysis that stopped: the problems lint found, if it got that
    far, and a note that says why there is no drawing."""
    said = {"timeout": f"took longer than the {time_s:g} s the workshop gives the "
                       "analysis of each edit",
            "memout": "ran out of memory", "crash": "crashed"}.get(why, why)
    note = {"line": None, "column": None, "file": None, "path": None, "level": "warning",
            "message": f"the analysis {said}; "
                       + ("the problems above are lint's, " if analyser.partial else "")
                       + "no drawing (trailkit lint and trailkit draw take any time)"}
    return {"problems": [*(analyser.partial or []), note], "svg": None, "puzzle": None,
            "stopped": why}
