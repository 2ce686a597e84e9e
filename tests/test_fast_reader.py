"""The fast reader of big inline ``edges:`` lists (``models/spec/fast.py``) gives exactly
the full reader's puzzle, takes the common forms it was built for, leaves every spec it
cannot take, or that has any problem, to the full reader (so every error stays the full
reader's), and is never entered by a spec under ``fast.FAST_FROM`` characters.

The tests call the fast reader directly (it is the size threshold's job, tested apart,
to send it only big specs)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trailkit.models.errors import SpecError
from trailkit.models.spec import check_spec_text, fast, load_spec_text
from trailkit.models.spec.reading import read_full

# Plain words, YAML 1.1 traps (which must stay text), and words the fast reader refuses.
WORDS = st.sampled_from(["a", "b", "c", "v1", "v22", "NO", "no", "on", "y", "1e3", "0x1F",
                         "1_000", "null", "~", "1:2", "a#b", "é", "->", "→", "-", "x.y",
                         "A-B", "+1", "'q'", "&a", "*a", "!t", "[x]", "a,b", "red", "blue",
                         "green", "teal"])
SAFE = st.sampled_from(["a", "b", "c", "v1", "v22", "NO", "1e3", "null", "x.y", "A-B",
                        "red", "blue", "green"])


COLOURS = st.sampled_from(["red", "blue", "green"])


@st.composite
def specs(draw: st.DrawFn, words: st.SearchStrategy[str] = WORDS, valid: bool = False) -> str:
    """A random spec with an inline edge list in block or flow form, around other keys
    (``valid``: mostly specs that load, plain two- or three-word edges)."""
    kind = draw(st.sampled_from(["trail", "colour-walk", "walk"]))
    coloured = kind == "colour-walk" or (kind == "walk" and draw(st.booleans()))
    items = []
    for _ in range(draw(st.integers(0, 8))):
        if valid:
            arrow = ["->"] if kind == "walk" and draw(st.booleans()) else []
            fields = [draw(words), *arrow, draw(words)]
            fields += [draw(COLOURS)] if coloured else []
        else:
            fields = draw(st.lists(words, min_size=1, max_size=4))
        items.append(" ".join(fields) + ("" if valid else draw(st.sampled_from(
            ["", " ", "  # note"]))))
    lines = ["trailkit: 1", f"kind: {kind}"]
    if draw(st.booleans()):
        lines.append("nodes: [" + ", ".join(draw(st.lists(SAFE, max_size=5, unique=True)))
                     + "]")
    if coloured:
        lines.append(f"colours: [{', '.join(draw(st.permutations(['red', 'blue', 'green'])))}]")
    if kind == "colour-walk":
        lines += [f"start: {draw(SAFE)}", f"goal: {draw(SAFE)}"]
    form = draw(st.sampled_from(["block", "block0", "flow"]))
    if form == "flow":
        lines.append("edges: [" + ", ".join(items) + "]")
    else:
        indent = "" if form == "block0" else " " * draw(st.integers(1, 3))
        lines.append("edges:" + ("" if items else " []"))
        lines += [f"{indent}- {item}" for item in items]
    if draw(st.booleans()) and not valid:
        lines.append(draw(st.sampled_from(["closed: true", "closed: false", "name: x",
                                           "edges: [a b]", "  - a b", "- a b", "",
                                           "description: |\n  edges:", "# end"])))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


def readers_agree(text: str) -> str:
    """Check that the fast reader, called directly, gives the full reader's puzzle and
    warnings, or declines (always, when the full reader finds a problem); return which
    reader's answer ``text`` gets: ``"fast"`` or ``"full"``."""
    full, found = read_full(text, "s.yaml", None)
    quick = fast.read_fast(text, "s.yaml", None)
    if quick is None:
        return "full"
    assert full is not None, found  # it answers only specs that load
    assert quick[0] == full  # the same puzzle, and the same warnings
    assert list(map(str, quick[1])) == list(map(str, found))
    return "fast"


def has_edges(text: str) -> bool:
    return "edges: []" not in text


@settings(max_examples=400, deadline=None)
@given(text=specs())
def test_fast_and_full_readers_agree(text: str) -> None:
    readers_agree(text)


@settings(max_examples=200, deadline=None)
@given(text=specs(SAFE, valid=True))
def test_the_fast_reader_takes_every_plain_spec_that_loads(text: str) -> None:
    """Plain names, one edge a line: whenever the full reader loads the spec, the fast
    reader takes it (and agrees)."""
    taken = readers_agree(text)
    if has_edges(text) and not check_spec_text(text):
        assert taken == "fast", text


@settings(max_examples=200, deadline=None)
@given(text=specs(WORDS, valid=True))
def test_fast_and_full_readers_agree_on_specs_that_load(text: str) -> None:
    readers_agree(text)


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


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(st.sampled_from(["a", "b", "é", "NO", "x\xa0y", "->", "1:2"]),
                              max_size=4), max_size=6),
       gap=st.sampled_from([" ", "\t", "  ", " \t"]), end=st.sampled_from(["", "\n", " \n"]))
def test_uniform_edge_lists_read_as_line_by_line(rows: list[list[str]], gap: str,
                                                 end: str) -> None:
    """``parse_edge_columns``'s whole-text path for uniform lists reads what its line loop
    reads (a trailing comment line sends the same lines through the loop)."""
    from trailkit.models.textformats import parse_edge_columns

    text = "\n".join(gap.join(row) for row in rows) + end
    slow_text = text + ("" if text.endswith("\n") or not text else "\n") + "# end"

    def read(t: str) -> object:
        problems: list[str] = []
        columns = parse_edge_columns(t, "e.txt", allow_arrow=True,
                                     on_error=lambda p: problems.append(str(p)))
        return columns, problems

    assert read(text) == read(slow_text)
