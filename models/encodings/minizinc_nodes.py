"""The MiniZinc model of a walk under node rules that forbid a second visit: one
``subcircuit`` over the puzzle's nodes and a depot (``circuit`` when every node is on it).

The node-level circuit of :mod:`~trailkit.models.encodings.node_circuit` (``visit:
at-most-once`` or ``every-once``, no colour rule, edges not all required), as text:
``succ[i] = j`` says the step after node ``i`` goes to node ``j``, ``succ[i] = i`` that
``i`` holds no position. The depot (the last entry) leads to the walk's first node and
the last node leads back to it, for open and closed walks alike, so one ``succ`` array
says the whole walk, its start included:

* an open walk leaves the depot at an allowed start, returns from an allowed end, and
  takes a step (the depot's successor does not lead straight back);
* a closed walk starts at a node that may start and end, and its last node has a step
  back to its first (``back[i]``: the nodes a step from ``i`` reaches, ``i`` itself
  where a self-loop makes a walk of one step); a walk of two steps crosses two different
  edges unless edges are reusable.

``at:`` gives positions ``pos[i]`` (0 for a node not on the walk): 1 after the depot, one
more along each step. The objective counts steps: the nodes on the walk, less one for an
open walk.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("c", "a")], use="at-most-once",
...                  visit=NodeVisit.EVERY_ONCE, closed=True)
>>> m = node_model(p)
>>> m.form, m.size, m.decode([2, 3, 4, 1]).nodes  # depot -> a -> b -> c, back to a
('nodes', 4, (0, 1, 2, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from trailkit.models.answer import Walk
from trailkit.models.encodings.node_circuit import Moves, loop_walks, two_step_rings
from trailkit.models.puzzle import NodeVisit, Objective, Puzzle

__all__ = ["NodeMznModel", "node_model"]


@dataclass(frozen=True)
class NodeMznModel:
    """The model text and what its ``succ`` array means: entry ``i`` (1-based) is node
    ``i - 1``, entry ``size`` the depot; ``loops`` the self-loop edges by node of the
    closed walks of one step."""

    text: str
    size: int
    moves: Moves
    closed: bool
    loops: dict[int, list[int]] = field(default_factory=dict)
    form: str = "nodes"

    def _nodes(self, succ: Sequence[int]) -> list[int]:
        """The walk's nodes from the depot on (``ValueError`` if it is no path)."""
        if len(succ) != self.size:
            raise ValueError(f"succ has {len(succ)} entries, the model {self.size}")
        nodes: list[int] = []
        at = succ[self.size - 1]
        while at != self.size:
            if not 1 <= at <= self.size or len(nodes) >= self.size:
                raise ValueError("succ does not lead back to the depot")
            nodes.append(at - 1)
            at = succ[at - 1]
        if not nodes:
            raise ValueError("the solution takes no step")
        return [*nodes, nodes[0]] if self.closed else nodes

    def decode(self, succ: Sequence[int]) -> Walk:
        """The walk a solution's ``succ`` array stands for (the first of parallel edges;
        the caller verifies it)."""
        nodes = self._nodes(succ)
        if len(nodes) == 2 and nodes[0] == nodes[1]:
            return Walk((nodes[0], nodes[0]), (self.loops[nodes[0]][0],))
        return Walk(tuple(nodes), self.moves.edges(nodes))

    def multiplicity(self, succ: Sequence[int]) -> int:
        """How many walks a solution stands for (parallel edges, self-loops)."""
        nodes = self._nodes(succ)
        if len(nodes) == 2 and nodes[0] == nodes[1]:
            return len(self.loops[nodes[0]])
        return self.moves.walks(nodes)


def _set(values: Sequence[int]) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}" if values else "{}"


def node_model(puzzle: Puzzle, *, length: int | None = None) -> NodeMznModel:
    """The MiniZinc model of ``puzzle`` (module docstring); with ``length``, the walks of
    exactly that many steps and no objective."""
    moves = Moves.of(puzzle)
    loops: dict[int, list[int]] = {}
    for v, e in loop_walks(puzzle):
        loops.setdefault(v, []).append(e)
    n, depot = puzzle.num_nodes, puzzle.num_nodes + 1
    every = puzzle.visit is NodeVisit.EVERY_ONCE
    plain = every and not puzzle.avoid
    lines = [f"% trailkit MiniZinc model of {_quote(puzzle.name or 'a walk puzzle')} "
             f"({puzzle.kind})",
             "% form: node-level circuit (no node visited twice); succ[i] = j: the step "
             "after node i goes to node j; succ[i] = i: node i is not on the walk; the "
             "depot (the last entry) leads to the first node and back from the last",
             f'include "{"circuit" if plain else "subcircuit"}.mzn";', "",
             f"int: n = {n};", f"int: depot = {depot};",
             "array[1..depot] of var 1..depot: succ;", ""]
    lines += _domains(puzzle, moves, loops)
    lines += ["", "constraint " + ("circuit(succ);" if plain else "subcircuit(succ);")]
    lines += _walk_rules(puzzle, moves, loops)
    lines += _positions(puzzle) if puzzle.at else []
    lines += _objective(puzzle, length)
    lines.append('output ["succ = \\(succ);\\n"];')
    return NodeMznModel("\n".join(lines) + "\n", depot, moves, puzzle.closed, loops)


def _quote(text: str) -> str:
    return text.replace("\n", " ").replace("%", "%%")[:200]


def _domains(puzzle: Puzzle, moves: Moves, loops: dict[int, list[int]]) -> list[str]:
    """Each node's allowed successors, and the depot's (the allowed first nodes)."""
    n = puzzle.num_nodes
    must = set(puzzle.via) | set(puzzle.at)
    out: dict[int, list[int]] = {v: [] for v in range(n)}
    for u, v in moves.pairs:
        out[u].append(v + 1)
    lines = []
    for v in range(n):
        if v in puzzle.avoid:
            lines.append(f"constraint succ[{v + 1}] = {v + 1};  % avoided")
            continue
        stay = [] if puzzle.visit is NodeVisit.EVERY_ONCE or v in must else [v + 1]
        last = puzzle.may_end(v) if not puzzle.closed else bool(out[v] or v in loops)
        allowed = sorted({*stay, *out[v], *([n + 1] if last else [])})
        lines.append(f"constraint succ[{v + 1}] in {_set(allowed)};  % node "
                     f"{_quote(puzzle.nodes[v])}")
    first = [v + 1 for v in range(n) if v not in puzzle.avoid and puzzle.may_start(v)
             and (puzzle.may_end(v) or not puzzle.closed)]
    lines.append(f"constraint succ[depot] in {_set(first)};  % the walk's first node")
    return lines


def _walk_rules(puzzle: Puzzle, moves: Moves, loops: dict[int, list[int]]) -> list[str]:
    """No empty walk (open); a closed walk's step back to its start, its two-step rings."""
    n = puzzle.num_nodes
    if not puzzle.closed:
        return ["% a walk takes a step: the first node does not lead straight back",
                "constraint succ[succ[depot]] != depot;", ""]
    back = [[v + 1 for (u, v) in moves.pairs if u == i] + ([i + 1] if i in loops else [])
            for i in range(n)]
    lines = ["% a closed walk: its last node has a step back to its first",
             "array[1..n] of set of int: back = ["
             + ", ".join(_set(sorted(b)) for b in back) + "];",
             "constraint forall(i in 1..n)(succ[i] = depot -> succ[depot] in back[i]);"]
    twice = [(u, v) for (u, v) in moves.pairs if u < v and (v, u) in moves.pairs
             and not moves.twice(u, v)] if two_step_rings(puzzle) else []
    if twice:
        lines.append("% a ring of two steps needs two different edges")
    lines += [f"constraint not (succ[depot] = {u + 1} /\\ succ[{u + 1}] = {v + 1} /\\ "
              f"succ[{v + 1}] = depot);" for u, v in twice]
    lines += [f"constraint not (succ[depot] = {v + 1} /\\ succ[{v + 1}] = {u + 1} /\\ "
              f"succ[{u + 1}] = depot);" for u, v in twice]
    return [*lines, ""]


def _positions(puzzle: Puzzle) -> list[str]:
    """``pos[i]``: node ``i``'s position (0 off the walk); the givens of ``at:``."""
    size = puzzle.num_nodes - len(puzzle.avoid)
    lines = ["% positions: 1 for the first node, one more along each step",
             f"array[1..n] of var 0..{size}: pos;",
             "constraint pos[succ[depot]] = 1;",
             "constraint forall(i in 1..n)(succ[i] = i -> pos[i] = 0);",
             "constraint forall(i in 1..n)(succ[i] != i /\\ succ[i] != depot -> "
             "pos[succ[i]] = pos[i] + 1);"]
    for v, p in sorted(puzzle.at.items()):
        lines.append(f"constraint pos[{v + 1}] = {p};  % given: "
                     f"{_quote(puzzle.nodes[v])} at {p}")
    return [*lines, ""]


def _objective(puzzle: Puzzle, length: int | None) -> list[str]:
    less = "" if puzzle.closed else " - 1"
    lines = ["% the number of steps the walk takes",
             f"var int: steps_taken = sum(i in 1..n)(bool2int(succ[i] != i)){less};"]
    if length is not None:
        return [*lines, f"constraint steps_taken = {length};", "solve satisfy;"]
    if puzzle.objective is Objective.SHORTEST:
        return [*lines, "solve minimize steps_taken;"]
    if puzzle.wants_longest:
        return [*lines, "solve maximize steps_taken;"]
    return [*lines, "solve satisfy;"]
