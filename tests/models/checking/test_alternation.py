"""The alternation certificate: sound on random red/blue puzzles, rejected when forged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from oracles import expected_walk

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.puzzle import ColourRule, EdgeUse, Puzzle
from trailkit.solvers.backends.direct.structural import alternation_certificate

ALTERNATE = ColourRule.from_transitions(["red", "blue"], {"red": ["blue"], "blue": ["red"]})


def alternating(edges: list[tuple[str, str, str]], closed: bool) -> Puzzle:
    return Puzzle.build(kind="walk", edges=edges, colours=ALTERNATE, closed=closed,
                        use=EdgeUse.EXACTLY_ONCE)


@st.composite
def red_blue_puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(st.integers(1, 4))
    node = st.sampled_from([f"n{i}" for i in range(n)])
    edges = draw(st.lists(st.tuples(node, node, st.sampled_from(["red", "blue"])),
                          min_size=1, max_size=6))
    return alternating(edges, draw(st.booleans()))


@given(red_blue_puzzles())
def test_certificate_is_sound_and_accepted(p: Puzzle) -> None:
    certificate = alternation_certificate(p)
    if certificate is not None:
        assert check_certificate(p, certificate) == []
        assert expected_walk(p) is None


def test_ring_with_a_recoloured_edge() -> None:
    ring = alternating([("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"),
                        ("d", "a", "red")], closed=True)
    certificate = alternation_certificate(ring)
    assert certificate is not None
    assert certificate.data["nodes"] == {"a": 2, "d": 2}
    assert check_certificate(ring, certificate) == []


def test_forged_alternation_certificates_are_rejected() -> None:
    fine = alternating([("a", "b", "red"), ("b", "c", "blue"), ("c", "d", "red"),
                        ("d", "a", "blue")], closed=True)
    assert alternation_certificate(fine) is None
    forged = Certificate("alternation", {"colours": ["red", "blue"], "nodes": {"a": 2}}, "")
    assert check_certificate(fine, forged)
    cycle = ColourRule.from_cycle(["red", "blue", "green"])
    three = Puzzle.build(kind="walk", edges=[("a", "b", "red")], colours=cycle,
                         use=EdgeUse.EXACTLY_ONCE, closed=True)
    assert check_certificate(three, forged)
