"""JSON Schemas shipped with trailkit, as package data.

``load_schema("spec")`` is the schema every valid puzzle spec validates against, for
editors (the YAML language server reads ``# yaml-language-server: $schema=...``). It is
draft-07, which editors' JSON Schema support reads whatever their age
(yaml-language-server reads drafts 2019-09 and 2020-12 only from its version 1.20;
editors ship older ones). The schemas of trailkit's JSON outputs (draft 2020-12)
live in the same folder, one ``NAME.schema.json`` file each, and load the same way;
:func:`schema_names` lists them.

>>> load_schema("spec")["$schema"]
'http://json-schema.org/draft-07/schema#'
>>> load_schema("result")["$schema"]
'https://json-schema.org/draft/2020-12/schema'
>>> "spec" in schema_names()
True
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from trailkit.models.errors import TrailkitError

__all__ = ["load_schema", "schema_names", "schema_text"]

_PACKAGE = "trailkit.models.schemas"
_SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """The names of the shipped schemas, sorted (``spec``, and those of the outputs)."""
    folder = resources.files(_PACKAGE)
    return sorted(entry.name[:-len(_SUFFIX)] for entry in folder.iterdir()
                  if entry.name.endswith(_SUFFIX))


def schema_text(name: str) -> str:
    """The schema ``name`` as the JSON text shipped (what ``trailkit schema NAME`` prints).

    Raises :class:`TrailkitError` naming the known schemas when there is none by that name.
    """
    names = schema_names()
    if name not in names:
        raise TrailkitError(f"unknown schema {name!r}; choose from {', '.join(names)}")
    return (resources.files(_PACKAGE) / f"{name}{_SUFFIX}").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as a dict (see :func:`schema_text`)."""
    schema: dict[str, Any] = json.loads(schema_text(name))
    return schema
