"""One Ctrl-C stops every backend, building or searching: exit 130, what was found printed.

Each test presses Ctrl-C when trailkit says the phase it wants to interrupt has begun
(:func:`ctrl_c.ctrl_c`: SIGINT to the whole process group, as a terminal does, or to
trailkit alone, as ``kill -INT`` does) and expects exit code 130, "interrupted" on
stderr, no traceback, and nothing of the session left running. How long the exit
takes is measured by ``tests/bench/bench_interrupts.py``; here it only has to happen
within a bound meant for a loaded machine.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from ctrl_c import assert_clean_interrupt, ctrl_c, write_slow_puzzles

from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.support import interrupts

# Ctrl-C at a moment a sign marks, and how soon the exit follows: on a machine of its own
# (the README's test command runs these after the parallel part; issue 30).
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "specs"


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_slow_puzzles(tmp_path_factory.mktemp("interrupts"))


# ------------------------------------------------------------------ solve
#: (backend, the puzzle whose search lasts, the name its signs give, extra options).
SEARCHES = [
    ("direct", "longest-k8", "direct", []),
    ("cpsat", "k12", "cpsat", ["--precheck", "off"]),
    ("sat", "k6", "cadical195", ["--precheck", "off"]),  # not interruptible: a child process
    ("sat:lingeling", "k6", "lingeling", ["--precheck", "off"]),  # not interruptible either
    ("sat:glucose4", "k6", "glucose4", ["--precheck", "off"]),  # interrupt() works
    ("sat/transition", "trail-200", "cadical195", []),
]
#: (backend, the puzzle whose formula takes long to build, the name its signs give).
BUILDS = [
    ("cpsat", "k61-ring", "cpsat"),
    ("sat", "trail-200", "cadical195"),
    ("sat:lingeling", "trail-200", "lingeling"),
    ("sat:glucose4", "trail-200", "glucose4"),
]


def test_every_registered_backend_is_interrupted_here() -> None:
    assert set(backend_names()) <= {backend for backend, *_ in SEARCHES}
    assert set(backend_names()) - {"direct"} <= {backend for backend, *_ in BUILDS}


@pytest.mark.parametrize(("backend", "puzzle", "who", "options"), SEARCHES,
                         ids=[case[0] for case in SEARCHES])
def test_one_ctrl_c_stops_the_search(puzzles: dict[str, str], backend: str, puzzle: str,
                                     who: str, options: list[str]) -> None:
    run = ctrl_c(["solve", puzzles[puzzle], "--backend", backend, "--crosscheck", "none",
                  *options], f"trailkit: solving with {who}")
    assert_clean_interrupt(run)


@pytest.mark.parametrize(("backend", "puzzle", "who"), BUILDS, ids=[case[0] for case in BUILDS])
def test_one_ctrl_c_stops_the_formula_building(puzzles: dict[str, str], backend: str,
                                               puzzle: str, who: str) -> None:
    run = ctrl_c(["solve", puzzles[puzzle], "--backend", backend, "--crosscheck", "none"],
                 f"trailkit: building with {who}")
    assert_clean_interrupt(run)
    assert "solving with" not in run.err  # it was stopped while building


@pytest.mark.parametrize("phase", ["building", "solving"])
def test_a_ctrl_c_sent_to_trailkit_alone_kills_its_solver_process(
        puzzles: dict[str, str], phase: str) -> None:
    """``kill -INT`` reaches the parent only: it must kill the CaDiCaL child itself."""
    puzzle = "trail-200" if phase == "building" else "k6"
    run = ctrl_c(["solve", puzzles[puzzle], "--backend", "sat", "--precheck", "off",
                  "--crosscheck", "none"], f"trailkit: {phase} with cadical195",
                 whole_group=False)
    assert_clean_interrupt(run)


def test_a_time_limit_and_a_ctrl_c_together(puzzles: dict[str, str]) -> None:
    for backend, who in (("sat", "cadical195"), ("sat:glucose4", "glucose4")):
        run = ctrl_c(["solve", puzzles["k6"], "--backend", backend, "--precheck", "off",
                      "--crosscheck", "none", "--time-limit", "600"],
                     f"trailkit: solving with {who}")
        assert_clean_interrupt(run)


def test_a_ctrl_c_after_cp_sat_has_run_is_still_an_interrupt(puzzles: dict[str, str]) -> None:
    """CP-SAT's own SIGINT handler, once it had run, left SIGINT at its default action:
    the next Ctrl-C (here in the direct cross-check) killed trailkit without a word."""
    run = ctrl_c(["solve", puzzles["longest-k6"], "--backend", "cpsat"],
                 "trailkit: solving with direct")
    assert "solving with cpsat" in run.err
    assert_clean_interrupt(run)


def test_a_ctrl_c_once_the_answer_is_out_changes_nothing(puzzles: dict[str, str]) -> None:
    """Pressed while the interpreter tears down a big formula, after the answer was
    printed: the exit code stays the answer's (it was a death by SIGINT, -2)."""
    run = ctrl_c(["solve", puzzles["trail-200"], "--backend", "sat/transition",
                  "--crosscheck", "none", "--json"], "trailkit: answered")
    assert run.code == 0, (run.code, run.err[-2000:])
    assert '"status": "solved"' in run.out or '"status":"solved"' in run.out, run.out[:300]
    assert "Traceback" not in run.err


# ------------------------------------------------------------------ the other commands
@pytest.mark.parametrize(("backend", "who"), [("direct", "direct"), ("cpsat", "cpsat"),
                                              ("sat", "cadical195"),
                                              ("sat:glucose4", "glucose4")])
def test_an_interrupted_count_says_at_least(puzzles: dict[str, str], backend: str,
                                            who: str) -> None:
    run = ctrl_c(["count", puzzles["k7-ring"], "--backend", backend, "--method", "enumerate"],
                 f"trailkit: solving with {who}")
    assert_clean_interrupt(run)
    assert "solutions:      at least " in run.out
    assert "solving with direct" not in run.err or backend == "direct"  # no cross-check


@pytest.mark.parametrize(("backend", "who"), [("sat", "cadical195"),
                                              ("sat:glucose4", "glucose4")])
def test_ctrl_c_stops_prove(puzzles: dict[str, str], backend: str, who: str) -> None:
    run = ctrl_c(["prove", puzzles["k6"], "--drup", "--backend", backend],
                 f"trailkit: solving with {who}")
    assert_clean_interrupt(run)


def test_ctrl_c_stops_compare_and_keeps_the_finished_rows(puzzles: dict[str, str]) -> None:
    koenigsberg = str(SPECS / "koenigsberg.yaml")
    run = ctrl_c(["compare", koenigsberg, puzzles["k6"], "--backends", "direct,sat",
                  "--precheck", "off"], f"trailkit: solving with sat on {puzzles['k6']}")
    assert_clean_interrupt(run)
    assert "interrupted after 3 of 4 runs" in run.err
    rows = [line.split() for line in run.out.splitlines()]
    assert sum(1 for row in rows if "unsolvable" in row) == 3  # the finished runs


def test_ctrl_c_stops_repair() -> None:
    run = ctrl_c(["repair", str(SPECS / "bench" / "hard-alternating-12-no.yaml")],
                 "trailkit: solving with cpsat")
    assert_clean_interrupt(run)


def test_ctrl_c_stops_explain(puzzles: dict[str, str]) -> None:
    run = ctrl_c(["explain", puzzles["k12"]], "trailkit: solving with cpsat")
    assert_clean_interrupt(run)


# ------------------------------------------------------------------ every slow path
ROOT_SPECS = {"hard-alternating": str(SPECS / "bench" / "hard-alternating-12-no.yaml"),
              "hard-balanced": str(SPECS / "bench" / "hard-balanced-12-no.yaml")}
#: (name, the command, the sign to press Ctrl-C at, what stdout must show after it):
#: the slowest path of each command, every one of them interrupted by one Ctrl-C.
SLOW_PATHS = [
    ("count exact K11", ["count", "{k11-ring}"], "solving with direct",
     "solutions:      at least "),
    ("count exact double-ten", ["count", "{double-ten}"], "solving with direct",
     "solutions:      at least "),
    ("count --failures", ["count", "{k12}", "--failures"], "solving with direct",
     "failures:       at least "),
    ("prove's first look", ["prove", "{hard-balanced}"], "solving with direct", ""),
    ("lint --expect", ["lint", "{hard-alternating}", "--expect"], "solving with cpsat", ""),
]


def _args(args: list[str], puzzles: dict[str, str]) -> list[str]:
    return [arg.format_map({**puzzles, **ROOT_SPECS}) for arg in args]


@pytest.mark.parametrize(("args", "sign", "shown"), [case[1:] for case in SLOW_PATHS],
                         ids=[case[0] for case in SLOW_PATHS])
def test_one_ctrl_c_stops_every_slow_path(puzzles: dict[str, str], args: list[str],
                                         sign: str, shown: str) -> None:
    """The compiled exact count never returned to Python: one Ctrl-C was ignored (still
    running 20 s after it; about 10 minutes by hand)."""
    run = ctrl_c(_args(args, puzzles), f"trailkit: {sign}")
    assert_clean_interrupt(run)
    assert shown in run.out, run.out[-2000:]


# ------------------------------------------------------------------ the mechanism
def test_a_stopped_call_returns_before_the_interrupt_is_raised() -> None:
    """The solver must not be freed under a call that still runs."""
    stopped = threading.Event()
    finished = []

    def call() -> None:
        os.kill(os.getpid(), signal.SIGINT)  # the Ctrl-C, while the call runs
        assert stopped.wait(10)
        time.sleep(0.1)  # a solver takes a moment to notice
        finished.append(True)

    with pytest.raises(KeyboardInterrupt):
        interrupts.run_stoppable(call, stopped.set)
    assert finished == [True]


def test_a_call_that_will_not_stop_is_left_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interrupts, "STOP_GRACE_S", 0.2)
    release = threading.Event()

    def call() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        release.wait(10)

    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        interrupts.run_stoppable(call, lambda: None)
    assert time.monotonic() - began < 5  # the interrupt goes on without it
    release.set()
    assert interrupts.run_stoppable(lambda: 42, lambda: None) == 42  # a fresh worker


def test_a_deadline_stops_the_call_and_returns_its_result() -> None:
    stopped = threading.Event()
    assert interrupts.run_stoppable(lambda: stopped.wait(10), stopped.set,
                                    timeout=0.05) is True


# ------------------------------------------------------------ counts inside commands
def _counts_stopped_by_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every count a command makes comes back as a count a Ctrl-C stopped (what the
    count does with a Ctrl-C: keep it, and say 'at least'), wherever it is made."""
    from trailkit.models.counts import CountResult
    from trailkit.solvers.backends import direct
    from trailkit.solvers.tools.design import figure_judge, inspection

    def stopped(*_: object, **__: object) -> CountResult:
        return CountResult.interrupted("direct", 0)

    monkeypatch.setattr(direct.DirectBackend, "count", stopped)
    monkeypatch.setattr(figure_judge, "exact_count", stopped)
    monkeypatch.setattr(inspection, "count", stopped)


@pytest.mark.parametrize("argv", [
    ["design", "trail", "--layout", "grid:3,3", "--solutions", "1000000..2000000",
     "--failures", "1..2", "--time-limit", "30"],
    ["design", "trail", "--layout", "grid:3,3", "--time-limit", "30"],
    ["inspect", str(SPECS / "nikolaus.yaml")],
])
def test_a_ctrl_c_inside_a_commands_count_stops_the_command(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``design trail --layout grid:8,8 --solutions 1000000..2000000 --failures 1..2``
    took a Ctrl-C in its judge's count for a figure too big to count and went on to the
    next figure, to its time limit; ``inspect`` interrupted in its measures' count
    ended with exit 0. A count stopped by a Ctrl-C stops the command: exit 130."""
    from trailkit.solvers.frontends.cli import main

    _counts_stopped_by_ctrl_c(monkeypatch)
    out = ["--out", str(tmp_path / "figure.yaml")] if argv[0] == "design" else []
    started = time.monotonic()
    assert main([*argv, *out]) == 130
    assert time.monotonic() - started < 25  # not the 30 s limit
    assert "interrupted" in capsys.readouterr().err
    assert not (tmp_path / "figure.yaml").exists()
