"""The JSON Schema of the spec language: every valid spec validates, obvious mistakes do not.

The schema is for editors (completion and checks while typing); the reader stays the
full check. So the tests hold it to the reader from both sides: every bundled and
generated spec validates, and the mistakes a schema can see (unknown keys, wrong
kinds of value) are rejected.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from mutants import SEED, mutants

from trailkit.models.errors import TrailkitError
from trailkit.models.schemas import load_schema, schema_names, schema_text
from trailkit.models.spec import check_spec, load_spec_text

SPECS = Path(__file__).resolve().parents[3] / "specs"
ROOT = Path(__file__).resolve().parents[3]


def as_json(value: Any) -> Any:
    """What an editor's YAML parser hands the schema (dates as text, as JSON has no dates)."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return value


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = load_schema("spec")
    jsonschema.Draft7Validator.check_schema(schema)  # draft-07, for editors
    return jsonschema.Draft7Validator(schema)


def errors(validator: jsonschema.protocols.Validator, text: str) -> list[str]:
    return [e.message for e in validator.iter_errors(as_json(yaml.safe_load(text)))]


def test_schema_is_shipped_as_package_data() -> None:
    assert "spec" in schema_names()
    assert json.loads(schema_text("spec")) == load_schema("spec")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"trailkit.models.schemas" = ["*.schema.json"]' in pyproject
    assert "jsonschema" in pyproject


def test_unknown_schema_names_the_known_ones() -> None:
    with pytest.raises(TrailkitError, match=r"choose from .*spec"):
        load_schema("spce")


@pytest.mark.parametrize("path", sorted(SPECS.rglob("*.yaml")), ids=lambda p: p.name)
def test_every_bundled_spec_validates(path: Path,
                                      validator: jsonschema.protocols.Validator) -> None:
    assert errors(validator, path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("kind", ["dominoes", "trail", "colour-walk", "alternating"])
def test_generated_specs_validate(kind: str, validator: jsonschema.protocols.Validator) -> None:
    from trailkit.solvers.tools.generate import generate

    for seed in range(3):
        text = generate(kind, 4, seed, "any").text
        load_spec_text(text)
        assert errors(validator, text) == [], (kind, seed)


GOOD = {
    "edge-forms": "trailkit: 1\nkind: walk\nedges: [a b, a -> b red, [a, b, blue], "
                  "{from: a, to: b, color: red, directed: true, id: x}]\n",
    "transitions": "trailkit: 1\nkind: walk\ncolours: {transitions: {red: [blue], "
                   "blue: [red]}}\nedges: [a b red]\n",
    "layout-auto": "trailkit: 1\nkind: trail\nedges: [a b]\nlayout: auto\n",
    "ends-list": "trailkit: 1\nkind: trail\nedges: [a b]\nstart: [a, b]\nend: any\n",
    "domino-forms": "trailkit: 1\nkind: domino-chain\ndominoes: [[1, 2], '2|3', '3:1']\n",
    "empty": "trailkit: 1\nkind: domino-chain\ndominoes: []\n",
    "node-rules": "trailkit: 1\nkind: walk\nedges: [a b, b c]\nvisit: at-most-once\n"
                  "via: [b]\navoid: c\nat: {a: 1}\n",
    "tour-board": "trailkit: 1\nkind: tour\nboard: {size: [5, 5], moves: knight}\n"
                  "avoid: [c3]\nclosed: false\n",
    "trail-board": "trailkit: 1\nkind: trail\nboard: {size: [2, 2], moves: king}\n"
                   "edges: [a1 x]\n",
}

BAD = {
    "unknown-top-level-key": "trailkit: 1\nkind: trail\nedges: [a b]\nedgse: [b c]\n",
    "key-of-another-kind": "trailkit: 1\nkind: trail\nedges: [a b]\ngoal: b\n",
    "unknown-kind": "trailkit: 1\nkind: trial\nedges: [a b]\n",
    "missing-version": "kind: trail\nedges: [a b]\n",
    "wrong-version": "trailkit: 2\nkind: trail\nedges: [a b]\n",
    "edges-not-a-list": "trailkit: 1\nkind: trail\nedges: 5\n",
    "edge-with-four-fields": "trailkit: 1\nkind: trail\nedges: [a b red extra]\n",
    "edge-mapping-typo": "trailkit: 1\nkind: trail\nedges: [{from: a, too: b}]\n",
    "closed-not-boolean": "trailkit: 1\nkind: trail\nedges: [a b]\nclosed: maybe\n",
    "bad-use": "trailkit: 1\nkind: walk\nedges: [a b]\nuse: twice\n",
    "expect-typo": "trailkit: 1\nkind: trail\nedges: [a b]\nexpect: {solution: 2}\n",
    "negative-count": "trailkit: 1\nkind: trail\nedges: [a b]\nexpect: {solutions: -1}\n",
    "layout-not-a-position": "trailkit: 1\nkind: trail\nedges: [a b]\nlayout: {a: [1]}\n",
    "colour-walk-without-goal": "trailkit: 1\nkind: colour-walk\nedges: [a b red]\n"
                                "start: a\n",
    "both-goal-and-end": "trailkit: 1\nkind: walk\nedges: [a b]\ngoal: a\nend: b\n",
    "no-edges-key": "trailkit: 1\nkind: trail\n",
    "nodes-listed-twice": "trailkit: 1\nkind: trail\nnodes: [a, a]\nedges: [a a]\n",
    "bad-visit": "trailkit: 1\nkind: walk\nedges: [a b]\nvisit: twice\n",
    "position-0": "trailkit: 1\nkind: walk\nedges: [a b]\nat: {a: 0}\n",
    "tour-visit": "trailkit: 1\nkind: tour\nedges: [a b]\nvisit: any\n",
    "board-moves": "trailkit: 1\nkind: tour\nboard: {size: [3, 3], moves: rook}\n",
    "board-in-colour-walk": "trailkit: 1\nkind: colour-walk\nboard: {size: [3, 3], "
                            "moves: king}\nstart: a1\ngoal: c3\n",
}


@pytest.mark.parametrize("case", sorted(GOOD))
def test_valid_forms_validate(case: str, validator: jsonschema.protocols.Validator) -> None:
    load_spec_text(GOOD[case])
    assert errors(validator, GOOD[case]) == []


@pytest.mark.parametrize("case", sorted(BAD))
def test_obvious_mistakes_are_rejected(case: str,
                                       validator: jsonschema.protocols.Validator) -> None:
    with pytest.raises(TrailkitError):
        load_spec_text(BAD[case])
    assert errors(validator, BAD[case])


def test_every_spec_the_reader_accepts_validates(tmp_path: Path,
                                                validator: jsonschema.protocols.Validator
                                                ) -> None:
    """On the fuzzer's mutants: the schema never rejects a spec the reader accepts (an
    editor must not underline a good spec)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # an editor's parser reads long pips; Python's limit aside
    accepted = 0
    try:
        for i, (data, side, steps) in enumerate(mutants(SEED, 300)):
            folder = tmp_path / f"m{i}"
            folder.mkdir()
            for name in ("edges.txt", "side.txt"):
                (folder / name).write_text(side, encoding="utf-8", errors="surrogatepass")
            (folder / "spec.yaml").write_bytes(data)
            if check_spec(folder / "spec.yaml"):
                continue
            accepted += 1
            assert errors(validator, data.decode("utf-8-sig")) == [], (i, steps)
    finally:
        sys.set_int_max_str_digits(limit)
    assert accepted > 20


def test_the_docs_show_the_language_server_hook() -> None:
    page = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert "# yaml-language-server: $schema=" in page
