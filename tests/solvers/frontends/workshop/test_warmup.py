"""The workshop's background compile runs once per machine: a second warm-up waits for
the first's lock instead of compiling beside it (a test suite starts dozens of
workshops on a fresh install, each of which would otherwise compile for half a minute)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trailkit.solvers.frontends.workshop.warmup import lock_path, one_at_a_time

#: Another process asks for the lock without waiting, and says whether it got it.
_TRY = """
import fcntl
from trailkit.solvers.frontends.workshop.warmup import lock_path
with open(lock_path(), "a") as lock:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("held")
    else:
        print("free")
"""


def _other_process_finds() -> str:
    return subprocess.run([sys.executable, "-c", _TRY], capture_output=True, text=True,
                          timeout=120, check=True).stdout.strip()


def test_a_warm_up_holds_the_lock_others_wait_for() -> None:
    with one_at_a_time():
        assert _other_process_finds() == "held"
    assert _other_process_finds() == "free"


def test_the_lock_is_one_file_per_installation() -> None:
    assert lock_path() == lock_path()
    assert lock_path().name.startswith("trailkit-warmup-")


def test_a_lock_file_that_cannot_be_opened_holds_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Another user's file (or a folder) at the lock's path: the warm-up runs unlocked,
    as it did before there was a lock, instead of failing."""
    import trailkit.solvers.frontends.workshop.warmup as warmup

    blocked = tmp_path / "a-folder"
    blocked.mkdir()
    monkeypatch.setattr(warmup, "lock_path", lambda: blocked)
    ran = []
    with one_at_a_time():
        ran.append(True)
    assert ran == [True]


#: A stand-in for the compile: applies the low priority as warm_once does (unless
#: ``--now``), writes its niceness into a file named by its pid, then waits until the
#: file ``go`` appears (the test's sign to finish).
_STAND_IN = """
import os, sys, time
from pathlib import Path
folder = Path(sys.argv[1])
if "--now" not in sys.argv[2:]:
    os.nice(10)
(folder / str(os.getpid())).write_text(str(os.nice(0)))
while not (folder / "go").exists():
    time.sleep(0.05)
"""


def _niceness_of(folder: Path, process: subprocess.Popen[bytes]) -> int:
    said = folder / str(process.pid)
    waited = 0
    while not said.exists() or not said.read_text():  # its sign: it has started
        assert process.poll() is None and waited < 1200, "the stand-in never started"
        waited += 1
        time.sleep(0.05)
    return int(said.read_text())


def test_a_design_that_waits_hurries_the_compile_to_normal_priority(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """At low priority beside two busy loops, the compile got a tenth of a core and a
    waiting tour design gave up after five minutes: once someone waits, a compile at
    normal priority takes the low one's place, and the wait lasts until it is done."""
    import trailkit.solvers.frontends.workshop.warmup as warmup

    monkeypatch.setattr(warmup, "_COMMAND", [sys.executable, "-c", _STAND_IN, str(tmp_path)])
    base = os.nice(0)
    compile_ = warmup.Warmup(needed=True, seconds=120).start()
    try:
        first = compile_._process
        assert first is not None and _niceness_of(tmp_path, first) == min(base + 10, 19)
        compile_.hurry()
        second = compile_._process
        assert second is not None and second is not first
        assert first.wait(timeout=60) != 0  # killed
        assert _niceness_of(tmp_path, second) == base
        assert compile_.compiling  # the first one's end is not the compile's
        compile_.hurry()  # once only
        assert compile_._process is second
        (tmp_path / "go").touch()
        assert compile_._done.wait(timeout=60) and not compile_.compiling
        assert second.poll() == 0
    finally:
        compile_.close()
