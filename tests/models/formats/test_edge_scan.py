"""The compiled scan of big uniform edge lists (``models/formats/edge_scan.py``) numbers exactly
what the line-by-line reading numbers, refuses everything that is not uniform, never
merges two names that share a hash, and leaves every puzzle and every error of the spec
reader as it was (the reader takes it from :data:`trailkit.models.support.jit.COMPILE_FROM`
lines on; the tests here lower that to 0, so small lists go through it too, and lower
:data:`trailkit.models.spec.fast.FAST_FROM` to 0 for the whole module, so small inline
lists are cut out by the fast reader as big ones are)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st
from oracles import jit_on_and_off
from spec_texts import specs

from trailkit.models.formats import edge_scan
from trailkit.models.formats.textformats import parse_edge_columns
from trailkit.models.spec import check_spec, check_spec_text, fast, load_spec, load_spec_text
from trailkit.models.support import jit

# Short names (their own key), long ones (keyed by a hash), UTF-8, and near misses.
NAMES = st.sampled_from(["a", "b", "v1", "1234567", "12345678", "node_000001",
                         "node_000002", "é", "ü-ü", "x.y", "NO", "a" * 40, "a" * 41])
COLOURS = st.sampled_from(["red", "blue", "green", "turquoise"])
GAPS = st.sampled_from([" ", "  ", "\t", " \t "])


@pytest.fixture(scope="module", autouse=True)
def every_spec_tries_the_fast_reader():
    """Inline lists of any size go through the fast reader (and so through the scan)."""
    saved = fast.FAST_FROM
    fast.FAST_FROM = 0
    yield
    fast.FAST_FROM = saved


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def variant(request: pytest.FixtureRequest):
    """Run the scan's kernels interpreted (as below COMPILE_FROM) or compiled."""
    saved = jit.COMPILE_FROM
    jit.COMPILE_FROM = 10**9 if request.param == "interpreted" else 0
    yield request.param
    jit.COMPILE_FROM = saved


@st.composite
def uniform_texts(draw: st.DrawFn) -> str:
    """Edge lines all of two words or all of three, with any spaces and tabs around."""
    width = draw(st.sampled_from([2, 3]))
    lines = []
    for _ in range(draw(st.integers(1, 30))):
        words = [draw(NAMES), draw(NAMES)] + ([draw(COLOURS)] if width == 3 else [])
        lead = draw(st.sampled_from(["", " ", "\t"]))
        lines.append(lead + "".join(w + draw(GAPS) for w in words[:-1]) + words[-1]
                     + draw(st.sampled_from(["", " ", "\t"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


@st.composite
def any_texts(draw: st.DrawFn) -> str:
    """Edge lines of any shape: ragged, blank, commented, with arrows or odd spaces."""
    pieces = st.one_of(NAMES, COLOURS, st.sampled_from(["->", "→", "#", "# note", "\r",
                                                        "\u00a0", "\x0b", "-"]))
    lines = [" ".join(draw(st.lists(pieces, max_size=4))) for _ in range(draw(st.integers(
        0, 8)))]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


def reference(text: str) -> tuple[list[str], list[int], list[str], list[int] | None]:
    """What the line-by-line reader reads, numbered in order of first appearance."""
    us, vs, colours, _, _ = parse_edge_columns(text, "e.txt")
    nodes: dict[str, int] = {}
    ends = [nodes.setdefault(name, len(nodes)) for pair in zip(us, vs, strict=True)
            for name in pair]
    if all(c is None for c in colours):
        return list(nodes), ends, [], None
    names: dict[str, int] = {}
    codes = [names.setdefault(c, len(names)) for c in colours]  # type: ignore[arg-type]
    return list(nodes), ends, list(names), codes


def scanned(text: str) -> tuple[list[str], list[int], list[str], list[int] | None] | None:
    return scanned_with(text, 0)


def scanned_with(text: str, lead: int
                 ) -> tuple[list[str], list[int], list[str], list[int] | None] | None:
    result = edge_scan.scan_edges(text, lead=lead)
    if result is None:
        return None
    colours = None if result.colours is None else result.colours.tolist()
    return result.names, result.ends.tolist(), result.colour_names, colours


@pytest.mark.slow
@costly(0.75, "each example scans a list with the kernels compiled and interpreted")
@given(text=uniform_texts())
def test_a_uniform_list_is_scanned_as_the_lines_read(variant: str, text: str) -> None:
    assert scanned(text) == reference(text)


@costly(0.4, "each example scans a list with the kernels compiled and interpreted")
@given(text=uniform_texts(), indent=st.integers(0, 3))
def test_list_items_are_scanned_in_place(variant: str, text: str, indent: int) -> None:
    """A YAML block list's lines (indentation and '- ' first) scan as the items alone."""
    lead = " " * indent + "- "
    items = "".join(lead + line + "\n" for line in text.splitlines())
    assert scanned_with(items, len(lead)) == reference(text)
    rows = items.splitlines(keepends=True)
    if indent and len(rows) > 1:  # a line indented less than the first is refused
        rows[1] = rows[1][1:]
        assert edge_scan.scan_edges("".join(rows), lead=len(lead)) is None


@costly(0.75, "each example scans a list with the kernels compiled and interpreted")
@given(text=any_texts())
def test_any_list_is_scanned_as_the_lines_read_or_left_to_them(variant: str,
                                                                 text: str) -> None:
    got = scanned(text)
    if got is not None:
        assert got == reference(text)


@pytest.mark.parametrize("text", ["", "a b\n\nb c\n", "a\n", "a b c d\n", "a b\nb c red\n",
                                  "a b # note\n", "a -> b\n", "a b\r\n", "a\u00a0b c\n",
                                  "a\x0cb\n"])
def test_what_is_not_uniform_is_left_to_the_line_reader(variant: str, text: str) -> None:
    assert edge_scan.scan_edges(text) is None


@pytest.mark.parametrize("text, why", [
    ("a b\nb 'c'\n", "a byte outside the table"),
    ("a b\n_c d\n", None),
    ("a b\n.c d\n", "a first byte outside its table"),
    ("a b\nb -> c\n", "an arrow"),
    ("a b\nb c->d\n", "an arrow inside a word"),
])
def test_a_callers_tables_refuse_what_they_leave_out(variant: str, text: str,
                                                     why: str | None) -> None:
    """``scan_bytes`` with the fast reader's own rules (each byte one of its table's, each
    line's first after the lead one of the first table's; never an arrow) refuses a text
    that breaks any, and scans one that keeps them, as the line reader reads it."""
    items = edge_scan.byte_table(b"abcd_.-> \n")
    firsts = edge_scan.byte_table(b"abcd_")
    got = edge_scan.scan_bytes(text.encode(), allowed=items, first=firsts)
    if why is None:
        assert got is not None and (got.names, got.ends.tolist()) == reference(text)[:2]
    else:
        assert got is None, why


def test_two_long_names_with_one_hash_are_never_merged(variant: str) -> None:
    """Numbering trusts a long word's hash key only after comparing its bytes: words given
    the same key on purpose come back as 'cannot scan', never as one node."""
    text = "node_000001 node_000002\n"
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    starts = np.array([0, 12], dtype=np.int32)
    stops = np.array([11, 23], dtype=np.int32)
    same_key = np.full(2, (1 << 62) | 12345, dtype=np.int64)
    spread = np.full(2, 7, dtype=np.int32)
    numbered = edge_scan._Numbered(data, starts, stops, same_key, spread, True)
    assert numbered.numbers is None
    honest = edge_scan._Numbered(data, starts, stops, same_key, spread, False)
    assert honest.numbers.tolist() == [0, 0]  # what the check is there to catch


@costly(0.6, "each example scans a list with the kernels compiled and interpreted")
@given(text=specs())
def test_specs_read_the_same_through_the_scan(text: str) -> None:
    """Inline lists (the fast reader cuts them out first): the same puzzle, or the same
    problems, with the scan taking every list and with it taking none."""
    read_both_ways(_outcome, text)


@pytest.mark.parametrize("lines, extra", [
    (["a b", "b c", "c a"], ""),
    (["a b red", "b c blue", "c a green"], "colours: [red, blue, green]\n"),
    (["a b red", "b c blue", "c a teal"], "colours: [red, blue, green]\n"),  # unknown colour
    (["a b", "b c", "c d"], "nodes: [a, b, c]\n"),  # d is not declared
    (["a b", "b c", "c a"], "nodes: [c, b, a, z]\n"),  # declared first: their order stays
    (["x1 x2", "x2 x1"], "start: x2\n"),
])
def test_edge_files_read_the_same_through_the_scan(tmp_path: Path, lines: list[str],
                                                   extra: str) -> None:
    kind = "walk" if "colours" in extra else "trail"
    (tmp_path / "edges.txt").write_text("\n".join(lines) + "\n")
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"trailkit: 1\nkind: {kind}\n{extra}edges_file: edges.txt\n")
    read_both_ways(_file_outcome, spec)


def read_both_ways(outcome: Callable[[Any], Any], source: Any) -> Any:
    """``outcome(source)`` with the scan taking no list and with it taking every list
    (asserted equal), returned."""
    saved = jit.COMPILE_FROM
    try:
        jit.COMPILE_FROM = 10**9
        before = outcome(source)
        jit.COMPILE_FROM = 0
        assert outcome(source) == before
    finally:
        jit.COMPILE_FROM = saved
    return before


def _outcome(text: str) -> object:
    problems = [str(p) for p in check_spec_text(text)]
    return problems, None if problems else load_spec_text(text)


def _file_outcome(spec: Path) -> object:
    problems = [str(p) for p in check_spec(spec)]
    return problems, None if problems else load_spec(spec)


SCRIPT = """
import json, random
from trailkit.models.formats.edge_scan import scan_edges
rng = random.Random(5)
lines = [f"n{rng.randrange(300)} node_{rng.randrange(10**6):07d} {rng.choice('rgb')}"
         for _ in range(2000)]
s = scan_edges("\\n".join(lines))
print(json.dumps([s.names, s.ends.tolist(), s.colour_names, s.colours.tolist()]))
"""


def test_compiled_and_interpreted_scans_agree() -> None:
    compiled, interpreted = jit_on_and_off(SCRIPT)
    assert compiled == interpreted
    assert len(compiled[1]) == 4000


def test_load_spec_text_reads_a_big_list_through_the_scan(variant: str) -> None:
    """The puzzle of an inline list, read through the scan or line by line."""
    edges = "".join(f"  - v{i % 97} v{(i * 7 + 3) % 97}\n" for i in range(500))
    puzzle = load_spec_text("trailkit: 1\nkind: trail\nedges:\n" + edges)
    assert puzzle.num_edges == 500
    assert puzzle.nodes[:3] == ("v0", "v3", "v1")
    assert puzzle.node_name(puzzle.head[1]) == "v10"


def test_the_readers_arrays_serve_only_the_lists_they_copy() -> None:
    """A big list's arrays go with the Puzzle to the backend; a puzzle whose list was
    replaced (a repair, a test) gets its own list converted, never the stale array."""
    import dataclasses

    saved = jit.COMPILE_FROM
    try:
        jit.COMPILE_FROM = 0
        puzzle = load_spec_text("trailkit: 1\nkind: trail\nedges:\n  - a b\n  - b c\n"
                                "  - c a\n")
    finally:
        jit.COMPILE_FROM = saved
    kept = puzzle.edge_arrays["tail"][1]
    assert puzzle.int_array("tail") is kept
    assert kept.tolist() == list(puzzle.tail) == [0, 1, 2]
    changed = dataclasses.replace(puzzle, tail=[2, 1, 0])
    assert changed.int_array("tail").tolist() == [2, 1, 0]
    assert changed == dataclasses.replace(puzzle, tail=[2, 1, 0], edge_arrays={})


@pytest.mark.parametrize("start", ["n3", "[n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11]",
                                   "n99", "[n1, n2, n3, n4, n5, n6, n7, n8, n9, nine]"])
def test_ends_named_after_a_scanned_list_read_the_same(start: str) -> None:
    """The first few names after a scanned list are looked up in its names, the rest in
    the index built then; either way the same ends, and the same problem for a typo."""
    edges = "".join(f"  - n{i} n{i + 1} {('red', 'blue', 'green')[i % 3]}\n"
                    for i in range(1, 40))
    text = (f"trailkit: 1\nkind: colour-walk\nstart: {start}\ngoal: n40\n"
            f"colours: [red, blue, green]\nedges:\n{edges}")
    before = read_both_ways(_outcome, text)
    assert (before[1] is None) == ("n99" in start or "nine" in start)  # a typo: a problem
