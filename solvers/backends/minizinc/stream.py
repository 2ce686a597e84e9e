"""Running the ``minizinc`` executable on a model and reading its ``--json-stream``.

Why the executable and not the ``minizinc`` Python package: the package hands the time
limit to MiniZinc, whose own limit does not cover flattening, and runs the process
from an asyncio event loop; trailkit needs the process killed at its deadline
whatever MiniZinc is doing, and a Ctrl-C to stop it at once, which one child process
in its own session (:mod:`trailkit.solvers.support.external`) gives without an event loop.
``--json-stream`` is MiniZinc's documented machine interface: one JSON object per
line (``solution``, ``status``, ``statistics``, ``error``, ``warning``), which is all
the package reads too.

MiniZinc's warnings (Debian's Gecode library overrides globals, which MiniZinc 2.6
calls deprecated) are kept out of the user's face: they are kept in
:attr:`Run.messages` and shown only when the run fails.
"""

from __future__ import annotations

import functools
import json
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.support.external import require_program, run_program

__all__ = ["INSTALL", "Run", "check_solver", "run_minizinc", "solver_ids"]

INSTALL = ("on Debian or Ubuntu: apt-get install minizinc (MiniZinc 2.6 with Gecode); "
           "elsewhere: https://www.minizinc.org/")


@dataclass
class Run:
    """What one MiniZinc run said: the ``succ`` arrays of its solutions in order, its final
    status (``OPTIMAL_SOLUTION``, ``UNSATISFIABLE``, ``ALL_SOLUTIONS``, ``UNKNOWN``, or
    ``""`` when it printed none), the flattening and solving times it reported, and
    whether trailkit killed it at the limit."""

    solutions: list[list[int]] = field(default_factory=list)
    status: str = ""
    flatten_s: float | None = None
    solve_s: float | None = None
    killed: bool = False
    wall_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    statistics: dict[str, Any] = field(default_factory=dict)


@functools.cache
def solver_ids(executable: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The solver configurations the installed MiniZinc lists: (id, tags) pairs."""
    done = subprocess.run([executable, "--solvers-json"], capture_output=True, text=True,
                          check=False)
    try:
        listed = json.loads(done.stdout)
    except json.JSONDecodeError:
        return ()
    return tuple((str(s.get("id", "")), tuple(s.get("tags", ()))) for s in listed)


def check_solver(solver: str) -> str:
    """The ``minizinc`` executable's path, once ``solver`` is known to be one it lists
    (an id such as ``org.gecode.gecode``, its last part ``gecode``, or a tag such as
    ``cp-sat``); else :class:`BackendUnavailable` naming what it lists."""
    executable = require_program("minizinc", INSTALL)
    listed = solver_ids(executable)
    for ident, tags in listed:
        if solver in (ident, ident.rsplit(".", 1)[-1], *tags):
            return executable
    names = ", ".join(ident.rsplit(".", 1)[-1] for ident, _ in listed) or "none"
    raise BackendUnavailable(f"MiniZinc lists no solver {solver!r} (it lists: {names}); "
                             "install the solver and its MiniZinc configuration, then "
                             "check with: minizinc --solvers")


def _read(line: str, run: Run) -> None:
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        run.messages.append(line)
        return
    kind = item.get("type")
    if kind == "solution":
        run.solutions.append(list(item["output"]["json"]["succ"]))
    elif kind == "status":
        run.status = str(item.get("status", ""))
    elif kind == "statistics":
        stats = item.get("statistics", {})
        run.statistics.update(stats)
        if "flatTime" in stats:
            run.flatten_s = float(stats["flatTime"])
        if "solveTime" in stats:
            run.solve_s = float(stats["solveTime"])
    elif kind == "error":
        run.errors.append(f"{item.get('what', 'error')}: {item.get('message', '')}")
    else:
        run.messages.append(str(item.get("message", line)))


def run_minizinc(executable: str, solver: str, model_text: str, time_limit: float | None,
                 *, all_solutions: bool = False, solution_limit: int | None = None,
                 memory_mb: int | None = None) -> Run:
    """Solve ``model_text`` with ``minizinc --solver SOLVER``; killed shortly after
    ``time_limit`` seconds if it has not stopped (its own ``--time-limit`` is given too);
    with ``memory_mb`` its address space (and its solver's, a child of it) is capped
    there, as every run is bounded."""
    with tempfile.TemporaryDirectory(prefix="trailkit-mzn-") as tmp:
        path = Path(tmp) / "model.mzn"
        path.write_text(model_text, encoding="utf-8")
        argv: list[str] = [executable, "--solver", solver, "--json-stream",
                           "--output-mode", "json", "--statistics"]
        if time_limit is not None:
            argv += ["--time-limit", str(max(1, int(time_limit * 1000)))]
        if all_solutions:
            argv.append("--all-solutions")
        if solution_limit is not None:
            argv += ["--num-solutions", str(solution_limit)]
        done = run_program([*argv, str(path)], time_limit, cwd=tmp, memory_mb=memory_mb)
    run = Run(killed=done.killed, wall_s=done.wall_s)
    for line in done.stdout.splitlines():
        if line.strip():
            _read(line, run)
    if done.returncode != 0 and not done.killed and not run.errors:
        run.errors.append(f"minizinc exited with code {done.returncode}")
    if done.stderr.strip():
        run.messages.append(done.stderr.strip())
    return run


def describe_failure(run: Run, solver: str) -> str:
    """What went wrong, in one message: the errors (else MiniZinc's last words)."""
    said: Sequence[str] = run.errors or run.messages[-3:]
    return f"minizinc --solver {solver} failed: " + "; ".join(s.strip() for s in said)[:1500]
