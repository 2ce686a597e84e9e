"""Running python-sat solvers under a deadline and a Ctrl-C, with or without proof logging.

Some solvers (Glucose, MapleChrono, MiniSat, ...) can be interrupted: every call is
``solve_limited(expect_interrupt=True)``, which releases the GIL, run by
:func:`~trailkit.solvers.support.interrupts.run_stoppable` so that a passed deadline or a
Ctrl-C calls ``interrupt()``. CaDiCaL, Lingeling and Kissat cannot be interrupted
through python-sat, so a job on them runs in a forked child process that is killed
when time is up or the user presses Ctrl-C (the child ignores Ctrl-C and dies with
its parent). A reached limit is reported as :data:`Verdict.INTERRUPTED` or
:class:`SolverTimeout`, never as UNSAT; a Ctrl-C is a :class:`KeyboardInterrupt`,
whatever the solver was doing. python-sat's own SIGINT handler is switched off
(:func:`~trailkit.solvers.support.interrupts.keep_pysat_off_sigint`: it jumps (``longjmp``) out of
C code) when this module is imported.

Each job gives the signs ``building`` (as it starts) and ``solving`` (at each solver
call) of :mod:`trailkit.solvers.support.signs`, from whichever process runs it.
"""

from __future__ import annotations

import gc
import io
import multiprocessing as mp
import os
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from pysat.solvers import Solver, SolverNames

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.support.interrupts import (
    ignore_interrupts_and_die_with_parent,
    interrupts_held,
    interrupts_reach_here,
    keep_pysat_off_sigint,
    run_stoppable,
)
from trailkit.solvers.support.signs import BUILDING, SOLVING, sign

__all__ = ["DEFAULT_SOLVER", "Deadline", "SolverTimeout", "Verdict", "available_solvers",
           "can_interrupt", "can_prove", "resolve_solver", "run_guarded", "run_or_stopped",
           "solve_call"]

DEFAULT_SOLVER = "cadical195"
"""CaDiCaL 1.9.5, the newest CaDiCaL in python-sat 1.9 that logs proofs."""

keep_pysat_off_sigint()


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
    """One ``solve``: SAT, UNSAT, or INTERRUPTED by the deadline; a Ctrl-C raises
    :class:`KeyboardInterrupt` once the solver has stopped.

    A solver that cannot be interrupted runs to completion here; :func:`run_guarded`
    then enforces the deadline and the Ctrl-C from outside (it runs such a job in a
    child process whenever either can happen).
    """
    sign(SOLVING, name)
    left = None if deadline is None else deadline.remaining()
    if not can_interrupt(name):
        return Verdict.SAT if solver.solve(assumptions=list(assumptions)) else Verdict.UNSAT
    if left is not None and left <= 0:
        return Verdict.INTERRUPTED
    try:
        result = run_stoppable(
            lambda: solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True),
            solver.interrupt, timeout=left)
    except KeyboardInterrupt:  # the call may still run (it did not stop in time), and
        solver.abandoned = True  # freeing a big solver takes a good part of a second
        raise
    solver.clear_interrupt()
    return {True: Verdict.SAT, False: Verdict.UNSAT}.get(result, Verdict.INTERRUPTED)


def run_or_stopped(job: Callable[[Deadline], T], name: str, seconds: float | None
                   ) -> T | None:
    """:func:`run_guarded`, or ``None`` when the time limit killed the job: for the
    certificate makers, to whom a job stopped is an answer ("not certified: the time limit
    was reached"), not an error."""
    try:
        return run_guarded(job, name, seconds)
    except SolverTimeout:
        return None


def run_guarded(job: Callable[[Deadline], T], name: str, seconds: float | None) -> T:
    """Run ``job(deadline)`` and return its result; raise :class:`SolverTimeout` if it
    had to be killed, :class:`KeyboardInterrupt` on Ctrl-C.

    A solver that cannot be interrupted runs in a forked child whenever a deadline or a
    Ctrl-C can stop it: the child is killed after ``seconds``, or at once on Ctrl-C (its
    result comes back pickled through a pipe).
    """
    def signed(deadline: Deadline) -> T:
        sign(BUILDING, name)
        return job(deadline)

    deadline = Deadline(seconds)
    if can_interrupt(name) or (seconds is None and not interrupts_reach_here()):
        return signed(deadline)
    return _in_child(signed, seconds)


def _in_child(signed: Callable[[Deadline], T], seconds: float | None) -> T:
    """:func:`run_guarded` for a solver that cannot be interrupted: ``signed`` runs in a
    forked child (with no deadline of its own), killed after ``seconds`` or at once on
    Ctrl-C; its result, or the exception it raised, comes back pickled through a pipe."""
    ctx = mp.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    parent = os.getpid()

    def child() -> None:
        ignore_interrupts_and_die_with_parent(parent)
        try:
            sender.send_bytes(_dumps(("ok", signed(Deadline(None)))))
        except BaseException as exc:  # report, never hang the parent
            sender.send_bytes(_dumps(("error", exc)))

    process = ctx.Process(target=child, daemon=True)
    try:  # a Ctrl-C lands in poll() or recv() as KeyboardInterrupt; the child is killed
        with interrupts_held():
            process.start()
        sender.close()
        if not receiver.poll(None if seconds is None else max(seconds, 0.0)):
            raise SolverTimeout(f"no answer within {seconds} s")
        kind, value = _loads(receiver.recv_bytes())
    except EOFError:
        kind, value = "error", RuntimeError("the solver process died")
    finally:
        if process.pid is not None:  # started
            if process.is_alive():
                process.kill()
            process.join()
        sender.close()
        receiver.close()
    if kind == "error":
        raise value
    answer: T = value
    return answer


def _dumps(obj: object) -> bytes:
    """``obj`` pickled without the memo where it has no cycles: an UNSAT outcome carries
    the formula, and memoising its millions of small clause lists takes 4x longer."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    try:
        pickler.dump(obj)
    except ValueError:  # a cycle: the memo is needed after all
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return out.getvalue()


def _loads(data: bytes) -> Any:
    """Unpickle with the garbage collector paused: millions of new clause lists would
    set it off again and again (3-4x slower)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()


class _Solver(Solver):
    """A python-sat solver that is left unfreed once a Ctrl-C stopped it (``abandoned``:
    a call may still use it, and the process is about to report the interrupt and exit)."""

    abandoned = False

    def delete(self) -> None:
        if not self.abandoned:
            super().delete()


def new_solver(name: str, clauses: Sequence[Sequence[int]], *, proof: bool = False) -> Any:
    """A python-sat solver loaded with ``clauses`` (proof logging on request)."""
    # python-sat reads any sequence of literals; no copy (a million clauses cost 100s of MB)
    return _Solver(name=name, bootstrap_with=clauses, with_proof=proof)
