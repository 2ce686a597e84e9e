"""Running python-sat solvers under a deadline and a Ctrl-C, with or without proof logging.

Some solvers (Glucose, MapleChrono, MiniSat, ...) can be interrupted: every call is
``solve_limited(expect_interrupt=True)``, which releases the GIL, run by
:func:`~trailkit.solvers.support.interrupts.run_stoppable` so that a passed deadline or a
Ctrl-C calls ``interrupt()``. CaDiCaL, Lingeling and Kissat cannot be interrupted
through python-sat, so a job on them runs in a forked child process that is killed
when time is up or the user presses Ctrl-C (the child ignores Ctrl-C and dies with
its parent). A job on a small puzzle is first tried in this process, each CaDiCaL call
under a conflict budget that keeps it short: most finish there, and a fork of a big
process costs more than their whole solve (``docs/benchmarks.md``); a call that runs out
of budget sends the whole job to the child. A reached limit is reported as
:data:`Verdict.INTERRUPTED` or :class:`SolverTimeout`, never as UNSAT; a Ctrl-C is a
:class:`KeyboardInterrupt`, whatever the solver was doing. python-sat's own SIGINT
handler is switched off (:func:`~trailkit.solvers.support.interrupts.keep_pysat_off_sigint`:
it jumps (``longjmp``) out of C code) when this module is imported.

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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from pysat.solvers import Solver, SolverNames

from trailkit.models.errors import BackendUnavailable
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.support.interrupts import (
    ignore_interrupts_and_die_with_parent,
    interrupts_held,
    interrupts_reach_here,
    keep_pysat_off_sigint,
    run_stoppable,
)
from trailkit.solvers.support.signs import BUILDING, SOLVING, sign

__all__ = ["DEFAULT_SOLVER", "TRIAL_CLAUSES", "TRIAL_CONFLICTS", "TRIAL_SIZE", "Deadline",
           "SolverTimeout", "Verdict", "available_solvers", "can_budget", "can_interrupt",
           "can_prove", "resolve_solver", "run_guarded", "run_or_stopped", "small_puzzle",
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
def can_budget(name: str) -> bool:
    """Whether python-sat keeps ``name`` to a conflict budget (``conf_budget`` then
    ``solve_limited``) and says how many clauses it holds (tried once, cached): CaDiCaL
    does, Kissat and Lingeling do not."""
    solver = Solver(name=name, bootstrap_with=_pigeonholes(5))
    try:
        solver.conf_budget(1)
        return solver.solve_limited() is None and solver.nof_clauses() > 0
    except NotImplementedError:
        return False
    finally:
        solver.delete()


def _pigeonholes(holes: int) -> list[list[int]]:
    """One pigeon more than ``holes``, each in a hole of its own: unsatisfiable, and refuted
    only after many conflicts (variable ``p * holes + h + 1``: pigeon p in hole h)."""
    def var(p: int, h: int) -> int:
        return p * holes + h + 1
    somewhere = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    alone = [[-var(p, h), -var(q, h)] for h in range(holes)
             for p in range(holes + 1) for q in range(p + 1, holes + 1)]
    return somewhere + alone


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
        trial = _TRIAL.get()
        if trial is not None:
            return _trial_call(solver, assumptions, trial)
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


def run_or_stopped(job: Callable[[Deadline], T], name: str, seconds: float | None, *,
                   small: bool = False) -> T | None:
    """:func:`run_guarded`, or ``None`` when the time limit killed the job: for the
    certificate makers, to whom a job stopped is an answer ("not certified: the time limit
    was reached"), not an error."""
    try:
        return run_guarded(job, name, seconds, small=small)
    except SolverTimeout:
        return None


TRIAL_SIZE = 64
"""A puzzle of at most this many edges and nodes (:func:`small_puzzle`): its formulas are
built in milliseconds, so a job on it may be tried in this process first."""
TRIAL_CLAUSES = 30_000
"""A tried job's solver call on more clauses than this goes to the child at once."""
TRIAL_CONFLICTS = 2_000
"""The conflict budget of each solver call of a tried job. Most calls on a small puzzle
need a few dozen conflicts; one that runs out of the budget took at most 0.21 s within
:data:`TRIAL_CLAUSES` (``docs/benchmarks.md``), which is all a limit or a Ctrl-C waits."""


def small_puzzle(puzzle: Puzzle) -> bool:
    """Whether a job on ``puzzle`` may be tried in this process first (``small`` of
    :func:`run_guarded`): at most :data:`TRIAL_SIZE` edges and nodes."""
    return puzzle.num_edges <= TRIAL_SIZE and len(puzzle.nodes) <= TRIAL_SIZE


class _TooBigToTry(BaseException):
    """A tried job's solver call ran out of its budget: the job goes to the child. (Not an
    :class:`Exception`, which a job may catch.)"""


class _TrialTimedOut(BaseException):
    """A tried job reached its deadline between solver calls: :class:`SolverTimeout`."""


_TRIAL: ContextVar[Deadline | None] = ContextVar("sat_trial", default=None)
"""The deadline of the job being tried in this process, if one is."""


def run_guarded(job: Callable[[Deadline], T], name: str, seconds: float | None, *,
                small: bool = False) -> T:
    """Run ``job(deadline)`` and return its result; raise :class:`SolverTimeout` if it
    had to be killed, :class:`KeyboardInterrupt` on Ctrl-C.

    A solver that cannot be interrupted runs in a forked child whenever a deadline or a
    Ctrl-C can stop it: the child is killed after ``seconds``, or at once on Ctrl-C (its
    result comes back pickled through a pipe). With ``small`` (the job builds formulas
    in milliseconds: :func:`small_puzzle`) and a solver kept to a budget
    (:func:`can_budget`), the job is first tried in this process, as it would run in the
    child: each solver call within :data:`TRIAL_CONFLICTS` conflicts, the deadline looked
    at before each call (a Ctrl-C meets the job between them); the first call that needs
    more, or holds over :data:`TRIAL_CLAUSES` clauses, sends the job to the child with the
    time that is left.
    """
    def signed(deadline: Deadline) -> T:
        sign(BUILDING, name)
        return job(deadline)

    deadline = Deadline(seconds)
    if can_interrupt(name) or (seconds is None and not interrupts_reach_here()):
        return signed(deadline)
    if small and can_budget(name):
        try:
            with _trying(deadline):
                return signed(Deadline(None))
        except _TooBigToTry:
            seconds = deadline.remaining()
            seconds = None if seconds is None else max(seconds, 0.0)
        except _TrialTimedOut:
            raise SolverTimeout(f"no answer within {seconds} s") from None
    return _in_child(signed, seconds)


@contextmanager
def _trying(deadline: Deadline) -> Iterator[None]:
    """Within the block, :func:`solve_call` on a solver that cannot be interrupted is one
    budgeted call (:func:`_trial_call`) with ``deadline``."""
    token = _TRIAL.set(deadline)
    try:
        yield
    finally:
        _TRIAL.reset(token)


def _trial_call(solver: Solver, assumptions: Sequence[int], deadline: Deadline) -> Verdict:
    """A tried job's solver call: its verdict within :data:`TRIAL_CONFLICTS` conflicts, or
    :class:`_TooBigToTry`; :class:`_TrialTimedOut` once ``deadline`` has passed."""
    if deadline.passed():
        raise _TrialTimedOut
    if solver.nof_clauses() > TRIAL_CLAUSES:
        raise _TooBigToTry
    solver.conf_budget(TRIAL_CONFLICTS)
    result = solver.solve_limited(assumptions=list(assumptions))
    if result is None:
        raise _TooBigToTry
    return Verdict.SAT if result else Verdict.UNSAT


def _in_child(signed: Callable[[Deadline], T], seconds: float | None) -> T:
    """:func:`run_guarded` for a solver that cannot be interrupted: ``signed`` runs in a
    forked child (with no deadline of its own), killed after ``seconds`` or at once on
    Ctrl-C; its result, or the exception it raised, comes back pickled through a pipe."""
    ctx = mp.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    parent = os.getpid()

    def child() -> None:
        _TRIAL.set(None)  # the parent's trial, if any, is over
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
