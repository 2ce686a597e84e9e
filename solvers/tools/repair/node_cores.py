"""Minimal cores of node rules: which of a puzzle's node rules together rule out every walk.

A puzzle's node rules are taken apart into *rules* of one node each (a
:class:`NodeRule`): "no node is visited twice" (``visit: at-most-once``), "X is
visited" (each node of ``via``, and under ``visit: every-once`` each node not avoided:
``every-once`` is exactly at-most-once plus a visit of each such node), "X is avoided"
and "X is at position p" (each given of ``at``). The edge rules (edges, their use, one-way
edges, colours, start, end, closed) all stay. Every rule only takes walks away, so
the rules are *monotone*: a set of them that leaves no walk leaves none with any rule
added. A *core* is a set of rules that leaves no walk; it is *minimal* when leaving out
any one member lets a walk through, which monotonicity makes a real minimum of its own
kind: no proper subset of it is a core, since a subset of a set with a walk has one.

Deletion-based extraction, as for edge cores (:mod:`trailkit.solvers.tools.repair.cores`):
start from every rule and drop one after another, keeping a rule when the puzzle
without it has a walk. Each test is the pipeline's solve of the puzzle with those
rules alone (the direct backend, which obeys node rules): a walk found is the
*witness* that the rule it leaves out is needed, verified again by the independent
checker; an answer "unsolvable" drops the rule. The core's own unsolvability is the
pipeline's checked certificate for the puzzle with the core's rules alone (a
``node-cut``, ``node-degree``, ``avoided-edge`` or ``given-positions`` argument, or a
refuted ``node-positions-v1`` / ``node-cuts-v1`` formula), made by ``prove`` when the
solve gave none.

>>> from trailkit.models.puzzle import NodeVisit, Puzzle
>>> p = Puzzle.build(edges=[("a", "b"), ("b", "c"), ("b", "d")], use="at-most-once",
...                  visit=NodeVisit.EVERY_ONCE)
>>> core = find_node_core(p)
>>> [rule.describe(p) for rule in core.rules], core.certified
(['a is visited', 'c is visited', 'd is visited'], True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from trailkit.models.answer import Answer, Certificate, Claim, Status, Walk
from trailkit.models.checking.verify import verify
from trailkit.models.errors import UnsupportedPuzzle, VerificationFailure
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.support.words import plural
from trailkit.solvers.backends.base import NO_LIMITS, Limits

BACKEND = "direct"
"""The backend each test runs on: direct obeys every node rule and needs no extra."""
CALL_SECONDS = 10.0
"""The most time one test may take (within the whole search's limit): a rule whose test
is undecided stays in the core, which is then not called minimal."""
SEARCH_SECONDS = 12.0
"""The whole search's time when the caller sets no limit, shared among the tests still
to run: a test that cannot decide (a Hamiltonian cycle refuted by a search, as in the
5 x 5 closed knight's tour's, whose 12 undecided tests once took 10 s each) then costs
seconds, not minutes, and its rule stays in a core not called minimal."""

__all__ = ["NodeCore", "NodeRule", "find_node_core", "node_core_text", "node_rules_of",
           "with_node_rules", "without_node_rules"]


@dataclass(frozen=True, slots=True)
class NodeRule:
    """One rule of one node: ``once`` (no node twice; ``node`` -1), ``visit``, ``avoid``
    or ``at`` (with its ``position``)."""

    kind: str
    node: int = -1
    position: int = 0

    def describe(self, puzzle: Puzzle) -> str:
        """The rule in words: ``c3 is at position 10``."""
        if self.kind == "once":
            return "no node is visited twice"
        name = puzzle.nodes[self.node]
        if self.kind == "at":
            return f"{name} is at position {self.position}"
        return f"{name} is {'avoided' if self.kind == 'avoid' else 'visited'}"

    def to_json(self, puzzle: Puzzle) -> dict[str, object]:
        """``{"rule": "at", "node": "c3", "position": 10}``; ``once`` names no node."""
        out: dict[str, object] = {"rule": self.kind}
        if self.kind != "once":
            out["node"] = puzzle.nodes[self.node]
        if self.kind == "at":
            out["position"] = self.position
        return out


def node_rules_of(puzzle: Puzzle) -> list[NodeRule]:
    """The puzzle's node rules one node at a time (module docstring), in the order they
    are tried: the visits first (most numerous), then the avoided nodes, the givens,
    and "no node twice" last."""
    visited = set(puzzle.via)
    if puzzle.visit is NodeVisit.EVERY_ONCE:
        visited |= set(range(puzzle.num_nodes)) - set(puzzle.avoid)
    rules = [NodeRule("visit", v) for v in sorted(visited)]
    rules += [NodeRule("avoid", v) for v in sorted(puzzle.avoid)]
    rules += [NodeRule("at", v, p) for v, p in sorted(puzzle.at.items(), key=lambda i: i[1])]
    if puzzle.visit is not NodeVisit.ANY:
        rules.append(NodeRule("once"))
    return rules


def with_node_rules(puzzle: Puzzle, rules: Sequence[NodeRule]) -> Puzzle:
    """``puzzle`` with its node rules replaced by ``rules`` (its edge rules kept)."""
    once = any(r.kind == "once" for r in rules)
    return replace(
        puzzle, visit=NodeVisit.AT_MOST_ONCE if once else NodeVisit.ANY,
        via=frozenset(r.node for r in rules if r.kind == "visit"),
        avoid=frozenset(r.node for r in rules if r.kind == "avoid"),
        at={r.node: r.position for r in rules if r.kind == "at"}, expect=None)


def without_node_rules(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with no node rule at all: its edge rules alone."""
    return with_node_rules(puzzle, ())


@dataclass(frozen=True)
class NodeCore:
    """A core of node rules (module docstring): its ``rules`` (of the ``total`` the
    puzzle has), a verified ``witnesses`` walk per rule (the puzzle with the other
    rules), the checked ``certificate`` that the core's rules leave no walk (``None``,
    with ``why``, when none was made), the ``calls`` to the solver, and the members
    whose test was ``undecided`` within the limits (kept: the core is then a core, not
    a minimal one)."""

    rules: tuple[NodeRule, ...]
    total: int
    witnesses: tuple[Walk, ...]
    certificate: Certificate | None
    calls: int
    why: str = ""
    undecided: int = 0

    @property
    def minimal(self) -> bool:
        """Every member needed: a verified witness each (no test left undecided)."""
        return self.undecided == 0

    @property
    def certified(self) -> bool:
        return self.certificate is not None

    def claim(self) -> Claim:
        """The ``minimal-core`` claim: checked when the core's unsolvability certificate
        was accepted and every member's witness walk verified."""
        n = len(self.witnesses)
        if self.certificate is not None and self.minimal:
            return Claim("minimal-core", True, self.certificate, value=n, holds=(
                f"the {self.certificate.kind} certificate of the core's "
                f"{plural(len(self.rules), 'node rule')} accepted by the independent "
                f"checker, and {plural(n, 'witness walk')} (one without each member) "
                "verified by it"))
        why = (f"{plural(self.undecided, 'member')} without a verified witness walk "
               "(undecided within the limits)" if not self.minimal else
               f"{self.why}; its unsolvability rests on the {BACKEND} backend's search; "
               "each member's witness walk is verified")
        return Claim("minimal-core", False, self.certificate, value=n,
                     why=f"not certified ({why})")


def find_node_core(puzzle: Puzzle, limits: Limits = NO_LIMITS,
                   answer: Answer | None = None) -> NodeCore:
    """A core of ``puzzle``'s node rules (module docstring), minimal unless a test was
    undecided, for a puzzle with no walk (``answer``: its checked answer, whose
    certificate covers the core of every rule) whose edge rules alone allow one."""
    budget = SEARCH_SECONDS if limits.time_limit is None else limits.time_limit
    deadline = time.monotonic() + budget
    core = node_rules_of(puzzle)
    total, calls, undecided = len(core), 0, 0
    last = answer  # the answer for the puzzle with exactly ``core``'s rules
    seeded = _cut_seed(puzzle, core, answer)
    if seeded is not None:
        core, last = seeded
    witness: dict[NodeRule, Walk] = {}
    for k, rule in enumerate(list(core)):
        rest = [r for r in core if r != rule]
        found = _test(puzzle, rest, _call(limits, deadline, len(core) - k))
        calls += 1
        if found.status is Status.UNSOLVABLE:
            core, last = rest, found
        elif found.status is Status.SOLVED and found.walk is not None:
            witness[rule] = found.walk
        else:
            undecided += 1
    witnesses = _checked_witnesses(puzzle, core, witness)
    certificate, why = _core_certificate(puzzle, core, last, replace(
        limits, time_limit=CALL_SECONDS) if limits.time_limit is None else _call(limits, deadline))
    return NodeCore(tuple(core), total, witnesses, certificate, calls, why, undecided)


def _cut_seed(puzzle: Puzzle, rules: Sequence[NodeRule], answer: Answer | None
              ) -> tuple[list[NodeRule], Answer] | None:
    """The rules a ``node-cut`` argument speaks of, to start the deletion from: "no node
    twice", the givens and the avoided nodes (ends and removed nodes of the argument),
    and the visit of the one node it names in each piece; with the same certificate, as
    the independent checker accepted it on the puzzle with those rules alone. ``None``
    for another argument, or one the checker rejects there."""
    from trailkit.models.checking.certificates import verdict

    certificate = None if answer is None else answer.certificate
    if certificate is None or certificate.kind != "node-cut":
        return None
    named = set(certificate.data.get("pieces") or ())
    seed = [r for r in rules if r.kind != "visit" or puzzle.nodes[r.node] in named]
    if len(seed) == len(rules) or verdict(with_node_rules(puzzle, seed), certificate).problems:
        return None
    return seed, Answer(Status.UNSOLVABLE, "checker", certificate=certificate,
                        certificate_checked=True)


def _test(puzzle: Puzzle, rules: Sequence[NodeRule], limits: Limits) -> Answer:
    """The pipeline's answer for ``puzzle`` with ``rules`` alone: "unknown" also when the
    second backend that would confirm an uncertified "unsolvable" cannot take the
    puzzle (the rule tested then stays, undecided)."""
    from trailkit.solvers.pipeline.solving import solve

    try:
        return solve(with_node_rules(puzzle, rules), BACKEND, limits, crosscheck=None)
    except UnsupportedPuzzle as exc:
        return Answer(Status.UNKNOWN, BACKEND, reason=str(exc))


def _call(limits: Limits, deadline: float, tests: int = 1) -> Limits:
    """``limits`` for one of ``tests`` still to run: at most :data:`CALL_SECONDS` and its
    share of what is left before ``deadline`` (a test that ends early leaves its time to
    the others; a little, once it has passed: the test then says "unknown")."""
    share = (deadline - time.monotonic()) / max(1, tests)
    return replace(limits, time_limit=max(0.01, min(CALL_SECONDS, share)))


def _checked_witnesses(puzzle: Puzzle, core: Sequence[NodeRule],
                       witness: dict[NodeRule, Walk]) -> tuple[Walk, ...]:
    """Each member's witness, in the core's order, passed again by the independent
    checker on the puzzle with the other members: a core is called minimal only on walks
    the checker accepted, so a wrong one is a loud bug, not a wrong claim."""
    for rule in witness:
        rest = with_node_rules(puzzle, [r for r in core if r != rule])
        problems = verify(rest, witness[rule])
        if problems:
            raise VerificationFailure(f"a node core's witness fails the checker: "
                                      f"{problems[0]}")
    return tuple(witness[rule] for rule in core if rule in witness)


def _core_certificate(puzzle: Puzzle, core: Sequence[NodeRule], last: Answer | None,
                      limits: Limits) -> tuple[Certificate | None, str]:
    """The checked certificate that ``core``'s rules leave no walk: the one the search's
    last "unsolvable" carried (``last``, for exactly these rules), else one ``prove``
    makes within ``limits``; or why there is none."""
    from trailkit.solvers.pipeline.proving import prove

    if last is not None and last.certificate_checked and last.certificate is not None:
        return last.certificate, ""
    try:
        proof = prove(with_node_rules(puzzle, core), limits=limits)
    except UnsupportedPuzzle as exc:
        return None, f"no certificate: {exc}"
    if proof.status is Status.UNSOLVABLE and proof.certificate is not None:
        return proof.certificate, ""
    if proof.status is Status.SOLVED:
        raise VerificationFailure("a node core's rules were found to allow a walk")
    return None, f"no certificate within the limits: {proof.reason}"


def node_core_text(puzzle: Puzzle, core: NodeCore) -> str:
    """The core in words: its rules, why they leave no walk, and that each is needed."""
    n = len(core.rules)
    members = "; ".join(rule.describe(puzzle) for rule in core.rules)
    what = "A minimal core" if core.minimal else "A core"
    lines = [f"{what} ({n} of the {plural(core.total, 'node rule')}): no walk obeys all "
             f"of: {members}; even with every other node rule dropped (the edge rules all "
             "kept)."]
    if core.certificate is not None:
        lines.append(f"Why: {core.certificate.explanation} ({core.certificate.kind} "
                     "certificate accepted by the independent checker)")
    else:
        lines.append(f"Why: the {BACKEND} backend's search finds no walk (not certified: "
                     f"{core.why}).")
    if core.minimal:
        lines.append(f"Each of the {n} is needed: without any one of them a walk obeying "
                     "the others exists (each walk verified by the independent checker).")
    else:
        lines.append(f"{plural(core.undecided, 'member')} could not be tested within the "
                     f"limits (each test has its share of the time, at most "
                     f"{CALL_SECONDS:g} s), so the core is not called minimal; each other "
                     "member is needed (its walk without it verified by the independent "
                     "checker).")
    return "\n".join(lines)
