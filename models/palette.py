"""How edge colours are painted: a colour-blind-safe tint, a dash pattern and a letter.

Puzzle colours are names the author wrote (``red``, ``blue``, ``green`` ...). Painting
them in the plain CSS colours makes red and green look alike to about one reader in
twelve, so the common names map to the Okabe–Ito palette (designed to stay apart under
every common colour-vision deficiency) and every colour also gets its own dash pattern
and letter, so the picture reads even in greyscale. The legend names each colour.

These are facts about a puzzle's colours, shared by the drawings, the exports
(:mod:`trailkit.solvers.tools.interchange` paints DOT and GraphML edges with them) and the
workshop page, so they live below all of them.

>>> paint = palette(["red", "blue", "green"])
>>> paint["red"].hex, paint["red"].dash, paint["blue"].dash, paint["green"].letter
('#D55E00', '', '3 1.6', 'G')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["NO_COLOUR", "Paint", "palette"]

#: Okabe–Ito tints for the colour names puzzle authors use.
_NAMED = {
    "red": "#D55E00", "vermillion": "#D55E00", "blue": "#0072B2", "green": "#009E73",
    "yellow": "#E8C800", "orange": "#E69F00", "purple": "#CC79A7", "pink": "#CC79A7",
    "magenta": "#CC79A7", "violet": "#CC79A7", "cyan": "#56B4E9", "sky": "#56B4E9",
    "skyblue": "#56B4E9", "lightblue": "#56B4E9", "black": "#222222", "grey": "#8C8C8C",
    "gray": "#8C8C8C", "brown": "#8B5A2B", "white": "#F4F4F4",
}
#: Tints for names the table does not know, in order of use.
_SPARE = ("#E69F00", "#56B4E9", "#CC79A7", "#0072B2", "#D55E00", "#009E73", "#E8C800",
          "#222222")
#: Dash patterns in multiples of the stroke width ("" is a solid line), by colour position.
_DASHES = ("", "3 1.6", "0.01 1.9", "3 1.2 0.01 1.2", "1.4 1.4", "5 1.2 1.4 1.2")
_HEX = re.compile(r"#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?")


@dataclass(frozen=True, slots=True)
class Paint:
    """How one edge colour is drawn: ``hex`` tint, ``dash`` (in stroke widths, "" solid),
    ``letter`` for places too small for a pattern, and the ``name`` the legend shows."""

    name: str
    hex: str
    dash: str
    letter: str

    def dasharray(self, width: float) -> str:
        """The SVG ``stroke-dasharray`` for a line ``width`` pixels wide ("" for solid)."""
        if not self.dash:
            return ""
        return " ".join(f"{float(x) * width:.4g}" for x in self.dash.split())


#: How an uncoloured edge is drawn.
NO_COLOUR = Paint("", "#8A8A8A", "", "")


def palette(names: Sequence[str]) -> dict[str, Paint]:
    """A :class:`Paint` for every colour name, in the order given (the order sets the dash
    patterns, so the first colour of a rule is solid)."""
    out: dict[str, Paint] = {}
    spare = iter(_SPARE)
    used_letters: set[str] = set()
    for i, name in enumerate(names):
        key = name.lower().replace(" ", "").replace("-", "")
        tint = _NAMED.get(key) or (name if _HEX.fullmatch(name) else next(spare, "#666666"))
        out[name] = Paint(name, tint, _DASHES[i % len(_DASHES)], _letter(name, used_letters))
    return out


def _letter(name: str, used: set[str]) -> str:
    """The shortest upper-case prefix of ``name`` that no earlier colour took."""
    text = name.strip() or "?"
    for size in range(1, len(text) + 1):
        candidate = text[:size].upper()
        if candidate not in used:
            used.add(candidate)
            return candidate
    return text.upper()
