"""The CNF a ``dimacs:COMMAND`` solver gets, and how its models read back.

* exactly-once walks: ``position-v1`` (the formula ``export --format dimacs`` writes,
  refuted by a certificate ``prove`` would make);
* at-most-once walks: ``walk-v1`` (every length from 1 to the most steps at once; the
  same formula as the export);
* node rules (``visit``, ``via``, ``avoid``, ``at``), whatever the edge rule:
  ``node-positions-v1`` (:mod:`trailkit.models.formulas.node_positions`: walks of 1 to the
  node horizon, a literal per node and position);
* reusable edges: the layered state encoding (:mod:`trailkit.models.encodings.layered_encoding`)
  up to a horizon, plus the clause "the walk ends at some length": horizons 16, 32, ...
  up to the number of reachable (node, colour-phase) states, since a shortest walk
  repeats no state after its first step. Not a certified formula: the pipeline
  certifies an unsolvable answer (the closed set of states).

A :class:`Formula` also says how to ask for "at most ``b`` steps" and "more than ``k``
steps" (unit clauses on the activation variables, or the layered encoding's
``finish`` literals), which the backend uses to find the shortest or longest walk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from trailkit.models.answer import Walk
from trailkit.models.encodings.layered_encoding import LayeredEncoding
from trailkit.models.formulas.formulas import CertifiedFormula, position_certified
from trailkit.models.formulas.node_positions import (
    encode_node_prefix,
    node_formula,
    node_horizon,
)
from trailkit.models.formulas.position_encoding import VarMap, encode, encode_prefix
from trailkit.models.formulas.walk_formula import encode_walks, walk_formula, walk_horizon
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["Formula", "certified_cnf", "horizons", "reachable_states"]


@dataclass(frozen=True)
class Formula:
    """The CNF given to the solver and what goes with it.

    ``certified`` is the formula a refutation proves (``None`` for reusable edges);
    ``read`` turns a model into a walk (``ValueError`` if it is none); ``at_most(b)``
    and ``more_than(k)`` are the clauses that bound the length (``None``: no bound
    needed, every walk of the formula obeys it); ``longest_possible`` is the most steps
    a walk of the formula can take (0: every walk has the one length).
    """

    clauses: list[list[int]]
    num_vars: int
    certified: CertifiedFormula | None
    read: Callable[[list[int]], Walk]
    at_most: Callable[[int], list[int] | None]
    more_than: Callable[[int], list[int] | None]
    longest_possible: int


def horizons(puzzle: Puzzle) -> list[int]:
    """The walk lengths to try: once-only walks all at once (the certified formula);
    reusable edges 16, 32, ... up to the number of reachable states; node rules: the
    node horizon."""
    if puzzle.has_node_rules:
        return [node_horizon(puzzle)]
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return [puzzle.num_edges]
    if puzzle.use is EdgeUse.AT_MOST_ONCE:
        return [walk_horizon(puzzle)]
    full = max(1, reachable_states(puzzle))
    return [*(h for h in (16 * 2 ** i for i in range(40)) if h < full), full]


def reachable_states(puzzle: Puzzle) -> int:
    """How many (node, colour-phase) states a walk can reach by its steps: a shortest
    walk repeats none of them after its first step, so it has at most that many steps."""
    rule = puzzle.colours is not None
    colour = puzzle.colour
    leaving: dict[int, list[tuple[int, int]]] = {}
    for e, o in puzzle.oriented_edges():
        u, v = puzzle.tail[e], puzzle.head[e]
        src, dst = (u, v) if o == 0 else (v, u)
        leaving.setdefault(src, []).append((dst, -1 if colour is None else colour[e]))
    seen: set[tuple[int, int]] = set()
    todo = [(dst, c if rule else 0) for u in puzzle.start_nodes()
            for dst, c in leaving.get(u, ()) if puzzle.may_come_first(c)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        node, phase = state
        todo += [(dst, c if rule else 0) for dst, c in leaving.get(node, ())
                 if not rule or puzzle.colour_may_follow(phase, c)]
    return len(seen)


def _prefix(puzzle: Puzzle, clauses: list[list[int]], vmap: VarMap,
            certified: CertifiedFormula | None) -> Formula:
    active = vmap.active

    def at_most(b: int) -> list[int] | None:
        return [-active[b]] if b < len(active) else None

    def more_than(k: int) -> list[int] | None:
        return [active[k]] if k < len(active) else []

    return Formula(clauses, vmap.num_vars, certified, lambda m: vmap.decode(puzzle, m),
                   at_most, more_than, len(active))


def _layered(puzzle: Puzzle, horizon: int) -> Formula:
    enc = LayeredEncoding(puzzle, horizon)
    enc.extend_to(horizon)
    finish = dict(enc.finish)

    def read(model: list[int]) -> Walk:
        true = {lit for lit in model if lit > 0}
        ends = sorted(k for k, var in finish.items() if var in true)
        if not ends:
            raise ValueError("no length is marked as the walk's end")
        try:
            return enc.decode(model, ends[0])
        except StopIteration:
            raise ValueError("the states of the model do not form a walk") from None

    def at_most(b: int) -> list[int] | None:
        return [var for k, var in finish.items() if k <= b]

    return Formula([*enc.clauses, list(finish.values())], enc.top, None, read, at_most,
                   lambda k: [], horizon)


def certified_cnf(puzzle: Puzzle, horizon: int | None = None) -> Formula:
    """The formula of ``puzzle`` the solver gets (see the module docstring); for reusable
    edges, of the walks of 1..``horizon`` steps (default: the last of :func:`horizons`).
    Raises ``ValueError`` when no step can be taken (no formula of steps)."""
    if puzzle.has_node_rules:
        return _nodes(puzzle)
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        clauses, vmap = encode(puzzle, puzzle.num_edges)
        fixed = Formula(clauses, vmap.num_vars, position_certified(puzzle, clauses, vmap),
                        lambda m: vmap.decode(puzzle, m), lambda b: None, lambda k: None, 0)
        return fixed
    if puzzle.use is EdgeUse.AT_MOST_ONCE and not puzzle.empty_walk_nodes():
        walks, wmap = encode_walks(puzzle)
        certified = walk_formula(puzzle)
        if wmap is None or isinstance(certified, list):
            raise ValueError("no formula: no step can be taken")
        return _prefix(puzzle, walks, wmap, certified)
    if puzzle.use is EdgeUse.AT_MOST_ONCE:  # longest, and the empty walk allowed
        clauses, vmap = encode_prefix(puzzle, walk_horizon(puzzle))
        return _prefix(puzzle, [*clauses, [vmap.active[0]]], vmap, None)
    return _layered(puzzle, horizon if horizon is not None else horizons(puzzle)[-1])


def _nodes(puzzle: Puzzle) -> Formula:
    """``node-positions-v1``; where the empty walk is allowed (asked for the longest) the
    same clauses certify nothing (a refutation would not mean that no walk exists)."""
    horizon = node_horizon(puzzle)
    if horizon == 0:
        raise ValueError("no formula: no step can be taken")
    clauses, vmap = encode_node_prefix(puzzle, horizon)
    certified = node_formula(puzzle)
    return _prefix(puzzle, [*clauses, [vmap.active[0]]], vmap,
                   certified if isinstance(certified, CertifiedFormula) else None)
