"""SVG text to PNG bytes, through resvg (``pip install 'trailkit[draw]'``).

resvg (the Rust renderer, through the ``resvg-py`` wheel) was chosen by measurement over
CairoSVG: it ships as one self-contained wheel (about 3 MB, no system library, where
CairoSVG needs Debian's ``libcairo2`` and pulls in Pillow), and it rendered the solved
tyre puzzle in 0.05 s against CairoSVG's 0.09 s (``tests/bench/bench_draw.py``). It
reads the system's fonts; the pictures name DejaVu Sans and Liberation Sans first.

The longest side is capped at :data:`MAX_SIDE` pixels so a 10,000-node picture becomes a
large image rather than a gigabyte of pixels.
"""

from __future__ import annotations

import re

from trailkit.models.errors import BackendUnavailable

__all__ = ["MAX_SIDE", "render_png"]

#: The longest side of a PNG, in pixels.
MAX_SIDE = 6000
_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"')


def render_png(svg: str, *, scale: float = 1.5) -> bytes:
    """PNG bytes of ``svg`` at ``scale`` times its own size (capped at :data:`MAX_SIDE`),
    on a white background."""
    try:
        import resvg_py
    except ImportError:
        raise BackendUnavailable("PNG output needs resvg: pip install 'trailkit[draw]'"
                                 ) from None
    match = _SIZE.search(svg[:4000])
    width = height = None
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        zoom = min(scale, MAX_SIDE / max(w, h, 1.0))
        width, height = max(1, round(w * zoom)), max(1, round(h * zoom))
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, height=height,
                                           background="#ffffff"))
    except ValueError as exc:  # resvg's way of saying it could not render
        raise BackendUnavailable(f"resvg could not render the picture: {exc}") from None
