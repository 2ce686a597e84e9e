"""The steps text written from a walk's arrays is exactly the list of step dicts, one
object a line, each key and value as orjson encodes it (:mod:`trailkit.models.formats.jsontext`),
compiled and interpreted, and reads back as the list."""

from __future__ import annotations

import orjson
import pytest
from budget import costly
from hypothesis import given
from hypothesis import strategies as st

from trailkit.models.answer import Walk
from trailkit.models.formats.jsontext import StepsJson, write_steps
from trailkit.models.puzzle import Puzzle

NAMES = st.text(min_size=1, max_size=6)  # any text: quotes, escapes, NUL, non-ASCII


@st.composite
def walks(draw: st.DrawFn) -> tuple[Puzzle, Walk]:
    """A random puzzle with optional colours and custom ids, and a random walk on it
    (the writer does not care whether the walk is legal)."""
    nodes = tuple(draw(st.lists(NAMES, min_size=1, max_size=8, unique=True)))
    m = draw(st.integers(1, 30))
    index = st.integers(0, len(nodes) - 1)
    tail = draw(st.lists(index, min_size=m, max_size=m))
    head = draw(st.lists(index, min_size=m, max_size=m))
    palette = tuple(draw(st.lists(NAMES, max_size=3, unique=True)))
    colour = (draw(st.lists(st.integers(-1, len(palette) - 1), min_size=m, max_size=m))
              if palette else None)
    ids = draw(st.none() | st.lists(st.text(max_size=4) | st.integers(0, 10**12),
                                    min_size=m, max_size=m, unique_by=str))
    puzzle = Puzzle(kind="trail", nodes=nodes, tail=tail, head=head, colour=colour,
                    colour_names=palette if colour is not None else (), edge_ids=ids)
    k = draw(st.integers(1, 40))
    walk = Walk(draw(st.lists(index, min_size=k + 1, max_size=k + 1)),
                draw(st.lists(st.integers(0, m - 1), min_size=k, max_size=k)))
    return puzzle, walk


def reference(steps: StepsJson) -> bytes:
    """The list of step dicts, one object a line, built here from the dicts."""
    def line(step: dict) -> bytes:
        pairs = (orjson.dumps(key) + b": " + orjson.dumps(value) for key, value in step.items())
        return b"    {" + b", ".join(pairs) + b"}"

    return b"[\n" + b",\n".join(line(step) for step in steps.to_list()) + b"\n  ]"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["interpreted", "compiled"])
@costly(0.3, "each example writes a walk with the kernels compiled and interpreted")
@given(case=walks())
def test_written_text_is_orjsons(variant: str, case: tuple[Puzzle, Walk]) -> None:
    puzzle, walk = case
    steps = StepsJson(walk, puzzle)
    text = bytes(steps.written_by(getattr(write_steps, variant)))
    assert text == reference(steps)
    assert steps.to_bytes() == text  # the short-walk path writes the same
    assert orjson.loads(text) == walk.steps_json(puzzle)
    document = orjson.loads(b'{"steps": ' + text + b"}")
    assert document["steps"] == walk.steps_json(puzzle)


def test_empty_walk_and_big_edge_index() -> None:
    puzzle = Puzzle(kind="trail", nodes=("a",), tail=[0] * 12, head=[0] * 12)
    assert StepsJson(Walk((0,), ()), puzzle).to_bytes() == b"[]"
    steps = StepsJson(Walk((0, 0, 0), (10, 0)), puzzle)
    assert bytes(steps.written_by(write_steps.interpreted)) == reference(steps)


@pytest.mark.slow
def test_every_walk_of_a_document_is_written_in_its_place() -> None:
    """``--backend all`` puts several walks in one document: each one's steps are written
    where it stands, and the whole reads back as JSON."""
    import json
    from pathlib import Path

    from in_process import trailkit

    spec = Path(__file__).resolve().parents[3] / "specs" / "nikolaus.yaml"
    done = trailkit(["solve", str(spec), "--backend", "all", "--json"])
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    walks = [doc["steps"], *(answer["steps"] for answer in doc["all_backends"])]
    assert len(walks) >= 3 and all(len(steps) == 8 for steps in walks)
    assert "\x00" not in done.stdout


@costly(0.15, "each example writes a walk with the kernels compiled and interpreted")
@given(case=walks(), indent=st.integers(0, 8))
def test_steps_are_indented_under_their_key(case: tuple[Puzzle, Walk], indent: int) -> None:
    """Nested answers (``all_backends``) put their steps deeper: each step line two
    spaces in from the key, the bracket under it; the ASCII text is the same list."""
    puzzle, walk = case
    steps = StepsJson(walk, puzzle)
    for text in (bytes(steps.buffer(indent)).decode(), steps.ascii_text(indent)):
        lines = text.split("\n")
        assert lines[0] == "[" and lines[-1] == " " * indent + "]"
        assert all(line.startswith(" " * (indent + 2) + '{"from": ') for line in lines[1:-1])
        assert orjson.loads(text) == walk.steps_json(puzzle)
    assert steps.ascii_text(indent).isascii()


@pytest.mark.slow
def test_a_console_that_is_not_utf8_gets_the_same_answer_in_ascii(tmp_path) -> None:
    import json
    import os
    import subprocess
    import sys

    from in_process import trailkit

    spec = tmp_path / "accents.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [Zürich Genève, Genève Köln]\n",
                    encoding="utf-8")
    command = [sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve", str(spec), "--json"]
    utf8 = trailkit(command[3:]).stdout.encode()  # a UTF-8 console needs no process of its own
    ascii_run = subprocess.run(command, capture_output=True, check=True,
                               env={**os.environ, "PYTHONIOENCODING": "ascii"}).stdout
    assert ascii_run.isascii()
    assert json.loads(ascii_run)["steps"] == json.loads(utf8)["steps"]
    assert json.loads(utf8)["steps"][0]["from"] in ("Zürich", "Köln")
    assert b'    {"from": ' in ascii_run


def test_plain_names_are_quoted_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: a 300,000-step walk took seconds to print as JSON, most of it one
    ``orjson.dumps`` call per node name; names that need no escape (almost all) are now
    quoted in one pass, and the text is the same as orjson's."""
    from trailkit.models.formats import jsontext

    n = 3000
    puzzle = Puzzle.build(kind="trail", edges=[(f"n{i}", f"n{i + 1}é") for i in range(n)])
    walk = Walk(tuple(range(n + 1)), tuple(range(n)))
    expected = reference(StepsJson(walk, puzzle))
    calls = [0]
    dumps = orjson.dumps

    def counted(value: object) -> bytes:
        calls[0] += 1
        return dumps(value)

    monkeypatch.setattr(jsontext.orjson, "dumps", counted)
    written = bytes(StepsJson(walk, puzzle).written_by(write_steps.interpreted))
    assert calls[0] < 10
    assert written == expected


def test_one_compiled_writer_with_edge_ids_or_without() -> None:
    """A puzzle without edge ids handed the writer a writable empty table where one with
    them hands a read-only one: two types to Numba, so the writer compiled twice."""
    for ids in (None, ["a", "b"]):
        puzzle = Puzzle(kind="trail", nodes=("x", "y"), tail=[0, 1], head=[1, 0],
                        edge_ids=ids)
        walk = Walk([0, 1, 0], [0, 1])
        text = bytes(StepsJson(walk, puzzle).written_by(write_steps.compiled))
        assert orjson.loads(text) == walk.steps_json(puzzle)
    assert len(write_steps.compiled.signatures) == 1, write_steps.compiled.signatures
