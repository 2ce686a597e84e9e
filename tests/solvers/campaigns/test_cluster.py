"""``compare --cluster``: a real Dask ``LocalCluster`` (small), the same statuses as a local
campaign, a worker killed in the middle of a run (retried once, then a ``crash`` row),
and the error naming the extra when Dask is missing or the address is wrong."""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from trailkit.models.answer import Answer
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends import registry
from trailkit.solvers.backends.base import Backend, Limits
from trailkit.solvers.campaigns.campaign import run_campaign
from trailkit.solvers.campaigns.store import open_store
from trailkit.solvers.frontends.cli import main

distributed = pytest.importorskip("distributed", reason="Dask is in the test extra")

TRIANGLE = "trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], [2, 3], [3, 1]]\n"
KOENIGSBERG = "trailkit: 1\nkind: trail\nedges: [a b, a b, a c, a c, a d, b d, c d]\n"
SIDE = "trailkit: 1\nkind: trail\nedges_file: side.txt\n"
SIGNS = "TRAILKIT_TEST_KILLER_SIGNS"


class KillerBackend(Backend):
    """Kills the process that forked its run (a Dask worker), noting each attempt."""

    name = "killer"

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> Answer:
        with open(os.environ[SIGNS], "a") as signs:
            signs.write(f"{os.getppid()}\n")
        os.kill(os.getppid(), signal.SIGKILL)
        raise AssertionError("unreachable")


class RegisterKiller(distributed.WorkerPlugin):  # type: ignore[misc]
    """A worker plugin: registers ``killer`` on every worker, restarted ones too."""

    name = "trailkit-test-killer"

    def setup(self, worker: Any) -> None:
        registry.BACKENDS["killer"] = dataclasses.replace(
            registry.BACKENDS["direct"], module="test_cluster", cls="KillerBackend")


def corpus(folder: Path) -> list[str]:
    folder.mkdir()
    (folder / "a.yaml").write_text(TRIANGLE)
    (folder / "b.yaml").write_text(KOENIGSBERG)
    (folder / "c.yaml").write_text(SIDE)
    (folder / "side.txt").write_text("a b\nb c\nc a\n")  # read on the worker from content
    return [str(folder / n) for n in ("a.yaml", "b.yaml", "c.yaml")]


def statuses(db: Path) -> dict[tuple[str, str], str]:
    store = open_store(db, create=False)
    try:
        return {(Path(r["spec"]).name, r["backend"]): r["status"] for r in store.rows()}
    finally:
        store.close()


def test_a_local_cluster_gives_the_statuses_of_a_local_campaign(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    specs = corpus(tmp_path / "corpus")
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    base = ["compare", *specs, "--backends", "direct,cpsat"]
    assert main([*base, "--db", str(here)]) == 0
    assert main([*base, "--db", str(there), "--cluster", "local:2"]) == 0
    assert statuses(there) == statuses(here) == {
        (spec, b): status for spec, status in (("a.yaml", "solved"), ("b.yaml", "unsolvable"),
                                               ("c.yaml", "solved"))
        for b in ("direct", "cpsat")}
    store = open_store(there, create=False)
    rows = store.rows()
    store.close()
    assert all(str(r["worker"]).startswith("tcp://") and r["cpu_s"] is not None for r in rows)
    assert {r["spec"] for r in rows} == set(specs)  # as the client named them
    capsys.readouterr()
    assert main([*base, "--db", str(there), "--cluster", "local:1"]) == 0  # nothing missing
    assert "0 run(s) written" in capsys.readouterr().err


def test_a_run_on_a_worker_may_start_helper_processes(tmp_path: Path) -> None:
    """Dask's worker processes are daemonic; a run forked there is not, so that a backend
    may start its own helper (CP-SAT's unsolvable answer is confirmed by a SAT solver in
    a child process: that run crashed while the run inherited the flag)."""
    db = tmp_path / "runs.sqlite"
    spec = str(Path(__file__).resolve().parents[3] / "specs" / "bench" / "small-balanced-4-no.yaml")
    assert main(["compare", spec, "--backends", "cpsat,sat", "--db", str(db),
                 "--time-limit", "10", "--cluster", "local:1"]) == 0
    assert set(statuses(db).values()) == {"unsolvable"}


def test_a_worker_that_dies_mid_run_is_retried_once_then_a_crash_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.solvers.campaigns.cluster import connect

    signs = tmp_path / "attempts.txt"
    monkeypatch.setenv(SIGNS, str(signs))  # the workers inherit the environment
    specs = corpus(tmp_path / "corpus")[:1]
    store = open_store(tmp_path / "runs.sqlite")
    with connect("local:2") as cluster:
        cluster.client.register_plugin(RegisterKiller())
        execute = cluster.executor(Limits(time_limit=30), memory_mb=None, precheck=True)
        done = run_campaign(store, specs, ["killer", "direct"], Limits(time_limit=30),
                            execute=execute)
    rows = {r["backend"]: r for r in store.rows()}
    store.close()
    assert done.runs_done == 2 and not done.interrupted
    assert rows["direct"]["status"] == "solved", rows["direct"]["detail"]
    assert rows["killer"]["status"] == "crash" and "retried" in rows["killer"]["detail"]
    attempts = signs.read_text().split()
    assert len(attempts) == 2 and attempts[0] != attempts[1]  # two workers, one each


def test_a_bad_address_is_exit_2(tmp_path: Path) -> None:
    specs = corpus(tmp_path / "corpus")
    assert main(["compare", specs[0], "--backends", "direct", "--cluster", "nowhere"]) == 2
    assert main(["compare", specs[0], "--backends", "direct", "--cluster", "local:0"]) == 2


def test_without_dask_the_error_names_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    specs = corpus(tmp_path / "corpus")
    assert main(["compare", specs[0], "--backends", "direct", "--cluster", "local:1"]) == 2
    assert "pip install 'trailkit[cluster]'" in capsys.readouterr().err
