"""The independent checker of ``best-formula`` certificates: a count of Euler trails, recomputed.

An exactly-once puzzle without a colour rule is counted by a formula (the BEST theorem,
summed over Eulerian orientations), not by listing its walks. The certificate writes out
the formula's inputs, and this checker recomputes the number from the spec by methods of
its own, trusting nothing the certificate says but which orientations it names::

    {"type": "best-formula", "claim": "count", "solutions": 88,
     "pairs": [["a", "b", 1], ...], "arcs": [["c", "d", 1], ...], "loops": [["e", 1], ...],
     "graphs": [{"added": ["b", "a"], "orientations": ["0110...", ...]}, ...]}

``pairs`` are the two-way edges grouped by the two nodes they join, ``arcs`` the one-way
edges, ``loops`` the self-loops (one step each, whatever their direction); each must be the
spec's own. An orientation is one character per pair (``0-9a-z``): how many of the pair's
edges run from its first node to its second. The argument, each step checked here:

1. **Walks to circuits**, re-derived from the spec's start, end and closed rules: a walk
   from ``s`` back to ``s`` is a circuit read from one of its ``deg(s)/2`` steps leaving
   ``s``; a walk from ``s`` to ``t != s`` is a circuit of the graph plus an arc ``t -> s``,
   read from that arc; a graph with a node of odd degree has no circuit.
2. **Circuits to orientations**: a circuit orients each two-way edge the way it walks it,
   Eulerian (in = out everywhere); ``C(m, x)`` orientations share a class.
3. **Completeness**: each listed class is checked Eulerian, none is listed twice, and a
   dynamic programme over the pairs counts how many exist: as many as are listed.
4. **BEST**: ``ec(D) = t_w(D) · ∏_v (out(v) − 1)!``, ``t_w`` the determinant of the
   Laplacian ``diag(out) − A`` without the checker's root (its first node; the counter
   drops its last), taken modulo primes below ``2^31`` (checked by trial division) by
   division-free elimination over all classes at once (the counter uses Bareiss over the
   integers), joined by the Chinese remainder theorem past twice the Hadamard bound.

Why each step is sound: docs/checking.md, "Counts by the formula".

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "a")], closed=True)
>>> cert = {"solutions": 6, "pairs": [["a", "b", 1], ["b", "c", 1], ["a", "c", 1]],
...         "arcs": [], "loops": [], "graphs": [{"added": None, "orientations": ["110", "001"]}]}
>>> best_formula_verdict(p, cert).problems
[]
>>> best_formula_verdict(p, {**cert, "solutions": 8}).problems
['the certificate states 8 solutions, but the formula recomputed gives 6']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from trailkit.models.checking.check_words import Verdict
from trailkit.models.checking.euler_orientations import Graph, orientation_classes
from trailkit.models.checking.modular_determinants import (
    determinants_mod,
    nearest_by_crt,
    primes_over,
)
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import listing, plural

__all__ = ["DIGITS", "KIND", "best_formula_verdict"]

KIND = "best-formula"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
CHUNK = 4096  # classes eliminated at once (memory: CHUNK · nodes² int64)

_CLASSES = "Eulerian orientation classes"
Key = tuple[int, int] | None  # the arc added (t, s), or None for the graph itself


def _needed(puzzle: Puzzle, g: Graph) -> dict[Key, int]:
    """Step 1: each graph whose circuits the walks need, with its factor (``deg(s)/2``
    summed over the starts that may also be ends, for ``None``; 1 for an added arc)."""
    starts = range(g.n) if puzzle.start is None else sorted(puzzle.start)
    ends = set(range(g.n) if puzzle.end is None else puzzle.end)
    odd = {v for v in range(g.n) if g.degree[v] % 2}
    closing = sum(g.degree[s] // 2 for s in starts if s in ends)
    out: dict[Key, int] = {None: closing} if closing and not odd else {}
    if not puzzle.closed and len(odd) == 2:
        for s in starts:
            for t in odd - {s}:
                if s in odd and t in ends:
                    out[(t, s)] = 1
    return out


def best_formula_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``best-formula`` certificate against ``puzzle``: why it fails, or what holds."""
    if puzzle.use is not EdgeUse.EXACTLY_ONCE or puzzle.colours is not None or \
            not puzzle.num_edges or puzzle.has_node_rules:
        return Verdict(["a best-formula certificate counts walks that use every edge "
                        "exactly once, with no colour rule and no node rule, on a puzzle "
                        "with edges"])
    try:
        return _verdict(puzzle, data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Verdict([f"malformed best-formula certificate: {exc!r}"])


def _verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    g, names = Graph(puzzle), puzzle.nodes
    pairs = _read_graph(puzzle, g, data)
    if isinstance(pairs, str):
        return Verdict([f"the certificate's graph is not the spec's: {pairs}"])
    needed = _needed(puzzle, g)
    listed: dict[Key, Sequence[str]] = {}
    index = {name: i for i, name in enumerate(names)}
    for entry in data["graphs"]:
        added = entry["added"]
        key = None if added is None else (index[str(added[0])], index[str(added[1])])
        if key in listed or key not in needed:
            why = "twice" if key in listed else "though no walk of the puzzle needs them"
            return Verdict([f"the certificate lists orientations for {_graph_words(names, key)} "
                            f"{why}"])
        listed[key] = entry["orientations"]
    total, classes = 0, 0
    for key, factor in needed.items():
        if key not in listed:
            return Verdict([f"no orientations are listed for {_graph_words(names, key)}"])
        circuits = _circuits(g, key, pairs, listed[key])
        if isinstance(circuits, str):
            return Verdict([f"{_graph_words(names, key)}: {circuits}"])
        total += factor * circuits
        classes += len(listed[key])
    if int(data["solutions"]) != total:
        return Verdict([f"the certificate states {data['solutions']} solutions, but the "
                        f"formula recomputed gives {total}"])
    return Verdict([], _holds(total, classes, [_graph_words(names, k) for k in needed]))


def _graph_words(names: Sequence[str], key: Key) -> str:
    return "the closed walks" if key is None else \
        f"the trails from {names[key[1]]} to {names[key[0]]}"


def _holds(total: int, classes: int, graphs: list[str]) -> str:
    if not graphs:
        return ("every graph the walks would need (the spec's, or with an arc from an allowed "
                "end back to an allowed start) has a node of odd degree, so no walk uses every "
                "edge exactly once from an allowed start to an allowed end")
    return (f"{plural(classes, 'class', 'classes')} of Eulerian orientations for "
            f"{listing(graphs)}, each checked and none missing (counted the checker's own "
            "way), give by the BEST theorem, with determinants recomputed modulo primes, "
            f"{plural(total, 'walk')} that use every edge exactly once from an allowed start "
            "to an allowed end")


def _read_graph(puzzle: Puzzle, g: Graph, data: Mapping[str, Any]
                ) -> list[tuple[int, int, int]] | str:
    """The certificate's pairs (in its order, as node indices) when its pairs, arcs and
    loops are exactly the spec's; else what differs."""
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    pairs = [(index[str(u)], index[str(v)], int(m)) for u, v, m in data["pairs"]]
    mine = Counter({(min(u, v), max(u, v)): m for u, v, m in pairs})
    if len(mine) != len(pairs) or mine != g.pairs or any(m > len(DIGITS) - 1 for *_, m in pairs):
        diff = sorted(set(mine.items()) ^ set(g.pairs.items()))
        return (f"two-way edges between {puzzle.nodes[diff[0][0][0]]} and "
                f"{puzzle.nodes[diff[0][0][1]]}: the spec has {g.pairs.get(diff[0][0], 0)}, "
                f"the certificate {mine.get(diff[0][0], 0)}" if diff else
                "a pair is listed twice or has too many edges")
    arcs = Counter({(index[str(u)], index[str(v)]): int(m) for u, v, m in data["arcs"]})
    loops = [0] * g.n
    for v, k in data["loops"]:
        loops[index[str(v)]] += int(k)
    if arcs != g.arcs or loops != g.loops:
        return "its one-way edges or self-loops differ from the spec's"
    return pairs


def _circuits(g: Graph, key: Key, pairs: list[tuple[int, int, int]],
              listed: Sequence[str]) -> int | str:
    """Steps 2 to 4 for one graph: ``ec``, or why the listed orientations are wrong."""
    arcs = g.arcs + Counter([key]) if key is not None else g.arcs
    degree = list(g.degree)
    if key is not None:
        degree[key[0]] += 1
        degree[key[1]] += 1
    need = [degree[v] // 2 - g.loops[v] - sum(m for (u, _), m in arcs.items() if u == v)
            for v in range(g.n)]
    x = _classes(listed, pairs)
    if isinstance(x, str):
        return x
    ms = np.array([m for *_, m in pairs], dtype=np.int64)
    out = np.zeros((len(listed), g.n), dtype=np.int64)
    for p, (u, v, _) in enumerate(pairs):
        out[:, u] += x[:, p]
        out[:, v] += ms[p] - x[:, p]
    wrong = np.flatnonzero((out != np.array(need)).any(axis=1))
    if wrong.size:
        return f"orientation {wrong[0] + 1} is not Eulerian (some node's in- and out-degree differ)"
    exist = orientation_classes(g.n, need, pairs) or 0
    if exist != len(listed):
        return (f"{plural(exist, 'Eulerian orientation class', _CLASSES)} exist, the "
                f"certificate lists {len(listed):,}")
    if not exist:
        return 0
    used = [v for v in range(g.n) if degree[v]]
    factor = math.prod(math.factorial(degree[v] // 2 - 1) for v in used)
    return factor * _tree_sum(degree, g.loops, arcs, used, pairs, x)


def _classes(listed: Sequence[str], pairs: Sequence[tuple[int, int, int]]) -> np.ndarray | str:
    """The listed classes as a (classes × pairs) array of ``x``; or why they are not."""
    seen: dict[str, int] = {}
    for i, orientation in enumerate(listed):
        if orientation in seen:
            return f"orientation {i + 1} is listed twice (as orientation {seen[orientation] + 1})"
        seen[orientation] = i
    width = len(pairs)
    bad = next((i for i, o in enumerate(listed) if len(o) != width or not o.isascii()), None)
    if bad is not None:
        return f"orientation {bad + 1} does not have one character per pair ({width})"
    table = np.full(256, 99, dtype=np.int64)
    table[np.frombuffer(DIGITS.encode(), dtype=np.uint8)] = np.arange(len(DIGITS))
    raw = np.frombuffer("".join(listed).encode(), dtype=np.uint8)
    x = table[raw].reshape(len(listed), width)
    over = np.flatnonzero((x > np.array([m for *_, m in pairs], dtype=np.int64)).any(axis=1))
    if over.size:
        return f"orientation {over[0] + 1} orients more edges than a pair has"
    return x


def _tree_sum(degree: list[int], loops: list[int], arcs: Counter[tuple[int, int]], used: list[int],
              pairs: list[tuple[int, int, int]], x: np.ndarray) -> int:
    """``Σ_k C(m, x_k) · t_root(D_k)`` over the classes ``x`` (each checked Eulerian),
    exactly: determinants modulo enough primes for the Hadamard bound. A row of the
    reduced Laplacian holds ``out(v) − loops(v)`` and entries of at most that much in
    all, so its length is at most ``2·(deg(v)/2 − loops(v))``."""
    place = {v: i - 1 for i, v in enumerate(used)}  # the root (used[0]) gets -1: dropped
    size = len(used) - 1
    hadamard = math.prod(2 * (degree[v] // 2 - loops[v]) for v in used[1:])
    weights = len(x) * math.prod(math.comb(m, m // 2) for *_, m in pairs)
    primes = primes_over(4 * (weights * hadamard) ** 2)
    base = np.zeros((size, size), dtype=np.int64)
    for (u, v), m in arcs.items():
        _arc(base, place[u], place[v], m)
    totals = [0] * len(primes)
    for first in range(0, len(x), CHUNK):
        part = x[first:first + CHUNK]
        lap = np.repeat(base[None], len(part), axis=0)
        for p, (u, v, m) in enumerate(pairs):
            _arc(lap, place[u], place[v], part[:, p])
            _arc(lap, place[v], place[u], m - part[:, p])
        for i, prime in enumerate(primes):
            weight = np.ones(len(part), dtype=np.int64)
            for q, (*_, m) in enumerate(pairs):
                comb = np.array([math.comb(m, k) % prime for k in range(m + 1)])
                weight = weight * comb[part[:, q]] % prime
            totals[i] += int((determinants_mod(lap, prime) * weight % prime).sum())
    return nearest_by_crt([t % p for t, p in zip(totals, primes, strict=True)], primes)


def _arc(lap: np.ndarray, u: int, v: int, m: Any) -> None:
    """Add ``m`` arcs ``u -> v`` to the reduced Laplacian ``diag(out) − A`` (-1: the root)."""
    if u >= 0 and u != v:
        lap[..., u, u] += m
        if v >= 0:
            lap[..., u, v] -= m
