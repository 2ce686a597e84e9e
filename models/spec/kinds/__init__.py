"""One lowering per kind: each turns a spec's top-level mapping into the fields of a
:class:`~trailkit.models.puzzle.Puzzle`, reading the keys its kind has.

>>> sorted(LOWERINGS)
['colour-walk', 'domino-chain', 'tour', 'trail', 'walk']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from trailkit.models.spec.kinds.colour_walk import lower_colour_walk
from trailkit.models.spec.kinds.domino_chain import lower_dominoes
from trailkit.models.spec.kinds.tour import lower_tour
from trailkit.models.spec.kinds.trail import lower_trail
from trailkit.models.spec.kinds.walk import lower_walk
from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.typed import Entries

__all__ = ["LOWERINGS", "Lowering"]

Lowering = Callable[[SpecReader, Entries, yaml.Node], dict[str, Any]]
"""``lower(reader, top, root) -> Puzzle fields`` (``root``: where a missing key is located)."""

LOWERINGS: dict[str, Lowering] = {
    "trail": lower_trail,
    "domino-chain": lower_dominoes,
    "colour-walk": lower_colour_walk,
    "walk": lower_walk,
    "tour": lower_tour,
}
