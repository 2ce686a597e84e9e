"""The workshop's folder: the specs it lists, opens, saves and creates, and nothing else.

Every name the page sends is a relative path inside the folder, checked before any
file is touched: no absolute path, no ``..``, no hidden part, a ``.yaml`` or ``.yml``
suffix, and, once resolved (symlinks followed), still inside the folder, so a symlink
that leads out is refused as well; so is a name that is not exactly the file's own
(``a.yaml/``, ``./a.yaml``, ``a//b.yaml``) and anything that is not a regular file (a
folder named ``x.yaml``, a FIFO, a device).

Saving loses nothing: the page says which version of the file it replaces (its
:func:`version`, as it read or last saved it); when the file on disk is another
version now (changed by another program since), :class:`Conflict` refuses the save and
carries the text on disk, so the page can show both and let the author choose. The text
replaced is kept as one backup beside the file, hidden: ``DIR/.NAME~`` for
``DIR/NAME`` (each save replaces the backup of the one before). The new text is
written atomically (a temporary file in the same folder, then a rename) with the
file's own permissions, owner and group (a 0600 file stays 0600; a file of another user
saved by a server running as root stays that user's); creating never replaces a file.

>>> import tempfile
>>> f = SpecFolder(Path(tempfile.mkdtemp()))
>>> version = f.create("new.yaml", "trailkit: 1\\n"); f.names()
['new.yaml']
>>> f.path("../x.yaml")
Traceback (most recent call last):
...
trailkit.models.errors.TrailkitError: '../x.yaml': a name inside the folder, without '..'
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path, PurePosixPath

from trailkit.models.errors import TrailkitError
from trailkit.models.support.hints import short
from trailkit.solvers.support.files import atomic_write
from trailkit.solvers.support.specfiles import find_specs

__all__ = ["MAX_LISTED", "Conflict", "SpecFolder", "backup_path", "version"]

#: Specs listed at most (a page of names is enough; the rest are counted).
MAX_LISTED = 2000
#: The longest name of one file or folder, and of a whole name, in bytes (Linux's).
MAX_PART_BYTES, MAX_NAME_BYTES = 255, 1024
_SUFFIXES = (".yaml", ".yml")


def version(data: bytes) -> str:
    """The version of a file's bytes, as the page quotes it back when it saves."""
    return hashlib.sha256(data).hexdigest()[:32]


def backup_path(path: Path) -> Path:
    """Where the text a save replaces is kept: ``DIR/.NAME~`` beside ``DIR/NAME``."""
    return path.with_name(f".{path.name}~")


class Conflict(TrailkitError):
    """A save refused: the file on disk is not the version the page replaces. ``disk``
    is its text now, ``version`` its version (quoting it back replaces it)."""

    def __init__(self, message: str, disk: str, disk_version: str) -> None:
        super().__init__(message)
        self.disk, self.version = disk, disk_version


class SpecFolder:
    """The folder ``root`` and the spec files under it."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def path(self, name: str) -> Path:
        """The file ``name`` (relative, ``/``-separated, exactly as written: no trailing
        ``/``, no ``.`` or empty part) stands for, once it is known to lie inside the
        folder; :class:`TrailkitError` otherwise."""
        pure = PurePosixPath(name)
        if (not name or "\\" in name or "\0" in name or pure.is_absolute()
                or any(part in ("..", "") or part.startswith(".") for part in pure.parts)):
            raise TrailkitError(f"{name!r}: a name inside the folder, without '..'")
        if pure.as_posix() != name or not name.isprintable():
            raise TrailkitError(f"{name!r} is not a file's name as the folder lists it "
                                "(no trailing '/', no './' or '//' in it)")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise TrailkitError(f"{name!r} is not a file's name (a lone surrogate in "
                                "it)") from None
        if pure.suffix.lower() not in _SUFFIXES:
            raise TrailkitError(f"{name!r}: a spec's name ends in .yaml or .yml")
        if len(name.encode("utf-8")) > MAX_NAME_BYTES or any(
                len(part.encode("utf-8")) > MAX_PART_BYTES for part in pure.parts):
            raise TrailkitError(f"{short(name)!r}: a name too long for the file system (at "
                                f"most {MAX_PART_BYTES} bytes a part, {MAX_NAME_BYTES} in "
                                "all); nothing was read or written")
        try:
            target = (self.root / pure).resolve()
        except (OSError, RuntimeError):  # a symlink loop (RuntimeError before 3.13)
            raise TrailkitError(f"{name!r} cannot be followed: a symlink loop on the way; "
                                "nothing was read or written") from None
        if not target.is_relative_to(self.root):
            raise TrailkitError(f"{name!r} leads out of the folder (a symlink?)")
        for above in target.relative_to(self.root).parents:
            if (self.root / above).exists() and not (self.root / above).is_dir():
                raise TrailkitError(f"{name!r}: {above.as_posix()} is a file, not a folder; "
                                    "nothing was read or written")
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
        return self.load(name, limit)[0]

    def load(self, name: str, limit: int) -> tuple[str, str]:
        """The text of spec ``name`` (at most ``limit`` bytes) and its :func:`version`."""
        data = _read(self.path(name), name, limit)
        if data is None:
            raise TrailkitError(f"cannot read {name}: no such file")
        try:
            return data.decode("utf-8"), version(data)
        except UnicodeDecodeError as exc:
            raise TrailkitError(f"{name} is not UTF-8 text (byte {exc.start})") from None

    def save(self, name: str, text: str, base: str | None, limit: int) -> str:
        """Replace (or write) spec ``name`` atomically with ``text``, keeping its mode and
        the replaced text as its backup; returns the new version. ``base`` is the
        version the page replaces: when the file on disk is another one (or exists
        while ``base`` is ``None``), :class:`Conflict` refuses and nothing is written."""
        path = self.path(name)
        data = text.encode("utf-8")
        current = _read(path, name, limit)
        if current is None:
            _make_folders(path, name)
            _write(path, data, None)
            return version(data)
        if base != version(current):
            raise Conflict(f"{name} was changed on disk since the page opened it: "
                           "nothing was saved; keep your text or the disk's",
                           current.decode("utf-8", errors="replace"), version(current))
        like = path.stat()
        _write(backup_path(path), current, like)
        _write(path, data, like)
        return version(data)

    def create(self, name: str, text: str) -> str:
        """Write a new spec ``name``; never over an existing file. Returns its version."""
        path = self.path(name)
        if path.exists() or path.is_symlink():
            raise TrailkitError(f"{name} already exists; open it, or choose another name")
        _make_folders(path, name)
        _write(path, text.encode("utf-8"), None)
        return version(text.encode("utf-8"))

    def base_dir(self, name: str | None) -> Path:
        """The folder a spec's side files are read from (its own folder)."""
        return self.path(name).parent if name else self.root


def _make_folders(path: Path, name: str) -> None:
    """Make the folders a new spec ``name`` goes in, or say why they cannot be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TrailkitError(f"cannot make the folder of {name}: "
                            f"{exc.strerror or exc}; nothing was written") from None


def _read(path: Path, name: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``path`` (``None``: there is none), at most
    ``limit``; a folder, FIFO or device of that name is refused without blocking."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise TrailkitError(f"cannot read {name}: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise TrailkitError(f"{name} is {kind}, not a spec file: nothing was read or written")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise TrailkitError(f"{name} is larger than {limit // 1_000_000} MB; the workshop "
                            "opens smaller specs (trailkit lint checks any size)")
    return data


def _write(path: Path, data: bytes, like: os.stat_result | None) -> None:
    """Write ``data`` to ``path`` atomically (:func:`~trailkit.solvers.support.files.
    atomic_write`: a temporary file beside it, then a rename) with the mode, owner and
    group of ``like`` (``None``: a new file, as the umask allows)."""
    try:
        atomic_write(path, data, like)
    except OSError as exc:
        raise TrailkitError(f"cannot write {path.name}: {exc.strerror or exc}") from None
