"""Writing outputs safely: atomically, and never over a file the user gave as input.

Every command's ``--out`` and the workshop's *save* (:mod:`trailkit.solvers.workshop`)
write through here, so both follow one rule: a crash or a full disk never leaves a
half-written file, and nothing existing is replaced unless the caller allows it.
"""

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


def atomic_write(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` via a temporary file and a
    rename, so a crash or a full disk never leaves a half-written file behind. The file
    gets the permissions the umask allows (0644 under umask 022), not the temporary
    file's private 0600."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise TrailkitError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        data = content.encode("utf-8") if isinstance(content, str) else content
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process umask (read without changing it where Linux allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
