"""The installed trailkit version, for ``--version`` and certificate files."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["trailkit_version"]


def trailkit_version() -> str:
    try:
        return version("trailkit")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"
