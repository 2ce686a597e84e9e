"""The node-and-edge picture: tyres and planks, one-stroke figures, certificate views.

Layers, bottom to top: component shading, repair halos, edges (each in its colour and
dash pattern), nodes with their labels, certificate marks, the walk (one group per step:
a dark line with a white casing, an arrowhead and a numbered badge), start/goal tags,
the repair's callouts (``added``, ``was blue``, ``removed``), then the title, notes and
legend. Every node is a ``<g class="node" data-node=NAME>``, every edge a ``<g
class="edge" data-edge=INDEX>``, every walk step a ``<g class="step" data-step=N
data-edge=INDEX>`` and every callout a ``<g class="callout" data-for=added|recoloured|
removed>``, so tests and the HTML page find them by meaning, not by position.

Each layer records what it draws in an
:class:`~trailkit.solvers.tools.drawing.placement.Occupancy`; the callouts, placed last, go
where nothing is drawn: never on a node, a badge, an arrowhead, a tag or each other.

Geometry is in pixels with y pointing down; the unit ``U`` is the typical edge length.
A tyre revisited by the walk gets one more ring per revisit (as the tyre puzzle's author
drew it); the walk's lines stop at the outermost ring so no arrowhead hides under a node.

The pieces: :mod:`~trailkit.solvers.tools.drawing.scene` (the shared canvas and its
geometry), :mod:`~trailkit.solvers.tools.drawing.figure_layers` (edges, nodes, walk, tags),
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
from trailkit.solvers.tools.drawing.repair_marks import RepairMarks
from trailkit.solvers.tools.drawing.scene import SIMPLIFY_EDGES, GraphPicture, U
from trailkit.solvers.tools.drawing.swatches import swatch_arrow, swatch_line

__all__ = ["SIMPLIFY_EDGES", "GraphPicture", "graph_svg"]


def graph_svg(pic: GraphPicture) -> str:
    """The SVG text of ``pic``."""
    return _Scene(pic).render()


class _Scene(FigureLayers, CertificateMarks, RepairMarks):
    """Stacks the layers of one picture in drawing order (see the module docstring)."""

    # ---------------------------------------------------------------- layers
    def render(self) -> str:
        """Build the layers (the walk and the certificate first: they decide which edges
        fade and which nodes grey out) and stack them in drawing order."""
        p = self.p
        shading = self.certificate_under()
        halos, ghosts = self.repair_marks()
        self.room.active = bool(self.callouts)  # record what is drawn only to place them
        overlays = self.certificate_over()
        walk_layer = self.walk_layer()
        edges = self.edges_layer()
        nodes = self.nodes_layer()
        tags = self.tags_layer()
        callouts = self.callouts_layer()
        self.legend_colours()
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
        return framed(body, (min(xs), min(ys), max(xs), max(ys)),
                      pad=0.75 * U, title=self.pic.title or p.name or "puzzle",
                      notes=self.notes, legend=self.legend,
                      footer=f"layout: {self.layout_method}", kind=p.kind)
