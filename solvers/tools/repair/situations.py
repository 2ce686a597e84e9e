"""Why a reusable-edge walk cannot reach its goal: reachable situations and near misses.

For walks that may reuse edges a *core* is the wrong idea (more edges never hurt), so
the explanation is about where a walker can get to. From the forward search over
(node, colour-phase) states:

* **near misses**: the nodes with an edge into the goal that a walker does reach, in
  which colour phases, and why the edge into the goal may not follow any of them;
* when no such node is reached at all, the **unreachable** nodes (never stood on in any
  phase) and the **boundary**: every edge from a reached node to an unreachable one,
  with the phases the walker stands there in and the colours its edge would need
  before it.

Everything here is read off the reached states, which the closed-set certificate
checks; this module only puts them into words.
"""

from __future__ import annotations

from dataclasses import dataclass

from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import listing, plural
from trailkit.solvers.tools.repair.reusable import StateDistances

__all__ = ["Crossing", "Situations", "situations"]


@dataclass(frozen=True, slots=True)
class Crossing:
    """An edge ``edge`` from node ``at`` (reached in ``phases``) to ``to``, whose colour
    ``colour`` may only follow ``needs`` (phase names; ``None`` = before the first step)."""

    edge: int
    at: str
    to: str
    colour: str | None
    phases: tuple[str | None, ...]
    needs: tuple[str | None, ...]

    def to_json(self, puzzle: Puzzle) -> dict[str, object]:
        return {"edge": puzzle.edge_id(self.edge), "from": self.at, "to": self.to,
                "colour": self.colour, "reached_after": list(self.phases),
                "needs_after": list(self.needs)}


@dataclass(frozen=True, slots=True)
class Situations:
    """The reachable situations of a reusable-edge walk (see the module docstring)."""

    states: int
    nodes: tuple[str, ...]
    near_misses: tuple[Crossing, ...]
    unreachable: tuple[str, ...]
    boundary: tuple[Crossing, ...]
    entries: tuple[Crossing, ...]

    def to_json(self, puzzle: Puzzle) -> dict[str, object]:
        return {"reached_states": self.states, "reached_nodes": list(self.nodes),
                "into_goal": [c.to_json(puzzle) for c in self.entries],
                "near_misses": [c.to_json(puzzle) for c in self.near_misses],
                "unreachable": list(self.unreachable),
                "boundary": [c.to_json(puzzle) for c in self.boundary]}


def situations(puzzle: Puzzle, dist: StateDistances) -> Situations:
    """Read the near misses (or the boundary) off the forward distances."""
    graph = dist.graph
    k = graph.phases
    names = puzzle.nodes
    rule = puzzle.colours
    phase_name: list[str | None] = [None, *(rule.names if rule else ("a step",))]
    reached: list[list[int]] = [[p for p in range(k) if dist.reached(v * k + p)]
                                for v in range(puzzle.num_nodes)]
    goal = set(puzzle.end_nodes())

    def crossing(e: int, x: int, y: int) -> Crossing:
        c = 0 if rule is None or puzzle.colour is None else puzzle.colour[e]
        starts_here = puzzle.start is None or x in puzzle.start
        needs = tuple(phase_name[p] for p in range(k) if c in graph.allowed[p]
                      and (p > 0 or starts_here))
        return Crossing(e, names[x], names[y], puzzle.colour_name(e),
                        tuple(phase_name[p] for p in reached[x]), needs)

    def ways(e: int) -> list[tuple[int, int]]:
        u, v = puzzle.tail[e], puzzle.head[e]
        if rule is not None and (puzzle.colour is None or puzzle.colour[e] < 0):
            return []
        return [(u, v)] if puzzle.is_directed(e) or u == v else [(u, v), (v, u)]

    entries = [crossing(e, x, y) for e in range(puzzle.num_edges) for x, y in ways(e)
               if y in goal and x not in goal]
    near = [c for c in entries if c.phases]
    unreachable: list[str] = []
    boundary: list[Crossing] = []
    if not near:
        unreachable = [names[v] for v in range(puzzle.num_nodes) if not reached[v]]
        boundary = [crossing(e, x, y) for e in range(puzzle.num_edges) for x, y in ways(e)
                    if reached[x] and not reached[y]]
    return Situations(sum(len(r) for r in reached),
                      tuple(names[v] for v in range(puzzle.num_nodes) if reached[v]),
                      tuple(near), tuple(unreachable), tuple(boundary), tuple(entries))


def _phases_text(phases: tuple[str | None, ...]) -> str:
    """``at the start``, or ``after red and after blue``."""
    return listing(["at the start" if p is None else f"after {p}" for p in phases])


def _taken(puzzle: Puzzle, c: Crossing, edge: str) -> str:
    """When ``edge`` (``this edge``, ``the red edge S-A``) may be taken, in words."""
    if not c.needs:
        return (f"{edge} can never be taken: the colour rule lets no colour come before "
                "it, and it may not come first")
    return f"{edge} may only be taken {_phases_text(c.needs)}{_not_first(puzzle, c)}"


def _not_first(puzzle: Puzzle, c: Crossing) -> str:
    """Why an edge a walker stands by at the start may not be its first step, when it is
    ``first:`` that forbids it (not the colour rule)."""
    rule, first = puzzle.colours, puzzle.first
    if rule is None or first is None or None not in c.phases or None in c.needs:
        return ""
    allowed = listing([rule.names[i] for i in sorted(first)], "or")
    return f", and not as the first step, which 'first:' says must be {allowed}"


def situations_text(puzzle: Puzzle, found: Situations) -> str:
    """The situations in words (edges and nodes; the CLI says planks and tyres)."""
    lines = [f"A walker can stand on {len(found.nodes)} of the {puzzle.num_nodes} nodes, in "
             f"{plural(found.states, '(node, last colour) situation')}."]
    goal = "the goal" if puzzle.end is None or len(puzzle.end) != 1 \
        else puzzle.nodes[next(iter(puzzle.end))]
    if not found.entries:
        lines.append(f"No edge leads into {goal} at all.")
        return "\n".join(lines)
    into = ", ".join(f"the {c.colour + ' ' if c.colour else ''}edge from {c.at}"
                     for c in found.entries)
    lines.append(f"{goal} can only be entered by {into}.")
    for c in found.near_misses:
        edge = f"the {c.colour + ' ' if c.colour else ''}edge {c.at}-{c.to}"
        lines.append(f"Near miss: {c.at} is reached {_phases_text(c.phases)}, but "
                     f"{_taken(puzzle, c, edge)}.")
    if not found.near_misses:
        starts = ", ".join(c.at for c in found.entries)
        lines.append(f"{starts} {'is' if len(found.entries) == 1 else 'are'} never reached, "
                     "in any colour.")
        lines.append(f"Nodes never stood on ({len(found.unreachable)}): "
                     f"{', '.join(found.unreachable)}.")
        if found.boundary:
            lines.append("The walk is stopped at the boundary:")
            for c in found.boundary:
                lines.append(f"  {c.at}-{c.to} ({c.colour or 'edge'}): {c.at} is reached "
                             f"{_phases_text(c.phases)}; {_taken(puzzle, c, 'this edge')}")
    return "\n".join(lines)
