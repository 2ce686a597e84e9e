"""The type checker over the whole package: ``mypy`` on ``trailkit`` (the short face),
``trailkit.models`` and ``trailkit.solvers``, clean and strict (the settings are
``[tool.mypy]`` in ``pyproject.toml``; :data:`STRICT_PACKAGES`); and the ``py.typed`` markers that
tell a user's type checker the installed packages carry their hints (PEP 561).

The packages live in ``models/`` and ``solvers/`` and are mapped to ``trailkit.models``
and ``trailkit.solvers`` at install time; mypy resolves imports by folders, so it is run
on a folder where ``trailkit/models`` and ``trailkit/solvers`` link to them. That folder
and mypy's cache are kept in ``.mypy_cache/`` at the repository's root, at the same
paths from one run to the next, so a second run checks only what changed (about 90 s
cold on the project's machine, a few seconds warm; issue 30).

Strictness is set by an override (``[[tool.mypy.overrides]]``: mypy takes ``strict``
only globally) on every package, with per-module exceptions for compiled kernels and
subclasses of untyped libraries, each with its reason;
:func:`test_strict_packages_have_every_strict_flag` keeps that override in step with
what ``mypy --strict`` means in the installed mypy.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

STRICT_PACKAGES = ("trailkit",)
"""The packages ``mypy`` checks as ``--strict`` would, subpackages included: all of them
(issue 42; per-module exceptions for compiled kernels and untyped libraries only)."""

GLOBAL_ONLY = {"warn_redundant_casts"}
"""A flag of ``--strict`` that mypy takes only in ``[tool.mypy]``, not per module."""

NOT_ABOUT_CODE = {"warn_unused_configs"}
"""In ``--strict`` in older mypy: it checks the configuration, not the code."""


def _pyproject() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


# long: every module type-checked from an empty cache, as a fresh clone has it (25 s of
# the README's command, a twelfth of its five minutes); CI runs it right after
@pytest.mark.long
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
    face = package / "__init__.py"  # the package trailkit itself (solvers/face/)
    if not face.is_symlink() or face.resolve() != ROOT / "solvers" / "face" / "__init__.py":
        face.unlink(missing_ok=True)
        face.symlink_to(ROOT / "solvers" / "face" / "__init__.py")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(cache),
         "-m", "trailkit", "-p", "trailkit.models", "-p", "trailkit.solvers"],
        cwd=tree, env={**os.environ, "MYPYPATH": str(tree)},
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _strict_flags() -> set[str]:
    """The flags ``mypy --strict`` turns on, as config names, read from ``mypy --help``
    (``--no-implicit-reexport`` is the config's ``implicit_reexport = false``)."""
    shown = subprocess.run([sys.executable, "-m", "mypy", "--help"],
                           capture_output=True, text=True, check=True).stdout
    block = re.search(r"--strict\s+Strict mode; enables the following flags:(.*?)\n  -",
                      shown, re.S)
    assert block, "mypy --help no longer lists what --strict enables"
    words = re.sub(r"-\s*\n\s*", "-", block.group(1))  # rejoin flags cut at a hyphen
    flags = {flag.replace("-", "_") for flag in re.findall(r"--([a-z-]+)", words)}
    assert "disallow_untyped_defs" in flags, flags
    return flags


def test_strict_packages_have_every_strict_flag() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    mypy = _pyproject()["tool"]["mypy"]  # type: ignore[index]
    covering = [o for o in mypy["overrides"]
                if all(p in o["module"] and p + ".*" in o["module"] for p in STRICT_PACKAGES)]
    assert len(covering) == 1, "one override lists every strict package, with its subpackages"
    override = covering[0]
    missing = []
    for flag in sorted(_strict_flags()):
        if flag == "no_implicit_reexport":
            ok = override.get("implicit_reexport") is False
        elif flag in GLOBAL_ONLY | NOT_ABOUT_CODE:
            ok = mypy.get(flag) is True or flag in NOT_ABOUT_CODE
        else:
            ok = override.get(flag) is True or (flag in mypy and mypy[flag] is True
                                                 and flag not in override)
        if not ok:
            missing.append(flag)
    assert not missing, f"the strict packages' override lacks {missing}"


@pytest.mark.parametrize("package", ["trailkit", "trailkit.models", "trailkit.solvers"])
def test_py_typed_ships(package: str) -> None:
    """Each package root holds the empty ``py.typed`` marker and lists it as package
    data, so a wheel carries it (PEP 561)."""
    tool = _pyproject()["tool"]["setuptools"]  # type: ignore[index]
    folder = ROOT / tool["package-dir"][package]
    assert (folder / "py.typed").is_file()
    assert (folder / "py.typed").stat().st_size == 0
    assert "py.typed" in tool["package-data"].get(package, [])
    assert package in tool["packages"]
