"""The DRUP checker's compiled kernel against independent oracles.

A proof the checker accepts must refute the formula: brute force over every
assignment says whether it does. Without deletions, forward checking must give
the verdict (and the failing line) of a naive reverse-unit-propagation checker
written here from the definition. The interpreted kernel (Numba switched off)
must say exactly what the compiled one says, and a watch pool small enough to be
compacted in the middle of a propagation must not change a verdict.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.checking import drup
from trailkit.models.checking.drup import check_drup
from trailkit.models.proofs import drup_kernel

SOLVERS = ["cadical195", "glucose4", "maplechrono"]
MODES = [True, False]  # backward, forward

# Small proofs are checked interpreted (trailkit.models.checking.drup); these tests are of the
# compiled kernels, so every proof here runs compiled, as the big ones do.
pytestmark = pytest.mark.usefixtures("compiled_kernels")


def refuted(clauses: list[list[int]], num_vars: int) -> bool:
    """Whether no assignment of variables 1..num_vars satisfies every clause."""
    for bits in itertools.product((False, True), repeat=num_vars):
        if all(any(bits[abs(x) - 1] == (x > 0) for x in c) for c in clauses):
            return False
    return True


def naive_rup(clauses: list[list[int]], lemma: list[int]) -> bool:
    """Reverse unit propagation from the definition: assume the lemma false and
    propagate units by rescanning every clause until nothing changes."""
    true = {-x for x in lemma}
    if any(-x in true for x in true):
        return True
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(x in true for x in c):
                continue
            open_ = {x for x in c if -x not in true}
            if not open_:
                return True
            if len(open_) == 1:
                true |= open_
                changed = True
    return False


def naive_forward(clauses: list[list[int]], lemmas: list[list[int]]) -> tuple[bool, int | None]:
    """(accepted, index of the failing lemma or None): forward checking of a proof
    without deletions, stopping once propagation alone refutes the clauses so far."""
    database = [list(c) for c in clauses]
    for index, lemma in enumerate(lemmas):
        if naive_rup(database, []):
            return any(not x for x in lemmas[index:]), None
        if not lemma or not naive_rup(database, lemma):
            return False, index
        database.append(lemma)
    return False, None


def proof_of(solver: str, clauses: list[list[int]]) -> list[str] | None:
    """The solver's DRUP proof of ``clauses``, or None when they are satisfiable."""
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
        return None if s.solve() else [line.strip() for line in s.get_proof()]


literal = st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v]))
clause = st.lists(literal, min_size=1, max_size=3)


@st.composite
def formulas_and_proofs(draw):
    """A random formula over at most 5 variables and a proof: the solver's own
    (when unsatisfiable) with random lines dropped, replaced or inserted, deletions
    of random clauses among them, or an outright random one."""
    clauses = draw(st.lists(clause, min_size=1, max_size=24))
    proof = proof_of(draw(st.sampled_from(SOLVERS)), clauses) or []
    lines = [*proof]
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(lines)))
        what = draw(st.sampled_from(["drop", "lemma", "delete"]))
        if what == "drop" and lines:
            del lines[min(where, len(lines) - 1)]
        elif what == "lemma":
            lines.insert(where, " ".join(map(str, draw(clause))) + " 0")
        else:
            victim = draw(st.sampled_from(clauses))
            lines.insert(where, "d " + " ".join(map(str, victim)) + " 0")
    if draw(st.booleans()):
        lines.append("0")
    return clauses, lines


SETTINGS = settings(suppress_health_check=[HealthCheck.filter_too_much])


CHECKS = [{"backward": True}, {"backward": True, "core_first": False}, {"backward": False}]


@SETTINGS
@given(formulas_and_proofs(), st.sampled_from(CHECKS))
def test_an_accepted_proof_refutes_the_formula(case, how: dict[str, bool]) -> None:
    clauses, proof = case
    ok, message = check_drup(clauses, proof, **how)
    if ok:
        assert refuted(clauses, 5), (clauses, proof, message)


@SETTINGS
@given(formulas_and_proofs())
def test_forward_checking_matches_the_definition(case) -> None:
    clauses, proof = case
    lemmas = [[int(x) for x in line.split()[:-1]] for line in proof if not line.startswith("d")]
    proof = [line for line in proof if not line.startswith("d")]
    accepted, failing = naive_forward(clauses, lemmas)
    ok, message = check_drup(clauses, proof, backward=False)
    assert ok == accepted, (clauses, proof, message)
    if failing is not None:
        assert f"proof line {failing + 1} " in message, (clauses, proof, message)
    # backward checking checks a subset of the same lemmas: it accepts at least as much
    assert check_drup(clauses, proof)[0] or not ok
    assert check_drup(clauses, proof, core_first=False)[0] or not ok


# ------------------------------------------------ compiled and interpreted agree
def kernel_cases() -> list[tuple[list[list[int]], list[str]]]:
    """Pigeonhole proofs of three solvers with some mutations, and random 3-SAT."""
    cases = []
    php = PHP(4).clauses
    for solver in SOLVERS:
        proof = proof_of(solver, php)
        assert proof is not None
        cases.append((php, proof))
        lemmas = [i for i, line in enumerate(proof) if line[0] != "d" and line != "0"]
        for i in lemmas[:: max(1, len(lemmas) // 4)]:
            cases.append((php, proof[:i] + proof[i + 1:]))
            first, *rest = proof[i].split()
            cases.append((php, [*proof[:i], " ".join([str(-int(first)), *rest]), *proof[i + 1:]]))
    rng = random.Random(7)
    for _ in range(3):
        clauses = [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, 41), 3)]
                   for _ in range(190)]
        proof = proof_of("cadical195", clauses)
        if proof is not None:
            cases.append((clauses, proof))
    return cases


def verdicts(cases: list[tuple[list[list[int]], list[str]]]) -> list[list[object]]:
    return [[*check_drup(c, p, **how)] for c, p in cases for how in CHECKS]


@pytest.mark.skipif(not drup_kernel.COMPILED, reason="Numba is not installed")
def test_interpreted_kernel_says_what_the_compiled_one_says(tmp_path) -> None:
    cases = kernel_cases()
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = ("import json, sys; from tests.models.checking.test_drup_kernel import verdicts; "
              "print(json.dumps(verdicts(json.load(open(sys.argv[1])))))")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    root = str(Path(__file__).resolve().parents[3])
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "cases.json")],
                         env=env, cwd=root, capture_output=True, text=True, check=True)
    interpreted = json.loads(out.stdout)
    compiled = verdicts(cases)
    assert interpreted == compiled
    assert any(ok for ok, _ in compiled) and not all(ok for ok, _ in compiled)


@pytest.mark.slow
def test_a_small_proof_is_checked_interpreted_with_the_compiled_verdicts(tmp_path) -> None:
    """Below the size where loading Numba costs more than the check, the checker runs
    its kernels interpreted: Numba is never imported, and every verdict is the compiled
    one."""
    cases = [case for case in kernel_cases()
             if sum(map(len, case[0])) + sum(map(len, case[1])) < 2000]
    assert len(cases) >= 5
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = ("import json, sys; from tests.models.checking.test_drup_kernel import verdicts; "
              "found = verdicts(json.load(open(sys.argv[1]))); "
              "print(json.dumps([found, 'numba' in sys.modules]))")
    root = str(Path(__file__).resolve().parents[3])
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "cases.json")],
                         cwd=root, capture_output=True, text=True, check=True)
    small, numba_loaded = json.loads(out.stdout)
    assert not numba_loaded
    assert small == verdicts(cases)


# --------------------------------------------------------------- watch pool
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("backward", MODES)
def test_a_small_watch_pool_is_compacted_mid_scan_without_changing_verdicts(
        monkeypatch, solver: str, backward: bool) -> None:
    clauses = PHP(5).clauses
    proof = proof_of(solver, clauses)
    assert proof is not None
    broken = [*proof[: len(proof) // 2], "1 0", *proof[len(proof) // 2:]]
    expected = [check_drup(clauses, p, backward=backward) for p in (proof, broken)]
    assert expected[0][0]
    monkeypatch.setattr(drup_kernel, "POOL_SLACK", 0)
    monkeypatch.setattr(drup_kernel, "POOL_PER_LITERAL", 1)
    for per_clause in range(2, 8):  # the smallest pool that is enough for the proof
        monkeypatch.setattr(drup_kernel, "POOL_PER_CLAUSE", per_clause)
        ok, message, db = drup._check(clauses, proof, None, drup.MAX_LEMMAS, backward)
        if "memory" not in message:
            break
    assert db is not None and db.meta[drup_kernel.MOVES] > 0  # compactions happened
    for p, verdict in zip((proof, broken), expected, strict=True):
        ok, message, _ = drup._check(clauses, p, None, drup.MAX_LEMMAS, backward)
        # The verdict and the line named are the same; how many lemmas the backward
        # pass checked may differ: a compaction drops the stale entries a deleted and
        # restored clause leaves in a watch list, so propagation may take another
        # (equally valid) route to its conflict.
        assert (ok, _verdict_line(message)) == (verdict[0], _verdict_line(verdict[1]))


def _verdict_line(message: str) -> str:
    """A check's message without the count of lemmas checked."""
    return message.split(" (")[0] if message.startswith("the proof derives") else message


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_watch_pool_is_sized_for_the_clauses_in_propagation(solver: str) -> None:
    # the pool holds the clauses present at once (counted here with a multiset of
    # clauses, line by line), not one per proof line
    clauses = PHP(6).clauses
    proof = proof_of(solver, clauses)
    assert proof is not None
    present = collections.Counter(frozenset(c) for c in clauses)
    most = count = len(clauses)
    for line in proof:
        literals = frozenset(int(x) for x in line.lstrip("d ").split()[:-1])
        if not line.startswith("d"):
            present[literals] += 1
            count += 1
        elif present[literals] and len(literals) > 1:  # a unit is never deleted
            present[literals] -= 1
            count -= 1
        most = max(most, count)
    ok, _, db = drup._check(clauses, proof, None, drup.MAX_LEMMAS, True)
    assert ok and db is not None
    assert len(db.watches) == len(drup_kernel.new_pool(most, len(db.truth)))
    assert most < len(db.size)


@pytest.mark.parametrize("backward", MODES)
def test_a_pool_found_short_is_checked_again_with_room_for_every_clause(
        monkeypatch, backward: bool) -> None:
    # a refused deletion (of a reason) keeps a clause the bound counted as gone; here
    # the bound is made far too small, and the verdict is still the one with room
    clauses = PHP(5).clauses
    proof = proof_of("cadical195", clauses)
    broken = [*proof[: len(proof) // 2], "1 0", *proof[len(proof) // 2:]]
    expected = [check_drup(clauses, p, backward=backward) for p in (proof, broken)]
    bounds: list[int] = []
    monkeypatch.setattr(drup, "_watching_at_most", lambda *args: bounds.append(0) or 0)
    monkeypatch.setattr(drup_kernel, "POOL_PER_LITERAL", 0)
    monkeypatch.setattr(drup_kernel, "POOL_SLACK", 0)
    for p, verdict in zip((proof, broken), expected, strict=True):
        ok, message = check_drup(clauses, p, backward=backward)
        assert (ok, _verdict_line(message)) == (verdict[0], _verdict_line(verdict[1]))
    assert bounds == [0, 0]  # each check asked for the tight pool first


def test_an_exhausted_watch_pool_leaves_the_proof_unchecked(monkeypatch) -> None:
    clauses = PHP(4).clauses
    proof = proof_of("cadical195", clauses)
    monkeypatch.setattr(drup_kernel, "POOL_PER_CLAUSE", 0)
    monkeypatch.setattr(drup_kernel, "POOL_PER_LITERAL", 0)
    monkeypatch.setattr(drup_kernel, "POOL_SLACK", 8)
    ok, message = check_drup(clauses, proof)
    assert not ok and message.startswith("unchecked:") and "memory" in message


@pytest.mark.slow
def test_variables_are_renumbered_and_bounded() -> None:
    # a variable numbered in the billions costs nothing: it is renumbered densely
    xor = [[1, 9_999_999_999], [-1, 9_999_999_999], [1, -9_999_999_999],
           [-1, -9_999_999_999]]
    ok, message = check_drup(xor, ["9999999999 0", "0"])
    assert ok, message
    ok, message = check_drup(xor, ["10000000000 0", "0"])
    assert not ok and "proof line 1 " in message and "malformed" in message
    ok, message = check_drup(xor, ["c a comment", "", "+1 0", "0"])
    assert not ok and "proof line 3 " in message and "'+1' is not a literal" in message


def test_progress_reports_name_the_phase_and_the_line(monkeypatch) -> None:
    clauses = PHP(5).clauses
    proof = proof_of("glucose4", clauses)
    assert proof is not None
    monkeypatch.setattr(drup, "_PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(drup, "_CHUNK", 16)
    lines: list[str] = []
    ok, message = check_drup(clauses, proof, progress=lines.append)
    assert ok, message
    total = f"of {len(proof):,}"
    assert any(x.startswith("DRUP proof: adding lemmas, line ") for x in lines)
    assert any(x.startswith("DRUP proof: checking lemmas backward, line ") for x in lines)
    assert all(x.endswith(total) for x in lines)


@given(st.lists(st.integers(min_value=0, max_value=50), max_size=80))
def test_compaction_orders_the_watch_lists_by_where_they_stand(keys: list[int]) -> None:
    # compact() packs the lists in the order of their offsets; its sort is written out
    # (an argsort would allocate, and the kernels run without reference counting)
    array = np.array(keys, dtype=np.int64)
    for sort in (drup_kernel.sort_by.compiled, drup_kernel.sort_by.interpreted):
        order = np.full(len(keys), -1, dtype=np.int64)
        sort(array, order)
        assert sorted(order.tolist()) == list(range(len(keys)))
        assert array[order].tolist() == sorted(keys)
