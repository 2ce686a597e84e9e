"""The position encoding: the trusted definition of the formula a DRUP certificate refutes.

``encode(puzzle, length) -> (clauses, VarMap)`` is a pure function of the puzzle. It
lives in ``models/`` (what a puzzle *is*) because a ``drup`` certificate is a claim
about exactly this formula: the certificate checker
(:mod:`trailkit.models.checking.drup`) re-derives it from the spec and checks the proof
against it, and the SAT backend (:mod:`trailkit.solvers.backends.sat`) builds the formula it
solves through the same function. The code is deliberately plain, one clause family
per method, so that it can be read against the rules below; its guard is the test
that counts its models against brute-force enumeration of walks
(``tests/solvers/backends/sat/test_sat.py``).

The *position* encoding has one primary variable per (step ``t``, edge ``e``,
orientation ``o``): "step ``t`` walks edge ``e`` from its tail to its head" (``o = 0``)
or "from its head to its tail" (``o = 1``; only for two-way edges that are not
self-loops, so a self-loop or a one-way edge has a single orientation and every
walk has exactly one model on the primary variables). The clauses say:

* every step takes exactly one oriented edge (an at-least-one clause plus an
  at-most-one constraint from :mod:`pysat.card`);
* the edge-use rule: each edge exactly once / at most once across all steps
  (nothing for reusable edges); an uncoloured edge under a colour rule never;
* consecutive steps meet, and the colour rule holds between them, in one clause
  per oriented edge and step: ``x[t,e,o] -> OR x[t+1,f,o']`` over the oriented
  edges ``f`` that leave where ``e`` arrives with an allowed colour;
* the first step leaves an allowed start with an allowed first colour, the last
  step arrives at an allowed end, and a closed walk's last step leads back to the
  first step's node with the colour join allowed (same clause shape);
* symmetry breaking for closed exactly-once circuits with free endpoints: a circuit
  can be rotated to start with edge 0, so step 0 is fixed to edge 0 (either way).

Node and colour-phase states need no variables of their own: the previous step's
edge fixes both. :func:`encode_prefix` builds the same clauses with one activation
variable per step (``a[t]``: "the walk has more than ``t`` steps"), so an
incremental solver can ask for walks of length ``k`` under the assumptions
``a[k-1], -a[k]`` and find the shortest one without re-encoding.

:func:`encode_prefix` may be given the step literals to make (``allowed``): a step
literal left out is one its caller has shown false in every walk (the node formula's
distances to the givens, :mod:`trailkit.models.formulas.node_positions`), and every
clause reads as if it were false: it is dropped from the clauses that list it as a
possibility, and the clauses that speak of it being taken are not made.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")])
>>> clauses, vmap = encode(p, 2)
>>> vmap.describe(p, vmap.var(1, 1, 0))
'edge 1 at position 1, orientation 0 (b->c)'
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType

from trailkit.models.answer import Walk
from trailkit.models.puzzle import EdgeUse, Puzzle

__all__ = [
    "DEFAULT_CARDINALITY",
    "ENCODING_NAME",
    "VarMap",
    "encode",
    "encode_prefix",
    "symmetry_applies",
]

ENCODING_NAME = "position-v1"
"""Name and version of the encoding; stored in certificates so a checker re-encodes alike."""

CARDINALITIES: dict[str, int] = {
    "seqcounter": EncType.seqcounter,
    "ladder": EncType.ladder,
    "totalizer": EncType.totalizer,
    "pairwise": EncType.pairwise,
    "bitwise": EncType.bitwise,
    "cardnetwrk": EncType.cardnetwrk,
}
DEFAULT_CARDINALITY = "seqcounter"
"""Chosen by measurement (tests/bench/bench_sat.py): the sequential counter is as fast as
the ladder and totalizer on the bench instances and gives smaller proofs than pairwise."""

Clause = list[int]


@dataclass(frozen=True, slots=True)
class VarMap:
    """What the primary variables mean, so a model turns back into a walk.

    ``steps[var] = (t, e, o)``; ``active[t]`` is the activation variable of step ``t``
    (empty for a fixed-length encoding); ``num_vars`` counts every variable,
    auxiliary ones from the cardinality encoding included.
    """

    length: int
    steps: dict[int, tuple[int, int, int]]
    index: dict[tuple[int, int, int], int]
    active: tuple[int, ...] = ()
    num_vars: int = 0
    symmetry: bool = False
    cardinality: str = DEFAULT_CARDINALITY
    meta: dict[str, object] = field(default_factory=dict)

    def var(self, t: int, e: int, o: int) -> int:
        """The variable "step ``t`` walks edge ``e`` in orientation ``o``"."""
        return self.index[(t, e, o)]

    def describe(self, puzzle: Puzzle, var: int) -> str:
        """A person-readable meaning of ``var`` (used for DIMACS ``c`` lines)."""
        if var in self.steps:
            t, e, o = self.steps[var]
            u, v = _ends(puzzle, e, o)
            arrow = f"{puzzle.nodes[u]}->{puzzle.nodes[v]}"
            return f"edge {puzzle.edge_id(e)} at position {t}, orientation {o} ({arrow})"
        if var in self.active:
            t = self.active.index(var)
            return f"the walk has more than {t} steps"
        return "auxiliary (cardinality encoding)"

    def primary(self, model: Iterable[int]) -> list[int]:
        """The true primary variables of ``model`` (what identifies a walk), by step."""
        true = [lit for lit in model if lit > 0 and lit in self.steps]
        return sorted(true, key=lambda v: self.steps[v][0])

    def decode(self, puzzle: Puzzle, model: Iterable[int]) -> Walk:
        """Turn a model (a list of literals) into a :class:`Walk`.

        Raises ``ValueError`` if the model does not describe one oriented edge per step.
        """
        chosen = self.primary(model)
        if not chosen:
            raise ValueError("the model takes no step")
        by_step: dict[int, list[int]] = {}
        for v in chosen:
            by_step.setdefault(self.steps[v][0], []).append(v)
        steps = self.length if not self.active else max(by_step) + 1
        wrong = [f"step {t} takes no edge" if t not in by_step else
                 f"step {t} takes {len(by_step[t])} edges (variables "
                 f"{', '.join(map(str, by_step[t]))})"
                 for t in range(steps) if len(by_step.get(t, ())) != 1]
        if wrong:
            raise ValueError("the model does not take exactly one edge per step: "
                             + "; ".join(wrong[:5]) + ("; ..." if len(wrong) > 5 else ""))
        _, first_e, first_o = self.steps[chosen[0]]
        nodes = [_ends(puzzle, first_e, first_o)[0]]
        edges: list[int] = []
        for v in chosen:
            _, e, o = self.steps[v]
            a, b = _ends(puzzle, e, o)
            if a != nodes[-1]:
                names = puzzle.nodes
                raise ValueError(
                    f"step {len(edges)} (variable {v}) walks edge {puzzle.edge_id(e)} "
                    f"{names[a]}->{names[b]}, which does not leave node {names[nodes[-1]]}, "
                    f"where step {len(edges) - 1} ended")
            nodes.append(b)
            edges.append(e)
        return Walk(tuple(nodes), tuple(edges))


def symmetry_applies(puzzle: Puzzle, length: int) -> bool:
    """Whether step 0 may be fixed to edge 0: a closed exactly-once circuit with free
    endpoints and first colour, so every solution can be rotated to start with edge 0."""
    return (puzzle.use is EdgeUse.EXACTLY_ONCE and puzzle.closed and length > 0
            and length == puzzle.num_edges and puzzle.start is None and puzzle.end is None
            and puzzle.first is None)


def encode(puzzle: Puzzle, length: int, *, cardinality: str = DEFAULT_CARDINALITY,
           break_symmetry: bool = True) -> tuple[list[Clause], VarMap]:
    """Clauses whose models are exactly the walks of ``length`` steps (``length >= 1``).

    With ``break_symmetry`` (and :func:`symmetry_applies`) only the rotations of closed
    circuits that start with edge 0 remain; switch it off to count.
    """
    return _Builder(puzzle, length, cardinality, activation=False,
                    symmetry=break_symmetry and symmetry_applies(puzzle, length)).build()


def encode_prefix(puzzle: Puzzle, horizon: int, *,
                  cardinality: str = DEFAULT_CARDINALITY,
                  allowed: Container[tuple[int, int, int]] | None = None
                  ) -> tuple[list[Clause], VarMap]:
    """Clauses for walks of 1..``horizon`` steps; ``active[t]`` says step ``t`` is taken.

    Solve under ``[active[k-1], -active[k]]`` (just ``[active[horizon-1]]`` for the
    last) to ask for walks of exactly ``k`` steps. With ``allowed`` only the step
    literals ``(t, e, o)`` it holds are made, the others read as false (the module
    docstring): sound only when no walk takes them.
    """
    return _Builder(puzzle, horizon, cardinality, activation=True, symmetry=False,
                    allowed=allowed).build()


# ----------------------------------------------------------------- helpers
def _ends(puzzle: Puzzle, e: int, o: int) -> tuple[int, int]:
    u, v = puzzle.tail[e], puzzle.head[e]
    return (u, v) if o == 0 else (v, u)


class _Builder:
    """Builds one encoding; ``activation`` adds the per-step activation variables."""

    def __init__(self, puzzle: Puzzle, length: int, cardinality: str, *,
                 activation: bool, symmetry: bool,
                 allowed: Container[tuple[int, int, int]] | None = None) -> None:
        if length < 1:
            raise ValueError("an encoding needs at least one step; the empty walk is decided "
                             "without a solver")
        if cardinality not in CARDINALITIES:
            raise ValueError(f"unknown cardinality encoding {cardinality!r}; choose from "
                             f"{', '.join(CARDINALITIES)}")
        self.p = puzzle
        self.length = length
        self.card = cardinality
        self.symmetry = symmetry
        self.oriented = puzzle.oriented_edges()
        self.index: dict[tuple[int, int, int], int] = {}
        for t in range(length):
            for e, o in self.oriented:
                if allowed is None or (t, e, o) in allowed:
                    self.index[(t, e, o)] = len(self.index) + 1
        self.top = len(self.index)
        self.active: tuple[int, ...] = ()
        if activation:
            self.active = tuple(range(self.top + 1, self.top + 1 + length))
            self.top += length
        self.clauses: list[Clause] = []
        # oriented edges leaving each node
        self.leaving: list[list[tuple[int, int]]] = [[] for _ in range(puzzle.num_nodes)]
        for e, o in self.oriented:
            self.leaving[_ends(puzzle, e, o)[0]].append((e, o))

    def build(self) -> tuple[list[Clause], VarMap]:
        self._steps()
        self._edge_use()
        self._meet()
        self._ends()
        if self.symmetry:
            self.clauses.append([self.index[(0, 0, o)] for o in (0, 1) if (0, 0, o) in self.index])
        steps = {v: k for k, v in self.index.items()}
        return self.clauses, VarMap(self.length, steps, self.index, self.active, self.top,
                                    self.symmetry, self.card)

    # the pieces ------------------------------------------------------------
    def _colour(self, e: int) -> int:
        return -1 if self.p.colour is None else self.p.colour[e]

    def _x(self, t: int) -> list[int]:
        return [self.index[(t, e, o)] for e, o in self.oriented if (t, e, o) in self.index]

    def _unless_more(self, t: int) -> list[int] | None:
        """How a clause about "step ``t`` is the last" is guarded: ``None`` if it cannot
        be the last (fixed length, not the final step), else the literals that release
        the clause when the walk goes on (``[a[t+1]]``, or none for the final step)."""
        if not self.active:
            return [] if t == self.length - 1 else None
        return [self.active[t + 1]] if t + 1 < self.length else []

    def _atmost1(self, lits: Sequence[int]) -> None:
        if len(lits) < 2:
            return
        enc = CardEnc.atmost(list(lits), bound=1, top_id=self.top,
                             encoding=CARDINALITIES[self.card])
        self.clauses.extend(enc.clauses)
        self.top = max(self.top, enc.nv)

    def _steps(self) -> None:
        for t in range(self.length):
            xs = self._x(t)
            if self.active:
                a = self.active[t]
                self.clauses.append([-a, *xs])
                self.clauses.extend([-x, a] for x in xs)
                if t + 1 < self.length:
                    self.clauses.append([-self.active[t + 1], a])
            else:
                self.clauses.append(xs)
            self._atmost1(xs)

    def _edge_use(self) -> None:
        use = self.p.use
        by_edge: list[list[int]] = [[] for _ in range(self.p.num_edges)]
        for (_, e, _), v in self.index.items():
            by_edge[e].append(v)
        for lits in by_edge:
            if use is EdgeUse.EXACTLY_ONCE:
                self.clauses.append(lits)  # empty if the edge cannot be taken: unsatisfiable
            if use is not EdgeUse.ANY:
                self._atmost1(lits)

    def _followers(self, e: int, o: int) -> list[tuple[int, int]]:
        """The oriented edges that may follow edge ``e`` walked in orientation ``o``: they
        leave where it arrives, with a colour the rule allows after its colour."""
        at = _ends(self.p, e, o)[1]
        return [(f, o2) for f, o2 in self.leaving[at]
                if self.p.colour_may_follow(self._colour(e), self._colour(f))]

    def _meet(self) -> None:
        """Consecutive steps meet and obey the colour rule."""
        followers = {(e, o): self._followers(e, o) for e, o in self.oriented}
        for t in range(self.length - 1):
            for e, o in self.oriented:
                x = self.index.get((t, e, o))
                if x is None:
                    continue
                nxt = [self.index[(t + 1, f, o2)] for f, o2 in followers[(e, o)]
                       if (t + 1, f, o2) in self.index]
                guard = [-self.active[t + 1]] if self.active else []
                self.clauses.append([-x, *guard, *nxt])

    def _ends(self) -> None:
        p = self.p
        for e, o in self.oriented:
            u, v = _ends(p, e, o)
            bad_start = not p.may_start(u)
            bad_first = not p.may_come_first(self._colour(e))
            if (bad_start or bad_first) and (0, e, o) in self.index:
                self.clauses.append([-self.index[(0, e, o)]])
            back = [self.index[(0, f, o2)] for f, o2 in self._followers(e, o)
                    if (0, f, o2) in self.index] if p.closed else []
            for t in range(self.length):
                later = self._unless_more(t)
                x = self.index.get((t, e, o))
                if later is None or x is None:
                    continue
                if not p.may_end(v):
                    self.clauses.append([-x, *later])
                if p.closed:
                    self.clauses.append([-x, *later, *back])
