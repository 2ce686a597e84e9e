"""Kind ``colour-walk``: the shortest walk from ``start`` to ``goal`` whose edge colours
follow the colour rule (red, blue, green by default), edges reusable.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("edges: [a b red, b c blue]\\nstart: a\\ngoal: c\\n", "s.yaml")
>>> rules = lower_colour_walk(reader, reader.mapping(root, "the spec"), root)
>>> rules["colour"], rules["colours"].names, rules["start"], rules["end"]
([0, 1], ('red', 'blue', 'green'), frozenset({0}), frozenset({2}))
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.puzzle import ColourRule, EdgeUse, Objective
from trailkit.models.spec.colours import check_rule_colours, read_first, read_rule
from trailkit.models.spec.edges import read_edges
from trailkit.models.spec.endpoints import read_ends, read_goal
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries
from trailkit.models.spec.vocabulary import DEFAULT_COLOURS

__all__ = ["lower_colour_walk"]


def lower_colour_walk(reader: SpecReader, top: Entries, root: yaml.Node) -> dict[str, Any]:
    """The :class:`Puzzle` fields of a ``colour-walk`` spec's mapping ``top``."""
    rule: ColourRule | None = ColourRule.from_cycle(DEFAULT_COLOURS)
    if "colours" in top:  # a list is the cyclic order; the walk kind's mappings work too
        rule = reader.guard("colours", None, lambda: read_rule(reader, top["colours"][1]))
    # With an unreadable rule, edge colours and `first` cannot be checked against it.
    graph = read_edges(reader, top, root, palette=rule.names if rule else None,
                       need_colour=True)
    check_rule_colours(reader)
    for key in ("start", "goal"):
        if key not in top and not (key == "goal" and "end" in top):
            reader.record(reader.fail(root, f"missing required key {key!r} for kind "
                                      "'colour-walk'"))
    return {**graph, "use": EdgeUse.ANY, "colours": rule,
            "colour_names": rule.names if rule else (),
            "first": read_first(reader, top, rule) if rule else None,
            "start": read_ends(reader, top, "start"), "end": read_goal(reader, top),
            "objective": Objective.SHORTEST}
