"""The ``minizinc:SOLVER`` backend and ``export --format mzn``: the exported model is
accepted by MiniZinc as written and its solutions read back verify; every small bundled
spec gets the same answer as from the direct backend. (The behaviour every backend
shares, against the brute-force oracle, is tests/solvers/backends/test_backends.py's, over these
too.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from trailkit.models.answer import Status
from trailkit.models.checking.verify import verify
from trailkit.models.encodings.minizinc_model import minizinc_model
from trailkit.models.errors import BackendUnavailable
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve

ROOT = Path(__file__).resolve().parents[4]
#: Bundled specs small enough for every backend within seconds.
SMALL = sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("specs/dominoes/*.yaml"),
                *ROOT.glob("specs/tyre-puzzle/*.yaml"), *ROOT.glob("specs/bench/small-*.yaml")])
SMALL = [p for p in SMALL if p.name not in ("double-nine.yaml", "small-trail-10-no.yaml")]
needs_gecode = pytest.mark.skipif(shutil.which("minizinc") is None,
                                  reason="MiniZinc is not installed (apt-get install minizinc)")


@pytest.mark.parametrize("spec", SMALL, ids=lambda p: p.name)
def test_every_small_spec_gets_its_expected_answer(external_backend: Backend,
                                                  spec: Path) -> None:
    """The spec's ``expect:`` block (which the other backends meet: tests/test_specs.py)."""
    puzzle = load_spec(spec)
    answer = solve(puzzle, external_backend, Limits(time_limit=60), None, precheck=False)
    expect = dict(puzzle.expect or {})
    assert answer.status.value == expect["status"], answer.reason
    assert answer.verified
    if answer.optimal and "length" in expect:
        assert answer.length == expect["length"]


@needs_gecode
@pytest.mark.parametrize("spec", SMALL, ids=lambda p: p.name)
def test_exported_model_round_trips_through_gecode(spec: Path, tmp_path: Path) -> None:
    """``export --format mzn`` as written, solved by ``minizinc --solver gecode``: the
    ``succ`` array it prints, read back, is a walk the independent checker accepts (or
    MiniZinc says UNSATISFIABLE only where the spec expects no walk of a step or more)."""
    out = tmp_path / "model.mzn"
    assert main(["export", str(spec), "--format", "mzn", "--out", str(out)]) == 0
    done = subprocess.run(["minizinc", "--solver", "gecode", "--json-stream",
                           "--output-mode", "json", "--time-limit", "60000", str(out)],
                          capture_output=True, text=True, check=False)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert not [e for e in events if e["type"] == "error"], done.stdout
    solutions = [e for e in events if e["type"] == "solution"]
    puzzle = load_spec(spec)
    if solutions:
        walk = minizinc_model(puzzle).decode(solutions[-1]["output"]["json"]["succ"])
        assert verify(puzzle, walk) == []
    else:
        assert [e["status"] for e in events if e["type"] == "status"] == ["UNSATISFIABLE"]
        expect = dict(puzzle.expect or {})
        assert expect["status"] == "unsolvable" or expect.get("length") == 0


def test_unlisted_solver_is_unavailable_naming_what_is_listed() -> None:
    if shutil.which("minizinc") is None:
        pytest.skip("MiniZinc is not installed")
    with pytest.raises(BackendUnavailable, match="lists no solver 'no-such-solver'"):
        get_backend("minizinc:no-such-solver")


def test_minizinc_missing_from_path_is_unavailable(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BackendUnavailable, match="apt-get install minizinc"):
        get_backend("minizinc:gecode")
    assert main(["solve", str(ROOT / "specs/nikolaus.yaml"), "--backend",
                 "minizinc:gecode"]) == 2
    assert "apt-get install minizinc" in capsys.readouterr().err


@needs_gecode
def test_flattening_time_is_reported_apart_from_solving(
        capsys: pytest.CaptureFixture[str]) -> None:
    answer = get_backend("minizinc:gecode").solve(load_spec(ROOT / "specs/nikolaus.yaml"))
    assert answer.status is Status.SOLVED
    assert answer.stats["flatten_s"] is not None and answer.stats["flatten_s"] >= 0
    assert answer.stats["solve_s"] is not None and answer.stats["solve_s"] >= 0
    spec = str(ROOT / "specs/nikolaus.yaml")
    assert main(["solve", spec, "--backend", "minizinc:gecode"]) == 0
    assert "MiniZinc: flattening " in capsys.readouterr().out
    assert main(["solve", spec, "--backend", "minizinc:gecode", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["minizinc"]
    assert shown["flatten_s"] >= 0 and shown["solve_s"] >= 0


@needs_gecode
@pytest.mark.parametrize("spec", ["specs/nikolaus.yaml", "specs/tyre-puzzle/restored.yaml",
                                  "specs/dominoes/longest-train.yaml",
                                  "specs/bench/small-colour-walk-4-yes.yaml"])
def test_counts_agree_with_direct(spec: str) -> None:
    puzzle = load_spec(ROOT / spec)
    ours = get_backend("minizinc:gecode").count(puzzle, Limits(time_limit=60))
    theirs = get_backend("direct").count(puzzle)
    assert ours.complete, ours.reason
    assert ours.solutions == theirs.solutions


@needs_gecode
def test_time_limit_kills_minizinc_and_says_unknown() -> None:
    """A model Gecode cannot finish quickly (a big Euler circuit): the run stops at the
    limit and the answer is unknown, never a guess."""
    puzzle = load_spec(ROOT / "specs/bench/hard-dominoes-24-yes.yaml")
    answer = get_backend("minizinc:gecode").solve(puzzle, Limits(time_limit=1))
    assert answer.status in (Status.UNKNOWN, Status.SOLVED)
    if answer.status is Status.SOLVED:
        assert verify(puzzle, answer.walk) == []
    assert answer.time_s < 1 + 5


def fake_minizinc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """A ``minizinc`` on PATH that lists one solver, ``fake``, and runs ``body``."""
    script = tmp_path / "minizinc"
    script.write_text("#!/bin/sh\ncase \"$*\" in *--solvers-json*) "
                      "echo '[{\"id\": \"org.example.fake\", \"tags\": [\"cp\"]}]'; exit 0;; "
                      "esac\n" + body + "\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")


def test_a_solution_breaking_the_rules_is_wrong_exit_4(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk of one step (depot -> step 1 -> depot) leaves seven of Nikolaus' eight
    lines undrawn: the checker refuses it."""
    line = json.dumps({"type": "solution", "output": {"json": {"succ": [17, *range(2, 17), 1]}}})
    fake_minizinc(tmp_path, monkeypatch, f"echo '{line}'")
    assert main(["solve", str(ROOT / "specs/nikolaus.yaml"), "--backend", "minizinc:fake"]) == 4


def test_minizinc_that_ignores_its_time_limit_is_killed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As when flattening outlasts MiniZinc's own limit: trailkit stops it."""
    marker = tmp_path / "started"
    fake_minizinc(tmp_path, monkeypatch, f'touch "{marker}"; exec sleep 600')
    answer = get_backend("minizinc:fake").solve(load_spec(ROOT / "specs/nikolaus.yaml"),
                                                Limits(time_limit=0.5))
    assert marker.exists()
    assert answer.status is Status.UNKNOWN and "time limit" in answer.reason
    assert answer.time_s < 0.5 + 10


@needs_gecode
@pytest.mark.parametrize("spec", ["tyre-puzzle/restored.yaml", "nikolaus.yaml"])
def test_minizinc_runs_within_the_memory_limit(spec: str) -> None:
    """MiniZinc and its solver ran without a memory bound (only dimacs programs had
    one): capped at 40 MB, Gecode cannot even start, and that is an unknown answer
    naming the limit, not a missing backend (the tyre puzzle's model runs out while it
    is flattened; Nikolaus's is flattened, then Gecode's libraries cannot be loaded).
    Under a roomy cap the same puzzle is solved."""
    puzzle = load_spec(ROOT / "specs" / spec)
    backend = get_backend("minizinc:gecode")
    answer = backend.solve(puzzle, Limits(time_limit=60, memory_mb=40))
    assert answer.status is Status.UNKNOWN
    assert "memory limit: 40 MB" in answer.reason
    if spec == "nikolaus.yaml":  # Gecode solves the tyre puzzle in seconds, this at once
        roomy = backend.solve(puzzle, Limits(time_limit=60, memory_mb=4096))
        assert roomy.status is Status.SOLVED and roomy.length == 8
