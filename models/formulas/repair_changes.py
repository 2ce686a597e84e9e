"""The changes a spec's ``repair:`` rules allow, as the checker derives them, and a
puzzle with some of them made: what the certificates of the claim ``fewest-changes``
speak about (:mod:`trailkit.models.checking.change_sets`,
:mod:`trailkit.models.formulas.repair_formula`).

The derivation shares no code with the repair search: new edges between touching nodes
of the ``layout:`` (the smallest distance between two laid-out nodes, 1% tolerance, no
edge there yet), between any two nodes, or from the candidate list, in each allowed
colour; every edge recoloured to each other allowed colour; every edge removed where each
edge must be used exactly once; none touching a protected node. A change is a
:data:`Key`: op, from, to, colour, edge id (text), one-way.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c")])
>>> [change[:3] for change in allowed_changes(p)]
[('add', 'a', 'b'), ('add', 'a', 'c'), ('add', 'b', 'c')]
>>> applied(p, [("add", "a", "c", None, None, False)]).num_edges
3
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import in_puzzle_words, plural

__all__ = ["Key", "allowed_changes", "applied", "change_key", "repair_walk", "same_change",
           "set_key", "set_words"]

#: A change as the checker compares them: op, from, to, colour, edge id (text), one-way.
Key = tuple[str, str, str, Any, Any, bool]


def allowed_changes(puzzle: Puzzle, rules: Any = None) -> list[Key] | str:
    """Every single change ``rules`` (default: the spec's) allow, or why none can be
    derived."""
    rules = rules if rules is not None else puzzle.repair
    add = getattr(rules, "add", None)
    add = ("layout" if puzzle.layout else "any") if add is None else add
    protect = set(getattr(rules, "protect", ()) or ())
    palette: tuple[Any, ...] = (None,)
    if puzzle.colours is not None:
        chosen = getattr(rules, "colours", None)
        palette = tuple(puzzle.colours.names if chosen is None else chosen)
    new = _new_edges(puzzle, add)
    if isinstance(new, str):
        return new
    out: list[Key] = [("add", u, v, c, None, one_way) for u, v, colour, one_way in new
                      if u not in protect and v not in protect
                      for c in (palette if colour is None else (colour,))]
    for e in range(puzzle.num_edges):
        u, v = puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]
        if u in protect or v in protect:
            continue
        ident, one_way, old = str(puzzle.edge_id(e)), puzzle.is_directed(e), \
            puzzle.colour_name(e)
        if getattr(rules, "recolour", False) and puzzle.colours is not None and \
                puzzle.colour is not None:
            out += [("recolour", u, v, c, ident, one_way) for c in palette if c != old]
        if getattr(rules, "remove", False) and puzzle.use is EdgeUse.EXACTLY_ONCE:
            out.append(("remove", u, v, old, ident, one_way))
    return out


def _new_edges(puzzle: Puzzle, add: Any) -> list[tuple[str, str, Any, bool]] | str:
    """(from, to, colour or None, one-way) of each edge the ``add`` rule allows."""
    names = puzzle.nodes
    if isinstance(add, tuple):
        return [(str(c.u), str(c.v), c.colour, bool(c.directed)) for c in add]
    if add == "none":
        return []
    if add == "any":
        return [(a, b, None, False) for a, b in combinations(names, 2)]
    if not puzzle.layout:
        return "the repair rules add edges between touching nodes, but the spec has no layout"
    points = sorted((puzzle.layout[name], name) for name in names if name in puzzle.layout)
    joined = {frozenset((names[t], names[h])) for t, h in zip(puzzle.tail, puzzle.head,
                                                               strict=True)}
    best = math.inf
    for i, ((x, y), _) in enumerate(points):  # a sweep along x: the closest two
        for (x2, y2), _ in points[i + 1:]:
            if x2 - x >= best:
                break
            best = min(best, math.hypot(x - x2, y - y2))
    reach = best * 1.01
    found = []
    for i, ((x, y), a) in enumerate(points):  # again: every pair as close, 1% tolerance
        for (x2, y2), b in points[i + 1:]:
            if x2 - x > reach:
                break
            if math.hypot(x - x2, y - y2) <= reach and frozenset((a, b)) not in joined:
                found.append((a, b, None, False))
    return found


def change_key(change: Any) -> Key:
    """A change object of the file as the checker compares it."""
    if not isinstance(change, Mapping):
        return ("?", "", "", None, None, False)
    edge, colour = change.get("edge"), change.get("colour")
    return (str(change.get("op")), str(change.get("from")), str(change.get("to")),
            colour if colour is None or isinstance(colour, str) else repr(colour),
            None if edge is None else str(edge), bool(change.get("directed", False)))


def same_change(key: Key) -> Key:
    """``key`` as sets are matched: a new two-way edge is the same either way round."""
    if key[0] == "add" and not key[5] and key[2] < key[1]:
        return (key[0], key[2], key[1], key[3], key[4], key[5])
    return key


def set_key(changes: Sequence[Any]) -> tuple[Key, ...]:
    """A set of changes (objects of the file, or keys) as sets are matched."""
    keys = (c if isinstance(c, tuple) else change_key(c) for c in changes)
    return tuple(sorted((same_change(k) for k in keys), key=repr))


def set_words(puzzle: Puzzle, changes: Sequence[Key]) -> str:
    """``adding edge C-D and removing edge 3 A-B``; the empty set: the puzzle as given."""
    if not changes:
        return "the puzzle as given"
    said = []
    for op, u, v, colour, edge, one_way in changes:
        line = f"{u}{'->' if one_way else '-'}{v}"
        if op == "add":
            said.append(f"adding a {colour + ' ' if colour else ''}edge {line}")
        elif op == "remove":
            said.append(f"removing edge {edge} {line}")
        else:
            said.append(f"recolouring edge {edge} {line} {colour}")
    return in_puzzle_words(puzzle, " and ".join(said))


def applied(puzzle: Puzzle, changes: Sequence[Key]) -> Puzzle:
    """``puzzle`` with ``changes`` made: kept edges in order (recoloured in place), then
    the new ones in the order given, numbered on from the original's ids."""
    ids = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    gone = {ids[c[4]] for c in changes if c[0] == "remove"}
    recoloured = {ids[c[4]]: c[3] for c in changes if c[0] == "recolour"}
    palette = list(puzzle.colour_names)
    for name in [c[3] for c in changes if c[3] is not None and c[3] not in palette]:
        palette.append(name)
    old = puzzle.colour
    kept = [e for e in range(puzzle.num_edges) if e not in gone]
    adds = [c for c in changes if c[0] == "add"]
    colour = [palette.index(recoloured[e]) if e in recoloured else
              (-1 if old is None else old[e]) for e in kept]
    colour += [-1 if c[3] is None else palette.index(c[3]) for c in adds]
    directed = [puzzle.is_directed(e) for e in kept] + [c[5] for c in adds]
    edge_ids: list[Any] = [puzzle.edge_id(e) for e in kept]
    used, nxt = set(ids), puzzle.num_edges
    for _ in adds:
        while str(nxt) in used:
            nxt += 1
        edge_ids.append(nxt)
        used.add(str(nxt))
        nxt += 1
    plain = all(isinstance(x, int) and x == i for i, x in enumerate(edge_ids))
    return replace(puzzle, tail=[puzzle.tail[e] for e in kept] + [index[c[1]] for c in adds],
                   head=[puzzle.head[e] for e in kept] + [index[c[2]] for c in adds],
                   directed=directed if any(directed) else None,
                   colour=colour if old is not None or any(c[3] for c in changes) else None,
                   colour_names=tuple(palette), edge_ids=None if plain else edge_ids,
                   expect=None)


def repair_walk(puzzle: Puzzle, allowed: Sequence[Key], repair: Any, k: int) -> int | str:
    """The length of the listed repair's walk, verified in the puzzle it makes; or why
    the repair is not one of ``k`` allowed changes with a walk."""
    if not isinstance(repair, Mapping) or not isinstance(repair.get("changes"), list):
        return f"no repair of {plural(k, 'change')} is given"
    changes = [change_key(c) for c in repair["changes"]]
    edited = [c[4] for c in changes if c[0] != "add"]
    surplus = Counter(map(same_change, changes)) - Counter(map(same_change, allowed))
    if len(changes) != k or surplus or len(set(edited)) != len(edited):
        return (f"the repair given is not {plural(k, 'change')} the spec's repair rules "
                "allow, each to a different edge")
    fixed = applied(puzzle, changes)
    ids = {str(fixed.edge_id(e)): e for e in range(fixed.num_edges)}
    try:
        walk = Walk.from_edges(fixed, fixed.nodes.index(str(repair.get("start"))),
                               [ids[str(e)] for e in repair.get("walk", [])])
    except (KeyError, ValueError, TypeError):
        return "the repair's walk does not follow the repaired puzzle's edges"
    wrong = verify(fixed, walk)
    if wrong:
        return f"the repair's walk breaks the rules: {wrong[0]}"
    return len(walk)
