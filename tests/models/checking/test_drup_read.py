"""Reading a DRUP proof into the checker's database (:mod:`trailkit.models.proofs.drup_read`)
against a reference written here from the definition.

The reference reads the proof's lines with the exact per-line reader and then does the
rest in plain Python: each lemma's literals sorted and without repeats, and each
deletion's target, the latest clause with the same literals (no tautology) not
deleted before. The byte scanner must give the same, whether the proof is a text,
bytes, a list of lines or a file read in blocks of any size (lines cut at block
ends), compiled or interpreted; and reading a file must not hold its text.
"""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from trailkit.models.checking import drup
from trailkit.models.checking.drup import check_drup
from trailkit.models.proofs import drup_read
from trailkit.models.support import jit

# Tokens and blanks from which proof lines are drawn: well-formed ones, and the near
# misses and rare characters the byte scanner must leave to the exact reader.
_TOKENS = st.one_of(
    st.integers(-(10**11), 10**11).map(str),
    st.sampled_from(["0", "00", "-0", "+1", "1-2", "x", "d", "-", "9999999999",
                     "10000000000", "\u0663", "1\u00a02"]))
_BLANKS = st.sampled_from([" ", " ", "  ", "\t", " \t ", "\v", "\f", "\x1c", "\u2028",
                           "\r", "\x85", "\n"])
_PREFIXES = st.sampled_from(["", "", "d ", "d\t", "d", "c ", "c", " ", "c\u00e9 "])
_ENDS = st.sampled_from(["", " 0", " 0", " 0", "0", " 0 ", " 0\t", " 0\r"])
_SMALL_TOKENS = st.integers(1, 4).flatmap(lambda v: st.sampled_from([str(v), str(-v)]))


@st.composite
def proof_lines(draw, tokens=_TOKENS) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(0, 10))):
        words = draw(st.lists(tokens, max_size=5))
        blank = draw(_BLANKS) if draw(st.integers(0, 9)) == 0 else " "
        lines.append(draw(_PREFIXES) + blank.join(words) + draw(_ENDS))
    return lines


def reference_targets(clauses: list[list[int]], lines: list[tuple[bool, list[int]]],
                      ) -> list[int]:
    """The clause each deletion line deletes, from the definition: the latest clause
    with the same set of literals (no tautology) not deleted before, else -1."""
    present: list[tuple[int, frozenset[int]]] = [
        (c, frozenset(x)) for c, x in enumerate(clauses)
        if not any(-v in x for v in x)]
    targets = []
    for i, (deleting, lits) in enumerate(lines):
        key = frozenset(lits)
        if not deleting:
            targets.append(-1)
            if not any(-v in key for v in key):
                present.append((len(clauses) + i, key))
            continue
        found = [k for k, (_, s) in enumerate(present) if s == key]
        targets.append(present.pop(found[-1])[0] if found else -1)
    return targets


def _code(x: int) -> int:
    return 2 * abs(x) + (x < 0)


def reference(clauses: list[list[int]], lines: list[str], max_lemmas: int) -> object:
    """What the reader must make of the proof ``lines``: the exact reader's message, or
    per clause line its number, kind, literals (a lemma's sorted by literal code without
    repeats; none for a deletion), target and text."""
    exact = drup_read.exact_lines(lines, max_lemmas)
    if isinstance(exact, str):
        return exact
    _, numbers, texts = exact
    parsed = [(t.startswith("d"), [int(x) for x in t.lstrip("d").split()[:-1]])
              for t in texts]
    literals = [[] if deleting else sorted(set(xs), key=_code) for deleting, xs in parsed]
    return (numbers, [int(d) for d, _ in parsed], literals,
            reference_targets(clauses, parsed), texts)


def read(clauses: list[list[int]], proof: object, max_lemmas: int) -> object:
    """What the reader makes of ``proof``, in the terms of :func:`reference`."""
    result = drup_read.read_proof(proof, max_lemmas)
    if isinstance(result, str):
        return result
    names: list[np.ndarray] = []
    db, lines = drup_read.build_database(clauses, result, names)
    name = (np.concatenate(([0], names[0])) if names
            else np.arange(len(db.reason) + 1)).tolist()
    base = len(clauses)
    literals = []
    for i in range(result.clauses):
        c = base + i
        codes = db.lits[db.start[c]:db.start[c] + db.size[c]].tolist()
        assert codes == sorted(set(codes))  # what the checker's kernels rely on
        literals.append(sorted((-name[x >> 1] if x & 1 else name[x >> 1] for x in codes),
                               key=_code))
    numbers = lines.numbers.tolist()
    return (numbers, lines.kind.tolist(), literals, lines.target.tolist(),
            [result.line(i, n) for i, n in enumerate(numbers)])


@pytest.fixture(params=["compiled", "interpreted"])
def kernels(request, compiled_kernels) -> object:
    """Run the test with the compiled kernels, then with the interpreted ones."""
    with jit.interpreted(request.param == "interpreted"):
        yield request.param


_HYPOTHESIS = settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                              HealthCheck.too_slow])
"""The fixtures are the same for every example: the kernels' variant, and one folder."""


@_HYPOTHESIS
@given(proof_lines(), st.sampled_from([2, 5, drup.MAX_LEMMAS]),
       st.sampled_from(["\n", "\r\n"]), st.integers(1, 12))
@example(["1\x0b1 0"], drup.MAX_LEMMAS, "\n", 4)  # a blank inside a line given alone
def test_every_form_of_a_proof_is_read_as_the_definition_says(
        kernels, tmp_path, monkeypatch, lines, max_lemmas, newline, block) -> None:
    text = newline.join(lines) + newline * (len(lines) % 2)
    expected = reference([], text.splitlines(), max_lemmas)
    assert read([], text, max_lemmas) == expected
    assert read([], text.encode(), max_lemmas) == expected
    assert read([], lines, max_lemmas) == reference([], lines, max_lemmas)
    path = tmp_path / "proof.drat"  # one file, rewritten by each example
    path.write_bytes(text.encode())
    monkeypatch.setattr(drup_read, "BLOCK", block)  # lines cut at every block end
    assert read([], path, max_lemmas) == expected


_CLAUSE = st.lists(_SMALL_TOKENS.map(int), max_size=3)


@_HYPOTHESIS
@given(st.lists(_CLAUSE, max_size=5), st.lists(st.tuples(st.booleans(), _CLAUSE), max_size=12),
       st.integers(1, 9), st.sampled_from([1, 10**9]))
def test_deletions_find_the_clause_the_definition_names(
        kernels, tmp_path, monkeypatch, clauses, lines, block, scale) -> None:
    clauses = [[x * scale for x in c] for c in clauses]  # 10^9: sparse, renumbered
    lines = [(d, [x * scale for x in c]) for d, c in lines]
    text = "\n".join(("d " if d else "") + " ".join(map(str, c)) + " 0" for d, c in lines)
    expected = reference(clauses, text.splitlines(), drup.MAX_LEMMAS)
    assert expected[3] == reference_targets(clauses, lines)
    assert read(clauses, text, drup.MAX_LEMMAS) == expected
    path = tmp_path / "proof.drat"  # one file, rewritten by each example
    path.write_text(text)
    monkeypatch.setattr(drup_read, "BLOCK", block)
    assert read(clauses, path, drup.MAX_LEMMAS) == expected


@pytest.mark.long  # a 28 MB proof file: its size is the point (a memory bound)
def test_a_proof_file_is_read_without_holding_its_text(compiled_kernels, monkeypatch,
                                                       tmp_path) -> None:
    # Deletion lines of clauses that are not there, about 400 bytes each, and a
    # refutation of x1 xor x2: the check keeps about 40 bytes per deletion line (its
    # arrays), never its text or its literals (the text alone is four times the limit).
    rng = random.Random(1)
    lines = ["2 0"]
    for _ in range(80_000):
        lines.append("d " + " ".join(str(rng.choice([-1, 1]) * rng.randint(1000, 9999))
                                     for _ in range(66)) + " 0")
    path = tmp_path / "proof.drat"
    path.write_text("\n".join([*lines, "0"]) + "\n")
    size = path.stat().st_size
    xor2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    check_drup(xor2, ["2 0", "0"])  # the kernels loaded before measuring
    monkeypatch.setattr(drup_read, "BLOCK", 1 << 20)
    tracemalloc.start()
    try:
        ok, message = check_drup(xor2, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert ok, message
    assert "line 80002" in message
    assert size > 28_000_000
    assert peak < size / 4, (peak, size)  # the old reader: over 1.3 times the size


_BIG = 10**9  # sparse variable numbers: renumbered as they are read
_CHANGES = {
    "more lines": ([[1, 2], [-1, 2], [1, -2], [-1, -2]], "2 0\n0\n",
                   "2 0\n-1 2 0\n1 -2 0\n0\n"),
    # the checker's arrays are sized for the largest variable counted
    "a larger variable": ([[1, 2], [-1, 2], [1, -2], [-1, -2]], "2 0\n0\n",
                          "9 0\n0\n"),
    # fewer lines, no longer than the longest counted, within the room their literals
    # and headers had, all of new variables: more than the renumbering table holds
    "more variables": ([[_BIG, 2 * _BIG], [-_BIG, 2 * _BIG], [_BIG, -2 * _BIG],
                        [-_BIG, -2 * _BIG]],
                       " ".join([str(2 * _BIG)] * 12) + " 0\n" + f"{2 * _BIG} 0\n" * 10
                       + "0\n",
                       "".join(" ".join(str(_BIG + 12 * line + k) for k in range(3, 15))
                               + " 0\n" for line in range(3)) + "0\n"),
}


@pytest.mark.parametrize("change", list(_CHANGES))
@pytest.mark.parametrize("variant", ["compiled", "interpreted"])
def test_a_proof_file_that_changes_while_it_is_read_is_left_unchecked(
        change, variant, request, monkeypatch, tmp_path) -> None:
    if variant == "compiled":
        request.getfixturevalue("compiled_kernels")
    clauses, first, second = _CHANGES[change]
    path = tmp_path / "proof.drat"
    path.write_text(first)
    reads = []
    blocks = drup_read._File.blocks

    def changing(self, *how):  # the second pass (the fill) finds another text
        reads.append(1)
        if len(reads) > 1:
            path.write_text(second)
        yield from blocks(self, *how)

    monkeypatch.setattr(drup_read._File, "blocks", changing)
    ok, message = check_drup(clauses, path)
    assert not ok
    assert message == "unchecked: the proof file changed while it was read"


def test_a_malformed_line_of_a_file_is_named(tmp_path) -> None:
    path = tmp_path / "proof.drat"
    path.write_text("c made by hand\n2 0\n1 x 0\n0\n")
    ok, message = check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], path)
    assert not ok and message.startswith("proof line 3 ('1 x 0') is malformed")
    path.write_text("c \u00e9t\u00e9\n2 0\n\n0\n")  # not ASCII: read the exact way
    assert check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], path)[0]


def test_a_failing_lemma_of_a_file_is_named_with_its_text(tmp_path) -> None:
    path = tmp_path / "proof.drat"
    path.write_text("c\n\nd 1 2 0\n 3  -4 0\n0\n")  # assuming -3 and 4 leads nowhere
    xor2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    ok, message = check_drup(xor2, path, backward=False)
    assert not ok
    assert message == "proof line 4 ('3  -4 0') does not follow by reverse unit propagation"
    ok, message = check_drup(xor2, path)  # backward: that lemma is not needed, "0" fails
    assert not ok
    assert message == "proof line 5 ('0') does not follow by reverse unit propagation"


def test_an_empty_proof_file_is_no_refutation(tmp_path) -> None:
    path = tmp_path / "proof.drat"
    path.write_bytes(b"")
    ok, message = check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], Path(path))
    assert not ok and "without deriving the empty clause" in message


def test_reading_a_proof_file_reports_its_progress(monkeypatch, tmp_path) -> None:
    path = tmp_path / "proof.drat"
    path.write_text("c made by hand\n" + "d 3 4 0\n" * 40 + "2 0\n0\n")  # 3 4: absent
    monkeypatch.setattr(drup, "_PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(drup_read, "BLOCK", 64)
    heard: list[str] = []
    ok, message = check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], path, progress=heard.append)
    assert ok, message
    reading = [x for x in heard if "% of the file" in x]
    assert reading[0].startswith("DRUP proof: reading, ")
    assert reading[-1] == "DRUP proof: building the clause database, 100% of the file"
    shares = [int(x.split(", ")[1].split("%")[0]) for x in reading
              if x.startswith("DRUP proof: reading, ")]
    assert shares == sorted(shares) and shares[-1] == 100 and len(shares) > 3


def test_a_file_and_a_text_share_the_compiled_readers(compiled_kernels, tmp_path: Path) -> None:
    """A proof file's blocks (a writable bytearray) and a proof's bytes (read-only) were
    two types to Numba, so the scan and the fill, seconds each, compiled twice: both are
    handed read-only now, one signature each."""
    from trailkit.models.proofs import drup_read_kernel

    clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    proof = b"2 0\nd 1 2 0\n0\n"
    (tmp_path / "proof.drup").write_bytes(proof)
    for form in (proof, bytearray(proof), tmp_path / "proof.drup"):  # read, not checked
        read = drup_read.read_proof(form, drup.MAX_LEMMAS)
        assert not isinstance(read, str), read
        _, lines = drup_read.build_database(clauses, read)
        assert lines.kind.tolist() == [0, 1, 0]  # a lemma, a deletion, the empty clause
    for reader in (drup_read_kernel.scan_proof, drup_read_kernel.fill_proof):
        assert len(reader.compiled.signatures) == 1, reader.compiled.signatures
