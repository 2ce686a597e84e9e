"""``trailkit schema NAME``: print the JSON Schema of an output format (draft 2020-12),
or of the spec language (``spec``, draft-07: what every editor's YAML support reads),
for editors and for scripts that check what they read.

The schemas are data files shipped inside the package (``trailkit/models/schemas/``):
``result``, ``count``, ``prove``, ``check``, ``compare``, ``repair``, ``explain``,
``lint``, ``error`` and ``spec``. The test suite validates every JSON output it sees against
them.
"""

from __future__ import annotations

import argparse
from typing import Any

from trailkit.models.schemas import load_schema, schema_text
from trailkit.solvers.frontends.cli.options import Exit, examples
from trailkit.solvers.frontends.cli.output import write_raw

__all__ = ["SCHEMA_NAMES", "load_output_schema", "register", "schema_for_format"]

#: Every schema ``trailkit schema`` prints, in the order ``--help`` lists them.
SCHEMA_NAMES = ("spec", "result", "count", "prove", "check", "compare", "report", "repair",
                "explain", "lint", "error", "inspect",
                "design")


def load_output_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` as a dict."""
    return load_schema(name)


def schema_for_format(fmt: str) -> str | None:
    """The schema name of a ``format`` value: ``trailkit-result/1`` -> ``result``."""
    stem = fmt.removeprefix("trailkit-").partition("/")[0]
    return stem if stem in SCHEMA_NAMES else None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``schema``."""
    p = sub.add_parser("schema", help="print the JSON Schema of an output format or of specs",
                       description="Print a JSON Schema. 'spec' describes the spec language, "
                       "in draft-07 for editors (hook it to one: '# yaml-language-server: "
                       "$schema=spec.schema.json'); the others describe what --json prints "
                       "(draft 2020-12).",
                       **examples("trailkit schema spec > spec.schema.json",
                                  "trailkit schema result"))
    p.add_argument("name", choices=SCHEMA_NAMES, metavar="NAME",
                   help="one of " + ", ".join(SCHEMA_NAMES))
    p.set_defaults(run=cmd_schema)


def cmd_schema(args: argparse.Namespace) -> int:
    write_raw(schema_text(args.name))
    return Exit.OK
