"""Small helpers for the sentences trailkit writes: counts with their nouns, lists of
names. Every layer's messages use these, so "1 steps" or a list that trails off into
"and 2 others" cannot come back in one place while fixed in another.

>>> plural(1, "step"), plural(1_024, "place"), ordinal(2), ordinal(13)
('1 step', '1,024 places', '2nd', '13th')
>>> number(10 ** 40 + 7), number(19 * 10 ** 299, at_least=True)
('about 1.00 × 10^40 (41 digits)', '1.90 × 10^300 (301 digits)')
>>> listing(["a"]), listing(["a", "b"]), listing(["a", "b", "c"])
('a', 'a and b', 'a, b and c')
>>> listing([str(i) for i in range(20)])
'0, 1, 2, 3, 4, 5, 6, 7, ... (20 in all)'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trailkit.models.puzzle import Puzzle

__all__ = ["in_puzzle_words", "listing", "number", "ordinal", "plural"]

#: Lists up to this long are spelt out whole; longer ones show their first names.
SPELT_OUT = 12
#: How many names a long list shows before its total.
SHOWN = 8


#: Numbers up to this many digits are written out whole, their digits grouped.
WRITTEN_DIGITS = 21


def number(n: int, *, at_least: bool = False) -> str:
    """``1,024``: a whole number with its digits grouped; one of more than
    :data:`WRITTEN_DIGITS` digits (a count of K41's walks has 300) as ``about 1.23 ×
    10^299 (300 digits)``. With ``at_least`` (the caller says "at least") the digits are
    cut, never rounded up, and there is no "about": a lower bound stays one. The exact
    value is the JSON's."""
    digits = str(abs(n))
    if len(digits) <= WRITTEN_DIGITS:
        return f"{n:,}"
    lead = digits[:3]
    if not at_least and int(digits[3]) >= 5:
        lead = str(int(lead) + 1)  # 999.5 rounds to 1000: one more digit in front
    power = len(digits) - 1 + (len(lead) - 3)
    shown = f"{'-' * (n < 0)}{lead[0]}.{lead[1:3]} × 10^{power} ({len(digits)} digits)"
    return shown if at_least else "about " + shown


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 step``, ``2 steps``, ``1,024 steps``: a count with its noun, every digit
    written (a checker's message compares numbers that may differ in the last digit;
    :func:`number` is for a count shown to a reader, where 300 digits say nothing)."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def seconds(t: float | None) -> str:
    """A time as people read it: three significant figures, never an exponent (a time
    limit that is ``None`` is none).

    >>> seconds(29.91602856), seconds(60.0), seconds(0.5), seconds(1234.5), seconds(None)
    ('29.9 s', '60 s', '0.5 s', '1234 s', 'none')
    """
    if t is None:
        return "none"
    return f"{t:.3g} s" if t < 1000 else f"{t:.0f} s"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def listing(names: Sequence[str], conjunction: str = "and") -> str:
    """Names joined as a sentence reads them (``a, b and c``); a list of more than
    ``SPELT_OUT`` names shows its first ``SHOWN`` and says how many there are."""
    if not names:
        return ""
    if len(names) > SPELT_OUT:
        return f"{', '.join(names[:SHOWN])}, ... ({len(names):,} in all)"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


_WORDS = {
    "domino-chain": {"nodes": "pips", "Nodes": "Pips", "node": "pip", "Node": "Pip",
                     "edges": "dominoes", "Edges": "Dominoes", "edge": "domino",
                     "Edge": "Domino", "a loop": "a double", "walk": "chain"},
    "colour-walk": {"edges": "planks", "Edges": "Planks", "edge": "plank", "Edge": "Plank"},
}


def in_puzzle_words(puzzle: Puzzle, text: str) -> str:
    """Say ``text`` in the puzzle's own words: dominoes and pips, planks, ..."""
    words = _WORDS.get(puzzle.kind)
    if not words:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in
                                           sorted(words, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: words[m.group(1)], text)
