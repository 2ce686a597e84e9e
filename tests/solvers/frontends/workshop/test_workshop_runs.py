"""Runs that wait to get ready: a tour design waits for the background compile of the
tour search before it queues, and while it waits it is a run of its slot like any other.

Before, the server awaited the compile *before* the run existed: a design whose page had
gone away (a client that timed out) then started anyway once the compile was done, and
cancelled the newer run its slot had started meanwhile (the board tests failed so on a
loaded machine, "cancelled" instead of "impossible"); the page's Cancel did not reach it.
In-process, with a gate the test opens; the signs are the manager's own counts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from trailkit.solvers.frontends.workshop.jobs import Job
from trailkit.solvers.frontends.workshop.runs import RunManager

ROOT = Path(__file__).resolve().parents[4]
NIKOLAUS = (ROOT / "specs" / "nikolaus.yaml").read_text()


async def _until(sign) -> None:
    """Let the event loop run until ``sign()`` holds (it does within a few turns)."""
    for _ in range(10_000):
        if sign():
            return
        await asyncio.sleep(0)
    raise AssertionError("no sign after 10,000 turns of the event loop")


async def _gated_run(runs: RunManager) -> tuple[asyncio.Future[dict], asyncio.Event]:
    """A run of slot ``t`` that gets ready when the test opens the gate it returns, once
    the manager counts it as getting ready."""
    gate = asyncio.Event()
    run = asyncio.ensure_future(runs.run("t", Job("solve", NIKOLAUS), gate.wait))
    await _until(lambda: runs.busy["readying"] == 1)
    return run, gate


def test_a_run_replaced_while_it_gets_ready_never_starts() -> None:
    async def scenario() -> tuple[dict, dict, dict]:
        runs = RunManager(workers=1, queue=2, memory_mb=2048)
        older, gate = await _gated_run(runs)
        newer = await runs.run("t", Job("solve", NIKOLAUS))
        gate.set()
        old = await older
        left = runs.busy
        runs.close()
        return old, newer, left

    old, newer, left = asyncio.run(scenario())
    assert old["status"] == "cancelled" and newer["status"] == "solved"
    assert left["readying"] == left["running"] == left["waiting"] == 0


def test_a_run_whose_asker_left_while_it_got_ready_never_starts() -> None:
    async def scenario() -> tuple[dict, dict]:
        runs = RunManager(workers=1, queue=2, memory_mb=2048)
        older, gate = await _gated_run(runs)
        older.cancel()  # the request went away (the server cancels its task)
        await _until(lambda: runs.busy["readying"] == 0)
        newer = asyncio.ensure_future(runs.run("t", Job("solve", NIKOLAUS)))
        gate.set()  # the compile ends: nothing of the older run may start now
        answer = await newer
        left = runs.busy
        runs.close()
        return answer, left

    answer, left = asyncio.run(scenario())
    assert answer["status"] == "solved"
    assert left["readying"] == left["running"] == left["waiting"] == 0


def test_cancel_reaches_a_run_getting_ready() -> None:
    async def scenario() -> tuple[int, dict, dict]:
        runs = RunManager(workers=1, queue=2, memory_mb=2048)
        waiting, _ = await _gated_run(runs)
        cancelled = runs.cancel("t")
        answer = await waiting  # at once: the gate is still shut
        left = runs.busy
        runs.close()
        return cancelled, answer, left

    cancelled, answer, left = asyncio.run(scenario())
    assert cancelled == 1 and answer["status"] == "cancelled"
    assert left["readying"] == left["running"] == 0
