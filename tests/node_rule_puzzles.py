"""Random small puzzles with random edge and node rules, for the Hypothesis tests of
node rules (the verifier against the oracle, the pipeline's soundness).
"""

from __future__ import annotations

from hypothesis import strategies as st

from trailkit.models.puzzle import EdgeUse, NodeVisit, Puzzle

__all__ = ["node_rule_puzzles"]

NAMES = "abcde"


@st.composite
def node_rule_puzzles(draw: st.DrawFn) -> Puzzle:
    """A puzzle of 2-5 nodes and 0-5 edges with random edge and node rules."""
    n = draw(st.integers(2, 5))
    names = NAMES[:n]
    pair = st.tuples(st.sampled_from(names), st.sampled_from(names))
    edges = draw(st.lists(pair, max_size=5))
    subset = st.frozensets(st.sampled_from(names), max_size=2)
    given_nodes = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
    positions = draw(st.lists(st.integers(1, n + 1), min_size=len(given_nodes),
                              max_size=len(given_nodes), unique=True))
    ends = st.none() | st.frozensets(st.sampled_from(names), min_size=1, max_size=2)
    return Puzzle.build(
        nodes=names, edges=edges, directed=draw(st.lists(
            st.booleans(), min_size=len(edges), max_size=len(edges))),
        use=draw(st.sampled_from(list(EdgeUse))), closed=draw(st.booleans()),
        visit=draw(st.sampled_from(list(NodeVisit))), via=draw(subset), avoid=draw(subset),
        at=dict(zip(given_nodes, positions, strict=True)), start=draw(ends), end=draw(ends))
