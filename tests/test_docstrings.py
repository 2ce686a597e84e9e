"""Every docstring example in the package runs and says what it shows (as NetworkX's do)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import trailkit.models
import trailkit.solvers
from trailkit.solvers.api import MOVED


def _modules() -> list[str]:
    names = []
    for package in (trailkit.models, trailkit.solvers):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__") and info.name not in MOVED:
                names.append(info.name)
    return sorted(names)


def test_the_package_has_docstring_examples() -> None:
    examples = sum(len(t.examples) for name in _modules()
                   for t in doctest.DocTestFinder().find(importlib.import_module(name)))
    assert examples >= 20


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
