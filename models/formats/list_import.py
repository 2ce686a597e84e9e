"""Plank lists and domino lists turned into YAML spec text (what ``trailkit import``
writes).

The plank format is the one the Toowoomba tyre puzzle's author used: ``U V colour``
per line, ``#`` comments. Comments are carried into the spec; a plank listed twice
is reported (a transcription slip) and kept once unless asked otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from trailkit.models.errors import Location, SpecError
from trailkit.models.formats.inputs import InputRefused, read_bounded
from trailkit.models.formats.textformats import (
    EdgeLine,
    decode_utf8,
    find_repeats,
    parse_domino_lines,
    parse_edge_lines,
    yaml_text,
)
from trailkit.models.support.hints import did_you_mean

__all__ = ["MAX_LIST_BYTES", "import_dominoes", "import_planks", "in_words"]

MAX_LIST_BYTES = 50 * 1024 * 1024
"""A list over this size is refused: the spec made of it would be over the spec limit."""

def _read(path: str) -> str:
    try:
        data = read_bounded(path, MAX_LIST_BYTES)
    except InputRefused as exc:
        raise SpecError(f"cannot read the file: {exc}; name a plain text file",
                        Location(path)) from None
    return decode_utf8(data, path)


def in_words(option: str) -> str:
    """How a message names one of :func:`import_planks`' settings when no front end says
    how it spells them: ``the colours setting``."""
    return f"the {option.replace('_', ' ')} setting"


def _check_planks(planks: list[EdgeLine], path: str, *, start: str, goal: str,
                  colours: list[str], spell: Callable[[str], str]) -> None:
    """Refuse, with a located :class:`SpecError` saying what to write, a plank list whose
    planks lack a colour or have one not in ``colours`` (or no colours given), or whose
    ``start`` or ``goal`` is no tyre of it."""
    if not colours:
        raise SpecError(f"{spell('colours')} needs at least one colour")
    for plank in planks:
        if plank.colour is None:
            raise SpecError(f"plank '{plank.u} {plank.v}' has no colour; write 'U V colour'",
                            Location(path, plank.line, 1))
        if plank.colour not in colours:
            raise SpecError(f"unknown colour {plank.colour!r}{did_you_mean(plank.colour, colours)}"
                            f"; the colours are {', '.join(colours)} (set them with "
                            f"{spell('colours')})",
                            Location(path, plank.line, 1))
    tyres = {p.u for p in planks} | {p.v for p in planks}
    for option, tyre in (("start", start), ("goal", goal)):
        if tyre not in tyres:
            raise SpecError(f"{spell(option)} {tyre!r} is not a tyre of {path}"
                            f"{did_you_mean(tyre, sorted(tyres))}")


def import_planks(path: str, *, start: str, goal: str, colours: list[str],
                  name: str | None = None, keep_repeats: bool = False,
                  spell: Callable[[str], str] = in_words) -> tuple[str, list[str]]:
    """Return ``(spec_text, warnings)`` for a plank list; raise :class:`SpecError` on bad
    input. Messages name a setting (``colours``, ``start``, ``goal``, ``keep_repeats``)
    as ``spell`` spells it: the command line passes its flags."""
    text = _read(path)
    planks = parse_edge_lines(text, path)
    _check_planks(planks, path, start=start, goal=goal, colours=colours, spell=spell)
    warnings = []
    dropped = set()
    for first, repeat in find_repeats(planks):
        action = f"kept both ({spell('keep_repeats')})" if keep_repeats else "kept once"
        warnings.append(f"{path}:{repeat.line}: warning: plank '{repeat.u} {repeat.v} "
                        f"{repeat.colour}' repeats line {first.line}; {action}")
        if not keep_repeats:
            dropped.add(repeat.line)

    out = ["trailkit: 1",
           f"name: {yaml_text(name or Path(path).stem)}",
           "description: " + yaml_text(f"Imported from {Path(path).name} by trailkit import"),
           "kind: colour-walk",
           f"colours: [{', '.join(yaml_text(c) for c in colours)}]",
           f"start: {yaml_text(start)}",
           f"goal: {yaml_text(goal)}",
           "edges:"]
    by_line = {p.line: p for p in planks}
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            out.append(f"  {stripped}")
        elif number in by_line and number not in dropped:
            p = by_line[number]
            out.append(f"  - {yaml_text(f'{p.u} {p.v} {p.colour}')}")
    return "\n".join(out) + "\n", warnings


def import_dominoes(path: str, *, name: str | None = None,
                    closed: bool = True) -> tuple[str, list[str]]:
    """Return ``(spec_text, warnings)`` for a domino list (``1 2`` or ``1|2`` per line)."""
    dominoes = parse_domino_lines(_read(path), path)
    warnings = [f"{path}:{repeat.line}: note: domino {repeat.u}|{repeat.v} repeats line "
                f"{first.line} (kept: a set may hold two alike)"
                for first, repeat in find_repeats(dominoes)]
    items = ", ".join(f"[{yaml_text(d.u)}, {yaml_text(d.v)}]" for d in dominoes)
    out = ["trailkit: 1",
           f"name: {yaml_text(name or Path(path).stem)}",
           "kind: domino-chain",
           f"closed: {'true' if closed else 'false'}",
           f"dominoes: [{items}]"]
    return "\n".join(out) + "\n", warnings
