"""Pictures of puzzles, walks, certificates and repairs: SVG text, PNG bytes, an HTML page.

The public calls return data, never files: :func:`draw_svg` gives the SVG text (a
notebook shows it with ``IPython.display.SVG(draw_svg(puzzle, answer))``),
:func:`render_png` turns that text into PNG bytes, and :func:`html_page` wraps it in
one self-contained page with a step control. The command line
(``trailkit draw``) only chooses among them and writes the file.

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.pipeline import solve
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> svg = draw_svg(p, solve(p))
>>> svg.count('class="step"'), svg.count('class="node"')
(3, 3)
"""

from __future__ import annotations

from trailkit.models.answer import Answer, Certificate, Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.walk_words import walk_noun, walk_size
from trailkit.solvers.tools.drawing.board_picture import board_of, board_svg
from trailkit.solvers.tools.drawing.emphasis import EdgeMark, Emphasis
from trailkit.solvers.tools.drawing.graph import GraphPicture, graph_svg
from trailkit.solvers.tools.drawing.html import html_page
from trailkit.solvers.tools.drawing.inspect_view import GivenMark, InspectMark, InspectView
from trailkit.solvers.tools.drawing.png import render_png

__all__ = ["EdgeMark", "Emphasis", "GivenMark", "InspectMark", "InspectView", "draw_svg",
           "html_page", "render_png"]


def draw_svg(puzzle: Puzzle, answer: Answer | None = None, *,
             certificate: Certificate | None = None, emphasis: Emphasis | None = None,
             title: str | None = None, simplify: bool | None = None,
             inspect: InspectView | None = None) -> str:
    """The SVG text of ``puzzle``: with ``answer``'s walk on top when it is solved (an
    unsolvable or unknown answer adds a line saying so), ``certificate``'s argument drawn
    over it (by default an unsolvable answer's own certificate, as
    ``trailkit draw --solve`` shows it), ``emphasis`` marking what a repair changed,
    and ``inspect`` the edges ``trailkit inspect`` found critical or costly.

    ``simplify`` draws the edges as one path per colour and the nodes as unlabelled dots
    (``None``: only past :data:`~trailkit.solvers.tools.drawing.graph.SIMPLIFY_EDGES` edges);
    a note in the picture says so.

    A puzzle on a ``board:`` is drawn as the board: cells, a walk's positions written in
    them (:mod:`~trailkit.solvers.tools.drawing.board_picture`). Domino chains are drawn as tiles
    with pips (a ring or a line in the walk's order,
    or the set as given); with a certificate, as the graph of pip values, where the
    argument lives.
    """
    walk = answer.walk if answer is not None and answer.status is Status.SOLVED else None
    if certificate is None and answer is not None and answer.status is Status.UNSOLVABLE:
        certificate = answer.certificate
    notes = [] if answer is None else [_answer_line(puzzle, answer, certificate)]
    plain = certificate is None and emphasis is None and inspect is None
    if puzzle.kind == "domino-chain" and plain:
        from trailkit.solvers.tools.drawing.dominoes import domino_svg

        return domino_svg(puzzle, walk, title=title, notes=notes)
    # a board stays a board when inspected: what inspect found is marked on its cells
    board = board_of(puzzle) if certificate is None and emphasis is None else None
    if board is not None:
        return board_svg(puzzle, board, walk, title=title, notes=notes, inspect=inspect)
    if inspect is not None and inspect.caption:  # a tour puzzle's findings, in words
        notes.append(inspect.caption)
    return graph_svg(GraphPicture(puzzle, walk, certificate, emphasis, title, notes, simplify,
                                  inspect))


def _answer_line(puzzle: Puzzle, answer: Answer, drawn: Certificate | None) -> str:
    """One sentence about the answer, under the title (without the certificate's
    explanation when the ``drawn`` certificate's picture says it)."""
    if answer.status is Status.SOLVED and answer.walk is not None:
        walk = answer.walk
        names = puzzle.nodes
        if puzzle.kind == "domino-chain":
            shape = "ring" if puzzle.closed else "line"
            tiles = f"all {len(walk)} dominoes" if len(walk) > 1 else "the one domino"
            return f"A {shape} of {tiles} (verified)."
        if not len(walk):
            return f"The empty walk at {names[walk.nodes[0]]} solves it (verified)."
        return (f"{walk_noun(puzzle, answer)}: {walk_size(puzzle, len(walk))} from "
                f"{names[walk.nodes[0]]} to {names[walk.nodes[-1]]}"
                + (", verified." if answer.verified else "."))
    if answer.status is Status.UNSOLVABLE:
        if drawn is not None and drawn is answer.certificate:
            return "No walk exists."
        why = answer.certificate.explanation if answer.certificate else answer.reason
        return f"No walk exists. {why}".strip()
    return f"No answer: {answer.reason or 'a limit was reached'}."
