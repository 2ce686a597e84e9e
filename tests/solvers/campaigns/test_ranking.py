"""``trailkit report FILE.sqlite``: PAR-2, unique decisions, the virtual best and the
pairwise table against values computed by hand on a small fixture file; lying backends
as disagreements (exit 4); files of other versions; the plots.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from trailkit.solvers.backends import registry
from trailkit.solvers.campaigns.store import open_store
from trailkit.solvers.frontends.cli import main

TWO_ROUTES = ("trailkit: 1\nkind: colour-walk\nstart: S\ngoal: T\n"
              "edges: [S T red, S X red, X Y blue, Y T green]\n")
TRIANGLE = "trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], [2, 3], [3, 1]]\n"

#: (spec, backend, [(status, wall_s) per repeat]); every run's time limit is 10 s.
FIXTURE = [
    ("s1", "x", [("solved", 1.0)]), ("s1", "y", [("solved", 2.0)]),
    ("s1", "z", [("timeout", 15.0)]),
    ("s2", "x", [("solved", 3.0), ("solved", 5.0), ("solved", 4.0)]),  # median 4
    ("s2", "y", [("solved", 1.5)]), ("s2", "z", [("solved", 6.0)]),
    ("s3", "x", [("timeout", 15.0)]), ("s3", "y", [("memout", 0.2)]),
    ("s3", "z", [("unsolvable", 0.5)]),
    ("s4", "x", [("solved", 1.0), ("timeout", 15.0)]),  # not decided in every repeat
    ("s4", "y", [("crash", 0.1)]), ("s4", "z", [("crash", 0.1)]),
]
OPTIONS = json.dumps({"time_limit": 10.0})


def fixture_file(path: Path) -> Path:
    store = open_store(path)
    for spec, backend, repeats in FIXTURE:
        for n, (status, wall) in enumerate(repeats):
            store.write({"spec": f"{spec}.yaml", "spec_sha256": spec, "backend": backend,
                         "options": OPTIONS, "repeat": n, "status": status, "wall_s": wall,
                         "time_limit_s": 10.0, "trailkit_version": "0.1.0"})
    store.close()
    return path


def report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["report", *args])
    captured = capsys.readouterr()
    return code, captured.out


def test_scores_match_the_hand_computed_values(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = fixture_file(tmp_path / "runs.sqlite")
    code, out = report(capsys, str(db), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "trailkit-report/1" and doc["instances"] == 4
    backends = {b["name"]: b for b in doc["backends"]}
    # x decides s1 (1.0), s2 (median 4.0); y s1 (2.0), s2 (1.5); z s2 (6.0), s3 (0.5)
    assert {n: (b["solved"], b["par2"], b["unique"]) for n, b in backends.items()} == {
        "x": (2, 1.0 + 4.0 + 20 + 20, 0), "y": (2, 2.0 + 1.5 + 20 + 20, 0),
        "z": (2, 20 + 6.0 + 0.5 + 20, 1)}
    # fastest deciders: s1 x, s2 y, s3 z; s4 nobody
    assert {n: b["vbs_share"] for n, b in backends.items()} == pytest.approx(
        {"x": 1 / 3, "y": 1 / 3, "z": 1 / 3}, abs=1e-6)
    assert doc["vbs"] == {"solved": 3, "par2": 1.0 + 1.5 + 0.5 + 20}
    pairs = {(p["a"], p["b"]): (p["faster"], p["both"], p["median_ratio"])
             for p in doc["pairwise"]}
    assert pairs[("x", "y")] == (1, 2, pytest.approx((2.0 / 1.0 + 1.5 / 4.0) / 2))
    assert pairs[("x", "z")] == (2, 1, pytest.approx(6.0 / 4.0))
    assert pairs[("z", "x")] == (1, 1, pytest.approx(4.0 / 6.0))
    assert doc["disagreements"] == [] and doc["versions"] == ["0.1.0"]


def test_text_and_csv_name_every_backend_and_the_virtual_best(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = fixture_file(tmp_path / "runs.sqlite")
    code, text = report(capsys, str(db))
    assert code == 0
    lines = text.splitlines()
    assert "4 instances, written by trailkit 0.1.0" in lines[0]
    ranked = [line.split()[0] for line in lines if line.split()[:1] in (["x"], ["y"], ["z"])]
    assert ranked[:3] == ["y", "x", "z"]  # 2 solved each, then by PAR-2
    assert any(line.startswith("(virtual best)  3") and "23.000" in line for line in lines)
    code, table = report(capsys, str(db), "--csv")
    assert table.splitlines()[0] == "backend,solved,par2,unique,vbs_share"
    assert table.splitlines()[-1] == "(virtual best),3,23.0,,"


@pytest.fixture
def liars(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lying backends of tests/solvers/campaigns/test_compare.py, registered for this test."""
    patched = dict(registry.BACKENDS)
    for name, cls in (("liar", "LiarBackend"), ("longway", "LongWayBackend")):
        patched[name] = dataclasses.replace(registry.BACKENDS["direct"], module="test_compare",
                                            cls=cls)
    monkeypatch.setattr(registry, "BACKENDS", patched)


@pytest.mark.parametrize(("liar", "reason"), [
    ("liar", "an answer failed the independent checker (wrong)"),
    # its "3 steps, proven shortest" now fails the layers certificate's check (issue 32)
    ("longway", "an answer failed the independent checker (wrong)")])
def test_a_lying_backend_is_a_disagreement_and_exit_4(
        tmp_path: Path, liars: None, liar: str, reason: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "routes.yaml").write_text(TWO_ROUTES)
    (folder / "triangle.yaml").write_text(TRIANGLE)
    db = tmp_path / "runs.sqlite"
    main(["compare", str(folder), "--backends", f"direct,{liar}", "--db", str(db)])
    capsys.readouterr()
    code, out = report(capsys, str(db), "--json")
    assert code == 4
    (found,) = [d for d in json.loads(out)["disagreements"] if d["spec"].endswith("routes.yaml")]
    assert found["reason"] == reason
    assert {a["backend"] for a in found["answers"]} == {"direct", liar}
    code, text = report(capsys, str(db))
    assert code == 4 and "BACKENDS DISAGREE on" in text
    assert f"    {liar} (repeat 0): " in text and "    direct (repeat 0): solved length 1" in text


def test_a_file_of_another_version_is_read_and_its_versions_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file holding only the contract's columns (as an older or other writer may)."""
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE runs (spec, spec_sha256, backend, options, repeat, "
                           "status, wall_s, cpu_s, peak_mb, decided_by, length, optimal, "
                           "certificate, host, started_at, trailkit_version)")
        connection.executemany(
            "INSERT INTO runs (spec, spec_sha256, backend, options, repeat, status, wall_s, "
            "trailkit_version) VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
            [("a.yaml", "a", "p", '{"time_limit": 5}', "solved", 1.0, "0.0.9"),
             ("a.yaml", "a", "q", '{"time_limit": 5}', "timeout", 6.0, "0.2.0")])
    code, out = report(capsys, str(db), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["versions"] == ["0.0.9", "0.2.0"]
    assert {b["name"]: b["par2"] for b in doc["backends"]} == {"p": 1.0, "q": 10.0}


def test_a_missing_or_foreign_file_is_exit_2(tmp_path: Path) -> None:
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    assert main(["report", str(other)]) == 2
    text = tmp_path / "text.sqlite"
    text.write_text("not a database at all, just some text " * 20)
    assert main(["report", str(text)]) == 2


def test_plots_decode_and_name_every_backend(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    image = pytest.importorskip("PIL.Image")
    pytest.importorskip("matplotlib")
    db = fixture_file(tmp_path / "runs.sqlite")
    cactus, scatter = tmp_path / "cactus.png", tmp_path / "scatter.png"
    code, _ = report(capsys, str(db), "--plot", str(cactus), "--plot", str(scatter),
                     "--pair", "x,z")
    assert code == 0
    for path, names in ((cactus, "x, y, z"), (scatter, "x, z")):
        with image.open(path) as picture:
            picture.load()  # decodes every pixel
            assert picture.format == "PNG" and picture.size[0] > 300
            assert picture.info["Description"] == f"backends: {names}"
    assert main(["report", str(db), "--plot", str(scatter), "--pair", "x,w", "--force"]) == 2


def test_an_answer_past_its_time_limit_is_not_decided() -> None:
    """A run of 4.05 s wall under a 2 s limit counted as solved (and sat above the cactus
    plot's limit line, which draws the ranking's times): an answer past the limit is
    none (CONTRACT 1.4 §7), for the ranking, the virtual best and the plots alike."""
    from trailkit.solvers.campaigns.scores import score

    runs = [{"spec": "a.yaml", "spec_sha256": "1", "backend": backend, "options": "{}",
             "repeat": 0, "status": "solved", "wall_s": wall, "time_limit_s": 2.0}
            for backend, wall in (("late", 4.05), ("prompt", 1.5))]
    scores = score(runs)
    solved = {b.name: b.solved for b in scores.backends}
    assert solved == {"late": 0, "prompt": 1}
    assert scores.times["late"] == {("a.yaml", "1"): None} or \
        all(t is None for t in scores.times["late"].values())
    assert next(b.par2 for b in scores.backends if b.name == "late") == 4.0  # 2 x limit
