"""Finding spec files: the files named, and the ``.yaml``/``.yml`` files under folders.

>>> [p.name for p in find_specs(["specs/nikolaus.yaml"])]
['nikolaus.yaml']
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

__all__ = ["SPEC_SUFFIXES", "find_specs"]

SPEC_SUFFIXES = (".yaml", ".yml")


def find_specs(paths: Iterable[str | Path]) -> list[Path]:
    """The spec files named by ``paths``: files as given, folders searched recursively
    (sorted, so a run over a folder is reproducible)."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in SPEC_SUFFIXES
                            and p.is_file())
        else:
            found.append(path)
    return found
