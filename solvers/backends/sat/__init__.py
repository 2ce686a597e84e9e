"""The ``sat`` backend: CNF encodings solved by any python-sat solver, DRUP proofs for UNSAT.

``sat`` uses CaDiCaL 1.9.5; ``sat:NAME`` any solver python-sat knows (``sat:glucose4``,
``sat:maplechrono``, ...). For an exactly-once walk either picks the position or the
transition encoding (:mod:`.transition`) by their size estimates (:mod:`.auto`);
``/position`` or ``/transition`` after either (``sat/transition``,
``sat:glucose4/position``) forces one (:mod:`.choice` reads the option). Every answer's
stats name the encoding used (``encoding``) and why it was chosen
(``encoding_choice``). The position encoding is in
:mod:`trailkit.models.formulas.position_encoding`, the search in :mod:`.search`, deadlines in
:mod:`.runner`, proofs packed into certificates by
:mod:`trailkit.models.encodings.drup_certificate` (:mod:`.walk_proof` proves that no
walk of any length exists), size estimates in :mod:`trailkit.models.encodings.sizes` and the
DIMACS export with readable names in :mod:`.exported_formula`. Before an encoding is
built its size is estimated; beyond ``Limits.memory_mb`` the answer is ``unknown``
with the estimate.
Counting always uses the position encoding (without symmetry breaking: every walk
counted once). A puzzle with node rules (``visit``, ``via``, ``avoid``, ``at``) is
solved, counted and proven on ``node-positions-v1``
(:mod:`trailkit.models.formulas.node_positions`, through :mod:`.node_walks`), its
size estimated first as every formula's; a walk through every node (``visit:
every-once``, no colour rule) is solved and proven on ``node-cuts-v1`` with cut clauses
added lazily (:mod:`.hamilton_cuts`; ``/position`` keeps node positions). Counting
always uses node positions (every walk one model).

An UNSAT answer for an exactly-once puzzle carries a ``drup`` certificate when the
solver logs proofs (checked by :mod:`trailkit.models.checking.drup`); other UNSAT answers say
in ``reason`` what they rest on, and the pipeline asks :meth:`SatBackend.prove` (the
``walk-v1`` formula for at-most-once walks) or a second backend.
"""

from __future__ import annotations

from collections.abc import Callable

from trailkit.models.answer import Answer, Certificate
from trailkit.models.counts import CountResult
from trailkit.models.encodings.drup_certificate import make_certificate
from trailkit.models.encodings.sizes import budget_problem, node_rule_size, position_size
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.formulas.formulas import position_certified
from trailkit.models.formulas.node_cuts import cuts_apply
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits
from trailkit.solvers.backends.sat.auto import EncodingChoice, choose_encoding
from trailkit.solvers.backends.sat.choice import SatChoice
from trailkit.solvers.backends.sat.exported_formula import to_dimacs, walk_from_model
from trailkit.solvers.backends.sat.hamilton_cuts import cuts_answer, cuts_outcome
from trailkit.solvers.backends.sat.node_walks import NodeOutcome, count_node_walks, search_nodes
from trailkit.solvers.backends.sat.runner import (
    DEFAULT_SOLVER,
    SolverTimeout,
    Verdict,
    available_solvers,
    can_prove,
    run_guarded,
    small_puzzle,
)
from trailkit.solvers.backends.sat.search import Outcome, count_walks, horizon, search
from trailkit.solvers.backends.sat.transition import (
    POSITION_HINT,
    transition_answer,
    transition_certificate,
)
from trailkit.solvers.backends.sat.walk_proof import refute_walks

NODE_HINT = ("a smaller puzzle, or a larger --memory-limit if the machine has the memory; "
             "the cpsat and direct backends model node rules without positions")

__all__ = ["DEFAULT_SOLVER", "SatBackend", "available_solvers", "to_dimacs", "walk_from_model"]


class SatBackend(Backend):
    """python-sat behind the :class:`Backend` interface.

    >>> SatBackend("").name, SatBackend("g4").name, SatBackend("g4/transition").name
    ('sat', 'sat:g4', 'sat:g4/transition')
    >>> SatBackend("").encoding, SatBackend("/position").encoding
    ('auto', 'position')
    """

    family = "sat"
    supports_counting = True
    supports_proof = True
    supports_node_rules = True

    def __init__(self, option: str = "") -> None:
        choice = SatChoice.parse(option)
        self.solver, self.encoding, self.name = choice.solver, choice.encoding, choice.name

    def _choice(self, puzzle: Puzzle, limits: Limits) -> EncodingChoice:
        """The encoding this puzzle is solved with, and why: the transition encoding
        only for exactly-once puzzles with edges (other rules: the position one)."""
        once = puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.num_edges > 0
        if self.encoding == "auto" or not once:
            return choose_encoding(puzzle, limits.memory_mb)
        return EncodingChoice(self.encoding, f"asked for with /{self.encoding}")

    def _too_big(self, puzzle: Puzzle, limits: Limits) -> str | None:
        """Why the position encoding must not be built within the memory budget."""
        if puzzle.has_node_rules:
            return budget_problem(node_rule_size(puzzle), limits.memory_mb,
                                  "node-positions-v1 formula", NODE_HINT)
        if puzzle.use is EdgeUse.ANY:
            return None  # the layered state encoding grows one layer at a time
        size = position_size(puzzle, horizon(puzzle)[0])
        return budget_problem(size, limits.memory_mb, "position encoding", POSITION_HINT)

    # ------------------------------------------------------------------ solve
    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        if puzzle.has_node_rules:
            return self._solve_nodes(puzzle, limits)
        choice = self._choice(puzzle, limits)
        if choice.encoding == "transition":
            return transition_answer(self.name, self.solver, puzzle, limits,
                                     encoding_choice=choice.why)
        named = {"encoding": "position", "encoding_choice": choice.why}
        too_big = self._too_big(puzzle, limits)
        if too_big is not None:
            return Answer.unknown(self.name, too_big, **named)
        proof = puzzle.use is EdgeUse.EXACTLY_ONCE and can_prove(self.solver)
        try:
            outcome = run_guarded(lambda d: search(puzzle, self.solver, d, proof=proof),
                                  self.solver, limits.time_limit, small=small_puzzle(puzzle))
        except SolverTimeout:
            outcome = Outcome(Verdict.INTERRUPTED)
        if outcome.status is Verdict.INTERRUPTED:
            detail = f"; {outcome.reason}" if outcome.reason else ""
            return Answer.unknown(self.name, "the time limit of "
                                  f"{seconds(limits.time_limit)} was reached (position encoding)"
                                  f"{detail}", **named)
        if outcome.status is Verdict.SAT:
            if outcome.walk is None:
                raise VerificationFailure(f"{self.name} found a model but decoded no walk")
            optimal = (outcome.length_proven_minimal  # minimal, or maximal for longest
                       if puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
                       else None)
            return Answer.solved(self.name, outcome.walk, optimal=optimal, solver=self.solver,
                                 **named)
        return Answer.unsolvable(self.name, self._certificate(puzzle, outcome),
                                 reason=outcome.reason, solver=self.solver, **named)

    def _nodes(self, puzzle: Puzzle, limits: Limits, name: str) -> NodeOutcome:
        """:func:`search_nodes` with solver ``name`` within the time limit (INTERRUPTED
        when it is reached)."""
        try:
            return run_guarded(lambda d: search_nodes(puzzle, name, d, proof=can_prove(name)),
                               name, limits.time_limit, small=small_puzzle(puzzle))
        except SolverTimeout:
            return NodeOutcome(Verdict.INTERRUPTED)

    def _solve_nodes(self, puzzle: Puzzle, limits: Limits) -> Answer:
        """A node-rule puzzle: ``node-cuts-v1`` for a walk through every node where it
        applies (unless ``/position``), else ``node-positions-v1``."""
        if self.encoding != "position" and not cuts_apply(puzzle):
            return cuts_answer(self.name, self.solver, puzzle, limits)
        named = {"encoding": "node-positions", "encoding_choice": "node rules: only the "
                 "node-positions encoding covers them"}
        too_big = self._too_big(puzzle, limits)
        if too_big is not None:
            return Answer.unknown(self.name, too_big, **named)
        outcome = self._nodes(puzzle, limits, self.solver)
        if outcome.status is Verdict.INTERRUPTED:
            return Answer.unknown(self.name, f"the time limit of {seconds(limits.time_limit)} "
                                  "was reached (node-positions encoding)", **named)
        if outcome.status is Verdict.SAT and outcome.walk is not None:
            best = puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
            return Answer.solved(self.name, outcome.walk, optimal=outcome.best if best
                                 else None, solver=self.solver, **named)
        certificate = None
        if outcome.formula is not None and outcome.proof is not None:
            certificate = make_certificate(puzzle, outcome.formula, outcome.proof, self.solver)
        return Answer.unsolvable(self.name, certificate, reason=outcome.reason,
                                 solver=self.solver, **named)

    def _certificate(self, puzzle: Puzzle, outcome: Outcome) -> Certificate | None:
        if outcome.proof is None or outcome.clauses is None or outcome.varmap is None:
            return None
        return make_certificate(puzzle, position_certified(puzzle, outcome.clauses,
                                                           outcome.varmap),
                                outcome.proof, self.solver)

    # ------------------------------------------------------------------ prove
    def why_no_proof(self, puzzle: Puzzle) -> str | None:
        if puzzle.has_node_rules:
            return None  # node-positions-v1 covers every edge rule
        if puzzle.use is EdgeUse.ANY:
            return ("DRUP proofs here cover puzzles whose edges are used at most or exactly "
                    "once, and this one's may be used any number of times")
        if puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.num_edges == 0:
            return "a puzzle without edges needs no solver: its argument is structural"
        return None

    def prove(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Certificate | None:
        """A ``drup`` certificate that a once-only puzzle is unsolvable, or ``None``
        (solvable, reusable edges, a limit reached, or a proof too big to be a certificate).

        Exactly once: the encoding :meth:`solve` would use (the position encoding of
        ``#edges`` steps, or the transition encoding and its cut clauses); at most
        once: the ``walk-v1`` formula of every length at once. A formula over the
        memory budget is not built. A solver that cannot log proofs is replaced by
        CaDiCaL for the proof.
        """
        if self.why_no_proof(puzzle) is not None:
            return None
        name = self.solver if can_prove(self.solver) else DEFAULT_SOLVER
        if puzzle.has_node_rules:
            return self._prove_nodes(puzzle, limits, name)
        if self._choice(puzzle, limits).encoding == "transition":
            return transition_certificate(name, puzzle, limits)
        if self._too_big(puzzle, limits) is not None:
            return None
        return _refuted_once_only(puzzle, name, limits)

    def _prove_nodes(self, puzzle: Puzzle, limits: Limits, name: str) -> Certificate | None:
        """The ``node-cuts-v1`` (where :meth:`_solve_nodes` takes it) or
        ``node-positions-v1`` refutation of a node-rule puzzle, or ``None``."""
        if self.encoding != "position" and not cuts_apply(puzzle):
            out = cuts_outcome(name, puzzle, limits, proof=True)
            if out.status is not Verdict.UNSAT or out.formula is None or out.proof is None:
                return None
            return make_certificate(puzzle, out.formula, out.proof, name)
        if self._too_big(puzzle, limits) is not None:
            return None
        outcome = self._nodes(puzzle, limits, name)
        if outcome.status is not Verdict.UNSAT or outcome.formula is None \
                or outcome.proof is None:
            return None
        return make_certificate(puzzle, outcome.formula, outcome.proof, name)

    # ------------------------------------------------------------------ count
    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *,
              failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        """Enumerate solutions, blocking each walk by its primary variables only."""
        if failures:
            raise UnsupportedPuzzle("the sat backend counts solutions only, not failures "
                                    "(use the direct backend for --failures)")
        too_big = self._too_big(puzzle, limits)  # counting uses the position encoding
        if too_big is not None:
            return CountResult(self.name, 0, complete=False, reason=too_big)
        import multiprocessing as mp

        # No lock: the child may be killed mid-write, and a lock it held would then
        # block the parent's read forever (a 64-bit store is not torn in practice).
        seen = mp.Value("q", 0, lock=False)

        def note(n: int) -> None:  # a job tried here first, then in the child, counts twice
            seen.value = max(seen.value, n)

        counter = count_node_walks if puzzle.has_node_rules else count_walks
        try:
            result = run_guarded(lambda d: counter(puzzle, self.solver, d, note),
                                 self.solver, limits.time_limit, small=small_puzzle(puzzle))
        except SolverTimeout:
            return CountResult(self.name, int(seen.value), complete=False,
                               reason="the time limit was reached")
        except KeyboardInterrupt:  # Ctrl-C: the walks counted so far, as a lower bound
            return CountResult.interrupted(self.name, int(seen.value), solver=self.solver)
        total, complete, reason = result
        return CountResult(self.name, total, complete=complete, reason=reason,
                           stats={"solver": self.solver})


def _refuted_once_only(puzzle: Puzzle, name: str, limits: Limits) -> Certificate | None:
    """Solver ``name``'s refutation of a once-only puzzle without node
    rules, as a ``drup`` certificate: the ``walk-v1`` formula of every length at once
    (at most once) or the position encoding of ``#edges`` steps (exactly once); ``None``
    when it is solvable, or the time limit comes first."""
    if puzzle.use is EdgeUse.AT_MOST_ONCE:
        try:
            verdict, formula, lines = run_guarded(
                lambda d: refute_walks(puzzle, name, d), name, limits.time_limit,
                small=small_puzzle(puzzle))
        except SolverTimeout:
            return None
        if verdict is not Verdict.UNSAT or formula is None or lines is None:
            return None
        return make_certificate(puzzle, formula, lines, name)
    try:
        outcome = run_guarded(lambda d: search(puzzle, name, d, proof=True), name,
                              limits.time_limit, small=small_puzzle(puzzle))
    except SolverTimeout:
        return None
    if outcome.status is not Verdict.UNSAT:
        return None
    if outcome.proof is None or outcome.clauses is None or outcome.varmap is None:
        return None
    return make_certificate(puzzle, position_certified(puzzle, outcome.clauses,
                                                       outcome.varmap),
                            outcome.proof, name)
