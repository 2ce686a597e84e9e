"""A full disk: exit 2 with "no space left on device: nothing was written", and nothing
left behind (issue 41, item 3).

On a real full disk, a small tmpfs mounted for the test (root only: skipped, saying why,
where mounting is not allowed), filled to the last byte: ``prove --proof-dir`` (once
exit 4), ``compare --db`` on a sound campaign file (once "damaged ... restore it from a
copy") and on a new one (once a 0-byte file left). And in-process, a write that meets
ENOSPC, for every system: the atomic write and the folder of proof files.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from trailkit.solvers.frontends.cli import main
from trailkit.solvers.support import files

ROOT = Path(__file__).resolve().parents[4]
KOENIGSBERG = str(ROOT / "specs" / "koenigsberg.yaml")
NIKOLAUS = str(ROOT / "specs" / "nikolaus.yaml")
FULL = "no space left on device: nothing was written"


def _fill(folder: Path) -> None:
    """Fill the file system of ``folder`` to its last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        chunk = 65536
        while chunk:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                chunk //= 2
    finally:
        os.close(fd)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 400 KiB tmpfs, mounted for this test and unmounted after it."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(disk)],
                             capture_output=True, text=True, timeout=30, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root and the right to mount): "
                    f"{mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=30,
                       check=False)


def _left(folder: Path) -> list[str]:
    return sorted(p for p in os.listdir(folder) if not p.startswith("filler"))


def test_prove_proof_dir_on_a_full_disk(small_disk: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    _fill(small_disk)
    code = main(["prove", KOENIGSBERG, "--proof-dir", str(small_disk / "proof")])
    err = capsys.readouterr().err
    assert code == 2 and FULL in err and "Traceback" not in err, err
    assert _left(small_disk) == []


def test_compare_db_on_a_full_disk_keeps_a_sound_file(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = small_disk / "runs.sqlite"
    assert main(["compare", NIKOLAUS, "--backends", "direct", "--db", str(db)]) == 0
    before = db.read_bytes()
    _fill(small_disk)
    capsys.readouterr()
    code = main(["compare", KOENIGSBERG, "--backends", "direct", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and "no space left on device" in err and "damaged" not in err, err
    assert _left(small_disk) == ["runs.sqlite"] and db.read_bytes() == before
    for filler in small_disk.glob("filler*"):
        filler.unlink()
    assert main(["report", str(db)]) == 0  # sound, as it was


def test_compare_new_db_on_a_full_disk_leaves_nothing(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(small_disk)
    code = main(["compare", NIKOLAUS, "--backends", "direct", "--db",
                 str(small_disk / "new.sqlite")])
    err = capsys.readouterr().err
    assert code == 2 and FULL in err, err
    assert _left(small_disk) == []


@pytest.fixture
def no_space(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every flush to the disk of an output meets a full disk."""
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)


@pytest.mark.usefixtures("no_space")
@pytest.mark.parametrize("existing", [False, True], ids=["new", "replaced"])
def test_an_out_file_on_a_full_disk(existing: bool, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.cnf"
    if existing:
        out.write_text("mine\n")
    code = main(["export", NIKOLAUS, "--format", "dimacs", "--out", str(out), "--force"])
    err = capsys.readouterr().err
    assert code == 2 and FULL in err, err
    assert os.listdir(tmp_path) == (["out.cnf"] if existing else [])
    assert not existing or out.read_text() == "mine\n"


@pytest.mark.usefixtures("no_space")
@pytest.mark.parametrize("shared", [False, True], ids=["own-folder", "shared-folder"])
def test_proof_files_on_a_full_disk(shared: bool, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A folder of its own (a new folder exchanged) and one shared with other files (the
    files put in place one by one): nothing left of the new files either way."""
    folder = tmp_path / "proof"
    if shared:
        folder.mkdir()
        (folder / "keep.txt").write_text("mine\n")
    code = main(["prove", KOENIGSBERG, "--proof-dir", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and FULL in err, err
    assert os.listdir(tmp_path) == (["proof"] if shared else [])
    assert not shared or os.listdir(folder) == ["keep.txt"]


class _FullDisk:
    """A connection whose every statement meets a full disk, as SQLite says it."""

    def execute(self, *args: object) -> None:
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
        raise exc


def test_a_run_that_cannot_be_stored_says_the_disk_is_full(tmp_path: Path) -> None:
    """Half-way through a campaign: the rows before are kept, and the error says so (not
    an internal error)."""
    from trailkit.solvers.campaigns.store import open_store

    store = open_store(tmp_path / "runs.sqlite")
    store._db = _FullDisk()  # type: ignore[assignment]
    row = {"spec": "s", "spec_sha256": "0", "backend": "direct", "options": "{}",
           "repeat": 1, "status": "solved"}
    with pytest.raises(files.TrailkitError, match=re.escape(
            "no space left on device: this run was not written (the runs before it are kept")):
        store.write(row)
