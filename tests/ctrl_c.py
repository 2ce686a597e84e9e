"""Pressing Ctrl-C at a known moment: the helper of ``test_interrupts.py`` and
``bench/bench_interrupts.py``.

:func:`ctrl_c` starts ``trailkit`` in a session of its own with ``TRAILKIT_TEST_SIGNS=1``,
waits for the stderr line that says the phase to interrupt has begun (``trailkit:
building with cadical195``, ``trailkit: solving with cpsat``), presses Ctrl-C (SIGINT
to the whole process group, as a terminal does, or to trailkit alone, as ``kill -INT``
does) and returns what happened; it fails if anything of the session is left running.

The puzzles of :func:`write_slow_puzzles` keep each phase going for long: an Euler
trail in K6 (every node odd) is a parity argument SAT solvers need minutes for once
the pre-check is off; K12 keeps CP-SAT busy; the generated 200-node trail takes
seconds to encode for SAT and K61 for CP-SAT; the longest trail in K8 keeps
``direct``'s exhaustive search going; K7's Euler circuits are too many to enumerate,
and K11's (and the double-ten set's) too many to count even by formula (the sum over
Eulerian orientations takes hours).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["EXIT_TIMEOUT_S", "Interrupted", "ctrl_c", "write_slow_puzzles"]

#: How long a phase may take to begin (a big formula, a loaded machine).
SIGN_TIMEOUT_S = 240.0
#: How long the exit after the Ctrl-C may take here (within a second on an idle machine).
EXIT_TIMEOUT_S = 20.0


@dataclass
class Interrupted:
    """What a run did after its Ctrl-C."""

    code: int
    out: str
    err: str
    seconds: float  # from the Ctrl-C to the exit


def ctrl_c(args: list[str], sign: str, *, whole_group: bool = True,
           after: float = 0.0) -> Interrupted:
    """Run trailkit, press Ctrl-C once the stderr line starting with ``sign`` appears
    (``after`` seconds later: the benchmark samples moments inside a phase; a test
    presses at the sign itself)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "trailkit.solvers.frontends.cli", *args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "TRAILKIT_TEST_SIGNS": "1"})
    err: list[str] = []
    out: list[str] = []
    seen = threading.Event()  # the sign, or the end of stderr

    def read_err() -> None:
        for line in process.stderr:  # type: ignore[union-attr]
            err.append(line)
            if line.startswith(sign):
                seen.set()
        seen.set()

    def read_out() -> None:
        out.append(process.stdout.read())  # type: ignore[union-attr]

    readers = [threading.Thread(target=read_err), threading.Thread(target=read_out)]
    for reader in readers:
        reader.start()
    try:
        seen.wait(SIGN_TIMEOUT_S)
        assert any(line.startswith(sign) for line in err), \
            f"no {sign!r} on stderr: {''.join(err)[-2000:]}"
        time.sleep(after)
        pressed = time.monotonic()
        try:
            if whole_group:
                os.killpg(process.pid, signal.SIGINT)
            else:
                process.send_signal(signal.SIGINT)
        except ProcessLookupError:  # it had already ended: its exit code tells the rest
            pass
        try:
            code = process.wait(EXIT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {EXIT_TIMEOUT_S:g} s after the Ctrl-C: "
                                 f"{''.join(err)[-2000:]}") from None
        seconds = time.monotonic() - pressed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for reader in readers:
            reader.join()
    assert_nothing_left(process.pid)
    return Interrupted(code, "".join(out), "".join(err), seconds)


def assert_clean_interrupt(run: Interrupted) -> None:
    """Exit 130, "interrupted" said, no traceback."""
    assert run.code == 130, (run.code, run.err[-2000:])
    assert "interrupted" in run.err
    assert "Traceback" not in run.err and "INTERNAL" not in run.err, run.err[-2000:]


def assert_nothing_left(group: int) -> None:
    """The session's process group is empty (a helper killed with its parent may take
    a moment to be reaped)."""
    deadline = time.monotonic() + EXIT_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(group, signal.SIGKILL)
    raise AssertionError("a process of the interrupted run was still running")


# ------------------------------------------------------------------ puzzles
def _complete(n: int, *, closed: bool = False, rules: str = "") -> str:
    """The complete graph K``n`` as a trail (or as a walk with ``rules``)."""
    edges = ", ".join(f"{a} {b}" for a in range(n) for b in range(a + 1, n))
    kind = "walk" if rules else "trail"
    ring = "closed: true\n" if closed else ""
    return f"trailkit: 1\nkind: {kind}\n{rules}{ring}edges: [{edges}]\n"


def _double_ten() -> str:
    """The double-ten domino set: 66 dominoes on pips 0..10."""
    dominoes = ", ".join(f"[{a}, {b}]" for a in range(11) for b in range(a, 11))
    return f"trailkit: 1\nkind: domino-chain\ndominoes: [{dominoes}]\n"


def write_slow_puzzles(folder: Path) -> dict[str, str]:
    """Write the slow puzzles into ``folder``; their paths by name (see the module
    docstring for why each is slow)."""
    from trailkit.solvers.frontends.cli import main

    texts = {
        "k6": _complete(6),  # odd degrees: no trail, hard for SAT without the pre-check
        "k12": _complete(12),
        "k7-ring": _complete(7, closed=True),  # many Euler circuits to enumerate
        "k61-ring": _complete(61, closed=True),  # a big CP-SAT model
        "longest-k8": _complete(8, rules="use: at-most-once\nobjective: longest\n"),
        "longest-k6": _complete(6, rules="use: at-most-once\nobjective: longest\n"),
        "k11-ring": _complete(11, closed=True),  # ~4.8e10 Eulerian orientations to sum
        "double-ten": _double_ten(),  # K11 with a double at every pip: as many
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = str(folder / f"{name}.yaml")
        Path(paths[name]).write_text(text)
    paths["trail-200"] = str(folder / "trail-200.yaml")
    assert main(["generate", "trail", "--size", "200", "--seed", "3", "--solvable", "yes",
                 "--out", paths["trail-200"]]) == 0
    return paths
