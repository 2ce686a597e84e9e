"""Every claim proven by refutation, checked by the SAT community's own checkers (issue 32).

``prove [--claim C] --proof-dir DIR --lrat`` writes ``formula.cnf`` (its comments say what
the refutation means), ``proof.drat`` and ``proof.lrat`` for every refutation claim:
``unsolvable``, ``shortest``, ``longest``, ``unique`` and ``count``. Here each is read by
trailkit's DRUP and LRAT checkers and, when installed, by drat-trim (``$DRAT_TRIM`` or
``PATH``), drat-trim's ``lrat-check`` (beside it, or on ``PATH``) and the verified
``cake_lpr`` (``$CAKE_LPR`` or ``PATH``); each is skipped when absent. ``lrat-check`` says
VERIFIED even for some bogus proofs, so it is never trusted alone: a tampered proof must
be refused by ``cake_lpr`` and by trailkit's LRAT checker.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from once_only_specs import CHAIN, CLOSED, COLOURED, ONE_TRAIL
from outside_tools import tool

from trailkit.models.checking.drup import check_drup
from trailkit.models.checking.lrat import check_lrat_files, read_dimacs
from trailkit.solvers.frontends.cli import main

SPECS = Path(__file__).resolve().parent.parent / "specs"
# A closed walk of reusable planks from a: red and blue in turn, 6 steps at the fewest.
REUSABLE = """trailkit: 1
kind: walk
use: any
objective: shortest
colours: [red, blue]
closed: true
start: a
edges: [a b red, b c blue, c a red, a d blue, d e red, e a blue]
"""

# (case, spec: a bundled path or a spec text, claim, what the formula's comment says)
CASES = [
    ("unsolvable-koenigsberg", SPECS / "koenigsberg.yaml", "unsolvable",
     "no walk of 7 steps uses every edge exactly once"),
    ("unsolvable-two-pieces", SPECS / "dominoes" / "two-pieces.yaml", "unsolvable",
     "the puzzle has no walk"),
    ("longest-train", SPECS / "dominoes" / "longest-train.yaml", "longest",
     "no walk of more than 7 steps"),
    ("count-nikolaus", SPECS / "nikolaus.yaml", "count",
     "no walk other than the 88"),
    ("count-triangle", SPECS / "dominoes" / "triangle.yaml", "count", "no walk other than"),
    # no walk at all, so no count: with --proof-dir, the DRUP proof of that (exit 1)
    ("count-koenigsberg", SPECS / "koenigsberg.yaml", "count", "the puzzle has no walk"),
    ("unique-trail", ONE_TRAIL, "unique", "no walk other than the 1"),
    ("unique-shortest", COLOURED, "unique",
     "no walk of at most 7 steps other than the certificate's"),
    ("unique-longest", CHAIN, "unique", "no walk of 3 or more steps other than"),
    ("shortest-coloured", COLOURED, "shortest", "no walk of at most 6 steps"),
    ("shortest-closed", CLOSED, "shortest", "no walk of at most 2 steps"),
    ("shortest-closed-reusable", REUSABLE, "shortest", "no walk of at most 5 steps"),
    ("unique-empty", "trailkit: 1\nkind: walk\nuse: at-most-once\nstart: a\nend: a\n"
     "edges: [a b, b c]\n", "unique", "no walk of more than 0 steps"),
]



def lrat_check() -> str | None:
    """drat-trim's ``lrat-check``, beside drat-trim (when built there) or on ``PATH``."""
    trim = tool("DRAT_TRIM", "drat-trim")
    beside = Path(trim).with_name("lrat-check") if trim else None
    return str(beside) if beside and beside.is_file() else shutil.which("lrat-check")


def outside(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True, timeout=300,
                          check=False).stdout


def proof_dir(case: str, spec: Path | str, claim: str, tmp_path: Path,
              capsys: pytest.CaptureFixture[str]) -> Path:
    """The folder ``prove --claim CLAIM --proof-dir DIR --lrat`` wrote for ``spec``."""
    if isinstance(spec, str):
        path = tmp_path / f"{case}.yaml"
        path.write_text(spec, encoding="utf-8")
        spec = path
    folder = tmp_path / "proof"
    code = main(["prove", str(spec), "--claim", claim, "--proof-dir", str(folder), "--lrat"])
    out, err = capsys.readouterr()
    assert code == (1 if claim == "unsolvable" or "koenigsberg" in case else 0), out + err
    assert "proof files written" in out, out + err
    return folder


@pytest.mark.parametrize(("case", "spec", "claim", "meaning"), CASES,
                         ids=[case[0] for case in CASES])
def test_every_refutation_claims_proof_files_are_verified_outside(
        case: str, spec: Path | str, claim: str, meaning: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = proof_dir(case, spec, claim, tmp_path, capsys)
    cnf, drat, lrat = folder / "formula.cnf", folder / "proof.drat", folder / "proof.lrat"
    said = [line for line in cnf.read_text().splitlines()
            if line.startswith("c its refutation means: ")]
    assert len(said) == 1 and meaning in said[0], said
    _, clauses = read_dimacs(cnf.read_text(), str(cnf))
    assert check_drup(clauses, drat.read_bytes())[0]
    assert check_lrat_files(cnf, lrat)[0]
    trim = tool("DRAT_TRIM", "drat-trim")
    if trim is not None:
        assert "s VERIFIED" in outside([trim, str(cnf), str(drat)])
    checker = lrat_check()
    if checker is not None:
        assert "c VERIFIED" in outside([checker, str(cnf), str(lrat)])
    cake = tool("CAKE_LPR", "cake_lpr")
    if cake is not None:
        assert "s VERIFIED UNSAT" in outside([cake, str(cnf), str(lrat)])


@pytest.mark.parametrize("claim", ["unsolvable", "shortest"])
def test_a_tampered_lrat_proof_is_refused_by_cake_lpr_and_trailkit(
        claim: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The empty clause claimed straight from the formula's first clause, and the real
    proof with the empty clause's hints cut to its first (one clause that is not empty
    cannot be falsified): cake_lpr and trailkit's LRAT checker refuse both (drat-trim's
    lrat-check is not asked: it has said VERIFIED to bogus proofs)."""
    spec = SPECS / "koenigsberg.yaml" if claim == "unsolvable" else COLOURED
    folder = proof_dir(claim, spec, claim, tmp_path, capsys)
    cnf, lrat = folder / "formula.cnf", folder / "proof.lrat"
    clauses = len(read_dimacs(cnf.read_text(), str(cnf))[1])
    lines = lrat.read_text().splitlines()
    last = lines[-1].split()  # "ID 0 HINTS... 0": the empty clause and its hints
    assert last[1] == "0" and len(last) > 3
    cut = "".join(f"{line}\n" for line in lines[:-1]) + f"{last[0]} 0 {last[2]} 0\n"
    cake = tool("CAKE_LPR", "cake_lpr")
    for bogus in (f"{clauses + 1} 0 1 0\n", cut):
        tampered = folder / "tampered.lrat"
        tampered.write_text(bogus)
        assert not check_lrat_files(cnf, tampered)[0]
        if cake is not None:
            assert "s VERIFIED UNSAT" not in outside([cake, str(cnf), str(tampered)])
    if cake is None:
        pytest.skip("cake_lpr is not installed ($CAKE_LPR or PATH): trailkit's LRAT "
                    "checker alone refused the tampered proofs")
