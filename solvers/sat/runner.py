"""Running python-sat solvers under a deadline, with or without proof logging.

Some solvers (Glucose, MapleChrono, MiniSat, ...) can be interrupted: a
``threading.Timer`` calls ``interrupt()`` and ``solve_limited`` returns ``None``.
CaDiCaL, Lingeling and Kissat cannot be interrupted through python-sat, so a job
with a deadline on them runs in a forked child process that is killed when time
is up. Either way a reached limit is reported as :data:`Verdict.INTERRUPTED` or
:class:`SolverTimeout`, never as UNSAT.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import sys
import threading
import time
from collections.abc import Callable, Sequence
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from pysat.solvers import Solver, SolverNames

from trailkit.models.errors import BackendUnavailable

__all__ = ["DEFAULT_SOLVER", "Deadline", "SolverTimeout", "Verdict", "available_solvers",
           "can_interrupt", "can_prove", "resolve_solver", "run_guarded", "solve_call"]

DEFAULT_SOLVER = "cadical195"
"""CaDiCaL 1.9.5, the newest CaDiCaL in python-sat 1.9 that logs proofs."""



class Verdict(Enum):
    """What one solver call said."""

    SAT = "sat"
    UNSAT = "unsat"
    INTERRUPTED = "interrupted"  # the deadline stopped it


class SolverTimeout(Exception):
    """:func:`run_guarded` killed a job that ran past its time limit."""
T = TypeVar("T")


def available_solvers() -> list[str]:
    """The canonical python-sat solver names (``SolverNames``), sorted."""
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def resolve_solver(option: str) -> str:
    """The canonical solver name for ``option`` ("" = the default); aliases allowed.

    Raises :class:`BackendUnavailable` listing the available names.
    """
    if not option:
        return DEFAULT_SOLVER
    wanted = option.lower()
    for name in available_solvers():
        if wanted == name or wanted in getattr(SolverNames, name):
            if not _constructible(name):
                raise BackendUnavailable(
                    f"the SAT solver {option!r} is not built into this python-sat; choose from "
                    f"{', '.join(n for n in available_solvers() if _constructible(n))}")
            return name
    raise BackendUnavailable(
        f"unknown SAT solver {option!r}; choose from "
        f"{', '.join(n for n in available_solvers() if _constructible(n))}")


@cache
def _constructible(name: str) -> bool:
    try:
        Solver(name=name).delete()
    except Exception:  # python-sat raises NoSuchSolverError or others for missing builds
        return False
    return True


@cache
def can_interrupt(name: str) -> bool:
    """Whether python-sat can interrupt ``name`` (tried once, cached)."""
    solver = Solver(name=name)
    try:
        solver.interrupt()
        solver.clear_interrupt()
        return True
    except NotImplementedError:
        return False
    finally:
        solver.delete()


NO_USABLE_PROOF = {
    "maplesat": "python-sat 1.9's Maplesat writes variable v as v + 1 in its proof",
    "mergesat3": "python-sat accepts with_proof=True but get_proof() raises NotImplementedError",
}


@cache
def can_prove(name: str) -> bool:
    """Whether python-sat logs a usable DRUP proof for ``name`` (see ``NO_USABLE_PROOF``)."""
    if name in NO_USABLE_PROOF:
        return False
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None  # python-sat's __del__ fails on the half-built solver
    try:
        Solver(name=name, with_proof=True).delete()
        return True
    except Exception:  # NotImplementedError, or a solver this python-sat build lacks
        return False
    finally:
        gc.collect()
        sys.unraisablehook = hook


class Deadline:
    """An absolute deadline (``None``: no limit), shared by every solver call of one job."""

    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        return None if self.at is None else self.at - time.monotonic()

    def passed(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0


def solve_call(solver: Solver, name: str, assumptions: Sequence[int] = (),
               deadline: Deadline | None = None) -> Verdict:
    """One ``solve``: SAT, UNSAT, or INTERRUPTED by the deadline.

    Without interrupt support the call runs to completion; :func:`run_guarded`
    then enforces the deadline from outside.
    """
    left = None if deadline is None else deadline.remaining()
    if left is None or not can_interrupt(name):
        return Verdict.SAT if solver.solve(assumptions=list(assumptions)) else Verdict.UNSAT
    if left <= 0:
        return Verdict.INTERRUPTED
    timer = threading.Timer(left, solver.interrupt)
    timer.start()
    try:
        result = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    finally:
        timer.cancel()
        solver.clear_interrupt()
    return {True: Verdict.SAT, False: Verdict.UNSAT}.get(result, Verdict.INTERRUPTED)


def run_guarded(job: Callable[[Deadline], T], name: str, seconds: float | None) -> T:
    """Run ``job(deadline)`` and return its result; raise :class:`SolverTimeout` if it
    had to be killed.

    A solver that cannot be interrupted runs in a forked child that is killed after
    ``seconds`` (its result comes back pickled through a pipe).
    """
    deadline = Deadline(seconds)
    if seconds is None or can_interrupt(name):
        return job(deadline)
    ctx = mp.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)

    def child() -> None:
        try:
            sender.send(("ok", job(Deadline(None))))
        except BaseException as exc:  # report, never hang the parent
            sender.send(("error", exc))

    process = ctx.Process(target=child, daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(max(seconds, 0.0)):
            raise SolverTimeout(f"no answer within {seconds} s")
        kind, value = receiver.recv()
    except EOFError:
        kind, value = "error", RuntimeError("the solver process died")
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if kind == "error":
        raise value
    return value


def new_solver(name: str, clauses: Sequence[Sequence[int]], *, proof: bool = False) -> Any:
    """A python-sat solver loaded with ``clauses`` (proof logging on request)."""
    # python-sat reads any sequence of literals; no copy (a million clauses cost 100s of MB)
    return Solver(name=name, bootstrap_with=clauses, with_proof=proof)
