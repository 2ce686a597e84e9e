"""A walk in words, the block ``solve`` prints: on one line when it fits, else ten
steps a line, each line led by the number of its first step (right-aligned).

One home for every walk a command shows, the answer's own and a second one (``solve
--unique`` on a puzzle with another solution, ``prove --claim unique``): a domino
chain reads as dominoes ``[3|5] [5|5]``, a walk as ``A -red-> E``, with the edge's id
where parallel edges would leave a step ambiguous; its size in the puzzle's unit is
:func:`~trailkit.models.walk_words.walk_size` (``28 dominoes``), as the
pictures say it.

>>> from trailkit.models.answer import Walk
>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: domino-chain\\ndominoes: [1 2, 2 3]\\n")
>>> walk_block(p, Walk((0, 1, 2), (0, 1)))
['  [1|2] [2|3]']
"""

from __future__ import annotations

from trailkit.models.answer import Walk
from trailkit.models.puzzle import Puzzle
from trailkit.models.walk_words import walk_size

__all__ = ["LINE_WIDTH", "STEPS_PER_LINE", "walk_block", "walk_size"]

STEPS_PER_LINE = 10
LINE_WIDTH = 88


def _ambiguous_edges(puzzle: Puzzle) -> set[int]:
    """Edges that share both ends with another edge: a step along one needs its id."""
    seen: dict[tuple[int, int], list[int]] = {}
    for e in range(puzzle.num_edges):
        u, v = puzzle.tail[e], puzzle.head[e]
        seen.setdefault((min(u, v), max(u, v)), []).append(e)
    return {e for group in seen.values() if len(group) > 1 for e in group}


def _step_texts(puzzle: Puzzle, walk: Walk) -> list[str]:
    """One short text per step: ``[3|5]`` for a domino, ``-red-> E`` for a walk (with
    the edge id where parallel edges would leave the step ambiguous)."""
    names = puzzle.nodes
    if puzzle.kind == "domino-chain":
        return [f"[{names[walk.nodes[i]]}|{names[walk.nodes[i + 1]]}]"
                for i in range(len(walk.edges))]
    ambiguous = _ambiguous_edges(puzzle)
    out = []
    for i, e in enumerate(walk.edges):
        colour = puzzle.colour_name(e)
        label = "-".join(x for x in (colour, f"#{puzzle.edge_id(e)}" if e in ambiguous
                                     else None) if x)
        arrow = f"-{label}->" if label else "->"
        out.append(f"{arrow} {names[walk.nodes[i + 1]]}")
    return out


def walk_block(puzzle: Puzzle, walk: Walk) -> list[str]:
    """The walk as text lines indented two spaces: on one line when it fits, else ten
    steps a line, each line starting with the number of its first step."""
    if not walk.nodes:
        return ["  the empty walk"]
    steps = _step_texts(puzzle, walk)
    start = "" if puzzle.kind == "domino-chain" else puzzle.nodes[walk.nodes[0]] + " "
    one_line = (start + " ".join(steps)).strip()
    if len(one_line) + 2 <= LINE_WIDTH:
        return ["  " + one_line]
    width = len(f"{len(steps):,}")
    lines = [f"  {'start':>{width}}: {start.strip()}"] if start else []
    for first in range(0, len(steps), STEPS_PER_LINE):
        chunk = " ".join(steps[first:first + STEPS_PER_LINE])
        lines.append(f"  {first + 1:>{width},}: {chunk}")
    return lines

