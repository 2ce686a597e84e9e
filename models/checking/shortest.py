"""The independent checker of ``layers`` certificates: a walk is the shortest, or the only one.

A walk that may reuse edges needs to remember only where it stands and the colour of its
last step (its *phase*: "before the first step", or a colour; ``"*"`` after a step when
the puzzle has no colour rule). A ``layers`` certificate lists, for ``i = 0, 1, ...``,
a set of (node, phase) states that holds every state a walk can be in after exactly
``i`` steps. The check needs no search, only one pass over the certificate:

* layer 0 holds every start state, and every allowed step from a state of layer ``i``
  lands in layer ``i + 1`` (so by induction layer ``i`` holds every state ``i`` steps
  can reach: the layers may hold more, never less);
* ``shortest`` (``length`` L): layers 0 .. L-1 hold no state where the walk may stop, so
  no walk of fewer than L steps solves the puzzle; the walk of L steps the certificate
  names is verified by :func:`trailkit.models.checking.verify.verify`.
* ``unique`` (also layer L): the walks of exactly L steps are counted through the layers
  (a walk is its sequence of edges, so two parallel planks are two walks;
  :mod:`trailkit.models.checking.layer_walks`): exactly one ends where the walk may stop.
* ``count`` (also layer L, ``solutions`` N, no walk needed): as many walks of L steps as
  claimed, at least one, so L is the shortest length and N the number of shortest walks.

Steps ignore the once-only rules (edges are free to reuse), so the layers over-approximate
what once-only walks reach: the argument holds for every ``use`` rule, but for ``count``
(the walks counted are the reusable ones: only an upper bound on once-only walks). Closed
walks (which must also remember where they began) are not covered: such a certificate is
rejected.

The certificate (names, never internal indices)::

    {"type": "layers", "claim": "shortest" | "unique", "length": L, "start": "A",
     "walk": [edge ids, ...], "layers": [[["A", null]], [["E", "red"], ...], ...]}

(``count``: ``solutions`` and ``per_start`` instead of ``start`` and ``walk``.)

It is plain NumPy over the puzzle's arrays, with its own table of moves: it shares no code
with any backend (the ``direct`` backend's breadth-first search included).

>>> from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
>>> p = Puzzle.build(edges=[("a", "b", "red"), ("b", "c", "blue"), ("c", "a", "red")],
...                  colours=ColourRule.from_cycle(["red", "blue"]), start=["a"],
...                  end=["c"], use=EdgeUse.ANY, directed=[False, False, True])
>>> cert = {"claim": "shortest", "length": 2, "start": "a", "walk": [0, 1],
...         "layers": [[["a", None]], [["b", "red"]]]}
>>> layers_verdict(p, cert).problems
[]
>>> layers_verdict(p, {**cert, "length": 3, "walk": [0, 1, 2]}).problems[0]
'the walk of 3 steps breaks the rules: ...'
>>> layers_verdict(p, {**cert, "layers": [[["b", "red"]], [["c", "blue"]]]}).problems
['layer 0 lacks the start state (a, before the first step)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from trailkit.models.answer import Walk
from trailkit.models.checking import check_words
from trailkit.models.checking.check_words import Verdict
from trailkit.models.checking.layer_walks import count_verdict, walks_by_start
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural

__all__ = ["CLAIMS", "LayerMoves", "layers_verdict"]

CLAIMS = ("shortest", "unique", "count")
"""The claims a ``layers`` certificate can make."""

ANY_PHASE = "*"


class LayerMoves:
    """Every step a walk may take, as arrays indexed by the checker's own state numbers.

    State ``node * K + phase``: phase 0 before the first step, ``1 + c`` after a step of
    colour ``c`` (one colour, ``"*"``, without a rule). ``allowed[phase, c]``: may a step
    of colour ``c`` follow that phase. Arcs (one per edge and direction it may be walked;
    a two-way self-loop once) are sorted by the node they leave.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        rule = puzzle.colours
        colours = 1 if rule is None else len(rule.names)
        self.phases = colours + 1
        m = puzzle.num_edges
        tail = np.asarray(puzzle.tail, dtype=np.int64).reshape(m)
        head = np.asarray(puzzle.head, dtype=np.int64).reshape(m)
        if rule is None:
            colour = np.zeros(m, dtype=np.int64)
        elif puzzle.colour is None:
            colour = np.full(m, -1, dtype=np.int64)
        else:
            colour = np.asarray(puzzle.colour, dtype=np.int64).reshape(m)
        one_way = (np.zeros(m, dtype=bool) if puzzle.directed is None
                   else np.asarray(puzzle.directed, dtype=bool).reshape(m))
        usable = colour >= 0  # under a rule an uncoloured edge is never walked
        back = usable & ~one_way & (tail != head)
        src = np.concatenate([tail[usable], head[back]])
        self.dst = np.concatenate([head[usable], tail[back]])
        self.colour = np.concatenate([colour[usable], colour[back]])
        order = np.argsort(src, kind="stable")
        self.dst, self.colour = self.dst[order], self.colour[order]
        self.offsets = np.zeros(puzzle.num_nodes + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=puzzle.num_nodes), out=self.offsets[1:])
        self.allowed = np.zeros((self.phases, colours), dtype=bool)
        for c in range(colours):
            self.allowed[0, c] = rule is None or puzzle.first is None or c in puzzle.first
            for before in range(colours):
                self.allowed[1 + before, c] = rule is None or c in rule.successors[before]

    def steps(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every allowed step out of ``states``: (index of the state it leaves, the state
        it reaches), one pair per arc (so parallel edges give one pair each)."""
        nodes, phase = states // self.phases, states % self.phases
        first, lens = self.offsets[nodes], self.offsets[nodes + 1] - self.offsets[nodes]
        owner = np.repeat(np.arange(len(states)), lens)
        starts = np.repeat(np.cumsum(lens) - lens, lens)
        arcs = np.repeat(first, lens) + np.arange(int(lens.sum())) - starts
        colour = self.colour[arcs]
        keep = self.allowed[phase[owner], colour]
        return owner[keep], self.dst[arcs[keep]] * self.phases + 1 + colour[keep]


def layers_verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    """Check a ``layers`` certificate (see the module docstring) against ``puzzle``: why it
    is rejected, or what holds, in the checker's own words. Layers of (node, colour-phase)
    states know nothing of node rules, so a puzzle with any is refused."""
    if puzzle.has_node_rules:
        return Verdict(["a layers certificate speaks of walks without node rules (visit, "
                        "via, avoid, at); this puzzle's claims are proven by refutation"])
    try:
        return _verdict(puzzle, data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict([f"malformed layers certificate: {exc!r}"])


def _verdict(puzzle: Puzzle, data: Mapping[str, Any]) -> Verdict:
    claim, length = data.get("claim"), data.get("length")
    if claim not in CLAIMS:
        return Verdict([f"a layers certificate claims one of {', '.join(CLAIMS)}, "
                        f"not {claim!r}"])
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        return Verdict([f"the length must be a whole number of steps, not {length!r}"])
    if puzzle.closed:
        return Verdict(["a layers certificate covers open walks only; this walk must close"])
    if claim == "count" and puzzle.use is not EdgeUse.ANY:  # the layers' walks reuse edges
        return Verdict(["a layers certificate counts walks that may reuse edges; this "
                        f"puzzle uses each edge {puzzle.use.value.replace('-', ' ')}"])
    problems = [] if claim == "count" else _walk_problems(puzzle, data, length)
    if problems:
        return Verdict(problems)
    moves = LayerMoves(puzzle)
    wanted = length + (claim != "shortest")
    layers = _read_layers(puzzle, moves, data["layers"])
    if len(layers) != wanted:
        return Verdict([f"a {claim} claim for {length} steps needs {wanted} layers "
                        f"(0 to {wanted - 1}), not {len(layers)}"])
    taken: list[tuple[np.ndarray, np.ndarray]] = []  # each layer's steps, counted below
    problems = _closure_problems(puzzle, moves, layers, length, taken)
    if problems:
        return Verdict(problems)
    total = sum(len(layer) for layer in layers)
    if claim == "shortest":
        return Verdict([], check_words.shortest(length, total))
    if claim == "count":
        return count_verdict(puzzle, moves, layers, data, length, taken)
    walks = sum(walks_by_start(puzzle, moves, layers, taken).values())
    if walks != 1:
        return Verdict([f"{'more than one walk' if walks > 1 else 'no walk'} of {length} "
                        "steps solves the puzzle, counted through the layers"])
    return Verdict([], check_words.unique(length, total))


def _walk_problems(puzzle: Puzzle, data: Mapping[str, Any], length: int) -> list[str]:
    """Why the certificate's walk is not a solution of ``length`` steps (empty: it is)."""
    nodes = {name: i for i, name in enumerate(puzzle.nodes)}
    edges = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    start = str(data["start"])
    if start not in nodes:
        return [f"the walk's start {start!r} is not a node of the puzzle"]
    missing = [str(e) for e in data["walk"] if str(e) not in edges]
    if missing:
        return [f"the walk's edge {missing[0]!r} is not in the puzzle"]
    try:
        walk = Walk.from_edges(puzzle, nodes[start], [edges[str(e)] for e in data["walk"]])
    except ValueError:
        return ["the walk's edges do not follow one another"]
    broken = verify(puzzle, walk)
    if broken:
        return [f"the walk of {plural(len(walk), 'step')} breaks the rules: "
                + "; ".join(str(v) for v in broken[:3])]
    if len(walk) != length:
        return [f"the certificate claims {length} steps but its walk has {len(walk)}"]
    return []


def _read_layers(puzzle: Puzzle, moves: LayerMoves, raw: Sequence[Any]) -> list[np.ndarray]:
    """Each layer as a sorted array of distinct state numbers."""
    nodes = {name: i for i, name in enumerate(puzzle.nodes)}
    rule = puzzle.colours
    phase_of: dict[Any, int] = {None: 0}
    if rule is None:
        phase_of[ANY_PHASE] = 1
    else:
        phase_of.update({name: 1 + c for c, name in enumerate(rule.names)})
    out = []
    for layer in raw:
        states = [nodes[str(node)] * moves.phases + phase_of[phase] for node, phase in layer]
        out.append(np.unique(np.asarray(states, dtype=np.int64)))
    return out


def _closure_problems(puzzle: Puzzle, moves: LayerMoves, layers: list[np.ndarray],
                      length: int, taken: list[tuple[np.ndarray, np.ndarray]]) -> list[str]:
    """Why the layers do not hold every reachable state, or let a walk of fewer than
    ``length`` steps stop (empty: they hold it all and none does). Each layer's steps
    are added to ``taken``, for the count."""
    k = moves.phases
    starts = np.asarray(puzzle.start_nodes(), dtype=np.int64) * k
    if layers and not np.isin(starts, layers[0]).all():
        lost = int(starts[~np.isin(starts, layers[0])][0])
        return [f"layer 0 lacks the start state {_state(puzzle, moves, lost)}"]
    may_end = np.ones(puzzle.num_nodes, dtype=bool)
    if puzzle.end is not None:
        may_end[:] = False
        may_end[sorted(puzzle.end)] = True
    member = np.zeros(puzzle.num_nodes * k, dtype=bool)  # the next layer, as a mask
    for i, layer in enumerate(layers):
        stops = layer[may_end[layer // k]] if i < length else layer[:0]
        if len(stops):
            return [f"a walk of {plural(i, 'step')} may stop: layer {i} holds "
                    f"{_state(puzzle, moves, int(stops[0]))}, where the walk may finish"]
        if i + 1 < len(layers):
            owner, reached = moves.steps(layer)
            taken.append((owner, reached))
            member[layers[i + 1]] = True
            out = ~member[reached]
            member[layers[i + 1]] = False
            if out.any():
                j = int(np.flatnonzero(out)[0])
                return [f"the step from {_state(puzzle, moves, int(layer[owner[j]]))} to "
                        f"{_state(puzzle, moves, int(reached[j]))} leaves layer {i + 1}"]
    return []


def _state(puzzle: Puzzle, moves: LayerMoves, state: int) -> str:
    node, phase = divmod(state, moves.phases)
    rule = puzzle.colours
    if phase == 0:
        label = "before the first step"
    elif rule is None:
        label = "after a step"
    else:
        label = f"after {rule.names[phase - 1]}"
    return f"({puzzle.nodes[node]}, {label})"
