"""JSON Schemas (draft 2020-12) shipped with trailkit, as package data.

The schemas are data files in the folder ``schemas/`` next to this module (inside the
``trailkit.models`` package), one ``NAME.schema.json`` each: ``spec``, the schema every
valid puzzle spec validates against (for editors: the YAML language server reads
``# yaml-language-server: $schema=...``), and those of trailkit's JSON outputs. They
all load the same way, by name; :func:`schema_names` lists them.

>>> load_schema("spec")["$schema"]
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

_PACKAGE = "trailkit.models"
_FOLDER = "schemas"
_SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """The names of the shipped schemas, sorted (``spec``, and those of the outputs)."""
    folder = resources.files(_PACKAGE).joinpath(_FOLDER)
    return sorted(entry.name[:-len(_SUFFIX)] for entry in folder.iterdir()
                  if entry.name.endswith(_SUFFIX))


def schema_text(name: str) -> str:
    """The schema ``name`` as the JSON text shipped (what ``trailkit schema NAME`` prints).

    Raises :class:`TrailkitError` naming the known schemas when there is none by that name.
    """
    names = schema_names()
    if name not in names:
        raise TrailkitError(f"unknown schema {name!r}; choose from {', '.join(names)}")
    return resources.files(_PACKAGE).joinpath(_FOLDER, f"{name}{_SUFFIX}").read_text(
        encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as a dict (see :func:`schema_text`)."""
    schema: dict[str, Any] = json.loads(schema_text(name))
    return schema
