"""The ``minizinc:SOLVER`` backend: the puzzle's MiniZinc model, solved by any solver the
installed MiniZinc lists (``minizinc:gecode``, ``minizinc:chuffed``, ``minizinc:cp-sat``).

The model is :func:`trailkit.models.encodings.minizinc_model.minizinc_model`'s, the very text
``export --format mzn`` writes. Answers go through the pipeline like every backend's:
a walk is decoded from the solution's ``succ`` array and verified by the independent
checker (a solution that is no walk, or a walk that breaks the rules, is exit code 4);
UNSATISFIABLE is an ``unsolvable`` answer *without* a certificate, its reason saying it
rests on the solver alone, so the pipeline certifies it or a second backend confirms.
``stats`` give MiniZinc's flattening time (``flatten_s``) apart from the solver's
(``solve_s``). Counting enumerates all solutions (``--all-solutions``) up to
:data:`COUNT_LIMIT`; beyond it the count is a lower bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.counts import CountResult
from trailkit.models.encodings.minizinc_model import MznModel, minizinc_model
from trailkit.models.encodings.minizinc_nodes import NodeMznModel
from trailkit.models.errors import BackendUnavailable, UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits, trivial_answer
from trailkit.solvers.backends.minizinc.stream import (
    Run,
    check_solver,
    describe_failure,
    run_minizinc,
)
from trailkit.solvers.support.signs import SOLVING, sign

__all__ = ["COUNT_LIMIT", "DEFAULT_SOLVER", "MiniZincBackend"]

DEFAULT_SOLVER = "gecode"
#: The most solutions a count enumerates; beyond, the count is a lower bound.
COUNT_LIMIT = 100_000


class MiniZincBackend(Backend):
    """MiniZinc with one of its solvers behind the :class:`Backend` interface.

    Made only when MiniZinc is installed and lists the solver (else
    :class:`BackendUnavailable` says what to install).
    """

    family = "minizinc"
    supports_counting = True
    supports_node_rules = True  # where the node-level circuit applies (else refused)

    def __init__(self, option: str = "") -> None:
        self.solver = option or DEFAULT_SOLVER
        self.name = f"minizinc:{self.solver}"
        self.executable = check_solver(self.solver)

    def _run(self, model: MznModel | NodeMznModel, limits: Limits, **options: Any) -> Run:
        sign(SOLVING, self.name)
        run = run_minizinc(self.executable, self.solver, model.text, limits.time_limit,
                           memory_mb=limits.memory_mb, **options)
        if run.errors and not run.solutions and not run.killed \
                and not _out_of_memory(run, limits):
            raise BackendUnavailable(describe_failure(run, self.solver))
        return run

    def _stats(self, model: MznModel | NodeMznModel, run: Run) -> dict[str, Any]:
        return {"solver": self.solver, "minizinc_status": run.status or "none",
                "flatten_s": run.flatten_s, "solve_s": run.solve_s, "form": model.form,
                "circuit_nodes": model.size, "process_s": round(run.wall_s, 3)}

    def _walk(self, model: MznModel | NodeMznModel, succ: list[int]) -> Walk:
        try:
            return model.decode(succ)
        except (ValueError, KeyError, IndexError) as exc:
            raise VerificationFailure(f"{self.name} printed a solution that is no walk of "
                                      f"this puzzle: {exc}") from None

    # ------------------------------------------------------------------ solve
    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        began = time.perf_counter()
        trivial = trivial_answer(self.name, puzzle)
        if trivial is not None:
            return trivial.with_(time_s=time.perf_counter() - began)
        model = minizinc_model(puzzle)
        run = self._run(model, limits)
        stats = self._stats(model, run)
        best = puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
        empty = puzzle.empty_walk_nodes() if puzzle.wants_longest else []
        if run.solutions:
            optimal = (run.status == "OPTIMAL_SOLUTION") if best else None
            answer = Answer.solved(self.name, self._walk(model, run.solutions[-1]),
                                   optimal=optimal, **stats)
        elif run.status == "UNSATISFIABLE" and empty:  # longest: no step fits at all
            answer = Answer.solved(self.name, Walk((empty[0],), ()), optimal=True, **stats)
        elif run.status == "UNSATISFIABLE":
            answer = Answer.unsolvable(self.name, None, reason=(
                f"MiniZinc with {self.solver} found the model unsatisfiable ({model.form} "
                f"form, {model.size} circuit nodes); this rests on {self.solver} alone, not "
                "on a checkable certificate"), **stats)
        else:
            answer = Answer.unknown(self.name, self._unknown(run, limits), **stats)
        return answer.with_(time_s=time.perf_counter() - began)

    def _unknown(self, run: Run, limits: Limits) -> str:
        flat = "" if run.flatten_s is None else f"; flattening took {run.flatten_s:.2f} s"
        if _out_of_memory(run, limits):
            return (f"MiniZinc with {self.solver} ran out of its memory limit: "
                    f"{limits.memory_mb} MB{flat}")
        if run.killed or run.status in ("UNKNOWN", ""):
            return (f"the time limit of {limits.time_limit:g} s was reached{flat}"
                    if limits.time_limit is not None else
                    f"MiniZinc stopped without an answer ({run.status or 'no status'})")
        return f"MiniZinc with {self.solver} stopped with {run.status}{flat}"

    # ------------------------------------------------------------------ count
    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *, failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        """Count solutions as the other backends do (every walk; under an objective, and
        always for reusable edges, the walks of the best length), by enumerating every
        solution of the model, up to :data:`COUNT_LIMIT`."""
        if failures:
            raise UnsupportedPuzzle(f"the {self.name} backend does not count failures; "
                                    "use --backend direct")
        shortest = puzzle.use is EdgeUse.ANY or puzzle.objective is Objective.SHORTEST
        empty = puzzle.empty_walk_nodes()
        if (empty and shortest) or (puzzle.use is EdgeUse.EXACTLY_ONCE
                                    and not puzzle.num_edges):
            nowhere = not puzzle.num_nodes
            return CountResult(self.name, 1 if nowhere else len(empty), method="empty walks")
        if not (shortest or puzzle.wants_longest):
            return self._enumerate(puzzle, limits, None, len(empty), "enumeration")
        extreme = "shortest" if shortest else "longest"
        answer = self.solve(replace(puzzle, objective=Objective.SHORTEST) if shortest
                            else puzzle, limits)
        if answer.status is Status.UNSOLVABLE:
            return CountResult(self.name, 0, reason=answer.reason)
        if not answer.optimal or answer.walk is None:
            return CountResult(self.name, 0, complete=False,
                               reason=f"the {extreme} length is not known: {answer.reason}")
        length = len(answer.walk)
        if length == 0:
            return CountResult(self.name, len(empty), method="empty walks",
                               stats={"length": 0})
        return self._enumerate(puzzle, limits, length, 0 if puzzle.wants_longest
                               else len(empty), f"enumeration of {extreme}")

    def _enumerate(self, puzzle: Puzzle, limits: Limits, length: int | None, empties: int,
                   method: str) -> CountResult:
        model = minizinc_model(puzzle, length=length)
        run = self._run(model, limits, all_solutions=True, solution_limit=COUNT_LIMIT + 1)
        seen = {tuple(succ) for succ in run.solutions}
        walks = sum(model.multiplicity(list(succ)) for succ in seen)
        stats: dict[str, Any] = {**self._stats(model, run), "raw_solutions": len(run.solutions)}
        if length is not None:
            stats["length"] = length
        if len(seen) > COUNT_LIMIT:
            return CountResult(self.name, walks + empties, complete=False, method=method,
                               reason=f"stopped at {COUNT_LIMIT:,} solutions (the "
                               f"{self.name} backend counts by enumeration)", stats=stats)
        complete = run.status in ("ALL_SOLUTIONS", "UNSATISFIABLE") and not run.killed
        reason = "" if complete else self._unknown(run, limits)
        return CountResult(self.name, walks + empties, complete=complete, method=method,
                           reason=reason, stats=stats)


def _out_of_memory(run: Run, limits: Limits) -> bool:
    """Whether a run that stopped without an answer failed for want of memory under its
    cap (a memout is an unknown answer, not a backend that is missing). A solver that
    could not even load its libraries under the cap says so in the dynamic loader's
    words ("failed to map segment from shared object": Gecode under 40 MB on a small
    model, which MiniZinc flattened within it)."""
    if limits.memory_mb is None or run.solutions:
        return False
    said = " ".join([*run.errors, *run.messages]).lower()
    return any(word in said for word in ("bad_alloc", "out of memory", "memory",
                                         "cannot allocate", "failed to map segment"))
