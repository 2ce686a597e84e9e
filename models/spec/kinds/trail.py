"""Kind ``trail``: every edge exactly once (a one-stroke figure), optionally closed and
with fixed ends.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> reader = SpecReader("s.yaml", None, 100)
>>> root = compose("edges: [a b, b c]\\nstart: a\\n", "s.yaml")
>>> rules = lower_trail(reader, reader.mapping(root, "the spec"), root)
>>> rules["tail"], rules["head"], rules["closed"], rules["start"], rules["end"]
([0, 1], [1, 2], False, frozenset({0}), None)
"""

from __future__ import annotations

from typing import Any

import yaml

from trailkit.models.puzzle import EdgeUse
from trailkit.models.spec.edges import read_edges
from trailkit.models.spec.endpoints import read_ends
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries

__all__ = ["lower_trail"]


def lower_trail(reader: SpecReader, top: Entries, root: yaml.Node) -> dict[str, Any]:
    """The :class:`Puzzle` fields of a ``trail`` spec's mapping ``top``."""
    graph = read_edges(reader, top, root, palette=None)
    return {**graph, "use": EdgeUse.EXACTLY_ONCE,
            "closed": reader.flag(top, "closed", False),
            "start": read_ends(reader, top, "start"), "end": read_ends(reader, top, "end")}
