"""The fast reader of big inline ``edges:`` lists (``models/spec/fast.py``) gives exactly
the full reader's puzzle, takes the common forms it was built for, leaves every spec it
cannot take, or that has any problem, to the full reader (so every error stays the full
reader's), and is never entered by a spec under ``fast.FAST_FROM`` characters.

The tests call the fast reader directly (it is the size threshold's job, tested apart,
to send it only big specs)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spec_texts import SAFE, WORDS, edge_items, specs

from trailkit.models.errors import SpecError
from trailkit.models.spec import check_spec_text, fast, load_spec_text
from trailkit.models.spec.reading import read_full

#: A word the fast reader takes in an edge item (``->`` only after the first word).
PLAIN_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*|->")


def fast_must_take(text: str) -> bool:
    """Whether the fast reader must take ``text``, a spec of :func:`specs`: it loads
    without a problem, has edges, and every word of every edge item is plain (the forms
    the fast reader was built for)."""
    full, _ = read_full(text, "s.yaml", None)
    return (full is not None and has_edges(text) and not check_spec_text(text)
            and all(PLAIN_WORD.fullmatch(word) and not (k == 0 and word == "->")
                    for item in edge_items(text) for k, word in enumerate(item.split())))


def readers_agree(text: str, *, generated: bool = False) -> str:
    """Check that the fast reader, called directly, gives the full reader's puzzle and
    warnings, or declines (always, when the full reader finds a problem; for a
    ``generated`` spec of :func:`specs`, never when :func:`fast_must_take`); return which
    reader's answer ``text`` gets: ``"fast"`` or ``"full"``."""
    full, found = read_full(text, "s.yaml", None)
    quick = fast.read_fast(text, "s.yaml", None)
    if quick is None:
        assert not (generated and fast_must_take(text)), \
            f"the fast reader declined a plain spec:\n{text}"
        return "full"
    assert full is not None, found  # it answers only specs that load
    assert quick[0] == full  # the same puzzle, and the same warnings
    assert list(map(str, quick[1])) == list(map(str, found))
    return "fast"


def has_edges(text: str) -> bool:
    return "edges: []" not in text


@given(text=specs())
def test_fast_and_full_readers_agree(text: str) -> None:
    readers_agree(text, generated=True)


@given(text=specs(SAFE, valid=True))
def test_the_fast_reader_takes_every_plain_spec_that_loads(text: str) -> None:
    """Plain names, one edge a line: whenever the full reader loads the spec, the fast
    reader takes it (and agrees)."""
    taken = readers_agree(text, generated=True)
    if has_edges(text) and not check_spec_text(text):
        assert taken == "fast", text


@given(text=specs(WORDS, valid=True))
def test_fast_and_full_readers_agree_on_specs_that_load(text: str) -> None:
    readers_agree(text, generated=True)


@pytest.mark.parametrize("edges", [
    "edges:\n  - a b\n  - b c\n  - c a\n",
    "edges:\n- a b\n- b c\n- c a\n",
    "edges: [a b, b c, c a]\n",
    "edges:\n    - a -> b\n    - b -> c\n    - c -> a",
])
def test_the_common_forms_take_the_fast_path(edges: str) -> None:
    text = f"trailkit: 1\nkind: trail\nclosed: true\n{edges}"
    assert readers_agree(text) == "fast"
    quick = fast.read_fast(text, "s.yaml", None)
    assert quick is not None and quick[0].num_edges == 3
    assert quick[0] == load_spec_text(text, "s.yaml")


@pytest.mark.parametrize("text, where, says", [
    # an unknown node: the full reader's message and location (the item's line, column)
    ("trailkit: 1\nkind: trail\nnodes: [a, b]\nedges:\n  - a b\n  - b q\n", (6, 5),
     "edges[1] ends at 'q'"),
    ("trailkit: 1\nkind: trail\nedges:\n  - a b\nedges:\n  - b a\n", (5, 1), "appears twice"),
    ("trailkit: 1\nkind: colour-walk\nstart: a\ngoal: b\nedges:\n  - a b teal\n", (6, 5),
     "unknown colour 'teal'"),
    ("trailkit: 1\nkind: trail\nedges:\n  - a b\n  - c\n", (5, 5), "has one end"),
    ("trailkit: 1\nkind: trail\nedges:\n  - a b\nclosed: maybe\n", (5, 9), "true or false"),
])
def test_problems_are_the_full_readers(text: str, where: tuple[int, int], says: str) -> None:
    assert readers_agree(text) == "full"
    problems = check_spec_text(text, "s.yaml")
    assert sorted(map(str, problems)) == sorted(map(str, read_full(text, "s.yaml", None)[1]))
    first = problems[0]
    assert isinstance(first, SpecError) and says in first.message, first.message
    assert (first.location.line, first.location.column) == where


def test_a_spec_with_the_list_inside_a_string_falls_back(tmp_path: Path) -> None:
    text = 'trailkit: 1\nkind: trail\ndescription: "x\nedges:\n  - a b\n"\nedges: [b c]\n'
    assert readers_agree(text) == "full"
    assert load_spec_text(text).num_edges == 1


@contextmanager
def fast_reader_calls() -> Iterator[list[str]]:
    """The texts the spec reader hands the fast reader while the block runs."""
    calls: list[str] = []
    real = fast.read_fast

    def spy(text: str, *args: object) -> object:
        calls.append(text)
        return real(text, *args)  # type: ignore[arg-type]

    fast.read_fast = spy  # type: ignore[assignment]
    try:
        yield calls
    finally:
        fast.read_fast = real


def big_spec(edges: int) -> str:
    return "trailkit: 1\nkind: trail\nedges:\n" + "".join(
        f"  - v{i % 97} v{(i * 7 + 3) % 97}\n" for i in range(edges))


def test_small_specs_never_enter_the_fast_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    small = big_spec(100)
    assert len(small) < fast.FAST_FROM and readers_agree(small) == "fast"
    with fast_reader_calls() as calls:
        assert load_spec_text(small).num_edges == 100
    assert calls == []
    monkeypatch.setattr(fast, "FAST_FROM", len(small))  # the threshold is the only gate
    with fast_reader_calls() as calls:
        assert load_spec_text(small).num_edges == 100
    assert calls == [small]


def test_big_specs_are_read_by_the_fast_reader() -> None:
    big = big_spec(10_000)
    assert len(big) >= fast.FAST_FROM
    with fast_reader_calls() as calls:
        puzzle = load_spec_text(big)
    assert calls == [big] and readers_agree(big) == "fast"
    assert puzzle == read_full(big, "<string>", None)[0]


def test_a_big_plain_list_is_checked_and_numbered_in_one_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From COMPILE_FROM lines on, the fast reader's compiled scan is both the check that
    every item is plain and the numbering (issue 45: each other pass over a 24 MB list
    cost tens of milliseconds): the string checks and a second scan never run."""
    from trailkit.models.spec.edges import columns

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a second pass over the list")

    big = big_spec(30_000)
    expected = read_full(big, "<string>", None)[0]
    monkeypatch.setattr(fast, "_plain_items", never)
    monkeypatch.setattr(columns, "scan_edges", never)
    with fast_reader_calls() as calls:
        assert load_spec_text(big) == expected
    assert calls == [big]


def test_a_big_list_the_scan_refuses_is_read_line_by_line_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A big list of arrows is plain YAML (the fast reader's) but no uniform list (the
    scan's): the line reader reads it, without a second scan."""
    from trailkit.models.spec.edges import columns

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a second scan of the list")

    items = "".join(f"  - v{i % 97} -> v{(i * 7 + 3) % 97}\n" for i in range(25_000))
    text = "trailkit: 1\nkind: trail\nedges:\n" + items
    expected = read_full(text, "<string>", None)[0]
    monkeypatch.setattr(columns, "scan_edges", never)
    assert readers_agree(text) == "fast"
    assert load_spec_text(text) == expected


@pytest.mark.parametrize("second", ["edges: [c d]\n", "edges:\n  - c d\n", "edges :\n- c d\n"])
def test_a_second_edges_key_after_a_big_list_is_the_full_reader_s(second: str) -> None:
    """The fast reader looks for another ``edges:`` key only outside the list it cut out
    (not through its million lines); one after it still sends the spec to the full
    reader, which reports the duplicate."""
    text = big_spec(30_000) + "name: x\n" + second
    assert readers_agree(text) == "full"
    assert check_spec_text(text)


@given(rows=st.lists(st.lists(st.sampled_from(["a", "b", "é", "NO", "x\xa0y", "->", "1:2"]),
                              max_size=4), max_size=6),
       gap=st.sampled_from([" ", "\t", "  ", " \t"]), end=st.sampled_from(["", "\n", " \n"]))
def test_uniform_edge_lists_read_as_line_by_line(rows: list[list[str]], gap: str,
                                                 end: str) -> None:
    """``parse_edge_columns``'s whole-text path for uniform lists reads what its line loop
    reads (a trailing comment line sends the same lines through the loop)."""
    from trailkit.models.formats.textformats import parse_edge_columns

    text = "\n".join(gap.join(row) for row in rows) + end
    slow_text = text + ("" if text.endswith("\n") or not text else "\n") + "# end"

    def read(t: str) -> object:
        problems: list[str] = []
        columns = parse_edge_columns(t, "e.txt", allow_arrow=True,
                                     on_error=lambda p: problems.append(str(p)))
        return columns, problems

    assert read(text) == read(slow_text)


@pytest.mark.parametrize("text", [
    "trailkit: 1\nkind: trail\nedges:\n- a a\n\n",  # found by Hypothesis in CI
    "trailkit: 1\nedges:\n- a b\n\n\nkind: trail\n",
    "trailkit: 1\nkind: trail\nedges:\n- a a\n# end\n",  # found by Hypothesis in CI
    "trailkit: 1\nkind: trail\nedges:\n- a b\n# end",
    "trailkit: 1\nedges:\n  - a b\n# the rule\n  # indented\nkind: trail\n",
])
def test_blank_lines_after_the_list_are_still_the_fast_reader_s(text: str) -> None:
    """Blank or comment lines after the edge list (a file's trailing newline twice, a gap
    or a comment before the next key or at the end) do not send a plain spec to the
    full reader; and both agree."""
    assert readers_agree(text, generated=True) == "fast"


@pytest.mark.parametrize("text", [
    "trailkit: 1\nkind: trail\nedges:\n- a b\n\n- c d\n",
    "trailkit: 1\nedges:\n- a b\n\n# a comment\n- c d\nkind: trail\n",
])
def test_a_list_that_goes_on_after_a_gap_is_the_full_reader_s(text: str) -> None:
    """The list continued after a blank line or a comment is left to the full reader,
    which reads every item."""
    assert readers_agree(text) == "full"


@given(text=specs())
def test_the_fast_reader_through_the_compiled_scan_agrees(text: str) -> None:
    """The fast reader's lists of 20,000 lines and more go through the compiled scan
    (:mod:`trailkit.models.formats.edge_scan`); with the scan taking every list, the fast
    reader still gives the full reader's puzzle and warnings, or declines (issue 45:
    the big specs' path, on random specs)."""
    from trailkit.models.support import jit

    saved = jit.COMPILE_FROM
    try:
        jit.COMPILE_FROM = 0
        readers_agree(text, generated=True)
    finally:
        jit.COMPILE_FROM = saved
