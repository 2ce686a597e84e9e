"""The node-and-edge picture: tyres and planks, one-stroke figures, certificate views.

Layers, bottom to top: component shading, repair halos and inspection halos
(:mod:`~trailkit.solvers.tools.drawing.inspect_marks`), edges (each in its colour and
dash pattern), nodes with their labels, certificate marks, the walk (one group per step:
a dark line with a white casing and a numbered badge carrying the step's arrow, placed by
:mod:`~trailkit.solvers.tools.drawing.steps` where nothing covers it), start/goal tags,
the repair's callouts (``added``, ``was blue``, ``removed``), then the title, notes and
legend. Every node is a ``<g class="node" data-node=NAME>``, every edge a ``<g
class="edge" data-edge=INDEX>``, every walk step a ``<g class="step" data-step=N
data-edge=INDEX>`` and every callout a ``<g class="callout" data-for=added|recoloured|
removed>``, so tests and the HTML page find them by meaning, not by position.

Each layer records what it draws in an
:class:`~trailkit.solvers.tools.drawing.placement.Occupancy`; the tags and the callouts,
placed last, go where nothing is drawn: never on a node, a badge, an arrowhead, a tag or
each other. A picture where a badge, a tag or a callout finds no clear spot is drawn
again with its nodes farther apart (:data:`GROWTH`), rather than hiding anything.

Geometry is in pixels with y pointing down; the unit ``U`` is the typical edge length.
A tyre revisited by the walk gets one more ring per revisit (as the tyre puzzle's author
drew it); the walk's lines stop at the outermost ring so no arrowhead hides under a node.

The pieces: :mod:`~trailkit.solvers.tools.drawing.scene` (the shared canvas and its
geometry), :mod:`~trailkit.solvers.tools.drawing.figure_layers` (edges, nodes, tags),
:mod:`~trailkit.solvers.tools.drawing.steps` (the walk),
:mod:`~trailkit.solvers.tools.drawing.certificate_marks`,
:mod:`~trailkit.solvers.tools.drawing.repair_marks` and
:mod:`~trailkit.solvers.tools.drawing.swatches` (the legend's symbols); this module stacks
them.
"""

from __future__ import annotations

from trailkit.models.puzzle import Puzzle
from trailkit.solvers.tools.drawing.certificate_marks import CertificateMarks
from trailkit.solvers.tools.drawing.figure_layers import FigureLayers
from trailkit.solvers.tools.drawing.frame import framed
from trailkit.solvers.tools.drawing.inspect_marks import InspectMarks
from trailkit.solvers.tools.drawing.repair_marks import RepairMarks
from trailkit.solvers.tools.drawing.scene import SIMPLIFY_EDGES, GraphPicture, U
from trailkit.solvers.tools.drawing.steps import WalkSteps
from trailkit.solvers.tools.drawing.swatches import swatch_arrow, swatch_line

__all__ = ["SIMPLIFY_EDGES", "GraphPicture", "graph_svg"]


#: How much bigger a crowded picture is drawn, tried in turn until it is not crowded.
GROWTH = (1.0, 1.3, 1.7, 2.2, 2.9)


def graph_svg(pic: GraphPicture) -> str:
    """The SVG text of ``pic``; drawn bigger (up to :data:`GROWTH`'s last factor) while a
    badge or a tag finds no clear spot (a tag: none off every line), rather than hiding
    anything."""
    for scale in GROWTH:
        scene = _Scene(pic, scale)
        svg = scene.render(last=scale == GROWTH[-1])
        if not scene.crowded and not scene.tag_on_line:
            break
    return svg


class _Scene(FigureLayers, WalkSteps, CertificateMarks, RepairMarks, InspectMarks):
    """Stacks the layers of one picture in drawing order (see the module docstring)."""

    # ---------------------------------------------------------------- layers
    def render(self, last: bool = True) -> str:
        """Build the layers (the walk and the certificate first: they decide which edges
        fade and which nodes grey out) and stack them in drawing order. Unless it is the
        ``last`` try, stop (with ``""``) as soon as the picture is crowded."""
        p = self.p
        shading = self.certificate_under()
        halos, ghosts = self.repair_marks()
        halos += self.inspect_marks()
        # record what is drawn, to place badges, tags and callouts where nothing is
        self.room.active = not self.simplified
        overlays = self.certificate_over()
        walk_layer = self.walk_layer()
        if self.crowded and not last:
            return ""
        edges = self.edges_layer()
        nodes = self.nodes_layer()
        tags = self.tags_layer()
        callouts = self.callouts_layer()
        self.legend_colours()
        if self.crowded:  # the last try, still too dense: say so rather than hide it
            self.notes.append("Too dense to show every step number clearly even drawn "
                              f"{GROWTH[-1]:g} times bigger; the HTML page (--out "
                              "FILE.html) lists every step.")
        body = "".join([shading, halos, edges, ghosts, nodes, overlays, walk_layer, tags,
                        callouts])
        return self.frame(body, p)

    # ------------------------------------------------------------------ frame
    def legend_colours(self) -> None:
        p = self.p
        used = {p.colour_name(e) for e in range(p.num_edges)} - {None}
        items = []
        for name in p.colour_names:
            if name in used:
                paint = self.paint[name]
                items.append((swatch_line(paint), f"{name} ({paint.letter})"))
        if p.any_directed:
            items.append((swatch_arrow(), "one-way edge"))
        self.legend[:0] = items

    def frame(self, body: str, p: Puzzle) -> str:
        """Title on top, the drawing, notes and legend below (see :func:`framed`)."""
        xs, ys = [q.x for q in self.xy] or [0.0], [q.y for q in self.xy] or [0.0]
        box = [min(xs), min(ys), max(xs), max(ys)]
        pad = 0.75 * U
        drawn = self.room.extent()
        if drawn is not None:  # curves bent around nodes, loops, tags: inside the frame
            keep = pad - 12.0
            box = [min(box[0], drawn.x0 + keep), min(box[1], drawn.y0 + keep),
                   max(box[2], drawn.x1 - keep), max(box[3], drawn.y1 - keep)]
        return framed(body, (box[0], box[1], box[2], box[3]),
                      pad=pad, title=self.pic.title or p.name or "puzzle",
                      notes=self.notes, legend=self.legend,
                      footer=f"layout: {self.layout_method}", kind=p.kind)
