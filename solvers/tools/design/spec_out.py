"""A designed puzzle written as an ordinary spec: ``layout:``, edges, ``expect:``.

The text says in comments how the puzzle was made (the command's options and seed) and
what was certified about it, so a reader of the file alone knows what it rests on.

>>> from trailkit.solvers.tools.design.fields import grid_field
>>> text = design_spec_text(grid_field(1, 2), (0,), ("red", "blue"), start=0, goal=1,
...                         made="test", claims=("tested",), expect={"status": "solved"})
>>> "  - A B red" in text and "expect: {status: solved}" in text
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trailkit.solvers.tools.design.fields import Field

__all__ = ["design_spec_text", "layout_lines"]


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def layout_lines(field: Field, used: Sequence[int]) -> list[str]:
    """The ``layout:`` block of ``field``'s nodes ``used``: each at its position."""
    return ["layout:"] + [f"  {field.nodes[v]}: [{_number(field.positions[v][0])}, "
                          f"{_number(field.positions[v][1])}]" for v in used]


def design_spec_text(field: Field, colour: Sequence[int], names: Sequence[str], *,
                     start: int, goal: int, made: str, claims: Sequence[str],
                     expect: Mapping[str, object], title: str | None = None) -> str:
    """The spec of ``field`` with pair ``i`` coloured ``names[colour[i]]`` (no plank
    for -1); ``made`` and ``claims`` become its opening comments. Every node keeps its
    place in ``layout:``; when some node has no plank (``--thin``), ``nodes:`` lists
    them all, so that the layout may name it."""
    nodes = field.nodes
    lines = ["trailkit: 1", f'name: "{title or "Designed colour walk (" + field.shape + ")"}"',
             f"# Made by: {made}"]
    lines += [f"# {claim}" for claim in claims]
    lines += ["kind: colour-walk", f"colours: [{', '.join(names)}]",
              f"start: {nodes[start]}", f"goal: {nodes[goal]}"]
    if len({v for pair, c in zip(field.pairs, colour, strict=True) if c >= 0
            for v in pair}) < len(nodes):  # a tyre left without planks keeps its place
        lines.append(f"nodes: [{', '.join(nodes)}]")
    lines += layout_lines(field, range(len(nodes)))
    lines.append("edges:")
    lines += [f"  - {nodes[u]} {nodes[v]} {names[c]}"
              for (u, v), c in zip(field.pairs, colour, strict=True) if c >= 0]
    lines.append("expect: {" + ", ".join(f"{k}: {v}" for k, v in expect.items()) + "}")
    return "\n".join(lines) + "\n"
