"""The workshop's background compile runs once per machine: a second warm-up waits for
the first's lock instead of compiling beside it (a test suite starts dozens of
workshops on a fresh install, each of which would otherwise compile for half a minute)."""

from __future__ import annotations

import subprocess
import sys
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
