"""Independent oracles shared by the tests: brute force that knows no solver's tricks.

:func:`brute_shortest` knows nothing of colour phases or state graphs: it extends
walks one edge at a time in every direction and asks
:func:`trailkit.models.verify.verify` whether the result still obeys the rules. Walks
that stand on the same node, began at the same node and have the same first and last
edge colours have the same futures under every rule, so only one of each such group
is kept per length; with ``distinct_edges`` nothing is merged and no edge repeats,
which makes it an exhaustive at-most-once (and exactly-once) search.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from typing import Any

from hypothesis import strategies as st

from trailkit.models.answer import Status, Walk
from trailkit.models.certificates import check_certificate
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.verify import verify

COLOURS = ("red", "blue", "green")
RGB = ColourRule.from_cycle(COLOURS)


@st.composite
def walk_puzzles(draw: Any, use: EdgeUse = EdgeUse.ANY, max_nodes: int = 4,
                 max_edges: int = 6, closed: bool | None = None) -> Puzzle:
    """Small random coloured multigraphs: mixed directions, random rules and ends."""
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, max_edges))
    c = draw(st.integers(1, 3))
    names = COLOURS[:c]
    rule_kind = draw(st.sampled_from(["none", "cycle", "table"]))
    rule: ColourRule | None = None
    if rule_kind == "cycle":
        rule = ColourRule.from_cycle(names)
    elif rule_kind == "table":
        table = {a: draw(st.lists(st.sampled_from(names), unique=True)) for a in names}
        rule = ColourRule.from_transitions(names, table)
    node = st.integers(0, n - 1)
    colour = st.integers(-1 if draw(st.booleans()) else 0, c - 1)
    tail = [draw(node) for _ in range(m)]
    head = [draw(node) for _ in range(m)]
    colours = [draw(colour) for _ in range(m)]
    directed = [draw(st.booleans()) for _ in range(m)] if draw(st.booleans()) else None
    subset = st.none() | st.frozensets(node, max_size=n)
    first = draw(st.none() | st.frozensets(st.integers(0, c - 1))) if rule else None
    return Puzzle(kind="walk", nodes=tuple(f"n{i}" for i in range(n)), tail=tail, head=head,
                  directed=directed, colour=colours, colour_names=names, use=use,
                  colours=rule, first=first, start=draw(subset), end=draw(subset),
                  closed=draw(st.booleans()) if closed is None else closed,
                  objective=Objective.SHORTEST)


def steps_from(p: Puzzle, at: int, *, respect_direction: bool = True) -> list[tuple[int, int]]:
    """Every (edge, next node) leaving ``at``; a self-loop is one step. With
    ``respect_direction=False`` one-way edges may be crossed backwards too (for
    searches that let ``verify`` judge every rule)."""
    out = []
    for e in range(p.num_edges):
        u, v = p.tail[e], p.head[e]
        if u == at:
            out.append((e, v))
        elif v == at and not (respect_direction and p.is_directed(e)):
            out.append((e, u))
    return out


def brute_shortest(p: Puzzle, bound: int, *, distinct_edges: bool = False) -> Walk | None:
    """A shortest walk of at most ``bound`` steps that ``verify`` accepts, or ``None``."""
    open_rules = dataclasses.replace(p, closed=False, end=None, use=EdgeUse.ANY)
    starts = range(p.num_nodes) if p.start is None else sorted(p.start)
    frontier = [w for w in (Walk((s,), ()) for s in starts) if not verify(open_rules, w)]
    colour = p.colour or [-1] * p.num_edges
    for _ in range(bound + 1):
        for w in frontier:
            if not verify(p, w):
                return w
        seen: set[Any] = set()
        following = []
        for w in frontier:
            for e, v in steps_from(p, w.nodes[-1], respect_direction=False):
                if distinct_edges and e in w.edges:
                    continue
                x = Walk((*w.nodes, v), (*w.edges, e))
                key: Any = ((x.nodes[0], x.edges) if distinct_edges else
                            (v, x.nodes[0], colour[x.edges[0]], colour[e]))
                if key not in seen and not verify(open_rules, x):
                    seen.add(key)
                    following.append(x)
        frontier = following
    return None


def reusable_bound(p: Puzzle) -> int:
    """Steps within which a shortest reusable walk exists if any does (states + 1)."""
    phases = (len(p.colours.names) if p.colours else 1) + 1
    return p.num_nodes * phases + 1


def assert_sound(p: Puzzle, answer: Any) -> None:
    """A solved answer verifies; an unsolvable one carries a certificate the checker accepts."""
    if answer.status is Status.SOLVED:
        assert verify(p, answer.walk) == []
    elif answer.status is Status.UNSOLVABLE and answer.certificate is not None:
        assert check_certificate(p, answer.certificate) == []
        assert answer.certificate.explanation




def expected_walk(p: Puzzle) -> Walk | None:
    """A shortest valid walk of any puzzle small enough to search by brute force."""
    if p.use is EdgeUse.ANY:
        return brute_shortest(p, reusable_bound(p))
    return brute_shortest(p, p.num_edges, distinct_edges=True)


def jit_on_and_off(script: str) -> tuple[Any, Any]:
    """Run ``script`` (which prints one JSON value) compiled and with
    ``NUMBA_DISABLE_JIT=1``, each in a fresh process; return both values, so a test can
    check that the compiled kernels and the same code interpreted agree. Kernels are
    compiled whatever the input's size (``COMPILE_FROM = 0``)."""
    prologue = "from trailkit.models import jit\njit.COMPILE_FROM = 0\n"

    def run(env: dict[str, str]) -> Any:
        done = subprocess.run([sys.executable, "-c", prologue + script], env=env,
                              check=True, capture_output=True, text=True)
        return json.loads(done.stdout)

    return run(dict(os.environ)), run({**os.environ, "NUMBA_DISABLE_JIT": "1"})


def once_walks(p: Puzzle) -> list[Walk]:
    """Every valid walk of ``p`` that uses each edge at most once (whatever ``p.use``
    says), judged by the verifier: for cores and longest walks."""
    relaxed = dataclasses.replace(p, use=EdgeUse.AT_MOST_ONCE)
    loose = dataclasses.replace(relaxed, closed=False, end=None)
    found: list[Walk] = []
    starts = range(p.num_nodes) if p.start is None else sorted(p.start)
    stack = [Walk((s,), ()) for s in starts]
    while stack:
        w = stack.pop()
        if verify(loose, w):
            continue
        if not verify(relaxed, w):
            found.append(w)
        for e, v in steps_from(p, w.nodes[-1], respect_direction=False):
            if e not in w.edges:
                stack.append(Walk((*w.nodes, v), (*w.edges, e)))
    return found
