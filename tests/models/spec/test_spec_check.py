"""``check_spec`` and ``load_spec`` (:mod:`trailkit.models.spec`) on the mistakes authors
make: no typo becomes an answer, every problem is located.

Each mistake below was once read as a puzzle (and "solved" or "proved unsolvable"), or
reported without a usable location. Tests compare locations (file:line:column), key
paths and the key facts of a message, not its wording.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spec_texts import write

from trailkit.models.errors import SpecError
from trailkit.models.formats.textformats import parse_edge_lines
from trailkit.models.spec import (
    MAX_INT_DIGITS,
    MAX_PROBLEMS,
    check_spec,
    check_spec_text,
    load_spec,
)
from trailkit.solvers.frontends.cli import main

HEAD = "trailkit: 1\n"
SPECS = Path(__file__).resolve().parents[3] / "specs"


def solve_error(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``trailkit solve`` on ``path``: it must be an input error; return stderr."""
    code = main(["solve", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == "" and "Traceback" not in err
    return err


# (spec text, line, column, key path, words the message must contain)
MISTAKES = {
    # 1. a colour that a colour rule names, on no edge and no key of the table
    "transition-target-typo": (
        HEAD + "kind: walk\ncolours: {transitions: {red: [bleu], blue: [red]}}\n"
        "edges: [a b red, b c blue]\n", 3, 31, "colours.transitions.red[0]",
        ["bleu", "no edge", "did you mean 'blue'"]),
    "cycle-colour-typo": (
        HEAD + "kind: walk\ncolours: {cycle: [red, bleu]}\nedges: [a b red, b c bleu, c d red]\n"
        "use: any\n", None, None, None, []),  # bleu is on an edge: fine
    "cycle-colour-on-no-edge": (
        HEAD + "kind: colour-walk\ncolours: [red, blue, gren]\n"
        "edges: [A B red, B C blue, C D green]\nstart: A\ngoal: D\n", 4, 28, "edges[2]",
        ["green", "did you mean 'gren'"]),
    # 2. `nodes:` declares the nodes
    "edge-end-not-declared": (
        HEAD + "kind: trail\nnodes: [a, b, c]\nedges: [a b, b cc, c a]\n", 4, 14, "edges[1]",
        ["cc", "nodes", "did you mean 'c'"]),
    "edge-list-end-not-declared": (
        HEAD + "kind: trail\nnodes: [a, b]\nedges: [[a, b], [b, A]]\n", 4, 17, "edges[1]",
        ["'A'", "nodes", "did you mean 'a'"]),
    "domino-pip-not-declared": (
        HEAD + "kind: domino-chain\nnodes: [1, 2, 3]\ndominoes: [[1, 2], [2, 33]]\n", 4, 20,
        "dominoes[1]", ["33", "nodes"]),
    "start-not-declared": (
        HEAD + "kind: trail\nnodes: [alpha, beta]\nedges: [alpha beta]\nstart: alpah\n", 5, 8,
        "start", ["alpah", "not listed", "did you mean 'alpha'"]),
    "goal-not-declared": (
        HEAD + "kind: colour-walk\nnodes: [A, B]\nedges: [A B red]\nstart: A\ngoal: C\n", 6, 7,
        "goal", ["'C'", "not listed"]),
    "node-listed-twice": (
        HEAD + "kind: trail\nnodes: [a, a, b]\nedges: [a b]\n", 3, 12, "nodes[1]",
        ["'a'", "twice", "line 3"]),
    "layout-names-no-node": (
        HEAD + "kind: trail\nedges: [a b]\nlayout: {a: [0, 0], bb: [1, 0]}\n", 4, 21, "layout.bb",
        ["bb", "did you mean 'b'"]),
    "layout-names-undeclared-node": (
        HEAD + "kind: trail\nnodes: [a, b]\nedges: [a b]\nlayout: {a: [0, 0], c: [1, 0]}\n",
        5, 21, "layout.c", ["'c'", "nodes"]),
    "layout-bad-word": (
        HEAD + "kind: trail\nedges: [a b]\nlayout: atuo\n", 4, 9, "layout",
        ["auto", "did you mean"]),
    # 3. a contradiction is an input error
    "closed-with-disjoint-ends": (
        HEAD + "kind: trail\nedges: [a b, b c]\nclosed: true\nstart: a\nend: c\n", 4, 9,
        "closed", ["closed", "start", "end"]),
    "closed-walk-with-disjoint-ends": (
        HEAD + "kind: walk\nuse: any\nedges: [a b, b c]\nclosed: true\nstart: [a, b]\n"
        "goal: c\n", 5, 9, "closed", ["a, b", "c"]),
    "empty-start-list": (
        HEAD + "kind: trail\nedges: [a b]\nstart: []\n", 4, 8, "start", ["empty list"]),
    # 4. say what was read
    "tab-indentation": (
        HEAD + "kind: trail\nedges:\n\t- a b\n", 4, 1, "", ["tabs", "indentation", "spaces"]),
    "tab-in-nested-indentation": (
        HEAD + "kind: trail\nedges:\n  - a b\n \t- b c\n", 5, 2, "", ["tabs"]),
    "merged-list-items": (
        HEAD + "kind: trail\nedges:\n  - a b red\n    - c d blue\n", 4, 5, "edges[0]",
        ["7 fields", "'a b red - c d blue'"]),
    # 7. fuzz findings
    "huge-expect-count": (
        HEAD + "kind: trail\nedges: [a b]\nexpect: {solutions: " + "9" * 5000 + "}\n", 4, 21,
        "expect.solutions", ["5,000 digits"]),
    "huge-edge-id": (
        HEAD + "kind: trail\nedges: [{from: a, to: b, id: " + "7" * 4400 + "}]\n", 3, 30,
        "edges[0].id", ["digits"]),
    "control-character": (
        HEAD + "kind: trail\nname: x\x07y\nedges: [a b]\n", 3, 8, "", ["U+0007"]),
    "nul-byte": (
        HEAD + "kind: trail\nedges: [a b\x00]\n", 3, 12, "", ["NUL"]),
    "nul-in-side-file-name": (
        HEAD + "kind: trail\nedges_file: \"edges\\0.txt\"\n", 3, 13, "edges_file",
        ["U+0000", "file name"]),
    "infinite-layout": (
        HEAD + "kind: trail\nedges: [a b]\nlayout: {a: [.inf, 0], b: [0, 0]}\n", 4, 14,
        "layout.a[0]", ["finite"]),
}


@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_mistake_is_a_located_input_error(case: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    text, line, column, key, words = MISTAKES[case]
    path = write(tmp_path, text)
    if line is None:
        assert check_spec(path) == []
        return
    err = solve_error(path, capsys)
    assert err.startswith(f"{path}:{line}:{column}: error: "), err
    for word in words:
        assert word.lower() in err.lower(), (word, err)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert info.value.path == key


def test_declared_nodes_that_no_edge_touches_are_fine(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nnodes: [a, b, c, lonely]\nedges: [a b, b c]\n"
                 "layout: {lonely: [3, 0], a: [0, 0]}\n")
    assert load_spec(path).nodes == ("a", "b", "c", "lonely")


def test_transition_key_without_edges_is_not_a_typo() -> None:
    """A colour that is a key of the table says the spec means it, even on no edge."""
    text = HEAD + ("kind: walk\ncolours: {transitions: {red: [blue], blue: [red, green], "
                   "green: [red]}}\nedges: [a b red, b c blue]\n")
    assert check_spec_text(text) == []


def test_layout_auto_is_kept_for_drawings() -> None:
    text = HEAD + "kind: trail\nedges: [a b]\nlayout: auto\n"
    from trailkit.models.spec import load_spec_text

    puzzle = load_spec_text(text)
    assert puzzle.layout is None and puzzle.meta["layout"] == "auto"


def test_closed_with_a_shared_end_is_still_a_puzzle(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEAD + "kind: trail\nedges: [a b, b c, c a]\nclosed: true\n"
                 "start: [a, b]\nend: b\n")
    assert main(["solve", str(path)]) == 0, capsys.readouterr()


# ------------------------------------------------------- every problem, located
def test_check_spec_reports_three_independent_mistakes(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "kind: trail\n"
                 "nodes: [a, b, c]\n"
                 "edges: [a b, b cc, c a]\n"      # 4:14 an undeclared node
                 "clsoed: true\n"                 # 5:1 an unknown key
                 "expect: {status: slved}\n")     # 6:18 a bad status
    problems = check_spec(path)
    assert [(p.location.file, p.location.line, p.location.column) for p in problems] == \
        [(str(path), 4, 14), (str(path), 5, 1), (str(path), 6, 18)]
    assert [p.path for p in problems] == ["edges[1]", "clsoed", "expect.status"]
    assert all(p.message for p in problems)
    with pytest.raises(SpecError) as info:  # the first one met, as ever: keys come first
        load_spec(path)
    assert (info.value.location.line, info.value.location.column) == (5, 1)


def test_cycle_colour_on_no_edge_is_reported_with_the_edge_colour() -> None:
    text = HEAD + ("kind: colour-walk\ncolours: [red, blue, gren]\n"
                   "edges: [A B red, B C blue, C D green]\nstart: A\ngoal: D\n")
    problems = check_spec_text(text)
    assert [(p.location.line, p.location.column, p.path) for p in problems] == \
        [(3, 22, "colours[2]"), (4, 28, "edges[2]")]
    assert "did you mean 'green'" in problems[0].message


@pytest.mark.parametrize("where", ["inline", "edges_file"])
def test_check_spec_stops_after_too_many_problems(where: str, tmp_path: Path) -> None:
    """A big edge list without colours is not a million problems."""
    edges = [f"v{i} v{i + 1}" for i in range(5000)]
    write(tmp_path, "\n".join(edges) + "\n", "edges.txt")
    body = "edges_file: edges.txt" if where == "edges_file" else f"edges: [{', '.join(edges)}]"
    path = write(tmp_path, HEAD + f"kind: colour-walk\n{body}\nstart: v0\ngoal: v9\n")
    problems = check_spec(path)
    assert len(problems) == MAX_PROBLEMS + 1
    assert "reading stopped" in problems[-1].message
    assert all(p.location is not None and p.location.line for p in problems)


def test_check_spec_keeps_reading_the_edges_after_a_bad_one() -> None:
    text = HEAD + "kind: colour-walk\nedges: [A B red, C, B C teal, C D blue, D]\nstart: A\n" \
        "goal: D\n"
    problems = check_spec_text(text, "t.yaml")
    assert [(p.location.line, p.path) for p in problems] == \
        [(3, "edges[1]"), (3, "edges[2]"), (3, "edges[4]")]


def test_a_skipped_edge_does_not_cascade_into_unknown_names() -> None:
    """The node a bad edge would have brought in is not reported again at ``start``."""
    problems = check_spec_text(HEAD + "kind: trail\nedges: [a b, x y z w]\nstart: x\n")
    assert [p.path for p in problems] == ["edges[1]"]


@pytest.mark.parametrize("rule", ["[red, red]", "{cycle: [red, red]}", "{cycel: [red]}"])
def test_a_bad_colour_rule_does_not_cascade(rule: str) -> None:
    """Edge colours and ``first`` are not checked against a rule that could not be read."""
    for kind in ("colour-walk", "walk"):
        text = HEAD + (f"kind: {kind}\ncolours: {rule}\nedges: [A B red, B C yellow]\n"
                       "first: yellow\nstart: A\ngoal: C\n")
        assert [p.location.line for p in check_spec_text(text)] == [3], (kind, rule)


def test_a_bad_nodes_entry_does_not_cascade() -> None:
    text = HEAD + "kind: trail\nnodes: [a, [b]]\nedges: [a b]\nstart: b\nlayout: {b: [0, 0]}\n"
    assert [p.path for p in check_spec_text(text)] == ["nodes[1]"]


def test_check_spec_is_empty_for_every_bundled_spec() -> None:
    specs = sorted(SPECS.rglob("*.yaml"))
    assert len(specs) > 20
    for spec in specs:
        assert check_spec(spec) == [], spec


def test_check_spec_reports_unreadable_files(tmp_path: Path) -> None:
    problems = check_spec(tmp_path / "missing.yaml")
    assert len(problems) == 1 and problems[0].location is not None


def test_side_file_problems_are_located_in_the_side_file(tmp_path: Path) -> None:
    write(tmp_path, "a b red\nb c\nc d teal\n", "edges.txt")
    path = write(tmp_path, HEAD + "kind: colour-walk\nedges_file: edges.txt\nstart: a\n"
                 "goal: d\n")
    side = str(tmp_path / "edges.txt")
    assert [(p.location.file, p.location.line) for p in check_spec(path)] == \
        [(side, 2), (side, 3)]


# ------------------------------------------------------------ file encodings
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le"])
def test_wide_encodings_are_named(encoding: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, (HEAD + "kind: trail\nedges: [a b]\n").encode(encoding))
    err = solve_error(path, capsys)
    assert err.startswith(f"{path}:1:1: error: ")
    assert f"is {encoding[:6].upper()}" in err and "save it as UTF-8" in err


def test_utf8_with_bom_still_reads(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + (HEAD + "kind: trail\nedges: [a b]\n").encode())
    assert load_spec(path).num_edges == 1


def test_control_characters_are_each_located() -> None:
    text = HEAD + "kind: trail\nname: \x1b[2J\nedges: [a b]\ndescription: \x07\n"
    problems = check_spec_text(text, "t.yaml")
    assert [(p.location.line, p.location.column) for p in problems] == [(3, 7), (5, 14)]


def test_control_characters_in_side_files_are_located(tmp_path: Path) -> None:
    write(tmp_path, "a\x07 b\nb\x00 c\n", "edges.txt")
    path = write(tmp_path, HEAD + "kind: trail\nedges_file: edges.txt\n")
    side = str(tmp_path / "edges.txt")
    assert [(p.location.file, p.location.line, p.location.column) for p in check_spec(path)] \
        == [(side, 1, 2), (side, 2, 2)]


# ------------------------------------------------------- plain lists as specs
@pytest.mark.parametrize("name, command", [
    ("puzzle_original.txt", "trailkit import planks"),
])
def test_plank_list_given_as_a_spec(name: str, command: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = SPECS / "tyre-puzzle" / name
    err = solve_error(path, capsys)
    assert err.startswith(f"{path}:2:1: error: ")
    assert command in err and "--start" in err and "document start" not in err


@pytest.mark.parametrize("text, command", [
    ("1 2\n2|3\n3 1\n", "trailkit import dominoes"),
    ("A E red\n", "trailkit import planks"),
])
def test_plain_lists_suggest_import(text: str, command: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, text, "list.txt")
    err = solve_error(path, capsys)
    assert err.startswith(f"{path}:1:1: error: ") and command in err


# --------------------------------------------------------- one edge grammar
@pytest.mark.parametrize("line, directed", [("a -> b", True), ("a → b red", True),
                                            ("a b", False), ("a b red", False)])
def test_side_file_reads_every_inline_edge_form(line: str, directed: bool,
                                                tmp_path: Path) -> None:
    write(tmp_path, line + "\n", "edges.txt")
    from_file = load_spec(write(tmp_path, HEAD + "kind: walk\nuse: any\nedges_file: edges.txt\n",
                                "file.yaml"))
    inline = load_spec(write(tmp_path, HEAD + f"kind: walk\nuse: any\nedges: [{line!r}]\n",
                             "inline.yaml"))
    for puzzle in (from_file, inline):
        assert puzzle.nodes == ("a", "b")
        assert puzzle.is_directed(0) is directed
        assert puzzle.colour_name(0) == ("red" if "red" in line else None)


def test_dominoes_file_is_read_and_checked_against_nodes(tmp_path: Path) -> None:
    write(tmp_path, "1 2\n2|3  # a note\n3:1\n", "dominoes.txt")
    path = write(tmp_path, HEAD + "kind: domino-chain\ndominoes_file: dominoes.txt\n")
    puzzle = load_spec(path)
    assert (puzzle.nodes, puzzle.num_edges, puzzle.closed) == (("1", "2", "3"), 3, True)
    path = write(tmp_path, HEAD + "kind: domino-chain\nnodes: [1, 2]\n"
                 "dominoes_file: dominoes.txt\n")
    side = str(tmp_path / "dominoes.txt")
    assert [(p.location.file, p.location.line) for p in check_spec(path)] == \
        [(side, 2), (side, 3)]


def test_side_file_bad_line_reads_like_the_inline_message(tmp_path: Path) -> None:
    write(tmp_path, "a b\na b red extra\n", "edges.txt")
    path = write(tmp_path, HEAD + "kind: trail\nedges_file: edges.txt\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert str(info.value).startswith(f"{tmp_path / 'edges.txt'}:2:1: error: ")
    assert "4 fields" in info.value.message and "'a b red extra'" in info.value.message


def test_plank_import_rejects_one_way_planks_with_a_location() -> None:
    with pytest.raises(SpecError) as info:
        parse_edge_lines("A B red\nA -> B red\n", "p.txt")
    assert (info.value.location.line, info.value.location.column) == (2, 1)
    assert "one-way" in info.value.message


def test_int_limit_is_below_pythons() -> None:
    import sys

    assert sys.get_int_max_str_digits() > MAX_INT_DIGITS


# ----------------------------------------------------- the empty spec (item 6)
EMPTY_SPECS = {
    "dominoes": "trailkit: 1\nkind: domino-chain\ndominoes: []\n",
    "trail": "trailkit: 1\nkind: trail\nedges: []\n",
    "closed-walk": "trailkit: 1\nkind: walk\nedges: []\nclosed: true\n",
}


@pytest.mark.parametrize("backend", ["direct", "cpsat", "sat"])
@pytest.mark.parametrize("kind", sorted(EMPTY_SPECS))
def test_solve_empty_spec_on_every_backend(kind: str, backend: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EMPTY_SPECS[kind])
    code = main(["solve", str(path), "--backend", backend, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert (result["status"], result["length"], result["steps"], result["start"]) == \
        ("solved", 0, [], None)
    assert result["verified"] is True
    assert main(["solve", str(path), "--backend", backend]) == 0
    assert "0 " in capsys.readouterr().out


# ------------------------------------------------------- rule colours (CONTRACT 1.2 §1)
SEED_SAMPLE = (HEAD + "kind: colour-walk\nedges: [A B red, B C blue]\n"
               "colours: [red, blue, green]\nstart: A\ngoal: C\n")


def test_the_seed_authors_sample_is_solved(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Planks A-B red and B-C blue under red -> blue -> green: green is on no plank, and
    the answer is A -red-> B -blue-> C (it was rejected as "on no edge")."""
    code = main(["solve", str(write(tmp_path, SEED_SAMPLE))])
    out, _ = capsys.readouterr()
    assert code == 0 and "A -red-> B -blue-> C" in out


@pytest.mark.parametrize("fmt", ["text", "parsable", "json"])
def test_lint_warns_about_a_cycle_colour_on_no_edge(tmp_path: Path, fmt: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SEED_SAMPLE)
    code = main(["lint", str(path), "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0
    if fmt == "json":
        (spec,) = json.loads(out)["specs"]
        assert spec["ok"] and spec["problems"] == []
        (warning,) = spec["warnings"]
        assert (warning["line"], warning["column"], warning["level"]) == (4, 22, "warning")
        assert "'green'" in warning["message"]
    elif fmt == "parsable":
        assert f"{path}:4:22: [warning] colour 'green'" in out
    else:
        assert f"{path}:4:22: warning: colour 'green'" in err and "1 warning" in out


@pytest.mark.parametrize("rule, column, path", [
    ("colours: [red, blue, gren]", 22, "colours[2]"),   # a cycle colour one edit away
    ("colours: {transitions: {red: [blue], blue: [rde]}}", 45,
     "colours.transitions.blue[0]"),                    # a target one edit away
    ("colours: {transitions: {red: [blue], blue: [red], gren: [red]}}", 51,
     "colours.transitions.gren"),                       # a key one edit away
])
def test_a_rule_colour_one_edit_from_an_edge_colour_is_a_typo(rule: str, column: int,
                                                               path: str) -> None:
    text = HEAD + f"kind: walk\n{rule}\nuse: any\nedges: [A B red, B C blue, C D green]\n"
    problems = [p for p in check_spec_text(text) if "on no edge" in p.message]
    assert [(p.location.line, p.location.column, p.path) for p in problems] == \
        [(3, column, path)]
    assert "did you mean" in problems[0].message


def test_a_transition_to_a_colour_that_is_nowhere_is_still_an_error() -> None:
    text = HEAD + ("kind: walk\ncolours: {transitions: {red: [blue], blue: [violet]}}\n"
                   "edges: [a b red, b c blue]\n")
    (problem,) = check_spec_text(text)
    assert "'violet'" in problem.message and problem.path == "colours.transitions.blue[0]"
