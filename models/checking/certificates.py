"""Independent checkers for structural certificates of unsolvability.

A certificate names nodes, edges and colours by the names the spec uses, so it
can be stored as JSON and checked later against the spec. Each checker reads
only the puzzle's arrays and the certificate; none trusts (or imports) the code
that made the certificate. :func:`check_certificate` returns the reasons a
certificate is rejected; an empty list means it is accepted.

Kinds checked here (the exact data each carries is in its checker's docstring):

``parity``
    exactly-once puzzles: more nodes of odd degree than a trail can have.
``imbalance``
    exactly-once puzzles with only one-way edges: nodes whose out- and in-degree
    differ by more than a trail allows.
``disconnected``
    exactly-once puzzles: a set of nodes no edge leaves, with one edge inside and
    one outside, so no single walk can use both.
``endpoints``
    exactly-once puzzles: the allowed start and end nodes cannot be the ends the
    degrees force; and any puzzle without edges whose walk, unable to move, cannot
    stand on a node that is both an allowed start and an allowed end.
``alternation``
    exactly-once puzzles whose colour rule makes two colours strictly alternate:
    nodes whose edge ends of the two colours do not balance, more than a walk's two
    ends can account for.
``closed-set``
    any walk puzzle: a set of (node, colour-phase) states that holds every start
    state, is closed under every move, and holds no finishing state. Moves ignore
    edge-use limits, so the argument holds for exactly-once and at-most-once too.

``node-cut``, ``node-degree`` and ``avoided-edge`` certificates (node rules: the
must-visit nodes in more pieces than a walk can join; must-visit nodes no edge enters or
leaves; an edge that must be used touching an avoided node) are checked in
:mod:`trailkit.models.checking.node_certificates`; ``given-positions`` (two ``at:`` givens too far
apart, or of the wrong parity, for the steps between them) in
:mod:`trailkit.models.checking.given_positions`.

``best-formula`` certificates (a count made by the BEST theorem) are checked in
:mod:`trailkit.models.checking.best_formula`.

DRUP certificates (from the SAT backend) are checked in :mod:`trailkit.models.checking.drup`; one
whose ``proof_format`` is ``lrat`` carries an LRAT proof instead, checked by the small
independent checker of :mod:`trailkit.models.checking.lrat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = ["Verdict", "check_certificate", "verdict"]

Problems = list[str]


def check_certificate(puzzle: Puzzle, certificate: Certificate, *,
                      progress: Callable[[str], None] | None = None) -> Problems:
    """Check ``certificate`` against ``puzzle``; return why it fails (empty list: accepted).

    ``progress`` receives a line now and then while a long DRUP proof is checked.
    """
    return verdict(puzzle, certificate, progress=progress).problems


def verdict(puzzle: Puzzle, certificate: Certificate, *,
            progress: Callable[[str], None] | None = None) -> Verdict:
    """Check ``certificate`` against ``puzzle``: why it fails, or (accepted) what the
    checker verified, in its own words (:mod:`trailkit.models.checking.check_words`; never the
    certificate's ``explanation``, which the checker does not trust)."""
    checker = _CHECKERS.get(certificate.kind)
    if checker is None:
        if certificate.kind == "drup" and certificate.data.get("proof_format") == "lrat":
            from trailkit.models.checking.lrat import lrat_verdict

            return lrat_verdict(puzzle, certificate.data)
        if certificate.kind == "layers":
            from trailkit.models.checking.shortest import layers_verdict

            return layers_verdict(puzzle, certificate.data)
        if certificate.kind in ("node-cut", "node-degree", "avoided-edge"):
            from trailkit.models.checking.node_certificates import node_verdict

            return node_verdict(puzzle, certificate.kind, certificate.data)
        if certificate.kind == "given-positions":
            from trailkit.models.checking.given_positions import given_positions_verdict

            return given_positions_verdict(puzzle, certificate.data)
        if certificate.kind == "best-formula":
            from trailkit.models.checking.best_formula import best_formula_verdict

            return best_formula_verdict(puzzle, certificate.data)
        if certificate.kind == "drup":
            from trailkit.models.checking.drup import drup_verdict

            return drup_verdict(puzzle, certificate, progress=progress)
        return Verdict([f"unknown certificate type {certificate.kind!r}"])
    try:
        problems = checker(puzzle, certificate.data)
        if problems:
            return Verdict(problems)
        return Verdict([], _SAYINGS[certificate.kind](puzzle, certificate.data))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict([f"malformed {certificate.kind} certificate: {exc!r}"])


# ----------------------------------------------------------------- helpers
def _node_lookup(puzzle: Puzzle) -> dict[str, int]:
    return {name: i for i, name in enumerate(puzzle.nodes)}


def _edge_lookup(puzzle: Puzzle) -> dict[str, int]:
    return {str(puzzle.edge_id(e)): e for e in range(len(puzzle.tail))}


def _degrees(puzzle: Puzzle) -> list[int]:
    """Total degree of every node, a self-loop counting twice."""
    deg = [0] * len(puzzle.nodes)
    for u, v in zip(puzzle.tail, puzzle.head, strict=True):
        deg[u] += 1
        deg[v] += 1
    return deg


def _needs_exactly_once(puzzle: Puzzle, kind: str) -> Problems:
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        return [f"a {kind} certificate only applies when every edge must be used exactly once"]
    return []


def _named_nodes(puzzle: Puzzle, names: Any) -> tuple[list[int], Problems]:
    lookup = _node_lookup(puzzle)
    found, problems = [], []
    for name in names:
        if str(name) not in lookup:
            problems.append(f"node {name!r} is not in the puzzle")
        else:
            found.append(lookup[str(name)])
    if len(set(found)) != len(found):
        problems.append("a node is listed twice")
    return found, problems


# ------------------------------------------------------------------ kinds
def _check_parity(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{"nodes": [names]}``: each listed node has odd degree, and there are more of
    them than a trail allows (0 for a closed walk, else 2)."""
    problems = _needs_exactly_once(puzzle, "parity")
    nodes, bad = _named_nodes(puzzle, data["nodes"])
    problems += bad
    deg = _degrees(puzzle)
    for v in nodes:
        if deg[v] % 2 == 0:
            problems.append(f"node {puzzle.nodes[v]} has even degree {deg[v]}")
    allowed = 0 if puzzle.closed else 2
    if len(nodes) <= allowed:
        problems.append(f"{len(nodes)} odd nodes do not rule out a trail (up to {allowed} "
                        "are allowed)")
    return problems


def _check_imbalance(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{"nodes": {name: out_minus_in}}`` on a puzzle whose edges are all one-way: the
    stated imbalances are right, and their positive (or negative) parts sum to more
    than a trail allows (0 for a closed walk, else 1)."""
    problems = _needs_exactly_once(puzzle, "imbalance")
    if puzzle.directed is None or not all(puzzle.directed):
        problems.append("an imbalance certificate needs every edge to be one-way")
        return problems
    claimed: Mapping[str, int] = data["nodes"]
    nodes, bad = _named_nodes(puzzle, claimed)
    problems += bad
    balance = [0] * len(puzzle.nodes)
    for u, v in zip(puzzle.tail, puzzle.head, strict=True):
        balance[u] += 1
        balance[v] -= 1
    for v in nodes:
        if balance[v] != int(claimed[puzzle.nodes[v]]):
            problems.append(f"node {puzzle.nodes[v]} has out-in {balance[v]}, "
                            f"not {claimed[puzzle.nodes[v]]}")
    allowed = 0 if puzzle.closed else 1
    surplus = sum(balance[v] for v in nodes if balance[v] > 0)
    deficit = -sum(balance[v] for v in nodes if balance[v] < 0)
    if surplus <= allowed and deficit <= allowed:
        problems.append("the listed imbalances do not rule out a trail")
    return problems


def _check_disconnected(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{"component": [names], "inside": edge_id, "outside": edge_id}``: no edge has
    exactly one end in the component; ``inside`` has both ends in it, ``outside`` none."""
    problems = _needs_exactly_once(puzzle, "disconnected")
    comp_nodes, bad = _named_nodes(puzzle, data["component"])
    problems += bad
    inside = set(comp_nodes)
    edges = _edge_lookup(puzzle)
    for key in ("inside", "outside"):
        if str(data[key]) not in edges:
            problems.append(f"edge {data[key]!r} is not in the puzzle")
    if problems:
        return problems
    tail, head = puzzle.tail, puzzle.head
    for e in range(len(tail)):
        if (tail[e] in inside) != (head[e] in inside):
            problems.append(f"edge {puzzle.edge_id(e)} leaves the component")
            break
    e_in, e_out = edges[str(data["inside"])], edges[str(data["outside"])]
    if tail[e_in] not in inside:
        problems.append(f"edge {data['inside']} is not inside the component")
    if tail[e_out] in inside:
        problems.append(f"edge {data['outside']} is not outside the component")
    return problems


def _check_endpoints(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{}`` (the argument is recomputed): the nodes of odd degree are the only
    possible ends of a trail (with none, it must close on a node that has an edge),
    and with only one-way edges the surplus node must start and the deficit node
    end; the puzzle's allowed starts and ends exclude every such choice. Without edges
    (any edge rule) the walk cannot move: accepted when no node is both an allowed
    start and an allowed end."""
    n = len(puzzle.nodes)
    if not puzzle.tail:
        both = [v for v in range(n) if (puzzle.start is None or v in puzzle.start)
                and (puzzle.end is None or v in puzzle.end)]
        if not n:
            return ["a puzzle without nodes is solved by the walk that stands nowhere"]
        if both:
            return [f"the empty walk at {puzzle.nodes[both[0]]} solves the puzzle"]
        return []
    problems = _needs_exactly_once(puzzle, "endpoints")
    pairs = _forced_ends(puzzle)
    if isinstance(pairs, str):
        return [*problems, pairs]
    starts = set(range(n)) if puzzle.start is None else set(puzzle.start)
    ends = set(range(n)) if puzzle.end is None else set(puzzle.end)
    possible = [(s, t) for s, t in pairs if s in starts and t in ends]
    if possible:
        s, t = possible[0]
        problems.append(f"a trail from {puzzle.nodes[s]} to {puzzle.nodes[t]} is not ruled out")
    return problems


def _forced_ends(puzzle: Puzzle) -> list[tuple[int, int]] | str:
    """The (start, end) pairs the degrees leave a trail of a puzzle with edges, or the
    certificate to use instead."""
    n = len(puzzle.nodes)
    deg = _degrees(puzzle)
    odd = [v for v in range(n) if deg[v] % 2]
    if len(odd) > 2:
        return "use a parity certificate: there are more than two odd nodes"
    if len(odd) == 2:
        if puzzle.closed:
            return "use a parity certificate: a closed walk allows no odd node"
        x, y = odd
        pairs = [(x, y), (y, x)]
    else:
        pairs = [(v, v) for v in range(n) if deg[v] > 0]
    if puzzle.directed is not None and all(puzzle.directed):
        balance = [0] * n
        for u, v in zip(puzzle.tail, puzzle.head, strict=True):
            balance[u] += 1
            balance[v] -= 1
        plus = [v for v in range(n) if balance[v] > 0]
        minus = [v for v in range(n) if balance[v] < 0]
        if len(plus) == 1 and len(minus) == 1:
            pairs = [(plus[0], minus[0])]
        elif plus or minus:
            return "use an imbalance certificate"
    return pairs


def _check_alternation(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{"colours": [a, b], "nodes": {name: ends_a - ends_b}}`` on an exactly-once puzzle
    with only two-way edges whose rule is exactly a → b, b → a: the stated differences
    are right, and their absolute values sum to more than 2 (more than 0 if closed)."""
    problems = _needs_exactly_once(puzzle, "alternation")
    rule = puzzle.colours
    a, b = (str(c) for c in data["colours"])
    if rule is None or sorted(rule.names) != sorted((a, b)) or a == b:
        return [*problems, "the puzzle's colour rule is not a two-colour alternation"]
    ia, ib = rule.names.index(a), rule.names.index(b)
    if rule.successors[ia] != frozenset({ib}) or rule.successors[ib] != frozenset({ia}):
        return [*problems, f"the rule does not force {a} and {b} to alternate"]
    if puzzle.directed is not None and any(puzzle.directed):
        return [*problems, "an alternation certificate needs every edge to be two-way"]
    if puzzle.colour is None:
        return [*problems, "the edges have no colours"]
    claimed: Mapping[str, int] = data["nodes"]
    nodes, bad = _named_nodes(puzzle, claimed)
    problems += bad
    diff = [0] * len(puzzle.nodes)
    for u, v, c in zip(puzzle.tail, puzzle.head, puzzle.colour, strict=True):
        if c not in (ia, ib):
            return [*problems, "an edge has neither colour (use another certificate)"]
        for w in (u, v):
            diff[w] += 1 if c == ia else -1
    for v in nodes:
        if diff[v] != int(claimed[puzzle.nodes[v]]):
            problems.append(f"node {puzzle.nodes[v]} has {a} minus {b} ends {diff[v]}, not "
                            f"{claimed[puzzle.nodes[v]]}")
    allowed = 0 if puzzle.closed else 2
    if sum(abs(diff[v]) for v in nodes) <= allowed:
        problems.append("the listed imbalances do not rule out an alternating walk")
    return problems


def _check_closed_set(puzzle: Puzzle, data: Mapping[str, Any]) -> Problems:
    """``{"states": [[node, phase], ...]}``: ``phase`` is ``null`` before the first
    step, else the colour of the last step (``"*"`` when the puzzle has no colour
    rule). For a closed walk each state also carries the walk's origin and the colour
    of its first step: ``[node, phase, origin, first]``.

    Accepted when every start state is in the set, every move from a state in the
    set lands in the set, and no state in the set finishes the walk.
    """
    states = _closed_set_states(puzzle, data["states"])
    if isinstance(states, str):
        return [states]
    closed = puzzle.closed
    problems: Problems = []
    for s in range(len(puzzle.nodes)) if puzzle.start is None else sorted(puzzle.start):
        if ((s, None, s, None) if closed else (s, None)) not in states:
            problems.append(f"the start state at {puzzle.nodes[s]} is missing")
    moves = _moves(puzzle)
    rule = puzzle.colours
    for state in states:
        node, phase = state[0], state[1]
        if _finishes(puzzle, state):
            problems.append(f"state {_state_text(puzzle, state)} finishes the walk")
            return problems
        for w, c in moves[node]:
            if rule is not None:
                if phase is None:
                    if puzzle.first is not None and c not in puzzle.first:
                        continue
                elif c not in rule.successors[phase]:
                    continue
            nxt = (w, c, state[2], c if state[3] is None else state[3]) if closed else (w, c)
            if nxt not in states:
                problems.append(f"the move from {_state_text(puzzle, state)} to "
                                f"{_state_text(puzzle, nxt)} leaves the set")
                return problems
    return problems


def _closed_set_states(puzzle: Puzzle, raw_states: Any) -> set[tuple[Any, ...]] | str:
    """The certificate's states as (node, phase[, origin, first]) index tuples, or the
    problem with one of them."""
    rule = puzzle.colours
    lookup = _node_lookup(puzzle)
    colour_index = {name: i for i, name in enumerate(rule.names)} if rule else {}

    def phase_of(name: Any) -> int | None:
        if name is None:
            return None
        if rule is None:
            if name != ANY_PHASE:
                raise ValueError(f"phase {name!r}: without a colour rule use {ANY_PHASE!r}")
            return -1
        return colour_index[str(name)]

    width = 4 if puzzle.closed else 2
    states: set[tuple[Any, ...]] = set()
    for raw in raw_states:
        if len(raw) != width:
            return f"state {raw!r} should have {width} parts"
        rest = (lookup[str(raw[2])], phase_of(raw[3])) if puzzle.closed else ()
        states.add((lookup[str(raw[0])], phase_of(raw[1]), *rest))
    return states


def _moves(puzzle: Puzzle) -> list[list[tuple[int, int]]]:
    """For each node, the (next node, edge colour) of every step that may leave it
    (colour -1 without a colour rule; uncoloured edges are never taken under one)."""
    rule = puzzle.colours
    moves: list[list[tuple[int, int]]] = [[] for _ in range(len(puzzle.nodes))]
    for e in range(len(puzzle.tail)):
        u, v = puzzle.tail[e], puzzle.head[e]
        c = -1 if rule is None or puzzle.colour is None else puzzle.colour[e]
        if rule is not None and c < 0:
            continue  # an uncoloured edge can never be taken under a colour rule
        moves[u].append((v, c))
        if not (puzzle.directed is not None and puzzle.directed[e]) and u != v:
            moves[v].append((u, c))
    return moves


ANY_PHASE = "*"


def _finishes(puzzle: Puzzle, state: tuple[Any, ...]) -> bool:
    """Whether a walk may stop in ``state`` (node, phase[, origin, first])."""
    node, phase = state[0], state[1]
    if puzzle.end is not None and node not in puzzle.end:
        return False
    if not puzzle.closed:
        return True
    origin, first = state[2], state[3]
    if phase is None:  # no step yet: only a puzzle without edges is closed by standing still
        return not puzzle.tail and node == origin
    if node != origin:
        return False
    return puzzle.colours is None or first in puzzle.colours.successors[phase]


def _state_text(puzzle: Puzzle, state: tuple[Any, ...]) -> str:
    phase = state[1]
    if phase is None:
        label = "before the first step"
    elif phase < 0 or puzzle.colours is None:
        label = "after a step"
    else:
        label = f"after {puzzle.colours.names[phase]}"
    return f"({puzzle.nodes[state[0]]}, {label})"


_CHECKERS: dict[str, Callable[[Puzzle, Mapping[str, Any]], Problems]] = {
    "parity": _check_parity,
    "imbalance": _check_imbalance,
    "disconnected": _check_disconnected,
    "endpoints": _check_endpoints,
    "alternation": _check_alternation,
    "closed-set": _check_closed_set,
}



# ------------------------------------------------------------ what holds
# Said only once a certificate is accepted, from the puzzle's arrays and the parts of the
# certificate just checked; the sentences are check_words'.
def _say_parity(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    lookup, deg = _node_lookup(puzzle), _degrees(puzzle)
    names = [str(name) for name in data["nodes"]]
    return check_words.parity(names, [deg[lookup[name]] for name in names],
                              closed=puzzle.closed)


def _say_imbalance(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    lookup = _node_lookup(puzzle)
    balance = [0] * len(puzzle.nodes)
    for u, v in zip(puzzle.tail, puzzle.head, strict=True):
        balance[u] += 1
        balance[v] -= 1
    return check_words.imbalance({str(name): balance[lookup[str(name)]]
                                  for name in data["nodes"]}, closed=puzzle.closed)


def _say_disconnected(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    edges = _edge_lookup(puzzle)

    def edge(key: str) -> str:
        e = edges[str(data[key])]
        return (f"{puzzle.edge_id(e)} ({puzzle.nodes[puzzle.tail[e]]}-"
                f"{puzzle.nodes[puzzle.head[e]]})")

    return check_words.disconnected([str(name) for name in data["component"]],
                                    edge("inside"), edge("outside"))


def _say_endpoints(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    pairs = _forced_ends(puzzle) if puzzle.tail else []
    if not puzzle.tail or isinstance(pairs, str):
        return check_words.no_edges(len(puzzle.nodes))
    return check_words.endpoints([(puzzle.nodes[s], puzzle.nodes[t]) for s, t in pairs])


def _say_alternation(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    a, b = (str(c) for c in data["colours"])
    rule, colour = puzzle.colours, puzzle.colour
    assert rule is not None and colour is not None  # the check has passed
    ia = rule.names.index(a)
    diff = [0] * len(puzzle.nodes)
    for u, v, c in zip(puzzle.tail, puzzle.head, colour, strict=True):
        for w in (u, v):
            diff[w] += 1 if c == ia else -1
    lookup = _node_lookup(puzzle)
    return check_words.alternation(a, b, {str(name): diff[lookup[str(name)]]
                                          for name in data["nodes"]}, closed=puzzle.closed)


def _say_closed_set(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    states = _closed_set_states(puzzle, data["states"])
    assert not isinstance(states, str)  # the check has passed
    coloured = puzzle.colours is not None
    what = "place, last colour" if coloured else "place, whether a step was taken"
    if puzzle.closed:
        what += ", start, first colour" if coloured else ", start"
    ends = None if puzzle.end is None else [puzzle.nodes[v] for v in sorted(puzzle.end)]
    return check_words.closed_set(len(states), len({s[0] for s in states}), what, ends)


_SAYINGS: dict[str, Callable[[Puzzle, Mapping[str, Any]], str]] = {
    "parity": _say_parity,
    "imbalance": _say_imbalance,
    "disconnected": _say_disconnected,
    "endpoints": _say_endpoints,
    "alternation": _say_alternation,
    "closed-set": _say_closed_set,
}
