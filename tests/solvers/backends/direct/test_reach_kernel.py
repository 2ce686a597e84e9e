"""The compiled (node, colour-phase) search against independent oracles at sizes the
brute force of ``tests/solvers/backends/direct/test_direct_reach.py`` cannot reach: NetworkX
shortest paths
over the product graph, the verifier and the certificate checker, and the same
kernels interpreted (``NUMBA_DISABLE_JIT=1``, in a subprocess) giving the very same
answers.
"""

from __future__ import annotations

import random
import textwrap

import networkx as nx
import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from oracles import jit_on_and_off

from trailkit.models.answer import Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.direct.reachability import solve_reusable

pytestmark = pytest.mark.usefixtures("compiled_kernels")

COLOURS = ("red", "blue", "green")


def plank_puzzle(seed: int, planks: int, tyres: int, *, one_way: bool = False) -> Puzzle:
    rng = random.Random(seed)
    return Puzzle(kind="colour-walk", nodes=tuple(f"t{i}" for i in range(tyres)),
                  tail=[rng.randrange(tyres) for _ in range(planks)],
                  head=[rng.randrange(tyres) for _ in range(planks)],
                  directed=[rng.random() < 0.3 for _ in range(planks)] if one_way else None,
                  colour=[rng.randrange(-1, 3) for _ in range(planks)], colour_names=COLOURS,
                  colours=ColourRule.from_cycle(COLOURS), use=EdgeUse.ANY,
                  start=frozenset({0}), end=frozenset({tyres - 1}),
                  objective=Objective.SHORTEST)


def product_graph_length(p: Puzzle) -> int | None:
    """Shortest walk length over (tyre, last colour) states, by NetworkX."""
    g = nx.DiGraph()
    assert p.colour is not None and p.start is not None and p.end is not None
    (s,), (t,) = p.start, p.end
    g.add_node("start")
    for e, (u, v, c) in enumerate(zip(p.tail, p.head, p.colour, strict=True)):
        if c < 0:
            continue
        ends = [(u, v)] if p.directed and p.directed[e] else [(u, v), (v, u)]
        for a, b in ends:
            g.add_edge((a, (c - 1) % 3), (b, c))
            if a == s:
                g.add_edge("start", (b, c))
    for c in range(3):
        g.add_edge((t, c), "goal")
    if s == t:
        return 0
    try:
        return len(nx.shortest_path(g, "start", "goal")) - 2
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


@costly(0.3, "each example runs both kernel variants and networkx")
@given(st.integers(0, 10**6), st.integers(1, 3000), st.integers(2, 1500), st.booleans())
def test_shortest_lengths_agree_with_networkx(seed: int, planks: int, tyres: int,
                                              one_way: bool) -> None:
    p = plank_puzzle(seed, planks, tyres, one_way=one_way)
    answer = solve_reusable(p, Limits())
    expected = product_graph_length(p)
    if expected is None:
        assert answer.status is Status.UNSOLVABLE and answer.certificate is not None
        assert check_certificate(p, answer.certificate) == []
    else:
        assert answer.status is Status.SOLVED and answer.walk is not None
        assert len(answer.walk) == expected
        assert verify(p, answer.walk) == []


ANSWERS_SCRIPT = textwrap.dedent("""
    import json, random
    from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.backends.direct.reachability import solve_reusable

    out = []
    rng = random.Random(11)
    for i in range(30):
        n, m = rng.randint(2, 30), rng.randint(1, 90)
        rule = ColourRule.from_cycle(["r", "g", "b"][: rng.randint(1, 3)]) if i % 4 else None
        p = Puzzle(kind="walk", nodes=tuple(map(str, range(n))),
                   tail=[rng.randrange(n) for _ in range(m)],
                   head=[rng.randrange(n) for _ in range(m)],
                   directed=[rng.random() < 0.3 for _ in range(m)],
                   colour=None if rule is None else
                   [rng.randrange(-1, len(rule.names)) for _ in range(m)],
                   colour_names=() if rule is None else rule.names, colours=rule,
                   use=EdgeUse.ANY, objective=Objective.SHORTEST, closed=i % 2 == 1,
                   start=frozenset(rng.sample(range(n), rng.randint(1, n))),
                   end=frozenset(rng.sample(range(n), rng.randint(1, n))))
        a = solve_reusable(p, Limits())
        walk = None if a.walk is None else [list(a.walk.nodes), list(a.walk.edges)]
        out.append([a.status.value, walk, a.certificate and a.certificate.data["states"]])
    print(json.dumps(out))
""")


def test_the_same_answers_with_the_jit_off() -> None:
    compiled, interpreted = jit_on_and_off(ANSWERS_SCRIPT)
    assert compiled == interpreted
    assert {status for status, _, _ in compiled} == {"solved", "unsolvable"}
