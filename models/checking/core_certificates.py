"""The independent checks of a *core*: edges no walk obeying the rules can all use.

A core of an exactly-once or at-most-once puzzle is a set ``C`` of its edges such that
no walk that uses each edge at most once (and obeys every other rule) uses all of
``C``; the other edges are optional. Two things are checked here, reading only the
puzzle's arrays, never the code that found the core:

* :func:`check_odd_nodes`: the ``odd-nodes`` argument that the core is one. Every
  edge at a listed node is in ``C``, loops aside, and there is an odd number of them; a
  walk using all of ``C`` then uses an odd number of edge ends at the node (a loop adds
  two), so the node is an end of the walk; a walk has two ends (none when closed), so
  more listed nodes than that rule the walk out;
* :func:`check_odd_cuts`: the ``odd-cuts`` argument, the same parity count over sets
  of nodes: every edge with one end in a listed set (and the other outside it) is in
  ``C``, an odd number of them. A walk using all of ``C`` uses each such edge, so it
  has an odd number of edge ends leaving the set, and an odd number of its nodes inside
  have odd degree in the walk: one of its ends is in the set. The sets are disjoint, so
  more sets than a walk has ends rule it out (a single node is the ``odd-nodes`` case);
* :func:`check_witness`: a walk showing that a member is necessary: it obeys the rules
  with edges used at most once, and uses every other member of the core;
* :func:`core_verdict`: a whole ``core`` certificate (claim ``minimal-core``): the core
  (edge ids), the argument that no walk uses all of it (``odd-nodes``, or a DRUP or LRAT
  refutation of the ``walk-core-v1`` formula that
  :mod:`trailkit.models.formulas.core_formula` derives from the spec and *this* core's
  edge list, so a proof made for another core or another spec is rejected), and one
  witness walk per member.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("a", "c"), ("a", "d")])
>>> check_odd_nodes(p, [0, 1, 2], ["a", "b", "c", "d"])
[]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any

from trailkit.models.answer import Certificate, Walk
from trailkit.models.checking.certificates import _named_nodes
from trailkit.models.checking.check_words import Verdict
from trailkit.models.checking.verify import verify
from trailkit.models.formulas.blocked_walks import read_walk
from trailkit.models.formulas.core_formula import CORE, core_puzzle, read_core
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import listing, plural

__all__ = ["check_odd_cuts", "check_odd_nodes", "check_witness", "core_verdict"]


def check_odd_nodes(puzzle: Puzzle, core: Collection[int], nodes: Iterable[str]) -> list[str]:
    """Why the ``odd-nodes`` argument fails for ``core`` (edge indices); empty: it holds."""
    listed, problems = _named_nodes(puzzle, list(nodes))
    members = set(core)
    for v in listed:
        ends = 0
        for e in range(puzzle.num_edges):
            u, w = puzzle.tail[e], puzzle.head[e]
            if u == w or v not in (u, w):
                continue  # a loop adds two edge ends: it never changes the parity
            if e not in members:
                problems.append(f"node {puzzle.nodes[v]} has the edge {puzzle.edge_id(e)}, "
                                "which is not in the core")
                break
            ends += 1
        if ends % 2 == 0:
            problems.append(f"node {puzzle.nodes[v]} has an even number of core edges")
    allowed = 0 if puzzle.closed else 2
    if len(listed) <= allowed:
        problems.append(f"{len(listed)} such nodes do not rule out a walk (it has {allowed} "
                        "ends)")
    return problems


def check_odd_cuts(puzzle: Puzzle, core: Collection[int], sets: Iterable[Iterable[str]]
                   ) -> list[str]:
    """Why the ``odd-cuts`` argument fails for ``core`` (edge indices) and the node sets
    ``sets`` (names); empty: it holds."""
    members = set(core)
    problems: list[str] = []
    seen: set[int] = set()
    listed = [list(names) for names in sets]
    for names in listed:
        nodes, wrong = _named_nodes(puzzle, names)
        inside = set(nodes)
        problems += wrong
        if not inside or inside & seen:
            problems.append(f"the set {', '.join(map(str, names))} is empty or shares "
                            "nodes with another")
        seen |= inside
        cut = [e for e in range(puzzle.num_edges)
               if (puzzle.tail[e] in inside) != (puzzle.head[e] in inside)]
        outside = [e for e in cut if e not in members]
        if outside:
            problems.append(f"the edge {puzzle.edge_id(outside[0])} leaves the set "
                            f"{', '.join(map(str, names))} but is not in the core")
        elif len(cut) % 2 == 0:
            problems.append(f"an even number of edges ({len(cut)}) leave the set "
                            f"{', '.join(map(str, names))}")
    allowed = 0 if puzzle.closed else 2
    if len(listed) <= allowed:
        problems.append(f"{len(listed)} such sets do not rule out a walk (it has {allowed} "
                        "ends)")
    return problems


def check_witness(puzzle: Puzzle, walk: Walk, required: Collection[int]) -> list[str]:
    """Why ``walk`` fails to be a walk using every edge of ``required`` at most once."""
    relaxed = replace(puzzle, use=EdgeUse.AT_MOST_ONCE)
    problems = [str(v) for v in verify(relaxed, walk)]
    missing = set(required) - set(walk.edges)
    if missing:
        problems.append(f"the walk does not use the edges {sorted(missing)}")
    return problems


def core_verdict(puzzle: Puzzle, data: Mapping[str, Any], *,
                 time_limit: float | None = None) -> Verdict:
    """Check a ``core`` certificate (``data``: ``core``, the edge ids; ``unsolvable``, the
    ``odd-nodes``, ``odd-cuts`` or ``drup`` certificate that no walk uses them all;
    ``witnesses``, one ``{"without", "start", "edges"}`` walk per member) against
    ``puzzle``: why it fails, or (accepted) what was verified, in the checker's words.
    ``time_limit`` bounds the check of a DRUP proof (a proof unchecked in time: the
    problem says "unchecked: the time limit ...")."""
    try:
        core = read_core(puzzle, data["core"])
        if isinstance(core, str):
            return Verdict([core])
        argument = _unsolvable(puzzle, core, data["unsolvable"], time_limit)
        if argument.problems:
            return argument
        problems = _witnesses(puzzle, core, data["witnesses"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict([f"malformed core certificate: {exc!r}"])
    if problems:
        return Verdict(problems)
    ids = [str(puzzle.edge_id(e)) for e in core]
    return Verdict([], f"no walk with each edge used at most once uses all "
                   f"{plural(len(core), 'edge')} of the core ({listing(ids)}): "
                   f"{argument.holds}; and each is needed: "
                   f"{plural(len(core), 'witness walk')} (one without each) verified")


def _unsolvable(puzzle: Puzzle, core: list[int], raw: Mapping[str, Any],
                time_limit: float | None) -> Verdict:
    """Check the argument that no walk uses all of ``core``: ``odd-nodes``, or a refutation
    of ``walk-core-v1`` for exactly this core (its own ``core`` field is ignored)."""
    kind = raw["type"]
    if kind == "odd-cuts":
        sets = [[str(n) for n in names] for names in raw["sets"]]
        return Verdict(check_odd_cuts(puzzle, core, sets), "the edges leaving each of the "
                       f"{len(sets)} node sets " + listing(["{" + ", ".join(s) + "}"
                                                           for s in sets])
                       + " are all in the core, an odd number each, so each holds an end of "
                       "the walk: more sets than a walk has ends")
    if kind == "odd-nodes":
        problems = check_odd_nodes(puzzle, core, raw["nodes"])
        return Verdict(problems, "every edge at " + listing([str(n) for n in raw["nodes"]])
                       + " is in the core, an odd number at each, more such nodes than a "
                       "walk has ends")
    if kind != "drup":
        return Verdict(["a core's unsolvability is certified by odd-nodes, odd-cuts or "
                        f"drup, not {kind!r}"])
    body = {k: v for k, v in raw.items() if k not in ("type", "explanation")}
    if body.get("encoding") != CORE:
        return Verdict([f"the core's refutation is of {body.get('encoding')!r}; only {CORE} "
                        "speaks of a core"])
    body["core"] = [puzzle.edge_id(e) for e in core]  # the formula of *this* core
    if body.get("proof_format") == "lrat":
        from trailkit.models.checking.lrat import lrat_verdict

        return lrat_verdict(puzzle, body)
    from trailkit.models.checking.drup import drup_verdict

    return drup_verdict(puzzle, Certificate("drup", body, ""), time_limit=time_limit)


def _witnesses(puzzle: Puzzle, core: list[int], raw: list[Any]) -> list[str]:
    """Why the witness walks fail to show every member necessary (empty: they show it)."""
    ids = {str(puzzle.edge_id(e)): e for e in core}
    relaxed = core_puzzle(puzzle)
    seen: set[int] = set()
    for item in raw:
        member = ids.get(str(item["without"]))
        if member is None:
            return [f"a witness walk is without edge {item['without']}, which is not in the "
                    "core"]
        seen.add(member)
        walk = read_walk(relaxed, item)
        if isinstance(walk, str):
            return [f"the witness without edge {item['without']}: {walk}"]
        problems = check_witness(puzzle, walk, [f for f in core if f != member])
        if problems:
            return [f"the witness without edge {item['without']}: {problems[0]}"]
    missing = [str(puzzle.edge_id(e)) for e in core if e not in seen]
    if missing:
        return [f"no witness walk shows edge {missing[0]} needed (the core would not be "
                "minimal)"]
    return []
