"""What ``design colour-walk`` and ``design trail`` share on the command line.

The field (``--layout SHAPE:ROWS,COLS`` or ``--from SPEC``), ``MIN..MAX`` ranges, the
files N designs go to (checked before any search: never over an input, nor over an
existing file without ``--force``), and writing the designs with the exit code: 0 when
every design met every target, 3 otherwise. Every bad option is exit 2 with what to
write.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trailkit.models.errors import TrailkitError
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import Exit
from trailkit.solvers.frontends.cli.output import say
from trailkit.solvers.frontends.presenter.design_options import parse_range

__all__ = ["design_field", "design_files", "parse_range", "write_and_show"]


def design_field(args: argparse.Namespace, shapes: Sequence[str]) -> Any:
    """The field the options name: ``--layout SHAPE:ROWS,COLS`` for one of ``shapes``
    (``hex``, ``grid``), or ``--from SPEC`` (its nodes, layout and edge places)."""
    from trailkit.solvers.frontends.presenter.design_options import DesignAsk, layout_field

    if args.from_spec is None:
        return layout_field(args.layout, shapes)
    from trailkit.models.spec import load_spec

    return DesignAsk(layout=None).field(load_spec(args.from_spec))


def design_files(out: str | None, count: int, inputs: Sequence[str], *,
                 force: bool) -> list[str]:
    """Where ``count`` designs go: ``out``, or FILE-1.yaml ... FILE-N.yaml; each checked
    now (never over an input: the specs ``inputs`` and their side files; nor over a
    file without ``force``)."""
    from trailkit.solvers.support.files import check_outputs, spec_inputs

    if not out:
        raise TrailkitError("design needs --out FILE.yaml: where to write the spec")
    if not 1 <= count <= 1000:
        raise TrailkitError("--count N: from 1 to 1000 designs")
    path = Path(out)
    files = [out] if count == 1 else [
        str(path.with_name(f"{path.stem}-{i}{path.suffix or '.yaml'}"))
        for i in range(1, count + 1)]
    read = [name for spec in inputs for name in spec_inputs(spec, files)]
    check_outputs([(f, "--out") for f in files], read, force=force)
    return files


def write_and_show(made: Sequence[Any], files: list[str], as_json: bool,
                   to_json: Callable[..., Any], to_text: Callable[..., str]) -> int:
    """Write each design that has a text to its file (atomically), say what was made in
    JSON or words (``to_json``, ``to_text``: the presenter's), and pick the exit code:
    0 when every target was met, 3 otherwise."""
    from trailkit.solvers.frontends.presenter.design import overall
    from trailkit.solvers.support.files import atomic_write
    from trailkit.solvers.tools.design.certify_design import DesignStatus

    written: list[str | None] = []
    for m, f in zip(made, files, strict=False):
        if m.text is not None:
            atomic_write(f, m.text)
        written.append(f if m.text is not None else None)
    if as_json:
        output.emit_json(to_json(made, written))
    else:
        say(to_text(made, written))
    return Exit.OK if overall(made) is DesignStatus.DESIGNED else Exit.UNKNOWN
