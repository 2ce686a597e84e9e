"""SVG text to PNG bytes, through resvg (``pip install 'trailkit[draw]'``).

resvg (the Rust renderer, through the ``resvg-py`` wheel) was chosen over CairoSVG by
measuring both (``tests/bench/bench_draw.py``): they render the solved tyre picture in
about the same time (``docs/benchmarks.md``), but resvg is one self-contained
wheel of 3 MB, where CairoSVG needs Debian's ``libcairo2`` on the machine and pulls in
cairocffi, Pillow, tinycss2 and cssselect2 (9 MB). It reads the system's fonts; the
pictures name DejaVu Sans and Liberation Sans first.

A PNG is capped at :data:`MAX_PIXELS` pixels, and ``trailkit draw`` renders puzzles of
more than :data:`SIMPLIFY_EDGES` edges simplified (one path per colour, unlabelled
dots): the full picture of such a puzzle renders many times slower than the
simplified one (``docs/benchmarks.md``), and its SVG, which zooms, keeps every detail.
"""

from __future__ import annotations

import re

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.support.extras import pip_install

__all__ = ["MAX_PIXELS", "SIMPLIFY_EDGES", "render_png"]

#: The most pixels a PNG gets (the scale shrinks to fit).
MAX_PIXELS = 4_000_000
#: Past this many edges a PNG is drawn simplified.
SIMPLIFY_EDGES = 2_000
_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"')


def render_png(svg: str, *, scale: float = 1.5) -> bytes:
    """PNG bytes of ``svg`` at ``scale`` times its own size (shrunk to at most
    :data:`MAX_PIXELS` pixels), on a white background."""
    try:
        import resvg_py
    except ImportError:
        raise BackendUnavailable(f"PNG output needs resvg: {pip_install('trailkit[draw]')}"
                                 ) from None
    match = _SIZE.search(svg[:4000])
    width = height = None
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        zoom = min(scale, (MAX_PIXELS / max(w * h, 1.0)) ** 0.5)
        width, height = max(1, round(w * zoom)), max(1, round(h * zoom))
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, height=height,
                                           background="#ffffff"))
    except ValueError as exc:  # resvg's way of saying it could not render
        raise BackendUnavailable(f"resvg could not render the picture: {exc}") from None
