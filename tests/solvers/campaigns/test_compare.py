"""``trailkit compare``: rows in JSON and CSV, runs that hang, eat memory or crash, disagreement.

Misbehaving backends are test doubles registered for one test by monkeypatching the
registry; the comparison forks its workers, so they see the patched registry too.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trailkit.models.answer import Answer, Walk
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends import registry
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.campaigns import isolation as compare_module
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.support.files import atomic_write

TRIANGLE = "trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], [2, 3], [3, 1]]\n"
KOENIGSBERG = ("trailkit: 1\nkind: trail\n"
               "edges: [a b, a b, a c, a c, a d, b d, c d]\n")
# Shortest walk S-T is one red step; S-X-Y-T (red, blue, green) is a longer valid one.
TWO_ROUTES = ("trailkit: 1\nkind: colour-walk\nstart: S\ngoal: T\n"
              "edges: [S T red, S X red, X Y blue, Y T green]\n")

#: The folder of the shared test helpers, which a forked script imports too.
TESTS = Path(__file__).resolve().parents[2]


class SleepyBackend(Backend):
    """Hangs: never answers, whatever its time limit says. Its sign that it runs: the
    file named by ``SLEEPY_SIGN`` (when set) exists."""

    name = "sleepy"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        if os.environ.get("SLEEPY_SIGN"):
            Path(os.environ["SLEEPY_SIGN"]).write_text("running\n")
        time.sleep(60)
        raise AssertionError("unreachable")


class GreedyBackend(Backend):
    """Asks for far more memory than the worker may have."""

    name = "greedy"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        hoard = bytearray(2 * 1024**3)
        raise AssertionError(f"got {len(hoard)} bytes")


class DoomedBackend(Backend):
    """Dies abruptly, as a segfaulting C extension would."""

    name = "doomed"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        os._exit(3)


class LongWayBackend(Backend):
    """Returns a valid but not shortest walk of TWO_ROUTES and claims it is optimal."""

    name = "longway"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        index = {name: i for i, name in enumerate(puzzle.nodes)}
        walk = Walk.from_edges(puzzle, index["S"], [1, 2, 3])
        return Answer.solved(self.name, walk, optimal=True)


class LiarBackend(Backend):
    """Says every puzzle is unsolvable, without a certificate."""

    name = "liar"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        return Answer.unsolvable(self.name, None, reason="it just is")


@pytest.fixture
def fake_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the test doubles above under their names (for this test only)."""
    template = registry.BACKENDS["direct"]
    patched = dict(registry.BACKENDS)
    for cls in (SleepyBackend, GreedyBackend, DoomedBackend, LongWayBackend, LiarBackend):
        patched[cls.name] = dataclasses.replace(template, module=__name__, cls=cls.__name__)
    monkeypatch.setattr(registry, "BACKENDS", patched)
    monkeypatch.setattr(compare_module, "GRACE_S", 0.5)


def write_specs(folder: Path, **specs: str) -> Path:
    folder.mkdir(exist_ok=True)
    for name, text in specs.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def test_json_and_csv_rows_of_a_tiny_corpus(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_specs(tmp_path / "corpus", a_triangle=TRIANGLE, b_koenigsberg=KOENIGSBERG,
                         c_routes=TWO_ROUTES)
    out_json, out_csv = tmp_path / "rows.json", tmp_path / "rows.csv"
    base = ["compare", str(corpus), "--backends", "direct,cpsat", "--jobs", "2"]
    assert main([*base, "--json", "--out", str(out_json)]) == 0
    assert "a_triangle" in capsys.readouterr().out  # the table still goes to stdout
    document = json.loads(out_json.read_text())
    assert document["format"] == "trailkit-compare/1" and document["disagreements"] == []
    rows = document["rows"]
    got = [(Path(r["spec"]).stem, r["backend"], r["status"], r["length"], r["agrees"])
           for r in rows]
    assert got == [
        ("a_triangle", "direct", "solved", 3, True), ("a_triangle", "cpsat", "solved", 3, True),
        ("b_koenigsberg", "direct", "unsolvable", None, True),
        ("b_koenigsberg", "cpsat", "unsolvable", None, True),
        ("c_routes", "direct", "solved", 1, True), ("c_routes", "cpsat", "solved", 1, True)]
    assert set(rows[0]) == {f.name for f in dataclasses.fields(compare_module.Row)}
    assert all(r["time_s"] is not None and r["runs"] == 1 for r in rows)

    assert main([*base, "--csv", "--out", str(out_csv)]) == 0
    with out_csv.open() as handle:
        table = list(csv.DictReader(handle))
    assert [(Path(r["spec"]).stem, r["backend"], r["status"], r["agrees"]) for r in table] == \
        [(stem, b, s, "true") for stem, b, s, _, _ in got]
    assert all(len(r["time_s"].partition(".")[2]) <= 6 for r in table)


def test_a_hanging_backend_becomes_a_timeout_row(tmp_path: Path, fake_backends: None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_specs(tmp_path / "corpus", triangle=TRIANGLE)
    started = time.monotonic()
    code = main(["compare", str(corpus), "--backends", "sleepy,direct", "--time-limit", "0.5",
                 "--json"])
    assert time.monotonic() - started < 20
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["backend"], r["status"]) for r in rows] == [("sleepy", "timeout"),
                                                          ("direct", "solved")]
    assert code == 0  # a timeout is no disagreement


@pytest.mark.parametrize(("backend", "status"), [("greedy", "memout"), ("doomed", "crash")])
def test_memory_hogs_and_crashes_become_rows(tmp_path: Path, fake_backends: None,
                                             backend: str, status: str) -> None:
    spec = write_specs(tmp_path / "corpus", triangle=TRIANGLE) / "triangle.yaml"
    result = compare_module.run_one(str(spec), backend, Limits(time_limit=5), memory_mb=1024)
    assert result["status"] == status, result


@pytest.mark.parametrize("liar", ["longway", "liar"])
def test_disagreement_is_shown_and_exits_4(tmp_path: Path, fake_backends: None, liar: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_specs(tmp_path / "corpus", routes=TWO_ROUTES)
    code = main(["compare", str(corpus), "--backends", f"direct,{liar}"])
    out = capsys.readouterr().out
    assert code == 4
    assert "BACKENDS DISAGREE" in out
    assert " NO" in out


def test_an_unavailable_backend_is_a_row_not_a_failure(
        tmp_path: Path, ghost_backend: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_specs(tmp_path / "corpus", triangle=TRIANGLE)
    assert main(["compare", str(corpus), "--backends", "direct,ghost", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["backend"], r["status"]) for r in rows] == [("direct", "solved"),
                                                          ("ghost", "unavailable")]


def test_an_unreadable_spec_is_a_row_and_exit_2(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_specs(tmp_path / "corpus", triangle=TRIANGLE)
    (corpus / "broken.yaml").write_text("trailkit: 1\nkind: trail\nedges: [a b\n")
    code = main(["compare", str(corpus), str(tmp_path / "missing.yaml"), "--backends",
                 "direct", "--json"])
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert code == 2
    assert [(Path(r["spec"]).name, r["status"]) for r in rows] == [
        ("broken.yaml", "error"), ("triangle.yaml", "solved"), ("missing.yaml", "error")]
    assert all(r["detail"] for r in rows if r["status"] == "error")


def test_an_unreadable_spec_is_named_once_with_its_location(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table's note says the spec's located error once (not once per backend, and
    not "error: ... error:")."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("trailkit: 1\nkind: trail\nedges: [a b\n")
    code = main(["compare", str(broken), "--backends", "direct,cpsat"])
    out = capsys.readouterr().out
    assert code == 2
    notes = [line for line in out.splitlines() if "malformed YAML" in line]
    assert notes == [notes[0]] and notes[0].startswith(f"{broken}:3:8: error: ")
    assert notes[0].count("error") == 1


def test_unknown_backend_is_an_input_error(tmp_path: Path) -> None:
    corpus = write_specs(tmp_path / "corpus", triangle=TRIANGLE)
    assert main(["compare", str(corpus), "--backends", "direkt"]) == 2


def test_rows_reach_the_out_file_as_they_finish(tmp_path: Path, fake_backends: None) -> None:
    corpus = write_specs(tmp_path / "corpus", a=TRIANGLE, b=TRIANGLE)
    out = tmp_path / "rows.json"
    seen: list[int] = []

    def snapshot(rows: list[compare_module.Row]) -> None:
        atomic_write(out, json.dumps([dataclasses.asdict(r) for r in rows]))
        seen.append(len(json.loads(out.read_text())))  # the snapshot: a plain list

    specs = sorted(str(p) for p in corpus.iterdir())
    result = compare_module.compare(specs, ["direct"], Limits(), 1, snapshot)
    assert seen == [1, 2]
    assert not result.interrupted and result.runs_done == 2


def test_plot_needs_matplotlib_or_draws_two_files(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    corpus = write_specs(tmp_path / "corpus", triangle=TRIANGLE, koenigsberg=KOENIGSBERG)
    plot = tmp_path / "out.png"
    assert main(["compare", str(corpus), "--backends", "direct,cpsat", "--plot",
                 str(plot)]) == 0
    assert plot.stat().st_size > 0
    assert (tmp_path / "out-scatter.png").stat().st_size > 0


@pytest.mark.alone
def test_ctrl_c_keeps_every_finished_row(tmp_path: Path) -> None:
    """SIGINT while a run hangs: exit 130, the finished rows are in --out, workers gone."""
    corpus = write_specs(tmp_path / "corpus", a=TRIANGLE)
    out = tmp_path / "rows.json"
    script = (
        "import dataclasses, sys\n"
        f"sys.path[:0] = {[str(Path(__file__).parent), str(TESTS)]!r}\n"
        "from trailkit.solvers.backends import registry\n"
        "registry.BACKENDS['sleepy'] = dataclasses.replace(registry.BACKENDS['direct'], "
        "module='test_compare', cls='SleepyBackend')\n"
        "from trailkit.solvers.frontends.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n")
    sign = tmp_path / "sleepy-runs"
    process = subprocess.Popen(
        [sys.executable, "-c", script, "compare", str(corpus), "--backends", "direct,sleepy",
         "--time-limit", "60", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "SLEEPY_SIGN": str(sign)})
    deadline = time.monotonic() + 30
    while not (sign.exists() and out.exists() and out.read_text().strip()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)  # polling for the signs: the first row written, the worker runs
    assert sign.exists(), "the sleepy worker never started"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=15)
    assert process.returncode == 130, stderr
    assert "interrupted after 1 of 2 runs" in stderr
    rows = json.loads(out.read_text())["rows"]
    assert [(r["backend"], r["status"]) for r in rows] == [("direct", "solved")]
