"""``explain``: why an impossible puzzle is impossible, in the puzzle's words.

* Every unsolvable puzzle: its checked certificate (the solve pipeline's answer).
* Edges used exactly or at most once: a minimal *core*, a set of edges no walk obeying
  the rules can all use, the other edges optional
  (:mod:`trailkit.solvers.tools.repair.cores`): each member is shown necessary by a verified
  walk using all the others, and the core's own impossibility by a checked
  ``odd-nodes`` certificate where that argument applies, else by a checked DRUP
  refutation of the core's own formula (:mod:`trailkit.solvers.tools.repair.core_proof`).
* Reusable edges (a core is the wrong idea: more edges never hurt): the reachable
  situations and the near misses, or the boundary where the walk is stopped
  (:mod:`trailkit.solvers.tools.repair.situations`).
* Node rules (``visit``, ``via``, ``avoid``, ``at``): a minimal core of node rules, the
  rules of single nodes that together leave no walk, the edge rules all kept
  (:mod:`trailkit.solvers.tools.repair.node_cores`); where the edge rules alone leave
  none, the node rules play no part and the puzzle without them is explained as above.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, a c, a d]\\n")
>>> e = explain(p)
>>> e.status.value, [p.edge_id(x) for x in e.core.edges], e.core.certificate.kind
('unsolvable', [0, 1, 2], 'odd-nodes')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from trailkit.models.answer import Answer, Status
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.pipeline.solving import solve
from trailkit.solvers.tools.repair.cores import Core
from trailkit.solvers.tools.repair.node_cores import NodeCore
from trailkit.solvers.tools.repair.situations import Situations

__all__ = ["Explanation", "explain"]


@dataclass(frozen=True)
class Explanation:
    """What ``explain`` found: the ``answer`` for the puzzle, and for an unsolvable one
    its ``core`` (exactly / at most once) or its ``situations`` (reusable edges), and
    under node rules its ``node_core``; ``text`` says it all in words (edges and nodes;
    the CLI uses the puzzle's words)."""

    status: Status
    puzzle: Puzzle
    answer: Answer
    core: Core | None = None
    situations: Situations | None = None
    text: str = ""
    reason: str = ""
    time_s: float = 0.0
    node_core: NodeCore | None = None


def explain(puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Explanation:
    """Explain why ``puzzle`` has no walk (nothing to explain when it has one)."""
    began = time.perf_counter()
    answer = solve(puzzle, limits=limits)
    if answer.status is not Status.UNSOLVABLE:
        text = (f"The puzzle is solvable: a verified walk of {plural(answer.length or 0, 'step')} "
                "exists."
                if answer.status is Status.SOLVED else f"Undecided: {answer.reason}")
        return Explanation(answer.status, puzzle, answer, text=text, reason=answer.reason,
                           time_s=time.perf_counter() - began)
    lines = []
    if answer.certificate is not None:
        lines.append(answer.certificate.explanation)
    elif answer.reason:
        lines.append(f"No walk exists: {answer.reason}.")
    if puzzle.has_node_rules:
        return _node_explanation(puzzle, answer, lines, limits, began)
    core = situations = None
    if puzzle.use is EdgeUse.ANY and not puzzle.closed:
        from trailkit.solvers.tools.repair.reusable import state_distances
        from trailkit.solvers.tools.repair.situations import situations as find_situations
        from trailkit.solvers.tools.repair.situations import situations_text

        situations = find_situations(puzzle, state_distances(puzzle))
        lines.append(situations_text(puzzle, situations))
    elif puzzle.use is not EdgeUse.ANY:
        from trailkit.solvers.tools.repair.cores import find_core

        left = None if limits.time_limit is None else max(
            0.0, limits.time_limit - (time.perf_counter() - began))  # the command's limit
        core = find_core(puzzle, replace(limits, time_limit=left))
        lines.append(_core_text(puzzle, core))
    return Explanation(Status.UNSOLVABLE, puzzle, answer, core, situations, "\n".join(lines),
                       time_s=time.perf_counter() - began)


def _node_explanation(puzzle: Puzzle, answer: Answer, lines: list[str], limits: Limits,
                      began: float) -> Explanation:
    """The explanation of an unsolvable puzzle with node rules (module docstring): a
    minimal core of its node rules, or, when its edge rules alone leave no walk, the
    explanation of the puzzle without node rules."""
    from trailkit.solvers.tools.repair.node_cores import (
        find_node_core,
        node_core_text,
        without_node_rules,
    )

    def left() -> Limits:
        return limits if limits.time_limit is None else replace(limits, time_limit=max(
            0.01, limits.time_limit - (time.perf_counter() - began)))

    bare = without_node_rules(puzzle)
    plain = solve(bare, "direct", left(), crosscheck=None)
    if plain.status is Status.UNSOLVABLE:
        inner = explain(bare, left())
        lines.append("The node rules play no part: the edge rules alone leave no walk. "
                     "Without the node rules:")
        lines.append(inner.text)
        return Explanation(Status.UNSOLVABLE, puzzle, answer, inner.core, inner.situations,
                           "\n".join(lines), time_s=time.perf_counter() - began)
    if plain.status is not Status.SOLVED:
        lines.append(f"No core of node rules: the edge rules alone are undecided "
                     f"({plain.reason}).")
        return Explanation(Status.UNSOLVABLE, puzzle, answer, text="\n".join(lines),
                           time_s=time.perf_counter() - began)
    node_core = find_node_core(puzzle, left(), answer)
    lines.append(node_core_text(puzzle, node_core))
    return Explanation(Status.UNSOLVABLE, puzzle, answer, text="\n".join(lines),
                       time_s=time.perf_counter() - began, node_core=node_core)


def _core_text(puzzle: Puzzle, core: Core | None) -> str:
    if core is None:
        return "No core could be found within the limits."
    if not core.edges:
        return ("No core needed: even with every edge optional, no walk obeying "
                "the rules exists at all.")
    members = "; ".join(puzzle.describe_edge(e) for e in core.edges)
    lines = [f"A minimal core ({len(core.edges)} edges): no walk obeying the rules can use all of "
             f"{members}, even when every other edge may be left out."]
    lines.append(f"Why: {_why(core)}")
    lines.append(f"Each of the {len(core.edges)} is needed: without any one of them a walk "
                 "using all the others exists (each walk verified).")
    if core.smallest:
        lines.append("(CP-SAT finds no smaller core among every smaller set of edges; that "
                     "rests on CP-SAT alone, so the core is called minimal, not smallest.)")
    else:
        lines.append("(No member can be dropped; whether a smaller core exists elsewhere was "
                     "not searched in full.)")
    return "\n".join(lines)


def _why(core: Core) -> str:
    """Why no walk uses the whole core, and what that rests on: the certificate the
    independent checker accepted, or why there is none."""
    certificate = core.certificate
    if certificate is None:
        return (f"CP-SAT finds no such walk (not certified: {core.why or 'no certificate'}; "
                "this rests on CP-SAT alone).")
    if certificate.kind != "drup":
        return f"{certificate.explanation} (certificate accepted by the independent checker)"
    data = certificate.data
    return (f"the SAT solver refuted the core's own formula ({data['encoding']}: "
            f"{data['num_vars']:,} variables, {data['num_clauses']:,} clauses), so no walk "
            "with each edge used at most once uses the whole core; its DRUP proof of "
            f"{plural(int(data['proof_lemmas']), 'lemma')} accepted by the independent "
            "checker.")
