"""``inspect --out DIR``: each critical and costly edge's certificate, as files to check,
and each redundant given's.

An edge is critical when the puzzle without it has no walk, costly when its shortest walk
is longer; both are claims about a puzzle no file holds. So for each such edge ``E`` the
folder gets that puzzle as a spec, ``without-E.yaml`` (the author's spec with the edge's
item taken out of ``edges:``, commented out in a block list, and a comment at the top
saying so), and its certificate, ``without-E.json`` (``trailkit-certificate/1``: the
claim ``unsolvable``, or ``shortest`` with its ``length``), made against that spec as
read back from its own text, so the two always agree (edge ids included; a node only
that edge touched is kept: ``nodes:`` then lists them all);
``trailkit check-certificate DIR/without-E.yaml DIR/without-E.json`` checks it with
nothing of the inspection trusted. A DRUP certificate's proof goes to a side file beside
it (``without-E.drat``), as ``prove --out`` writes one. An edge whose certificate could
not be made gets no files; :class:`InspectFiles` says which and why (so does every edge
of a spec whose edges are not an inline list: a ``board:``'s). A redundant given ``G``
(see :mod:`.node_inspection`) gets ``without-given-G.yaml``, the spec with its one-line
``at:`` written again without it, and ``without-given-G.json``, the ``unique`` claim.

>>> from trailkit.models.spec import load_spec_text
>>> from trailkit.solvers.tools.design.inspection import inspect_puzzle
>>> text = "trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a, a d]\\n"
>>> p = load_spec_text(text)
>>> made = inspection_files(p, text, inspect_puzzle(p), "p.yaml")
>>> sorted(made.files)
['without-1.json', 'without-1.yaml']
>>> made.files["without-1.yaml"].splitlines()[-1]
'edges: [a b,  c a, a d]'
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from trailkit.models.answer import Certificate
from trailkit.models.checking.certificates import check_certificate
from trailkit.models.errors import SpecError
from trailkit.models.formats.textformats import yaml_text
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.base import NO_LIMITS, Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline.certify import find_certificate
from trailkit.solvers.pipeline.claims import found_shortest_claim
from trailkit.solvers.pipeline.proving import certificate_files, claim_document
from trailkit.solvers.tools.design.inspection import Inspection, without_edge
from trailkit.solvers.tools.repair.changes import Change, Op
from trailkit.solvers.tools.repair.specedit import apply_edits, change_edits

__all__ = ["FILE_PATTERN", "InspectFiles", "edges_inline", "inspection_files"]

FILE_PATTERN = re.compile(r"without-.+\.(yaml|json|drat|lrat|proof)")
"""The names of the files ``inspect --out`` writes (and replaces, with ``--force``)."""


@dataclass(frozen=True)
class InspectFiles:
    """The folder's files (name to text) and, for each edge given none, why (its id to
    the reason)."""

    files: dict[str, str] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


def edges_inline(puzzle: Puzzle, text: str) -> str:
    """Why ``inspect --out`` cannot write specs without an edge from ``text`` (the spec
    of ``puzzle``): its edges are not an inline YAML list (empty: they are)."""
    try:
        change_edits(text, puzzle, [])
    except ValueError as exc:
        return str(exc)
    return ""


def inspection_files(puzzle: Puzzle, text: str, result: Inspection, spec: str,
                     limits: Limits = NO_LIMITS) -> InspectFiles:
    """The files of ``inspect --out`` for ``result`` (the inspection of ``puzzle``, whose
    spec is ``text``, from the file named ``spec``): see the module docstring."""
    made = InspectFiles()
    why = edges_inline(puzzle, text)
    for finding in (*result.critical, *result.costly):
        if why:  # a board's edges, or a side file: no spec without one edge is written
            made.missing[str(puzzle.edge_id(finding.edge))] = why
            continue
        ident = str(puzzle.edge_id(finding.edge))
        name = f"without-{_safe(ident)}"
        if f"{name}.yaml" in made.files:  # two ids alike once made safe: the index too
            name += f"-{finding.edge}"
        reduced = _reduced_text(puzzle, text, finding.edge, spec)
        try:
            less = load_spec_text(reduced)
        except SpecError as exc:  # a bug in the text edits: said, never a bad file
            made.missing[ident] = f"the spec without it does not read back: {exc}"
            continue
        if without_edge(puzzle, finding.edge).num_edges != less.num_edges:
            made.missing[ident] = "the spec without it does not have one edge fewer"
            continue
        document = _document(less, finding.length_without, f"{name}.yaml", limits)
        if isinstance(document, str):
            made.missing[ident] = document
            continue
        document["spec_sha256"] = hashlib.sha256(reduced.encode("utf-8")).hexdigest()
        made.files[f"{name}.yaml"] = reduced
        for path, content in certificate_files(document, f"{name}.json"):
            made.files[str(path)] = content
    _given_files(puzzle, text, result, spec, made)
    return made


def _given_files(puzzle: Puzzle, text: str, result: Inspection, spec: str,
                 made: InspectFiles) -> None:
    """Each redundant given's files into ``made``: the spec without it,
    ``without-given-NODE.yaml`` (its ``at:`` line written again without the given), and
    its certified ``unique`` claim, ``without-given-NODE.json``; a given whose claim is
    not certified, or whose spec cannot be written so, gets none, saying why."""
    for given in result.givens.findings if result.givens is not None else ():
        claim, node = given.claim, puzzle.nodes[given.node]
        if given.essential is not False or claim is None:
            continue
        ident = f"given {node}"
        if not claim.checked or claim.certificate is None:
            made.missing[ident] = claim.why
            continue
        reduced = _without_given(puzzle, text, given.node, spec)
        if reduced is None:
            made.missing[ident] = "the spec's at: is not one inline mapping on one line"
            continue
        less = load_spec_text(reduced)
        if check_certificate(less, claim.certificate):  # a bug in the text edit: said
            made.missing[ident] = "the spec without it does not read back as inspected"
            continue
        name = f"without-given-{_safe(node)}"
        document = claim_document(f"{name}.yaml", "unique", claim.certificate)
        document["spec_sha256"] = hashlib.sha256(reduced.encode("utf-8")).hexdigest()
        made.files[f"{name}.yaml"] = reduced
        for path, content in certificate_files(document, f"{name}.json"):
            made.files[str(path)] = content


_AT_LINE = re.compile(r"^at:[ \t]*\{[^\n{}]*\}[ \t]*(#[^\n]*)?$", re.MULTILINE)


def _without_given(puzzle: Puzzle, text: str, v: int, spec: str) -> str | None:
    """``text`` with node ``v``'s given left out of its one-line ``at:`` mapping, and a
    comment at the top saying so; ``None`` when ``at:`` is not written so."""
    lines = _AT_LINE.findall(text)
    if len(lines) != 1:
        return None
    kept = sorted(((w, q) for w, q in puzzle.at.items() if w != v), key=lambda g: g[1])
    mapping = ", ".join(f"{yaml_text(puzzle.nodes[w])}: {q}" for w, q in kept)
    edited = _AT_LINE.sub(lambda _: f"at: {{{mapping}}}", text, count=1)
    return (f"# {PurePath(spec).name} without the given {puzzle.nodes[v]} at "
            f"{puzzle.at[v]}, written by trailkit inspect --out with its certificate (the "
            ".json of the same name).\n" + edited)


def _document(less: Puzzle, length: int | None, spec: str, limits: Limits
              ) -> dict[str, object] | str:
    """The certificate file of the puzzle ``less`` (read from ``spec``): no walk
    (``length`` None) or its shortest walk of ``length`` steps; or why none was made."""
    if length is None:
        certificate, maker = find_certificate(less, get_backend("direct"), limits)
        if certificate is None:
            return f"no unsolvability certificate: {maker}"
        return claim_document(spec, "unsolvable", certificate)
    claim = found_shortest_claim(less, rests_on="the state search")
    if not claim.checked or not isinstance(claim.certificate, Certificate):
        return claim.why
    if claim.value != length:
        return (f"its shortest walk has {claim.value} steps read back, {length} in the "
                "inspection")
    return claim_document(spec, "shortest", claim.certificate, length=claim.value)


def _reduced_text(puzzle: Puzzle, text: str, e: int, spec: str) -> str:
    """``text`` with edge ``e``'s item taken out, and a comment at the top saying so."""
    change = Change(Op.REMOVE, puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]],
                    puzzle.colour_name(e), edge=e)
    edited = apply_edits(text, change_edits(text, puzzle, [change], note="trailkit inspect"))
    ends = {puzzle.tail[e], puzzle.head[e]}
    alone = [puzzle.nodes[v] for v in sorted(ends) if not any(
        v in (puzzle.tail[f], puzzle.head[f]) for f in range(puzzle.num_edges) if f != e)]
    if alone:  # a node the edge alone named stays, as in the puzzle inspected (a
        # nodes: list names them all)
        edited += ("" if edited.endswith("\n") else "\n") + \
            f"nodes: [{', '.join(yaml_text(name) for name in puzzle.nodes)}]\n"
    source = PurePath(spec).name
    return (f"# {source} without {puzzle.describe_edge(e)}, written by trailkit inspect "
            "--out with its certificate (the .json of the same name).\n" + edited)


def _safe(ident: str) -> str:
    """An edge id as part of a file name (anything but letters, digits, ``-`` and ``_``
    becomes ``_``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", ident) or "_"
