"""Starting ``trailkit serve`` for the workshop tests: a subprocess, waited for by its
first line of standard output (the URL), never by a fixed sleep; stopped with Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

TRAILKIT = [sys.executable, "-m", "trailkit.solvers.frontends.cli"]


@dataclass
class Served:
    """A running workshop: its process, URL, address and token."""

    process: subprocess.Popen[str]
    url: str

    @property
    def base(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]

    def workers(self) -> list[int]:
        """The pids of the server's workers now: the children it forked (run workers and
        analysers, whose command line is the server's own). The warm-up compile, a
        process started with a command of its own, is not one: on a loaded machine it
        may still run when a test looks."""
        own = f"/proc/{self.process.pid}"
        try:
            text = Path(f"{own}/task/{self.process.pid}/children").read_text()
            command = Path(f"{own}/cmdline").read_bytes()
        except OSError:
            return []
        return [int(p) for p in text.split() if _command(int(p)) == command]

    def stop(self) -> int:
        """Ctrl-C, then the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def _command(pid: int) -> bytes | None:
    """The command line of process ``pid`` (``None``: it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def start(folder: Path | None, *extra: str) -> Served:
    """``trailkit serve [FOLDER] --port 0``, once its URL is printed."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    args = [*TRAILKIT, "serve", *([str(folder)] if folder else []), "--port", "0", *extra]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    line = process.stdout.readline().strip() if process.stdout else ""
    if not line.startswith("http://"):
        process.kill()
        raise AssertionError(f"no URL on the first line: {line!r}; stderr: "
                             f"{process.stderr.read() if process.stderr else ''}")
    return Served(process, line)
