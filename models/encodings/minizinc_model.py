"""A puzzle as one readable MiniZinc model, data included (``export --format mzn``).

The model is what the ``minizinc:SOLVER`` backend runs; written here, as pure text
from a :class:`Puzzle`, so that export and backend cannot drift apart. Two forms, as
the CP-SAT backend uses:

* **edges used exactly / at most once**: one ``subcircuit`` whose nodes are the
  *steps* (oriented edges: a two-way edge has two, a one-way edge or a self-loop one)
  plus a depot. ``succ[s] = t`` says step ``t`` comes right after step ``s``;
  ``succ[s] = s`` that step ``s`` is not taken; the depot's successor is the first
  step and the last step's successor is the depot. MiniZinc's ``circuit`` is over
  nodes, so multigraphs, self-loops and dominoes need this edge level. The colour
  rule, the allowed starts and ends are each step's allowed successors (its domain).
  Exactly once (every edge usable): a plain ``circuit`` through *every* step instead,
  the orientation of an edge not crossed sitting right after the one crossed (the
  ``paired`` form: solvers propagate ``circuit`` natively, and Debian's Gecode library
  has no ``subcircuit``, whose decomposition grows with the square of the steps).
* **reusable edges** (colour walks): a shortest walk never repeats a (node,
  colour-phase) state after its first step (cutting the steps between two equal states
  leaves a shorter walk obeying every rule), so it is a simple path over those states:
  the same ``subcircuit`` over states and a depot, complete for the shortest walk (not
  a bounded-length formulation: no horizon that might be too short).

Only the globals used are included by name (``include "subcircuit.mzn";``): Debian's
Gecode 6.2 fails on ``include "globals.mzn";`` with MiniZinc 2.6. The model has walks of
at least one step; an empty walk that solves the puzzle is said in a comment (the
backend answers it without a solver).

>>> from trailkit.models.puzzle import Puzzle
>>> m = minizinc_model(Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")]))
>>> m.form, m.size  # four steps (two edges, each crossed either way) and the depot
('paired', 5)
>>> m.decode([2, 3, 4, 5, 1]).edges  # depot, a->b (then b->a, skipped), b->c (c->b), depot
(0, 1)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from trailkit.models.answer import Walk
from trailkit.models.encodings.minizinc_nodes import NodeMznModel, node_model
from trailkit.models.encodings.node_circuit import node_level
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle

__all__ = ["MznModel", "MznStep", "minizinc_model"]

START = -2  # the phase of a start state: no step taken yet


@dataclass(frozen=True, slots=True)
class MznStep:
    """One way of crossing one edge: ``edge`` from ``src`` to ``dst``; ``colour`` -1 if none."""

    edge: int
    src: int
    dst: int
    colour: int


@dataclass(frozen=True)
class MznModel:
    """The model text and what its ``succ`` array means.

    ``form`` is ``edges`` (circuit node ``i`` is ``steps[i - 1]``) or ``states`` (circuit
    node ``i`` is ``states[i - 1]``, a (node, phase) pair; ``moves`` holds the steps that
    join two states, interchangeable parallel edges all listed); the depot is node
    ``size``.
    """

    text: str
    form: str
    size: int
    steps: tuple[MznStep, ...] = ()
    states: tuple[tuple[int, int], ...] = ()
    moves: dict[tuple[int, int], tuple[MznStep, ...]] = field(default_factory=dict)
    partner: dict[int, int] = field(default_factory=dict)

    def _path(self, succ: Sequence[int]) -> list[int]:
        """The circuit nodes after the depot, in order (``ValueError`` if it is no path)."""
        if len(succ) != self.size:
            raise ValueError(f"succ has {len(succ)} entries, the model {self.size}")
        path: list[int] = []
        at = succ[self.size - 1]
        while at != self.size:
            if not 1 <= at <= self.size or len(path) >= self.size:
                raise ValueError("succ does not lead back to the depot")
            path.append(at)
            other = self.partner.get(at)
            if other is not None:  # paired form: the other orientation sits right after
                if succ[at - 1] != other:
                    raise ValueError(f"step {at} is not followed by its other orientation")
                at = other
            at = succ[at - 1]
        return path

    def decode(self, succ: Sequence[int]) -> Walk:
        """The walk a solution's ``succ`` array stands for (the first of parallel edges
        joining the same two states); the caller verifies it."""
        path = self._path(succ)
        if self.form in ("edges", "paired"):
            steps = [self.steps[i - 1] for i in path]
        else:
            steps = [self.moves[(a, b)][0] for a, b in itertools.pairwise(path)]
        if not steps:
            raise ValueError("the solution takes no step")
        return Walk((steps[0].src, *(s.dst for s in steps)), tuple(s.edge for s in steps))

    def multiplicity(self, succ: Sequence[int]) -> int:
        """How many walks a solution stands for (parallel edges of one colour joining the
        same two states: the state form keeps one arc for all of them)."""
        if self.form in ("edges", "paired"):
            return 1
        path = self._path(succ)
        count = 1
        for a, b in itertools.pairwise(path):
            count *= len(self.moves[(a, b)])
        return count


def steps_of(puzzle: Puzzle) -> list[MznStep]:
    """Every step a walk may take, in edge order (orientation 0 first)."""
    colour = puzzle.colour
    out = []
    for e, o in puzzle.oriented_edges():
        u, v = puzzle.tail[e], puzzle.head[e]
        src, dst = (u, v) if o == 0 else (v, u)
        out.append(MznStep(e, src, dst, -1 if colour is None else colour[e]))
    return out


def minizinc_model(puzzle: Puzzle, *, length: int | None = None) -> MznModel | NodeMznModel:
    """The MiniZinc model of ``puzzle``; with ``length``, the walks of exactly that many
    steps and no objective (for counting the shortest or longest walks).

    Node rules are stated by the node-level circuit
    (:mod:`~trailkit.models.encodings.minizinc_nodes`) where it applies, and refused
    (:class:`UnsupportedPuzzle`, naming the backend that states them) elsewhere.
    """
    if puzzle.has_node_rules:
        if not node_level(puzzle):
            raise UnsupportedPuzzle(
                "the MiniZinc model states node rules only as one circuit over the nodes: "
                "visit at-most-once or every-once, no colour rule, edges not all required "
                "(use: exactly-once); use --backend cpsat")
        return node_model(puzzle, length=length)
    if not puzzle.oriented_edges():
        return _no_step_model(puzzle)
    if puzzle.use is EdgeUse.ANY:
        return _state_model(puzzle, length)
    if puzzle.use is EdgeUse.EXACTLY_ONCE and all(puzzle.usable(e)
                                                  for e in range(puzzle.num_edges)):
        return _paired_model(puzzle, length)
    return _edge_model(puzzle, length)


def _no_step_model(puzzle: Puzzle) -> MznModel:
    """No edge can be taken at all: the model of walks of one step or more has none."""
    lines = [*_header(puzzle, "no step can be taken"), "int: depot = 1;",
             "array[1..depot] of var 1..depot: succ;",
             "constraint false;  % no edge can be crossed, so no walk has a step",
             "solve satisfy;", 'output ["succ = \\(succ);\\n"];']
    return MznModel("\n".join(lines) + "\n", "edges", 1)


# ------------------------------------------------------------------ text pieces
def _quote(text: str) -> str:
    return text.replace("\n", " ").replace("%", "%%")[:200]


def _set(values: Sequence[int]) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}" if values else "1..0"


def _header(puzzle: Puzzle, form: str, circuit: str = "subcircuit") -> list[str]:
    lines = [f"% trailkit MiniZinc model of {_quote(puzzle.name or 'a walk puzzle')}"
             f" ({puzzle.kind})",
             f"% form: {form}",
             "% Solve with: minizinc --solver gecode FILE.mzn",
             "% A solution is the array succ: follow it from the depot (its last entry) to",
             "% read the walk; succ[i] = i means circuit node i is not used.",
             f"% Rules: {_rules(puzzle)}"]
    if puzzle.empty_walk_nodes() and not puzzle.wants_longest:
        lines.append("% Note: the empty walk (no step) also solves this puzzle; the model "
                     "asks for at least one step.")
    return [*lines, f'include "{circuit}.mzn";', ""]


def _rules(puzzle: Puzzle) -> str:
    rules = {EdgeUse.EXACTLY_ONCE: "every edge exactly once",
             EdgeUse.AT_MOST_ONCE: "every edge at most once",
             EdgeUse.ANY: "edges may be reused"}[puzzle.use]
    names = puzzle.nodes
    if puzzle.start is not None:
        rules += "; start at " + ", ".join(names[v] for v in sorted(puzzle.start))
    if puzzle.end is not None:
        rules += "; end at " + ", ".join(names[v] for v in sorted(puzzle.end))
    if puzzle.closed:
        rules += "; the walk ends where it started"
    if puzzle.colours is not None:
        rules += "; colours: " + _quote(puzzle.colours.describe())
    if puzzle.objective is not Objective.ANY:
        rules += f"; objective: {puzzle.objective.value}"
    return rules


def _colour_table(puzzle: Puzzle) -> list[str]:
    """``may_follow[a, b]``: may a step of colour ``b`` come right after colour ``a``."""
    names = puzzle.colour_names
    k = len(names)
    rows = [", ".join("true" if puzzle.colour_may_follow(a, b) else "false" for b in range(k))
            for a in range(k)]
    return ["% colours: " + ", ".join(f"{i + 1} = {_quote(n)}" for i, n in enumerate(names)),
            f"array[1..{k}, 1..{k}] of bool: may_follow = [|"
            + " |".join(rows) + " |];  % may colour j come right after colour i", ""]


def _objective(puzzle: Puzzle, length: int | None, bound: str, expr: str) -> list[str]:
    lines = ["% the number of steps the walk takes", f"var 0..{bound}: steps_taken = {expr};",
             ""]
    if length is not None:
        return [*lines, f"% every walk of exactly {length} steps",
                f"constraint steps_taken = {length};", "solve satisfy;"]
    if puzzle.objective is Objective.SHORTEST:
        return [*lines, "% objective: shortest: as few steps as possible",
                "solve minimize steps_taken;"]
    if puzzle.wants_longest:
        return [*lines, "% objective: longest: as many edges as one walk can use",
                "solve maximize steps_taken;"]
    return [*lines, "solve satisfy;"]


def _steps_and_depot(puzzle: Puzzle, steps: Sequence[MznStep]
                     ) -> tuple[list[str], dict[int, list[int]]]:
    """The lines both step forms begin with (the steps, the depot, the successor array and
    the first step's constraint), and the steps leaving each node."""
    n, depot = len(steps), len(steps) + 1
    lines = [f"int: n_steps = {n};", f"int: depot = {depot};",
             "array[1..depot] of var 1..depot: succ;", ""]
    leaving: dict[int, list[int]] = defaultdict(list)
    for i, s in enumerate(steps, start=1):
        leaving[s.src].append(i)
    firsts = [i for i, s in enumerate(steps, start=1)
              if puzzle.may_start(s.src) and puzzle.may_come_first(s.colour)]
    lines += ["% the walk starts with a step leaving an allowed start (in an allowed first "
              "colour)", f"constraint succ[depot] in {_set(firsts)};"]
    return lines, leaving


# ------------------------------------------------------------------ the two forms
def _edge_model(puzzle: Puzzle, length: int | None) -> MznModel:
    steps = steps_of(puzzle)
    depot = len(steps) + 1
    names = puzzle.nodes
    lines = _header(puzzle, "oriented-edge subcircuit (each circuit node is a step: one "
                    "edge crossed one way)")
    preamble, leaving = _steps_and_depot(puzzle, steps)
    lines += preamble
    for i, s in enumerate(steps, start=1):
        nxt = [j for j in leaving[s.dst] if steps[j - 1].edge != s.edge
               and puzzle.colour_may_follow(s.colour, steps[j - 1].colour)]
        allowed = [i, *nxt, *([depot] if puzzle.may_end(s.dst) else [])]
        lines.append(f"% step {i}: {_quote(puzzle.describe_edge(s.edge))} crossed "
                     f"{_quote(names[s.src])} -> {_quote(names[s.dst])}"
                     + ("; may end the walk" if puzzle.may_end(s.dst) else ""))
        lines.append(f"constraint succ[{i}] in {_set(allowed)};")
    lines += ["", "% the steps taken form one path from the depot back to it",
              "constraint subcircuit(succ);", ""]
    lines += _edge_use(puzzle, steps)
    used, ends = (lambda i: f"succ[{i}] != {i}"), (lambda i: f"succ[{i}] = depot")
    lines += _edge_closed(puzzle, steps, ends) if puzzle.closed else []
    lines += _balance(puzzle, steps, used, ends)
    lines += _objective(puzzle, length, "n_steps",
                        "sum(s in 1..n_steps)(bool2int(succ[s] != s))")
    lines += ['output ["succ = \\(succ);\\n"];']
    return MznModel("\n".join(lines) + "\n", "edges", depot, steps=tuple(steps))


def _partners(steps: Sequence[MznStep]) -> dict[int, int]:
    """Each step's partner: the other orientation of its edge (1-based step numbers; a
    one-way edge's single step has none)."""
    partner: dict[int, int] = {}
    by_edge: dict[int, list[int]] = defaultdict(list)
    for i, s in enumerate(steps, start=1):
        by_edge[s.edge].append(i)
    for group in by_edge.values():
        if len(group) == 2:
            partner[group[0]], partner[group[1]] = group[1], group[0]
    return partner


def _paired_successors(puzzle: Puzzle, steps: Sequence[MznStep], partner: dict[int, int],
                       leaving: dict[int, list[int]], depot: int) -> list[str]:
    """Each step's successors in the paired circuit: its partner (skipped, when the
    step is crossed), the steps that may follow the one crossed, and the depot where
    the walk may end."""
    names = puzzle.nodes
    lines: list[str] = []
    for i, s in enumerate(steps, start=1):
        other = partner.get(i)
        crossed = steps[other - 1] if other is not None else s  # the step i may follow
        nxt = [j for j in leaving[crossed.dst] if steps[j - 1].edge != s.edge
               and puzzle.colour_may_follow(crossed.colour, steps[j - 1].colour)]
        ends = [depot] if puzzle.may_end(crossed.dst) else []
        lines.append(f"% step {i}: {_quote(puzzle.describe_edge(s.edge))} crossed "
                     f"{_quote(names[s.src])} -> {_quote(names[s.dst])}")
        lines.append(f"constraint succ[{i}] in {_set([*([other] if other else []), *nxt, *ends])};")
    return lines


def _paired_model(puzzle: Puzzle, length: int | None) -> MznModel:
    """Exactly once, every edge usable: one ``circuit`` through every step and the depot.

    Of an edge's two orientations one is crossed and the other, not crossed, sits on
    the circuit right after it (``succ[a] = b``: ``a`` crossed, ``b`` skipped, and
    ``succ[b]`` is the step after ``a``). So a walk is one circuit through all circuit
    nodes, which solvers propagate natively (``circuit``; Gecode's library has no
    ``subcircuit``, whose decomposition grows with the square of the steps).
    """
    steps = steps_of(puzzle)
    depot = len(steps) + 1
    partner = _partners(steps)
    lines = _header(puzzle, "oriented-edge circuit (each circuit node is a step: one edge "
                    "crossed one way; the orientation not crossed follows the one crossed)",
                    "circuit")
    preamble, leaving = _steps_and_depot(puzzle, steps)
    lines += preamble
    lines += _paired_successors(puzzle, steps, partner, leaving, depot)
    lines += ["", "% every edge is crossed exactly once: one orientation, then the other"]
    lines += [f"constraint succ[{a}] = {b} \\/ succ[{b}] = {a};"
              for a, b in partner.items() if a < b]
    lines += ["", "% all steps form one circuit with the depot", "constraint circuit(succ);", ""]

    def used(i: int) -> str:
        return f"succ[{i}] = {partner[i]}" if i in partner else "true"

    def ends_walk(i: int) -> str:
        return (f"(succ[{i}] = {partner[i]} /\\ succ[{partner[i]}] = depot)" if i in partner
                else f"succ[{i}] = depot")

    lines += _edge_closed(puzzle, steps, ends_walk) if puzzle.closed else []
    lines += _balance(puzzle, steps, used, ends_walk)
    lines += _objective(puzzle, length, "n_steps", str(puzzle.num_edges))
    lines += ['output ["succ = \\(succ);\\n"];']
    return MznModel("\n".join(lines) + "\n", "paired", depot, steps=tuple(steps),
                    partner=partner)


def _edge_use(puzzle: Puzzle, steps: list[MznStep]) -> list[str]:
    """Each edge once (exactly once: one of its orientations is taken)."""
    by_edge: dict[int, list[int]] = defaultdict(list)
    for i, s in enumerate(steps, start=1):
        by_edge[s.edge].append(i)
    exactly = puzzle.use is EdgeUse.EXACTLY_ONCE
    sign = "=" if exactly else "<="
    lines = ["% " + ("every edge is crossed exactly once" if exactly
                     else "no edge is crossed twice (one way or the other)")]
    for e in range(puzzle.num_edges):
        group = by_edge.get(e, [])
        if not group and exactly:
            lines.append(f"constraint false;  % {_quote(puzzle.describe_edge(e))} has no "
                         "colour, so it can never be crossed")
        elif len(group) == 1 and exactly:
            lines.append(f"constraint succ[{group[0]}] != {group[0]};")
        elif len(group) == 2:
            a, b = group
            lines.append(f"constraint bool2int(succ[{a}] != {a}) + bool2int(succ[{b}] != {b}) "
                         f"{sign} 1;")
    return [*lines, ""]


def _balance(puzzle: Puzzle, steps: list[MznStep], used: Callable[[int], str],
             ends: Callable[[int], str]) -> list[str]:
    """Redundant, for propagation: at each node, steps out minus steps in is 1 where the
    walk starts, -1 where it ends, 0 elsewhere (0 everywhere for a closed walk)."""
    flow: dict[int, list[str]] = defaultdict(list)
    for i, s in enumerate(steps, start=1):
        if s.src != s.dst:
            flow[s.src].append(f"bool2int({used(i)})")
            flow[s.dst].append(f"-bool2int({used(i)})")
    lines = ["% redundant: at each node, steps out minus steps in is 1 at the start, -1 at the "
             "end, 0 elsewhere"]
    if not puzzle.closed:
        lines += ["array[1..n_steps] of int: from = ["
                  + ", ".join(str(s.src + 1) for s in steps) + "];",
                  "array[1..n_steps] of int: to = ["
                  + ", ".join(str(s.dst + 1) for s in steps) + "];",
                  f"var 1..{puzzle.num_nodes}: first_node = from[succ[depot]];",
                  f"var 1..{puzzle.num_nodes}: last_node;"]
        lines += [f"constraint {ends(i)} -> to[{i}] = last_node;"
                  for i in range(1, len(steps) + 1)]
    for v in sorted(flow):
        terms = " + ".join(flow[v]).replace("+ -", "- ")
        rhs = "0" if puzzle.closed else \
            f"bool2int(first_node = {v + 1}) - bool2int(last_node = {v + 1})"
        lines.append(f"constraint {terms} = {rhs};  % node {_quote(puzzle.nodes[v])}")
    return [*lines, ""]


def _edge_closed(puzzle: Puzzle, steps: list[MznStep], ends: Callable[[int], str]
                 ) -> list[str]:
    """The last step ends where the first began (and the first colour may follow the last)."""
    lines = ["% a closed walk: the last step ends where the first began",
             "array[1..n_steps] of int: src = [" + ", ".join(str(s.src + 1) for s in steps)
             + "];  % node numbers, 1-based, in the order of the puzzle's nodes",
             "array[1..n_steps] of int: dst = [" + ", ".join(str(s.dst + 1) for s in steps)
             + "];"]
    cond = "dst[{i}] = src[succ[depot]]"
    if puzzle.colours is not None:
        lines += _colour_table(puzzle)
        lines.append("array[1..n_steps] of int: colour = ["
                     + ", ".join(str(s.colour + 1) for s in steps) + "];")
        cond += " /\\ may_follow[colour[{i}], colour[succ[depot]]]"
    lines += [f"constraint {ends(i)} -> ({cond.format(i=i)});"
              for i in range(1, len(steps) + 1)]
    return [*lines, ""]


def _states(puzzle: Puzzle, steps: list[MznStep]) -> list[tuple[int, int]]:
    rule = puzzle.colours is not None
    starts = sorted({s.src for s in steps if puzzle.may_start(s.src)
                     and puzzle.may_come_first(s.colour)})
    after = sorted({(s.dst, s.colour if rule else 0) for s in steps})
    return [(u, START) for u in starts] + after


def _state_moves(puzzle: Puzzle, steps: list[MznStep], index: dict[tuple[int, int], int]
                 ) -> dict[tuple[int, int], list[MznStep]]:
    rule = puzzle.colours is not None
    leaving: dict[int, list[MznStep]] = defaultdict(list)
    for s in steps:
        leaving[s.src].append(s)
    moves: dict[tuple[int, int], list[MznStep]] = defaultdict(list)
    for (node, phase), i in index.items():
        for s in leaving[node]:
            ok = (puzzle.may_come_first(s.colour) if phase == START
                  else not rule or puzzle.colour_may_follow(phase, s.colour))
            j = index[(s.dst, s.colour if rule else 0)]
            if ok and j != i:
                moves[(i, j)].append(s)
    return moves


def _state_model(puzzle: Puzzle, length: int | None) -> MznModel:
    steps = steps_of(puzzle)
    states = _states(puzzle, steps)
    index = {state: i for i, state in enumerate(states, start=1)}
    moves = _state_moves(puzzle, steps, index)
    n, depot = len(states), len(states) + 1
    colour = puzzle.colour_names
    lines = _header(puzzle, "simple path over (node, colour-phase) states, complete for the "
                    "shortest walk (a shortest walk never repeats a state)")
    lines += [f"int: n_states = {n};", f"int: depot = {depot};",
              "array[1..depot] of var 1..depot: succ;", ""]
    starts = [i for (node, phase), i in index.items() if phase == START]
    lines += ["% the walk begins in a start state (an allowed start, no step taken yet)",
              f"constraint succ[depot] in {_set(starts)};"]
    for (node, phase), i in index.items():
        ends = phase != START and puzzle.may_end(node)
        nxt = sorted(j for (a, j) in moves if a == i)
        what = ("start at " + _quote(puzzle.nodes[node]) if phase == START else
                f"at {_quote(puzzle.nodes[node])}"
                + (f" after a {_quote(colour[phase])} step" if puzzle.colours is not None
                   else ""))
        lines.append(f"% state {i}: {what}" + ("; may end the walk" if ends else ""))
        lines.append(f"constraint succ[{i}] in {_set([i, *nxt, *([depot] if ends else [])])};")
    lines += ["", "% the states visited form one path from the depot back to it",
              "constraint subcircuit(succ);", ""]
    if puzzle.closed:
        lines += _state_closed(puzzle, states)
    lines += _objective(puzzle, length, "n_states",
                        "sum(s in 1..n_states)(bool2int(succ[s] != s)) - 1")
    lines += ['output ["succ = \\(succ);\\n"];']
    return MznModel("\n".join(lines) + "\n", "states", depot, states=tuple(states),
                    moves={k: tuple(v) for k, v in moves.items()})


def _state_closed(puzzle: Puzzle, states: list[tuple[int, int]]) -> list[str]:
    """The walk's last state is at its start node (and its first colour may follow the
    last one)."""
    lines = ["% a closed walk: the last state is at the node the walk started from",
             "array[1..n_states] of int: node = ["
             + ", ".join(str(v + 1) for v, _ in states) + "];"]
    cond = "node[s] = node[succ[depot]]"
    if puzzle.colours is not None:
        lines += _colour_table(puzzle)
        lines.append("array[1..n_states] of int: phase = ["
                     + ", ".join(str(max(p, 0) + 1) for _, p in states)
                     + "];  % the colour of the step that led there (1 for start states)")
        cond += " /\\ may_follow[phase[s], phase[succ[succ[depot]]]]"
    return [*lines, f"constraint forall(s in 1..n_states)(succ[s] = depot -> ({cond}));", ""]
