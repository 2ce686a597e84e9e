"""The fast reader of big inline ``edges:`` lists (``models/spec/fast.py``)
gives exactly the full reader's puzzle, and leaves every spec it cannot take, or that
has any problem, to the full reader (so every error stays the full reader's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trailkit.models.errors import SpecError
from trailkit.models.spec import check_spec_text, load_spec_text
from trailkit.models.spec.fast import read_fast as _read_fast
from trailkit.models.spec.reading import read_full as _read_full

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


def readers_agree(text: str) -> None:
    full, found = _read_full(text, "s.yaml", None)
    fast = _read_fast(text, "s.yaml", None)
    if full is None:
        assert fast is None, found
    elif fast is not None:
        assert fast[0] == full  # the same puzzle, and the same warnings
        assert list(map(str, fast[1])) == list(map(str, found))


@settings(max_examples=400, deadline=None)
@given(text=specs())
def test_fast_and_full_readers_agree(text: str) -> None:
    readers_agree(text)


@settings(max_examples=200, deadline=None)
@given(text=specs(SAFE, valid=True) | specs(WORDS, valid=True))
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
    fast = _read_fast(text, "s.yaml", None)
    assert fast is not None and fast[0].num_edges == 3
    assert fast[0] == _read_full(text, "s.yaml", None)[0] == load_spec_text(text, "s.yaml")


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
    assert _read_fast(text, "s.yaml", None) is None
    problems = check_spec_text(text, "s.yaml")
    assert sorted(map(str, problems)) == sorted(map(str, _read_full(text, "s.yaml", None)[1]))
    first = problems[0]
    assert isinstance(first, SpecError) and says in first.message, first.message
    assert (first.location.line, first.location.column) == where


def test_a_spec_with_the_list_inside_a_string_falls_back(tmp_path: Path) -> None:
    text = 'trailkit: 1\nkind: trail\ndescription: "x\nedges:\n  - a b\n"\nedges: [b c]\n'
    assert _read_fast(text, "s.yaml", None) is None
    assert load_spec_text(text).num_edges == 1


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
