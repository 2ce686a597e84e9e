"""How the spec reader's messages quote what the author wrote: a "did you mean" cut to
message size, a list of names that stops after a few, an operating system's reason.

>>> hint("bleu", ["red", "blue"]), shown(["a", "b", "c"], limit=2)
(" (did you mean 'blue'?)", 'a, b and 1 more')
"""

from __future__ import annotations

from collections.abc import Iterable

from trailkit.models.support.hints import did_you_mean

__all__ = ["SHORT", "hint", "os_reason", "shown"]

SHORT = 60
"""Names quoted in a message are cut to this many characters (see
:func:`~trailkit.models.support.hints.short`)."""


def hint(word: str, choices: Iterable[object]) -> str:
    """`` (did you mean 'x'?)`` for the choice :func:`~trailkit.models.support.hints.closest` to
    ``word``, cut short for a message, or ``""``."""
    return did_you_mean(word, choices, limit=SHORT)


def shown(names: Iterable[object], limit: int = 8) -> str:
    """``a, b, c`` or the first few names and how many more."""
    names = list(names)
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(str(n) for n in names[:limit]) + more


def os_reason(exc: Exception) -> str:
    """What the operating system said (``No such file or directory``)."""
    return str(getattr(exc, "strerror", None) or exc)
