"""The ``repair-fewer-v1`` formula: no repair within the rules has at most k-1 changes.

A repair of ``k`` changes has the fewest when no set of at most ``k`` - 1 changes the
spec's ``repair:`` rules allow makes the puzzle solvable. Where those sets are too many to
refute one by one (:mod:`trailkit.models.checking.change_sets`), one formula says it: its
models are exactly "a set of at most ``k`` - 1 allowed changes, each to a different
existing edge, and a walk of the puzzle with them made that obeys every rule", so a DRUP
refutation of it, with the ``k``-change repair and its walk verified, proves the claim.

The checker builds it from the spec alone. The allowed changes are derived as
:func:`~trailkit.models.formulas.repair_changes.allowed_changes` derives them. Every edge
any set could hold goes into one puzzle: the edges as given, then each new edge, then for
each recolouring a copy of its edge in the new colour. The position encoding's prefix form
(:func:`~trailkit.models.formulas.position_encoding.encode_prefix`, edges at most once, or
reusable) speaks of that puzzle's walks of 1..H steps; a selector variable per allowed
change then says which edges are there:

* a step takes a new edge or a copy only if its change is chosen; an edge as given only
  if no change to it (removing or recolouring it) is chosen;
* at most one change per existing edge, at most ``k`` - 1 changes in all (pysat's
  cardinality encoder), and a first step (``a[0]``);
* edges used exactly once: each edge that is there is taken (edges at most once: at most
  once each, from the encoding); and the *degree clauses*: a node of odd degree that no
  chosen change touches (by a new or a removed edge with one end there) is still odd, so
  it is the walk's start or end: a closed walk has none, an open one at most two (an
  "untouched" variable each, at most 2 of them true), each where it may start or end.
  They hold for every walk with its "untouched" variables set as named, so they leave
  the models as they were, and they let a solver refute by parity in a few steps what
  it would otherwise search for over every step; where two colours must alternate on a
  closed walk, the *balance clauses* of :mod:`trailkit.models.formulas.repair_balance`
  likewise (each node's ends of the two colours as many).

On a puzzle with node rules (``visit``, ``via``, ``avoid``, ``at``) the prefix form is
:func:`~trailkit.models.formulas.node_positions.encode_node_prefix`: the same walks with
the node literals and the clauses of each node rule (the rules speak of nodes, so no
change alters them), so the models are the repairs whose walks obey the node rules too.

H is the most steps a walk of a changed puzzle can take: its edges, ``m`` plus at most
``k`` - 1 new ones (once-only edges); for reusable edges, the (node, colour) states, since
a shortest walk never comes back to the state it was in (cutting that loop out leaves a
walk); under node rules, no more than the nodes allow (``visit`` other than ``any``), or
for reusable edges :func:`~trailkit.models.formulas.node_positions.node_horizon`'s bound on
a shortest walk through the checkpoints and the givens. The empty walk is decided here:
a puzzle that allows it needs no repair, and one whose every edge can be removed with
fewer than ``k`` changes is refused.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a"), ("a", "d")], closed=True)
>>> repair = {"changes": [{"op": "add", "from": "a", "to": "d"}], "start": "a",
...           "walk": [0, 1, 2, 3, 4]}
>>> f = repair_formula(p, {"changes": 1, "candidates": 6, "repair": repair})
>>> f.encoding, f.params["changes"], f.clauses[-1]
('repair-fewer-v1', 1, [81])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pysat.card import CardEnc

from trailkit.models.formulas.certified import CertifiedFormula, Clause
from trailkit.models.formulas.node_positions import encode_node_prefix, node_horizon
from trailkit.models.formulas.position_encoding import (
    CARDINALITIES,
    DEFAULT_CARDINALITY,
    VarMap,
)
from trailkit.models.formulas.repair_balance import balance_clauses
from trailkit.models.formulas.repair_changes import (
    Key,
    allowed_changes,
    applied,
    repair_walk,
    set_words,
)
from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle
from trailkit.models.support.words import in_puzzle_words, plural

__all__ = ["ENCODING_NAME", "RepairClauses", "Whole", "repair_clauses", "repair_formula",
           "repair_horizon", "whole_puzzle"]

ENCODING_NAME = "repair-fewer-v1"


@dataclass(frozen=True)
class RepairClauses:
    """The formula's clauses; ``whole`` is the puzzle with every candidate edge, whose
    walks ``vmap`` describes; ``selectors[i]`` is the variable of ``allowed[i]``."""

    clauses: list[Clause]
    num_vars: int
    whole: Puzzle
    vmap: VarMap
    allowed: list[Key]
    selectors: list[int]


def repair_horizon(puzzle: Puzzle, allowed: Sequence[Key], fewer: int) -> int:
    """H: the most steps a walk of ``puzzle`` with at most ``fewer`` of ``allowed`` made
    must take to exist (module docstring; under node rules, the node-positions bound
    where it is smaller, or where edges are reusable the bound on a shortest walk that
    passes the checkpoints and givens: neither depends on the edges)."""
    adds = sum(1 for c in allowed if c[0] == "add")
    if puzzle.use is EdgeUse.ANY:
        if puzzle.has_node_rules:
            return node_horizon(puzzle)
        return puzzle.num_nodes * (len(puzzle.colours.names) if puzzle.colours else 1)
    most = puzzle.num_edges + min(fewer, adds)
    if puzzle.visit is not NodeVisit.ANY:
        free = puzzle.num_nodes - len(puzzle.avoid)
        most = min(most, free if puzzle.closed else max(free - 1, 0))
    return most


@dataclass(frozen=True)
class Whole:
    """The puzzle with every edge any set of ``allowed`` changes could hold: the edges as
    given first, in order, then each new edge, then each recoloured copy (edges used
    exactly once become edges used at most once: which are there is the selectors' say);
    ``brings[i]``: the edge ``allowed[i]`` brings (-1: none)."""

    puzzle: Puzzle
    allowed: list[Key]
    brings: list[int]


def whole_puzzle(puzzle: Puzzle) -> Whole | str:
    """The :class:`Whole` puzzle of the changes ``puzzle.repair`` allows, or why the
    changes cannot be derived."""
    allowed = allowed_changes(puzzle)
    if isinstance(allowed, str):
        return allowed
    adds = [c for c in allowed if c[0] == "add"]
    copies = [("add", u, v, colour, None, one_way)
              for op, u, v, colour, _, one_way in allowed if op == "recolour"]
    whole = applied(puzzle, [*adds, *copies])
    use = EdgeUse.AT_MOST_ONCE if puzzle.use is EdgeUse.EXACTLY_ONCE else puzzle.use
    brings, nxt_add, nxt_copy = [], puzzle.num_edges, puzzle.num_edges + len(adds)
    for change in allowed:
        if change[0] == "add":
            brings.append(nxt_add)
            nxt_add += 1
        elif change[0] == "recolour":
            brings.append(nxt_copy)
            nxt_copy += 1
        else:
            brings.append(-1)
    return Whole(replace(whole, use=use), allowed, brings)


def _empty_walk_refusal(puzzle: Puzzle, allowed: Sequence[Key], fewer: int) -> str:
    """Why the formula (which asks for a first step) would miss a repair by the empty
    walk (empty: it cannot)."""
    if puzzle.empty_walk_nodes():
        return "the empty walk is allowed, so the puzzle needs no repair"
    removable = {c[4] for c in allowed if c[0] == "remove"}
    if puzzle.use is EdgeUse.EXACTLY_ONCE and len(removable) == puzzle.num_edges <= fewer \
            and replace(puzzle, tail=[], head=[], colour=None, directed=None,
                        edge_ids=None).empty_walk_nodes():
        return ("removing every edge leaves the empty walk, a repair of "
                f"{plural(puzzle.num_edges, 'change')}")
    return ""


def repair_clauses(puzzle: Puzzle, fewer: int, *, cardinality: str = DEFAULT_CARDINALITY
                   ) -> RepairClauses | str:
    """The clauses "at most ``fewer`` allowed changes and a walk of the changed puzzle"
    (module docstring), under ``puzzle.repair``; or why they cannot be built."""
    if cardinality not in CARDINALITIES:
        return f"unknown cardinality encoding {cardinality!r}"
    made = whole_puzzle(puzzle)
    if isinstance(made, str):
        return made
    whole, allowed, brings = made.puzzle, made.allowed, made.brings
    refusal = _empty_walk_refusal(puzzle, allowed, fewer)
    if refusal:
        return refusal
    horizon = max(repair_horizon(puzzle, allowed, fewer), 1)  # no step: a[0] refutes
    clauses, vmap = encode_node_prefix(whole, horizon, cardinality=cardinality)
    top = vmap.num_vars
    selectors = list(range(top + 1, top + 1 + len(allowed)))
    top += len(allowed)
    steps, touching = _selected_edges(puzzle, whole, vmap, allowed, selectors, brings,
                                      clauses)
    extra: list[Clause] = []
    for e, changes in enumerate(touching):
        clauses += [[-x, -s] for x in steps[e] for s in changes]
        if puzzle.use is EdgeUse.EXACTLY_ONCE:
            clauses.append([*steps[e], *changes])
        top = _at_most(extra, changes, 1, top, cardinality)
    top = _at_most(extra, selectors, fewer, top, cardinality)
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        top = _degree_clauses(puzzle, allowed, selectors, extra, top, cardinality)
        balance, top = balance_clauses(puzzle, allowed, selectors, fewer, top)
        extra += balance
    return RepairClauses([*clauses, *extra, [vmap.active[0]]], top, whole, vmap,
                         allowed, selectors)


def _selected_edges(puzzle: Puzzle, whole: Puzzle, vmap: VarMap, allowed: Sequence[Key],
                    selectors: list[int], brings: Sequence[int], clauses: list[Clause]
                    ) -> tuple[list[list[int]], list[list[int]]]:
    """Each edge the changes bring (a new edge, or a copy in a new colour) is there only
    if its change is selected (with exactly-once edges, used if selected): those clauses
    go to ``clauses``. Gives the step variables of each edge of ``whole`` and, per edge
    of ``puzzle``, the selectors of the changes that remove or recolour it."""
    steps: list[list[int]] = [[] for _ in range(whole.num_edges)]
    for (_, e, _), var in vmap.index.items():
        steps[e].append(var)
    touching: list[list[int]] = [[] for _ in range(puzzle.num_edges)]
    ids = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    for change, s, edge in zip(allowed, selectors, brings, strict=True):
        if change[0] != "add":
            touching[ids[str(change[4])]].append(s)
        if edge >= 0:  # a new edge, or a copy in the new colour: there only if chosen
            clauses += [[-x, s] for x in steps[edge]]
            if puzzle.use is EdgeUse.EXACTLY_ONCE:
                clauses.append([-s, *steps[edge]])
    return steps, touching


def _at_most(clauses: list[Clause], lits: Sequence[int], bound: int, top: int,
             cardinality: str) -> int:
    """Add "at most ``bound`` of ``lits``" to ``clauses``; return the new top variable."""
    if len(lits) <= bound:
        return top
    if bound == 0:
        clauses += [[-lit] for lit in lits]
        return top
    enc = CardEnc.atmost(list(lits), bound=bound, top_id=top,
                         encoding=CARDINALITIES[cardinality])
    clauses += enc.clauses
    return max(top, int(enc.nv))


def _degree_clauses(puzzle: Puzzle, allowed: Sequence[Key], selectors: Sequence[int],
                    clauses: list[Clause], top: int, cardinality: str) -> int:
    """Add the degree clauses of an exactly-once puzzle (module docstring): a node of odd
    degree that no chosen change touches stays odd, and a walk has at most two odd nodes
    (none if closed), each one where it may start or end. Returns the new top variable."""
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    flips: list[list[int]] = [[] for _ in range(puzzle.num_nodes)]
    for (op, tail, head, *_), s in zip(allowed, selectors, strict=True):
        if op != "recolour" and tail != head:  # a loop, or a new colour, keeps every parity
            flips[index[tail]].append(s)
            flips[index[head]].append(s)
    untouched: list[int] = []
    for v, degree in enumerate(puzzle.degrees()):
        if degree % 2 == 0:
            continue
        if puzzle.closed or not (puzzle.may_start(v) or puzzle.may_end(v)):
            clauses.append(flips[v])
        else:
            top += 1
            untouched.append(top)
            clauses.append([top, *flips[v]])
    return _at_most(clauses, untouched, 2, top, cardinality)


def repair_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> CertifiedFormula | list[str]:
    """``repair-fewer-v1`` for the repair ``data`` names (``changes`` k, ``candidates``
    the number of allowed changes, ``repair`` its changes, start and walk,
    ``cardinality``), re-derived from ``puzzle`` and its ``repair:`` rules; or why it
    cannot be: the repair must be ``k`` allowed changes with a verified walk."""
    k = data.get("changes")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        return [f"the number of changes {k!r} is not a whole number of at least 1"]
    if data.get("claim") not in (None, "fewest-changes"):
        return [f"a {ENCODING_NAME} refutation proves the claim 'fewest-changes', not "
                f"{data.get('claim')!r}"]
    allowed = allowed_changes(puzzle)
    if isinstance(allowed, str):
        return [allowed]
    if data.get("candidates") != len(allowed):
        return [f"the spec's repair rules allow {plural(len(allowed), 'change')}, the "
                f"certificate counted {data.get('candidates')!r}"]
    walked = repair_walk(puzzle, allowed, data.get("repair"), k)
    if isinstance(walked, str):
        return [walked]
    cardinality = str(data.get("cardinality", DEFAULT_CARDINALITY))
    built = repair_clauses(puzzle, k - 1, cardinality=cardinality)
    if isinstance(built, str):
        return [built]
    variables = {v: built.vmap.describe(built.whole, v) for v in sorted(built.vmap.steps)}
    variables |= {s: "chosen: " + set_words(puzzle, [c])
                  for s, c in zip(built.selectors, built.allowed, strict=True)}
    return CertifiedFormula(
        ENCODING_NAME, {"cardinality": cardinality, "changes": k,
                        "candidates": len(allowed), "repair": data["repair"]},
        built.clauses, built.num_vars, in_puzzle_words(
            puzzle, f"no repair with at most {plural(k - 1, 'change')} of the "
            f"{plural(len(allowed), 'change')} the spec's repair rules allow has a walk, "
            f"and the listed repair of {plural(k, 'change')} has a verified walk of "
            f"{plural(walked, 'step')}: no repair has fewer"), variables)
