"""The Python API's stable home, and the old import paths that still work.

``trailkit.solvers.api`` is what users import; the modules behind it may move (they did
in 0.2). Every path 0.1's docs showed keeps working, warning where the code went.
"""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

from trailkit.solvers import api


def test_every_name_of_the_api_is_there() -> None:
    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert not missing
    assert sorted(api.__all__) == sorted(set(api.__all__))


@pytest.mark.parametrize("old", sorted(api.MOVED))
def test_an_old_path_still_imports_and_says_where_it_moved(old: str) -> None:
    new = importlib.import_module(api.MOVED[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=rf"{old} has moved to {api.MOVED[old]}"):
        shim = importlib.import_module(old)
    public = [n for n in dir(new) if not n.startswith("_") and n in getattr(new, "__all__", [n])]
    assert public and all(getattr(shim, n) is getattr(new, n) for n in public)


def test_the_api_itself_warns_about_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in [n for n in list(sys.modules) if n.startswith("trailkit.solvers.api")]:
            sys.modules.pop(name)
        importlib.import_module("trailkit.solvers.api")


def test_the_python_page_uses_the_short_face() -> None:
    """docs/python.md shows ``import trailkit as tk`` and imports nothing else of trailkit."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    imports = [line for line in page.splitlines()
               if line.startswith((">>> from trailkit", ">>> import trailkit"))]
    assert imports == [">>> import trailkit as tk"], imports


def test_the_short_face_gives_every_name_of_the_api() -> None:
    import trailkit as tk

    assert sorted(api.__all__) == dir(tk)
    for name in api.__all__:
        assert getattr(tk, name) is getattr(api, name), name
    namespace: dict[str, object] = {}
    exec("from trailkit import *", namespace)
    assert set(api.__all__) <= set(namespace)
    with pytest.raises(AttributeError, match=r"trailkit\.solvers\.api\.__all__"):
        tk.no_such_name  # noqa: B018


def test_importing_trailkit_loads_nothing_it_does_not_use() -> None:
    """``import trailkit`` is cheap: the API (and OR-Tools behind it) loads on first use,
    so the command line and ``import trailkit.models`` do not pay for it."""
    import subprocess

    code = ("import sys, trailkit; print(sorted(m for m in sys.modules "
            "if m.startswith(('trailkit.solvers', 'ortools', 'pysat'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
