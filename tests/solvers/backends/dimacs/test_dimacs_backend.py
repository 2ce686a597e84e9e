"""The ``dimacs:COMMAND`` backend: real SAT solver programs where installed, and fake
ones (scripts written here) that lie, hang or are missing: a wrong model is exit code 4,
a bogus proof is no certificate, a hang is killed at the limit, a missing program is an
``unavailable`` row that says what to install."""

from __future__ import annotations

import json
import shutil
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from trailkit.models.answer import Status
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.errors import BackendUnavailable, VerificationFailure
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.dimacs import DimacsBackend
from trailkit.solvers.backends.dimacs.drat import read_drat
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve

ROOT = Path(__file__).resolve().parents[4]
NIKOLAUS = str(ROOT / "specs/nikolaus.yaml")
#: Unsolvable, but not by parity: the solver (not the pre-check) must refute it.
NO_WALK = str(ROOT / "specs/bench/small-alternating-6-no.yaml")
SOLVERS = ["cadical", "minisat", "picosat", "cryptominisat5"]


def fake_solver(tmp_path: Path, name: str, body: str) -> str:
    """A solver program ``tmp_path/name`` running the shell ``body`` (``$1``: the CNF,
    ``$2``: the proof file, when one is asked for)."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize("program", SOLVERS)
def test_real_solvers_solve_and_refute(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (apt-get install cadical minisat picosat "
                    "cryptominisat)")
    yes = solve(load_spec(NIKOLAUS), f"dimacs:{program}")
    assert yes.status is Status.SOLVED and yes.verified
    no = solve(load_spec(NO_WALK), f"dimacs:{program}", precheck=False)
    assert no.status is Status.UNSOLVABLE and no.certificate_checked


def test_cadical_proof_is_a_checked_drup_certificate_of_its_own() -> None:
    if shutil.which("cadical") is None:
        pytest.skip("CaDiCaL is not installed (apt-get install cadical)")
    answer = get_backend("dimacs:cadical").solve(load_spec(NO_WALK))
    assert answer.status is Status.UNSOLVABLE
    assert answer.certificate is not None and answer.certificate.kind == "drup"
    assert answer.certificate.data["solver"] == "dimacs:cadical"
    checked = solve(load_spec(NO_WALK), "dimacs:cadical", crosscheck=None, precheck=False)
    assert checked.certificate_checked and checked.certificate is not None
    assert checked.certificate.data["solver"] == "dimacs:cadical"


def test_a_model_that_breaks_the_rules_is_wrong_exit_4(tmp_path: Path) -> None:
    """Every variable true: no walk at all (many edges at each step)."""
    program = fake_solver(tmp_path, "liar", 'n=$(grep "^p cnf" "$1" | cut -d" " -f3)\n'
                          'echo "s SATISFIABLE"; echo "v $(seq -s " " 1 $n) 0"; exit 10')
    with pytest.raises(VerificationFailure, match="no walk"):
        solve(load_spec(NIKOLAUS), f"dimacs:{program}")
    assert main(["solve", NIKOLAUS, "--backend", f"dimacs:{program}"]) == 4


def test_compare_calls_a_lying_solver_wrong(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    program = fake_solver(tmp_path, "liar", 'echo "s SATISFIABLE"; echo "v 1 2 3 4 5 0"; '
                          "exit 10")
    code = main(["compare", NIKOLAUS, "--backends", f"direct,dimacs:{program}", "--json"])
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {row["backend"]: row["status"] for row in rows}[f"dimacs:{program}"] == "wrong"
    assert code == 4


def test_unsat_with_a_bogus_proof_gets_no_certificate_from_it(tmp_path: Path) -> None:
    """A solver named cadical is asked for a proof; this one writes a proof that proves
    nothing. The claim is then certified by the pipeline (or confirmed), never by it."""
    program = fake_solver(tmp_path, "cadical", 'printf "1 0\\n0\\n" > "$2"; '
                          'echo "s UNSATISFIABLE"; exit 20')
    puzzle = load_spec(NO_WALK)
    own = DimacsBackend(program).solve(puzzle)
    assert own.status is Status.UNSOLVABLE
    if own.certificate is not None:  # offered, as the sat backend offers its proofs
        assert check_certificate(puzzle, own.certificate)  # and rejected by the checker
    answer = solve(puzzle, f"dimacs:{program}", crosscheck=None, precheck=False)
    assert answer.status is Status.UNSOLVABLE
    assert answer.certificate is None or answer.certificate.data.get("solver") != \
        f"dimacs:{program}"


def test_an_unsat_claim_on_a_solvable_puzzle_is_a_disagreement(tmp_path: Path) -> None:
    program = fake_solver(tmp_path, "claims-unsat", 'echo "s UNSATISFIABLE"; exit 20')
    with pytest.raises(VerificationFailure):
        solve(load_spec(NIKOLAUS), f"dimacs:{program}")


def test_a_hanging_solver_is_killed_at_the_limit(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    program = fake_solver(tmp_path, "hangs", f'touch "{marker}"; exec sleep 600')
    began = time.perf_counter()
    answer = DimacsBackend(program).solve(load_spec(NIKOLAUS), Limits(time_limit=0.5))
    assert marker.exists()  # it really ran
    assert answer.status is Status.UNKNOWN and "time limit" in answer.reason
    assert time.perf_counter() - began < 0.5 + 10


def test_the_solver_program_runs_within_the_memory_limit(tmp_path: Path) -> None:
    """``--memory-limit 300`` let dimacs:cadical reach 451 MB: the child had no bound.
    Its address space is capped now (the fake reports the cap it was given)."""
    program = fake_solver(tmp_path, "reports-cap", "ulimit -v >&2; exit 1")
    answer = DimacsBackend(program).solve(load_spec(NIKOLAUS), Limits(memory_mb=300))
    assert answer.status is Status.UNKNOWN
    assert "its memory limit: 300 MB" in answer.reason
    assert answer.reason.rstrip().endswith(str(300 * 1024))  # ulimit -v: KB


def test_the_solver_program_is_killed_at_the_time_left(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The program is told no limit of its own, so it gets no grace past the time left
    (``dimacs:cadical --time-limit 3`` ran 6 s)."""
    from trailkit.solvers.backends import dimacs

    asked: list[tuple[float | None, float]] = []
    run = dimacs.run_program

    def spy(argv: list[str], time_limit: float | None, **options: Any) -> Any:
        asked.append((time_limit, options["grace"]))
        return run(argv, time_limit, **options)

    monkeypatch.setattr(dimacs, "run_program", spy)
    program = fake_solver(tmp_path, "unknown", 'echo "s UNKNOWN"; exit 0')
    DimacsBackend(program).solve(load_spec(NIKOLAUS), Limits(time_limit=30.0))
    assert asked and all(grace == 0 and left is not None and left <= 30.0
                         for left, grace in asked)


def test_missing_program_is_unavailable_saying_what_to_install(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BackendUnavailable, match="apt-get install cadical"):
        get_backend(f"dimacs:{tmp_path / 'no-such-solver'}")
    assert main(["solve", NIKOLAUS, "--backend", "dimacs:no-such-solver-here"]) == 2
    assert "apt-get install cadical" in capsys.readouterr().err
    main(["compare", NIKOLAUS, "--backends", "direct,dimacs:no-such-solver-here", "--json"])
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {row["backend"]: row["status"] for row in rows}["dimacs:no-such-solver-here"] == \
        "unavailable"


def test_command_with_flags(tmp_path: Path) -> None:
    """``dimacs:PATH FLAGS``: the flags come before the CNF."""
    log = tmp_path / "argv"
    program = fake_solver(tmp_path, "echoer", f'echo "$@" > "{log}"; echo "s UNKNOWN"; exit 0')
    answer = get_backend(f"dimacs:{program} --seed=7").solve(load_spec(NIKOLAUS))
    assert answer.status is Status.UNKNOWN
    assert log.read_text().split()[0] == "--seed=7"


def test_binary_and_text_drat_read_alike() -> None:
    text = b"1 -2 0\nd 1 -2 0\n-3 0\n0\n"
    binary = bytes([0x61, 2, 5, 0, 0x64, 2, 5, 0, 0x61, 7, 0, 0x61, 0])
    assert read_drat(text) == read_drat(binary) == ["1 -2 0", "d 1 -2 0", "-3 0", "0"]
    big = bytes([0x61, 0x80 | (400 & 0x7F), 400 >> 7, 0])  # literal 200: two bytes
    assert read_drat(big) == ["200 0"]


def test_a_proof_is_read_within_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading cadical's DRAT proof after it stopped took 1.2 s with no look at the
    clock (``--time-limit 3`` answered after 4.4 s): reading stops at the deadline, and
    the refutation is then not certified (the pipeline says unknown without a second
    opinion). A clock that jumps a minute at every look stands for a slow read."""
    import types

    from trailkit.solvers.backends.dimacs import drat

    if shutil.which("cadical") is None:
        pytest.skip("CaDiCaL is not installed (apt-get install cadical)")
    now = [time.monotonic()]

    def look() -> float:
        now[0] += 60.0
        return now[0]

    monkeypatch.setattr(drat, "time", types.SimpleNamespace(monotonic=look), raising=False)
    answer = get_backend("dimacs:cadical").solve(load_spec(NO_WALK), Limits(time_limit=30.0))
    assert answer.status is Status.UNSOLVABLE and answer.certificate is None
    assert "the time limit was reached after reading 0 lines of the proof" in answer.reason
    with pytest.raises(drat.DratTimeUp):
        read_drat(b"1 -2 0\n0\n", deadline=0.0)  # long past
    assert read_drat(b"1 -2 0\n0\n", deadline=None) == ["1 -2 0", "0"]


@pytest.mark.alone
def test_a_hard_refutation_keeps_its_time_limit() -> None:
    """``solve --backend dimacs:cadical --precheck off --time-limit 3`` on the hard
    balanced spec answered after 4.4-7.2 s: solver, proof reading and proof check now
    share the limit, timed around the whole process (a generous bound: a busy machine)."""
    import subprocess
    import sys

    if shutil.which("cadical") is None:
        pytest.skip("CaDiCaL is not installed (apt-get install cadical)")
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve",
                           str(ROOT / "specs/bench/hard-balanced-12-no.yaml"), "--backend",
                           "dimacs:cadical", "--precheck", "off", "--time-limit", "3"],
                          capture_output=True, text=True, timeout=120, check=False)
    wall = time.monotonic() - began
    assert done.returncode in (1, 3), done.stderr
    assert wall <= 3 + 1.5, f"{wall:.2f} s for --time-limit 3"


@pytest.mark.alone
@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "kill-INT"])
def test_one_ctrl_c_stops_the_outside_solver(tmp_path: Path, whole_group: bool) -> None:
    """Exit 130 and the solver program gone, also when the Ctrl-C reaches trailkit alone."""
    from ctrl_c import assert_clean_interrupt, ctrl_c

    pid_file = tmp_path / "pid"
    program = fake_solver(tmp_path, "hangs", f'echo $$ > "{pid_file}"; exec sleep 600')
    run = ctrl_c(["solve", NIKOLAUS, "--backend", f"dimacs:{program}", "--crosscheck", "none"],
                 f"trailkit: solving with dimacs:{program}", whole_group=whole_group)
    assert_clean_interrupt(run)
    if pid_file.exists():  # it had started: it must be gone
        pid = int(pid_file.read_text())
        assert not Path(f"/proc/{pid}").exists() or \
            Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
