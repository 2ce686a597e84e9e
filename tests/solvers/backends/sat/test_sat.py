"""The sat backend: valid answers on every kind, agreement with brute force and with
the direct backend, published counts, time limits, DIMACS round trips."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from budget import costly
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import all_walks, tiny_puzzles
from pysat.formula import CNF
from pysat.solvers import Solver

from trailkit.models.answer import Status, Walk
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.checking.verify import verify
from trailkit.models.errors import BackendUnavailable, TrailkitError, UnsupportedPuzzle
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.backends.sat import SatBackend, to_dimacs, walk_from_model
from trailkit.solvers.backends.sat.auto import choose_encoding

NIKOLAUS = ["ab", "ac", "bc", "bd", "be", "cd", "ce", "de"]
NIKOLAUS_X = ["ab", "ac", "bc", "bd", "bx", "cx", "ce", "xd", "xe", "de"]
RGB = ColourRule.from_cycle(["red", "blue", "green"])


def trail(edges: list[str], **rules) -> Puzzle:
    return Puzzle.build(kind="trail", edges=[tuple(e) for e in edges], **rules)


def dominoes(n: int) -> Puzzle:
    pairs = [(str(a), str(b)) for a in range(n + 1) for b in range(a, n + 1)]
    return Puzzle.build(kind="domino-chain", edges=pairs, closed=True)


def oracle_bound(puzzle: Puzzle) -> int:
    if puzzle.use is EdgeUse.ANY:
        return puzzle.num_nodes * (len(puzzle.colours.names) if puzzle.colours else 1)
    return puzzle.num_edges


def solution_count(puzzle: Puzzle, walks: list[Walk]) -> int:
    """The backend's counting rule: all walks (the shortest or longest only when asked)."""
    if walks and (puzzle.objective is Objective.SHORTEST or puzzle.wants_longest):
        pick = min if puzzle.objective is Objective.SHORTEST else max
        best = pick(len(w) for w in walks)
        return sum(1 for w in walks if len(w) == best)
    return len(walks)


# ------------------------------------------------------------------ examples
def test_nikolaus_counts_88_and_240() -> None:
    sat = SatBackend("")
    assert sat.count(trail(NIKOLAUS)).solutions == 88
    assert sat.count(trail(NIKOLAUS_X)).solutions == 240


@pytest.mark.parametrize("solver", ["", "glucose4", "maplechrono"])
def test_answers_verify_on_every_kind(solver: str) -> None:
    sat = SatBackend(solver)
    shortest = Objective.SHORTEST
    planks = [("A", "B", "red"), ("B", "C", "blue"), ("C", "A", "green"), ("A", "C", "red"),
              ("C", "D", "blue"), ("D", "T", "green")]
    cases = [
        trail(NIKOLAUS),
        dominoes(6),
        Puzzle.build(kind="colour-walk", edges=planks, colours=RGB, use=EdgeUse.ANY,
                     start=["A"], end=["T"], objective=shortest),
        Puzzle.build(kind="walk", edges=planks, colours=RGB, use=EdgeUse.AT_MOST_ONCE,
                     start=["B"], end=["T"], objective=shortest),
        Puzzle.build(kind="walk", edges=planks, colours=RGB, use=EdgeUse.ANY, closed=True,
                     objective=shortest),
        Puzzle.build(kind="walk", edges=[("a", "b"), ("b", "c"), ("c", "a")],
                     directed=[True, True, True], closed=True),
    ]
    for puzzle in cases:
        answer = sat.solve(puzzle)
        assert answer.status is Status.SOLVED, puzzle
        assert verify(puzzle, answer.walk) == []
    # the colour walk A-C(red) C-D(blue) D-T(green) is the shortest: 3 steps
    assert sat.solve(cases[2]).walk is not None and len(sat.solve(cases[2]).walk) == 3


def test_empty_walks() -> None:
    sat = SatBackend("")
    none = Puzzle.build(kind="trail", nodes=["a"], edges=[])
    assert sat.solve(none).walk == Walk((0,), ())
    here = Puzzle.build(kind="walk", edges=[("a", "b")], use=EdgeUse.ANY, start=["a"],
                        end=["a"], objective=Objective.SHORTEST)
    answer = sat.solve(here)
    assert answer.walk == Walk((0,), ()) and answer.optimal is True


def test_closed_colour_join_rule() -> None:
    # red, blue around a 2-cycle: closing needs red after blue, which the cycle forbids
    p = Puzzle.build(kind="walk", edges=[("a", "b", "red"), ("b", "a", "blue")], colours=RGB,
                     closed=True)
    answer = SatBackend("").solve(p)
    assert answer.status is Status.UNSOLVABLE


def test_unknown_solver_name_lists_the_available_ones() -> None:
    with pytest.raises(BackendUnavailable, match="glucose4"):
        get_backend("sat:nosuchsolver")
    assert get_backend("sat:glucose4").name == "sat:glucose4"
    assert get_backend("sat").name == "sat"


def test_failures_are_unsupported() -> None:
    with pytest.raises(UnsupportedPuzzle):
        SatBackend("").count(trail(NIKOLAUS), failures=True)


@pytest.mark.parametrize("solver", ["", "glucose4"])  # a forked child, and interrupt()
def test_time_limit_gives_unknown(solver: str) -> None:
    k6 = trail(["".join(p) for p in itertools.combinations("abcdef", 2)])  # all degrees odd
    answer = SatBackend(solver).solve(k6, Limits(time_limit=0.3))
    assert answer.status is Status.UNKNOWN
    assert "time limit" in answer.reason
    partial = SatBackend(solver).count(dominoes(6), Limits(time_limit=0.3))
    assert not partial.complete


def test_dimacs_round_trip() -> None:
    p = trail(NIKOLAUS)
    text = to_dimacs(p)
    assert "c 1 = edge 0 at position 0, orientation 0 (a->b)" in text
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as s:
        assert s.solve()
        model = "s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n"
    walk = walk_from_model(p, text, model)
    assert verify(p, walk) == []
    with pytest.raises(TrailkitError):
        walk_from_model(p, text, "s UNSATISFIABLE\n")


# ------------------------------------------------------------------ properties
@costly(0.3, "each example builds and solves a SAT formula")
@given(tiny_puzzles())
def test_agrees_with_brute_force(puzzle: Puzzle) -> None:
    sat = SatBackend("")
    bound = oracle_bound(puzzle)
    walks = list(all_walks(puzzle, min(bound, 6)))
    conclusive = bound <= 6
    answer = sat.solve(puzzle)
    if answer.status is Status.SOLVED:
        assert verify(puzzle, answer.walk) == []
        if puzzle.objective is Objective.SHORTEST:
            assert answer.optimal is True
            if walks:
                assert len(answer.walk) == min(len(w) for w in walks)
            else:
                assert len(answer.walk) > 6
    else:
        assert answer.status is Status.UNSOLVABLE
        assert not walks
        if answer.certificate is not None:
            assert check_certificate(puzzle, answer.certificate) == []
        elif "no edge can be taken" not in answer.reason:
            # no proof: the answer must say what it rests on, for a second backend
            assert puzzle.use is not EdgeUse.EXACTLY_ONCE, answer.reason
            assert "second backend should confirm" in answer.reason, answer.reason
    if conclusive:
        assert (answer.status is Status.SOLVED) == bool(walks)
        if puzzle.use is not EdgeUse.ANY:
            assert sat.count(puzzle).solutions == solution_count(puzzle, walks)


@costly(0.15, "each example builds and solves a SAT formula")
@given(tiny_puzzles(max_nodes=5, max_edges=7))
def test_agrees_with_direct(puzzle: Puzzle) -> None:
    direct = get_backend("direct")  # always registered: its absence is a failure
    expected = direct.solve(puzzle, Limits(time_limit=5))
    assume(expected.status is not Status.UNKNOWN)
    answer = SatBackend("").solve(puzzle)
    assert answer.status is expected.status
    if answer.walk is not None and puzzle.objective is Objective.SHORTEST:
        assert expected.walk is not None and len(answer.walk) == len(expected.walk)


# ------------------------------------------------- reusable walks: layered encoding
def shortest_walks(puzzle: Puzzle, max_len: int) -> list[Walk]:
    """Every shortest valid walk of at most ``max_len`` steps (by :func:`verify`).

    Independent of the encoder: extends walks one oriented edge at a time (a self-loop
    one way only), length by length, and stops at the first length with valid walks.
    """
    layer = [((v,), ()) for v in range(puzzle.num_nodes)]
    for _ in range(max_len + 1):
        valid = [Walk(n, e) for n, e in layer if not verify(puzzle, Walk(n, e))]
        if valid:
            return valid
        nxt = []
        for nodes, edges in layer:
            at = nodes[-1]
            for e in range(puzzle.num_edges):
                u, v = puzzle.tail[e], puzzle.head[e]
                if u == at:
                    nxt.append(((*nodes, v), (*edges, e)))
                if v == at and u != v and not puzzle.is_directed(e):
                    nxt.append(((*nodes, u), (*edges, e)))
        layer = nxt
    return []


@st.composite
def reusable_puzzles(draw):
    """Reusable-edge shortest-walk puzzles on few nodes, so parallel edges are common."""
    n = draw(st.integers(1, 3))
    names = "abc"[:n]
    m = draw(st.integers(1, 5))
    raw = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                        min_size=m, max_size=m))
    coloured = draw(st.booleans())
    edges = [(u, v, draw(st.sampled_from(["red", "blue"]))) if coloured else (u, v)
             for u, v in raw]
    directed = draw(st.lists(st.booleans(), min_size=m, max_size=m)) if draw(st.booleans()) \
        else None
    node_set = st.none() | st.sets(st.sampled_from(names), min_size=1).map(sorted)
    rule = ColourRule.from_cycle(["red", "blue"]) if coloured else None
    first = draw(st.none() | st.sets(st.sampled_from(["red", "blue"]), min_size=1).map(sorted)) \
        if coloured else None
    return Puzzle.build(kind="walk", nodes=names, edges=edges, directed=directed, colours=rule,
                        use=EdgeUse.ANY, start=draw(node_set), end=draw(node_set), first=first,
                        closed=draw(st.booleans()), objective=Objective.SHORTEST)


@costly(0.3, "each example builds and solves a SAT formula")
@given(reusable_puzzles())
def test_reusable_walks_and_counts_match_brute_force(puzzle: Puzzle) -> None:
    sat = SatBackend("")
    bound = oracle_bound(puzzle)  # at most 3 nodes × 2 phases: the oracle is conclusive
    walks = shortest_walks(puzzle, bound)
    answer = sat.solve(puzzle)
    assert (answer.status is Status.SOLVED) == bool(walks), answer.reason
    if walks:
        assert verify(puzzle, answer.walk) == [] and answer.optimal is True
        assert len(answer.walk) == len(walks[0])
    else:
        assert "layered" in answer.reason
    assert sat.count(puzzle).solutions == len(walks)


def test_parallel_edges_multiply_the_count() -> None:
    # a -> b by three red planks (one of them written b a), then b -> c by two blue ones
    edges = [("a", "b", "red"), ("b", "a", "red"), ("a", "b", "red"), ("b", "c", "blue"),
             ("c", "b", "blue"), ("a", "c", "green")]
    p = Puzzle.build(kind="colour-walk", edges=edges, colours=RGB, use=EdgeUse.ANY,
                     start=["a"], end=["c"], first=["red"], objective=Objective.SHORTEST)
    assert SatBackend("").count(p).solutions == 6
    answer = SatBackend("").solve(p)
    assert answer.optimal is True and len(answer.walk) == 2 and verify(p, answer.walk) == []


def test_closed_reusable_walk_needs_the_colour_join() -> None:
    # a-b red, b-a blue, a-a green: the shortest closed ring is red, blue, green (3 steps)
    p = Puzzle.build(kind="walk", edges=[("a", "b", "red"), ("b", "a", "blue"),
                                         ("a", "a", "green")], directed=[True, True, True],
                     colours=RGB, use=EdgeUse.ANY, closed=True, objective=Objective.SHORTEST)
    answer = SatBackend("").solve(p)
    assert answer.walk is not None and len(answer.walk) == 3 and verify(p, answer.walk) == []
    assert SatBackend("").count(p).solutions == 3  # the three rotations


def test_reusable_dimacs_round_trip() -> None:
    planks = [("A", "B", "red"), ("B", "C", "blue"), ("C", "A", "green"), ("C", "T", "red")]
    p = Puzzle.build(kind="colour-walk", edges=planks, colours=RGB, use=EdgeUse.ANY,
                     start=["A"], end=["T"], objective=Objective.SHORTEST)
    text = to_dimacs(p)
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as s:
        assert s.solve()
        model = "v " + " ".join(map(str, s.get_model())) + " 0\n"
    assert verify(p, walk_from_model(p, text, model)) == []


# --------------------------------------------------- which encoding plain sat builds
def dense_eulerian(m: int, n: int, seed: int, *, extra: tuple[str, str] | None = None
                   ) -> Puzzle:
    """A closed random walk of ``m`` steps on ``n`` nodes as a closed trail, each edge
    written in a random direction (many parallel edges; ``extra`` adds one edge)."""
    rng = random.Random(seed)
    walk = [rng.randrange(n) for _ in range(m)]
    edges = [(f"v{walk[i]}", f"v{walk[(i + 1) % m]}") for i in range(m)]
    edges = [(v, u) if rng.random() < 0.5 else (u, v) for u, v in edges]
    rng.shuffle(edges)
    return Puzzle.build(kind="trail", edges=edges + ([extra] if extra else []), closed=True)


DENSE = dense_eulerian(1000, 32, 1)  # position encoding: about 12,400 MB


@pytest.mark.slow
def test_small_puzzles_keep_the_position_encoding() -> None:
    answer = SatBackend("").solve(trail(NIKOLAUS), Limits(memory_mb=4096))
    assert answer.status is Status.SOLVED and answer.stats["encoding"] == "position"
    assert "small" in answer.stats["encoding_choice"]
    koenigsberg = trail(["ab", "ab", "ac", "ac", "ad", "bd", "cd"])
    answer = SatBackend("").solve(koenigsberg)
    assert answer.status is Status.UNSOLVABLE and answer.certificate is not None
    assert answer.certificate.data["encoding"] == "position-v1"
    assert check_certificate(koenigsberg, answer.certificate) == []


def test_a_dense_multigraph_gets_the_transition_encoding() -> None:
    """Before: "unknown: the position encoding would need about 12,400 MB"."""
    answer = SatBackend("").solve(DENSE, Limits(memory_mb=4096))
    assert answer.status is Status.SOLVED, answer.reason
    assert verify(DENSE, answer.walk) == []
    assert answer.stats["encoding"] == "transition"
    assert "over the memory limit of 4,096 MB" in answer.stats["encoding_choice"]
    forced = SatBackend("/position").solve(DENSE, Limits(memory_mb=4096))
    assert forced.status is Status.UNKNOWN and "position encoding would need" in forced.reason
    assert forced.stats["encoding"] == "position"


def test_a_much_larger_position_encoding_is_not_built_even_without_a_budget() -> None:
    p = dense_eulerian(400, 40, 2)
    choice = choose_encoding(p, None)
    assert choice.encoding == "transition" and "times the size" in choice.why
    assert choose_encoding(p, None).encoding == SatBackend("")._choice(p, Limits()).encoding
    assert choose_encoding(replace(p, use=EdgeUse.AT_MOST_ONCE), None).encoding == "position"


def test_proofs_follow_the_choice() -> None:
    odd = dense_eulerian(1000, 32, 3, extra=("v0", "v1"))  # two odd nodes, closed
    cert = SatBackend("").prove(odd, Limits(memory_mb=4096))
    assert cert is not None and cert.data["encoding"] == "transition-v2"
    assert check_certificate(odd, cert) == []
    assert SatBackend("/position").prove(odd, Limits(memory_mb=4096)) is None  # too big


def test_counts_with_parallel_edges_are_exact_whatever_the_encoding() -> None:
    """Counting uses the position encoding without symmetry breaking: each of the
    walks that differ only in which parallel edge they take counts."""
    p = trail(["ab", "ab", "bc", "cb", "ca", "ac"], closed=True)
    expected = len(list(all_walks(p, p.num_edges)))
    assert expected > 0
    for option in ("", "/transition", "/position"):
        assert SatBackend(option).count(p).solutions == expected
