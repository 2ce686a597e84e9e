"""The spec reader's package keeps the shape STYLE.md practice 13 asks for: rooms with one
job each, small enough to read (no class over 200 lines, no function over 40), and its
public names where they always were. (That its imports run one way, in no cycle, is
``tests/test_layers.py``'s to check, for every module.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import trailkit.models.spec as spec

PACKAGE = Path(__file__).resolve().parents[3] / "models" / "spec"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_rooms_are_small(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            size = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            limit = 200 if isinstance(node, ast.ClassDef) else 40
            assert size <= limit, f"{path.name}: {node.name} has {size} lines"


def test_the_public_names_stay() -> None:
    assert set(spec.__all__) == {"KINDS", "MAX_INT_DIGITS", "MAX_PROBLEMS", "MAX_SPEC_BYTES",
                                 "check_spec", "check_spec_text", "lint_spec",
                                 "lint_spec_text", "load_spec", "load_spec_text"}
    assert spec.KINDS == ("trail", "domino-chain", "colour-walk", "walk", "tour")
    assert (spec.MAX_PROBLEMS, spec.MAX_INT_DIGITS, spec.MAX_SPEC_BYTES) == (
        100, 4000, 50 * 1024 * 1024)
