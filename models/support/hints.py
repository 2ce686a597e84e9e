""""Did you mean ...?": the one way trailkit suggests the name a typo was meant to be.

>>> did_you_mean("bleu", ["red", "blue", "green"])
" (did you mean 'blue'?)"
>>> did_you_mean("t", ["S", "T"])
" (did you mean 'T'?)"
>>> did_you_mean("zzz", ["red"])
''
>>> did_you_mean("a" * 70, ["b" + "a" * 69], limit=12)
" (did you mean 'baaaaaaaa...'?)"
>>> one_edit_away("gren", ["red", "green"]), one_edit_away("yellow", ["red", "green"])
('green', None)
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable

__all__ = ["MAX_COMPARED", "MAX_SCANNED", "MAX_WORD", "closest", "did_you_mean",
           "one_edit_away", "short"]


MAX_WORD = 100
"""A word longer than this gets no hint (a pasted paragraph is no typo, and comparing
long strings costs the square of their length)."""
MAX_SCANNED = 5_000
"""At most this many choices (the first given) are looked at for one hint."""
MAX_COMPARED = 500
"""Up to this many choices, the nearest by spelling is found (difflib); among more, only
a choice that differs but for case or by one edit is offered, found in one cheap pass.
So one hint costs a bounded time however big the spec (what an unbounded one cost:
``docs/benchmarks.md``)."""


def closest(word: str, choices: Iterable[object]) -> str | None:
    """The choice ``word`` most likely meant: the same but for case, else the nearest
    by spelling (difflib's ratio of at least 0.6; among more than :data:`MAX_COMPARED`
    choices, one edit away), else ``None``. Bounded: a word over :data:`MAX_WORD`
    characters gets none, and only the first :data:`MAX_SCANNED` choices are seen."""
    word = str(word)
    if len(word) > MAX_WORD:
        return None
    names = [str(c) for c in itertools.islice(choices, MAX_SCANNED)]
    lowered = word.lower()
    for name in names:
        if name.lower() == lowered and name != word:
            return name
    if len(names) > MAX_COMPARED:
        return one_edit_away(word, names)
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[object], limit: int | None = None) -> str:
    """``" (did you mean 'x'?)"``, or ``""`` when nothing is close; with ``limit`` the
    match is cut to that many characters (:func:`short`), as the spec reader's messages
    cut every name they quote."""
    match = closest(word, choices)
    if not match:
        return ""
    return f" (did you mean {short(match, limit) if limit else match!r}?)"


def short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message (a pasted megabyte stays out).

    >>> short("abc"), short("x" * 70, 10)
    ('abc', 'xxxxxxx...')
    """
    return text if len(text) <= limit else f"{text[:limit - 3]}..."


def one_edit_away(word: str, choices: Iterable[object]) -> str | None:
    """A choice that ``word`` turns into by one edit (a letter inserted, deleted, changed,
    or two neighbours swapped; case ignored), or ``None``: so close that ``word`` is
    surely a typo of it (``gren`` beside ``green``). Words under three letters are
    never typos of each other (``r`` and ``g`` are one edit apart, and both colours)."""
    w = str(word).lower()
    if len(w) > MAX_WORD:
        return None
    for choice in itertools.islice(choices, MAX_SCANNED):
        c = str(choice).lower()
        if c != w and min(len(c), len(w)) >= 3 and _one_edit(w, c):
            return str(choice)
    return None


def _one_edit(a: str, b: str) -> bool:
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):  # a change, or a swap of neighbours
        return a[i + 1:] == b[i + 1:] or (a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1])
    return a[i:] == b[i + 1:]  # b has one letter more
