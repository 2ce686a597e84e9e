"""An answer's JSON as plain data: what a reader of the printed document gets back.

The presenter's JSON holds each walk's ``steps`` as a
:class:`~trailkit.models.formats.jsontext.StepsJson`, written from the walk's arrays when
printed; the workshop (which sends JSON over HTTP) and the tests want the list itself.
"""

from __future__ import annotations

from typing import Any

import orjson

from trailkit.models.formats.jsontext import StepsJson

__all__ = ["plain_json"]


def plain_json(obj: Any) -> Any:
    """``obj`` with every :class:`~trailkit.models.formats.jsontext.StepsJson` in it replaced by
    the list its text decodes to: the document as a reader of the output sees it (what
    the test suite validates against the schemas)."""
    if isinstance(obj, StepsJson):
        return orjson.loads(obj.to_bytes())
    if isinstance(obj, dict):
        return {key: plain_json(value) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain_json(value) for value in obj]
    return obj
