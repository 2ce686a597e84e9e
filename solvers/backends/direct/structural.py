"""Short, checkable reasons why no walk uses every edge exactly once.

Each maker looks at an exactly-once puzzle and returns a :class:`Certificate` when
its argument applies, else ``None``:

``disconnected``
    two edges lie in different connected pieces of the graph;
``parity``
    more nodes touch an odd number of edges than a trail can have (valid for
    undirected, one-way and mixed graphs alike: it only counts edge ends);
``imbalance``
    with only one-way edges, nodes have more edges out than in (or in than out)
    than a trail allows;
``endpoints``
    the ends the degrees force are not among the allowed starts and ends (with no
    edges at all, whatever the edge rule: the walk cannot move, and no node is both an
    allowed start and an allowed end);
``alternation``
    under a rule where two colours must alternate, every pass through a node uses
    one edge of each colour, so nodes where the colours do not balance can only be
    the walk's ends.

The data follow the formats that :mod:`trailkit.models.checking.certificates` checks (node
names and edge ids as the puzzle names them). That checker is deliberately not
imported here: a certificate must convince code that shares nothing with its maker.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("a", "c"), ("a", "d")])
>>> structural_certificate(p).kind
'parity'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from trailkit.models.answer import Certificate
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import listing

__all__ = [
    "alternation_certificate",
    "balances",
    "components",
    "disconnected_certificate",
    "endpoints_certificate",
    "imbalance_certificate",
    "parity_certificate",
    "structural_certificate",
]

# ------------------------------------------------------------------ counts
def balances(n: int, tail: Sequence[int], head: Sequence[int]) -> list[int]:
    """Out-degree minus in-degree at each node, reading every edge as ``tail -> head``."""
    bal = [0] * n
    for v, c in Counter(tail).items():
        bal[v] += c
    for v, c in Counter(head).items():
        bal[v] -= c
    return bal


def _applies(puzzle: Puzzle) -> bool:
    """Whether these exactly-once arguments can apply at all (an edgeless puzzle is solved
    by the empty walk, or fails only for its endpoints)."""
    return puzzle.use is EdgeUse.EXACTLY_ONCE and len(puzzle.tail) > 0


# ------------------------------------------------------------ disconnected
def components(n: int, tail: Sequence[int], head: Sequence[int]) -> list[int]:
    """A representative node for every node's connected piece: union-find by size with
    path halving, no recursion, so trees stay at most ``log2(n)`` deep whatever the edge
    order (linking without sizes, and following each node's chain anew at the end, made
    a long path quadratic: 10^6 nodes took minutes)."""
    parent = list(range(n))
    size = [1] * n
    for u, v in zip(tail, head, strict=True):
        while parent[u] != u:
            parent[u] = u = parent[parent[u]]
        while parent[v] != v:
            parent[v] = v = parent[parent[v]]
        if u != v:
            if size[u] > size[v]:
                u, v = v, u
            parent[u] = v
            size[v] += size[u]
    for v in range(n):
        r = v
        while parent[r] != r:
            parent[r] = r = parent[parent[r]]
        parent[v] = r
    return parent


def disconnected_certificate(puzzle: Puzzle) -> Certificate | None:
    """Two edges in different pieces of the graph (directions ignored), or ``None``.

    The certificate names the smallest piece that holds an edge, one edge inside it
    and one edge outside it.
    """
    if not _applies(puzzle):
        return None
    tail, head = puzzle.tail, puzzle.head
    root = components(len(puzzle.nodes), tail, head)
    edge_roots = Counter(root[u] for u in tail)
    if len(edge_roots) < 2:
        return None
    size = Counter(root)
    piece = min(edge_roots, key=lambda r: (size[r], r))
    inside = next(e for e in range(len(tail)) if root[tail[e]] == piece)
    outside = next(e for e in range(len(tail)) if root[tail[e]] != piece)
    members = [puzzle.nodes[v] for v in range(len(puzzle.nodes)) if root[v] == piece]
    data = {"component": members, "inside": puzzle.edge_id(inside),
            "outside": puzzle.edge_id(outside)}
    explanation = (
        f"The edges fall apart into {len(edge_roots)} separate pieces: no chain of edges "
        f"joins {listing(members)} to the rest, so {puzzle.describe_edge(inside)} and "
        f"{puzzle.describe_edge(outside)} can never both be used by one walk.")
    return Certificate("disconnected", data, explanation)


# ------------------------------------------------------------------ parity
def parity_certificate(puzzle: Puzzle) -> Certificate | None:
    """All nodes that touch an odd number of edges, if there are too many for a trail."""
    if not _applies(puzzle):
        return None
    deg = puzzle.degrees()
    odd = [puzzle.nodes[v] for v, d in enumerate(deg) if d % 2]
    allowed = 0 if puzzle.closed else 2
    if len(odd) <= allowed:
        return None
    each = "touches" if len(odd) == 1 else "each touch"
    what = "Node" if len(odd) == 1 else "Nodes"
    if puzzle.closed:
        rule = ("a walk that uses every edge once and returns to its start enters and "
                "leaves every node equally often, so every node must touch an even number "
                "of edges")
    else:
        rule = ("a walk that uses every edge once can have at most two such nodes "
                "(its two ends)")
    explanation = (f"{what} {listing(odd)} {each} an odd number of edges (a loop counts "
                   f"twice); {rule}.")
    return Certificate("parity", {"nodes": odd}, explanation)


# --------------------------------------------------------------- imbalance
def imbalance_certificate(puzzle: Puzzle) -> Certificate | None:
    """With only one-way edges: the nodes whose out- and in-degree differ, if a trail
    cannot absorb the difference (none for a closed walk, one node each way otherwise)."""
    if not _applies(puzzle) or puzzle.directed is None or not all(puzzle.directed):
        return None
    bal = balances(len(puzzle.nodes), puzzle.tail, puzzle.head)
    allowed = 0 if puzzle.closed else 1
    surplus = sum(b for b in bal if b > 0)  # equals the deficit: every edge has two ends
    if surplus <= allowed:
        return None
    uneven = {puzzle.nodes[v]: b for v, b in enumerate(bal) if b}
    words = [f"{name} ({'+' if b > 0 else ''}{b})" for name, b in uneven.items()]
    if puzzle.closed:
        rule = ("a walk that uses every one-way edge once and returns to its start must "
                "leave every node as often as it enters it")
    else:
        rule = ("a walk that uses every one-way edge once can leave one node (its start) "
                "one more time than it enters it, and enter one node (its end) one more "
                "time than it leaves it, and no more")
    explanation = (f"Counting one-way edges out minus edges in gives {listing(words)}; "
                   f"{rule}.")
    return Certificate("imbalance", {"nodes": uneven}, explanation)


# --------------------------------------------------------------- endpoints
def _forced_ends(puzzle: Puzzle) -> tuple[list[tuple[int, int]], str] | None:
    """The (start, end) pairs the degrees leave a trail, and why; ``None`` when parity or
    imbalance already rules every trail out (those certificates apply instead)."""
    n, names = len(puzzle.nodes), puzzle.nodes
    deg = puzzle.degrees()
    odd = [v for v in range(n) if deg[v] % 2]
    if len(odd) > 2 or (odd and puzzle.closed):
        return None
    if puzzle.directed is not None and all(puzzle.directed):
        bal = balances(n, puzzle.tail, puzzle.head)
        plus = [v for v in range(n) if bal[v] > 0]
        minus = [v for v in range(n) if bal[v] < 0]
        if len(plus) == 1 and len(minus) == 1:
            s, t = plus[0], minus[0]
            return [(s, t)], (f"{names[s]} has one more one-way edge out than in and "
                              f"{names[t]} one more in than out, so a walk that uses every "
                              f"edge once must start at {names[s]} and end at {names[t]}")
        if plus or minus:
            return None
    if len(odd) == 2:
        x, y = odd
        return [(x, y), (y, x)], (f"only {names[x]} and {names[y]} touch an odd number of "
                                  "edges, so a walk that uses every edge once must run "
                                  "between them")
    touched = [v for v in range(n) if deg[v]]
    return [(v, v) for v in touched], ("every node touches an even number of edges (and "
                                       "one-way edges balance), so a walk that uses every "
                                       "edge once must end where it started, at a node "
                                       "that has edges")


def endpoints_certificate(puzzle: Puzzle) -> Certificate | None:
    """The ends the degrees force, when none of them is an allowed start/end pair; with
    no edges, the node the walk stands on, when none is both an allowed start and end."""
    if not puzzle.tail:
        return _standstill_certificate(puzzle)
    if not _applies(puzzle):
        return None
    forced = _forced_ends(puzzle)
    if forced is None:
        return None
    pairs, why = forced
    starts, ends = puzzle.start, puzzle.end
    if any((starts is None or s in starts) and (ends is None or t in ends) for s, t in pairs):
        return None
    names = puzzle.nodes
    allowed = []
    if starts is not None:
        allowed.append(f"start at {listing(sorted(names[v] for v in starts)) or 'no node'}")
    if ends is not None:
        allowed.append(f"end at {listing(sorted(names[v] for v in ends)) or 'no node'}")
    rule = " and ".join(allowed)
    explanation = f"The degrees decide the ends: {why}; but the walk must {rule}."
    return Certificate("endpoints", {}, explanation)


def _standstill_certificate(puzzle: Puzzle) -> Certificate | None:
    """No edges: the only walk is the empty one on a node allowed both to start and to end
    (this holds whatever the edge rule); an ``endpoints`` certificate when there is none."""
    n, starts, ends = len(puzzle.nodes), puzzle.start, puzzle.end
    if not n or any((starts is None or v in starts) and (ends is None or v in ends)
                    for v in range(n)):
        return None
    names = puzzle.nodes
    rule = " and ".join(f"{what} at {listing(sorted(names[v] for v in chosen)) or 'no node'}"
                        for what, chosen in (("start", starts), ("end", ends))
                        if chosen is not None)
    explanation = ("The puzzle has no edges, so the walk cannot take a step: it starts and "
                   f"ends on the same node; but the walk must {rule}, and no node is both.")
    return Certificate("endpoints", {}, explanation)


# ------------------------------------------------------------- alternation
def _alternating_pair(puzzle: Puzzle) -> tuple[int, int] | None:
    """The two colours of a strict two-colour alternation rule (a → b → a), else ``None``."""
    rule = puzzle.colours
    if rule is None or len(rule.names) != 2:
        return None
    if rule.successors[0] != frozenset({1}) or rule.successors[1] != frozenset({0}):
        return None
    return 0, 1


def alternation_certificate(puzzle: Puzzle) -> Certificate | None:
    """Nodes whose red and blue edge ends do not balance under a red/blue alternation rule.

    A walk that alternates two colours pairs, at every node it passes through, one
    edge end of each colour; only its first and last steps leave an end unpaired (and
    a closed walk pairs those too). So the imbalances, summed over all nodes, are at
    most 2 (0 when closed).
    """
    pair = _alternating_pair(puzzle)
    if not _applies(puzzle) or pair is None or puzzle.colour is None:
        return None
    if puzzle.directed is not None and any(puzzle.directed):
        return None
    surplus = [0] * len(puzzle.nodes)
    for u, v, c in zip(puzzle.tail, puzzle.head, puzzle.colour, strict=True):
        if c < 0:
            return None
        step = 1 if c == pair[0] else -1
        surplus[u] += step
        surplus[v] += step
    allowed = 0 if puzzle.closed else 2
    uneven = {puzzle.nodes[v]: d for v, d in enumerate(surplus) if d}
    if sum(abs(d) for d in uneven.values()) <= allowed:
        return None
    a, b = (puzzle.colours.names[i] for i in pair)  # type: ignore[union-attr]  # a pair implies a rule
    shown = listing([f"{name} ({d:+d})" for name, d in uneven.items()])
    ends = ("and a closed walk pairs its first and last steps too, so every node must "
            "balance" if puzzle.closed else
            "only the first and last steps leave an end unpaired, so the imbalances can "
            "add up to at most 2")
    explanation = (
        f"Colours {a} and {b} must alternate, so each time the walk passes through a node "
        f"it uses one {a} and one {b} edge end there; {ends}. Counting {a} ends minus "
        f"{b} ends (a loop counts twice): {shown}.")
    return Certificate("alternation", {"colours": [a, b], "nodes": uneven}, explanation)


_MAKERS: tuple[Callable[[Puzzle], Certificate | None], ...] = (
    disconnected_certificate,
    parity_certificate,
    imbalance_certificate,
    endpoints_certificate,
    alternation_certificate,
)


def structural_certificate(puzzle: Puzzle) -> Certificate | None:
    """The first structural certificate that applies (disconnected, parity, imbalance,
    endpoints), or ``None`` when none does (e.g. a mixed graph that fails only because
    no orientation of its two-way edges balances)."""
    for maker in _MAKERS:
        certificate = maker(puzzle)
        if certificate is not None:
            return certificate
    return None
