"""What every backend returns: one frozen :class:`Answer` type.

An answer is *solved* (with a :class:`Walk`), *unsolvable* (with a
:class:`Certificate`, or a statement of which backends agree), or *unknown* (a
limit was reached; never a guess). No bare booleans: unsat and timeout must never
look alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

import numpy as np

from trailkit.models.puzzle import Puzzle

__all__ = ["CLAIM_NAMES", "Answer", "Certificate", "Claim", "CrossCheck", "CrossCheckJson",
           "Status", "Step", "Walk"]

Step = TypedDict("Step", {"from": str, "to": str, "edge": int | str, "colour": str | None})
"""One step of the contract's ``steps`` list (:meth:`Walk.steps_json`); ``from`` is a
keyword, hence the functional form."""


class CrossCheckJson(TypedDict):
    """The contract's ``crosscheck`` object (:meth:`CrossCheck.to_json`)."""

    backend: str
    status: str
    agrees: bool | None
    detail: NotRequired[str]


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


class Walk:
    """A walk as node indices ``nodes[0..k]`` and edge indices ``edges[0..k-1]``.

    Step ``i`` goes from ``nodes[i]`` to ``nodes[i + 1]`` along ``edges[i]``. Both are
    stored so the checker can test every claim a backend makes; an empty walk still
    names the node it stands on, except in a puzzle with no nodes at all (an empty set
    of dominoes), whose only walk is :meth:`nowhere`: no node, no edge (its JSON
    ``start`` is ``null``).

    A walk is immutable and holds its indices in whichever form it was given:
    tuples (``.nodes`` / ``.edges``, what small walks and tests use) or NumPy int64
    arrays (``.node_array`` / ``.edge_array``, what the compiled backends produce and
    the verifier reads). Each form is made from the other on first use, so a
    million-step walk from a compiled backend is checked without ever becoming a
    tuple of a million Python ints (time and memory spent for nothing; the figures are
    in ``docs/benchmarks.md``).

    >>> w = Walk((0, 1, 0), (4, 4))
    >>> len(w), w.nodes, w.edge_array.tolist(), w == Walk(np.array([0, 1, 0]), (4, 4))
    (2, (0, 1, 0), [4, 4], True)
    """

    __slots__ = ("_edge_array", "_edges", "_node_array", "_nodes")

    def __init__(self, nodes: Sequence[int] | np.ndarray, edges: Sequence[int] | np.ndarray):
        self._nodes, self._node_array = _forms(nodes)
        self._edges, self._edge_array = _forms(edges)

    @property
    def nodes(self) -> tuple[int, ...]:
        if self._nodes is None:
            self._nodes = tuple(self.node_array.tolist())
        return self._nodes

    @property
    def edges(self) -> tuple[int, ...]:
        if self._edges is None:
            self._edges = tuple(self.edge_array.tolist())
        return self._edges

    @property
    def node_array(self) -> np.ndarray:
        """The nodes as a read-only int64 array."""
        if self._node_array is None:
            self._node_array = _frozen_array(self._nodes)
        return self._node_array

    @property
    def edge_array(self) -> np.ndarray:
        """The edges as a read-only int64 array."""
        if self._edge_array is None:
            self._edge_array = _frozen_array(self._edges)
        return self._edge_array

    def __len__(self) -> int:
        return len(self._edges) if self._edges is not None else len(self.edge_array)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Walk):
            return NotImplemented
        if self._nodes is None or other._nodes is None:
            return (np.array_equal(self.node_array, other.node_array)
                    and np.array_equal(self.edge_array, other.edge_array))
        return self.nodes == other.nodes and self.edges == other.edges

    def __hash__(self) -> int:
        return hash((self.nodes, self.edges))

    def __repr__(self) -> str:
        return f"Walk(nodes={self.nodes!r}, edges={self.edges!r})"

    def __reduce__(self) -> tuple[type[Walk], tuple[Any, Any]]:
        return (Walk, (self._nodes if self._nodes is not None else self._node_array,
                       self._edges if self._edges is not None else self._edge_array))

    @classmethod
    def nowhere(cls) -> Walk:
        """The empty walk of a puzzle without nodes, which solves it (an empty set of
        dominoes forms a ring): ``Walk((), ())``.

        >>> len(Walk.nowhere()), Walk.nowhere().start
        (0, None)
        """
        return cls((), ())

    @property
    def start(self) -> int | None:
        """The node the walk starts at (``None`` for :meth:`nowhere`)."""
        return self.nodes[0] if self.nodes else None

    @classmethod
    def from_edges(cls, puzzle: Puzzle, start: int, edges: Sequence[int]) -> Walk:
        """Follow ``edges`` from node ``start``, crossing each to its other end.

        Raises ``ValueError`` if an edge does not touch the current node (a backend bug).
        """
        nodes = [start]
        at = start
        tail, head = puzzle.tail, puzzle.head
        for e in edges:
            if tail[e] == at:
                at = head[e]
            elif head[e] == at and not puzzle.is_directed(e):
                at = tail[e]
            else:
                raise ValueError(f"edge {e} does not leave node {at}")
            nodes.append(at)
        return cls(tuple(nodes), tuple(edges))

    def steps_json(self, puzzle: Puzzle) -> list[Step]:
        """The contract's ``steps`` list: ``from``, ``to``, ``edge`` (the edge's id), ``colour``."""
        names = puzzle.nodes
        nodes = self.nodes if self._nodes is not None else self.node_array.tolist()
        edges = self.edges if self._edges is not None else self.edge_array.tolist()
        return [
            {
                "from": names[nodes[i]],
                "to": names[nodes[i + 1]],
                "edge": puzzle.edge_id(e),
                "colour": puzzle.colour_name(e),
            }
            for i, e in enumerate(edges)
        ]


def _forms(indices: Sequence[int] | np.ndarray) -> tuple[tuple[int, ...] | None,
                                                        np.ndarray | None]:
    """``(tuple, None)`` for a sequence, ``(None, read-only int64 array)`` for an array.

    An int64 array is shared, not copied (a read-only view: 16 MB saved on a million
    steps), so whoever hands it over must not change it afterwards; the compiled
    backends hand over arrays they made for the walk.
    """
    if isinstance(indices, np.ndarray):
        if indices.dtype == np.int64 and indices.ndim == 1:
            view = indices.view()
            view.flags.writeable = False
            return None, view
        return None, _frozen_array(indices)
    return tuple(indices), None


def _frozen_array(indices: Sequence[int] | np.ndarray | None) -> np.ndarray:
    array = np.array(indices if indices is not None else (), dtype=np.int64)
    array.flags.writeable = False
    return array


@dataclass(frozen=True, slots=True)
class Certificate:
    """A claim of unsolvability that a checker can test without trusting its maker.

    ``kind`` names the argument (``parity``, ``disconnected``, ``endpoints``,
    ``closed-set``, ``drup``, ...), ``data`` holds what the checker needs (node and
    edge names, never internal indices) and ``explanation`` says it in words a puzzle
    fan understands.
    """

    kind: str
    data: Mapping[str, Any]
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, **self.data, "explanation": self.explanation}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Certificate:
        data = {k: v for k, v in obj.items() if k not in ("type", "explanation", "checked")}
        return cls(str(obj.get("type", "")), data, str(obj.get("explanation", "")))


CLAIM_NAMES = ("unsolvable", "shortest", "unique", "count", "longest", "fewest-changes",
               "minimal-core")
"""Every claim trailkit certifies, in the order ``prove --claim`` lists them."""


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim an answer makes beyond its walk (CONTRACT 1.3 §6), and what it rests on.

    ``claim`` is ``shortest``, ``longest``, ``unique``, ``count``, ``fewest-changes`` or
    ``minimal-core`` (``unsolvable`` is the answer's own certificate). ``checked`` is true
    only when the independent checker accepted ``certificate`` (or, for ``unique`` false,
    verified the second walk ``witness``); ``why`` says otherwise why not and what the
    claim rests on instead. ``value`` is what is claimed: the length, the number of
    solutions, or for ``unique`` whether the walk is the only one. ``holds`` is the
    checker's own sentence on acceptance.
    """

    claim: str
    checked: bool
    certificate: Certificate | None = None
    value: Any = None
    why: str = ""
    holds: str = ""
    witness: Walk | None = None

    @property
    def refuted(self) -> bool:
        """Whether the claim was shown false by a verified ``witness`` (a second walk:
        ``unique`` false)."""
        return self.checked and self.value is False and self.witness is not None

    def to_json(self, puzzle: Puzzle | None = None) -> dict[str, Any]:
        """The contract's ``{"claim", "certificate", "checked"[, "why"]}``; a refuted claim
        (CONTRACT 1.4 §7) is ``{"claim", "holds": false, "witness": {"start", "steps"}}``,
        its witness named through ``puzzle`` (without it, by internal edge indices)."""
        if self.refuted and self.witness is not None:
            walk = self.witness
            witness: dict[str, Any] = (
                {"start": puzzle.nodes[walk.nodes[0]] if walk.nodes else None,
                 "steps": walk.steps_json(puzzle)} if puzzle is not None else
                {"start": walk.nodes[0] if walk.nodes else None, "edges": list(walk.edges)})
            return {"claim": self.claim, "holds": False, "witness": witness}
        out: dict[str, Any] = {"claim": self.claim, "certificate":
                               self.certificate.kind if self.certificate else None,
                               "checked": self.checked}
        if self.why:
            out["why"] = self.why
        return out


@dataclass(frozen=True, slots=True)
class CrossCheck:
    """The second opinion on an answer: which backend, what it said, and whether it agrees
    (``None``: undecided, because one side reached a limit or could not run)."""

    backend: str
    status: Status
    agrees: bool | None
    detail: str = ""

    def to_json(self) -> CrossCheckJson:
        out: CrossCheckJson = {"backend": self.backend, "status": self.status.value,
                               "agrees": self.agrees}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class Answer:
    """One backend's answer to one puzzle.

    ``optimal`` is true when the walk's length is proven minimal, false when a
    shorter one may exist, and ``None`` when length is not what was asked.
    ``reason`` says why an answer is unknown, or on what an unsolvable one rests when
    no certificate was produced (e.g. an exhaustive search, to be confirmed).
    ``verified``, ``crosscheck``, ``decided_by`` (the stage that produced the answer:
    the backend's name, or ``"pre-check"`` for a structural certificate found before
    the backend ran) and ``time_s`` are filled in by the pipeline, never by a backend,
    as are ``claims`` (what the answer claims beyond its walk, each with what it rests
    on: :class:`Claim`).
    """

    status: Status
    backend: str
    walk: Walk | None = None
    certificate: Certificate | None = None
    optimal: bool | None = None
    reason: str = ""
    stats: Mapping[str, Any] = field(default_factory=dict)
    verified: bool | None = None
    certificate_checked: bool | None = None
    crosscheck: CrossCheck | None = None
    time_s: float = 0.0
    decided_by: str = ""
    claims: tuple[Claim, ...] = ()

    @property
    def length(self) -> int | None:
        return None if self.walk is None else len(self.walk)

    def with_(self, **changes: Any) -> Answer:
        return replace(self, **changes)

    @classmethod
    def solved(cls, backend: str, walk: Walk, *, optimal: bool | None = None,
               **stats: Any) -> Answer:
        return cls(Status.SOLVED, backend, walk=walk, optimal=optimal, stats=stats)

    @classmethod
    def unsolvable(cls, backend: str, certificate: Certificate | None = None, *,
                   reason: str = "", **stats: Any) -> Answer:
        return cls(Status.UNSOLVABLE, backend, certificate=certificate, reason=reason,
                   stats=stats)

    @classmethod
    def unknown(cls, backend: str, reason: str, **stats: Any) -> Answer:
        return cls(Status.UNKNOWN, backend, reason=reason, stats=stats)
