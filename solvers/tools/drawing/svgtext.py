"""A very small SVG writer: elements as text, attributes escaped, numbers short.

Plain text rather than a drawing library, measured (faster and smaller than ``drawsvg``
2.4: ``docs/benchmarks.md``), the pictures use a
dozen element kinds, the core install stays without another dependency, and the tests
read the output back with an XML parser anyway. Every attribute value and text goes through
:func:`xml.sax.saxutils` escaping, so a node named ``<b>&`` is drawn as written.

>>> el("circle", cx=1.5, cy=2, r=3, class_="node")
'<circle cx="1.5" cy="2" r="3" class="node"/>'
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["el", "fmt", "text_el", "wrap"]


def fmt(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(attrs: dict[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value == "":
            continue
        name = _NAMES.get(key) or _NAMES.setdefault(key, key.rstrip("_").replace("_", "-"))
        text = fmt(value) if isinstance(value, float) else str(value)
        if _SPECIAL.search(text):
            parts.append(f" {name}={quoteattr(text)}")
        else:  # the common case, without the escaping's cost (it is most of the time)
            parts.append(f' {name}="{text}"')
    return "".join(parts)


_NAMES: dict[str, str] = {}
_SPECIAL = re.compile('[&<>"\n\r\t]')


def el(tag: str, body: str | None = None, **attrs: Any) -> str:
    """One element; ``body`` is already SVG text (``None``: an empty element). Attribute
    names lose a trailing ``_`` (``class_``) and turn ``_`` into ``-`` (``stroke_width``);
    ``None`` and ``""`` values are left out."""
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def text_el(content: str, **attrs: Any) -> str:
    """A ``<text>`` element with ``content`` escaped."""
    return el("text", escape(content), **attrs)


def wrap(text: str, width_px: float, font_px: float) -> list[str]:
    """``text`` broken into lines of at most ``width_px`` at ``font_px`` (an average glyph
    is taken as 0.56 em, which fits DejaVu Sans and Liberation Sans)."""
    per_line = max(10, int(width_px / (0.56 * font_px)))
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > per_line:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
