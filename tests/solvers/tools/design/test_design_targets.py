"""``design``'s difficulty targets (issue 34): traps and trap steps of colour walks;
drawings, failures and one start of one-stroke figures; each against an oracle written
here that knows no solver's tricks.

* Colour walks: a breadth-first search over (place, colour) situations
  (:func:`situations`) finds the traps, and every shortest walk, listed by plain
  enumeration of every colour-obeying walk of the shortest length, gives its trap steps.
* Figures: :func:`oracles.brute_tallies`, every walk enumerated from every start, gives
  the drawings, failures and the points that start a drawing.

Every design is read back and solved by every registered backend.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import brute_tallies

from trailkit.models.answer import Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.cli.app import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.design.fields import Field, grid_field, hex_field
from trailkit.solvers.tools.design.spec_out import design_spec_text
from trailkit.solvers.tools.design.states import summarise, trap_step_range
from trailkit.solvers.tools.design.trap_judge import trap_measures

State = tuple[int, int]  # (node, colour of the last step; -1 before the first)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def moves(p: Puzzle, s: State) -> list[tuple[int, State]]:
    """(plank, next situation) for every plank a walker in ``s`` may take next."""
    assert p.colours is not None and p.colour is not None
    v, last = s
    n = len(p.colours.names)
    out = []
    for e in range(p.num_edges):
        for a, b in ((p.tail[e], p.head[e]), (p.head[e], p.tail[e])):
            if a == v and (last < 0 or p.colour[e] == (last + 1) % n):
                out.append((e, (b, p.colour[e])))
    return out


def situations(p: Puzzle) -> tuple[set[State], set[State]]:
    """The situations reached from the start, and the traps among them (no way on to
    the goal), by breadth-first search forward and a fixpoint backward."""
    (start,), (goal,) = p.start, p.end  # type: ignore[misc]
    reached, queue = {(start, -1)}, deque([(start, -1)])
    while queue:
        for _, t in moves(p, queue.popleft()):
            if t not in reached:
                reached.add(t)
                queue.append(t)
    finishes = {s for s in reached if s[0] == goal}
    grew = True
    while grew:
        more = {s for s in reached if s not in finishes
                and any(t in finishes for _, t in moves(p, s))}
        finishes |= more
        grew = bool(more)
    return reached, reached - finishes


def shortest_walks(p: Puzzle) -> list[list[State]]:
    """Every shortest walk from start to goal, as its situations, by enumerating every
    colour-obeying walk of 1, 2, ... steps until some end at the goal (none: no walk
    within as many steps as there are situations)."""
    (start,), (goal,) = p.start, p.end  # type: ignore[misc]
    walks: list[list[State]] = [[(start, -1)]]
    for _ in range(len(situations(p)[0])):  # a shortest walk enters a new one each step
        walks = [[*w, t] for w in walks for _, t in moves(p, w[-1])]
        done = [w for w in walks if w[-1][0] == goal]
        if done:
            return done
    return []


def trap_steps(p: Puzzle, traps: set[State], walk: list[State]) -> int:
    return sum(1 for s in walk[:-1] if any(t in traps for _, t in moves(p, s)))


def assert_solved_by_every_backend(p: Puzzle) -> None:
    for backend in backend_names():
        answer = solve(p, backend, crosscheck=None)
        assert answer.status is Status.SOLVED and answer.verified, backend


# ------------------------------------------------------------ colour walks: traps
@given(st.sampled_from([hex_field(2, 3), grid_field(2, 3), hex_field(1, 4)]).flatmap(
    lambda f: st.tuples(st.just(f), st.lists(st.integers(-1, 2), min_size=len(f.pairs),
                                             max_size=len(f.pairs)))))
def test_both_trap_passes_match_the_oracle_on_any_colouring(case: tuple[Field, list[int]]
                                                            ) -> None:
    """The search's judge (trap_judge) and inspect's passes (states) against the
    oracle, on every kind of colouring (-1: no plank), solvable or not."""
    field, colour = case
    names = ("red", "blue", "green")
    goal = len(field.nodes) - 1
    planked = {v for (u, w), c in zip(field.pairs, colour, strict=True) if c >= 0
               for v in (u, w)}
    assume({0, goal} <= planked)  # a spec's start and goal are ends of some plank
    p = load_spec_text(design_spec_text(field, colour, names, start=0, goal=goal,
                                        made="test", claims=(), expect={}))
    reached, traps = situations(p)
    walks = shortest_walks(p)
    adj: list[list[tuple[int, int]]] = [[] for _ in field.nodes]
    for i, (u, v) in enumerate(field.pairs):
        adj[u].append((v, i))
        adj[v].append((u, i))
    judged = trap_measures(adj, colour, 3, 0, goal)
    summary = summarise(p)
    assert judged.traps == len(summary.traps) == len(traps)
    assert summary.reached == len(reached)
    if not walks:
        assert judged.length is None and summary.length is None
        return
    counts = [trap_steps(p, traps, w) for w in walks]
    assert judged.length == summary.length == len(walks[0]) - 1
    assert judged.walks == summary.shortest_walks == len(walks)
    assert judged.trap_steps == trap_step_range(summary) == (min(counts), max(counts))


@pytest.mark.parametrize(("seed", "traps", "steps"), [(0, "3..8", "1..3"), (1, "0..0", None),
                                                      (2, "10..20", "2..4")])
def test_designed_traps_and_trap_steps_match_a_search_of_the_situations(
        seed: int, traps: str, steps: str | None, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.yaml"
    args = ["design", "colour-walk", "--layout", "hex:3,3", "--min-length", "5",
            "--traps", traps, "--seed", str(seed), "--json", "--out", str(out)]
    code, text, err = run(args + (["--trap-steps", steps] if steps else []), capsys)
    assert code == 0, err
    made = json.loads(text)["designs"][0]
    p = load_spec(out)
    reached, found = situations(p)
    low, high = map(int, traps.split(".."))
    assert low <= len(found) <= high
    walks = shortest_walks(p)
    counts = [trap_steps(p, found, w) for w in walks]
    assert len(walks[0]) - 1 >= 5 and made["length"] == len(walks[0]) - 1
    if steps:
        a, b = map(int, steps.split(".."))
        assert all(a <= n <= b for n in counts)
    assert made["measures"] == {"traps": len(found), "trap_steps": [min(counts), max(counts)],
                                "situations": len(reached)}
    assert f"{len(found)} trap" in out.read_text()
    assert_solved_by_every_backend(p)
    code, text, _ = run(["inspect", str(out), "--json"], capsys)
    assert json.loads(text)["measures"]["traps"] == len(found)
    assert json.loads(text)["measures"]["trap_steps"] in counts


def test_thinned_designs_keep_tyres_left_without_planks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --thin a tyre may lose every plank: the spec still reads back, the tyre
    kept in its place (the old spec named it in layout: alone, an error)."""
    out = tmp_path / "d.yaml"
    code, _, err = run(["design", "colour-walk", "--layout", "grid:3,3", "--thin", "0.9",
                        "--seed", "1", "--out", str(out)], capsys)
    assert code == 0, err
    p = load_spec(out)
    planked = set(p.tail) | set(p.head)
    assert len(p.nodes) == 9 and len(planked) < 9 and set(p.layout or {}) == set(p.nodes)
    assert_solved_by_every_backend(p)


def test_impossible_trap_targets_end_in_exit_3_saying_what_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.yaml"
    code, text, _ = run(["design", "colour-walk", "--layout", "hex:1,7", "--traps", "30..40",
                         "--out", str(out)], capsys)
    assert code == 3 and "no colouring can have 30 traps" in text and "have 18" in text
    # 4 places: at most 9 situations away from the goal, and the walk needs some of them
    code, text, _ = run(["design", "colour-walk", "--layout", "grid:2,2", "--traps", "9..9",
                         "--time-limit", "0.5", "--out", str(out)], capsys)
    assert code == 3 and "lacks: it has" in text and "not 9 to 9" in text
    code, text, _ = run(["design", "colour-walk", "--layout", "hex:1,7", "--max-length", "4",
                         "--trap-steps", "6..9", "--out", str(out)], capsys)
    assert code == 3 and "no colouring can have 6 trap steps" in text
    assert not out.exists()


@pytest.mark.parametrize("bad", [["--traps", "5..2"], ["--traps", "many"],
                                 ["--trap-steps", "1..x"], ["--traps=-1..2"],
                                 ["--trap-steps", "2.5"]])
def test_bad_trap_ranges_exit_2(bad: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.yaml"
    code, _, err = run(["design", "colour-walk", "--layout", "hex:2,3", *bad, "--out",
                        str(out)], capsys)
    assert code == 2 and bad[0].split("=")[0] in err and "MIN..MAX" in err
    assert "Traceback" not in err and not out.exists()


# ----------------------------------------------------------- figures: counts, starts
def figure(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str,
           layout: str = "grid:3,3") -> tuple[dict[str, object], Puzzle, str]:
    out = tmp_path / "f.yaml"
    code, text, err = run(["design", "trail", "--layout", layout, *options, "--json",
                           "--out", str(out)], capsys)
    assert code == 0, err
    return json.loads(text)["designs"][0], load_spec(out), out.read_text()


@pytest.mark.parametrize("seed", [0, 1])
def test_figure_failures_in_range_by_brute_force(
        seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made, p, text = figure(tmp_path, capsys, "--solutions", "4..40", "--failures", "20..120",
                           "--seed", str(seed))
    tallies = brute_tallies(p).values()
    solutions = sum(t.solutions for t in tallies)
    failures = sum(t.failures for t in tallies)
    early = sum(t.early for t in tallies)
    assert 4 <= solutions <= 40 and 20 <= failures <= 120
    assert p.expect == {"status": "solved", "length": p.num_edges, "solutions": solutions,
                        "failures": failures, "early_failures": early}
    assert made["measures"]["failures"] == failures  # type: ignore[index]
    assert "failures: counted by direct's enumeration" in text and "not certified" in text
    assert_solved_by_every_backend(p)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_unique_start_figures_start_at_one_point_by_brute_force(
        seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made, p, text = figure(tmp_path, capsys, "--unique-start", "--solutions", "2..50",
                           "--seed", str(seed))
    starts = [p.nodes[s] for s, t in brute_tallies(p).items() if t.solutions]
    assert len(starts) == 1 and made["measures"]["starts"] == starts  # type: ignore[index]
    assert 2 <= sum(t.solutions for t in brute_tallies(p).values()) <= 50
    assert p.directed is not None and any(p.directed)
    assert f"every drawing starts at {starts[0]}" in text and "Certified: every" in text
    assert_solved_by_every_backend(p)


def test_figure_counts_are_certified_by_the_count_claim(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made, p, text = figure(tmp_path, capsys, "--solutions", "10..30", layout="grid:2,3")
    solutions = sum(t.solutions for t in brute_tallies(p).values())
    assert made["solutions"] == solutions and 10 <= solutions <= 30
    assert made["certificates"] == [{"claim": "count", "certificate": "best-formula",
                                     "checked": True}]
    assert f"# Certified: {solutions} one-stroke drawings" in text
    assert "# The expect: block: solutions certified by the count claim." in text


def test_figure_targets_no_figure_meets_exit_3(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "f.yaml"
    code, text, _ = run(["design", "trail", "--layout", "grid:2,2", "--failures", "500..600",
                         "--time-limit", "0.5", "--out", str(out)], capsys)
    assert code == 3 and "no figure with --solutions 1..1000000 --failures 500..600" in text
    assert "the last figure counted had" in text and not out.exists()


@pytest.mark.parametrize("bad", [["--failures", "9..3"], ["--failures", "x"],
                                 ["--failures=-2..4"]])
def test_bad_figure_ranges_exit_2(bad: list[str], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["design", "trail", "--layout", "grid:3,3", *bad, "--out",
                        str(tmp_path / "f.yaml")], capsys)
    assert code == 2 and "--failures" in err and "Traceback" not in err
