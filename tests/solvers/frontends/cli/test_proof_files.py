"""``prove --proof-dir DIR [--lrat] [--force]`` (CONTRACT 1.2 §5): every bundled unsolvable
spec with a DRUP proof gets ``formula.cnf``, ``proof.drat`` and ``proof.lrat`` that check
when read back, with trailkit's DRUP and LRAT checkers and, when installed, drat-trim (and
its lrat-check); existing
files are refused without ``--force``; cut clauses are named in the formula's comments."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from trailkit.models.checking.drup import check_drup
from trailkit.models.checking.lrat import check_lrat_files
from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "specs"


def unsolvable_specs() -> list[Path]:
    """The bundled specs expected unsolvable (the benchmark folder's big ones left out:
    their proofs take minutes)."""
    found = []
    for path in sorted(SPECS.rglob("*.yaml")):
        if "bench" in path.relative_to(SPECS).parts:
            continue
        expect = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("expect") or {}
        if expect.get("status") == "unsolvable":
            found.append(path)
    return found


def read_cnf(path: Path) -> tuple[int, list[list[int]], list[str]]:
    """``(variables, clauses, comments)`` of a DIMACS file, read here on its own."""
    comments, numbers, header = [], [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("c"):
            comments.append(line)
        elif line.startswith("p cnf"):
            header = line.split()
        elif line.strip():
            numbers += [int(x) for x in line.split()]
    assert header is not None
    clauses, clause = [], []
    for x in numbers:
        if x == 0:
            clauses.append(clause)
            clause = []
        else:
            clause.append(x)
    assert not clause and len(clauses) == int(header[3])
    return int(header[2]), clauses, comments


def drat_trim() -> str | None:
    """drat-trim, from ``$DRAT_TRIM`` or ``PATH`` (third-party C, never bundled)."""
    given = os.environ.get("DRAT_TRIM")
    if given and Path(given).is_file():
        return given
    return shutil.which("drat-trim")


def lrat_checker() -> str | None:
    """drat-trim's ``lrat-check``, next to drat-trim (when built there) or on ``PATH``."""
    found = drat_trim()
    beside = Path(found).with_name("lrat-check") if found else None
    return str(beside) if beside and beside.is_file() else shutil.which("lrat-check")


def prove_into(spec: Path, folder: Path, capsys: pytest.CaptureFixture[str],
               *extra: str) -> tuple[int, str, str]:
    code = main(["prove", str(spec), "--proof-dir", str(folder), *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("spec", unsolvable_specs(), ids=lambda p: p.stem)
def test_every_unsolvable_spec_round_trips(spec: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "proof"
    code, out, err = prove_into(spec, folder, capsys, "--lrat")
    if code == 2:  # no DRUP proof applies (walks that may reuse edges): said, nothing written
        assert "no DRUP proof applies" in err and not folder.exists()
        return
    assert code == 1, out + err
    assert "proof files written" in out
    num_vars, clauses, comments = read_cnf(folder / "formula.cnf")
    digest = next(line.split()[2] for line in comments if line.startswith("c cnf_sha256"))
    body = "".join(line + "\n" for line in (folder / "formula.cnf").read_text().splitlines()
                   if not line.startswith("c"))
    assert hashlib.sha256(body.encode()).hexdigest() == digest
    assert comments[0].startswith("c trailkit ") and " formula of " in comments[0]
    ok, message = check_drup(clauses, (folder / "proof.drat").read_bytes())
    assert ok, message
    ok, message = check_lrat_files(folder / "formula.cnf", folder / "proof.lrat")
    assert ok, message
    assert num_vars >= max((abs(x) for c in clauses for x in c), default=0)
    checker = drat_trim()
    if checker is not None:
        run = subprocess.run([checker, str(folder / "formula.cnf"), str(folder / "proof.drat")],
                             capture_output=True, text=True, check=False)
        assert "s VERIFIED" in run.stdout, run.stdout[-2000:]
    lrat_check = lrat_checker()
    if lrat_check is not None:  # drat-trim's own LRAT checker, beside it
        run = subprocess.run([lrat_check, str(folder / "formula.cnf"),
                              str(folder / "proof.lrat")], capture_output=True, text=True,
                             check=False)
        assert "c VERIFIED" in run.stdout and "FAILED" not in run.stdout, run.stdout[-2000:]


def test_existing_files_are_refused_without_force(tmp_path: Path, capsys) -> None:
    spec = SPECS / "dominoes" / "two-pieces.yaml"
    folder = tmp_path / "proof"
    assert prove_into(spec, folder, capsys)[0] == 1
    (folder / "proof.drat").write_text("mine\n")
    code, out, err = prove_into(spec, folder, capsys)
    assert code == 2 and out == "" and "already exists" in err and "--force" in err
    assert (folder / "proof.drat").read_text() == "mine\n"  # untouched
    assert prove_into(spec, folder, capsys, "--force")[0] == 1
    assert check_drup(read_cnf(folder / "formula.cnf")[1],
                      (folder / "proof.drat").read_bytes())[0]


def test_lrat_needs_a_proof_dir_and_a_file_is_no_folder(tmp_path: Path, capsys) -> None:
    spec = SPECS / "dominoes" / "two-pieces.yaml"
    assert main(["prove", str(spec), "--lrat"]) == 2
    assert "--lrat needs --proof-dir" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    code, _, err = prove_into(spec, tmp_path / "file", capsys)
    assert code == 2 and "not a folder" in err


def test_cut_clauses_are_marked_in_the_formula(tmp_path: Path, capsys) -> None:
    spec = tmp_path / "triangles.yaml"
    edges = "".join(f"  - {{from: {a}, to: {b}}}\n" for a, b in
                    ["ab", "bc", "ca", "de", "ef", "fd"])
    spec.write_text(f"trailkit: 1\nkind: trail\nname: two triangles\nclosed: true\n"
                    f"edges:\n{edges}")
    code, out, err = prove_into(spec, tmp_path / "proof", capsys, "--backend", "sat/transition")
    assert code == 1, out + err
    _, clauses, comments = read_cnf(tmp_path / "proof" / "formula.cnf")
    marked = [line for line in comments if "cut" in line]
    assert any("not by drat-trim" in line for line in marked)
    assert any(line.startswith(f"c clause {len(clauses)} = cut of edges") for line in marked)
    assert check_drup(clauses, (tmp_path / "proof" / "proof.drat").read_bytes())[0]


def test_the_first_check_says_it_compiles(tmp_path: Path, capsys,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Before a check that compiles the checker (the first after installing), the status
    line says so; once compiled, the library says nothing more will compile."""
    from trailkit.models.checking import drup

    shown: list[str] = []
    monkeypatch.setattr("trailkit.solvers.frontends.cli.answers.status_line", lambda: shown.append)
    monkeypatch.setattr(drup, "will_compile", lambda lrat=False: True)
    spec = SPECS / "koenigsberg.yaml"  # its proof is big enough to run compiled
    code = main(["prove", str(spec), "--drup"])
    capsys.readouterr()
    assert code == 1 and drup.COMPILING in shown
    monkeypatch.undo()
    formula, proof = _koenigsberg_formula_and_proof(tmp_path, capsys)
    assert check_drup(formula, proof)[0]
    assert drup.will_compile() is False  # compiled (or cached) now
    assert drup.drup_to_lrat(formula, proof)[0]
    assert drup.will_compile(lrat=True) is False  # the LRAT pass's kernel too


def _koenigsberg_formula_and_proof(tmp_path: Path, capsys) -> tuple[list[list[int]], bytes]:
    assert prove_into(SPECS / "koenigsberg.yaml", tmp_path / "k", capsys, "--drup")[0] == 1
    return read_cnf(tmp_path / "k" / "formula.cnf")[1], (tmp_path / "k" / "proof.drat").read_bytes()
