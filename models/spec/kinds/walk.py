"""Kind ``walk``: the general walk: how often edges may be used (``use``), an optional
colour rule and ``first`` colours, ends, ``closed``, and what to look for
(``objective``: any walk, the shortest, the longest).

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("edges: [a -> b, b c]\\nuse: any\\nobjective: shortest\\n", "s.yaml")
>>> rules = lower_walk(reader, reader.mapping(root, "the spec"), root)
>>> rules["directed"], rules["use"].value, rules["objective"].value
([True, False], 'any', 'shortest')
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.puzzle import EdgeUse, Objective
from trailkit.models.spec.colours import check_rule_colours, read_first, read_rule
from trailkit.models.spec.edges import read_edges
from trailkit.models.spec.endpoints import read_ends, read_goal
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries

__all__ = ["lower_walk"]


def lower_walk(reader: SpecReader, top: Entries, root: yaml.Node, *,
               use: EdgeUse | None = None, closed: bool = False) -> dict[str, Any]:
    """The :class:`Puzzle` fields of a ``walk`` spec's mapping ``top``: ``use`` when the
    spec gives none (by default exactly-once, or at-most-once under a ``visit`` rule
    other than ``any``), ``closed`` when it does not say."""
    if use is None:
        visit = top["visit"][1] if "visit" in top else None
        use = EdgeUse.AT_MOST_ONCE if isinstance(visit, yaml.ScalarNode) and visit.value in (
            "at-most-once", "every-once") else EdgeUse.EXACTLY_ONCE
    rule = reader.guard("colours", None, lambda: read_rule(reader, top["colours"][1])) \
        if "colours" in top else None
    graph = read_edges(reader, top, root, palette=rule.names if rule else None,
                       need_colour=rule is not None)
    check_rule_colours(reader)
    if "use" in top:
        use = reader.guard("use", use, lambda: EdgeUse(reader.choice(
            top["use"][1], "use", tuple(u.value for u in EdgeUse))))
    objective = reader.guard("objective", Objective.ANY, lambda: Objective(reader.choice(
        top["objective"][1], "objective", tuple(o.value for o in Objective)))) \
        if "objective" in top else Objective.ANY
    if objective is Objective.LONGEST and use is not EdgeUse.AT_MOST_ONCE:
        reader.record(reader.fail(top["objective"][1], "objective 'longest' needs 'use: "
                                  "at-most-once' (with reusable edges a walk can be as long "
                                  "as you like)"), "objective")
    if "first" in top and rule is None and "colours" not in top:
        reader.record(reader.fail(top["first"][0], "'first' needs a colour rule; add "
                                  "'colours:'"))
    return {**graph, "use": use, "colours": rule, "objective": objective,
            "first": read_first(reader, top, rule) if rule else None,
            "closed": reader.flag(top, "closed", closed),
            "start": read_ends(reader, top, "start"), "end": read_goal(reader, top),
            **({"colour_names": rule.names} if rule else {})}
