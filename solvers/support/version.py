"""The installed trailkit version, for ``--version`` and certificate files."""

from __future__ import annotations

__all__ = ["trailkit_version"]


def trailkit_version() -> str:
    """The version pip installed (importlib.metadata is imported here, when a version is
    asked for: it takes longer to import than solving a small puzzle)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trailkit")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"
