"""A second opinion on trailkit's proof checkers: dratify (a pure-Python DRAT checker from
PyPI, forward, RAT off) and, when installed, drat-trim judge the same small proofs as
trailkit's DRUP checker and its LRAT checker, valid ones and corrupted ones (a lemma
dropped, a literal flipped, a deletion moved before a use, the empty clause removed).

Forward checkers check every lemma, backward ones only those the refutation rests on, so
the verdicts compared are like for like: dratify against trailkit's forward mode, and
trailkit's LRAT output against its default backward mode. drat-trim (backward) accepts
every proof trailkit does; it also accepts a proof without the empty-clause line whose
lemmas propagate to a conflict, and RAT lemmas, which trailkit rejects (it checks DRUP):
where it accepts and trailkit does not, it must be for one of those two reasons."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.checking.drup import check_drup, drup_to_lrat
from trailkit.models.checking.lrat import check_lrat

dratify = pytest.importorskip("dratify", reason="dratify is in the test extra")

Clauses = list[list[int]]


def random_3sat(variables: int, clauses: int, seed: int) -> Clauses:
    rng = random.Random(seed)
    return [[v * rng.choice((1, -1)) for v in rng.sample(range(1, variables + 1), 3)]
            for _ in range(clauses)]


def refuted(clauses: Clauses, solver: str) -> tuple[Clauses, list[str]]:
    """``clauses`` (a copy) and the ``solver``'s DRUP refutation of them (made once)."""
    return [list(c) for c in clauses], list(_proof(tuple(map(tuple, clauses)), solver))


@cache  # three seeds corrupt the same proof: the solver makes it once
def _proof(rows: tuple[tuple[int, ...], ...], solver: str) -> tuple[str, ...]:
    with Solver(name=solver, bootstrap_with=[list(r) for r in rows], with_proof=True) as s:
        assert not s.solve()
        proof = [line.strip() for line in s.get_proof() if line.strip()]
    return tuple(proof if proof[-1] == "0" else [*proof, "0"])


FORMULAS = {"php4": PHP(4).clauses, "php5": PHP(5).clauses,
            "random": next(f for seed in range(50)
                           if not Solver(name="cadical195",
                                         bootstrap_with=(f := random_3sat(40, 190, seed))
                                         ).solve())}
CASES = [(name, solver) for name in FORMULAS for solver in ("cadical195", "glucose4")]


def lemma_indices(proof: list[str]) -> list[int]:
    return [k for k, line in enumerate(proof) if not line.startswith("d") and line != "0"]


def corruptions(proof: list[str], seed: int) -> dict[str, list[str]]:
    """The valid proof and its corrupted versions (one position chosen by ``seed``). The
    two that no seed changes (the valid proof, the empty clause removed) come with seed 0
    only: the other seeds would judge the very same proofs again."""
    rng = random.Random(seed)
    lemmas = lemma_indices(proof)
    k = rng.choice(lemmas)
    flipped = proof[k].split()
    j = rng.randrange(len(flipped) - 1)
    flipped[j] = str(-int(flipped[j]))
    out = {"lemma dropped": proof[:k] + proof[k + 1:],
           "literal flipped": [*proof[:k], " ".join(flipped), *proof[k + 1:]]}
    if seed == 0:
        out |= {"valid": proof, "empty clause removed": [line for line in proof if line != "0"]}
    deletions = [d for d in range(len(proof)) if proof[d].startswith("d ")]
    if deletions:  # a deletion moved up to right after the clause it deletes appeared
        d = rng.choice(deletions)
        clause = proof[d][2:]
        born = max((i for i in range(d) if proof[i] == clause), default=-1)
        moved = [line for i, line in enumerate(proof) if i != d]
        moved.insert(born + 1, proof[d])
        out["deletion moved before its use"] = moved
    return out


def dratify_verdict(clauses: Clauses, proof: list[str]) -> bool:
    formula = dratify.parse_dimacs(cnf_text(clauses))
    return bool(dratify.check_proof(formula, "\n".join(proof) + "\n", check_rat=False,
                                    engine="python").ok)


def cnf_text(clauses: Clauses) -> str:
    top = max(abs(x) for c in clauses for x in c)
    return f"p cnf {top} {len(clauses)}\n" + "".join(
        " ".join(map(str, c)) + " 0\n" for c in clauses)


def lrat_verdict(clauses: Clauses, proof: list[str]) -> bool:
    ok, _, text = drup_to_lrat(clauses, proof)
    if not ok or text is None:
        return False
    accepted, message = check_lrat(clauses, text)
    assert accepted, message  # what the writer writes, the LRAT checker accepts
    return True


def drat_trim() -> str | None:
    given = os.environ.get("DRAT_TRIM")
    return given if given and Path(given).is_file() else shutil.which("drat-trim")


@pytest.mark.parametrize(("name", "solver"), CASES)
@pytest.mark.parametrize("seed", range(3))
def test_verdicts_agree(name: str, solver: str, seed: int, tmp_path: Path) -> None:
    clauses, proof = refuted(FORMULAS[name], solver)
    checker = drat_trim()
    cnf = tmp_path / "f.cnf"
    cnf.write_text(cnf_text(clauses))
    for what, variant in corruptions(proof, seed).items():
        forward = check_drup(clauses, variant, backward=False)[0]
        backward = check_drup(clauses, variant)[0]
        assert forward == dratify_verdict(clauses, variant), what
        assert lrat_verdict(clauses, variant) == backward, what
        assert backward or not forward, what  # what holds forward holds backward
        if what in ("valid", "empty clause removed"):
            assert forward == (what == "valid"), what
        if checker is not None:
            proof_file = tmp_path / "p.drat"
            proof_file.write_text("\n".join(variant) + "\n")
            run = subprocess.run([checker, str(cnf), str(proof_file)], capture_output=True,
                                 text=True, check=False)
            verified = "s VERIFIED" in run.stdout
            assert verified or not backward, (what, run.stdout[-500:])
            if verified and not backward:  # drat-trim is more lenient in two known ways:
                implicit = what == "empty clause removed"  # it needs no empty-clause line
                rat = "c 0 RAT lemmas in core" not in run.stdout  # it accepts RAT lemmas
                assert implicit or rat, (what, run.stdout[-500:])
