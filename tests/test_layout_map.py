"""The map stays true: docs/layout.md names every module worth a reader's look, and every
module the code's own words point to exists.

docs/layout.md is where a newcomer finds a module; a module left off it is a room with no
door on the plan (eight were, issue 42). Module docstrings name their neighbours with
``:mod:`` roles; one that names a module removed since (the command line's ``.ranking``)
sends the reader nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOPS = {"models": "trailkit.models", "solvers": "trailkit.solvers"}
LAYOUT = ROOT / "docs" / "layout.md"
SMALL = 25
"""Modules of at most this many lines (a re-export, a marker) may go unnamed."""


def _modules() -> dict[str, Path]:
    """Every module of the two packages by dotted name (``solvers/face`` is ``trailkit``)."""
    found: dict[str, Path] = {}
    for top, package in TOPS.items():
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = [*package.split("."), *path.relative_to(ROOT / top).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            name = "trailkit" if path.parent == ROOT / "solvers" / "face" else ".".join(parts)
            found[name] = path
    return found


MODULES = _modules()


def _named_in_layout(path: Path, text: str) -> bool:
    if path.name == "__init__.py":  # a package is named by its folder
        return f"{path.parent.name}/" in text or f"`{path.parent.name}`" in text
    return re.search(rf"(?<![\w.]){re.escape(path.name)}\b", text) is not None


def test_every_module_of_some_size_is_on_the_map() -> None:
    text = LAYOUT.read_text(encoding="utf-8")
    missing = [str(path.relative_to(ROOT)) for path in MODULES.values()
               if len(path.read_text(encoding="utf-8").splitlines()) > SMALL
               and not _named_in_layout(path, text)]
    assert not missing, ("modules of more than 25 lines that docs/layout.md does not name "
                         "(add each where its folder is described):\n" + "\n".join(missing))


def _resolve(reference: str, module: str, is_package: bool) -> str:
    """``:mod:`` target as an absolute name (``.x`` is relative to the module's package)."""
    reference = reference.lstrip("~")
    if not reference.startswith("."):
        return reference
    dots = len(reference) - len(reference.lstrip("."))
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (dots - 1)] if dots > 1 else base
    return ".".join([*base, reference[dots:]]) if reference[dots:] else ".".join(base)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_the_code_names_exists(module: str) -> None:
    path = MODULES[module]
    text = path.read_text(encoding="utf-8")
    wrong = []
    for match in re.finditer(r":mod:`([^`]+)`", text):
        target = _resolve(match.group(1), module, path.name == "__init__.py")
        if target.startswith("trailkit") and target not in MODULES:
            line = text.count("\n", 0, match.start()) + 1
            wrong.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)} ({target})")
    assert not wrong, "names of modules that do not exist:\n" + "\n".join(wrong)


def test_the_map_test_sees_what_it_should() -> None:
    """The checks above look at real modules: the face, the checkers, the command line."""
    assert {"trailkit", "trailkit.models.checking.verify",
            "trailkit.solvers.frontends.cli"} <= set(MODULES)
    assert _resolve(".ranking", "trailkit.solvers.frontends.cli", True) \
        == "trailkit.solvers.frontends.cli.ranking"
    assert _resolve("..steps", "trailkit.solvers.tools.drawing.svg", False) \
        == "trailkit.solvers.tools.steps"
