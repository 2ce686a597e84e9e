"""The installed trailkit version, for ``--version`` and certificate files."""

from __future__ import annotations

import functools

__all__ = ["trailkit_version"]


@functools.cache
def trailkit_version() -> str:
    """The version pip installed (importlib.metadata is imported here, when a version is
    asked for: it takes longer to import than solving a small puzzle), looked up once: a
    lookup reads the installed packages' metadata, milliseconds for each certificate."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trailkit")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"
