"""The spec reader's package keeps the shape STYLE.md practice 13 asks for: rooms with one
job each, small enough to read (no class over 300 lines, no function over 60), importing
one way only (no cycle anywhere in ``models/``, ``models/`` never importing ``solvers/``),
and its public names where they always were."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import trailkit.models.spec as spec

MODELS = Path(__file__).resolve().parent.parent / "models"
PACKAGE = MODELS / "spec"


def _module_name(path: Path) -> str:
    parts = ["trailkit", "models", *path.relative_to(MODELS).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every ``trailkit`` module each module of ``models/`` imports, anywhere in it (in a
    function, under ``TYPE_CHECKING``): ``from package import submodule`` counts as the
    submodule."""
    files = {_module_name(p): p for p in MODELS.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("trailkit"))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("trailkit"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in files else str(node.module))
        graph[name] = found
    return graph


def _cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """An import cycle from ``start`` back to itself, or ``None``."""
    came_from: dict[str, str] = {}
    todo = [start]
    while todo:
        name = todo.pop()
        for target in sorted(graph.get(name, ())):
            if target == start:
                path = [name]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if target in graph and target not in came_from:
                came_from[target] = name
                todo.append(target)
    return None


def test_the_spec_reader_is_in_no_import_cycle_and_models_never_import_solvers() -> None:
    graph = _imports()
    ours = [m for m in graph if m.startswith("trailkit.models.spec")
            or m == "trailkit.models.repair_rules"]
    assert len(ours) > 20
    cycles = {m: _cycle_through(graph, m) for m in ours}
    assert not {m: c for m, c in cycles.items() if c}
    upward = {m: sorted(t for t in ts if t.startswith("trailkit.solvers")) for m, ts in
              graph.items()}
    assert not {m: ts for m, ts in upward.items() if ts}


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set()}
    assert _cycle_through(graph, "a") == ["a", "b", "c", "a"]
    assert _cycle_through(graph, "d") is None


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_rooms_are_small(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            size = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            limit = 300 if isinstance(node, ast.ClassDef) else 60
            assert size <= limit, f"{path.name}: {node.name} has {size} lines"


def test_the_public_names_stay() -> None:
    assert set(spec.__all__) == {"KINDS", "MAX_INT_DIGITS", "MAX_PROBLEMS", "MAX_SPEC_BYTES",
                                 "check_spec", "check_spec_text", "lint_spec",
                                 "lint_spec_text", "load_spec", "load_spec_text"}
    assert spec.KINDS == ("trail", "domino-chain", "colour-walk", "walk")
    assert (spec.MAX_PROBLEMS, spec.MAX_INT_DIGITS, spec.MAX_SPEC_BYTES) == (
        100, 4000, 50 * 1024 * 1024)
