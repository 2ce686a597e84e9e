"""The ``dimacs:COMMAND`` backend: any SAT solver program that reads DIMACS CNF.

``COMMAND`` is a program on PATH or a path, with flags if wanted (``dimacs:cadical``,
``dimacs:minisat``, ``dimacs:picosat``, ``dimacs:cryptominisat5``,
``dimacs:/opt/kissat/bin/kissat --sat``). trailkit writes the certified formula (the
CNF ``export --format dimacs`` writes: ``position-v1`` for exactly-once walks,
``walk-v1`` for at-most-once ones; ``node-positions-v1`` for node rules; for reusable
edges the layered state encoding, with growing horizons: :mod:`.cnf`), runs the program
with the time limit (killed shortly after it), and reads its answer in the SAT
competition's format (:mod:`.competition`).

Trust: a model is decoded into a walk, which the pipeline verifies (a model that is no
walk, or a walk that breaks the rules, is exit code 4: the solver is never believed).
For UNSATISFIABLE, solvers known to write DRAT proofs (CaDiCaL, Kissat: a proof file
after the CNF) are asked for one; it is read as text or binary DRAT (:mod:`.drat`) and
becomes a ``drup`` certificate that the pipeline checks with trailkit's own checker
against the certified formula. An UNSATISFIABLE without a checkable proof rests on the
solver alone, as CP-SAT's does: the pipeline certifies it or a second backend confirms.

Under ``objective: shortest`` (always for reusable edges) or ``longest`` the program
is run again with a clause bounding the length (bisection for the shortest), until the
bound is unsatisfiable (then the length is proven best, on the solver's word) or the
time is up (a verified walk, not proven best).
"""

from __future__ import annotations

import shlex
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trailkit.models.answer import Answer, Certificate, Walk
from trailkit.models.checking.drup import cnf_text
from trailkit.models.encodings.drup_certificate import MAX_PROOF_LINES, make_certificate
from trailkit.models.encodings.sizes import budget_problem, node_rule_size, position_size
from trailkit.models.errors import BackendUnavailable, VerificationFailure
from trailkit.models.formulas.node_positions import node_horizon
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import seconds
from trailkit.solvers.backends.base import NO_LIMITS, Backend, Limits, trivial_answer
from trailkit.solvers.backends.dimacs.cnf import Formula, certified_cnf, horizons
from trailkit.solvers.backends.dimacs.competition import (
    SolverOutputError,
    read_answer,
    read_minisat_result,
)
from trailkit.solvers.backends.dimacs.drat import DratError, DratTimeUp, read_drat
from trailkit.solvers.support.external import require_program, run_program
from trailkit.solvers.support.signs import SOLVING, sign

__all__ = ["DEFAULT_COMMAND", "INSTALL", "DimacsBackend"]

DEFAULT_COMMAND = "cadical"
INSTALL = ("on Debian or Ubuntu: apt-get install cadical minisat picosat cryptominisat "
           "(or give the path of any SAT solver program: dimacs:/path/to/solver)")
BIG_HINT = ("the sat backend's transition encoding (--backend sat) or cpsat handle puzzles "
            "this big")
NODES_HINT = ("the sat backend (node-cuts-v1 for a walk through every node) or cpsat handle "
              "node rules on bigger graphs")
#: Programs that write a DRAT proof to a file named after the CNF.
PROOF_AFTER_CNF = frozenset({"cadical", "kissat"})
KILLED = "killed at the time limit"


@dataclass(frozen=True)
class Verdict:
    """One run of the program: ``SAT`` / ``UNSAT`` / ``UNKNOWN``, the model, the proof
    lines (``None``: no proof asked for or none written), and why an UNKNOWN."""

    status: str
    model: list[int]
    proof: list[str] | None
    why: str = ""


def _left(limits: Limits, began: float) -> float | None:
    """The time left of ``limits.time_limit`` (zero or less: none), or ``None``."""
    if limits.time_limit is None:
        return None
    return limits.time_limit - (time.perf_counter() - began)


class DimacsBackend(Backend):
    """A SAT solver program behind the :class:`Backend` interface (made only when the
    program is found; else :class:`BackendUnavailable` says what to install)."""

    family = "dimacs"
    supports_node_rules = True

    def __init__(self, option: str = "") -> None:
        try:
            argv = shlex.split(option or DEFAULT_COMMAND)
        except ValueError as exc:
            raise BackendUnavailable(f"cannot read the command {option!r}: {exc}") from None
        if not argv:
            raise BackendUnavailable("dimacs: needs a command, e.g. dimacs:cadical")
        self.argv = [require_program(argv[0], INSTALL), *argv[1:]]
        self.program = Path(argv[0]).name
        self.name = f"dimacs:{option or DEFAULT_COMMAND}"

    # ------------------------------------------------------------------ one run
    def _run(self, formula: Formula, extra: list[list[int]], time_limit: float | None,
             memory_mb: int | None = None) -> Verdict:
        """Write the CNF (plus ``extra`` unit clauses), run the program, read its answer.
        The program is told no limit, so it is killed at ``time_limit`` itself (no grace),
        and its address space is capped at ``memory_mb``: bounded like every run."""
        clauses = [*formula.clauses, *extra]
        deadline = None if time_limit is None else time.monotonic() + time_limit
        with tempfile.TemporaryDirectory(prefix="trailkit-dimacs-") as tmp:
            cnf, proof, result = (Path(tmp) / n for n in ("formula.cnf", "proof.drat",
                                                           "result.txt"))
            cnf.write_text(cnf_text(formula.num_vars, clauses), encoding="ascii")
            argv = [*self.argv, str(cnf)]
            wants_proof = self.program in PROOF_AFTER_CNF and not extra \
                and formula.certified is not None
            if wants_proof:
                argv.append(str(proof))
            elif self.program == "minisat":
                argv.append(str(result))
            sign(SOLVING, self.name)
            done = run_program(argv, time_limit, cwd=tmp, grace=0.0, memory_mb=memory_mb)
            if done.killed:
                return Verdict("UNKNOWN", [], None, KILLED)
            try:
                status, model = read_answer(done.stdout, done.returncode)
                if self.program == "minisat" and result.exists():
                    status, model = read_minisat_result(result.read_text(errors="replace"))
            except SolverOutputError as exc:
                raise VerificationFailure(f"{self.name} printed an answer that cannot be "
                                          f"believed: {exc}") from None
            lines, unread = self._proof(proof, deadline) if wants_proof and status == "UNSAT" \
                else (None, "")
        if unread:
            return Verdict(status, model, None, unread)
        bound = "" if memory_mb is None else f" (its memory limit: {memory_mb} MB)"
        why = "" if status != "UNKNOWN" else (
            f"{self.program} exited with code {done.returncode} without an answer{bound}"
            + (f": {done.stderr.strip()[-300:]}" if done.stderr.strip() else ""))
        return Verdict(status, model, lines, why)

    @staticmethod
    def _proof(path: Path, deadline: float | None) -> tuple[list[str] | None, str]:
        """The proof's lines (``None``: unreadable), and why they were not read when the
        deadline passed first (a proof of millions of lines takes seconds to read)."""
        try:
            return read_drat(path.read_bytes(), MAX_PROOF_LINES, deadline), ""
        except (OSError, DratError):
            return None, ""
        except DratTimeUp as exc:
            return None, str(exc)

    def _walk(self, formula: Formula, model: list[int]) -> Walk:
        try:
            return formula.read(model)
        except ValueError as exc:
            raise VerificationFailure(f"{self.name} printed a model that is no walk of this "
                                      f"puzzle: {exc}") from None

    # ------------------------------------------------------------------ solve
    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        began = time.perf_counter()
        trivial = _trivial_answer(self.name, puzzle)
        if trivial is not None:
            return trivial.with_(time_s=time.perf_counter() - began)
        lengths = horizons(puzzle)
        floor = 0
        for h in lengths:
            size = node_rule_size(puzzle) if puzzle.has_node_rules else \
                None if puzzle.use is EdgeUse.ANY else position_size(puzzle, h)
            nodes = puzzle.has_node_rules
            too_big = None if size is None else budget_problem(
                size, limits.memory_mb,
                f"{'node-positions-v1 ' if nodes else ''}formula for {self.name}",
                NODES_HINT if nodes else BIG_HINT)
            if too_big is not None:
                return Answer.unknown(self.name, too_big)
            answer = self._solve_within(puzzle, limits, began, h, last=h == lengths[-1],
                                        floor=floor)
            if answer is not None:
                return answer.with_(time_s=time.perf_counter() - began)
            floor = h
        raise AssertionError("the last horizon always answers")  # pragma: no cover

    def _solve_within(self, puzzle: Puzzle, limits: Limits, began: float, horizon: int,
                      *, last: bool, floor: int) -> Answer | None:
        """The answer from walks of at most ``horizon`` steps, or ``None`` when there is
        none that short and a longer horizon is still to be tried (``floor``: no walk
        has that many steps or fewer, from the horizons tried before)."""
        formula = certified_cnf(puzzle, horizon)
        stats: dict[str, Any] = {"program": self.program, "variables": formula.num_vars,
                                 "clauses": len(formula.clauses), "horizon": horizon,
                                 "formula": formula.certified.encoding if formula.certified
                                 else "layered states (reusable edges)"}
        left = _left(limits, began)
        first = self._run(formula, [], left, limits.memory_mb) if left is None or left > 0 else \
            Verdict("UNKNOWN", [], None, KILLED)
        if first.status == "UNKNOWN":
            why = first.why if first.why != KILLED else (
                f"the time limit of {seconds(limits.time_limit)} was reached (walks of up to "
                f"{horizon} steps; {self.program} was stopped or not started)")
            return Answer.unknown(self.name, why, **stats)
        if first.status == "UNSAT":
            return self._unsat(puzzle, formula, first, stats, _left(limits, began)) \
                if last else None
        walk = self._walk(formula, first.model)
        best = puzzle.objective is Objective.SHORTEST or puzzle.wants_longest
        optimal: bool | None = None
        if best:
            walk, optimal, stats["runs"] = self._improve(
                formula, walk, limits, began, longest=puzzle.wants_longest, floor=floor)
        return Answer.solved(self.name, walk, optimal=optimal, **stats)

    def _unsat(self, puzzle: Puzzle, formula: Formula, verdict: Verdict,
               stats: dict[str, Any], left: float | None) -> Answer:
        """The refutation: certified by the solver's proof when there is one, read
        within the time ``left`` (``None``: no limit)."""
        empty = puzzle.empty_walk_nodes()
        if empty:  # longest, and no step fits anywhere: the empty walk is longest
            return Answer.solved(self.name, Walk((empty[0],), ()), optimal=True, **stats)
        if left is not None and left <= 0 and verdict.proof is not None:
            verdict = Verdict(verdict.status, verdict.model, None,
                              "the time limit was reached before its proof was used")
        certificate: Certificate | None = None
        if formula.certified is not None and verdict.proof is not None:
            certificate = make_certificate(puzzle, formula.certified, verdict.proof,
                                           self.name)
            if certificate is not None:
                return Answer.unsolvable(self.name, certificate, reason=(
                    f"{self.program} refuted the {formula.certified.encoding} formula and "
                    "wrote a DRAT proof"), **stats)
        why = verdict.why or (
            "its proof could not be used" if verdict.proof is not None or
            (self.program in PROOF_AFTER_CNF and formula.certified is not None)
            else "it writes no proof trailkit knows how to ask for")
        return Answer.unsolvable(self.name, None, reason=(
            f"{self.program} says UNSATISFIABLE ({why}); this rests on {self.program} "
            "alone, not on a checkable certificate"), **stats)

    def _improve(self, formula: Formula, walk: Walk, limits: Limits, began: float, *,
                 longest: bool, floor: int) -> tuple[Walk, bool, int]:
        """The best length, by rerunning with a bound on the length: the longest upwards,
        one step at a time; the shortest by bisection between ``floor`` (no walk has that
        many steps or fewer) and the walk found."""
        if not formula.longest_possible:  # a fixed-length formula: the one length
            return walk, True, 1
        lo, runs = floor, 1
        while True:
            k = len(walk)
            if (longest and k >= formula.longest_possible) or (not longest and k - lo <= 1):
                return walk, True, runs
            mid = (lo + k) // 2
            bound = formula.more_than(k) if longest else formula.at_most(mid)
            left = _left(limits, began)
            if bound is None or (left is not None and left <= 0):
                return walk, bound is None, runs
            runs += 1
            verdict = self._run(formula, [bound], left, limits.memory_mb)
            if verdict.status == "UNSAT" and longest:
                return walk, True, runs
            if verdict.status == "UNSAT":
                lo = mid
            elif verdict.status == "SAT":
                walk = self._walk(formula, verdict.model)
            else:
                return walk, False, runs


def _trivial_answer(name: str, puzzle: Puzzle) -> Answer | None:
    """:func:`trivial_answer`, and no step at all to take (no formula to write then; node
    rules may allow none: one node not avoided, an open walk)."""
    answer = trivial_answer(name, puzzle)
    if answer is not None:
        return answer
    if puzzle.oriented_edges() and (not puzzle.has_node_rules or node_horizon(puzzle)):
        return None
    empty = puzzle.empty_walk_nodes()
    if empty:  # longest, and no step at all: the empty walk
        return Answer.solved(name, Walk((empty[0],), ()), optimal=True)
    return Answer.unsolvable(name, None, reason="no edge can be taken and the empty walk "
                             "is not allowed")
