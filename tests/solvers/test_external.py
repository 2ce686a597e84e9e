"""Outside programs (``solvers/support/external.py``): a Ctrl-C never leaves one running."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from trailkit.solvers.support import external


def test_a_ctrl_c_as_the_handler_comes_back_still_kills_the_program(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C noted while the program started is raised as soon as Python's handler is
    back, before ``Popen``'s result reaches anyone who could kill it: the program runs in
    its own session, so the terminal's Ctrl-C misses it. (A busy CI run left one running.)"""
    made: list[subprocess.Popen[str]] = []
    real_popen, real_signal = subprocess.Popen, signal.signal

    class Recorded(real_popen):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    calls: list[object] = []

    def handler_back_then_ctrl_c(number: int, handler: Callable[..., Any] | int) -> Any:
        previous = real_signal(number, handler)
        calls.append(handler)
        if number == signal.SIGINT and len(calls) == 2:  # the handler put back
            raise KeyboardInterrupt
        return previous

    monkeypatch.setattr(external.subprocess, "Popen", Recorded)
    monkeypatch.setattr(external.signal, "signal", handler_back_then_ctrl_c)
    try:
        with pytest.raises(KeyboardInterrupt):
            external.run_program(["sleep", "600"], None)
        assert len(made) == 1
        assert made[0].poll() is not None, "the program outlived the Ctrl-C"
    finally:
        for program in made:
            if program.poll() is None:
                program.kill()
                program.wait()
