"""Writing outputs safely: atomically, and never over a file the user gave as input."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from trailkit.models.errors import TrailkitError

__all__ = ["atomic_write", "refuse_overwrite"]


def refuse_overwrite(out: str | Path, inputs: Iterable[str | Path], *,
                     allow_existing: bool) -> None:
    """Raise if ``out`` is one of the ``inputs``, or exists and ``allow_existing`` is false."""
    target = Path(out).resolve()
    for given in inputs:
        if Path(given).resolve() == target:
            raise TrailkitError(f"refusing to write over the input file {given}; choose "
                                "another --out")
    if target.exists() and not allow_existing:
        raise TrailkitError(f"{out} already exists; pass --force to replace it")


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename, so a crash or a full
    disk never leaves a half-written file behind."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise TrailkitError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            mask = os.umask(0)  # mkstemp makes 0600 files; give what the umask allows
            os.umask(mask)
            os.fchmod(handle.fileno(), 0o666 & ~mask)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
