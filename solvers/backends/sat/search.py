"""Solving and counting walk puzzles with a SAT solver (the work behind :class:`SatBackend`).

* exactly-once: one formula with ``#edges`` steps (:func:`encode`);
* at-most-once: walks of 1..H steps, H = the number of edges a step may take;
* reusable edges: walks of 1..H steps, H = #nodes × #colour phases. A shortest walk
  never repeats a (node, colour-phase) state after its first step (cutting the loop
  between two equal states leaves a valid walk, and for a closed walk the join rule
  still holds), so if no walk of at most H steps exists, no walk exists at all.

For at-most-once walks one incremental solver answers every length under the
assumptions ``a[k-1], -a[k]`` (:func:`encode_prefix`), shortest first. Reusable
walks use the layered state encoding of :mod:`trailkit.models.encodings.layered_encoding`
instead, grown one layer per length and asked under the assumption ``fin[k]``, shortest
first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.encodings.layered_encoding import LayeredEncoding
from trailkit.models.formulas.position_encoding import VarMap, encode, encode_prefix
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.sat.runner import Deadline, Verdict, new_solver, solve_call

__all__ = ["Outcome", "count_walks", "empty_walk", "empty_walks", "enumerate_plans", "horizon",
           "length_plans", "search"]


@dataclass(frozen=True)
class Outcome:
    """What a search found: a walk (SAT), a refutation (UNSAT), or INTERRUPTED."""

    status: Verdict
    walk: Walk | None = None
    length_proven_minimal: bool = False
    reason: str = ""
    proof: list[str] | None = None
    clauses: list[list[int]] | None = None
    varmap: VarMap | None = None


def empty_walks(puzzle: Puzzle) -> list[Walk]:
    """The empty walks the rules allow: one on each node allowed as both start and end
    (none when there are edges and every edge must be used or the walk must close)."""
    if not puzzle.num_nodes:
        return [Walk.nowhere()]
    return [Walk((v,), ()) for v in puzzle.empty_walk_nodes()]


def empty_walk(puzzle: Puzzle) -> Walk | None:
    """One allowed empty walk, or ``None``."""
    walks = empty_walks(puzzle)
    return walks[0] if walks else None


def horizon(puzzle: Puzzle) -> tuple[int, str]:
    """The longest walk worth asking for, and why no longer one is needed."""
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return puzzle.num_edges, "an exactly-once walk has one step per edge"
    if puzzle.use is EdgeUse.AT_MOST_ONCE:
        h = len({e for e, _ in puzzle.oriented_edges()})
        return h, f"a walk using each edge at most once has at most {h} steps"
    phases = len(puzzle.colours.names) if puzzle.colours is not None else 1
    h = puzzle.num_nodes * phases if puzzle.oriented_edges() else 0
    return h, (f"a shortest walk never repeats a (node, colour-phase) state after its first "
               f"step, and there are {puzzle.num_nodes} × {phases} = {h} such states")


def search(puzzle: Puzzle, solver_name: str, deadline: Deadline, *,
           proof: bool = False) -> Outcome:
    """Find a walk (the shortest when asked), or show there is none."""
    empty = empty_walk(puzzle)
    if empty is not None and not puzzle.wants_longest:
        return Outcome(Verdict.SAT, empty, True)
    h, why = horizon(puzzle)
    if h == 0 and empty is not None:
        return Outcome(Verdict.SAT, empty, True)  # longest, and no edge at all: the empty walk
    if h == 0:
        return Outcome(Verdict.UNSAT, reason="the empty walk is not allowed and no edge can be "
                                       "taken (" + why + ")")
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return _fixed_length(puzzle, solver_name, deadline, proof)
    if puzzle.use is EdgeUse.ANY:
        return _layered(puzzle, solver_name, deadline, h, why)
    return _growing(puzzle, solver_name, deadline, h, why)


def _fixed_length(puzzle: Puzzle, name: str, deadline: Deadline, proof: bool) -> Outcome:
    clauses, vmap = encode(puzzle, puzzle.num_edges)
    solver = new_solver(name, clauses, proof=proof)
    try:
        result = solve_call(solver, name, (), deadline)
        if result is Verdict.INTERRUPTED:
            return Outcome(Verdict.INTERRUPTED)
        if result is Verdict.SAT:
            return Outcome(Verdict.SAT, vmap.decode(puzzle, solver.get_model()), True)
        lemmas = list(solver.get_proof() or []) if proof else None
        return Outcome(Verdict.UNSAT, reason=f"the SAT solver {name} refuted the position encoding "
                                       f"with {puzzle.num_edges} steps (every edge exactly once)",
                       proof=lemmas, clauses=clauses, varmap=vmap)
    finally:
        solver.delete()


def _growing(puzzle: Puzzle, name: str, deadline: Deadline, h: int, why: str) -> Outcome:
    clauses, vmap = encode_prefix(puzzle, h)
    act = vmap.active
    shortest = puzzle.objective is Objective.SHORTEST
    longest = puzzle.wants_longest
    solver = new_solver(name, clauses)
    try:
        # longest: iterative bounds from the horizon down, the first length that fits wins
        lengths = range(1, h + 1) if shortest else range(h, 0, -1) if longest else [0]
        for k in lengths:
            assumptions = [act[0]] if k == 0 else [act[k - 1]] + ([-act[k]] if k < h else [])
            result = solve_call(solver, name, assumptions, deadline)
            if result is Verdict.INTERRUPTED:
                return Outcome(Verdict.INTERRUPTED,
                               reason=f"no walk of fewer than {k} steps exists")
            if result is Verdict.SAT:
                return Outcome(Verdict.SAT, vmap.decode(puzzle, solver.get_model()),
                               shortest or longest)
        empty = empty_walk(puzzle) if longest else None
        if empty is not None:
            return Outcome(Verdict.SAT, empty, True)
        return Outcome(Verdict.UNSAT, reason=(
            f"the SAT solver {name} found no walk of 1..{h} steps (incremental solving under "
            f"assumptions), the empty walk is not allowed, and {why}; this rests on the "
            "solver's UNSAT answers, so a second backend should confirm"))
    finally:
        solver.delete()


def _layered_lengths(enc: LayeredEncoding, solver: object,
                     deadline: Deadline) -> Iterator[tuple[int, int]]:
    """Yield ``(k, fin[k])`` for each length 1..H a goal state is reachable at, adding
    each new layer's clauses to ``solver`` first; stops early when a layer is empty."""
    for k in range(1, enc.horizon + 1):
        if enc.exhausted() or deadline.passed():
            return
        enc.extend_to(k)
        for clause in enc.take_new():
            solver.add_clause(clause)  # type: ignore[attr-defined]  # python-sat ships no types
        if k in enc.finish:
            yield k, enc.finish[k]


def _layered(puzzle: Puzzle, name: str, deadline: Deadline, h: int, why: str) -> Outcome:
    """Shortest reusable walk: the layered state encoding, one length at a time."""
    enc = LayeredEncoding(puzzle, h)
    solver = new_solver(name, enc.take_new())
    shortest = puzzle.objective is Objective.SHORTEST
    asked: list[int] = []
    stopped = False
    try:
        for k, fin in _layered_lengths(enc, solver, deadline):
            result = solve_call(solver, name, [fin], deadline)
            if result is Verdict.INTERRUPTED:
                stopped = True
                break
            if result is Verdict.SAT:
                return Outcome(Verdict.SAT, enc.decode(solver.get_model(), k), shortest)
            asked.append(k)
        if stopped or deadline.passed():
            return Outcome(Verdict.INTERRUPTED, reason="no walk of fewer than "
                           f"{len(enc.layers) - 1} steps exists")
    finally:
        solver.delete()
    if asked:
        basis = (f"the SAT solver {name} refuted the layered state encoding for the lengths "
                 f"{_spans(asked)} (incremental solving under assumptions) and forward and "
                 "backward reachability over the (node, colour-phase) states rules out every "
                 "other length")
    else:
        basis = ("forward and backward reachability over the (node, colour-phase) states "
                 "shows that no walk from a start reaches an allowed end (no SAT solver "
                 "call was needed)")
    return Outcome(Verdict.UNSAT, reason=(
        f"no walk of 1..{h} steps exists: {basis}, the empty walk is not allowed, and {why}; "
        "this rests on the layered encoding (and the solver's UNSAT answers), so a second "
        "backend should confirm"))


def _spans(lengths: list[int], most: int = 6) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``; a summary when there are more than ``most`` runs."""
    parts: list[str] = []
    for k in lengths:
        if parts and parts[-1].split("-")[-1] == str(k - 1):
            parts[-1] = parts[-1].split("-")[0] + f"-{k}"
        else:
            parts.append(str(k))
    if len(parts) > most:
        return (f"{', '.join(parts[:3])}, ... ({len(lengths)} lengths from {lengths[0]} to "
                f"{lengths[-1]}: every length at which a goal state is reachable)")
    return ", ".join(parts)


def _count_layered(puzzle: Puzzle, name: str, deadline: Deadline, total: int,
                   progress: Callable[[int], None]) -> tuple[int, bool, str]:
    """Count the shortest reusable walks: enumerate state sequences of the first length
    that has any, each blocked once, and add the walks each one stands for."""
    enc = LayeredEncoding(puzzle, horizon(puzzle)[0])
    solver = new_solver(name, enc.take_new())
    try:
        for k, fin in _layered_lengths(enc, solver, deadline):
            found = 0
            while True:
                result = solve_call(solver, name, [fin], deadline)
                if result is Verdict.INTERRUPTED or deadline.passed():
                    return total, False, "the time limit was reached"
                if result is Verdict.UNSAT:
                    break
                states = enc.states_of(solver.get_model(), k)
                found += 1
                total += enc.multiplicity(states)
                progress(total)
                solver.add_clause([-v for v in enc.state_vars(states)] + [-fin])
            if found:
                break
        if deadline.passed():
            return total, False, "the time limit was reached"
    finally:
        solver.delete()
    return total, True, ""


def _count_plans(puzzle: Puzzle, h: int, longest: bool
                 ) -> tuple[list[list[int]], VarMap, list[tuple[list[int], list[int]]]]:
    """The formula to count a once-only puzzle's walks of up to ``h`` steps on, and its
    plans: (assumptions, release literals) per length to count, longest first under
    ``longest`` (one plan for exactly-once walks: they have one length)."""
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        clauses, vmap = encode(puzzle, h, break_symmetry=False)
        plans: list[tuple[list[int], list[int]]] = [([], [])]
    else:
        clauses, vmap = encode_prefix(puzzle, h)
        plans = length_plans(vmap.active, h, longest)
    return clauses, vmap, plans


def length_plans(act: Sequence[int], h: int, longest: bool
                 ) -> list[tuple[list[int], list[int]]]:
    """The plans to count a prefix formula's walks of 1..``h`` steps by, on its
    activation literals ``act``: one a length k (exactly k steps are active), with the
    literals that release (satisfy) a blocking clause for the other lengths; the
    longest first under ``longest`` (the first length with a walk is the longest)."""
    plans = [([act[k - 1]] + ([-act[k]] if k < h else []), [act[k]] if k < h else [])
             for k in range(1, h + 1)]
    if longest:
        plans.reverse()
    return plans


def enumerate_plans(solver_name: str, clauses: list[list[int]], vmap: VarMap,
                     plans: list[tuple[list[int], list[int]]], deadline: Deadline,
                     total: int, progress: Callable[[int], None], *, first_only: bool
                     ) -> tuple[int, bool]:
    """Count the models of ``clauses`` plan by plan, blocking each on its primary
    variables (released for the other lengths), from ``total`` on; with ``first_only``
    stop after the first plan with a model (the best length). The count and whether it
    is complete (not when the time ran out)."""
    solver = new_solver(solver_name, clauses)
    try:
        for assumptions, release in plans:
            found = 0
            while True:
                result = solve_call(solver, solver_name, assumptions, deadline)
                if result is Verdict.INTERRUPTED or deadline.passed():
                    return total, False
                if result is Verdict.UNSAT:
                    break
                found += 1
                total += 1
                progress(total)
                solver.add_clause([-v for v in vmap.primary(solver.get_model())] + release)
            if found and first_only:
                break
    finally:
        solver.delete()
    return total, True


def count_walks(puzzle: Puzzle, solver_name: str, deadline: Deadline,
                progress: Callable[[int], None] = lambda n: None) -> tuple[int, bool, str]:
    """Count solutions by enumeration with blocking clauses on the primary variables.

    Solutions are exactly-once walks; at-most-once walks of every length (or of the
    shortest or longest length under that objective); for reusable edges, the
    shortest walks only (there may be infinitely many others). Returns
    ``(count, complete, reason)``.
    """
    from trailkit.models.errors import UnsupportedPuzzle

    shortest = puzzle.objective is Objective.SHORTEST
    longest = puzzle.wants_longest
    if puzzle.use is EdgeUse.ANY and not shortest:
        raise UnsupportedPuzzle("walks that may reuse edges can be infinitely many; the sat "
                                "backend counts them only with the objective shortest")
    empties = len(empty_walks(puzzle))
    total = 0 if longest else empties  # longest: the empty walks count only if nothing fits
    progress(total)
    if total and (shortest or puzzle.use is EdgeUse.EXACTLY_ONCE):
        return total, True, ""
    h = horizon(puzzle)[0]
    if h == 0:
        return empties, True, ""
    if puzzle.use is EdgeUse.ANY:
        return _count_layered(puzzle, solver_name, deadline, total, progress)
    clauses, vmap, plans = _count_plans(puzzle, h, longest)
    total, complete = enumerate_plans(solver_name, clauses, vmap, plans, deadline, total,
                                       progress, first_only=shortest or longest)
    if not complete:
        return total, False, "the time limit was reached"
    if longest and not total:
        total = empties
    return total, True, ""
