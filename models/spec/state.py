"""What the reader of one spec knows as it goes: the node names met so far (numbered in
order of first appearance), the ``nodes:`` list, which colours edges and rules name,
and whether anything was skipped (after which a name that matches nothing may be the
skipped entry's, not a typo). Every room of the reader (a kind's lowering, the edge
forms, colours, endpoints, ...) reads and writes one :class:`SpecReader`.

>>> reader = SpecReader("s.yaml", None, budget=100)
>>> reader.number_names(["a", "b", "a", "c"]), reader.node_names
([0, 1, 0, 2], ['a', 'b', 'c'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import yaml

from trailkit.models.errors import Location, SpecError
from trailkit.models.spec.messages import hint
from trailkit.models.spec.typed import Fatal, NodeReader
from trailkit.models.support.deadline import on_time
from trailkit.models.support.hints import short

if TYPE_CHECKING:
    from trailkit.models.formats.edge_scan import ScannedEdges

__all__ = ["InlineEdges", "SpecReader"]

_T = TypeVar("_T")


class InlineEdges(NamedTuple):
    """A spec's inline edge list as the fast reader cut it out: ``lines``, each line
    starting with the ``lead`` bytes of its list item's indentation and ``- `` (none for
    a flow list), the ``line`` of ``edges:``, and how many ``items`` (lines) it has.
    ``scanned``: the compiled scan has read the lines already, and ``scan`` is what it
    found (``None``: it refused them, and the line reader reads them)."""

    lines: str
    lead: int
    line: int
    items: int
    scanned: bool = False
    scan: ScannedEdges | None = None


class _Numbering(dict[str, int]):
    """Node numbers by name that gives the next number to a name it has not seen (the
    fast reader numbers a million edge ends with one C-level lookup each)."""

    def __missing__(self, name: str) -> int:
        number = self[name] = len(self)
        return number


class SpecReader(NodeReader):
    """The state of reading one spec (see the module docstring); one instance per spec.

    ``base_dir`` is the folder side files are read from (``None``: none may be named).
    """

    def __init__(self, source: str, base_dir: Path | None, budget: int) -> None:
        super().__init__(source, budget)
        self.base_dir = base_dir
        self._node_index: dict[str, int] = {}
        self._unindexed = 0  # node_names[-_unindexed:] are not in _node_index yet
        self._lookups = 0  # node_number calls answered from node_names
        self.node_names: list[str] = []
        self.declared: dict[str, yaml.Node] | None = None  # the `nodes:` list, when given
        self.nodes_complete = True  # false once a bad `nodes:` entry was skipped
        # False once an edge or domino could not even be read (its names and colour
        # unknown); a known edge that breaks a rule still brings in its names and colour.
        self.edges_complete = True
        self.edge_colours: set[str] = set()  # every colour word written on an edge
        self.rule_colours: dict[str, tuple[yaml.Node, str]] = {}  # named by the rule: where
        self.rule_keys: set[str] = set()  # the keys of a transition table
        self.cycle: tuple[str, ...] = ()  # the colours of a cycle rule, in order
        # The big inline `edges:` list as edge-list text and its line, when the fast
        # reader took it out of the YAML (see models/spec/fast.py); None otherwise.
        self.inline_edges: InlineEdges | None = None
        # The first and last cell of a `board:` ("a1", "h8"), for messages; None without one.
        self.board_corners: tuple[str, str] | None = None

    # ---------------------------------------------------------- node names
    def node_id(self, name: str) -> int:
        index = self.node_index.get(name)
        if index is None:
            index = self.node_index[name] = len(self.node_names)
            self.node_names.append(name)
        return index

    def number_names(self, names: Iterable[str]) -> list[int]:
        """The node number of each of ``names``, new names numbered next in order of
        appearance (one C-level lookup per name: the fast path of million-edge lists)."""
        index = self.node_index
        known = len(index)
        numbering = _Numbering(index)
        codes = list(map(numbering.__getitem__, names))
        new = list(islice(numbering.items(), known, None))
        index.update(new)
        self.node_names.extend(name for name, _ in new)
        return codes

    def add_unindexed(self, names: list[str]) -> None:
        """Number ``names`` (all new, the first names of the spec) next, indexing them only
        when first needed (see :attr:`node_index`)."""
        self.node_names.extend(names)
        self._unindexed = len(names)

    @property
    def node_index(self) -> dict[str, int]:
        """Node numbers by name, including the names a scanned edge list brought in
        (indexed only now: a dict of hundreds of thousands of names is costly, and a
        colour walk asks it only for its start and goal, see :meth:`node_number`)."""
        if self._unindexed:
            first = len(self.node_names) - self._unindexed
            self._node_index.update(zip(self.node_names[first:],
                                        range(first, len(self.node_names)), strict=True))
            self._unindexed = 0
        return self._node_index

    def node_number(self, name: str) -> int | None:
        """The number of node ``name``, or ``None``: the first few questions after a
        scanned edge list are answered by searching its names rather than by indexing
        them all (``docs/benchmarks.md``, "Indexing names late")."""
        if self._unindexed and self._lookups < 8:
            self._lookups += 1
            known = self._node_index.get(name)
            if known is not None:
                return known
            first = len(self.node_names) - self._unindexed
            try:
                return self.node_names.index(name, first)
            except ValueError:
                return None
        return self.node_index.get(name)

    def edge_end(self, name: str, where: yaml.Node | Location, path: str) -> int:
        """The node an edge (or domino) ends at; with ``nodes:`` it must be listed there
        (unless an entry of ``nodes:`` could not be read: it may have been this name)."""
        if self.declared is not None and self.nodes_complete and name not in self.declared:
            raise self.fail(where, f"{path} ends at {short(name)!r}, which is not listed in "
                            f"'nodes:'{hint(name, self.declared)}; fix the name, or add it "
                            "to 'nodes:'", path)
        return self.node_id(name)

    @property
    def names_known(self) -> bool:
        """Whether every node name is known, so a name that matches none is a typo (after a
        skipped entry it may be the name that entry would have brought in)."""
        if self.declared is not None:
            return self.nodes_complete
        return self.edges_complete and self.nodes_complete

    # ------------------------------------------------------- entry lists
    def read_entries(self, node: yaml.Node, key: str, read: Callable[[yaml.Node, str], _T],
                     use: Callable[[_T, yaml.Node, str, int], None]) -> None:
        """Read each item of the list ``key`` (edges, dominoes) with ``read`` and hand it to
        ``use`` with its node, key path and position. An item that cannot be read is
        recorded and leaves :attr:`edges_complete` false (its names are unknown); one that
        ``use`` rejects is recorded too, and the items after either are still read."""
        items = self.guard(key, None, lambda: self.sequence(node, key))
        self.edges_complete = items is not None
        for i, item in enumerate(items or []):
            if not i % 4096:  # a long list takes seconds: the command's limit is kept
                on_time(f"the {key}")
            path = f"{key}[{i}]"
            entry = None
            try:  # as guard() does, without two closures per item (specs list 10^5 edges)
                entry = read(item, path)
                use(entry, item, path, i)
            except Fatal:
                raise
            except SpecError as exc:
                self.record(exc, path)
                if entry is None:
                    self.edges_complete = False
