"""``trailkit compare --db``: every run in SQLite as it ends, resume, reruns, two campaigns
on one file, CPU time and the limit that ended a run.

The misbehaving backends are test doubles registered by monkeypatching the registry (the
workers are forked, so they see it); a client run as its own process registers them in
the script it runs (:data:`SCRIPT`).
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from trailkit.models.answer import Answer
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends import registry
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.campaigns import isolation
from trailkit.solvers.campaigns.campaign import _record
from trailkit.solvers.campaigns.plan import options_json, plan, spec_sha256
from trailkit.solvers.campaigns.store import COLUMNS, RunRow, open_store
from trailkit.solvers.frontends.cli import main

TRIANGLE = "trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], [2, 3], [3, 1]]\n"
KOENIGSBERG = ("trailkit: 1\nkind: trail\nedges: [a b, a b, a c, a c, a d, b d, c d]\n")
SQUARE = "trailkit: 1\nkind: trail\nedges: [a b, b c, c d, d a]\n"
PATH3 = "trailkit: 1\nkind: trail\nedges: [a b, b c, c d]\n"
#: The columns CONTRACT 1.2 §5 pins for the table ``runs``.
CONTRACT_COLUMNS = ("spec", "spec_sha256", "backend", "options", "repeat", "status", "wall_s",
                    "cpu_s", "peak_mb", "decided_by", "length", "optimal", "certificate",
                    "host", "started_at", "trailkit_version")
HANG = "TRAILKIT_TEST_HANG"

#: The folder of the shared test helpers, which a forked script imports too.
TESTS = Path(__file__).resolve().parents[2]


class NapperBackend(Backend):
    """Hangs on puzzles of ``TRAILKIT_TEST_HANG`` edges, else answers as ``direct`` does."""

    name = "napper"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        while os.environ.get(HANG) == str(puzzle.num_edges):
            time.sleep(0.05)
        return dataclasses.replace(get_backend("direct").solve(puzzle, limits),
                                   backend=self.name)


class SpinnerBackend(Backend):
    """Burns processor time and never answers."""

    name = "spinner"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        while True:
            pass


class DoomedBackend(Backend):
    """Dies abruptly, as a segfaulting C extension would."""

    name = "doomed"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        os._exit(3)


DOUBLES = (NapperBackend, SpinnerBackend, DoomedBackend)
SCRIPT = (
    "import dataclasses, sys\n"
    f"sys.path[:0] = {[str(Path(__file__).parent), str(TESTS)]!r}\n"
    "from trailkit.solvers.backends import registry\n"
    "for name in ('napper', 'spinner', 'doomed'):\n"
    "    registry.BACKENDS[name] = dataclasses.replace(registry.BACKENDS['direct'], "
    "module='test_campaigns', cls=name.title() + 'Backend')\n"
    "from trailkit.solvers.frontends.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n")


@pytest.fixture
def doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the test doubles above under their names (for this test only)."""
    patched = dict(registry.BACKENDS)
    for cls in DOUBLES:
        patched[cls.name] = dataclasses.replace(registry.BACKENDS["direct"], module=__name__,
                                                cls=cls.__name__)
    monkeypatch.setattr(registry, "BACKENDS", patched)
    monkeypatch.setattr(isolation, "GRACE_S", 0.5)


def corpus(folder: Path, **specs: str) -> Path:
    folder.mkdir(exist_ok=True)
    for name, text in specs.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def runs(db: Path) -> list[dict[str, object]]:
    """The rows of a campaign file, read with a connection of its own."""
    store = open_store(db, create=False)
    try:
        return store.rows()
    finally:
        store.close()


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


def keys(rows: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(r["spec_sha256"], r["backend"], r["options"], r["repeat"]) for r in rows]


def client(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``trailkit ARGS`` in a process of its own, with the test doubles registered."""
    return subprocess.Popen([sys.executable, "-c", SCRIPT, *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})


def test_every_run_is_a_row_and_a_rerun_runs_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=KOENIGSBERG)
    db = tmp_path / "runs.sqlite"
    command = ["compare", str(specs), "--backends", "direct,cpsat", "--repeat", "2",
               "--db", str(db), "--json"]
    assert main(command) == 0
    first = json.loads(capsys.readouterr().out)
    rows = runs(db)
    assert len(rows) == 2 * 2 * 2 and len(set(keys(rows))) == 8
    assert set(CONTRACT_COLUMNS) <= set(rows[0]) and set(rows[0]) == {c for c, _ in COLUMNS}
    by = {(Path(str(r["spec"])).stem, r["backend"], r["repeat"]): r for r in rows}
    assert {k: r["status"] for k, r in by.items()} == {
        (s, b, n): "solved" if s == "a" else "unsolvable"
        for s in "ab" for b in ("direct", "cpsat") for n in (0, 1)}
    assert by[("a", "direct", 0)]["length"] == 3 and by[("a", "direct", 0)]["optimal"] is None
    assert by[("b", "direct", 1)]["certificate"] == "parity"
    for row in rows:
        assert row["cpu_s"] is not None and row["wall_s"] is not None and row["peak_mb"]
        assert json.loads(str(row["options"]))["precheck"] is True
        assert str(row["started_at"]).endswith("+00:00") and row["trailkit_version"]
    assert integrity(db) == "ok"

    assert main(command) == 0  # nothing missing: nothing runs, the same rows come back
    again = capsys.readouterr()
    assert "0 run(s) written" in again.err and "8 kept from earlier" in again.err
    assert json.loads(again.out) == first
    assert runs(db) == rows


def test_rerun_failed_redoes_crashes_only(tmp_path: Path, doubles: None,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    db = tmp_path / "runs.sqlite"
    command = ["compare", str(specs), "--backends", "direct,doomed", "--db", str(db)]
    assert main(command) == 0
    before = {r["backend"]: r for r in runs(db)}
    assert before["doomed"]["status"] == "crash" and before["direct"]["status"] == "solved"
    capsys.readouterr()
    assert main([*command, "--rerun", "failed"]) == 0
    assert "1 run(s) written" in capsys.readouterr().err
    after = {r["backend"]: r for r in runs(db)}
    assert len(runs(db)) == 2 and after["direct"] == before["direct"]
    assert after["doomed"]["started_at"] >= before["doomed"]["started_at"]  # type: ignore[operator]
    assert main([*command, "--rerun", "all"]) == 0
    assert "2 run(s) written" in capsys.readouterr().err
    assert len(runs(db)) == 2


def test_the_row_and_result_types_name_every_key(tmp_path: Path) -> None:
    """RunRow lists the columns of ``runs`` in their order, and a real run's result and
    row hold no key their TypedDicts do not name (issue 31: typed rows)."""
    assert list(RunRow.__annotations__) == [name for name, _ in COLUMNS]
    spec = tmp_path / "a.yaml"
    spec.write_text(KOENIGSBERG)
    result = isolation.run_one(str(spec), "direct", Limits(time_limit=60))
    assert result["status"] == "unsolvable" and result["certificate"] == "parity"
    assert set(result) <= isolation.RunResult.__required_keys__ | \
        isolation.RunResult.__optional_keys__
    options = options_json(Limits(time_limit=60), precheck=True)
    key = plan([str(spec)], ["direct"], options, 1, {str(spec): spec_sha256(str(spec))})[0]
    row = _record(key, result, 60.0)
    assert set(row) == set(RunRow.__annotations__) - {"row_sha256"}


def test_rerun_needs_a_db(tmp_path: Path) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    assert main(["compare", str(specs), "--backends", "direct", "--rerun", "all"]) == 2


def test_the_limit_that_ended_a_run_is_named(tmp_path: Path, doubles: None) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    cpu_db = tmp_path / "cpu.sqlite"
    assert main(["compare", str(specs), "--backends", "spinner", "--db", str(cpu_db),
                 "--time-limit", "30", "--cpu-limit", "1"]) == 0
    (cpu,) = runs(cpu_db)
    assert (cpu["status"], cpu["limit_hit"]) == ("timeout", "cpu")
    assert 0.5 <= float(cpu["cpu_s"]) < 10 and "processor time" in str(cpu["detail"])  # type: ignore[arg-type]
    assert json.loads(str(cpu["options"]))["cpu_limit"] == 1.0


def test_a_hanging_run_ends_at_the_wall_limit(tmp_path: Path, doubles: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HANG, "3")
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    db = tmp_path / "runs.sqlite"
    assert main(["compare", str(specs), "--backends", "napper", "--db", str(db),
                 "--time-limit", "0.5"]) == 0
    (row,) = runs(db)
    assert (row["status"], row["limit_hit"]) == ("timeout", "wall")
    assert float(row["cpu_s"]) < float(row["wall_s"])  # type: ignore[arg-type]
    # the limit the user gave, not the wall limit with its grace ("within 6 s" before)
    assert str(row["detail"]).startswith("no answer within the time limit of 0.5 s")


def test_a_killed_client_loses_no_finished_run(tmp_path: Path) -> None:
    """SIGKILL the client while a run hangs (its sign on stderr), rerun: every finished
    run is kept once, the missing ones run, the file is sound."""
    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=SQUARE, c=KOENIGSBERG)
    db = tmp_path / "runs.sqlite"
    command = ["compare", str(specs), "--backends", "direct,napper", "--db", str(db)]
    process = client(*command, env={HANG: "4", "TRAILKIT_TEST_SIGNS": "1"})  # b: SQUARE
    assert process.stderr is not None
    solving = []
    for line in process.stderr:  # a.yaml's runs, then b's: napper hangs on b
        solving += [line] if line.startswith("trailkit: solving with") else []
        if "napper on" in line and "b.yaml" in line:
            break
    process.kill()
    process.wait(timeout=30)
    finished = runs(db)
    assert [(Path(str(r["spec"])).stem, r["backend"]) for r in finished] == [
        ("a", "direct"), ("a", "napper"), ("b", "direct")]
    assert integrity(db) == "ok"

    rerun = client(*command)
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert "3 run(s) written" in err and "3 kept from earlier" in err
    rows = runs(db)
    assert len(rows) == 6 and len(set(keys(rows))) == 6
    assert rows[:3] == finished  # the finished rows, untouched
    assert integrity(db) == "ok"


def test_two_campaigns_on_one_file_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=SQUARE, c=KOENIGSBERG, d=PATH3)
    db = tmp_path / "runs.sqlite"
    command = ["compare", str(specs), "--backends", "direct,cpsat", "--db", str(db)]
    first, second = client(*command), client(*command, "--repeat", "2")
    for process in (first, second):
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    rows = runs(db)
    assert len(rows) == len(set(keys(rows))) == 4 * 2 * 2  # repeat 0 once, repeat 1 once
    assert {r["status"] for r in rows} == {"solved", "unsolvable"}
    assert integrity(db) == "ok"


def _open_at_once(path: str, start: Any, results: Any) -> None:
    """One campaign opening ``path`` the moment the others do; says how it went."""
    start.wait()
    try:
        open_store(path).close()
        results.put("ok")
    except Exception as exc:  # the message is the test's evidence
        results.put(str(exc))


def test_campaigns_that_create_one_file_at_once_all_open_it(tmp_path: Path) -> None:
    """Switching a new file to WAL does not wait on SQLite's busy handler: before the
    retry, about one round in four failed with "database is locked"."""
    fork = multiprocessing.get_context("fork")
    for attempt in range(30):
        path = str(tmp_path / f"runs{attempt}.sqlite")
        start, results = fork.Barrier(4), fork.Queue()
        workers = [fork.Process(target=_open_at_once, args=(path, start, results))
                   for _ in range(4)]
        for worker in workers:
            worker.start()
        said = [results.get(timeout=120) for _ in workers]
        for worker in workers:
            worker.join(timeout=120)
        assert said == ["ok"] * 4, said
        assert integrity(Path(path)) == "ok"


def test_out_json_and_csv_come_from_the_same_rows(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=KOENIGSBERG)
    db, out = tmp_path / "runs.sqlite", tmp_path / "rows.json"
    assert main(["compare", str(specs), "--backends", "direct", "--db", str(db), "--out",
                 str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(Path(r["spec"]).stem, r["status"]) for r in rows] == [("a", "solved"),
                                                                  ("b", "unsolvable")]
    capsys.readouterr()
    assert main(["compare", str(specs), "--backends", "direct", "--db", str(db), "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("spec,backend,status") and len(lines) == 3


def test_the_progress_line_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal, stderr shows runs done by status, the time so far and what is left."""
    import pty

    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=KOENIGSBERG)
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, "compare", str(specs),
                                "--backends", "direct", "--db", str(tmp_path / "r.sqlite")],
                               stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal's other end closed: the process is done
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0
    text = seen.decode()
    assert "1/2 runs: 1 solved; " in text and "about " in text and " left" in text
    assert "2/2 runs: 1 solved, 1 unsolvable; " in text


def test_an_unavailable_backend_is_a_row_and_tried_again(
        tmp_path: Path, ghost_backend: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    db = tmp_path / "runs.sqlite"
    command = ["compare", str(specs), "--backends", "direct,ghost", "--db", str(db), "--json"]
    assert main(command) == 0
    first = capsys.readouterr()
    assert "backend ghost is unavailable" in first.err
    assert [(r["backend"], r["status"]) for r in json.loads(first.out)["rows"]] == [
        ("direct", "solved"), ("ghost", "unavailable")]
    assert main(command) == 0  # ghost is looked for again; direct is not run again
    again = capsys.readouterr()
    assert "backend ghost is unavailable" in again.err and "1 kept from earlier" in again.err
    assert sorted((r["backend"], r["status"]) for r in runs(db)) == [
        ("direct", "solved"), ("ghost", "unavailable")]
    assert main(["compare", str(specs), "--backends", "direct,ghots", "--db", str(db)]) == 2


@pytest.mark.alone
def test_ctrl_c_keeps_the_finished_rows_and_exits_130(tmp_path: Path) -> None:
    import signal

    specs = corpus(tmp_path / "corpus", a=TRIANGLE, b=SQUARE)
    db = tmp_path / "runs.sqlite"
    process = client("compare", str(specs), "--backends", "direct,napper", "--db", str(db),
                     env={HANG: "4", "TRAILKIT_TEST_SIGNS": "1"})
    assert process.stderr is not None
    for line in process.stderr:
        if "napper on" in line and "b.yaml" in line:
            break
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "interrupted after 3 of 4 runs" in err
    assert [(Path(str(r["spec"])).stem, r["backend"]) for r in runs(db)] == [
        ("a", "direct"), ("a", "napper"), ("b", "direct")]


# ------------------------------------------------- files that are not trailkit's
def _users(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("INSERT INTO users VALUES (1, 'ada')")
    connection.close()


def _own_runs(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        connection.execute("INSERT INTO runs VALUES (1, 'nightly')")
    connection.close()


def _mains_format(path: Path) -> None:
    """A campaign file as trailkit 1.3 wrote it: ``runs`` without ``row_sha256``, and a
    ``meta`` table holding only ``schema``."""
    with sqlite3.connect(path) as connection:
        columns = ", ".join(f'"{n}" {k}' for n, k in COLUMNS if n != "row_sha256")
        connection.execute(f"CREATE TABLE runs ({columns})")
        connection.execute('CREATE UNIQUE INDEX runs_key ON runs ("spec_sha256", "backend", '
                           '"options", "repeat")')
        connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        connection.execute("INSERT INTO meta VALUES ('schema', '1')")
        connection.execute("INSERT INTO runs (spec, spec_sha256, backend, options, repeat, "
                           "status, wall_s, time_limit_s) VALUES ('old.yaml', 'old', 'direct', "
                           "'{\"time_limit\": 10.0}', 0, 'solved', 0.5, 10.0)")
    connection.close()


def _damaged(offset: str) -> Any:
    def make(path: Path, campaign: Path) -> None:
        data = bytearray(campaign.read_bytes())
        noise = bytes(range(7, 7 + 64 * 3, 3))  # fixed "random" bytes
        at = {"4k": 4096, "8k": 8192, "end": len(data) - len(noise)}[offset]
        data[at:at + len(noise)] = noise
        path.write_bytes(bytes(data))
    return make


#: (case, how the file is made, compare's exit, report's exit, words the refusal says)
FILES: list[tuple[str, Any, int, int, str]] = [
    ("another app's file (users)", lambda p, c: _users(p), 2, 2,
     "another application's SQLite database (its tables: users)"),
    ("another app's runs table", lambda p, c: _own_runs(p), 2, 2, "table runs is not trailkit's"),
    ("random bytes at 4 KiB", _damaged("4k"), 2, 2, "the campaign file is damaged"),
    ("random bytes at 8 KiB", _damaged("8k"), 2, 2, "the campaign file is damaged"),
    ("random bytes at its end", _damaged("end"), 2, 2, "the campaign file is damaged"),
    ("a value changed in place", lambda p, c: p.write_bytes(
        c.read_bytes().replace(b"unsolvable", b"solved!!!!", 1)), 2, 2,
     "no longer matches the checksum written with it"),
    ("appended bytes", lambda p, c: p.write_bytes(c.read_bytes() + b"\x01" * 100), 2, 2,
     "is not a whole number of its 4096-byte pages"),
    ("not SQLite", lambda p, c: p.write_text("name,score\nada,3\n" * 40), 2, 2,
     "is not an SQLite database at all (it begins as text"),
    ("an empty file", lambda p, c: p.write_bytes(b""), 0, 2, "no runs yet"),
    ("main's current format", lambda p, c: _mains_format(p), 0, 0, ""),
    ("this version's file", lambda p, c: p.write_bytes(c.read_bytes()), 0, 0, ""),
]


@pytest.fixture(scope="module")
def campaign_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign file of this version, big enough to have pages at 4 and 8 KiB."""
    folder = tmp_path_factory.mktemp("campaign")
    specs = corpus(folder / "corpus", a=TRIANGLE, b=KOENIGSBERG, c=SQUARE, d=PATH3)
    db = folder / "runs.sqlite"
    assert main(["compare", str(specs), "--backends", "direct", "--repeat", "6",
                 "--db", str(db), "--json"]) == 0
    assert db.stat().st_size >= 3 * 4096 and integrity(db) == "ok"
    return db


@pytest.mark.parametrize(("case", "make", "compare_exit", "report_exit", "words"), FILES,
                         ids=[f[0] for f in FILES])
def test_trailkit_writes_and_reports_only_from_its_own_sound_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], campaign_file: Path, case: str,
        make: Any, compare_exit: int, report_exit: int, words: str) -> None:
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    for command, expected in (("compare", compare_exit), ("report", report_exit)):
        db = tmp_path / f"{command}.sqlite"
        make(db, campaign_file)
        before = db.read_bytes()
        args = (["compare", str(specs), "--backends", "direct", "--db", str(db)]
                if command == "compare" else ["report", str(db)])
        code = main(args)
        out, err = capsys.readouterr()
        assert code == expected, (command, out, err)
        if expected == 2:
            assert words in err and str(db) in err and "Traceback" not in err
            assert out == ""  # never a report from it
            assert db.read_bytes() == before, f"{command} changed the file"
            assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
        elif command == "compare":
            with sqlite3.connect(db) as connection:  # adopted: it says whose it is now
                meta = dict(connection.execute("SELECT key, value FROM meta"))
            connection.close()
            assert meta["application"] == "trailkit-campaign"
            assert main(["report", str(db)]) == 0
            capsys.readouterr()


def test_a_foreign_file_is_refused_before_a_cluster_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed", reason="Dask is in the test extra")
    from trailkit.solvers.campaigns import cluster

    def no_cluster(address: str) -> Any:
        raise AssertionError("a cluster was started for a file that is refused")

    monkeypatch.setattr(cluster, "connect", no_cluster)
    db = tmp_path / "app.sqlite"
    _users(db)
    specs = corpus(tmp_path / "corpus", a=TRIANGLE)
    assert main(["compare", str(specs), "--db", str(db), "--cluster", "local:2"]) == 2
    assert "another application's SQLite database" in capsys.readouterr().err
