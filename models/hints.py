""""Did you mean ...?": the one way trailkit suggests the name a typo was meant to be.

>>> did_you_mean("bleu", ["red", "blue", "green"])
" (did you mean 'blue'?)"
>>> did_you_mean("t", ["S", "T"])
" (did you mean 'T'?)"
>>> did_you_mean("zzz", ["red"])
''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]


def closest(word: str, choices: Iterable[object]) -> str | None:
    """The choice ``word`` most likely meant: the same but for case, else the nearest
    by spelling (difflib's ratio of at least 0.6), else ``None``."""
    names = [str(c) for c in choices]
    for name in names:
        if name.lower() == str(word).lower() and name != word:
            return name
    close = difflib.get_close_matches(str(word), names, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[object]) -> str:
    """``" (did you mean 'x'?)"``, or ``""`` when nothing is close."""
    match = closest(word, choices)
    return f" (did you mean {match!r}?)" if match else ""
