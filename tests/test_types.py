"""The type checker over the whole package: ``mypy`` on ``trailkit.models`` and
``trailkit.solvers``, clean (the settings are ``[tool.mypy]`` in ``pyproject.toml``).

The packages live in ``models/`` and ``solvers/`` and are mapped to ``trailkit.models``
and ``trailkit.solvers`` at install time; mypy resolves imports by folders, so it is run
on a temporary folder where ``trailkit/models`` and ``trailkit/solvers`` link to them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    package = tmp_path / "trailkit"
    package.mkdir()
    for name in ("models", "solvers"):
        (package / name).symlink_to(ROOT / name, target_is_directory=True)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / ".mypy_cache"),
         "-p", "trailkit.models", "-p", "trailkit.solvers"],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
