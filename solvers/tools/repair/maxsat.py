"""The fewest changes by MaxSAT: python-sat's RC2 over the position encoding.

The second optimiser beside CP-SAT (:mod:`.optimise`), for puzzles whose edges are used
at most or exactly once. The puzzle is extended with every candidate as an extra edge
(as for CP-SAT), and the position encoding of :mod:`trailkit.models.formulas.position_encoding`
describes the walks of 1 up to (number of edges) steps, each edge at most once. Then:

* hard: the walk takes a first step; a candidate's variable ``y`` is true exactly when
  its edge is walked (an added edge, a recoloured copy) or when the edge is left out (a
  removal); an original edge of an exactly-once puzzle is walked, or its recoloured
  copy is, or it is removed, and never two of these;
* soft: ``not y`` for every candidate, weight 1.

RC2's optimum is the fewest changes (its cost), found by unsatisfiable-core guided
search; the model names the change set. The encoding grows with (edges x steps), so
puzzles over :data:`MAX_EDGES` edges (candidates included) are left to CP-SAT (RC2
has no time limit, and its time grows fast past that size: ``docs/benchmarks.md``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.base import Optimum
from trailkit.solvers.tools.repair.changes import Change, Op
from trailkit.solvers.tools.repair.optimise import change_roles, extended_puzzle, with_empty_walk

if TYPE_CHECKING:
    from pysat.formula import WCNF

__all__ = ["MAX_EDGES", "maxsat_changes"]

#: The most edges (originals plus candidates) the MaxSAT model is built for.
MAX_EDGES = 32


def maxsat_changes(puzzle: Puzzle, changes: Sequence[Change], *,
                   at_most: int | None = None, exclude: Sequence[Sequence[int]] = ()
                   ) -> Optimum:
    """Minimise the number of ``changes`` that make ``puzzle`` solvable with RC2;
    ``exclude`` blocks change sets already found, ``at_most`` bounds the number."""
    from pysat.examples.rc2 import RC2

    if puzzle.use is EdgeUse.ANY:
        raise ValueError("the MaxSAT repair model is for edges used at most or exactly once")
    began = time.perf_counter()
    ext, extra = extended_puzzle(puzzle, changes)
    if ext.num_edges > MAX_EDGES:
        return Optimum("unknown", detail=f"{ext.num_edges} edges with the candidates: over "
                                         f"the MaxSAT model's {MAX_EDGES}")
    horizon = len({e for e, _ in ext.oriented_edges()})
    if horizon == 0:
        return with_empty_walk(Optimum("infeasible", detail="no edge can be walked"),
                               puzzle, changes, exclude=exclude, at_most=at_most)
    wcnf, y = _repair_formula(puzzle, changes, ext, extra, horizon,
                              at_most=at_most, exclude=exclude)
    with RC2(wcnf) as rc2:
        model = rc2.compute()
    elapsed = time.perf_counter() - began
    if model is None:
        found = Optimum("infeasible", time_s=elapsed,
                        detail="RC2 found the hard clauses unsatisfiable: no set of the "
                               "allowed changes makes the puzzle solvable")
    else:
        true = set(lit for lit in model if lit > 0)
        chosen = tuple(i for i, var in enumerate(y) if var in true)
        found = Optimum("optimal", len(chosen), chosen, elapsed)
    return with_empty_walk(found, puzzle, changes, exclude=exclude, at_most=at_most)


def _repair_formula(puzzle: Puzzle, changes: Sequence[Change], ext: Puzzle,
                    extra: dict[int, int], horizon: int, *, at_most: int | None,
                    exclude: Sequence[Sequence[int]]) -> tuple[WCNF, list[int]]:
    """The weighted formula of the module docstring over the extended puzzle ``ext``
    (``extra``: its edge of each candidate), and each change's variable ``y``."""
    from pysat.formula import WCNF

    from trailkit.models.formulas.position_encoding import encode_prefix

    clauses, vmap = encode_prefix(ext, horizon)
    fresh = _Fresh(vmap.num_vars)
    walked: dict[int, list[int]] = {}
    for (_, e, _), var in vmap.index.items():
        walked.setdefault(e, []).append(var)
    wcnf = WCNF()
    for clause in clauses:
        wcnf.append(clause)
    wcnf.append([vmap.active[0]])  # at least one step
    used = {e: _equals_or(wcnf, fresh, walked.get(e, [])) for e in range(ext.num_edges)}
    y = [fresh() for _ in changes]
    _link_changes(wcnf, puzzle, changes, extra, used, y)
    if at_most is not None and y:
        from pysat.card import CardEnc, EncType

        card = CardEnc.atmost(y, bound=at_most, top_id=fresh.top, encoding=EncType.seqcounter)
        for clause in card.clauses:
            wcnf.append(clause)
        fresh.top = max(fresh.top, card.nv)
    for chosen_before in exclude:
        wcnf.append([-y[i] for i in chosen_before])
    for var in y:
        wcnf.append([-var], weight=1)
    return wcnf, y


def _link_changes(wcnf: WCNF, puzzle: Puzzle, changes: Sequence[Change],
                  extra: dict[int, int], used: dict[int, int], y: list[int]) -> None:
    """The hard clauses tying each change's ``y`` to the edges walked (module docstring)."""
    candidate_edge = {i: e for e, i in extra.items()}
    copies, removal = change_roles(changes)
    for i, e in candidate_edge.items():
        wcnf.append([-y[i], used[e]])
        wcnf.append([y[i], -used[e]])
    for e in range(puzzle.num_edges):
        options = [used[e]] + [used[candidate_edge[i]] for i in copies.get(e, [])]
        if puzzle.use is EdgeUse.EXACTLY_ONCE:
            options += [y[removal[e]]] if e in removal else []
            wcnf.append(options)
        for a in range(len(options)):
            for b in range(a + 1, len(options)):
                wcnf.append([-options[a], -options[b]])
    for i, change in enumerate(changes):
        if change.op is Op.REMOVE and puzzle.use is not EdgeUse.EXACTLY_ONCE:
            wcnf.append([-y[i]])


class _Fresh:
    """New variable numbers after the ``top`` ones in use."""

    def __init__(self, top: int) -> None:
        self.top = top

    def __call__(self) -> int:
        self.top += 1
        return self.top


def _equals_or(wcnf: WCNF, fresh: _Fresh, lits: list[int]) -> int:
    """A new variable that is true exactly when one of ``lits`` is."""
    v = fresh()
    wcnf.append([-v, *lits])
    for lit in lits:
        wcnf.append([-lit, v])
    return v
