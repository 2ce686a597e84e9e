"""How hard a tour puzzle is: how many cells the simplest reasoning fills before search.

A Hidato, Numbrix or Signpost puzzle asks for an open path through every cell (not
avoided), some cells given their position (``at:``). Simon Tatham rates his Signpost by
the deductions its solver needs; this module does the same with three rules, applied
until none fills another cell (*propagation*):

* **givens at a distance**: a cell can hold position ``q`` only when the nearest known
  position ``a`` below ``q`` reaches it in at most ``q - a`` steps and it reaches the
  nearest known ``b`` above in at most ``b - q`` (steps through unfilled cells only: the
  cells between two known positions are all unfilled). A forced move is the case
  ``q = a + 1``: the one free neighbour of ``a``'s cell that can be next;
* **one free neighbour**: a cell with no possible predecessor must be the start
  (position 1), one with no possible successor the end, and one with a single
  possible neighbour (before or after it) one of the two;
* **only place**: a position with one candidate cell, or a cell with one candidate
  position, is filled.

``search_depth`` says how deep trial and error must go beyond that: 0 when propagation
alone fills every cell; ``d`` when, with every candidate (position, cell) whose trial
ends in a contradiction at depth ``d - 1`` ruled out, it does; ``None`` past
:data:`MAX_DEPTH` (or past :data:`MAX_TRIALS` trials). Every rule is implied by the
puzzle's rules, so the propagation never rules out a solution; it reads the puzzle's
edges alone and shares nothing with the solvers whose puzzles it rates. The measure
is a rating, not a claim (nothing rests on it).

>>> from dataclasses import replace
>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> line = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "d")], use="at-most-once",
...                     visit=NodeVisit.EVERY_ONCE)
>>> rate_tour(line)
Rating(cells=4, givens=0, deduced=0, search_depth=None)
>>> rate_tour(replace(line, at={0: 1}))
Rating(cells=4, givens=1, deduced=3, search_depth=0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from trailkit.models.puzzle import NodeVisit, Puzzle

__all__ = ["MAX_DEPTH", "MAX_TRIALS", "Rating", "deduce", "rate_tour", "rating_words",
           "reasoning_applies"]

MAX_DEPTH = 2
"""The deepest trial and error rated: past it, ``search_depth`` is ``None``."""

MAX_TRIALS = 3_000
"""The most trials (one propagation each) a rating makes: past it, the depth reached
is said unrated (``None``) rather than the rating taking long."""


@dataclass(frozen=True, slots=True)
class Rating:
    """``cells`` positions to fill, ``givens`` of them given, ``deduced`` filled by
    propagation alone (givens not counted), ``search_depth`` (see the module
    docstring; ``None``: deeper than :data:`MAX_DEPTH`)."""

    cells: int
    givens: int
    deduced: int
    search_depth: int | None


def reasoning_applies(puzzle: Puzzle) -> str:
    """Why the rating does not apply to ``puzzle`` (empty: it does): it rates open
    paths through every node, once each, without colour rules."""
    if puzzle.visit is not NodeVisit.EVERY_ONCE or puzzle.closed:
        return "rated for open paths through every node (visit: every-once, closed: false)"
    if puzzle.colours is not None:
        return "not rated under a colour rule"
    return ""


def rating_words(search_depth: int | None) -> str:
    """The rating in a word: easy (reasoning alone), medium, hard, or search."""
    return {0: "easy", 1: "medium", 2: "hard"}.get(search_depth, "search") \
        if search_depth is not None else "search"


class _Board:
    """The cells (nodes not avoided), each one's successors and predecessors, the cells
    that may start and end the path."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.cells = [v for v in range(puzzle.num_nodes) if v not in puzzle.avoid]
        self.n = len(self.cells)
        self.out: dict[int, set[int]] = {v: set() for v in self.cells}
        self.inn: dict[int, set[int]] = {v: set() for v in self.cells}
        for e, way in puzzle.oriented_edges():
            u, v = (puzzle.tail[e], puzzle.head[e])[::1 if way == 0 else -1]
            if u != v and u in self.out and v in self.out:
                self.out[u].add(v)
                self.inn[v].add(u)
        self.first = {v for v in self.cells if puzzle.may_start(v)}
        self.last = {v for v in self.cells if puzzle.may_end(v)}


_State = tuple[dict[int, int], frozenset[tuple[int, int]]]  # position -> cell, ruled out


def deduce(puzzle: Puzzle) -> dict[int, int] | None:
    """The positions propagation alone fills (position -> node, the givens included);
    ``None`` when it finds that no path obeys the givens."""
    return _propagate(_Board(puzzle), {q: v for v, q in puzzle.at.items()}, frozenset())


def rate_tour(puzzle: Puzzle) -> Rating:
    """The rating of ``puzzle`` (see the module docstring; one
    :func:`reasoning_applies` to)."""
    board = _Board(puzzle)
    place = {q: v for v, q in puzzle.at.items()}
    filled = _propagate(board, place, frozenset())
    deduced = len(filled) - len(place) if filled is not None else 0
    trials = [MAX_TRIALS]
    depth: int | None = None
    for d in range(MAX_DEPTH + 1):
        done = _fill(board, (place, frozenset()), d, trials)
        if done is not None and len(done[0]) == board.n:
            depth = d
            break
        if trials[0] <= 0 or done is None:
            break
    return Rating(board.n, len(place), deduced, depth)


def _fill(board: _Board, state: _State, depth: int, trials: list[int]) -> _State | None:
    """``state`` filled by propagation and, at ``depth`` > 0, by ruling out each
    candidate whose trial at ``depth - 1`` ends in a contradiction, until nothing
    changes; ``None`` on a contradiction (``trials`` counts down the work left)."""
    place, banned = state
    while True:
        filled = _propagate(board, place, banned)
        if filled is None or depth == 0 or len(filled) == board.n:
            return None if filled is None else (filled, banned)
        more = set(banned)
        for q, v in _candidates(board, filled, banned):
            if trials[0] <= 0:
                return filled, frozenset(more)
            trials[0] -= 1
            if _fill(board, ({**filled, q: v}, frozenset(more)), depth - 1, trials) is None:
                more.add((q, v))
        if len(more) == len(banned):
            return filled, banned
        place, banned = filled, frozenset(more)


def _candidates(board: _Board, place: dict[int, int], banned: frozenset[tuple[int, int]]
                ) -> list[tuple[int, int]]:
    """Every (position, cell) still possible, positions with fewest candidates first."""
    options = _options(board, place, banned)
    if options is None:
        return []
    by_q: dict[int, list[int]] = {}
    for v, qs in options.items():
        for q in qs:
            by_q.setdefault(q, []).append(v)
    return [(q, v) for q in sorted(by_q, key=lambda q: (len(by_q[q]), q)) for v in by_q[q]]


def _propagate(board: _Board, place: dict[int, int], banned: frozenset[tuple[int, int]]
               ) -> dict[int, int] | None:
    """``place`` (position -> cell) with every cell the rules fill; ``None`` when they
    find a contradiction (no path can obey the givens)."""
    place = dict(place)
    while True:
        if not _consistent(board, place):
            return None
        options = _options(board, place, banned)
        if options is None:
            return None
        forced = _forced(board, place, options)
        if forced is None:
            return None
        if not forced:
            return place
        place.update(forced)


def _consistent(board: _Board, place: dict[int, int]) -> bool:
    """No cell at two positions, and consecutive known positions on neighbouring cells."""
    if len(set(place.values())) != len(place):
        return False
    return all(place[q + 1] in board.out[v] for q, v in place.items() if q + 1 in place)


def _forced(board: _Board, place: dict[int, int], options: dict[int, set[int]]
            ) -> dict[int, int] | None:
    """The cells the only-place rule fills: a position with one candidate cell, a cell
    with one candidate position; ``None`` when a position has none or two rules clash."""
    by_q: dict[int, set[int]] = {q: set() for q in range(1, board.n + 1) if q not in place}
    for v, qs in options.items():
        for q in qs:
            by_q[q].add(v)
    forced: dict[int, int] = {}
    pairs = [(q, next(iter(vs))) for q, vs in by_q.items() if len(vs) == 1]
    pairs += [(next(iter(qs)), v) for v, qs in options.items() if len(qs) == 1]
    for q, v in pairs:
        if forced.get(q, v) != v:
            return None
        forced[q] = v
    if any(not vs for vs in by_q.values()) or len(set(forced.values())) != len(forced):
        return None
    return forced


def _options(board: _Board, place: dict[int, int], banned: frozenset[tuple[int, int]]
             ) -> dict[int, set[int]] | None:
    """Each unfilled cell's candidate positions by the rules of the module docstring;
    ``None`` when a cell has none."""
    held = set(place.values())
    free = [v for v in board.cells if v not in held]
    options: dict[int, set[int]] = {v: set() for v in free}
    known = sorted(place)
    bounds = list(zip([0, *known], [*known, board.n + 1], strict=True))
    for a, b in bounds:
        if b - a < 2:
            continue
        ahead = _steps(board.out, place.get(a), held)
        back = _steps(board.inn, place.get(b), held)
        for v in free:
            low = a + ahead.get(v, board.n + 1) if a else 1
            high = b - back.get(v, board.n + 1) if b <= board.n else board.n
            options[v].update(range(max(low, a + 1), min(high, b - 1) + 1))
    at = {w: q for q, w in place.items()}
    for v in free:
        options[v] = _ends_only(board, place, at, v, options[v])
    for q, w in banned:
        options.get(w, set()).discard(q)
    return None if any(not qs for qs in options.values()) else options


def _ends_only(board: _Board, place: dict[int, int], at: dict[int, int], v: int,
               qs: set[int]) -> set[int]:
    """``qs`` less what the one-free-neighbour rule and the start and end cells rule
    out: a cell with no possible predecessor is the start, none after it the end
    (``at``: each filled cell's position, ``place`` inverted)."""
    before = {u for u in board.inn[v] if u not in at or at[u] + 1 not in place}
    after = {w for w in board.out[v] if w not in at or at[w] - 1 not in place}
    inner = len(before | after) > 1  # a cell inside the path has two neighbours on it
    keep = {q for q in qs if (before or q == 1) and (after or q == board.n)
            and (inner or q in (1, board.n))}
    if v not in board.first:
        keep.discard(1)
    if v not in board.last:
        keep.discard(board.n)
    return keep


def _steps(arcs: dict[int, set[int]], source: int | None, held: Iterable[int]
           ) -> dict[int, int]:
    """The fewest steps from ``source`` along ``arcs`` to each cell, through cells not
    ``held`` (``source`` None: no bound, an empty map)."""
    if source is None:
        return {}
    blocked = set(held)
    far = {source: 0}
    todo = deque([source])
    while todo:
        u = todo.popleft()
        for w in arcs[u]:
            if w not in far and w not in blocked:
                far[w] = far[u] + 1
                todo.append(w)
    return far
