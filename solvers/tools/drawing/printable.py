"""A printable page: the puzzle (and, with its walk, a second page) as a vector PDF.

``trailkit draw --out FILE.pdf [--paper a4|letter]`` prints the puzzle alone on the
first page, for a sign or a worksheet: its nodes and edges, start and goal, and the
rules in words (:func:`rules_in_words`), no answer; with ``--solve`` a second page shows
the walk, on a sheet turned the way the picture fills best, and in up to four parts
when its step numbers would otherwise print under 9 pt (:func:`printed_pages`). Each
page is an SVG the size of the paper (:func:`page_svg`) holding the
picture scaled to fit, rendered by CairoSVG into one PDF (``pip install
'trailkit[pdf]'``, with the system's cairo library), so the lines stay vectors and
cairo embeds the fonts it uses. The pictures stay readable in greyscale: every colour
also has its dash pattern and its letter in the legend.

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nclosed: true\\nedges: [a b, b c, c a]\\n")
>>> rules_in_words(p)[:2]
['Walk along every edge exactly once.', 'End where you started.']
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from trailkit.models.errors import BackendUnavailable
from trailkit.models.puzzle import EdgeUse, NodeVisit, Objective, Puzzle
from trailkit.models.support.words import in_puzzle_words, listing, ordinal
from trailkit.solvers.support.extras import pip_install
from trailkit.solvers.tools.drawing.frame import FONT, INK
from trailkit.solvers.tools.drawing.scene import STEP_FONT
from trailkit.solvers.tools.drawing.svgtext import el, fmt, text_el, wrap

__all__ = ["MIN_STEP_PT", "PAPER", "page_svg", "printed_pages", "render_pdf",
           "rules_in_words"]

#: Paper sizes in CSS pixels (96 per inch): A4 is 210 x 297 mm, Letter 8.5 x 11 in.
PAPER = {"a4": (793.7, 1122.5), "letter": (816.0, 1056.0)}
_MARGIN = 54.0  # three quarters of an inch
#: The smallest a step number is printed (points); a picture that would print it
#: smaller is printed in parts (:func:`printed_pages`).
MIN_STEP_PT = 9.0
_PT_PER_PX = 0.75
#: How far (picture pixels) the parts of a picture printed in parts overlap.
_OVERLAP = 24.0
_VIEW_BOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"')


def rules_in_words(puzzle: Puzzle) -> list[str]:
    """The puzzle's rules as sentences a person can follow without trailkit."""
    p = puzzle
    if p.kind == "domino-chain":
        shape = "a ring" if p.closed else "one line"
        return [f"Lay all the dominoes in {shape}, end to end, so that touching halves "
                "show the same number."]
    names = p.nodes
    out = [] if p.visit is not NodeVisit.ANY and p.use is EdgeUse.AT_MOST_ONCE else [
        {EdgeUse.EXACTLY_ONCE: "Walk along every edge exactly once.",
         EdgeUse.AT_MOST_ONCE: "Walk along each edge at most once.",
         EdgeUse.ANY: "Every edge may be walked along again, as often as you like."
         }[p.use]]
    out += _node_rules_in_words(p)
    if p.start is not None:
        out.append(f"Start at {_either(names[v] for v in sorted(p.start))}.")
    if p.closed:
        out.append("End where you started.")
    elif p.end is not None:
        out.append(f"End at {_either(names[v] for v in sorted(p.end))}.")
    if p.any_directed:
        out.append("A one-way edge (with an arrow) is walked only the way it points.")
    if p.colours is not None:
        out.append(f"The colours of the steps follow the order {p.colours.describe()}"
                   + (", also from the last step round to the first" if p.closed else "")
                   + ".")
    if p.first is not None and p.colour_names:
        first = [p.colour_names[c] for c in sorted(p.first)]
        out.append(f"The first step is {_either(first)}.")
    if p.objective is Objective.SHORTEST:
        out.append("Find the shortest such walk.")
    elif p.objective is Objective.LONGEST:
        out.append("Use as many edges as you can.")
    return [in_puzzle_words(p, line) for line in out]


#: How a board's moves are said: "Visit every cell exactly once, by knight's moves."
_MOVES = {"knight": "knight's moves", "king": "king's moves",
          "orthogonal": "steps to a side", "diagonal": "diagonal steps"}


def _node_rules_in_words(p: Puzzle) -> list[str]:
    """The node rules (``visit``, ``via``, ``avoid``, ``at``) as sentences; a board's
    nodes are its cells."""
    board = p.meta.get("board")
    noun = "cell" if isinstance(board, dict) else "node"
    moves = _MOVES.get(str(board.get("moves"))) if isinstance(board, dict) else None
    by = f", by {moves}" if moves else ""
    names = p.nodes
    out = []
    if p.visit is NodeVisit.EVERY_ONCE:
        out.append(f"Visit every {noun} exactly once{by}.")
    elif p.visit is NodeVisit.AT_MOST_ONCE:
        out.append(f"Visit no {noun} twice{by}.")
    if p.via:
        out.append(f"Pass through {listing([names[v] for v in sorted(p.via)])}.")
    if p.avoid:
        out.append(f"Never enter {listing([names[v] for v in sorted(p.avoid)])}.")
    if p.at:
        given = [f"{names[v]} is the {ordinal(k)}" for v, k in sorted(p.at.items(),
                                                                     key=lambda vk: vk[1])]
        out.append(f"Given positions (the start is the 1st): {listing(given)}.")
    return out


def _either(words: object) -> str:
    items = list(words)  # type: ignore[call-overload]  # any iterable of names
    return items[0] if len(items) == 1 else "any of " + listing(items, "or")


def page_svg(picture: str, paper: str | tuple[float, float], *, heading: str = "",
             lines: Sequence[str] = (), region: tuple[float, float, float, float] | None = None
             ) -> str:
    """One page of ``paper`` (a name of :data:`PAPER`, or a width and height): ``picture``
    (an SVG document with a ``viewBox``; only its ``region``, x, y, width and height,
    when given) scaled to fit between the margins, then ``heading`` and ``lines`` of
    text below."""
    width, height = PAPER[paper] if isinstance(paper, str) else paper
    inner = width - 2 * _MARGIN
    text: list[str] = []
    y = 0.0
    if heading:
        text.append(text_el(heading, x=_MARGIN, y=y + 18, font_size="16", font_weight="bold",
                            fill=INK))
        y += 28
    for line in lines:
        for part in wrap(line, inner, 13):
            text.append(text_el(part, x=_MARGIN, y=y + 14, font_size="13", fill=INK))
            y += 19
        y += 4
    room = height - 2 * _MARGIN - y - (12 if y else 0)
    body = re.sub(r"^<\?xml[^>]*\?>\s*", "", picture)
    if region is not None:
        body = _VIEW_BOX.sub(f'viewBox="{" ".join(fmt(v) for v in region)}"', body, count=1)
    body = re.sub(r'(<svg\b[^>]*?)\swidth="[^"]*"\sheight="[^"]*"',
                  rf'\1 x="{fmt(_MARGIN)}" y="{fmt(_MARGIN)}" width="{fmt(inner)}" '
                  rf'height="{fmt(room)}" preserveAspectRatio="xMidYMin meet"', body, count=1)
    box = _VIEW_BOX.search(body[:2000])
    fitted = min(room, inner * float(box.group(4)) / float(box.group(3))) if box else room
    top = _MARGIN + fitted + 12  # the text right under the picture
    shifted = el("g", "".join(text), transform=f"translate(0,{fmt(top)})")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + el("svg", el("rect", x=0, y=0, width=fmt(width), height=fmt(height),
                           fill="#FFFFFF") + body + shifted,
                 xmlns="http://www.w3.org/2000/svg", width=fmt(width), height=fmt(height),
                 viewBox=f"0 0 {fmt(width)} {fmt(height)}", font_family=FONT))


def _room(size: tuple[float, float], text_lines: int) -> tuple[float, float]:
    """The width and height a picture may take on a page of ``size`` that also holds
    about ``text_lines`` lines of text under it."""
    return size[0] - 2 * _MARGIN, size[1] - 2 * _MARGIN - 12 - 23 * text_lines


def _fit(box: tuple[float, float, float, float], room: tuple[float, float]) -> float:
    return min(room[0] / box[2], room[1] / box[3])


def printed_pages(picture: str, paper: str, *, heading: str = "",
                  lines: Sequence[str] = ()) -> list[str]:
    """The pages that print ``picture`` on ``paper``: the sheet turned the way the
    picture fills best; a picture with step numbers that would print smaller than
    :data:`MIN_STEP_PT` points is cut into up to four parts, each on its own page at a
    size where they are not; one too big even for that is printed whole, saying how big
    its numbers are and what zooms."""
    match = _VIEW_BOX.search(picture[:4000])
    portrait = PAPER[paper]
    sizes = [portrait, (portrait[1], portrait[0])]
    if match is None:
        return [page_svg(picture, paper, heading=heading, lines=lines)]
    box = tuple(float(match.group(k)) for k in range(1, 5))
    assert len(box) == 4
    text = 2 * bool(heading) + sum(len(line) // 80 + 1 for line in lines)
    size = max(sizes, key=lambda s: _fit(box, _room(s, text)))
    pt = _fit(box, _room(size, text)) * STEP_FONT * _PT_PER_PX
    if 'class="step"' not in picture or pt >= MIN_STEP_PT:
        return [page_svg(picture, size, heading=heading, lines=lines)]
    need = MIN_STEP_PT / (STEP_FONT * _PT_PER_PX)  # the picture's scale on paper
    for cols, rows in ((1, 2), (2, 1), (2, 2)):
        for turned in sizes:
            w, h = _room(turned, 2 + len(lines))
            if cols * w / need >= box[2] and rows * h / need >= box[3]:
                return _parts(picture, turned, box, (cols, rows), heading, lines)
    words = (f"The step numbers are {pt:.1f} pt on this page: the SVG (--out FILE.svg) or "
             "the HTML page (--out FILE.html) zooms to any size.")
    return [page_svg(picture, size, heading=heading, lines=[*lines, words])]


def _parts(picture: str, size: tuple[float, float], box: tuple[float, float, float, float],
           grid: tuple[int, int], heading: str, lines: Sequence[str]) -> list[str]:
    """``picture`` cut into ``grid`` (columns, rows) equal parts, a page each, each part
    overlapping its neighbours a little so no badge is cut in two unseen."""
    cols, rows = grid
    x, y, w, h = box
    pw, ph = w / cols, h / rows
    pages = []
    for r in range(rows):
        for c in range(cols):
            k = r * cols + c + 1
            region = (x + c * pw - _OVERLAP * (c > 0), y + r * ph - _OVERLAP * (r > 0),
                      pw + _OVERLAP * ((c > 0) + (c < cols - 1)),
                      ph + _OVERLAP * ((r > 0) + (r < rows - 1)))
            where = f"row {r + 1}, column {c + 1}" if rows > 1 and cols > 1 else (
                "top" if r == 0 and rows > 1 else "bottom" if rows > 1 else
                "left" if c == 0 else "right")
            pages.append(page_svg(picture, size, region=region, heading=heading, lines=[
                f"Part {k} of {cols * rows} ({where}): printed in parts so every step "
                f"number is at least {MIN_STEP_PT:g} pt.", *lines]))
    return pages


def render_pdf(pages: Sequence[str]) -> bytes:
    """One PDF of the page SVGs (each the size of its paper), in order: vectors, the
    fonts embedded by cairo."""
    try:
        import cairocffi
        from cairosvg.parser import Tree
        from cairosvg.surface import PDFSurface
    except ImportError:
        raise BackendUnavailable("PDF output needs CairoSVG, the optional extra 'pdf': "
                                 f"{pip_install('trailkit[pdf]')}") from None
    except OSError as exc:  # CairoSVG is there, the cairo library it loads is not
        raise BackendUnavailable(f"PDF output needs the system's cairo library ({exc}); "
                                 "on Debian or Ubuntu: apt install libcairo2") from None
    out = io.BytesIO()
    first = re.search(r'width="([\d.]+)" height="([\d.]+)"', pages[0])
    w, h = (float(first.group(1)), float(first.group(2))) if first else PAPER["a4"]
    shared = cairocffi.PDFSurface(out, w * 0.75, h * 0.75)  # CSS pixels to points

    class _Page(PDFSurface):  # CairoSVG's class (untyped)
        """CairoSVG's PDF surface drawing into the one shared document."""

        def _create_surface(self, width: float, height: float) -> tuple[object, float,
                                                                        float]:
            return shared, width, height

    for svg in pages:
        size = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
        if size:  # a page turned sideways is a landscape sheet
            shared.set_size(float(size.group(1)) * 0.75, float(size.group(2)) * 0.75)
        _Page(Tree(bytestring=svg.encode("utf-8")), None, 96)
        shared.show_page()
    shared.finish()
    return out.getvalue()
