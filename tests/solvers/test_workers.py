"""A forked worker holds none of its parent's connections.

The workshop forks its analysers and run workers from the server process while browsers'
connections are open. An analyser (long-lived) that kept such a connection kept it alive
after the server closed its own end; the browser saw no close, sent its next request (a
Save) on it, and waited forever: the workshop's page test failed that way on loaded
machines. These tests hold the child alive while they look, and wait for a sign (the
peer's end-of-file, the child's answer), never a fixed time.
"""

from __future__ import annotations

import os
import select
import socket
import stat
from collections.abc import Iterator

import pytest

from trailkit.solvers.support.workers import Worker, finish_worker, start_worker

SIGN_S = 60.0
"""The longest a test waits for a sign that comes at once when all is well."""


@pytest.fixture
def held_child() -> Iterator[tuple[int, int]]:
    """A pipe whose read end a worker child blocks on (it stays alive until the test
    writes a byte), and whose write end the test holds: (read end, write end)."""
    release, hold = os.pipe()
    yield release, hold
    os.close(release)
    os.close(hold)


def _wait_for_eof(sock: socket.socket) -> bytes | None:
    """What ``sock`` reads once it is readable (``b""``: end of file), or ``None`` when
    nothing came within :data:`SIGN_S`."""
    ready, _, _ = select.select([sock], [], [], SIGN_S)
    return sock.recv(1) if ready else None


def test_a_connection_closed_by_the_parent_closes_while_its_worker_runs(
        held_child: tuple[int, int]) -> None:
    release, hold = held_child
    ours, browser = socket.socketpair()
    child = start_worker(lambda: _held(release, hold), wall_s=SIGN_S, memory_mb=None)
    try:
        ours.close()  # the server closes its end: the browser must see the close now
        assert _wait_for_eof(browser) == b"", \
            "the worker kept the parent's connection open"
    finally:
        os.write(hold, b"x")  # the child reads it and answers
        result = _answer(child)
        browser.close()
    assert result["read"] == 1


def test_a_worker_child_keeps_its_numbers_and_its_pipes(held_child: tuple[int, int]) -> None:
    """The sockets are let go of in place (their numbers are ``/dev/null`` now, so a
    parent's object still holding one writes nowhere harmful); pipes are untouched."""
    release, hold = held_child
    ours, browser = socket.socketpair()
    number = ours.fileno()

    def job() -> dict[str, object]:
        os.write(number, b"lost")  # /dev/null takes it
        return {"socket": _kind(number), "pipe": _kind(release), **_held(release, hold)}

    child = start_worker(job, wall_s=SIGN_S, memory_mb=None)
    os.write(hold, b"x")
    result = _answer(child)
    browser.setblocking(False)
    with pytest.raises(BlockingIOError):
        browser.recv(4)  # nothing the child wrote reached the connection
    ours.close()
    browser.close()
    assert (result["socket"], result["pipe"], result["read"]) == ("char", "fifo", 1)


def _held(release: int, hold: int) -> dict[str, object]:
    """In the child: block until the test writes a byte (or, should the test fail first,
    closes its end: the child's own copy is closed first); how many bytes came."""
    os.close(hold)
    return {"status": "ok", "read": len(os.read(release, 1))}


def _kind(fd: int) -> str:
    mode = os.fstat(fd).st_mode
    return "char" if stat.S_ISCHR(mode) else "fifo" if stat.S_ISFIFO(mode) \
        else "socket" if stat.S_ISSOCK(mode) else "other"


def _answer(child: Worker) -> dict[str, object]:
    """The worker's answer, read from its pipe until it closes (bounded by its deadline)."""
    data = bytearray()
    while True:
        ready, _, _ = select.select([child.fd], [], [], SIGN_S)
        chunk = os.read(child.fd, 1 << 16) if ready else b""
        if not chunk:
            break
        data += chunk
    child.data = data
    result = finish_worker(child, killed=not ready)
    assert result.get("status") != "crash", result
    return result
