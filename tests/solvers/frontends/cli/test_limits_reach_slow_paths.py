"""``--time-limit`` reaches the slowest path of every command: exit 3 (or 1 for explain)
with what was done, never a run past its limit.

These ran with the Ctrl-C tests of ``test_interrupts.py`` (on a machine of their own,
after the parallel part of the README's test command). They press no key and time
nothing closely: the limit is 2 s and the bound (``timeout``) is for a loaded machine,
so they run in the parallel part. How close to the limit a run ends is measured by
``tests/bench/``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from ctrl_c import write_slow_puzzles


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_slow_puzzles(tmp_path_factory.mktemp("limits"))


#: (name, the command with --time-limit 2, the exit code, what stdout must show).
TIME_LIMITED = [
    ("count exact K11", ["count", "{k11-ring}"], 3, "at least "),
    ("count exact double-ten", ["count", "{double-ten}"], 3, "at least "),
    ("count exact K11 --json", ["count", "{k11-ring}", "--json"], 3, '"status": "unknown"'),
    ("explain K12", ["explain", "{k12}"], 1, "within the limits"),
]


@pytest.mark.parametrize(("args", "code", "shown"), [case[1:] for case in TIME_LIMITED],
                         ids=[case[0] for case in TIME_LIMITED])
def test_the_time_limit_reaches_every_slow_path(puzzles: dict[str, str], args: list[str],
                                                code: int, shown: str) -> None:
    """``count`` on K11 or the double-ten set with --time-limit 20 ran past 110 s (hours,
    in fact): the limit never reached the compiled sum."""
    done = subprocess.run(
        [sys.executable, "-m", "trailkit.solvers.frontends.cli",
         *[arg.format_map(puzzles) for arg in args], "--time-limit", "2"],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert shown in done.stdout, done.stdout[-2000:]
    assert "Traceback" not in done.stderr
