"""Random puzzles of every family, reproducible from a seed (what ``trailkit generate``
writes).

Kinds and what ``--size N`` means:

* ``dominoes``: a random subset of the double-N set (pips 0..N), as a ring;
* ``trail``: a connected multigraph on N nodes; Eulerian (closed) or near-Eulerian
  (exactly two odd nodes, open) when solvable;
* ``colour-walk``: tyres on a hexagon of side N (like the Toowoomba puzzle's), planks
  between neighbours in random colours red, blue, green; start at the top-left
  corner, goal at the bottom-right one;
* ``alternating``: ``kind: walk``, every edge exactly once, colours alternating red
  and blue, on N nodes with about 2N edges;
* ``balanced``: ``kind: walk``, every edge exactly once, colours red -> blue -> green,
  closed, on N tyres (4N + 4 helper edges, more for ``no``): every parity and colour
  count balances, yet ``no`` is impossible by a counting argument that makes
  resolution proofs work (see :func:`_balanced`);
* ``tour``: ``kind: tour`` (a Hamiltonian cycle) on N nodes ``"1"`` .. ``"N"``, a random
  graph G(N, m) with m = (N/2)(ln N + ln ln N - ln ln 2) edges, where about half the
  graphs have a tour (the model and its sources: :func:`_tour`).

``--solvable yes|no`` is a promise the generator keeps twice: by construction (an
Euler-parity fix, a planted colour path or alternating trail; a broken parity, a
removed plank on every shortest walk, an odd colour count), and by solving the
result with the ``direct`` backend through the checking pipeline (a tour's promise is
kept by selection alone: graphs are drawn until one is confirmed, about half are). Only
then does the spec get an ``expect: {status: ...}`` block. An instance that misses the promise is
thrown away and rebuilt from a derived seed (``MAX_ATTEMPTS`` times at most).
Everything random comes from one ``random.Random``: the same arguments give the
same file, byte for byte.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from trailkit.models.errors import TrailkitError

__all__ = ["CONFIRMERS", "KINDS", "SOLVABLE", "Generated", "generate", "tour_edge_count"]

KINDS = ("dominoes", "trail", "colour-walk", "alternating", "balanced", "tour")
SOLVABLE = ("yes", "no", "any")
MAX_ATTEMPTS = 40
#: Seconds the direct backend may take to confirm a promise.
CONFIRM_TIME_S = 30.0
#: Instances the direct backend may fail to decide in time before the generator gives up.
MAX_UNKNOWN = 2
COLOURS = ("red", "blue", "green")
_LIMITS = {"dominoes": (1, 30), "trail": (2, 400), "colour-walk": (2, 30), "alternating": (2, 60),
           "balanced": (3, 40), "tour": (3, 20000)}


@dataclass
class _Draft:
    """A puzzle before it is written: YAML lines of its kind-specific part."""

    kind: str
    lines: list[str] = field(default_factory=list)
    edges: list[tuple[str, str, str | None]] = field(default_factory=list)


@dataclass(frozen=True)
class Generated:
    """The spec text, the status the confirming backend stood behind (None for ``any``),
    attempts, and that backend."""

    text: str
    status: str | None
    attempts: int
    confirmed_by: str = "direct"


def generate(kind: str, size: int, seed: int, solvable: str = "any") -> Generated:
    """Build a spec of ``kind`` and ``size`` from ``seed`` that keeps the ``solvable`` promise.

    >>> a = generate("trail", 5, 1, "yes"); a.status
    'solved'
    >>> a.text == generate("trail", 5, 1, "yes").text
    True
    """
    if kind not in KINDS:
        raise TrailkitError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    if solvable not in SOLVABLE:
        raise TrailkitError(f"--solvable must be one of {', '.join(SOLVABLE)}")
    low, high = _LIMITS[kind]
    if not low <= size <= high:
        raise TrailkitError(f"--size for {kind} must be between {low} and {high}")
    wanted = {"yes": "solved", "no": "unsolvable"}.get(solvable)
    unknown = 0
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(seed if attempt == 0 else f"{seed}/{attempt}")
        draft = _BUILDERS[kind](rng, size, solvable)
        header = _header(kind, size, seed, solvable, attempt)
        if wanted is None:
            return Generated(_text(header, draft, None), None, attempt + 1)
        status = _confirmed_status(_text(header, draft, None), kind)
        if status == wanted:
            return Generated(_text(header, draft, wanted), wanted, attempt + 1,
                             CONFIRMERS.get(kind, "direct"))
        unknown += status == "unknown"
        if unknown > MAX_UNKNOWN:  # other seeds of the same size are likely as hard
            raise TrailkitError(
                f"the direct backend could not decide {unknown} {kind} puzzles of size "
                f"{size} within {CONFIRM_TIME_S:g} s each, so the --solvable {solvable} "
                "promise is unconfirmed; choose a smaller size, or --solvable any "
                "(no expect: block)")
    raise TrailkitError(f"no {kind} puzzle of size {size} with --solvable {solvable} found "
                        f"from seed {seed} in {MAX_ATTEMPTS} attempts; try another size or seed")


#: The backend that confirms a promise, where it is not ``direct``: the direct backend's
#: exhaustive search cannot decide the balanced family (that is its point), the SAT
#: transition encoding refutes it with a proof the checker accepts.
CONFIRMERS = {"balanced": "sat/transition"}


def _confirmed_status(text: str, kind: str = "") -> str:
    """Solve through the checking pipeline (with ``direct``, or the kind's confirmer):
    the status it stands behind."""
    from trailkit.models.spec import load_spec_text
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.pipeline import solve

    answer = solve(load_spec_text(text), CONFIRMERS.get(kind, "direct"),
                   Limits(time_limit=CONFIRM_TIME_S), crosscheck=None)
    return answer.status.value


def _header(kind: str, size: int, seed: int, solvable: str, attempt: int) -> list[str]:
    command = f"trailkit generate {kind} --size {size} --seed {seed} --solvable {solvable}"
    spec_kind = {"dominoes": "domino-chain", "alternating": "walk", "balanced": "walk"}.get(
        kind, kind)
    retry = f" (attempt {attempt + 1})" if attempt else ""
    return ["trailkit: 1", f"name: {_q(f'{kind} {size}, seed {seed}')}",
            f"description: {_q(f'Made by: {command}{retry}')}", f"kind: {spec_kind}"]


def _text(header: list[str], draft: _Draft, status: str | None) -> str:
    lines = [*header, *draft.lines]
    if draft.edges:
        lines.append("edges:")
        lines += [f"  - {_q(' '.join(x for x in edge if x))}" for edge in draft.edges]
    if status is not None:
        lines.append(f"expect: {{status: {status}}}")
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _names(count: int, upper: bool = False) -> list[str]:
    """Spreadsheet-style names: a..z, aa, ab, ... (A..Z, AA, ... when ``upper``)."""
    out = []
    for i in range(count):
        name, i = "", i + 1
        while i:
            i, r = divmod(i - 1, 26)
            name = chr(ord("A" if upper else "a") + r) + name
        out.append(name)
    return out


def _odd(degree: dict[str, int]) -> list[str]:
    return sorted(v for v, d in degree.items() if d % 2)


def _degrees(edges: list[tuple[str, str]], nodes: list[str]) -> dict[str, int]:
    degree = dict.fromkeys(nodes, 0)
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1
    return degree


# ------------------------------------------------------------------ dominoes
def _dominoes(rng: random.Random, size: int, solvable: str) -> _Draft:
    """A ring of dominoes: even pip counts and one piece of table for ``yes``.

    Parity is fixed by toggling a domino between two odd pips (which flips both);
    ``no`` then toggles one more non-double domino, leaving two odd pips.
    """
    pips = [str(p) for p in range(size + 1)]
    chosen = {(i, j) for i in range(size + 1) for j in range(i, size + 1) if rng.random() < 0.6}
    if solvable != "any":
        while True:
            odd = _odd(_degrees([(str(i), str(j)) for i, j in chosen], pips))
            if not odd:
                break
            rng.shuffle(odd)
            low, high = sorted((int(odd[0]), int(odd[1])))
            pair = (low, high)
            chosen ^= {pair}
    if solvable == "no":
        candidates = [(i, j) for i in range(size + 1) for j in range(i + 1, size + 1)]
        chosen ^= {rng.choice(candidates)}
    pieces = sorted(chosen)
    rng.shuffle(pieces)
    listed = ", ".join(f"[{i}, {j}]" if rng.random() < 0.5 else f"[{j}, {i}]"
                       for i, j in pieces)
    return _Draft("domino-chain", [f"dominoes: [{listed}]", "closed: true"])


# ------------------------------------------------------------------ trail
def _trail(rng: random.Random, size: int, solvable: str) -> _Draft:
    """A connected multigraph (random tree plus extra edges), Euler parity fixed for ``yes``.

    ``yes``: closed with no odd node, or open with exactly two; ``no``: open with four
    odd nodes (an edge added between two even ones).
    """
    nodes = _names(size)
    order = nodes[:]
    rng.shuffle(order)
    edges = [(order[i], rng.choice(order[:i])) for i in range(1, size)]
    for _ in range(rng.randint(size // 2, size + 2)):
        u, v = rng.sample(nodes, 2)
        edges.append((u, v))
    closed = solvable == "yes" and rng.random() < 0.5
    if solvable != "any":
        odd = _odd(_degrees(edges, nodes))
        rng.shuffle(odd)
        keep = 0 if closed else 2
        while len(odd) > keep:
            edges.append((odd.pop(), odd.pop()))
    if solvable == "no":
        degree = _degrees(edges, nodes)
        even = [v for v in nodes if degree[v] % 2 == 0]
        if len(even) >= 2:
            u, v = rng.sample(even, 2)
        else:  # every node odd: closing the trail cannot work
            u, v = edges[0]
            closed = True
        edges.append((u, v))
    rng.shuffle(edges)
    draft = _Draft("trail", [f"nodes: [{', '.join(nodes)}]", f"closed: {str(closed).lower()}"])
    draft.edges = [(u, v, None) if rng.random() < 0.5 else (v, u, None) for u, v in edges]
    return draft


# ------------------------------------------------------------------ colour walk
_HEX_STEPS = ((1, 0), (0, 1), (-1, 1))


def _colour_walk(rng: random.Random, size: int, solvable: str) -> _Draft:
    """Tyres on a hexagon of side ``size`` (axial coordinates), planks between neighbours.

    ``yes`` plants a random simple path from start to goal coloured red, blue, green,
    ...; ``no`` removes a plank of a shortest walk until there is none (as the
    Toowoomba puzzle lost its green plank).
    """
    cells = sorted(((q, r) for r in range(-size + 1, size) for q in range(-size + 1, size)
                    if abs(q + r) < size), key=lambda c: (c[1], c[0]))
    name = dict(zip(cells, _names(len(cells), upper=True), strict=True))
    planks: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
    for q, r in cells:
        for dq, dr in _HEX_STEPS:
            other = (q + dq, r + dr)
            if other in name and rng.random() < 0.7:
                planks[((q, r), other)] = rng.choice(COLOURS)
    start, goal = cells[0], cells[-1]
    if solvable == "yes":
        phase = rng.randrange(3)
        for i, (a, b) in enumerate(_random_path(rng, name, start, goal)):
            planks.pop((b, a), None)
            planks[(a, b)] = COLOURS[(phase + i) % 3]
    layout = ", ".join(f"{name[(q, r)]}: [{q + r / 2:g}, {-r}]" for q, r in cells)
    tyres = ", ".join(_q(name[c]) for c in cells)  # every tyre, planks or not
    draft = _Draft("colour-walk", [f"nodes: [{tyres}]", f"colours: [{', '.join(COLOURS)}]",
                                   f"start: {_q(name[start])}", f"goal: {_q(name[goal])}",
                                   f"layout: {{{layout}}}"])
    draft.edges = [(name[a], name[b], colour) for (a, b), colour in planks.items()]
    if solvable == "no":
        _cut_until_unsolvable(rng, draft)
    return draft


def _random_path(rng: random.Random, name: dict[tuple[int, int], str], start: tuple[int, int],
                 goal: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """A random simple path on the hexagonal grid (randomised depth-first search)."""
    steps = [(dq, dr) for dq, dr in _HEX_STEPS] + [(-dq, -dr) for dq, dr in _HEX_STEPS]
    parent = {start: start}
    stack = [start]
    while stack:
        cell = stack.pop()
        if cell == goal:
            break
        rng.shuffle(steps)
        for dq, dr in steps:
            nxt = (cell[0] + dq, cell[1] + dr)
            if nxt in name and nxt not in parent:
                parent[nxt] = cell
                stack.append(nxt)
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    path.reverse()
    return list(itertools.pairwise(path))


def _cut_until_unsolvable(rng: random.Random, draft: _Draft) -> None:
    """Remove a random plank of the shortest walk until no walk is left."""
    from trailkit.models.answer import Status
    from trailkit.models.spec import load_spec_text
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.registry import get_backend

    direct = get_backend("direct")
    while draft.edges:
        text = _text(["trailkit: 1", "kind: colour-walk"], draft, None)
        answer = direct.solve(load_spec_text(text), Limits(time_limit=CONFIRM_TIME_S))
        if answer.status is not Status.SOLVED or answer.walk is None:
            return
        cut = rng.choice(sorted(set(answer.walk.edges)))
        del draft.edges[cut]


# ------------------------------------------------------------------ alternating
def _alternating(rng: random.Random, size: int, solvable: str) -> _Draft:
    """Every edge once, red and blue alternating, on ``size`` nodes with about 2N edges.

    ``yes`` plants the trail itself (a random walk that alternates colours; closed
    ones have an even length and end at their start); ``no`` plants a closed one and
    recolours one edge: a ring that alternates has as many red edges as blue ones.
    """
    nodes = _names(size)
    count = 2 * size + rng.randint(-size // 2, size // 2)
    closed = solvable == "no" or (solvable == "yes" and rng.random() < 0.5)
    edges: list[tuple[str, str, str]] = []
    if solvable == "any":
        for _ in range(count):
            u, v = rng.sample(nodes, 2)
            edges.append((u, v, rng.choice(COLOURS[:2])))
    else:
        count += count % 2 if closed else 0
        walk = [rng.choice(nodes)]
        for i in range(count):
            choices = [v for v in nodes if v != walk[-1]
                       and not (closed and i == count - 2 and v == walk[0])]
            walk.append(walk[0] if closed and i == count - 1 else rng.choice(choices))
        edges = [(walk[i], walk[i + 1], COLOURS[i % 2]) for i in range(count)]
    if solvable == "no":
        i = rng.randrange(len(edges))
        u, v, colour = edges[i]
        edges[i] = (u, v, "blue" if colour == "red" else "red")
    rng.shuffle(edges)
    draft = _Draft("walk", ["use: exactly-once", f"closed: {str(closed).lower()}",
                            "colours: {transitions: {red: [blue], blue: [red]}}"])
    draft.edges = [(u, v, c) if rng.random() < 0.5 else (v, u, c) for u, v, c in edges]
    return draft


# ------------------------------------------------------------------ balanced
def _regular_red(rng: random.Random, nodes: list[str]) -> list[tuple[str, str, str]]:
    """Red edges making every node of ``nodes`` meet four: two random Hamiltonian cycles."""
    edges = []
    for _ in range(2):
        ring = nodes[:]
        rng.shuffle(ring)
        edges += [(ring[i], ring[(i + 1) % len(ring)], "red") for i in range(len(ring))]
    return edges


def _helper_edges(tyres: list[str], helpers: Iterator[str], *,
                  one_for_first: bool) -> list[tuple[str, str, str]]:
    """Two helpers for each tyre (one for the first with ``one_for_first``): a blue edge
    to a fresh node named by ``helpers`` and a green one back, which the walk must take
    out and back, so each helper sets one of the tyre's red arrivals
    (:func:`_balanced`)."""
    edges: list[tuple[str, str, str]] = []
    for tyre in tyres:
        for _ in range(1 if one_for_first and tyre == tyres[0] else 2):
            h = next(helpers)
            edges.extend([(tyre, h, "blue"), (h, tyre, "green")])
    return edges


def _balanced(rng: random.Random, size: int, solvable: str) -> _Draft:
    """Every edge once, colours red -> blue -> green -> red, closed; balanced everywhere.

    Under this rule a walk arriving by a red edge leaves by a blue one, arriving by blue
    leaves by green, and arriving by green leaves by red. So at a node with ``r``, ``b``
    and ``g`` edge ends, the walk arrives by exactly ``(r + b - g) / 2`` red ends: the
    node's *red capacity*. ``size`` tyres ``a, b, ...`` are joined by a random 4-regular
    red multigraph (two random Hamiltonian cycles, ``2 size`` red edges); each tyre has
    two *helpers* (a blue edge to a fresh node and a green one back: the walk must go
    out blue and come back green), so its red capacity is 2. Every red edge needs one
    red arrival at its ends. For ``no``, tyre ``a`` has one helper and two green edges
    from a hub instead, so its capacity is 1 and the tyres' red edges need one more
    arrival than the tyres have; the hub takes two blue edges from a second, smaller
    red graph (``size / 4`` tyres) whose first tyre has capacity 3, so every count
    balances: every degree is even, every node's capacity is whole and in range, and
    red, blue and green edges are equally many. Impossible all the same: a red edge
    between the two groups is what could move the spare arrival, and there is none.
    Refuting it is a counting argument (like the pigeonhole principle) that resolution
    proofs find hard, so the proofs grow quickly with ``size``. ``yes`` is the first
    group alone with tyre ``a`` a tyre like the others (a 4-regular graph can always
    be oriented with two arrivals at each node).
    """
    impossible = solvable == "no" or (solvable == "any" and rng.random() < 0.5)
    tyres = _names(size)
    edges = _regular_red(rng, tyres)
    helpers = iter(_names(8 * size + 64, upper=True))
    edges += _helper_edges(tyres, helpers, one_for_first=impossible)
    if impossible:
        other = [f"z{name}" for name in _names(max(3, size // 4))]
        edges += _regular_red(rng, other)
        edges += _helper_edges(other, helpers, one_for_first=True)
        edges += [("hub", tyres[0], "green"), ("hub", tyres[0], "green"),
                  (other[0], "hub", "blue"), (other[0], "hub", "blue")]
    rng.shuffle(edges)
    draft = _Draft("walk", ["use: exactly-once", "closed: true",
                            "colours: {cycle: [red, blue, green]}"])
    draft.edges = [(u, v, c) if rng.random() < 0.5 else (v, u, c) for u, v, c in edges]
    return draft


# ------------------------------------------------------------------ tour
#: The constant c that puts the limit exp(-exp(-c)) of :func:`_tour` at 1/2.
THRESHOLD_C = -math.log(math.log(2.0))


def _tour(rng: random.Random, size: int, solvable: str) -> _Draft:
    """A Hamiltonian cycle puzzle (``kind: tour``) on the random graph G(N, m): ``m``
    distinct edges drawn uniformly from the N(N-1)/2 pairs of N nodes, with

        m = (N / 2) (ln N + ln ln N + c),   c = -ln ln 2 (about 0.367)

    (:func:`tour_edge_count`). Komlós and Szemerédi proved that the probability that
    G(N, m) with m = (N/2)(ln N + ln ln N + c_N) has a Hamiltonian cycle tends to
    exp(-exp(-c)) as c_N tends to c (J. Komlós, E. Szemerédi, "Limit distribution for the
    existence of Hamiltonian cycles in a random graph", Discrete Mathematics 43 (1983)
    55-63; B. Bollobás, "The evolution of sparse graphs", 1984, showed that the graph
    process gains a Hamiltonian cycle exactly when its last node of degree below 2
    goes). With c = -ln ln 2 that limit is 1/2: the threshold where about half the
    graphs have a tour, where solvers are tested hardest (Cheeseman, Kanefsky, Taylor,
    "Where the really hard problems are", IJCAI 1991). For small N the share differs
    from 1/2 (``tests/test_generate.py`` measures it with a brute-force oracle).

    Nodes are ``"1"`` .. ``"N"``, as ``import hcp`` names them, so ``export --format
    hcp`` writes the same graph. ``solvable`` plays no part: the promise is kept by
    selection (:func:`generate` draws until a graph is confirmed).
    """
    del solvable
    m = tour_edge_count(size)
    chosen: dict[tuple[int, int], None] = {}  # in the order drawn
    while len(chosen) < m:  # a uniform pair each time; one drawn again is drawn anew
        u, v = rng.sample(range(1, size + 1), 2)
        chosen.setdefault((min(u, v), max(u, v)))
    nodes = ", ".join(_q(str(k)) for k in range(1, size + 1))
    draft = _Draft("tour", [f"nodes: [{nodes}]"])
    draft.edges = [(str(u), str(v), None) if rng.random() < 0.5 else (str(v), str(u), None)
                   for u, v in chosen]
    return draft


def tour_edge_count(n: int) -> int:
    """The edges m of G(n, m) at the half-Hamiltonian threshold (see :func:`_tour`), for
    ``n >= 3`` nodes, at most the n(n-1)/2 pairs there are.

    >>> tour_edge_count(3), tour_edge_count(10), tour_edge_count(100), tour_edge_count(1000)
    (2, 18, 325, 4603)
    """
    m = round(n / 2 * (math.log(n) + math.log(math.log(n)) + THRESHOLD_C))
    return min(m, n * (n - 1) // 2)


_BUILDERS: dict[str, Callable[[random.Random, int, str], _Draft]] = {
    "dominoes": _dominoes,
    "trail": _trail,
    "colour-walk": _colour_walk,
    "alternating": _alternating,
    "balanced": _balanced,
    "tour": _tour,
}
