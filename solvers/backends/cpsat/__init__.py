"""The ``cpsat`` backend: every walk puzzle as one OR-Tools CP-SAT circuit model.

* edges used exactly / at most once: :mod:`.circuit_model` (one circuit node per
  oriented edge);
* reusable edges: :mod:`.state_model` (a simple path over (node, colour-phase) states);
* node rules that forbid a second visit, without a colour rule: :mod:`.node_model` (one
  circuit node per puzzle node: Hamiltonian paths and cycles, checkpoints, givens); the
  other node rules as linear constraints on the oriented-edge model
  (:mod:`.node_constraints`), or refused where no model here states them soundly.

Status mapping: OPTIMAL / FEASIBLE give a solved answer decoded from the circuit's arc
literals (``optimal=True`` only for OPTIMAL with a shortest-walk objective);
INFEASIBLE gives ``unsolvable`` *without* a certificate, its reason saying it rests on
CP-SAT alone (the pipeline confirms it with a structural certificate or a second
backend); UNKNOWN gives ``unknown``; MODEL_INVALID is a bug, raised as
:class:`~trailkit.models.errors.VerificationFailure` (exit code 4). Limits pass through:
``time_limit`` -> ``max_time_in_seconds``, ``workers`` -> ``num_workers``, ``seed`` ->
``random_seed``, ``work_limit`` -> ``max_number_of_conflicts``. With one worker and a
fixed seed the answer is deterministic.

The time limit bounds the building too: Python states a circuit model at about
:data:`BUILD_SECONDS_PER_ARC` an arc at best (a million arcs for 20,000 random edges:
43 s here), and CP-SAT takes :data:`LOAD_SECONDS_PER_ARC` more to load it, whatever its
own limit. A model estimated (:func:`~trailkit.models.encodings.sizes.circuit_arcs`) to
take longer than the time left is not built; one being built stops at the limit
(:class:`~.encoding.BuildClock`); the search gets the time the building left. Each is
``unknown``, with a hint.

Counting enumerates with a solution callback on **one** worker (with several, CP-SAT
9.15 silently returns fewer solutions while reporting OPTIMAL), deduplicating on the
arc literals that define a walk.

Ctrl-C: CP-SAT's own SIGINT handler is off (``catch_sigint_signal``: it would turn a
Ctrl-C into UNKNOWN, exit code 3, and then leave SIGINT at its default action); the
solver :func:`make_solver` returns runs each ``solve`` in a worker thread, so that a
Ctrl-C calls ``stop_search()`` and is raised on as :class:`KeyboardInterrupt` once the
search has stopped; an interrupted count returns the walks found so far, as a lower
bound (:meth:`CountResult.interrupted`).

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> CpSatBackend().solve(p).status.value
'solved'
>>> CpSatBackend().count(p).solutions
6
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ortools.sat.python import cp_model

from trailkit.models.answer import Answer, Status, Walk
from trailkit.models.counts import CountResult
from trailkit.models.encodings.node_circuit import node_level
from trailkit.models.encodings.sizes import circuit_arcs, circuit_problem
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits, trivial_answer
from trailkit.solvers.backends.cpsat.circuit_model import encode_edge_circuit
from trailkit.solvers.backends.cpsat.encoding import (
    NO_DEADLINE,
    BuildClock,
    BuildStopped,
    Encoding,
)
from trailkit.solvers.backends.cpsat.node_constraints import add_node_rules, refuse_node_rules
from trailkit.solvers.backends.cpsat.node_model import encode_node_circuit
from trailkit.solvers.backends.cpsat.state_model import encode_state_paths
from trailkit.solvers.support.interrupts import run_stoppable
from trailkit.solvers.support.signs import BUILDING, SOLVING, sign

__all__ = ["CpSatBackend", "encode", "export_model"]

NAME = "cpsat"

#: Seconds Python takes to state one arc of a circuit model, and CP-SAT to load it, on
#: a quiet machine (measured at 50 and 3.8 microseconds with eight jobs on two cores,
#: about four times slower): the estimate takes the fast figures, so a model is refused
#: only when no machine would build it in time; slower ones stop while building.
BUILD_SECONDS_PER_ARC = 10e-6
LOAD_SECONDS_PER_ARC = 1e-6
#: What to try instead when the time ran out on building.
BUILD_HINT = ("try the direct backend (it builds no model) or sat/transition (a smaller "
              "one), or a larger --time-limit")


class StoppableSolver(cp_model.CpSolver):
    """A CpSolver whose ``solve`` a Ctrl-C stops within moments, as a
    :class:`KeyboardInterrupt` (the search runs in a worker thread; see the module
    docstring)."""

    def solve(self, model: cp_model.CpModel,
              solution_callback: cp_model.CpSolverSolutionCallback | None = None
              ) -> cp_model.CpSolverStatus:
        sign(SOLVING, NAME)
        return run_stoppable(lambda: super(StoppableSolver, self).solve(model, solution_callback),
                             self.stop_search)


def encode(puzzle: Puzzle, *, break_symmetry: bool = True,
           node_circuit: bool = True, clock: BuildClock = NO_DEADLINE) -> Encoding:
    """The CP-SAT model for ``puzzle`` and the map from its literals back to walks.

    Node rules that forbid visiting a node twice, without a colour rule, take the
    node-level circuit (unless ``node_circuit`` is false: callers that read steps off
    the arcs); the other node rules are added to the oriented-edge model, or refused
    (:class:`UnsupportedPuzzle`) where no model here states them soundly. The
    oriented-edge model (the one that grows with the squared degrees) is built by the
    ``clock``'s deadline (:class:`~.encoding.BuildStopped` past it).
    """
    if puzzle.has_node_rules:
        if node_circuit and node_level(puzzle):
            return encode_node_circuit(puzzle)
        refuse_node_rules(puzzle)
    if puzzle.use is EdgeUse.ANY:
        return encode_state_paths(puzzle)  # only avoid: its steps are left out
    # a rotation of a closed walk moves its givens, so no pivot under at:
    enc = encode_edge_circuit(puzzle, break_symmetry=break_symmetry and not puzzle.at,
                              clock=clock)
    if puzzle.has_node_rules:
        add_node_rules(puzzle, enc)
    return enc


def export_model(puzzle: Puzzle) -> str:
    """The puzzle's CP-SAT model as protobuf text (``trailkit export --format cpsat``).

    Load it elsewhere with ``google.protobuf.text_format.Parse(text, CpModelProto())``.
    Depot is circuit node 0; variable names say what each literal means
    (``e3_1to4``: edge 3 crossed from node 1 to node 4; ``a5_7``: node 7 follows node 5).
    """
    return str(encode(puzzle).model.proto)


def make_solver(limits: Limits, *, enumerate_all: bool = False,
                tuning: dict[str, int] | None = None) -> StoppableSolver:
    """A CpSolver with the limits applied (one worker whenever all solutions are wanted)
    that a Ctrl-C stops (:class:`StoppableSolver`; CP-SAT's own SIGINT handler is off).

    ``tuning`` holds a formulation's preferred parameters (:attr:`Encoding.params`).
    """
    solver = StoppableSolver()
    params = solver.parameters
    params.catch_sigint_signal = False
    for key, value in (tuning or {}).items():
        setattr(params, key, value)
    if limits.time_limit is not None:
        params.max_time_in_seconds = float(limits.time_limit)
    if limits.work_limit is not None:
        params.max_number_of_conflicts = int(limits.work_limit)
    params.num_workers = 1 if enumerate_all else max(1, limits.workers)
    params.random_seed = limits.seed
    if limits.memory_mb is not None:  # CP-SAT stops (unknown) rather than grow past it
        params.max_memory_in_mb = int(limits.memory_mb)
    if enumerate_all:
        params.enumerate_all_solutions = True
    return solver


class CpSatBackend(Backend):
    """OR-Tools CP-SAT: circuit models with colour transitions, for every puzzle kind."""

    name = NAME
    family = "cpsat"
    supports_counting = True
    supports_proof = False
    supports_node_rules = True
    honours_work_limit = True
    work_unit = "conflicts"

    # ------------------------------------------------------------------ solve
    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        began = time.perf_counter()
        trivial = trivial_answer(NAME, puzzle)
        if trivial is not None:
            return trivial.with_(time_s=time.perf_counter() - began)
        enc = _built(puzzle, limits, began)
        if not isinstance(enc, Encoding):
            return Answer.unknown(NAME, enc).with_(time_s=time.perf_counter() - began)
        solver = make_solver(_time_left(limits, began), tuning=enc.params)
        status = solver.solve(enc.model)
        stats = _stats(solver, status, enc)
        shortest = puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
        empty = puzzle.empty_walk_nodes() if puzzle.wants_longest else []
        if status == cp_model.INFEASIBLE and empty:  # longest: no step fits, the empty walk
            answer = Answer.solved(NAME, Walk((empty[0],), ()), optimal=True, **stats)
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            walk = enc.decode(solver.boolean_value)
            optimal = (status == cp_model.OPTIMAL) if shortest else None
            answer = Answer.solved(NAME, walk, optimal=optimal, **stats)
        elif status == cp_model.INFEASIBLE:
            answer = Answer.unsolvable(
                NAME, None,
                reason=(f"CP-SAT proved the model infeasible ({enc.what}: {enc.proof_note}); "
                        "this rests on CP-SAT alone, not on a checkable certificate"),
                **stats)
        else:
            answer = Answer.unknown(NAME, _unknown_reason(solver, status, limits), **stats)
        return answer.with_(time_s=time.perf_counter() - began)

    # ------------------------------------------------------------------ count
    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
              failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        """Count solutions: every walk, or every walk of the objective's best length
        (the shortest, always for reusable edges; the longest).

        A walk is a step sequence with its start (a ring counts once per rotation and
        direction), parallel edges are distinct, the empty walk counts once per node it
        solves. On a limit the count is a lower bound with ``complete=False``; after a
        Ctrl-C too, with ``stats["interrupted"]``.
        """
        if failures:
            raise UnsupportedPuzzle("the cpsat backend does not count failures; "
                                    "use --backend direct")
        began = time.perf_counter()
        shortest = puzzle.use is EdgeUse.ANY or puzzle.objective is Objective.SHORTEST
        empty = puzzle.empty_walk_nodes()
        if (empty and shortest) or (puzzle.use is EdgeUse.EXACTLY_ONCE
                                    and not puzzle.num_edges):
            nowhere = not puzzle.num_nodes  # no nodes: one walk, Walk.nowhere()
            return CountResult(NAME, 1 if nowhere else len(empty), method="empty walks")
        if not (shortest or puzzle.wants_longest):
            return _enumerate(puzzle, limits, None, len(empty), began)
        extreme = "shortest" if shortest else "longest"
        answer = self.solve(replace(puzzle, objective=Objective.SHORTEST) if shortest
                            else puzzle, limits)
        if answer.status is Status.UNSOLVABLE:
            return CountResult(NAME, 0, reason=answer.reason)
        if not answer.optimal or answer.walk is None:
            return CountResult(NAME, 0, complete=False,
                               reason=f"the {extreme} length is not known: {answer.reason}")
        length = len(answer.walk)
        if length == 0:  # longest: no step fits anywhere, so the empty walks are longest
            return CountResult(NAME, len(empty), method="empty walks", stats={"length": 0})
        return _enumerate(puzzle, limits, length, 0 if puzzle.wants_longest else len(empty),
                          began, extreme)


# ------------------------------------------------------------------ helpers
def _built(puzzle: Puzzle, limits: Limits, began: float, **options: bool) -> Encoding | str:
    """The model of ``puzzle``, built within the memory and time limits (``options`` go
    to :func:`encode`), or why it was not: too big, too slow to build in the time left
    (estimated first), or stopped by the time limit while building."""
    too_big = circuit_problem(puzzle, limits.memory_mb)
    if too_big is not None:
        return too_big
    left = _time_left(limits, began).time_limit
    edge_model = puzzle.use is not EdgeUse.ANY and not (puzzle.has_node_rules
                                                         and node_level(puzzle))
    arcs = circuit_arcs(puzzle) if edge_model else 0
    need = arcs * (BUILD_SECONDS_PER_ARC + LOAD_SECONDS_PER_ARC)
    if left is not None and need > left:
        return (f"the CP-SAT circuit model has about {arcs:,} arcs: building and loading "
                f"it takes {seconds(need)} or more, past the {seconds(left)} left of the "
                f"time limit, so it was not built; {BUILD_HINT}")
    sign(BUILDING, NAME)
    try:
        enc = encode(puzzle, clock=BuildClock.within(left), **options)
    except BuildStopped:
        return f"the time limit was reached while building the CP-SAT model; {BUILD_HINT}"
    left = _time_left(limits, began).time_limit
    if left is not None and (left <= 0 or arcs * LOAD_SECONDS_PER_ARC > left):
        return (f"the time limit was reached once the CP-SAT model was built ({arcs:,} "
                f"arcs), with no time left to search; {BUILD_HINT}")
    return enc


def _time_left(limits: Limits, began: float) -> Limits:
    """``limits`` with the time spent since ``began`` taken off the time limit."""
    if limits.time_limit is None:
        return limits
    spent = time.perf_counter() - began
    return replace(limits, time_limit=max(0.0, limits.time_limit - spent))


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects each distinct circuit (by its chosen arcs) and the walks it stands for."""

    def __init__(self, enc: Encoding) -> None:
        super().__init__()
        self.enc = enc
        self.seen: set[tuple[int, ...]] = set()
        self.walks = 0
        self.raw = 0

    def on_solution_callback(self) -> None:
        self.raw += 1
        key = tuple(self.enc.chosen(self.boolean_value))
        if key not in self.seen:
            self.seen.add(key)
            self.walks += self.enc.multiplicity(self.boolean_value)


def _enumerate(puzzle: Puzzle, limits: Limits, length: int | None, empties: int,
               began: float, extreme: str = "") -> CountResult:
    """Every walk (of ``length`` steps when given: the ``extreme`` ones), plus the
    ``empties`` empty walks, each distinct circuit counted once."""
    enc = _built(puzzle, limits, began, break_symmetry=False)
    if not isinstance(enc, Encoding):
        return CountResult(NAME, empties, complete=False, reason=enc,
                           stats={"time_s": time.perf_counter() - began})
    # every walk is counted (of one length, when given); OR-Tools gives this no hints
    enc.model.clear_objective()  # type: ignore[no-untyped-call]
    if length is not None:
        enc.model.add(enc.length == length)
    solver = make_solver(_time_left(limits, began), enumerate_all=True, tuning=enc.params)
    collector = _Collector(enc)
    method = "enumeration" if length is None else f"enumeration of {extreme}"
    try:
        status = solver.solve(enc.model, collector)
    except KeyboardInterrupt:  # Ctrl-C: the walks found so far, as a lower bound
        return CountResult.interrupted(NAME, collector.walks + empties, method=method,
                                       raw_solutions=collector.raw,
                                       time_s=time.perf_counter() - began)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    reason = "" if complete else _unknown_reason(solver, status, limits)
    stats = {**_stats(solver, status, enc), "raw_solutions": collector.raw,
             "distinct_circuits": len(collector.seen),
             "time_s": time.perf_counter() - began}
    if length is not None:
        stats["length"] = length
    return CountResult(NAME, collector.walks + empties, complete=complete, method=method,
                       reason=reason, stats=stats)


def _stats(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus,
           enc: Encoding) -> dict[str, object]:
    return {"cpsat_status": solver.status_name(status), "wall_time": solver.wall_time,
            "conflicts": solver.num_conflicts, "branches": solver.num_branches, **enc.size}


def _unknown_reason(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus,
                    limits: Limits) -> str:
    name = solver.status_name(status)
    if status == cp_model.MODEL_INVALID:  # never "unknown": a wrong model is a bug
        raise VerificationFailure("CP-SAT rejected the model as invalid (a bug in the cpsat "
                                  f"backend): {solver.solution_info()}")
    if status == cp_model.FEASIBLE:
        return "CP-SAT stopped before enumerating every solution (a limit was reached)"
    given = []
    if limits.time_limit is not None:
        given.append(f"time limit {limits.time_limit:g} s")
    if limits.work_limit is not None:
        given.append(f"conflict limit {limits.work_limit}")
    which = ", ".join(given) or "no limit was set"
    return f"CP-SAT stopped with {name} after {solver.wall_time:.2f} s ({which})"
