"""A picture checker: trailkit's own SVG read back with ``xml.etree`` and checked by its
geometry, not its pixels (issue 33).

The picture marks its parts (docs/drawing.md, "Reading a picture back"): edge groups
``data-edge`` (with ``data-from``/``data-to``), nodes ``data-node``, walk steps
``data-step``, tags ``data-tag``, repair marks ``data-change``, callouts ``data-for``.
:func:`check_svg` turns every drawn element into a shape (a disc, a box, a polygon, a
thick polyline) in drawing order and returns the violations of five rules:

- ``mark-off-edge``: a change mark not drawn along the edge it names (same ``data-edge``,
  same path), or not on the edge the answer names;
- ``badge-hidden``: a step badge that overlaps another badge, a node, a tag, an
  arrowhead, a label or a certificate mark, or that something drawn after it covers;
- ``edge-through-node``: an edge whose line passes through a node that is not one of
  its ends;
- ``label-overlap``: a tag, callout, legend item, title or note line on a node, a badge,
  an arrowhead, a mark or another label (the legend, title and notes also off the
  figure); a start or goal tag also on no step's line (issue 41: K7's "start & end"),
  except beside a hub of more than :data:`HUB_STEPS` step lines, where every spot is;
- ``step-order``: steps not numbered 1..n once each with one badge, or a step not on its
  own edge, not between the walk's nodes, or pointing against the way it was walked;
- ``arrow-direction``: a one-way edge's arrowhead not pointing at the edge's head (its
  ``data-to``) along the edge's own line (issue 41);
- ``board-cells`` (a puzzle on a ``board:``, issue 43): a cell not in its square (its
  column and row read from its chess name, ``a1`` bottom left), drawn twice, or of the
  wrong shade (light and dark alternate; a hole exactly where the puzzle avoids a cell);
- ``board-positions``: a position not written in the cell the walk holds it in, a
  number missing or written twice, a given not in bold or a number in bold that is no
  given, a number out of its cell; a move's line not running from its cell's centre to
  the next one's, or through a third cell's number;
- ``board-marks`` (``draw --inspect`` of a board): a critical move's band not running
  from its cell's centre to the next one's, or not on one of the walk's moves; an
  essential given's ring not round its cell's centre or round a cell with no given; a
  given drawn essential, redundant or undecided that the inspection did not say so
  (``Expect.verdicts``), or a redundant one not written pale;
- ``signpost-direction`` (a board cell whose out-edges are all one-way along one ray, as
  in Tatham's Signpost, issue 44): its arrow missing, drawn twice or outside its cell, or
  not pointing along that ray (the tip read from the outline's first corner, the tail
  between its fourth and fifth); an arrow in a cell with no such ray.

:func:`corpus` yields the pictures of issue 33's corpus (bundled specs in every mode,
complete graphs, generated puzzles, multigraphs); the test ``test_pictures.py`` and the
benchmark ``tests/bench/bench_pictures.py`` run the checker over it.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
RULES = ("mark-off-edge", "badge-hidden", "edge-through-node", "label-overlap", "step-order",
         "arrow-direction", "board-cells", "board-positions", "board-marks",
         "signpost-direction")
Pt = tuple[float, float]


# ------------------------------------------------------------------ shapes
@dataclass
class Shape:
    """One drawn thing: ``kind`` says what it is (node, badge, arrow, tag, callout, mark,
    line, plank, legend, text), ``owner`` the step or node it belongs to, ``order`` its
    place in drawing order; geometry is a disc (``centre``, ``r``), a box, or a polyline
    ``points`` of stroke ``width`` (closed: a filled polygon)."""

    kind: str
    owner: str
    order: int
    centre: Pt | None = None
    r: float = 0.0
    box: tuple[float, float, float, float] | None = None
    points: list[Pt] = field(default_factory=list)
    width: float = 0.0
    closed: bool = False


def _num(text: str | None) -> float:
    return float(text or 0)


def path_points(d: str, pieces: int = 12) -> list[Pt]:
    """The points of an SVG path with M, L, Q, Z (quadratics sampled in ``pieces``)."""
    tokens = re.findall(r"[MLQZHVmlqzhv]|-?[\d.]+(?:e-?\d+)?", d)
    out: list[Pt] = []
    cmd, i = "M", 0
    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            cmd, i = t, i + 1
            if cmd in "Zz" and out:
                out.append(out[0])
            continue
        if cmd in "ML":
            out.append((float(tokens[i]), float(tokens[i + 1])))
            i += 2
            cmd = "L"
        elif cmd == "Q":
            a = out[-1]
            c = (float(tokens[i]), float(tokens[i + 1]))
            b = (float(tokens[i + 2]), float(tokens[i + 3]))
            for k in range(1, pieces + 1):
                s = k / pieces
                out.append(((1 - s) ** 2 * a[0] + 2 * (1 - s) * s * c[0] + s * s * b[0],
                            (1 - s) ** 2 * a[1] + 2 * (1 - s) * s * c[1] + s * s * b[1]))
            i += 4
        elif cmd == "h":
            out.append((out[-1][0] + float(t), out[-1][1]))
            i += 1
        else:
            i += 1
    return out


def seg_dist(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    f = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - f * dx, p[1] - a[1] - f * dy)


def poly_dist(p: Pt, pts: Sequence[Pt]) -> float:
    if len(pts) == 1:
        return math.hypot(p[0] - pts[0][0], p[1] - pts[0][1])
    return min((seg_dist(p, a, b) for a, b in itertools.pairwise(pts)),
               default=math.inf)


def _inside(p: Pt, poly: Sequence[Pt]) -> bool:
    hit = False
    for (x0, y0), (x1, y1) in itertools.pairwise(poly):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _box_dist(p: Pt, box: tuple[float, float, float, float]) -> float:
    x0, y0, x1, y1 = box
    return math.hypot(p[0] - min(max(p[0], x0), x1), p[1] - min(max(p[1], y0), y1))


def _box_poly(box: tuple[float, float, float, float]) -> list[Pt]:
    x0, y0, x1, y1 = box
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


def _segs_cross(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    def side(p: Pt, q: Pt, r: Pt) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (side(a, b, c) * side(a, b, d) < 0) and (side(c, d, a) * side(c, d, b) < 0)


def _as_poly(s: Shape) -> tuple[list[Pt], float, bool]:
    """A shape as (points, half width, filled)."""
    if s.box is not None:
        return _box_poly(s.box), 0.0, True
    if s.centre is not None:
        return [s.centre], s.r, True
    return s.points, s.width / 2, s.closed


def _bounds_gap(pa: Sequence[Pt], pb: Sequence[Pt]) -> float:
    """The distance between the bounding boxes of two point lists (0 where they meet):
    no point or segment of one is nearer than that to the other, and none crosses it."""
    ax, ay = [p[0] for p in pa], [p[1] for p in pa]
    bx, by = [p[0] for p in pb], [p[1] for p in pb]
    dx = max(0.0, min(bx) - max(ax), min(ax) - max(bx))
    dy = max(0.0, min(by) - max(ay), min(ay) - max(by))
    return math.hypot(dx, dy)


def overlap(a: Shape, b: Shape, slack: float = 0.5) -> bool:
    """Whether two shapes share area (more than ``slack`` pixels deep). Shapes whose
    bounding boxes lie apart by at least their reach are settled at once (every test
    below compares a distance no smaller than that gap, or needs the boxes to meet)."""
    pa, wa, fa = _as_poly(a)
    pb, wb, fb = _as_poly(b)
    reach = wa + wb - slack
    gap = _bounds_gap(pa, pb) if pa and pb else 0.0
    if gap > 0 and gap >= reach:
        return False
    if len(pa) == 1 and len(pb) == 1:
        return math.dist(pa[0], pb[0]) < reach
    if fa and len(pa) > 2 and any(_inside(p, pa) for p in pb):
        return True
    if fb and len(pb) > 2 and any(_inside(p, pb) for p in pa):
        return True
    if len(pa) == 1:
        return poly_dist(pa[0], pb) < reach
    if len(pb) == 1:
        return poly_dist(pb[0], pa) < reach
    if reach <= 0:
        return any(_segs_cross(a0, a1, b0, b1) for a0, a1 in itertools.pairwise(pa)
                   for b0, b1 in itertools.pairwise(pb))
    return (any(poly_dist(p, pb) < reach for p in pa)
            or any(poly_dist(p, pa) < reach for p in pb)
            or any(_segs_cross(a0, a1, b0, b1) for a0, a1 in itertools.pairwise(pa)
                   for b0, b1 in itertools.pairwise(pb)))


# ------------------------------------------------------------------ reading
def _classes(e: ET.Element) -> list[str]:
    return (e.get("class") or "").split()


def _translate(e: ET.Element) -> Pt:
    m = re.match(r"translate\(([-\d.e]+),([-\d.e]+)\)", e.get("transform") or "")
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _text_box(t: ET.Element, dx: float = 0.0) -> tuple[float, float, float, float]:
    """The box a text line takes (an average glyph 0.56 em, as the frame wraps)."""
    size = _num(t.get("font-size") or "12")
    x, y = _num(t.get("x")) + dx, _num(t.get("y"))
    w = 0.56 * size * len(t.text or "")
    anchor = t.get("text-anchor") or "start"
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - 0.78 * size, x0 + w, y + 0.22 * size)


class Picture:
    """One SVG read into shapes, in drawing order, with its marked parts."""

    def __init__(self, svg: str) -> None:
        self.root = ET.fromstring(svg.encode("utf-8"))
        self.shapes: list[Shape] = []
        self.edges: dict[int, dict[str, object]] = {}
        self.nodes: dict[str, tuple[Pt, float]] = {}
        self.steps: list[dict[str, object]] = []
        self.marks: list[tuple[str, int, str]] = []
        self.domino = self.root.get("data-kind") == "domino-chain" and bool(
            self.root.findall(f".//{NS}g[@class='rows']") or self.root.findall(
                f".//{NS}g[@class='ring']"))
        self.board = self.root.find(f".//{NS}g[@class='board']")
        self._order = 0
        self._walk(self.root, "", "")

    def _add(self, kind: str, owner: str, **geometry: object) -> Shape:
        self._order += 1
        s = Shape(kind, owner, self._order, **geometry)  # type: ignore[arg-type]
        self.shapes.append(s)
        return s

    def _walk(self, e: ET.Element, kind: str, owner: str) -> None:
        cls = _classes(e)
        tag = e.tag.replace(NS, "")
        if tag == "g":
            kind, owner = self._group(e, cls, kind, owner)
            if kind == "legend-item":
                self._legend_item(e)
                return
        elif tag in ("circle", "rect", "path", "line", "text") and kind != "skip":
            self._element(e, tag, cls, kind, owner)
        for child in e:
            self._walk(child, kind, owner)

    def _group(self, e: ET.Element, cls: list[str], kind: str, owner: str
               ) -> tuple[str, str]:
        if "edge" in cls and e.get("data-edge") is not None:
            plank = e.find(f"{NS}path[@class='plank']")
            self.edges[int(e.get("data-edge") or 0)] = {
                "d": plank.get("d") if plank is not None else "",
                "from": e.get("data-from"), "to": e.get("data-to"),
                "arrows": [a.get("d") or "" for a in e.iter(f"{NS}path")
                           if "arrow" in _classes(a)]}
            return "plank", f"edge {e.get('data-edge')}"
        if "node" in cls:
            return "node", f"node {e.get('data-node')}"
        if "step" in cls:
            self.steps.append({"step": e.get("data-step"), "edge": e.get("data-edge"),
                               "from": e.get("data-from"), "to": e.get("data-to"),
                               "el": e, "domino": "domino" in cls})
            return "line", f"step {e.get('data-step')}"
        if "badge" in cls:
            return "badge", owner or f"step {e.get('data-step')}"
        if e.get("data-inspect") is not None and self.board is not None:
            return "halo", f"mark {e.get('data-edge')}"  # on a board: check_board's
        if e.get("data-inspect") is not None:  # draw --inspect: on the edge it names
            path = e.find(f"{NS}path")
            self.marks.append((e.get("data-inspect") or "", int(e.get("data-edge") or -1),
                               path.get("d") if path is not None else ""))
            return "halo", f"mark {e.get('data-edge')}"
        if e.get("data-change") is not None:
            if e.get("data-change") in ("add", "recolour"):
                path = e.find(f"{NS}path")
                self.marks.append((e.get("data-change") or "", int(e.get("data-edge") or -1),
                                   path.get("d") if path is not None else ""))
            return "halo", f"mark {e.get('data-edge')}"
        for name in ("tag", "callout", "legend-item"):
            if name in cls:
                return name, f"{name} {e.get('data-tag') or e.get('data-for') or ''}"
        if any(c in cls for c in ("odd", "imbalanced", "phase")):
            return "mark", f"mark {e.get('data-node') or e.get('data-phase')}"
        if "shading" in cls or "component" in cls:
            return "skip", ""
        if "cell" in cls:
            return "cell", f"cell {e.get('data-node')}"
        if "positions" in cls:
            return "position", "positions"
        return kind, owner

    def _element(self, e: ET.Element, tag: str, cls: list[str], kind: str,
                 owner: str) -> None:
        width = _num(e.get("stroke-width")) if e.get("stroke") not in (None, "none") else 0.0
        if tag == "circle":
            c = (_num(e.get("cx")), _num(e.get("cy")))
            r = _num(e.get("r")) + width / 2
            what = "node" if kind == "node" else "goal" if "goal-ring" in cls else kind
            if kind == "node" and "tyre" in cls:
                name = owner.split(" ", 1)[1]
                self.nodes[name] = (c, _num(e.get("r")))
            self._add(what or "mark", owner, centre=c, r=r)
        elif tag == "rect":
            if "title" in owner or (kind == "" and e.get("fill") == "#FFFFFF" and not owner):
                return  # the page's white background
            x, y = _num(e.get("x")), _num(e.get("y"))
            self._add(kind or "rect", owner, box=(x, y, x + _num(e.get("width")),
                                                  y + _num(e.get("height"))))
        elif tag in ("path", "line"):
            pts = (path_points(e.get("d") or "") if tag == "path" else
                   [(_num(e.get("x1")), _num(e.get("y1"))), (_num(e.get("x2")),
                                                             _num(e.get("y2")))])
            filled = (e.get("fill") not in (None, "none")) and tag == "path"
            what = ("pointer" if "arrow" in cls and kind == "badge"  # the arrow on a badge
                    else "arrow" if "arrow" in cls else kind or "line")
            if kind == "line" and "casing" in cls:
                what = "casing"
            self._add(what, owner, points=pts, width=width, closed=filled)
        elif tag == "text" and kind in ("", "mark") and not owner:
            cls_text = "title" if "title" in cls else "text"
            self._add(cls_text, "caption", box=_text_box(e))

    def _legend_item(self, g: ET.Element) -> None:
        symbol = g.find(f"{NS}g")
        text = g.find(f"{NS}text")
        x, y = _translate(symbol) if symbol is not None else (0.0, 0.0)
        if text is not None:
            _x0, y0, x1, y1 = _text_box(text)
            self._add("legend", f"legend {text.text}", box=(x, min(y - 10, y0), x1, y1))


# ------------------------------------------------------------------ checks
@dataclass
class Expect:
    """What the answer says, for the checks that compare: the walk's edges and nodes,
    and the edges its repair changed (``(change, edge)``)."""

    walk_edges: list[int] | None = None
    walk_nodes: list[str] | None = None
    changes: list[tuple[str, int]] | None = None
    badged: bool = True  # every step has a badge (a walk of at most 400 steps)
    closed: bool = False  # the walk's return to its start is no new position
    given: dict[str, int] | None = None  # a board's givens (at:), by cell name
    holes: set[str] | None = None  # a board's avoided cells
    rays: dict[str, Pt] | None = None  # a board's signposts: cell, (columns, rows up)
    verdicts: dict[str, str] | None = None  # inspect's verdict on each given, by cell


#: A node where more step lines than this meet is a hub (its tag may cross a line).
HUB_STEPS = 8

SOLID = ("node", "badge", "pointer", "arrow", "tag", "callout", "mark", "goal", "legend",
         "title", "text")


def check_svg(svg: str, expect: Expect | None = None) -> list[tuple[str, str]]:
    """Every violation in ``svg`` as (rule, what), rules from :data:`RULES`."""
    pic = Picture(svg)
    expect = expect or Expect()
    out: list[tuple[str, str]] = []
    out += _check_marks(pic, expect)
    if not pic.domino:
        out += _check_badges(pic)
        out += _check_edges(pic)
        out += _check_arrowheads(pic)
    out += _check_labels(pic)
    out += _check_steps(pic, expect)
    if pic.board is not None:
        out += check_board(pic, expect)
    return out


def _check_marks(pic: Picture, expect: Expect) -> list[tuple[str, str]]:
    out = []
    for change, e, d in pic.marks:
        if e not in pic.edges or pic.edges[e]["d"] != d:
            out.append(("mark-off-edge", f"{change} mark on edge {e} not along its path"))
    if expect.changes is not None:
        drawn = sorted((c, e) for c, e, _ in pic.marks)
        if drawn != sorted(expect.changes):
            out.append(("mark-off-edge", f"marks {drawn}, the answer names "
                                         f"{sorted(expect.changes)}"))
    return out


def _check_badges(pic: Picture) -> list[tuple[str, str]]:
    out = []
    badges = _badge_discs(pic)
    for b in badges:
        for s in pic.shapes:
            if s.owner == b.owner and s.kind in ("badge", "line", "casing", "pointer"):
                continue
            if s.kind == "badge" and s.owner == b.owner:
                continue
            later = s.order > b.last and s.kind not in ("legend", "title", "text")
            if (s.kind in SOLID or later) and s.kind not in ("plank", "halo") and not (
                    s.kind == "badge" and s.owner == b.owner) and overlap(b, s):
                why = "covered by" if later and s.kind not in SOLID else "on"
                out.append(("badge-hidden", f"badge of {b.owner} {why} {s.kind} "
                                            f"({s.owner})"))
                break
    return out


@dataclass
class _Badge(Shape):
    last: int = 0


def _badge_discs(pic: Picture) -> list[_Badge]:
    """One disc per badge (its outer circle), knowing the last order of its parts."""
    out: dict[str, _Badge] = {}
    for s in pic.shapes:
        if s.kind == "badge" and s.centre is not None:
            b = out.get(s.owner)
            if b is None or s.r > b.r:
                out[s.owner] = _Badge("badge", s.owner, s.order, s.centre, s.r,
                                      last=max(s.order, b.last if b else 0))
        if s.kind == "badge" and s.owner in out:
            out[s.owner].last = max(out[s.owner].last, s.order)
    return list(out.values())


def _check_edges(pic: Picture) -> list[tuple[str, str]]:
    out = []
    for e, info in pic.edges.items():
        pts = path_points(str(info["d"]), 24)
        if len(pts) < 2:
            continue
        ends = {info["from"], info["to"]}
        if info["from"] is None:  # a picture without data-from: the nodes it starts at
            ends = {name for name, (c, _) in pic.nodes.items()
                    if min(math.dist(c, pts[0]), math.dist(c, pts[-1])) < 1.0}
        for name, (c, r) in pic.nodes.items():
            if name in ends:
                continue
            if poly_dist(c, pts) < r - 0.5:
                out.append(("edge-through-node", f"edge {e} ({info['from']}-{info['to']}) "
                                                 f"through node {name}"))
    return out


def _check_arrowheads(pic: Picture) -> list[tuple[str, str]]:
    """Every arrowhead of a one-way edge points along the edge's line towards its head:
    the line is oriented by which of its ends lies at the ``data-from`` node."""
    out = []
    for e, info in pic.edges.items():
        tail, head = pic.nodes.get(str(info["from"])), pic.nodes.get(str(info["to"]))
        pts = path_points(str(info["d"]), 24)
        if tail is None or head is None or info["from"] == info["to"] or len(pts) < 2:
            continue
        forwards = math.dist(pts[0], tail[0]) <= math.dist(pts[0], head[0])
        for d in info["arrows"]:  # type: ignore[attr-defined]
            corners = path_points(d)[:3]
            tip = corners[0]
            base = ((corners[1][0] + corners[2][0]) / 2, (corners[1][1] + corners[2][1]) / 2)
            k = min(range(len(pts) - 1), key=lambda i: seg_dist(base, pts[i], pts[i + 1]))
            run = (pts[k + 1][0] - pts[k][0], pts[k + 1][1] - pts[k][1])
            along = (tip[0] - base[0]) * run[0] + (tip[1] - base[1]) * run[1]
            if (along > 0) != forwards:
                out.append(("arrow-direction", f"edge {e}'s arrowhead points at "
                                               f"{info['from']}, not at {info['to']}"))
    return out


def _check_labels(pic: Picture) -> list[tuple[str, str]]:
    out = []
    labels = [s for s in pic.shapes if s.kind in ("tag", "callout", "legend", "title", "text")
              and s.box is not None]
    caption = ("legend", "title", "text")
    hubs = _hub_tags(pic)
    for i, a in enumerate(labels):
        for s in pic.shapes:
            if s is a or (s.owner == a.owner and s.kind == a.kind):
                continue
            if s.kind in ("legend", "title", "text") and s.order < a.order and a.kind in caption:
                continue  # captions among themselves: checked pairwise below
            if a.kind in caption:
                hits = s.kind not in caption and s.kind != "skip"
            else:  # a tag or callout: on nothing solid, and a tag on no step's line
                hits = (s.kind in SOLID and s.kind not in ("text",)) or (
                    a.kind == "tag" and s.kind == "line" and a.owner not in hubs)
            if hits and overlap(a, s):
                out.append(("label-overlap", f"{a.kind} ({a.owner}) on {s.kind} ({s.owner})"))
                break
        for b in labels[i + 1:]:
            if (b.kind in caption) == (a.kind in caption) and b.owner != a.owner and overlap(a, b):
                out.append(("label-overlap", f"{a.kind} ({a.owner}) on {b.kind} ({b.owner})"))
    return out


def _hub_tags(pic: Picture) -> set[str]:
    """The tags (as shape owners) of nodes where more than :data:`HUB_STEPS` step lines
    meet: beside such a hub every spot a tag can take lies on some line."""
    ends: dict[str, int] = {}
    for s in pic.steps:
        for end in {str(s["from"]), str(s["to"])}:
            ends[end] = ends.get(end, 0) + 1
    return {f"tag {g.get('data-tag')}" for g in pic.root.iter(f"{NS}g")
            if "tag" in _classes(g) and ends.get(g.get("data-node") or "", 0) > HUB_STEPS}


def _check_steps(pic: Picture, expect: Expect) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    steps = pic.steps
    if pic.board is not None and expect.rays:  # a Signpost: its moves are the arrows
        return [("step-order", f"{len(steps)} move lines on a board of signposts")] * bool(
            steps)
    numbers = [int(str(s["step"])) for s in steps]
    if numbers != list(range(1, len(steps) + 1)):
        out.append(("step-order", f"steps numbered {numbers[:12]}..."))
    if expect.walk_edges is not None:
        if len(steps) != len(expect.walk_edges):
            out.append(("step-order", f"{len(steps)} steps drawn, the walk has "
                                      f"{len(expect.walk_edges)}"))
        for s, e in zip(steps, expect.walk_edges, strict=False):
            if str(s["edge"]) != str(e):
                out.append(("step-order", f"step {s['step']} on edge {s['edge']}, walked {e}"))
    if expect.walk_nodes is not None and not pic.domino:
        for k, s in enumerate(steps):
            if (s["from"], s["to"]) != tuple(expect.walk_nodes[k:k + 2]):
                out.append(("step-order", f"step {s['step']} {s['from']}->{s['to']}"))
    for s in steps:
        out += _check_one_step(pic, s, expect)
    return out


def _check_one_step(pic: Picture, s: dict[str, object], expect: Expect
                    ) -> list[tuple[str, str]]:
    g: ET.Element = s["el"]  # type: ignore[assignment]
    name = f"step {s['step']}"
    if s["domino"]:
        numbers = [t.text for t in g.iter(f"{NS}text") if "step-number" in _classes(t)]
        return [] if numbers == [str(s["step"])] else [("step-order", f"{name}: {numbers}")]
    if pic.board is not None:
        return []  # a move on a board: checked by check_board
    badges = [b for b in g.iter(f"{NS}g") if "badge" in _classes(b)]
    if len(badges) != 1 and (expect.badged or badges):
        return [("step-order", f"{name} has {len(badges)} badges")]
    if not badges:
        return []
    texts = [t.text for t in badges[0].iter(f"{NS}text")]
    out = []
    if texts != [str(s["step"])]:
        out.append(("step-order", f"{name} badge reads {texts}"))
    line = g.find(f"{NS}path[@class='line']")
    circle = badges[0].find(f"{NS}circle")
    if line is None or circle is None:
        return [*out, ("step-order", f"{name} has no line")]
    pts = path_points(line.get("d") or "")
    c = (_num(circle.get("cx")), _num(circle.get("cy")))
    if poly_dist(c, pts) > 2.0:
        out.append(("step-order", f"{name}'s badge is off its line"))
    a, b = pic.nodes.get(str(s["from"])), pic.nodes.get(str(s["to"]))
    if a and b and s["from"] != s["to"] and (
            math.dist(pts[0], a[0]) > math.dist(pts[0], b[0])
            or math.dist(pts[-1], b[0]) > math.dist(pts[-1], a[0])):
        out.append(("step-order", f"{name}'s line runs the wrong way"))
    edge = pic.edges.get(int(str(s["edge"])))
    if edge is not None and edge["from"] is not None:
        own = path_points(str(edge["d"]), 24)
        mine = sum(poly_dist(p, own) for p in pts) / len(pts)
        for other_e, other in pic.edges.items():
            if other_e != int(str(s["edge"])) and {other["from"], other["to"]} == {
                    edge["from"], edge["to"]}:
                theirs = sum(poly_dist(p, path_points(str(other["d"]), 24))
                             for p in pts) / len(pts)
                if theirs < mine:
                    out.append(("step-order", f"{name} drawn nearer edge {other_e} than "
                                              f"its own edge {s['edge']}"))
                    break
    out += _check_pointing(g, pts, name)
    return out


def _check_pointing(g: ET.Element, pts: list[Pt], name: str) -> list[tuple[str, str]]:
    """The step's arrow (on its badge or its line) points the way the line runs."""
    arrows = [a for a in g.iter(f"{NS}path") if "arrow" in _classes(a)]
    if len(arrows) != 1:
        return [("step-order", f"{name} has {len(arrows)} arrows")]
    corners = path_points(arrows[0].get("d") or "")[:3]
    tip = corners[0]
    base = ((corners[1][0] + corners[2][0]) / 2, (corners[1][1] + corners[2][1]) / 2)
    k = min(range(len(pts) - 1), key=lambda i: seg_dist(base, pts[i], pts[i + 1]))
    run = (pts[k + 1][0] - pts[k][0], pts[k + 1][1] - pts[k][1])
    if (tip[0] - base[0]) * run[0] + (tip[1] - base[1]) * run[1] <= 0:
        return [("step-order", f"{name}'s arrow points against its line")]
    return []


# ------------------------------------------------------------------ boards
def chess_cell(name: str) -> tuple[int, int] | None:
    """The 0-based (column, row) a chess name says: ``a1`` is (0, 0), ``aa3`` (26, 2)."""
    m = re.fullmatch(r"([a-z]+)([1-9]\d*)", name)
    if m is None:
        return None
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - ord("a") + 1
    return col - 1, int(m.group(2)) - 1


@dataclass
class _Board:
    cols: int
    rows: int
    side: float
    squares: dict[str, tuple[float, float, float, float]]  # cell name: its square


def check_board(pic: Picture, expect: Expect) -> list[tuple[str, str]]:
    """The ``board-cells`` and ``board-positions`` rules (see the module docstring)."""
    g = pic.board
    assert g is not None
    board = _Board(int(g.get("data-cols") or 0), int(g.get("data-rows") or 0),
                   _num(g.get("data-cell")), {})
    out = _check_cells(g, board, expect)
    out += _check_positions(g, board, expect)
    out += _check_moves(pic, board)
    out += _check_bands(pic, board, expect)
    out += _check_verdicts(g, board, expect)
    out += check_signposts(g, board, expect.rays or {})
    return out


def _check_bands(pic: Picture, board: _Board, expect: Expect) -> list[tuple[str, str]]:
    """The ``board-marks`` rule for critical moves: each band on a move of the walk (the
    step of the same edge), from that move's cell's centre to the other's."""
    out = []
    moves = {int(str(step["edge"])): (str(step["from"]), str(step["to"])) for step in pic.steps}
    walked = set(expect.walk_edges) if expect.walk_edges is not None else set(moves)
    for g in pic.board.iter(f"{NS}g"):  # type: ignore[union-attr]
        if g.get("data-inspect") is None:
            continue
        e = int(g.get("data-edge") or -1)
        if e not in walked or e not in moves:
            out.append(("board-marks", f"a band on edge {e}, no move of the walk"))
            continue
        path = g.find(f"{NS}path")
        pts = path_points(path.get("d") or "") if path is not None else []
        ends = [_square_centre(board, name) for name in moves[e]]
        if len(pts) < 2 or any(min(math.dist(p, c) for p in (pts[0], pts[-1])) > 1.0
                               for c in ends):
            out.append(("board-marks", f"the band of edge {e} does not run along its move "
                                       f"{moves[e][0]}-{moves[e][1]}"))
    return out


def _square_centre(board: _Board, name: str) -> Pt:
    x0, y0, x1, y1 = board.squares.get(name, (math.nan,) * 4)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _check_verdicts(g: ET.Element, board: _Board, expect: Expect) -> list[tuple[str, str]]:
    """The ``board-marks`` rule for givens: each ring inside its cell, its centre on the
    given's number, each redundant given pale, and the verdicts drawn those the
    inspection gave."""
    out = []
    givens = {t.get("data-node") or "": t for t in g.iter(f"{NS}text")
              if "position" in _classes(t) and t.get("data-given") == "yes"}
    drawn = {name: t.get("data-verdict") or "" for name, t in givens.items()
             if t.get("data-verdict")}
    for ring in g.iter(f"{NS}circle"):
        if "verdict" not in _classes(ring):
            continue
        name = ring.get("data-node") or ""
        c, r = (_num(ring.get("cx")), _num(ring.get("cy"))), _num(ring.get("r"))
        square = board.squares.get(name, (math.nan,) * 4)
        number = _text_box(givens[name]) if name in givens else (math.nan,) * 4
        if not (number[0] <= c[0] <= number[2] and number[1] <= c[1] <= number[3]
                and square[0] - 0.5 <= c[0] - r and c[0] + r <= square[2] + 0.5
                and square[1] - 0.5 <= c[1] - r and c[1] + r <= square[3] + 0.5):
            out.append(("board-marks", f"a ring in {name}, not round its given's number "
                                       "inside its cell"))
        if drawn.get(name) != "essential":
            out.append(("board-marks", f"{name} ringed, its given {drawn.get(name)!r}"))
    ringed = {r.get("data-node") for r in g.iter(f"{NS}circle") if "verdict" in _classes(r)}
    out += [("board-marks", f"the essential given in {name} not ringed")
            for name, v in drawn.items() if v == "essential" and name not in ringed]
    out += [("board-marks", f"the redundant given in {name} not pale")
            for name, v in drawn.items()
            if v == "redundant" and givens[name].get("fill") in (None, "#1A1A1A")]
    if expect.verdicts is not None and drawn != expect.verdicts:
        out.append(("board-marks", f"verdicts drawn {sorted(drawn.items())}, inspect said "
                                   f"{sorted(expect.verdicts.items())}"))
    return out


def check_signposts(g: ET.Element, board: _Board, rays: dict[str, Pt]
                    ) -> list[tuple[str, str]]:
    """The ``signpost-direction`` rule: each arrow in its cell, along its cell's ray
    (within 2 degrees), one arrow to each cell of ``rays`` and none elsewhere."""
    out = []
    drawn: set[str] = set()
    for arrow in g.iter(f"{NS}path"):
        if "signpost" not in _classes(arrow):
            continue
        name = arrow.get("data-node") or ""
        pts = path_points(arrow.get("d") or "")
        square = board.squares.get(name)
        if name in drawn:
            out.append(("signpost-direction", f"two arrows in {name}"))
        drawn.add(name)
        if square is None or not all(square[0] - 0.5 <= x <= square[2] + 0.5 and
                                     square[1] - 0.5 <= y <= square[3] + 0.5 for x, y in pts):
            out.append(("signpost-direction", f"the arrow of {name} is outside its cell"))
        ray = rays.get(name)
        if ray is None:
            out.append(("signpost-direction", f"an arrow in {name}, which has no ray"))
            continue
        tail = ((pts[3][0] + pts[4][0]) / 2, (pts[3][1] + pts[4][1]) / 2) if len(
            pts) > 4 else pts[0] if pts else (0.0, 0.0)
        run = (pts[0][0] - tail[0], pts[0][1] - tail[1]) if pts else (0.0, 0.0)
        want = (ray[0], -ray[1])  # rows up, the page's y down
        cos = (run[0] * want[0] + run[1] * want[1]) / (
            math.hypot(*run) * math.hypot(*want) or 1.0)
        if cos < math.cos(math.radians(2)):
            out.append(("signpost-direction", f"the arrow of {name} points {run}, its ray "
                                              f"is {ray}"))
    out += [("signpost-direction", f"no arrow in {name}") for name in sorted(set(rays) - drawn)]
    return out


def signpost_rays(puzzle: object) -> dict[str, Pt]:
    """The cells whose every way out is a one-way edge and all lie along one ray, each
    with that ray's direction (columns right, rows up), from the chess names alone."""
    names = puzzle.nodes  # type: ignore[attr-defined]
    ways: dict[str, set[Pt] | None] = {}
    for e in range(puzzle.num_edges):  # type: ignore[attr-defined]
        a, b = names[puzzle.tail[e]], names[puzzle.head[e]]  # type: ignore[attr-defined]
        if not puzzle.is_directed(e):  # type: ignore[attr-defined]
            ways[a] = ways[b] = None
            continue
        ca, cb = chess_cell(a), chess_cell(b)
        if ca is None or cb is None or ways.get(a, set()) is None:
            continue
        d = math.hypot(cb[0] - ca[0], cb[1] - ca[1])
        ways.setdefault(a, set()).add(  # type: ignore[union-attr]
            (round((cb[0] - ca[0]) / d, 6), round((cb[1] - ca[1]) / d, 6)))
    return {name: next(iter(w)) for name, w in ways.items() if w is not None and len(w) == 1}


def _check_cells(g: ET.Element, board: _Board, expect: Expect) -> list[tuple[str, str]]:
    out = []
    s = board.side
    for cell in g.iter(f"{NS}g"):
        if "cell" not in _classes(cell):
            continue
        name = cell.get("data-node") or ""
        where = chess_cell(name)
        if where is None or not (0 <= where[0] < board.cols and 0 <= where[1] < board.rows):
            out.append(("board-cells", f"cell {name} is no cell of a {board.cols} × "
                                       f"{board.rows} board"))
            continue
        col, row = where
        square = (col * s, (board.rows - 1 - row) * s, (col + 1) * s, (board.rows - row) * s)
        if name in board.squares:
            out.append(("board-cells", f"cell {name} drawn twice"))
        board.squares[name] = square
        rect = cell.find(f"{NS}rect")
        box = (0.0, 0.0, 0.0, 0.0) if rect is None else (
            _num(rect.get("x")), _num(rect.get("y")), _num(rect.get("x")) + _num(rect.get("width")),
            _num(rect.get("y")) + _num(rect.get("height")))
        if not (square[0] - 0.5 <= box[0] < box[2] <= square[2] + 0.5
                and square[1] - 0.5 <= box[1] < box[3] <= square[3] + 0.5
                and box[2] - box[0] > s * 0.7):
            out.append(("board-cells", f"cell {name} drawn at {box}, not in its square {square}"))
        shade = [c for c in _classes(cell) if c in ("light", "dark", "hole")]
        hole = expect.holes is not None and name in expect.holes
        wanted = "hole" if hole else "dark" if (col + row) % 2 == 0 else "light"
        if shade != [wanted] or (wanted != "hole" and rect is not None and rect.get("fill") in (
                None, "none", "#FFFFFF")):
            out.append(("board-cells", f"cell {name} is {shade}, should be {wanted}"))
    return out


def _check_positions(g: ET.Element, board: _Board, expect: Expect) -> list[tuple[str, str]]:
    out = []
    written: dict[int, str] = {}
    for t in g.iter(f"{NS}text"):
        if "position" not in _classes(t):
            continue
        name = t.get("data-node") or ""
        numbers = [int(k) for k in (t.text or "").split(",")]
        square = board.squares.get(name)
        x0, y0, x1, y1 = _text_box(t)
        if square is None or not (square[0] <= x0 and x1 <= square[2] and square[1] <= y0
                                  and y1 <= square[3]):
            out.append(("board-positions", f"{t.text} not inside cell {name}"))
        for k in numbers:
            if k in written:
                out.append(("board-positions", f"position {k} written in {written[k]} and "
                                               f"{name}"))
            written[k] = name
        given = (expect.given or {}).get(name)
        bold = t.get("font-weight") == "bold"
        if bold != (given is not None and given in numbers):
            out.append(("board-positions", f"{t.text} in {name} is {'' if bold else 'not '}"
                                           f"bold; the given there is {given}"))
    for name, k in (expect.given or {}).items():
        if written.get(k) != name:
            out.append(("board-positions", f"the given {k} belongs in {name}, "
                                           f"written in {written.get(k)}"))
    if expect.walk_nodes is not None:
        held = expect.walk_nodes[:-1] if expect.closed and len(expect.walk_nodes) > 1 \
            else expect.walk_nodes
        wanted = {k: name for k, name in enumerate(held, start=1)}
        if written != wanted:
            wrong = sorted(k for k in set(written) | set(wanted)
                           if written.get(k) != wanted.get(k))
            out.append(("board-positions", f"positions {wrong[:8]} not in the cells the walk "
                                           "holds them in"))
    return out


def _check_moves(pic: Picture, board: _Board) -> list[tuple[str, str]]:
    """Each move's line runs between its cells' centres, and through no third cell's
    number."""
    out = []
    s = board.side

    def centre(name: str) -> Pt:
        x0, y0, x1, y1 = board.squares.get(name, (math.nan,) * 4)
        return (x0 + x1) / 2, (y0 + y1) / 2

    numbered = {t.get("data-node") or "" for t in pic.board.iter(f"{NS}text")  # type: ignore[union-attr]
                if "position" in _classes(t)}
    for step in pic.steps:
        g: ET.Element = step["el"]  # type: ignore[assignment]
        line = g.find(f"{NS}path[@class='line']")
        pts = path_points(line.get("d") or "") if line is not None else []
        a, b = str(step["from"]), str(step["to"])
        if len(pts) < 2 or math.dist(pts[0], centre(a)) > 1.0 or math.dist(
                pts[-1], centre(b)) > 1.0:
            out.append(("board-positions", f"move {step['step']} does not run from the centre "
                                            f"of {a} to that of {b}"))
            continue
        for name in numbered - {a, b}:
            if poly_dist(centre(name), pts) < 0.3 * s:
                out.append(("board-positions", f"move {step['step']} ({a}-{b}) runs through "
                                                f"the number in {name}"))
    return out


# ------------------------------------------------------------------ corpus
@dataclass
class Item:
    """One picture of the corpus: its part, its name, and how to draw it."""

    part: str
    name: str
    spec_text: str
    mode: str  # puzzle, solve, certificate, repair, inspect


def complete_graph(n: int, closed: bool = False) -> str:
    names = [chr(ord("a") + i) for i in range(n)]
    edges = ", ".join(f"{u} {v}" for i, u in enumerate(names) for v in names[i + 1:])
    return (f"trailkit: 1\nname: K{n}\nkind: trail\n"
            + ("closed: true\n" if closed else "") + f"edges: [{edges}]\n")


def multigraph(seed: int) -> str:
    """A random multigraph: 3 to 7 nodes, each joined pair by 1 to 4 parallel edges,
    a few of them one-way."""
    rng = random.Random(seed)
    n = rng.randint(3, 7)
    names = [chr(ord("a") + i) for i in range(n)]
    lines = []
    order = names[:]
    rng.shuffle(order)
    pairs = list(itertools.pairwise(order))
    pairs += [tuple(rng.sample(names, 2)) for _ in range(rng.randint(0, n))]
    for u, v in pairs:
        for _ in range(rng.randint(1, 4)):
            lines.append(f"  - {u} {'-> ' if rng.random() < 0.15 else ''}{v}")
    return (f"trailkit: 1\nname: multigraph {seed}\nkind: trail\nedges:\n"
            + "\n".join(lines) + "\n")


def corpus(seeds: int = 30) -> Iterator[Item]:
    """Issue 33's corpus: every bundled spec in every mode, K3-K9, generated trails,
    colour walks and domino sets (``seeds`` each, up to about 40 edges), multigraphs."""
    from trailkit.solvers.tools.generate import generate

    specs = sorted((ROOT / "specs").glob("*.yaml")) + sorted(
        (ROOT / "specs" / "dominoes").glob("*.yaml")) + sorted(
        (ROOT / "specs" / "tyre-puzzle").glob("*.yaml"))
    for path in specs:
        text = path.read_text(encoding="utf-8")
        for mode in ("puzzle", "solve", "certificate", "repair"):
            yield Item("bundled specs", f"{path.relative_to(ROOT)} {mode}", text, mode)
        if path.name == "restored.yaml":  # the tyre puzzle as draw --inspect shows it
            yield Item("bundled specs", f"{path.relative_to(ROOT)} inspect", text, "inspect")
    for n in range(3, 10):
        for closed in (False, True):
            yield Item("complete graphs", f"K{n}{' closed' * closed}",
                       complete_graph(n, closed), "solve")
    for seed in range(1, seeds + 1):
        size = 3 + seed % 20  # 3..22 nodes, up to about 40 edges
        yield Item("generated trails", f"trail {size} seed {seed}",
                   generate("trail", size, seed).text, "solve")
    for seed in range(1, seeds + 1):
        size = 2 + seed % 2
        mode = "inspect" if seed % 3 == 0 else "solve"
        yield Item("colour walks", f"colour-walk {size} seed {seed} {mode}",
                   generate("colour-walk", size, seed).text, mode)
    for seed in range(1, seeds + 1):
        size = 2 + seed % 7
        mode = ("solve", "puzzle", "certificate")[seed % 3]
        yield Item("domino sets", f"dominoes {size} seed {seed} {mode}",
                   generate("dominoes", size, seed).text, mode)
    for seed in range(1, seeds + 1):
        yield Item("multigraphs", f"multigraph {seed}", multigraph(seed),
                   "repair" if seed % 4 == 0 else "solve")
    yield from board_items()


#: Boards of issue 43 (``board:``, node rules), drawn as boards.
BOARDS = {
    "knight 5x5 open": "board: {size: [5, 5], moves: knight}\nclosed: false\n",
    "knight 6x6 closed": "board: {size: [6, 6], moves: knight}\n",
    "king 4x3 with givens and a hole": ("board: {size: [4, 3], moves: king}\nclosed: false\n"
                                        "avoid: [b2]\nat: {a1: 1, d3: 11}\n"),
}


def signpost_spec(cols: int, rows: int, path: Sequence[tuple[int, int]],
                  givens: Sequence[int], name: str = "signpost") -> str:
    """A Signpost puzzle written by hand (as ``design tour --moves arrows`` will): one-way
    edges from each cell of ``path`` (but the last) to every cell along the ray towards
    its successor, the grid as the layout, and the positions ``givens`` of ``path`` as
    ``at:``."""
    def cell(c: int, r: int) -> str:
        return f"{chr(ord('a') + c)}{r + 1}"

    edges = []
    for (c, r), (c2, r2) in itertools.pairwise(path):
        g = math.gcd(c2 - c, r2 - r)
        dc, dr = (c2 - c) // g, (r2 - r) // g
        k = 1
        while 0 <= c + k * dc < cols and 0 <= r + k * dr < rows:
            edges.append(f"{cell(c, r)} -> {cell(c + k * dc, r + k * dr)}")
            k += 1
    layout = ", ".join(f"{cell(c, r)}: [{c}, {r}]" for r in range(rows) for c in range(cols))
    at = ", ".join(f"{cell(*path[k - 1])}: {k}" for k in givens)
    return (f"trailkit: 1\nname: {name}\nkind: tour\nclosed: false\n"
            f"edges: [{', '.join(edges)}]\nlayout: {{{layout}}}\nat: {{{at}}}\n")


#: A 4 × 4 Signpost's tour (queen's directions, any distance), from a1.
SIGNPOST_4X4 = ((0, 0), (2, 0), (3, 0), (3, 1), (3, 3), (3, 2), (2, 1), (2, 2), (2, 3),
                (1, 3), (0, 3), (0, 2), (1, 2), (1, 0), (1, 1), (0, 1))


def board_items() -> Iterator[Item]:
    """The boards, each drawn as a puzzle and with its tour; a Signpost among them."""
    for name, rules in BOARDS.items():
        for mode in ("puzzle", "solve"):
            yield Item("boards", f"{name} {mode}", f"trailkit: 1\nname: {name}\nkind: tour\n"
                       + rules, mode)
    for mode in ("puzzle", "solve"):
        yield Item("boards", f"signpost 4x4 {mode}",
                   signpost_spec(4, 4, SIGNPOST_4X4, (1, 7, 16), "signpost 4x4"), mode)


def draw_item(item: Item) -> tuple[str, Expect]:
    """The SVG ``trailkit draw`` makes of ``item`` in its mode, and what its answer says."""
    from trailkit.models.answer import Status
    from trailkit.models.spec import load_spec_text
    from trailkit.solvers.pipeline import solve
    from trailkit.solvers.tools.drawing import draw_svg

    puzzle = load_spec_text(item.spec_text)
    if item.mode == "puzzle":
        return draw_svg(puzzle), node_rules_expect(puzzle, Expect())
    if item.mode == "repair":
        return _draw_repair(puzzle)
    if item.mode == "inspect":
        return _draw_inspect(puzzle)
    answer = solve(puzzle)
    if item.mode == "certificate":
        return draw_svg(puzzle, None if answer.status is Status.UNSOLVABLE else answer,
                        certificate=answer.certificate), _walk_expect(puzzle, answer)
    return draw_svg(puzzle, answer), _walk_expect(puzzle, answer)


def _walk_expect(puzzle: object, answer: object) -> Expect:
    walk = getattr(answer, "walk", None)
    from trailkit.models.answer import Status

    if walk is None or getattr(answer, "status", None) is not Status.SOLVED:
        return node_rules_expect(puzzle, Expect(walk_edges=[]))
    names = puzzle.nodes  # type: ignore[attr-defined]
    return node_rules_expect(puzzle, Expect(
        walk_edges=[int(e) for e in walk.edges], walk_nodes=[names[v] for v in walk.nodes],
        badged=len(walk) <= 400, closed=bool(puzzle.closed)))  # type: ignore[attr-defined]


def node_rules_expect(puzzle: object, expect: Expect) -> Expect:
    """``expect`` with the puzzle's givens and avoided nodes, by name (a board shows them)."""
    names = puzzle.nodes  # type: ignore[attr-defined]
    expect.given = {names[v]: k for v, k in getattr(puzzle, "at", {}).items()}
    expect.holes = {names[v] for v in getattr(puzzle, "avoid", ())}
    expect.rays = signpost_rays(puzzle)
    return expect


def _draw_inspect(puzzle: object) -> tuple[str, Expect]:
    """As ``draw --inspect``: the walk, the critical and costly edges marked (each mark
    then checked to lie along its edge's path)."""
    from trailkit.solvers.tools.design.inspection import inspect_puzzle
    from trailkit.solvers.tools.drawing import InspectMark, InspectView, draw_svg

    found = inspect_puzzle(puzzle)  # type: ignore[arg-type]
    marks = [InspectMark(f.edge, "critical") for f in found.critical]
    marks += [InspectMark(f.edge, "costly", f.length_without) for f in found.costly]
    view = InspectView(tuple(marks), found.measures.get("shortest_length"))
    return (draw_svg(puzzle, found.answer, inspect=view),  # type: ignore[arg-type]
            _walk_expect(puzzle, found.answer))


def _draw_repair(puzzle: object) -> tuple[str, Expect]:
    """As ``draw --repair``: the repaired puzzle with its walk, the changes marked; the
    changed edges found independently, by edge ids the original puzzle lacks (added)
    or whose colour it had otherwise (recoloured)."""
    from trailkit.solvers.tools.drawing import Emphasis, draw_svg
    from trailkit.solvers.tools.repair.fewest_changes import RepairStatus, repair

    found = repair(puzzle, certify=False)  # as draw --repair: no claim drawn, none proven
    if found.status is RepairStatus.SOLVABLE:
        return draw_svg(puzzle, found.original), _walk_expect(puzzle, found.original)
    if not found.repairs:
        return draw_svg(puzzle), Expect()
    best = found.repairs[0]
    fixed = best.puzzle
    old = {puzzle.edge_id(e): puzzle.colour_name(e)  # type: ignore[attr-defined]
           for e in range(puzzle.num_edges)}  # type: ignore[attr-defined]
    changes = []
    for e in range(fixed.num_edges):
        eid = fixed.edge_id(e)
        if eid not in old:
            changes.append(("add", e))
        elif old[eid] != fixed.colour_name(e):
            changes.append(("recolour", e))
    expect = _walk_expect(fixed, best.answer)
    expect.changes = changes
    return draw_svg(fixed, best.answer, emphasis=Emphasis.from_changes(best.changes)), expect
