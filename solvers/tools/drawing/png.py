"""SVG text to PNG bytes, through resvg (``pip install 'trailkit[draw]'``).

resvg (the Rust renderer, through the ``resvg-py`` wheel) was chosen over CairoSVG by
measuring both (``tests/bench/bench_draw.py``): they render the solved tyre picture in
about the same time (``docs/benchmarks.md``), but resvg is one self-contained
wheel of 3 MB, where CairoSVG needs Debian's ``libcairo2`` on the machine and pulls in
cairocffi, Pillow, tinycss2 and cssselect2 (9 MB). It reads the system's fonts; the
pictures name DejaVu Sans and Liberation Sans first.

A PNG is capped at :data:`MAX_PIXELS` pixels, unless that would make its step numbers
smaller than :data:`MIN_STEP_PX` pixels: then it grows as far as they need, up to
:data:`MAX_READABLE_PIXELS` (a 40-node trail's 82 steps were 8-pixel digits on a
1,984-pixel PNG); :func:`png_step_px` says how big they came out, so the command can
say how to get a bigger picture when even that is not enough. ``trailkit draw`` renders puzzles of
more than :data:`SIMPLIFY_EDGES` edges simplified (one path per colour, unlabelled
dots): the full picture of such a puzzle renders many times slower than the
simplified one (``docs/benchmarks.md``), and its SVG, which zooms, keeps every detail.
"""

from __future__ import annotations

import re

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.support.extras import pip_install
from trailkit.solvers.tools.drawing.scene import STEP_FONT

__all__ = ["MAX_PIXELS", "MAX_READABLE_PIXELS", "MIN_STEP_PX", "SIMPLIFY_EDGES",
           "png_step_px", "render_png"]

#: The most pixels a PNG gets (the scale shrinks to fit) ...
MAX_PIXELS = 4_000_000
#: ... unless its step numbers would be smaller than this many pixels on screen ...
MIN_STEP_PX = 11.0
#: ... when it grows up to this many pixels (5,000 by 5,000).
MAX_READABLE_PIXELS = 25_000_000
#: Past this many edges a PNG is drawn simplified.
SIMPLIFY_EDGES = 2_000
_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"')


def _zoom(svg: str, scale: float) -> tuple[float, float, float] | None:
    """The zoom of ``svg`` rendered at ``scale`` within the caps, with its own width and
    height (``None``: the SVG states no size)."""
    match = _SIZE.search(svg[:4000])
    if not match:
        return None
    w, h = float(match.group(1)), float(match.group(2))
    zoom = min(scale, (MAX_PIXELS / max(w * h, 1.0)) ** 0.5)
    readable = MIN_STEP_PX / STEP_FONT
    if zoom < readable:  # grow for the step numbers, as far as the larger cap allows
        zoom = min(min(scale, readable), (MAX_READABLE_PIXELS / max(w * h, 1.0)) ** 0.5)
    return zoom, w, h


def png_step_px(svg: str, *, scale: float = 1.5) -> float:
    """How many pixels high a step number of ``svg`` is on its PNG."""
    zoomed = _zoom(svg, scale)
    return STEP_FONT * (zoomed[0] if zoomed else 1.0)


def render_png(svg: str, *, scale: float = 1.5) -> bytes:
    """PNG bytes of ``svg`` at ``scale`` times its own size (shrunk to at most
    :data:`MAX_PIXELS` pixels, or :data:`MAX_READABLE_PIXELS` where its step numbers
    need them), on a white background."""
    try:
        import resvg_py
    except ImportError:
        raise BackendUnavailable(f"PNG output needs resvg: {pip_install('trailkit[draw]')}"
                                 ) from None
    zoomed = _zoom(svg, scale)
    width = height = None
    if zoomed is not None:
        zoom, w, h = zoomed
        width, height = max(1, round(w * zoom)), max(1, round(h * zoom))
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, height=height,
                                           background="#ffffff"))
    except ValueError as exc:  # resvg's way of saying it could not render
        raise BackendUnavailable(f"resvg could not render the picture: {exc}") from None
