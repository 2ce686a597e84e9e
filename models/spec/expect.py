"""``expect:``: what the author says the answer is, for checking the solvers against.

>>> from trailkit.models.spec.composing import compose
>>> from trailkit.models.spec.state import SpecReader
>>> read_expect(SpecReader("s.yaml", None, 100), compose("{status: solved, solutions: 88}",
...                                                       "s.yaml"))
{'status': 'solved', 'solutions': 88}
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import yaml

from trailkit.models.spec.state import SpecReader
from trailkit.models.spec.vocabulary import EXPECT_KEYS

__all__ = ["read_expect"]

_STATUSES = ("solved", "unsolvable", "unknown")


def read_expect(reader: SpecReader, node: yaml.Node) -> dict[str, Any]:
    """The ``expect:`` mapping: a status and whole numbers; each bad entry is recorded
    and left out."""
    entries = reader.mapping(node, "expect")
    reader.check_keys(entries, EXPECT_KEYS, "expect", "expect", keep_going=True)
    out: dict[str, Any] = {}
    for key, (_, value) in entries.items():
        path = f"expect.{key}"
        read: Callable[[], Any] = (partial(reader.choice, value, path, _STATUSES)
                                   if key == "status" else partial(reader.integer, value, path))
        result = reader.guard(path, None, read)
        if result is not None:
            out[key] = result
    return out
