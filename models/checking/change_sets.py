"""The ``change-sets`` certificate of the claim ``fewest-changes``: no repair is smaller.

A repair of ``k`` changes has the fewest when every set of at most ``k`` - 1 changes the
spec's ``repair:`` rules allow leaves the puzzle unsolvable. The certificate lists each
such set with an unsolvability certificate of the puzzle it makes, and one repair of
``k`` changes with its walk::

    {"changes": 2, "candidates": 6,
     "sets": [{"changes": [], "certificate": {"type": "disconnected", ...}},
              {"changes": [{"op": "add", "from": "1", "to": "3", "colour": null}],
               "certificate": {"type": "parity", ...}}, ...],
     "repair": {"changes": [CHANGE, CHANGE], "start": "2", "walk": [EDGE ID, ...]}}

(``CHANGE``: the contract's change object.) The checker trusts none of it. It derives
the allowed changes from the rules itself, sharing no code with the repair search: new
edges between touching nodes of the ``layout:`` (the smallest distance between two
laid-out nodes, 1% tolerance, no edge there yet), between any two nodes, or from the
candidate list, in each allowed colour; every edge recoloured to each other allowed
colour; every edge removed where each edge must be used exactly once; none touching a
protected node. It lists every set of fewer than ``k`` of them touching distinct
existing edges, applies each to the puzzle itself and has that set's certificate
checked by the checker of its kind; the repair is applied alike, its walk verified.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.check_words import Verdict
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import in_puzzle_words, plural

__all__ = ["SET_LIMIT", "change_sets_verdict", "set_count"]

SET_LIMIT = 2_000
"""The most change sets a ``change-sets`` certificate may need (sum of C(n, j), j < k)."""

#: A change as the checker compares them: op, from, to, colour, edge id (text), one-way.
Key = tuple[str, str, str, Any, Any, bool]


def set_count(candidates: int, changes: int, *, stop: int | None = None) -> int:
    """Sets of fewer than ``changes`` of ``candidates`` changes, clashes included: the
    bound a certificate is held to before anything is made or checked (the sum stops
    once past ``stop``, for a file that states an absurd number).

    >>> set_count(6, 2), set_count(2016, 2), set_count(30, 4)
    (7, 2017, 4526)
    """
    total = 0
    for j in range(min(max(changes, 0), candidates + 1)):
        total += math.comb(candidates, j)
        if stop is not None and total > stop:
            break
    return total


def change_sets_verdict(puzzle: Puzzle, data: Mapping[str, Any], *, rules: Any = None
                        ) -> Verdict:
    """Check a ``change-sets`` certificate (module docstring) against ``puzzle``, under
    ``rules`` (the repair rules in force; default the spec's ``repair:`` block, read by
    the spec reader): why it is rejected, or what holds."""
    k = data.get("changes")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        return Verdict([f"the number of changes {k!r} is not a whole number of at least 1"])
    allowed = allowed_changes(puzzle, rules)
    if isinstance(allowed, str):
        return Verdict([allowed])
    if data.get("candidates") != len(allowed):
        return Verdict([f"the spec's repair rules allow {plural(len(allowed), 'change')}, "
                        f"the certificate counted {data.get('candidates')!r}"])
    if set_count(len(allowed), k, stop=SET_LIMIT) > SET_LIMIT:
        return Verdict([f"{plural(k, 'change')} would need more than {SET_LIMIT:,} change "
                        "sets refuted; the checker checks at most that many"])
    sets = data.get("sets")
    listed = {_set_key(item["changes"]): item for item in
              (sets if isinstance(sets, list) else [])
              if isinstance(item, Mapping) and isinstance(item.get("changes"), list)}
    kinds: Counter[str] = Counter()
    for combo in _clash_free(puzzle, allowed, k):
        item = listed.get(combo)
        if item is None:
            return Verdict([f"no certificate for {_set_words(puzzle, combo)}"])
        order = [_key(c) for c in item["changes"]]
        body = item.get("certificate")
        if not isinstance(body, Mapping):
            return Verdict([f"no certificate for {_set_words(puzzle, combo)}"])
        certificate = Certificate.from_json(body)
        found = verdict(_applied(puzzle, order), certificate)
        if found.problems:
            return Verdict([f"the {certificate.kind} certificate for "
                            f"{_set_words(puzzle, combo)} fails: {found.problems[0]}"])
        kinds[certificate.kind] += 1
    walked = _repair_walk(puzzle, allowed, data.get("repair"), k)
    if isinstance(walked, str):
        return Verdict([walked])
    refuted = sum(kinds.values())
    return Verdict(holds=in_puzzle_words(puzzle, (
        f"each of the {plural(refuted, 'set')} of at most {plural(k - 1, 'change')} that the "
        f"spec's repair rules allow ({plural(len(allowed), 'candidate change')}, derived "
        "by the checker) leaves the puzzle unsolvable ("
        + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        + f" certificates accepted), and a repair of {plural(k, 'change')} has a verified "
        f"walk of {plural(walked, 'step')}: no repair has fewer")))


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


def _clash_free(puzzle: Puzzle, allowed: Sequence[Key], k: int) -> list[tuple[Key, ...]]:
    """Each set of fewer than ``k`` allowed changes touching distinct existing edges,
    once (as sorted keys)."""
    found: dict[tuple[Key, ...], None] = {}
    for j in range(min(k, len(allowed) + 1)):
        for combo in combinations(allowed, j):
            edges = [c[4] for c in combo if c[0] != "add"]
            if len(set(edges)) == len(edges):
                found[_set_key(combo)] = None
    return list(found)


def _key(change: Any) -> Key:
    """A change object of the file as the checker compares it."""
    if not isinstance(change, Mapping):
        return ("?", "", "", None, None, False)
    edge, colour = change.get("edge"), change.get("colour")
    return (str(change.get("op")), str(change.get("from")), str(change.get("to")),
            colour if colour is None or isinstance(colour, str) else repr(colour),
            None if edge is None else str(edge), bool(change.get("directed", False)))


def _same(key: Key) -> Key:
    """``key`` as sets are matched: a new two-way edge is the same either way round."""
    if key[0] == "add" and not key[5] and key[2] < key[1]:
        return (key[0], key[2], key[1], key[3], key[4], key[5])
    return key


def _set_key(changes: Sequence[Any]) -> tuple[Key, ...]:
    """A set of changes (objects of the file, or keys) as sets are matched."""
    keys = (c if isinstance(c, tuple) else _key(c) for c in changes)
    return tuple(sorted((_same(k) for k in keys), key=repr))


def _set_words(puzzle: Puzzle, changes: Sequence[Key]) -> str:
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


def _applied(puzzle: Puzzle, changes: Sequence[Key]) -> Puzzle:
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


def _repair_walk(puzzle: Puzzle, allowed: Sequence[Key], repair: Any, k: int) -> int | str:
    """The length of the listed repair's walk, verified in the puzzle it makes; or why
    the repair is not one of ``k`` allowed changes with a walk."""
    if not isinstance(repair, Mapping) or not isinstance(repair.get("changes"), list):
        return f"no repair of {plural(k, 'change')} is given"
    changes = [_key(c) for c in repair["changes"]]
    edited = [c[4] for c in changes if c[0] != "add"]
    if len(changes) != k or Counter(map(_same, changes)) - Counter(map(_same, allowed)) or \
            len(set(edited)) != len(edited):
        return (f"the repair given is not {plural(k, 'change')} the spec's repair rules "
                "allow, each to a different edge")
    fixed = _applied(puzzle, changes)
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
