"""DIMACS export with readable variable names, and reading a solver's model back.

``to_dimacs(puzzle)`` writes the formula trailkit itself solves for exactly-once
puzzles (``#edges`` steps) and, for the other rules, the prefix formula for walks of
1..H steps (see :mod:`trailkit.solvers.backends.sat.search`); for node rules
``node-positions-v1`` (:mod:`trailkit.models.formulas.node_positions`); with ``c`` lines
such as ``c 17 = edge 3 at position 2, orientation 1 (b->a)``. Any SAT solver's output
(``v`` lines, as in the SAT competition format) turns back into a walk with
:func:`walk_from_model`.

>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(kind="trail", edges=[("a", "b"), ("b", "c")])
>>> text = to_dimacs(p)
>>> walk_from_model(p, text, "s SATISFIABLE\\nv 1 -2 -3 -4 -5 -6 7 -8 0\\n").edges
(0, 1)
"""

from __future__ import annotations

import re

from trailkit.models.answer import Walk
from trailkit.models.checking.drup import cnf_text
from trailkit.models.errors import Location, SpecError, TrailkitError
from trailkit.models.formulas.node_positions import encode_node_prefix, node_horizon
from trailkit.models.formulas.position_encoding import ENCODING_NAME, VarMap, encode, encode_prefix
from trailkit.models.puzzle import EdgeUse, Puzzle
from trailkit.solvers.backends.sat.search import empty_walk, horizon

__all__ = ["encode_for_export", "parse_model", "to_dimacs", "walk_from_model"]


def encode_for_export(puzzle: Puzzle) -> tuple[list[list[int]], VarMap]:
    """The formula :func:`to_dimacs` writes (raises :class:`TrailkitError` if none is needed)."""
    h = node_horizon(puzzle) if puzzle.has_node_rules else horizon(puzzle)[0]
    if h == 0:
        raise TrailkitError("no edge can be taken, so there is no formula to export")
    if puzzle.has_node_rules:
        clauses, vmap = encode_node_prefix(puzzle, h)
        return [*clauses, [vmap.active[0]]], vmap
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return encode(puzzle, h)
    clauses, vmap = encode_prefix(puzzle, h)
    return [*clauses, [vmap.active[0]]], vmap


def to_dimacs(puzzle: Puzzle) -> str:
    """DIMACS CNF text with ``c`` lines naming every primary variable."""
    clauses, vmap = encode_for_export(puzzle)
    name = "node-positions-v1" if puzzle.has_node_rules else ENCODING_NAME
    head = [f"c trailkit {name} encoding of {puzzle.name or 'a walk puzzle'}",
            f"c {vmap.length} steps, cardinality encoding {vmap.cardinality}"
            + (", symmetry broken (step 0 is edge 0)" if vmap.symmetry else "")]
    if puzzle.use is not EdgeUse.EXACTLY_ONCE:
        head.append("c walks of 1.." + str(vmap.length) + " steps; the solver does not "
                    "minimise length")
    if empty_walk(puzzle) is not None:
        head.append("c note: the empty walk is also a solution")
    head += [f"c {v} = {vmap.describe(puzzle, v)}" for v in sorted(vmap.steps)]
    head += [f"c {v} = {vmap.describe(puzzle, v)}" for v in vmap.active]
    held = vmap.meta.get("positions")
    if isinstance(held, dict):  # the node literals of node-positions-v1
        head += [f"c {v} = node {puzzle.nodes[node]} at position {i + 1}"
                 for v, (node, i) in sorted(held.items())]
    return "\n".join(head) + "\n" + cnf_text(vmap.num_vars, clauses)


def parse_model(model_text: str, source: str = "<model>") -> list[int]:
    """The literals of a solver's output: ``v`` lines, or a bare list of integers.

    A token that is no literal is a :class:`SpecError` at its line and column of
    ``source``.
    """
    lines = model_text.splitlines()
    if any(line.startswith("s ") and "UNSAT" in line for line in lines):
        raise TrailkitError("the solver output says UNSATISFIABLE: there is no model to read")
    has_v = any(line.startswith("v") for line in lines)
    literals = []
    for number, line in enumerate(lines, start=1):
        if has_v and not line.startswith("v"):
            continue
        if not has_v and line.startswith(("c", "s")):
            continue
        body, offset = (line[1:], 2) if has_v else (line, 1)
        for match in re.finditer(r"\S+", body):
            token = match.group()
            if not re.fullmatch(r"-?[0-9]{1,12}", token):
                raise SpecError(f"cannot read {token[:40]!r} as a literal (a model lists "
                                "numbers such as 'v 1 -2 3 0')",
                                Location(source, number, match.start() + offset))
            if token != "0":
                literals.append(int(token))
    return literals


def walk_from_model(puzzle: Puzzle, dimacs_or_varmap: str | VarMap | None,
                    model_text: str, source: str = "<model>") -> Walk:
    """Read a model (``v`` lines) of :func:`to_dimacs`'s formula back into a walk.

    ``dimacs_or_varmap`` may be the exported text (unused beyond a sanity check of
    the header), a :class:`VarMap`, or ``None``: the map is re-derived from the puzzle.
    The walk is not verified here: the caller passes it to ``verify``.
    """
    if isinstance(dimacs_or_varmap, VarMap):
        vmap = dimacs_or_varmap
    else:
        _, vmap = encode_for_export(puzzle)
        if isinstance(dimacs_or_varmap, str) and f"p cnf {vmap.num_vars} " not in dimacs_or_varmap:
            raise TrailkitError("the DIMACS file was not exported from this puzzle")
    try:
        return vmap.decode(puzzle, parse_model(model_text, source))
    except ValueError as exc:
        raise TrailkitError(f"the model in {source} is not a walk of this puzzle: {exc}"
                            ) from exc
