"""Where the nodes go: the spec's ``layout:`` when it places every node, else one computed.

The automatic layout is *stress majorization* (SMACOF, Gansner, Koren & North 2004):
node distances in the picture are fitted to shortest-path distances in the graph, which
draws grids as grids and rings as rings. It starts from several placements (classical
MDS, a circle in breadth-first order, seeded random ones) and keeps the one with the
fewest clashes (edge crossings, and nodes drawn on an edge they do not touch), then the
lowest stress. When every start clashes and the graph is planar (NetworkX's planarity
test, when installed), it also starts from crossing-free embeddings (Tutte's barycentric
one inside the longest face, and NetworkX's ``planar_layout``) and relaxes them as far
as they stay crossing-free: the cube, prism, octahedron, dodecahedron and the Nikolaus
house come out without crossings, where stress alone and NetworkX's ``spring_layout``
cross (``tests/bench/bench_draw.py``). The result is deterministic. Past
:data:`FULL_STRESS_NODES` nodes the all-pairs distance matrix is too big, and *pivot
MDS* (Brandes & Pich 2006: distances to 50 pivot nodes, projected on
their two main axes) places the nodes in O(pivots × edges).

Coordinates are returned in the spec's convention (y grows upwards); the SVG writer
flips them.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
>>> xy, method = node_positions(p)
>>> xy.shape, method
((4, 2), 'stress majorization (automatic)')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.geometry import spec_positions

__all__ = ["FULL_STRESS_NODES", "count_crossings", "count_nodes_on_edges", "node_positions",
           "stress_layout"]

#: Up to this many nodes the layout fits every pair's distance (memory n², time n² × 150).
FULL_STRESS_NODES = 400
_PIVOTS = 50
#: Up to this many edges a layout with crossings is retried from a planar embedding.
_PLANAR_EDGES = 600
_ITERATIONS = 150
_TOLERANCE = 1e-5
#: Past this many nodes only two starts are tried (classical MDS and the circle).
_FEW_STARTS_NODES = 120


def node_positions(puzzle: Puzzle) -> tuple[np.ndarray, str]:
    """An ``(n, 2)`` array of positions and the method that produced them.

    The spec's ``layout:`` is used when it places every node; ``layout: auto`` (the
    loader leaves ``layout`` as ``None``), no layout, or one that misses a node gets the
    automatic layout of the whole graph.
    """
    n = puzzle.num_nodes
    given = spec_positions(puzzle)
    if given is not None:
        return np.array(given, dtype=float).reshape(n, 2), "the spec's layout"
    if n == 0:
        return np.zeros((0, 2)), "empty"
    if n <= FULL_STRESS_NODES:
        return stress_layout(n, puzzle.tail, puzzle.head), "stress majorization (automatic)"
    return _pivot_mds(n, _adjacency(n, puzzle.tail, puzzle.head)), "pivot MDS (automatic)"


def _adjacency(n: int, tail: Sequence[int], head: Sequence[int]) -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in zip(tail, head, strict=True):
        if u != v:
            adj[u].append(v)
            adj[v].append(u)
    return adj


def _bfs(adj: list[list[int]], source: int) -> np.ndarray:
    """Hop distances from ``source`` (-1 where it cannot reach)."""
    dist = np.full(len(adj), -1, dtype=float)
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        du = dist[u] + 1
        for w in adj[u]:
            if dist[w] < 0:
                dist[w] = du
                queue.append(w)
    return dist


def _distances(adj: list[list[int]]) -> np.ndarray:
    """All-pairs hop distances; pieces that do not touch are put one hop beyond the
    longest distance apart, so they sit side by side instead of on top of each other."""
    d = np.array([_bfs(adj, s) for s in range(len(adj))])
    far = (d.max() if d.size else 0) + 1
    d[d < 0] = far
    return d


def stress_layout(n: int, tail: Sequence[int], head: Sequence[int]) -> np.ndarray:
    """SMACOF stress majorization from several starts; the fewest crossings win."""
    if n == 1:
        return np.zeros((1, 2))
    adj = _adjacency(n, tail, head)
    d = _distances(adj)
    edges = np.array([(u, v) for u, v in zip(tail, head, strict=True) if u != v],
                     dtype=int).reshape(-1, 2)
    scored: list[tuple[int, float, int, np.ndarray]] = []
    for start in _starts(d, adj):
        xy = _smacof(d, start)
        scored.append((_clashes(xy, edges), _stress(d, xy), len(scored), xy))
    if min(scored, key=lambda item: item[:3])[0] > 0 and len(edges) <= _PLANAR_EDGES:
        for start in _planar_starts(n, np.unique(np.sort(edges, axis=1), axis=0)):
            xy = _smacof_without_crossings(d, _scaled(start, d), edges)
            scored.append((_clashes(xy, edges), _stress(d, xy), len(scored), xy))
    return min(scored, key=lambda item: item[:3])[3]


def _scaled(xy: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``xy`` scaled so its mean pair distance matches the graph's (a fair stress start)."""
    diff = xy[:, None, :] - xy[None, :, :]
    spread = np.sqrt((diff ** 2).sum(-1)).mean()
    return xy * (d.mean() / spread if spread > 0 else 1.0)


def _starts(d: np.ndarray, adj: list[list[int]]) -> list[np.ndarray]:
    """Starting placements: classical MDS, a circle in breadth-first order, two random."""
    n = len(d)
    starts = []
    j = np.eye(n) - 1.0 / n
    b = -0.5 * j @ (d ** 2) @ j
    values, vectors = np.linalg.eigh(b)
    top = np.argsort(values)[::-1][:2]
    starts.append(vectors[:, top] * np.sqrt(np.maximum(values[top], 1e-9)))
    order = np.argsort(_bfs(adj, 0) + (_bfs(adj, 0) < 0) * (n + 1), kind="stable")
    angle = np.empty(n)
    angle[order] = np.linspace(0, 2 * np.pi, n, endpoint=False)
    radius = n / (2 * np.pi)
    starts.append(np.column_stack([np.cos(angle), np.sin(angle)]) * radius)
    if n <= _FEW_STARTS_NODES:
        rng = np.random.default_rng(12345)
        starts += [rng.normal(size=(n, 2)) * d.max() for _ in range(2)]
    return starts


def _weights(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stress weights w = d⁻² (0 on the diagonal), w·d and each node's weight sum."""
    with np.errstate(divide="ignore"):
        w = np.where(d > 0, 1.0 / d ** 2, 0.0)
    return w, w * d, np.maximum(w.sum(axis=1), 1e-12)[:, None]


def _pair_distances(xy: np.ndarray) -> np.ndarray:
    """Distances between every two points (an n × n array)."""
    sq = (xy ** 2).sum(axis=1)
    distances: np.ndarray = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * xy @ xy.T, 0.0))
    return distances


def _update(xy: np.ndarray, w: np.ndarray, wd: np.ndarray, wsum: np.ndarray,
            dist: np.ndarray | None = None) -> np.ndarray:
    """One localized stress-majorization step (Gansner et al.): every node moves to
    x_i = sum_j w_ij (x_j + d_ij (x_i - x_j) / |x_i - x_j|) / sum_j w_ij.
    ``dist`` is ``xy``'s pair distances when the caller has them already."""
    pull = wd / np.maximum(_pair_distances(xy) if dist is None else dist, 1e-9)
    moved: np.ndarray = (w @ xy + pull.sum(axis=1)[:, None] * xy - pull @ xy) / wsum
    return moved


def _smacof_steps(d: np.ndarray, xy: np.ndarray) -> Iterator[np.ndarray]:
    """Majorize the weighted stress sum w_ij (|x_i - x_j| - d_ij)², yielding every iterate;
    stress never grows, and it stops when a step lowers it by less than
    :data:`_TOLERANCE` of itself."""
    xy = xy.astype(float).copy()
    w, wd, wsum = _weights(d)
    last = np.inf
    for _ in range(_ITERATIONS):
        dist = _pair_distances(xy)
        stress = float((w * (dist - d) ** 2).sum() / 2)  # of xy, from the same distances
        if last - stress < _TOLERANCE * max(last, 1e-9):
            break
        last = stress
        xy = _update(xy, w, wd, wsum, dist)
        yield xy


def _smacof(d: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """The converged stress layout from ``xy``."""
    last = xy
    for last in _smacof_steps(d, xy):  # noqa: B007 - the last iterate is the answer
        pass
    return last


def _smacof_without_crossings(d: np.ndarray, xy: np.ndarray, edges: np.ndarray
                              ) -> np.ndarray:
    """Stress steps from a clash-free ``xy`` that never create a clash: a step that would
    is halved (up to three times), and the relaxation stops when even an eighth clashes."""
    w, wd, wsum = _weights(d)
    xy = xy.astype(float).copy()
    for _ in range(_ITERATIONS):
        target = _update(xy, w, wd, wsum)
        for fraction in (1.0, 0.5, 0.25, 0.125):
            trial = xy + fraction * (target - xy)
            if _clashes(trial, edges) == 0:
                break
        else:
            break
        if np.abs(trial - xy).max() < 1e-4:
            break
        xy = trial
    centred: np.ndarray = xy - xy.mean(axis=0)
    return centred


def _planar_starts(n: int, edges: np.ndarray) -> list[np.ndarray]:
    """Crossing-free placements of a planar graph, when NetworkX is installed: a Tutte
    (barycentric) embedding inside the longest face, and NetworkX's ``planar_layout``."""
    try:
        import networkx as nx
    except ImportError:
        return []
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(map(tuple, edges.tolist()))
    planar, embedding = nx.check_planarity(graph)
    if not planar or not nx.is_connected(graph):
        return []
    starts = [np.array([xy for _, xy in sorted(nx.planar_layout(graph).items())])]
    outer = _longest_face(embedding)
    if len(outer) >= 3:
        starts.append(_tutte(n, edges, outer))
    return starts


def _longest_face(embedding: Any) -> list[int]:
    """The face of a planar embedding with the most nodes (the outer face to draw)."""
    seen: set[tuple[int, int]] = set()
    best: list[int] = []
    for v, w in embedding.edges():
        if (v, w) not in seen:
            face = embedding.traverse_face(v, w, mark_half_edges=seen)
            if len(set(face)) > len(set(best)):
                best = face
    return list(dict.fromkeys(best))


def _tutte(n: int, edges: np.ndarray, outer: list[int]) -> np.ndarray:
    """Tutte's barycentric embedding: ``outer`` on a circle, every other node at the mean
    of its neighbours (crossing-free for 3-connected planar graphs)."""
    xy = np.zeros((n, 2))
    angle = np.linspace(0, 2 * np.pi, len(outer), endpoint=False)
    xy[outer] = np.column_stack([np.cos(angle), np.sin(angle)]) * len(outer) / 2
    inner = [v for v in range(n) if v not in set(outer)]
    if inner:
        lap = np.zeros((n, n))
        for u, v in edges:
            lap[u, v] -= 1
            lap[v, u] -= 1
            lap[u, u] += 1
            lap[v, v] += 1
        fixed = np.array(outer)
        free = np.array(inner)
        rhs = -lap[np.ix_(free, fixed)] @ xy[fixed]
        xy[free] = np.linalg.lstsq(lap[np.ix_(free, free)], rhs, rcond=None)[0]
    return xy


def _stress(d: np.ndarray, xy: np.ndarray) -> float:
    w, _, _ = _weights(d)
    return float((w * (_pair_distances(xy) - d) ** 2).sum() / 2)


def _clashes(xy: np.ndarray, edges: np.ndarray) -> int:
    """Edge crossings plus nodes lying on an edge they are not an end of (a node drawn on a
    line reads as if the line stopped there): what a layout should have least of."""
    return count_crossings(xy, edges) + count_nodes_on_edges(xy, edges)


def count_nodes_on_edges(xy: np.ndarray, edges: np.ndarray, *, limit: int = 1500) -> int:
    """(node, edge) pairs where the node is within a quarter of the median edge length of
    a straight edge it is not an end of; past ``limit`` edges only the first are looked at."""
    edges = edges[:limit]
    if len(edges) == 0 or len(xy) > 2 * limit:
        return 0
    a, b = xy[edges[:, 0]], xy[edges[:, 1]]
    ab = b - a
    length2 = np.maximum((ab ** 2).sum(axis=1), 1e-12)
    radius = 0.25 * float(np.median(np.sqrt(length2)))
    ap = xy[:, None, :] - a[None, :, :]
    t = np.clip((ap * ab[None]).sum(-1) / length2[None], 0.0, 1.0)
    gap = np.sqrt(((ap - t[..., None] * ab[None]) ** 2).sum(-1))
    own = (np.arange(len(xy))[:, None] == edges[None, :, 0]) | (
        np.arange(len(xy))[:, None] == edges[None, :, 1])
    return int(((gap < radius) & ~own).sum())


def count_crossings(xy: np.ndarray, edges: np.ndarray, *, limit: int = 1500) -> int:
    """Pairs of edges (sharing no end) whose straight segments cross; past ``limit``
    edges only the first ``limit`` are compared (the count is used to compare layouts)."""
    edges = edges[:limit]
    m = len(edges)
    if m < 2:
        return 0
    a, b = xy[edges[:, 0]], xy[edges[:, 1]]

    def orient(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        return np.asarray(np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0])))

    A, B = a[:, None, :], b[:, None, :]
    C, D = a[None, :, :], b[None, :, :]
    crossing = ((orient(A, B, C) * orient(A, B, D) < 0)
                & (orient(C, D, A) * orient(C, D, B) < 0))
    share = ((edges[:, None, 0] == edges[None, :, 0]) | (edges[:, None, 0] == edges[None, :, 1])
             | (edges[:, None, 1] == edges[None, :, 0]) | (edges[:, None, 1] == edges[None, :, 1]))
    crossing &= ~share
    return int(np.triu(crossing, 1).sum())


def _pivot_mds(n: int, adj: list[list[int]]) -> np.ndarray:
    """Pivot MDS: distances to a few far-apart pivots, double-centred, projected on their
    two main axes. Linear in the edges per pivot, so it scales to the biggest pictures."""
    k = min(_PIVOTS, n)
    pivots = [0]
    dist = _bfs(adj, 0)
    cols = [dist]
    nearest = np.where(dist < 0, np.inf, dist)
    for _ in range(k - 1):
        nxt = int(np.argmax(np.where(np.isinf(nearest), 1e18, nearest)))
        pivots.append(nxt)
        dist = _bfs(adj, nxt)
        cols.append(dist)
        nearest = np.minimum(nearest, np.where(dist < 0, np.inf, dist))
    c = np.column_stack(cols)
    far = c.max() + 1
    c[c < 0] = far
    c = c ** 2
    c = -0.5 * (c - c.mean(axis=0) - c.mean(axis=1, keepdims=True) + c.mean())
    u, s, _ = np.linalg.svd(c, full_matrices=False)
    xy = u[:, :2] * s[:2]
    spread = xy.std() or 1.0
    scaled: np.ndarray = xy / spread * np.sqrt(n) / 2
    return scaled
