"""The workshop's folder: the specs it lists, opens, saves and creates, and nothing else.

Every name the page sends is a relative path inside the folder, checked before any
file is touched: no absolute path, no ``..``, no hidden part, a ``.yaml`` or ``.yml``
suffix, and, once resolved (symlinks followed), still inside the folder, so a symlink
that leads out is refused as well. Saving writes atomically by the same rules as every
``--out`` (:mod:`trailkit.solvers.files`); creating never replaces a file.

>>> import tempfile
>>> f = SpecFolder(Path(tempfile.mkdtemp()))
>>> f.create("new.yaml", "trailkit: 1\\n"); f.names()
['new.yaml']
>>> f.path("../x.yaml")
Traceback (most recent call last):
...
trailkit.models.errors.TrailkitError: '../x.yaml': a name inside the folder, without '..'
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from trailkit.models.errors import TrailkitError
from trailkit.solvers.files import atomic_write
from trailkit.solvers.specfiles import find_specs

__all__ = ["MAX_LISTED", "SpecFolder"]

#: Specs listed at most (a page of names is enough; the rest are counted).
MAX_LISTED = 2000
_SUFFIXES = (".yaml", ".yml")


class SpecFolder:
    """The folder ``root`` and the spec files under it."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def path(self, name: str) -> Path:
        """The file ``name`` (relative, ``/``-separated) stands for, once it is known to
        lie inside the folder; :class:`TrailkitError` otherwise."""
        pure = PurePosixPath(name)
        if (not name or "\\" in name or "\0" in name or pure.is_absolute()
                or any(part in ("..", "") or part.startswith(".") for part in pure.parts)):
            raise TrailkitError(f"{name!r}: a name inside the folder, without '..'")
        if pure.suffix.lower() not in _SUFFIXES:
            raise TrailkitError(f"{name!r}: a spec's name ends in .yaml or .yml")
        target = (self.root / pure).resolve()
        if not target.is_relative_to(self.root):
            raise TrailkitError(f"{name!r} leads out of the folder (a symlink?)")
        return target

    def names(self) -> list[str]:
        """The specs in the folder (subfolders too), as names relative to it; symlinks
        that lead out are left out."""
        found = []
        for path in find_specs([str(self.root)]):
            relative = path.resolve()
            if relative.is_relative_to(self.root) and not any(
                    p.startswith(".") for p in path.relative_to(self.root).parts):
                found.append(path.relative_to(self.root).as_posix())
            if len(found) >= MAX_LISTED:
                break
        return sorted(found)

    def read(self, name: str, limit: int) -> str:
        """The text of spec ``name`` (at most ``limit`` bytes)."""
        path = self.path(name)
        try:
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
        except OSError as exc:
            raise TrailkitError(f"cannot read {name}: {exc.strerror or exc}") from None
        if len(data) > limit:
            raise TrailkitError(f"{name} is larger than {limit // 1_000_000} MB; the workshop "
                                "opens smaller specs (trailkit lint checks any size)")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TrailkitError(f"{name} is not UTF-8 text (byte {exc.start})") from None

    def save(self, name: str, text: str) -> None:
        """Replace (or write) spec ``name`` atomically."""
        atomic_write(self.path(name), text)

    def create(self, name: str, text: str) -> None:
        """Write a new spec ``name``; never over an existing file."""
        path = self.path(name)
        if path.exists():
            raise TrailkitError(f"{name} already exists; open it, or choose another name")
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)

    def base_dir(self, name: str | None) -> Path:
        """The folder a spec's side files are read from (its own folder)."""
        return self.path(name).parent if name else self.root
