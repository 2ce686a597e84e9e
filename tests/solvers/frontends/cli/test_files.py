"""Every command that writes refuses an output it cannot write as a regular file.

One table over every option that names something written (``--out``, ``--proof-dir``,
``--db``, ``--plot``), each tried on a folder, a FIFO, a character device (a node with
``/dev/null``'s numbers made in the test's folder: the real ``/dev/null`` is never
named), a read-only folder and a folder that does not exist, with ``--force`` and
without: exit 2, a message naming the output, and whatever was there is still there,
unchanged (issue 30, items 10 and 15). Then the sets: a certificate and its proof side
file, and ``--proof-dir``'s files, replaced so that a kill between two renames leaves a
whole set.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from trailkit.solvers.frontends.cli import main
from trailkit.solvers.support import files

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "specs"
KOENIGSBERG = str(SPECS / "koenigsberg.yaml")
NIKOLAUS = str(SPECS / "nikolaus.yaml")


def _planks(folder: Path) -> str:
    path = folder / "planks.txt"
    path.write_text("A B red\nB C blue\n")
    return str(path)


def _dominoes(folder: Path) -> str:
    path = folder / "dominoes.txt"
    path.write_text("1 2\n2 3\n3 1\n")
    return str(path)


def _campaign(folder: Path) -> str:
    path = folder / "runs.sqlite"
    assert main(["compare", NIKOLAUS, "--backends", "direct", "--db", str(path)]) == 0
    return str(path)


# name: (the command, with OUT where the output goes (OUT.svg: a name ending .svg);
#        whether it takes --force;
#        what the output is: a "file" or a "folder")
Prepare = Callable[[Path], list[str]]
WRITERS: dict[str, tuple[Prepare, bool, str]] = {
    "prove --out": (lambda d: ["prove", KOENIGSBERG, "--out", "OUT"], True, "file"),
    "prove --drup --out": (lambda d: ["prove", KOENIGSBERG, "--drup", "--out", "OUT"],
                           True, "file"),
    "prove --proof-dir": (lambda d: ["prove", KOENIGSBERG, "--proof-dir", "OUT"], True,
                          "folder"),
    "export --out": (lambda d: ["export", NIKOLAUS, "--format", "dimacs", "--out", "OUT"],
                     True, "file"),
    "export dot --out": (lambda d: ["export", NIKOLAUS, "--format", "dot", "--out", "OUT"],
                         True, "file"),
    "draw --out": (lambda d: ["draw", NIKOLAUS, "--out", "OUT.svg"], True, "file"),
    "generate --out": (lambda d: ["generate", "trail", "--size", "4", "--out", "OUT"], True,
                       "file"),
    "import planks --out": (lambda d: ["import", "planks", _planks(d), "--start", "A",
                                       "--goal", "C", "--colours", "red,blue", "--out",
                                       "OUT"], True, "file"),
    "import dominoes --out": (lambda d: ["import", "dominoes", _dominoes(d), "--out", "OUT"],
                              True, "file"),
    "repair --out": (lambda d: ["repair", KOENIGSBERG, "--out", "OUT"], True, "file"),
    "compare --out": (lambda d: ["compare", NIKOLAUS, "--backends", "direct", "--out", "OUT"],
                      True, "file"),
    "compare --db": (lambda d: ["compare", NIKOLAUS, "--backends", "direct", "--db", "OUT"],
                     False, "file"),
    "compare --plot": (lambda d: ["compare", NIKOLAUS, "--backends", "direct", "--plot",
                                  "OUT.png"], True, "file"),
    "report --plot": (lambda d: ["report", _campaign(d), "--plot", "OUT.png"], True, "file"),
}


def _command(writer: str, folder: Path, out: Path) -> tuple[list[str], Path]:
    """The command line of ``writer`` with its output at ``out`` (plus a suffix the
    command asks for), and that output's path."""
    args = WRITERS[writer][0](folder)
    token = next(a for a in args if a.startswith("OUT"))
    path = out.with_name(out.name + token[3:])
    return [str(path) if a == token else a for a in args], path


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "keep.txt").write_text("mine\n")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _device(path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers


def _regular(path: Path) -> None:
    path.write_text("mine\n")


TARGETS: dict[str, tuple[Callable[[Path], None], str]] = {
    "folder": (_folder, "folder"),
    "fifo": (_fifo, "FIFO"),
    "device": (_device, "character device"),
    "file-for-a-folder": (_regular, "regular file"),
}


def _state(path: Path) -> tuple[object, ...]:
    """What is at ``path``: its kind, inode, and a folder's entries with their text."""
    seen = os.lstat(path)
    inside = sorted((p.name, p.read_text()) for p in path.iterdir()) \
        if stat.S_ISDIR(seen.st_mode) else ()
    return stat.S_IFMT(seen.st_mode), seen.st_ino, seen.st_rdev, inside


def _cases() -> list[tuple[str, str, bool]]:
    out = []
    for writer, (_, takes_force, what) in WRITERS.items():
        for target in TARGETS:
            if target == "file-for-a-folder" and what != "folder":
                continue
            if target == "folder" and what == "folder":
                continue  # a folder is what --proof-dir names: see the tests below
            for force in (False, True) if takes_force else (False,):
                out.append((writer, target, force))
    return out


@pytest.mark.parametrize(("writer", "target", "force"), _cases(),
                         ids=lambda v: v if isinstance(v, str) else ("force" if v else "-"))
def test_an_output_that_is_not_a_regular_file_is_refused(
        writer: str, target: str, force: bool, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    make, words = TARGETS[target]
    args, out = _command(writer, tmp_path, tmp_path / "out")
    args += ["--force"] * force
    make(out)
    before = _state(out)
    capsys.readouterr()
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert str(out) in err and words in err and "Traceback" not in err, err
    assert _state(out) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_an_output_in_a_missing_folder_is_refused(writer: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code = main(_command(writer, tmp_path, tmp_path / "nowhere" / "out")[0])
    err = capsys.readouterr().err
    assert code == 2 and "does not exist" in err and "Traceback" not in err, err
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_an_output_in_a_read_only_folder_is_refused(writer: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders (permissions do not bind it); "
                    "the check is os.access, tested without root")
    folder = tmp_path / "ro"
    folder.mkdir()
    args = _command(writer, tmp_path, folder / "out")[0]
    folder.chmod(0o555)
    try:
        code = main(args)
    finally:
        folder.chmod(0o755)
    err = capsys.readouterr().err
    assert code == 2 and "not writable" in err, err
    assert list(folder.iterdir()) == []


def test_a_link_to_a_file_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.cnf"
    real.write_text("old\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(real)
    assert main(["export", NIKOLAUS, "--format", "dimacs", "--out", str(link),
                 "--force"]) == 0
    assert link.is_symlink() and real.read_text().startswith("c ")


def test_a_link_to_a_device_is_refused(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    device = tmp_path / "null"
    _device(device)
    link = tmp_path / "link.cnf"
    link.symlink_to(device)
    code = main(["export", NIKOLAUS, "--format", "dimacs", "--out", str(link), "--force"])
    assert code == 2 and "character device" in capsys.readouterr().err
    assert link.is_symlink() and stat.S_ISCHR(os.stat(device).st_mode)


def test_a_proof_dir_shared_with_other_files_keeps_them(tmp_path: Path) -> None:
    """A folder that holds other files too: the proof files are written beside them,
    one by one, and nothing else in the folder is touched."""
    folder = tmp_path / "proof"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine\n")
    (folder / "proof.lrat").write_text("stale\n")
    assert main(["prove", KOENIGSBERG, "--proof-dir", str(folder)]) == 2  # needs --force
    assert main(["prove", KOENIGSBERG, "--proof-dir", str(folder), "--force"]) == 1
    assert (folder / "keep.txt").read_text() == "mine\n"
    assert sorted(p.name for p in folder.iterdir()) == ["formula.cnf", "keep.txt",
                                                        "proof.drat"]
    assert (folder / "formula.cnf").read_text().startswith("c ")


def test_atomic_write_refuses_what_became_a_folder(tmp_path: Path) -> None:
    """Asked again just before the rename: a name that became a folder meanwhile."""
    out = tmp_path / "out.txt"
    tmp = files.write_beside(out, "x")
    out.mkdir()
    with pytest.raises(files.TrailkitError, match="folder"):
        files.switch(tmp, out)
    assert out.is_dir()


# --------------------------------------------------------------- sets, killed half-way
class Killed(BaseException):
    """What a SIGKILL between two renames would leave: nothing after it runs."""


def _kill_after(monkeypatch: pytest.MonkeyPatch, renames: int) -> None:
    """Let ``renames`` renames (os.replace, os.rename, the folder exchange) happen, then
    stop the process's writing as a kill would, leaving everything as it is."""
    done = [0]

    def wrap(real: Callable[..., object]) -> Callable[..., object]:
        def step(*args: object, **kwargs: object) -> object:
            if done[0] >= renames:
                raise Killed
            done[0] += 1
            return real(*args, **kwargs)
        return step

    monkeypatch.setattr(files.os, "replace", wrap(os.replace))
    monkeypatch.setattr(files.os, "rename", wrap(os.rename))
    monkeypatch.setattr(files, "_exchange", wrap(files._exchange))
    monkeypatch.setattr(files.Path, "unlink", lambda self, missing_ok=False: None)


@pytest.mark.parametrize("renames", [0, 1, 2, 3])
def test_a_certificate_and_its_proof_are_replaced_as_a_set(
        renames: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "cert.json"
    # the old set: another solver's proof, so old and new proofs differ
    assert main(["prove", KOENIGSBERG, "--drup", "--backend", "sat:glucose4",
                 "--out", str(cert)]) == 1
    old_proof = (tmp_path / "cert.drat").read_bytes()
    with monkeypatch.context() as patched:
        _kill_after(patched, renames)
        with contextlib.suppress(Killed):
            main(["prove", KOENIGSBERG, "--drup", "--out", str(cert), "--force"])
    capsys.readouterr()
    code = main(["check-certificate", KOENIGSBERG, str(cert)])
    assert code == 0, capsys.readouterr().out
    if renames >= 3:  # the whole new set, under the usual names
        assert (tmp_path / "cert.drat").read_bytes() != old_proof
        assert '"proof_file": "cert.drat"' in cert.read_text()


@pytest.mark.parametrize("renames", [0, 1])
def test_proof_dir_files_are_replaced_as_a_set(renames: int, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.models.checking.lrat import check_lrat_files

    folder = tmp_path / "proof"
    assert main(["prove", KOENIGSBERG, "--proof-dir", str(folder), "--lrat",
                 "--backend", "sat:glucose4"]) == 1
    old = _state(folder)
    with monkeypatch.context() as patched:
        _kill_after(patched, renames)
        with contextlib.suppress(Killed):
            main(["prove", KOENIGSBERG, "--proof-dir", str(folder), "--lrat", "--force"])
    ok, message = check_lrat_files(folder / "formula.cnf", folder / "proof.lrat")[:2]
    assert ok, message
    assert (_state(folder) == old) == (renames == 0)


# ------------------------------------------- every output follows --out's rules (issue 41)
@pytest.mark.parametrize("writer", sorted(w for w, (_, force, what) in WRITERS.items()
                                          if force and what == "file"))
def test_an_existing_output_is_replaced_only_with_force(
        writer: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--plot`` too: without ``--force`` the file the user had stays as it was."""
    args, out = _command(writer, tmp_path, tmp_path / "out")
    out.write_text("mine\n")
    capsys.readouterr()
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and "already exists" in err and "--force" in err, err
    assert out.read_text() == "mine\n"


def _spec_copy(folder: Path) -> str:
    path = folder / "n.yaml"
    path.write_bytes(Path(NIKOLAUS).read_bytes())
    return str(path)


def _scatter_is_the_spec(folder: Path) -> tuple[list[str], str]:
    spec = folder / "n-scatter.png"  # a spec by any name: where n.png's scatter plot goes
    spec.write_bytes(Path(NIKOLAUS).read_bytes())
    return ["compare", str(spec), "--backends", "direct,cpsat", "--plot",
            str(folder / "n.png")], str(spec)


# name: the command, given its folder, and the input it also names as an output; OWN is
# where the input goes in the command
OWN = "OWN"
OWN_INPUT: dict[str, tuple[Callable[[Path], str], list[str]]] = {
    "report --plot FILE.sqlite": (_campaign, ["report", OWN, "--plot", OWN]),
    "compare --plot SPEC": (_spec_copy, ["compare", OWN, "--backends", "direct", "--plot",
                                         OWN]),
    "compare --out FILE.sqlite --db FILE.sqlite": (
        _campaign, ["compare", NIKOLAUS, "--backends", "direct", "--db", OWN, "--out", OWN]),
    "compare --db SPEC": (_spec_copy, ["compare", OWN, "--backends", "direct", "--db", OWN]),
    "prove --out SPEC": (_spec_copy, ["prove", OWN, "--out", OWN]),
    "repair --out SPEC": (_spec_copy, ["repair", OWN, "--out", OWN]),
    "export --out SPEC": (_spec_copy, ["export", OWN, "--format", "dot", "--out", OWN]),
    "design --from SPEC --out SPEC": (_spec_copy, ["design", "trail", "--from", OWN,
                                                   "--out", OWN]),
    "import planks --out FILE": (_planks, ["import", "planks", OWN, "--start", "A", "--goal",
                                           "C", "--out", OWN]),
}


@pytest.mark.parametrize("force", [False, True], ids=["-", "force"])
@pytest.mark.parametrize("case", [*sorted(OWN_INPUT), "compare -scatter.png is the spec"])
def test_an_input_is_never_an_output(case: str, force: bool, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``report runs.sqlite --plot runs.sqlite`` once turned the campaign file into a PNG
    (exit 0): an input of the command is never written, ``--force`` or not."""
    if case == "compare -scatter.png is the spec":
        args, given = _scatter_is_the_spec(tmp_path)
    else:
        make, line = OWN_INPUT[case]
        given = make(tmp_path)
        args = [given if a == OWN else a for a in line]
    before = Path(given).read_bytes()
    capsys.readouterr()
    code = main(args + ["--force"] * force)
    err = capsys.readouterr().err
    assert code == 2 and "input file" in err and "Traceback" not in err, err
    assert Path(given).read_bytes() == before


def test_an_existing_scatter_plot_is_kept_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The side file of ``compare --plot`` with two backends follows ``--out``'s rules."""
    pytest.importorskip("matplotlib")
    scatter = tmp_path / "p-scatter.png"
    scatter.write_text("mine\n")
    args = ["compare", NIKOLAUS, "--backends", "direct,cpsat", "--plot", str(tmp_path / "p.png")]
    assert main(args) == 2
    assert "p-scatter.png already exists" in capsys.readouterr().err
    assert scatter.read_text() == "mine\n" and not (tmp_path / "p.png").exists()
    assert main([*args, "--force"]) == 0
    assert scatter.read_bytes().startswith(b"\x89PNG")


def test_an_existing_design_of_a_set_is_kept_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--count 2`` writes FILE-1.yaml and FILE-2.yaml: either there already stops it."""
    second = tmp_path / "made-2.yaml"
    second.write_text("mine\n")
    code = main(["design", "trail", "--layout", "grid:3,3", "--count", "2",
                 "--out", str(tmp_path / "made.yaml")])
    assert code == 2 and "made-2.yaml already exists" in capsys.readouterr().err
    assert second.read_text() == "mine\n" and not (tmp_path / "made-1.yaml").exists()


def test_two_outputs_are_never_one_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = _campaign(tmp_path)
    plot = str(tmp_path / "p.png")
    assert main(["report", db, "--plot", plot, "--plot", plot]) == 2
    assert "named twice" in capsys.readouterr().err and not Path(plot).exists()


def test_proof_dir_dot_never_replaces_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``prove SPEC --proof-dir .`` in an empty folder once exchanged the current folder
    for a new one, leaving the shell in a deleted folder: the files are written into it."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    inode = os.stat(here).st_ino
    for force in (False, True):
        assert main(["prove", KOENIGSBERG, "--proof-dir", "."] + ["--force"] * force) == 1
        assert os.stat(".").st_ino == inode == os.stat(here).st_ino
        assert sorted(os.listdir(".")) == ["formula.cnf", "proof.drat"]


# name: the command writing OUT, where the spec's side file "edges.txt" is OUT
SIDE_FILE_WRITERS: dict[str, list[str]] = {
    "export --out": ["export", "SPEC", "--format", "dimacs", "--out", "OUT"],
    "repair --out": ["repair", "SPEC", "--out", "OUT"],
    "prove --out": ["prove", "SPEC", "--out", "OUT"],
    "design --from --out": ["design", "trail", "--from", "SPEC", "--out", "OUT"],
}


@pytest.mark.parametrize("writer", sorted(SIDE_FILE_WRITERS))
def test_a_specs_side_file_is_an_input_too(writer: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``edges_file:`` names a file the command reads: never written over, ``--force``
    or not."""
    edges = tmp_path / "edges.txt"
    edges.write_text("a b\nb c\nc a\n")
    spec = tmp_path / "ring.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges_file: edges.txt\n"
                    "layout: {a: [0, 0], b: [1, 0], c: [0, 1]}\n")
    args = [str(spec) if a == "SPEC" else str(edges) if a == "OUT" else a
            for a in SIDE_FILE_WRITERS[writer]]
    capsys.readouterr()
    code = main([*args, "--force"])
    err = capsys.readouterr().err
    assert code == 2 and "input file" in err, err
    assert edges.read_text() == "a b\nb c\nc a\n"
