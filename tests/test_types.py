"""The type checker over the whole package: ``mypy`` on ``trailkit.models`` and
``trailkit.solvers``, clean (the settings are ``[tool.mypy]`` in ``pyproject.toml``).

The packages live in ``models/`` and ``solvers/`` and are mapped to ``trailkit.models``
and ``trailkit.solvers`` at install time; mypy resolves imports by folders, so it is run
on a folder where ``trailkit/models`` and ``trailkit/solvers`` link to them. That folder
and mypy's cache are kept in ``.mypy_cache/`` at the repository's root, at the same
paths from one run to the next, so a second run checks only what changed (about 90 s
cold on the project's machine, a few seconds warm; issue 30).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    cache = ROOT / ".mypy_cache"
    tree = cache / "tree"
    package = tree / "trailkit"
    package.mkdir(parents=True, exist_ok=True)
    for name in ("models", "solvers"):
        link = package / name
        if not link.is_symlink() or link.resolve() != ROOT / name:
            link.unlink(missing_ok=True)
            link.symlink_to(ROOT / name, target_is_directory=True)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(cache), "-p", "trailkit.models", "-p", "trailkit.solvers"],
        cwd=tree, env={**os.environ, "MYPYPATH": str(tree)},
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
