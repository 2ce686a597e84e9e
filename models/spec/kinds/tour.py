"""Kind ``tour``: shorthand for a ``walk`` that visits every node once and uses each
edge at most once, closed unless ``closed: false`` (a Hamiltonian cycle, the Icosian
game; or a Hamiltonian path). Its ``visit`` is fixed; ``via``, ``avoid`` and ``at`` are
read with the other node rules (:mod:`~trailkit.models.spec.node_rules`).

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("edges: [a b, b c, c a]\\n", "s.yaml")
>>> rules = lower_tour(reader, reader.mapping(root, "the spec"), root)
>>> rules["use"].value, rules["closed"]
('at-most-once', True)
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.puzzle import EdgeUse
from trailkit.models.spec.kinds.walk import lower_walk
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries

__all__ = ["lower_tour"]


def lower_tour(reader: SpecReader, top: Entries, root: yaml.Node) -> dict[str, Any]:
    """The :class:`Puzzle` fields of a ``tour`` spec's mapping ``top``."""
    return lower_walk(reader, top, root, use=EdgeUse.AT_MOST_ONCE, closed=True)
