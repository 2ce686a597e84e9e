"""The browser the page tests drive: Debian's chromium (or another Chromium) headless."""

from __future__ import annotations

import shutil

__all__ = ["CHROMIUM_ARGS", "find_chromium"]

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def find_chromium() -> str | None:
    """The path of an installed Chromium, or ``None``."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None
