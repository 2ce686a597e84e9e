"""Bad input gets a located, actionable error, exit code 2 and no traceback.

Tests compare problem locations (file:line:column) and the key facts of the message,
not its exact wording.
"""

from __future__ import annotations

import json
import os
import re
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from in_process import Ran
from spec_texts import write

from trailkit.models.errors import SpecError
from trailkit.models.spec import MAX_SPEC_BYTES, load_spec
from trailkit.solvers.frontends.cli import main

HEAD = "trailkit: 1\n"
TESTS = Path(__file__).resolve().parents[2]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# (spec text, line, column, words the message must contain)
BAD_SPECS = {
    # a bracket never closed is located where it opened, not where the parser gave up
    "malformed-yaml": (HEAD + "kind: trail\nedges: [a b\n", 3, 8,
                       ["malformed YAML", "'['", "not closed", "line 4", "']'"]),
    "unclosed-mapping": (HEAD + "kind: trail\nedges: [a b]\nlayout: {a: [0, 0]\n", 4, 9,
                         ["'{'", "not closed", "'}'"]),
    "unclosed-quote": (HEAD + 'kind: trail\nname: "the house\nedges: [a b]\n', 3, 7,
                       ["never closed"]),
    "key-indented-one-space": (HEAD + "kind: trail\nedges: [a b, b c]\n closed: true\n", 4, 1,
                               ["line 4", "indented by 1 space", "keys around it"]),
    "key-indented-under-a-value": (HEAD + "  kind: trail\nedges: [a b]\n", 2, 1,
                                   ["line 2", "indented deeper"]),
    "goal-in-a-trail": (HEAD + "kind: trail\nedges: [a b]\ngoal: b\n", 4, 1,
                        ["'goal'", "did you mean 'end'"]),
    "unknown-key": (HEAD + "kind: trail\nedgse: [a b]\n", 3, 1, ["edgse", "did you mean", "edges"]),
    "duplicated-key": (HEAD + "kind: trail\nedges: [a b]\nedges: [b c]\n", 4, 1,
                       ["twice", "line 3"]),
    "duplicated-synonym": (HEAD + "kind: colour-walk\ncolours: [r, b]\ncolors: [r, b]\n"
                           "edges: [A B r]\nstart: A\ngoal: B\n", 4, 1, ["twice"]),
    "missing-version": ("kind: trail\nedges: [a b]\n", 1, 1, ["trailkit: 1"]),
    "missing-kind": (HEAD + "edges: [a b]\n", 1, 1, ["kind"]),
    "unknown-kind": (HEAD + "kind: trial\nedges: [a b]\n", 2, 7,
                     ["trial", "did you mean", "trail"]),
    "missing-edges": (HEAD + "kind: trail\n", 1, 1, ["edges"]),
    "missing-goal": (HEAD + "kind: colour-walk\nedges: [A B red]\nstart: A\n", 1, 1, ["goal"]),
    "missing-dominoes": (HEAD + "kind: domino-chain\n", 1, 1, ["dominoes"]),
    "edge-one-end": (HEAD + "kind: trail\nedges: [a b, [c]]\n", 3, 14, ["one end"]),
    "edge-one-end-string": (HEAD + "kind: trail\nedges:\n  - a b\n  - c\n", 5, 5, ["one end"]),
    "edge-four-fields": (HEAD + "kind: trail\nedges: [a b, a b red extra]\n", 3, 14, ["4 fields"]),
    "edge-mapping-missing-to": (HEAD + "kind: trail\nedges: [{from: a}]\n", 3, 9, ["'to'"]),
    "edge-mapping-unknown-key": (HEAD + "kind: trail\nedges: [{from: a, too: b}]\n", 3, 19,
                                 ["too", "did you mean"]),
    "colour-not-in-colours": (HEAD + "kind: colour-walk\ncolours: [red, blue]\n"
                              "edges: [A B red, B C teal]\nstart: A\ngoal: C\n", 4, 18,
                              ["teal", "red, blue"]),
    "colour-typo": (HEAD + "kind: colour-walk\nedges: [A B red, B C bleu]\nstart: A\ngoal: C\n",
                    3, 18, ["bleu", "did you mean", "blue"]),
    "edge-without-colour": (HEAD + "kind: colour-walk\nedges: [A B red, B C]\nstart: A\n"
                            "goal: C\n", 3, 18, ["no colour"]),
    "start-typo": (HEAD + "kind: trail\nedges: [alpha beta, beta gamma]\nstart: alpah\n", 4, 8,
                   ["alpah", "did you mean", "alpha"]),
    "goal-unknown": (HEAD + "kind: colour-walk\nedges: [A B red]\nstart: A\ngoal: Z\n", 5, 7,
                     ["'Z'", "nowhere"]),
    "null-node": (HEAD + "kind: trail\nedges: [[a, ~]]\n", 3, 13, ["null", "quote"]),
    "null-word-node": (HEAD + "kind: trail\nedges: [[a, null]]\n", 3, 13, ["null"]),
    "empty-quoted-node": (HEAD + "kind: trail\nedges: [[a, \"\"]]\n", 3, 13, ["empty"]),
    "python-tag": (HEAD + "kind: trail\nedges: !!python/object/apply:os.system [echo hi]\n",
                   3, 8, ["tag", "not allowed"]),
    "custom-tag": (HEAD + "kind: trail\nedges: [!bridge a b]\n", 3, 9, ["tag"]),
    "bad-version": ("trailkit: 2\nkind: trail\nedges: [a b]\n", 1, 11, ["version"]),
    "closed-not-bool": (HEAD + "kind: trail\nedges: [a b]\nclosed: maybe\n", 4, 9,
                        ["true or false"]),
    "bad-use": (HEAD + "kind: walk\nedges: [a b]\nuse: twice\n", 4, 6, ["exactly-once"]),
    "first-without-rule": (HEAD + "kind: walk\nedges: [a b]\nfirst: red\n", 4, 1, ["colour rule"]),
    "duplicate-edge-id": (HEAD + "kind: trail\nedges: [{from: a, to: b, id: x}, "
                          "{from: b, to: a, id: x}]\n", 3, 34, ["used twice"]),
    "domino-three-pips": (HEAD + "kind: domino-chain\ndominoes: [[1, 2, 3]]\n", 3, 12,
                          ["two pips"]),
    "expect-bad-status": (HEAD + "kind: trail\nedges: [a b]\nexpect: {status: won}\n", 4, 18,
                          ["solved"]),
    "multiple-documents": (HEAD + "kind: trail\nedges: [a b]\n---\nkind: trail\n", 4, 1,
                           ["single document"]),
}


@pytest.mark.parametrize("case", sorted(BAD_SPECS))
def test_bad_spec_is_located_with_exit_2(case: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    text, line, column, words = BAD_SPECS[case]
    path = write(tmp_path, text)
    code, out, err = run_cli(["solve", str(path)], capsys)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith(f"{path}:{line}:{column}: error: "), err
    for word in words:
        assert word.lower() in err.lower(), (word, err)


def test_error_object_carries_location(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nedges: [a b, [c]]\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (3, 14)


def test_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, (HEAD + "kind: trail\nedges: [caf").encode() + b"\xe9 b]\n")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{path}:3:12: error:") and "UTF-8" in err


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, text)
    code, _, err = run_cli(["solve", str(path)], capsys)
    assert code == 2
    assert "empty" in err and "Traceback" not in err


def test_huge_file_is_refused_before_reading(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_SPEC_BYTES + 1)
    code, _, err = run_cli(["solve", str(path)], capsys)
    assert code == 2
    assert "MB" in err and "edges_file" in err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["solve", str(tmp_path / "nope.yaml")], capsys)
    assert code == 2 and "nope.yaml" in err and "Traceback" not in err


def _laughs(levels: int = 10) -> str:
    """A flow list whose items nest aliases ``levels`` deep: 9**levels strings if expanded."""
    items = ['&l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        items.append(f"&l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "[" + ", ".join(items) + "]"


@pytest.mark.parametrize("key", ["edges", "nodes", "dominoes", "layout"])
def test_billion_laughs_is_bounded(key: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    kind = "domino-chain" if key == "dominoes" else "trail"
    body = f"{key}: {{x: {_laughs()}}}" if key == "layout" else f"{key}: {_laughs()}"
    extra = "" if key in ("edges", "dominoes") else "\nedges: [a b]"
    path = write(tmp_path, HEAD + f"kind: {kind}\n{body}{extra}\n")
    started = time.perf_counter()
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"{path}:3:")
    assert time.perf_counter() - started < 10


def test_expansion_budget_stops_alias_blowup() -> None:
    """Aliases may be used, but not to make a small file expand without bound."""
    from trailkit.models.spec.composing import compose
    from trailkit.models.spec.document import loaded, read_document
    from trailkit.models.spec.state import SpecReader

    text = HEAD + "kind: trail\nedges: [&e [a, b], *e, *e, *e]\n"
    puzzle = loaded(*read_document(SpecReader("<t>", None, budget=1000), compose(text, "<t>")))
    assert puzzle.num_edges == 4
    with pytest.raises(SpecError, match="expands"):
        loaded(*read_document(SpecReader("<t>", None, budget=10), compose(text, "<t>")))


def test_side_file_must_stay_in_spec_folder(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("a b\n")
    folder = tmp_path / "specs"
    folder.mkdir()
    path = write(folder, HEAD + "kind: trail\nedges_file: ../outside.txt\n")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2 and "inside the spec's folder" in err
    assert err.startswith(f"{path}:3:13:")


def test_side_file_errors_point_into_the_side_file(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.txt").write_text("a b red\n# note\nb c teal\n")
    path = write(tmp_path, HEAD + "kind: colour-walk\nedges_file: e.txt\nstart: a\ngoal: c\n")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{tmp_path / 'e.txt'}:3:1: error:") and "teal" in err


def test_spec_file_is_never_modified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nedges: [a b, b c]\n")
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    run_cli(["solve", str(path), "--json"], capsys)
    code, _, err = run_cli(["export", str(path), "--format", "dimacs", "--out", str(path)],
                           capsys)
    assert code == 2 and "refusing" in err
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solve"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["solve", "x.yaml", "--time-limit", "soon"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "soon" in err and "Traceback" not in err


def test_unknown_backend_lists_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nedges: [a b]\n")
    code, _, err = run_cli(["solve", str(path), "--backend", "cpsta"], capsys)
    assert code == 2
    assert "did you mean 'cpsat'" in err
    assert re.search(r"direct, cpsat, sat", err)


# ------------------------------------------------ inputs that are not regular files (issue 30)
READERS = [["lint"], ["solve"], ["count"], ["prove"], ["export", "--format", "dimacs"],
           ["draw", "--out", "OUT"], ["explain"], ["repair"]]


#: The child of :func:`_bounded_runs`: each command through ``tests/in_process.py``.
BOUNDED = """
import dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
from in_process import trailkit
print(json.dumps([dataclasses.asdict(trailkit(args)) for args in json.loads(sys.argv[2])]))
"""


def _bounded_runs(commands: list[list[str]], tmp_path: Path) -> list[Ran]:
    """``trailkit ARGS`` for each command, one after the other, in one child held to 1 GB
    of address space and 60 s: before the fix a device was read until memory ran out
    and a FIFO was waited on for ever. (One child, not one per command: each start
    imports NumPy, OR-Tools and Numba anew.)"""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    commands = [[str(tmp_path / "out.svg") if a == "OUT" else a for a in args]
                for args in commands]
    try:
        done = subprocess.run([sys.executable, "-c", BOUNDED, str(TESTS), json.dumps(commands)],
                              capture_output=True, text=True, timeout=60,
                              preexec_fn=limit, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail(f"trailkit {commands} still running after 60 s")
    assert done.returncode == 0, done.stderr[-2000:]
    return [Ran(**ran) for ran in json.loads(done.stdout)]


def _bounded_run(args: list[str], tmp_path: Path) -> Ran:
    return _bounded_runs([args], tmp_path)[0]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_device_as_spec_is_refused_at_once(command: list[str], tmp_path: Path) -> None:
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    specs = ("/dev/zero", str(link))
    for spec, done in zip(specs, _bounded_runs([[*command, spec] for spec in specs], tmp_path),
                          strict=True):
        assert done.returncode == 2, done.stderr[-2000:]
        assert "character device, not a regular file" in done.stderr
        assert spec in done.stderr and "Traceback" not in done.stderr


def test_urandom_and_fifo_as_spec_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    cases = (("/dev/urandom", "character device"), (str(fifo), "FIFO"))
    runs = _bounded_runs([["lint", spec] for spec, _ in cases], tmp_path)
    for (_, words), done in zip(cases, runs, strict=True):
        assert done.returncode == 2, done.stderr[-2000:]
        assert words in done.stderr and "not a regular file" in done.stderr


def test_folder_as_spec_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["solve", str(tmp_path)], capsys)
    assert code == 2 and "folder" in err and "Traceback" not in err


@pytest.mark.parametrize("target", ["fifo", "device"])
def test_side_file_must_be_a_regular_file(target: str, tmp_path: Path) -> None:
    if target == "fifo":
        os.mkfifo(tmp_path / "edges.txt")
    else:  # a device node inside the folder: /dev/zero's numbers (reading it is harmless)
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(tmp_path / "edges.txt", stat.S_IFCHR | 0o444, os.makedev(1, 5))
    path = write(tmp_path, HEAD + "kind: trail\nedges_file: edges.txt\n")
    done = _bounded_run(["lint", str(path)], tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith(f"{path}:3:13:") and "not a regular file" in done.stderr


def test_side_file_naming_the_spec_itself(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nedges_file: spec.yaml\n", "spec.yaml")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2 and "names the spec itself" in err, err
    assert err.startswith(f"{path}:3:13:")


def test_side_file_over_its_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.models.spec.edges import side_files

    monkeypatch.setattr(side_files, "MAX_SIDE_FILE_BYTES", 100)
    (tmp_path / "e.txt").write_text("a b\nb c\n" * 20)
    path = write(tmp_path, HEAD + "kind: trail\nedges_file: e.txt\n")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2 and "over the" in err and "limit" in err, err


def test_read_stops_at_its_cap_whatever_the_size_says(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A size of 0 (what a device or a file in /proc reports) does not let a read run on:
    it reads in pieces and stops one byte past the cap."""
    from trailkit.models.formats import inputs

    path = tmp_path / "s.yaml"
    path.write_bytes(b"x" * 5000)
    asked: list[int] = []
    real_read = os.read
    monkeypatch.setattr(inputs.os, "read", lambda fd, n: asked.append(n) or real_read(fd, n))
    monkeypatch.setattr(inputs, "_check", lambda seen, cap: None)  # as if st_size were 0
    monkeypatch.setattr(inputs, "PIECE", 64)
    with pytest.raises(inputs.TooBig):
        inputs.read_bounded(path, 1000)
    assert sum(asked) <= 1001 and max(asked) <= 64


def test_certificate_that_is_a_device_or_fifo(tmp_path: Path) -> None:
    spec = write(tmp_path, HEAD + "kind: trail\nedges: [a b, b c, c a, a d]\n")
    fifo = tmp_path / "cert.json"
    os.mkfifo(fifo)
    certs = ("/dev/zero", str(fifo))
    for done in _bounded_runs([["check-certificate", str(spec), c] for c in certs], tmp_path):
        assert done.returncode == 2, done.stderr[-2000:]
        assert "not a regular file" in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------- "did you mean" at a bounded cost
def test_a_hint_looks_at_a_bounded_number_of_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Among 50,000 names a hint still finds the one-edit typo, but compares at most
    MAX_SCANNED names cheaply and hands difflib none of them (it once got them all, for
    every misspelled name: a 550 KB spec took 160 s to lint)."""
    import difflib

    from trailkit.models.support import hints

    handed: list[int] = []
    real = difflib.get_close_matches
    monkeypatch.setattr(hints.difflib, "get_close_matches",
                        lambda word, names, **kw: handed.append(len(names)) or real(
                            word, names, **kw))
    checked: list[int] = []
    one_edit = hints._one_edit
    monkeypatch.setattr(hints, "_one_edit", lambda a, b: checked.append(1) or one_edit(a, b))
    names = [f"node{i:06d}" for i in range(50_000)]
    assert hints.closest("nodx000042", names) == "node000042"
    assert hints.closest("NODE000042", names) == "node000042"
    assert hints.closest("x" * 10_000, names) is None
    assert sum(handed) == 0 and len(checked) <= hints.MAX_SCANNED
    assert hints.did_you_mean("bleu", ["red", "blue", "green"]) == " (did you mean 'blue'?)"


def test_many_misspelled_names_in_a_big_spec_stay_cheap(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec declaring 20,000 nodes whose edges misspell them: each problem's hint looks
    at a bounded number of names (counted, not timed)."""
    from trailkit.models.support import hints

    looked: list[int] = []
    real = hints.one_edit_away
    monkeypatch.setattr(hints, "one_edit_away",
                        lambda word, names: looked.append(len(list(names))) or real(word, names))
    n = 20_000
    nodes = ", ".join(f"node{i:06d}" for i in range(n))
    edges = "".join(f"- nodx{i:06d} nodx{i + 1:06d}\n" for i in range(200))
    path = write(tmp_path, HEAD + f"kind: trail\nnodes: [{nodes}]\nedges:\n{edges}")
    code, _, err = run_cli(["lint", str(path)], capsys)
    assert code == 2 and "(did you mean 'node000007'?)" in err
    assert looked and max(looked) <= hints.MAX_SCANNED


def test_compare_with_a_campaign_file_refuses_a_device_spec(tmp_path: Path) -> None:
    """The campaign's spec hash read the spec whole first (a MemoryError, exit 4)."""
    done = _bounded_run(["compare", "/dev/zero", "--backends", "direct", "--memory-limit",
                         "600", "--db", str(tmp_path / "runs.sqlite")], tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "character device, not a regular file" in done.stdout + done.stderr
