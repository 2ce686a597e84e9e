"""Editors read the spec schema: draft-07, checked by the real yaml-language-server.

``trailkit schema spec`` is for editors, and the YAML support of VS Code, Neovim, Helix
and most others is yaml-language-server, which reads drafts 2019-09 and 2020-12 only from
its version 1.20. So the spec schema is draft-07 (the ``--json`` outputs' schemas stay
2020-12), and these tests open specs in the real server (``tests/yaml_editor.py``) as an
editor does and compare where it marks each mistake with where the mistake is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from yaml_editor import Diagnostic, YamlServer, server_command

from trailkit.models.schemas import load_schema, schema_text

SPECS = Path(__file__).resolve().parents[3] / "specs"
# Keywords of drafts 2019-09 and 2020-12 that a draft-07 reader does not know.
LATER_KEYWORDS = {"$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
                  "$recursiveAnchor", "$vocabulary", "prefixItems", "unevaluatedItems",
                  "unevaluatedProperties", "dependentRequired", "dependentSchemas",
                  "minContains", "maxContains"}

# Line 5: a key no spec has; line 6: a value of the wrong kind; line 7: a key of
# another kind of puzzle; the rest is right.
MISTAKES = """\
trailkit: 1
kind: trail
name: three mistakes
edges: [a b, b c]
colour: red
closed: maybe
colours: [red, blue]
"""


def _keywords(schema: Any) -> Iterator[str]:
    """Every keyword used anywhere in ``schema`` (property names under ``properties``
    are names, not keywords)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key
            if key in ("properties", "definitions", "patternProperties"):
                for child in value.values():
                    yield from _keywords(child)
            else:
                yield from _keywords(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _keywords(item)


def test_the_spec_schema_is_draft_07_through_and_through() -> None:
    schema = load_schema("spec")
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)
    assert not LATER_KEYWORDS & set(_keywords(schema))
    assert "#/$defs/" not in schema_text("spec")


def test_the_output_schemas_keep_2020_12() -> None:
    assert load_schema("result")["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_a_draft_07_validator_finds_the_three_mistakes() -> None:
    """The schema means the same to a draft-07 validator as to an editor."""
    import yaml

    found = jsonschema.Draft7Validator(load_schema("spec")).iter_errors(
        yaml.safe_load(MISTAKES))
    assert {tuple(e.absolute_path) for e in found} >= {("closed",)}
    assert not list(jsonschema.Draft7Validator(load_schema("spec")).iter_errors(
        yaml.safe_load((SPECS / "nikolaus.yaml").read_text(encoding="utf-8"))))


# ------------------------------------------------------------- the real editor
@pytest.fixture(scope="module")
def editor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[YamlServer, Path]]:
    """One yaml-language-server for the module, with ``spec.schema.json`` (as
    ``trailkit schema spec`` prints it) mapped to ``mapped-*.yaml`` of a folder."""
    command = server_command()
    if isinstance(command, str):
        pytest.skip(command)
    folder = tmp_path_factory.mktemp("editor")
    schema = folder / "spec.schema.json"
    schema.write_text(schema_text("spec"), encoding="utf-8")
    with YamlServer(command, schema, f"{folder.as_posix()}/mapped-*.yaml") as server:
        yield server, folder


def _lines(found: list[Diagnostic]) -> dict[int, list[str]]:
    by_line: dict[int, list[str]] = {}
    for diagnostic in found:
        by_line.setdefault(diagnostic.line, []).append(diagnostic.message)
    return by_line


def _open(editor: tuple[YamlServer, Path], name: str, text: str) -> dict[int, list[str]]:
    server, folder = editor
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return _lines(server.diagnostics(path))


@pytest.mark.parametrize("how", ["settings", "first line"])
def test_the_editor_marks_each_mistake_at_its_line(editor: tuple[YamlServer, Path],
                                                   how: str) -> None:
    """Through the ``yaml.schemas`` setting, and through the first-line comment that
    docs/spec.md shows: the unknown key, the wrong kind of value and the key of another
    kind of puzzle, each marked on its own line and nowhere else."""
    if how == "settings":
        marked = _open(editor, "mapped-mistakes.yaml", MISTAKES)
    else:
        marked = _open(editor, "commented.yaml",
                       "# yaml-language-server: $schema=./spec.schema.json\n" + MISTAKES)
        marked = {line - 1: messages for line, messages in marked.items()}
    assert sorted(marked) == [5, 6, 7], marked
    assert any("colour is not allowed" in m for m in marked[5])
    assert any('Expected "boolean"' in m for m in marked[6])
    assert any("colours is not allowed" in m or "Value is not accepted" in m
               for m in marked[7])


def test_the_editor_marks_an_unknown_kind(editor: tuple[YamlServer, Path]) -> None:
    marked = _open(editor, "mapped-kind.yaml", "trailkit: 1\nkind: trial\nedges: [a b]\n")
    assert sorted(marked) == [2] and any("trail" in m for m in marked[2]), marked


def test_the_editor_finds_nothing_wrong_in_the_bundled_specs(
        editor: tuple[YamlServer, Path]) -> None:
    """The bundled specs of every kind, opened in the editor, are clean (a schema the
    server misread would mark good specs too; ``tests/models/spec/test_spec_schema.py`` validates
    every one, the benchmark's big specs too)."""
    for spec in sorted(SPECS.glob("*/*.yaml")) + sorted(SPECS.glob("*.yaml")):
        if spec.parent.name == "bench":
            continue
        marked = _open(editor, f"mapped-{spec.stem}.yaml", spec.read_text(encoding="utf-8"))
        assert marked == {}, (spec, marked)
