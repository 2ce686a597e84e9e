"""The YAML spec language (v1): load, validate with located errors, lower to a :class:`Puzzle`.

Every error names the file, line and column and says what to do::

    specs/p.yaml:12:5: error: unknown colour "teal" in edges[3] (colours are red, blue, green)

The YAML is *composed* (never constructed), so no Python object is ever built from
a tag, duplicated keys are seen (PyYAML would silently keep the last one), alias
expansion is bounded ("billion laughs"), and each scalar in a node position keeps
the text the author wrote: a tyre named ``NO`` never becomes ``False`` and the
domino ``1:2`` never becomes 62.

The reader collects problems and goes on where it safely can (as yamllint does): a bad
edge is one problem and the edges after it are still read. :func:`check_spec` returns
every problem of a file; :func:`load_spec` raises the first one it meets.

A name that matches nothing is a typo until the spec says otherwise: with ``nodes:``
every edge end, ``start``, ``end``, ``goal`` and ``layout:`` key must be listed there;
a colour that a colour rule names must be on an edge (or be a key of the transition
table). ``layout: auto`` asks a drawing for a computed layout: the puzzle's ``layout``
stays ``None`` and ``meta["layout"]`` is ``"auto"``.

The reader is built in rooms, one job each (as yamllint keeps each rule in its own
module): :mod:`~.reading` (files and texts, the choice of reader), :mod:`~.composing`
and :mod:`~.syntax` (YAML and its syntax errors in words), :mod:`~.typed` (typed node
readers, the problem list, the alias budget), :mod:`~.state` (what one reading knows),
:mod:`~.document` (the top level), :mod:`~.kinds` (one lowering per kind),
:mod:`~.edges` (one reader per edge form), :mod:`~.colours`, :mod:`~.endpoints`,
:mod:`~.nodes` (``nodes:`` and ``layout:``), :mod:`~.expect`, :mod:`~.repair_block`, and
:mod:`~.fast`, the reader of big inline lists that small specs never enter.

>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> p.kind, p.num_edges, p.closed
('trail', 3, True)
>>> [e.message for e in check_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, c]\\n")]
["edges[1] has one end ('c'); an edge needs two, like 'a b' or 'a b red'"]
"""

from __future__ import annotations

from pathlib import Path

from trailkit.models.errors import Location, SpecError
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec.document import errors_of, loaded
from trailkit.models.spec.reading import read_path, read_text
from trailkit.models.spec.vocabulary import KINDS, MAX_INT_DIGITS, MAX_PROBLEMS, MAX_SPEC_BYTES

__all__ = ["KINDS", "MAX_INT_DIGITS", "MAX_PROBLEMS", "MAX_SPEC_BYTES", "check_spec",
           "check_spec_text", "lint_spec", "lint_spec_text", "load_spec", "load_spec_text"]


def load_spec(path: str | Path) -> Puzzle:
    """Load and validate the spec file at ``path``; raise the first :class:`SpecError` found
    if it is unusable (see :func:`check_spec` for all of them)."""
    return loaded(*read_path(Path(path)))


def check_spec(path: str | Path) -> list[SpecError]:
    """Every problem the spec file at ``path`` has, in file order; empty when it loads.

    Each :class:`SpecError` carries its ``location`` (file, line, column: a problem in an
    ``edges_file:`` is located in that file), its ``message`` and, where it concerns one
    entry, its key ``path`` (``edges[3]``, ``layout.x``). Reading goes on after a problem
    wherever the rest can still be checked, so three independent mistakes give three
    problems; a problem that leaves the rest unreadable (malformed YAML, an unknown
    ``kind``) is the only one reported, and reading stops after :data:`MAX_PROBLEMS`.
    """
    return _in_file_order(errors_of(read_path(Path(path))[1]))


def lint_spec(path: str | Path) -> list[SpecError]:
    """Every problem and every warning (:class:`SpecWarning`: a spec that loads, with
    something worth a look, like a cycle colour on no edge) of the spec file at
    ``path``, in file order; each says its ``level``."""
    return _in_file_order(read_path(Path(path))[1])


def load_spec_text(text: str, source: str = "<string>", base_dir: Path | None = None) -> Puzzle:
    """Validate spec ``text`` (``source`` names it in messages); raise the first problem.

    ``base_dir`` is the folder that ``edges_file:`` and ``dominoes_file:`` are read from.
    """
    return loaded(*read_text(text, source, base_dir))


def check_spec_text(text: str, source: str = "<string>",
                    base_dir: Path | None = None) -> list[SpecError]:
    """Every problem of spec ``text``, in file order (see :func:`check_spec`)."""
    return _in_file_order(errors_of(read_text(text, source, base_dir)[1]))


def lint_spec_text(text: str, source: str = "<string>",
                   base_dir: Path | None = None) -> list[SpecError]:
    """Every problem and warning of spec ``text``, in file order (see :func:`lint_spec`)."""
    return _in_file_order(read_text(text, source, base_dir)[1])


def _in_file_order(problems: list[SpecError]) -> list[SpecError]:
    """The spec's own problems by line and column, then those located in side files."""
    first_file = problems[0].location.file if problems and problems[0].location else None

    def key(problem: SpecError) -> tuple[bool, str, int, int]:
        loc = problem.location or Location("")
        return (loc.file != first_file, loc.file, loc.line or 0, loc.column or 0)

    return sorted(problems, key=key)
