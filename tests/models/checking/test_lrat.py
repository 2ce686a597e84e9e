"""The LRAT checker (:mod:`trailkit.models.checking.lrat`) against its definition, and the LRAT
writer (:func:`trailkit.models.checking.drup.drup_to_lrat`) against the checker: python-sat's
proofs of random small unsatisfiable CNFs (brute force says so) become LRAT that checks;
an accepted proof's every lemma is implied by the clauses before it (brute force), on
formulas changed under the proof too; tampered files are rejected each for its reason,
with the line named."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from trailkit.models.checking import drup
from trailkit.models.checking.drup import drup_to_lrat
from trailkit.models.checking.lrat import check_lrat, read_dimacs

SOLVERS = ["glucose4", "cadical195"]


def satisfiable(clauses: list[list[int]], extra: list[int] | None = None) -> bool:
    """Brute force: some assignment satisfies ``clauses`` (and falsifies ``extra``)."""
    top = max((abs(x) for c in [*clauses, extra or []] for x in c), default=0)
    for bits in itertools.product((False, True), repeat=top):
        value = {v: bits[v - 1] for v in range(1, top + 1)}
        if extra and any(value[abs(x)] == (x > 0) for x in extra):
            continue
        if all(any(value[abs(x)] == (x > 0) for x in c) for c in clauses):
            return True
    return False


def solver_proof(clauses: list[list[int]], solver: str) -> list[str] | None:
    """The solver's DRUP proof, ended with "0" when it stopped before logging it (as
    trailkit's certificates are,
    :func:`trailkit.models.encodings.drup_certificate.make_certificate`)."""
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        proof = [line.strip() for line in s.get_proof() if line.strip()]
    return proof if proof and proof[-1] == "0" else [*proof, "0"]


def lrat_of(clauses: list[list[int]], solver: str = "glucose4") -> str:
    proof = solver_proof(clauses, solver)
    assert proof is not None
    ok, message, text = drup_to_lrat(clauses, proof)
    assert ok and text is not None, message
    return text


small_cnfs = st.lists(
    st.lists(st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v])), min_size=1,
             max_size=3),
    min_size=4, max_size=40)


@given(small_cnfs, st.sampled_from(SOLVERS))
def test_solver_proofs_become_lrat_that_checks(clauses: list[list[int]], solver: str) -> None:
    assume(not satisfiable(clauses))
    proof = solver_proof(clauses, solver)
    assert proof is not None
    ok, message, text = drup_to_lrat(clauses, proof)
    assert ok and text is not None, message
    ok, message = check_lrat(clauses, text)
    assert ok, message
    assert_lemmas_implied(clauses, text)


@given(small_cnfs, st.data())
def test_accepted_means_implied_on_changed_formulas(clauses: list[list[int]],
                                                    data: st.DataObject) -> None:
    """Swap one formula clause under a valid proof: whatever the checker still accepts
    is a refutation of the changed formula (brute force), lemma by lemma."""
    assume(not satisfiable(clauses))
    text = lrat_of(clauses)
    k = data.draw(st.integers(0, len(clauses) - 1))
    changed = [*clauses[:k], data.draw(small_cnfs)[0], *clauses[k + 1:]]
    ok, _ = check_lrat(changed, text)
    if ok:
        assert not satisfiable(changed)
        assert_lemmas_implied(changed, text)


def assert_lemmas_implied(clauses: list[list[int]], text: str) -> None:
    """Every lemma the checker accepted follows from the clauses present at its line."""
    present = dict(enumerate(clauses, 1))
    for line in text.splitlines():
        values = line.split()
        if values[1] == "d":
            for i in values[2:-1]:
                del present[int(i)]
            continue
        numbers = [int(x) for x in values]
        lemma = numbers[1:numbers.index(0)]
        assert not satisfiable(list(present.values()), lemma), line
        present[numbers[0]] = lemma


# ------------------------------------------------------------------ tampering
@pytest.fixture(scope="module")
def php() -> tuple[list[list[int]], list[str]]:
    clauses = PHP(4).clauses
    return clauses, lrat_of(clauses, "cadical195").splitlines()


def rejected(clauses: list[list[int]], lines: list[str], reason: str) -> int:
    ok, message = check_lrat(clauses, "\n".join(lines) + "\n")
    assert not ok and reason in message, message
    found = re.match(r"LRAT line (\d+): ", message)
    assert found, message
    return int(found.group(1))


def lemma_lines(lines: list[str]) -> list[int]:
    return [k for k, line in enumerate(lines) if line.split()[1] != "d"]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("variant", ["interpreted", "compiled"])
def test_lrat_handed_over_in_blocks_is_the_same_text(solver: str, variant: str, monkeypatch,
                                                      request) -> None:
    if variant == "compiled":
        request.getfixturevalue("compiled_kernels")
    clauses = PHP(5).clauses
    proof = solver_proof(clauses, solver)
    assert proof is not None
    ok, message, text = drup_to_lrat(clauses, proof)
    assert ok and text is not None, message
    monkeypatch.setattr(drup, "LRAT_BLOCK", 1)  # blocks as small as the longest line
    blocks: list[bytes] = []
    ok, message, nothing = drup_to_lrat(clauses, proof,
                                        write=lambda block: blocks.append(bytes(block)))
    assert ok and nothing is None, message
    assert len(blocks) > 20 and all(blocks)
    assert b"".join(blocks).decode("ascii") == text
    assert any(not block.endswith(b"\n") for block in blocks)  # a deletion line cut
    written: list[bytes] = []
    ok, _, _ = drup_to_lrat(clauses, proof[:-1], write=written.append)
    assert not ok and written == []  # a rejected proof writes nothing


def parts(line: str) -> tuple[int, list[int], list[int]]:
    numbers = [int(x) for x in line.split()]
    cut = numbers.index(0)
    return numbers[0], numbers[1:cut], numbers[cut + 1:-1]


def joined(clause_id: int, lemma: list[int], hints: list[int]) -> str:
    return " ".join(map(str, [clause_id, *lemma, 0, *hints, 0]))


def test_the_valid_proof_is_accepted(php) -> None:
    clauses, lines = php
    assert check_lrat(clauses, lines)[0]


def test_a_wrong_hint(php) -> None:
    clauses, lines = php
    k = next(k for k in lemma_lines(lines) if len(parts(lines[k])[2]) >= 3)
    clause_id, lemma, hints = parts(lines[k])
    first_id = hints[0]
    # a formula clause that shares no variable with the lemma nor the first hint: not unit
    lemma_vars = {abs(x) for x in [*lemma, *clauses[first_id - 1]]}
    other = next(i for i, c in enumerate(clauses, 1)
                 if len(c) > 1 and not {abs(x) for x in c} & lemma_vars)
    tampered = [*lines[:k], joined(clause_id, lemma, [other, *hints[1:]]), *lines[k + 1:]]
    assert rejected(clauses, tampered, "wrong hint") == k + 1


def test_a_missing_hint(php) -> None:
    clauses, lines = php
    k = lemma_lines(lines)[0]
    clause_id, lemma, hints = parts(lines[k])
    tampered = [*lines[:k], joined(clause_id, lemma, hints[:-1]), *lines[k + 1:]]
    assert rejected(clauses, tampered, "a hint is missing") == k + 1


def test_a_lemma_that_does_not_follow(php) -> None:
    clauses, lines = php
    k = lemma_lines(lines)[0]
    clause_id, _, hints = parts(lines[k])
    fresh = max(abs(x) for c in clauses for x in c) + 1
    tampered = [*lines[:k], joined(clause_id, [fresh], hints), *lines[k + 1:]]
    assert rejected(clauses, tampered, "the lemma does not follow") == k + 1


def test_an_id_used_before_it_exists(php) -> None:
    clauses, lines = php
    k = lemma_lines(lines)[0]
    clause_id, lemma, hints = parts(lines[k])
    tampered = [*lines[:k], joined(clause_id, lemma, [clause_id + 1, *hints]),
                *lines[k + 1:]]
    assert rejected(clauses, tampered, "before it exists") == k + 1
    # and a clause used after its deletion
    tampered = [*lines[:k], f"{len(clauses)} d {hints[0]} 0", *lines[k:]]
    assert rejected(clauses, tampered, f"clause {hints[0]}, deleted at line {k + 1}") == k + 2


def test_no_empty_clause(php) -> None:
    clauses, lines = php
    ok, message = check_lrat(clauses, "\n".join(lines[:-1]))
    assert not ok and "without the empty clause" in message


def test_ids_must_grow_and_lines_must_parse(php) -> None:
    clauses, lines = php
    k = lemma_lines(lines)[0]
    _, lemma, hints = parts(lines[k])
    tampered = [*lines[:k], joined(1, lemma, hints), *lines[k + 1:]]
    assert rejected(clauses, tampered, "ids must grow") == k + 1
    assert rejected(clauses, ["x 0 0"], "not a number") == 1
    assert rejected(clauses, [f"{len(clauses) + 1} 1 0 -2 0"], "RAT") == 1


def test_read_dimacs_names_the_line() -> None:
    assert read_dimacs("c hello\np cnf 2 2\n1 -2 0\n2\n0\n") == (2, [[1, -2], [2]])
    with pytest.raises(ValueError, match=r"f.cnf:3: not a DIMACS line"):
        read_dimacs("p cnf 2 1\n1 0\nx 0\n", "f.cnf")
    with pytest.raises(ValueError, match="the p line says 2"):
        read_dimacs("p cnf 2 2\n1 0\n")
