"""The one table from a certificate's kind to the claims it proves, and their values.

A certificate file says what it claims (``"claim": "count", "solutions": 5``), but those
words are the maker's. The checker decides, from the certificate's own kind and contents
(checked first by the checker of its kind) and the puzzle as it is now, which claims the
certificate proves (CONTRACT 1.4 §7); a file stating anything else is rejected, naming
both (:func:`mismatch`). What a certificate establishes is first put as facts about one
*family* of walks (every walk, the shortest ones, the longest ones):

=============================================  ==========================================
kind (``drup``: by its formula)                what it establishes
=============================================  ==========================================
``parity``, ``imbalance``, ``disconnected``,   no walk at all: ``unsolvable``, ``count`` 0
``endpoints``, ``alternation``,                (never ``fewest-changes``: no walk is only a
``closed-set``; ``drup`` of ``position-v1``,   lower bound, 1 change)
``walk-v1``, ``node-positions-v1``,
``node-cuts-v1``, ``transition-v1``/``-v2``
``layers`` (its ``claim``)                     ``shortest``: the shortest walk has L steps;
                                               ``unique``/``count``: the shortest walks are
                                               1 / N, all of L steps
``best-formula``                               every walk (exactly once): N, of #edges steps
``walk-blocked-v1``                            every walk: those listed (their lengths)
``walk-longer-v1``                             the longest walk has L steps; for L = 0 every
                                               walk is an empty one the checker verifies
``walk-shorter-v1``                            the shortest walk has L steps
``walk-as-short-v1`` / ``walk-as-long-v1``     the shortest / longest walks: those listed
``change-sets``, ``repair-fewer-v1``           ``fewest-changes`` k
``core``                                       ``minimal-core``
``walk-core-v1``, ``odd-nodes``, ``odd-cuts``  nothing alone (parts of a ``core``)
``node-cut``, ``node-degree``,                 no walk at all, as the structural kinds
``avoided-edge``, ``given-positions``
=============================================  ==========================================

The claims then follow from the facts and the puzzle's rules (:func:`_claims`): ``count``
counts every walk, but the shortest where edges may be reused or the objective is
``shortest``, the longest under ``objective: longest``; ``unique`` speaks of the same
walks (a reusable walk of no objective: of every walk, which no certificate counts);
every walk of an exactly-once puzzle has one length, so there the three families are
one. No walk of a family means no walk at all: ``unsolvable`` and ``count`` 0. A value
is the length (``shortest``, ``longest``), the number of solutions (``count``) or of
changes (``fewest-changes``); ``unsolvable``, ``unique`` and ``minimal-core`` have none.

>>> from trailkit.models.answer import Certificate
>>> from trailkit.models.puzzle import Puzzle
>>> p = Puzzle.build(edges=[("A", "B"), ("A", "C"), ("A", "D")])
>>> found = proven(p, Certificate("parity", {"nodes": ["A", "B", "C", "D"]}, ""))
>>> found.claims, found.primary
({'unsolvable': None, 'count': 0}, 'unsolvable')
>>> mismatch(p, found, [Statement("count", {"solutions": 5})])
'the file claims 5 solutions; this parity certificate proves that no walk exists'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.checking.node_certificates import KINDS as NODE_KINDS
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle
from trailkit.models.support.words import listing, plural

__all__ = ["CLAIMS", "NO_WALK", "Proven", "Statement", "mismatch", "proven", "stated"]

CLAIMS = ("unsolvable", "count", "unique", "shortest", "longest", "fewest-changes",
          "minimal-core")
"""Every claim a certificate file may state, in the order a file without one is given
the first its certificate proves."""

VALUE_KEYS = {"solutions": "count", "length": "", "changes": "fewest-changes"}
"""The fields a file states values in, and the claim each is the value of (``length``:
of ``shortest`` or ``longest``, else one of the lengths the walks proven have)."""

ALL, SHORTEST, LONGEST = "every walk", "the shortest walks", "the longest walks"

NO_WALK = ("parity", "imbalance", "disconnected", "endpoints", "alternation", "closed-set")
"""The structural kinds: each proves that no walk exists."""

_NO_WALK_FORMULAS = ("position-v1", "walk-v1", "node-positions-v1", "node-cuts-v1",
                     "transition-v1", "transition-v2")


@dataclass(frozen=True)
class _Facts:
    """What a certificate establishes, before the puzzle's rules say which claims that
    makes: ``walks`` (length: how many) of one ``family``, exactly (``None``: not
    known); a ``shortest`` or ``longest`` length; the fewest ``changes``; a ``core``;
    and ``own``, the claim the certificate is made for."""

    family: str = ""
    walks: Mapping[int, int] | None = None
    shortest: int | None = None
    longest: int | None = None
    changes: int | None = None
    core: bool = False
    own: str = ""


@dataclass(frozen=True)
class Proven:
    """What an accepted certificate proves about its puzzle: every claim with its value
    (``claims``), the lengths of walks it shows to exist (``lengths``: a stated length must
    be one of them), the claim it is for (``primary``: the certificate's own when it
    proves it, else the first of :data:`CLAIMS` it proves; empty: none) and ``kind``
    (``parity``, ``drup walk-blocked-v1``, ...)."""

    kind: str
    claims: dict[str, int | None]
    lengths: frozenset[int] = frozenset()
    primary: str = ""

    @property
    def value(self) -> int | None:
        """The primary claim's value."""
        return self.claims.get(self.primary)

    def says(self) -> str:
        """What it proves, in words."""
        if not self.claims:
            return "no claim on its own"
        return listing([_words(c, v) for c, v in self.claims.items()
                        if not (c == "count" and v == 0 and "unsolvable" in self.claims)])


@dataclass(frozen=True)
class Statement:
    """A claim and values a file states at one place (``claim`` empty: values only)."""

    claim: str
    values: Mapping[str, Any] = field(default_factory=dict)


def _words(claim: str, value: Any) -> str:
    """A claim with its value, as a sentence's object."""
    if claim == "unsolvable":
        return "that no walk exists"
    if claim == "count":
        return plural(value, "solution") if isinstance(value, int) else f"{value!r} solutions"
    if claim == "unique":
        return "that the walk is the only solution"
    if claim in ("shortest", "longest"):
        return f"that the {claim} walk has {_steps(value)}"
    if claim == "fewest-changes":
        return (f"{plural(value, 'change')} as the fewest" if isinstance(value, int)
                else f"{value!r} changes as the fewest")
    if claim == "solved":
        return "that a walk exists"
    return "a minimal core" if claim == "minimal-core" else f"the claim {claim!r}"


def _steps(value: Any) -> str:
    return plural(value, "step") if isinstance(value, int) else f"{value!r} steps"


# --------------------------------------------------------------- the table
def _no_walk(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(ALL, {}, own="unsolvable")


def _layers(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    claim, length = str(data["claim"]), int(data["length"])
    if claim == "shortest":
        return _Facts(shortest=length, own=claim)
    n = 1 if claim == "unique" else int(data["solutions"])
    return _Facts(SHORTEST, {length: n}, own=claim)


def _best_formula(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    n = int(data["solutions"])
    return _Facts(ALL, {puzzle.num_edges: n} if n else {}, own="count")


def _listed(data: Mapping[str, Any]) -> Counter[int]:
    """The lengths of the walks a certificate lists (``walk``: one; ``walks``)."""
    walks = data["walks"] if "walks" in data else [data["walk"]]
    return Counter(len(walk["edges"]) for walk in walks)


def _blocked(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(ALL, _listed(data), own=str(data.get("claim") or "count"))


def _longer(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    from trailkit.models.formulas.blocked_walks import empty_walks

    length = int(data["length"])
    if length:
        return _Facts(longest=length, own="longest")
    empty = len(empty_walks(puzzle))  # no walk of a step: the empty ones are all
    return _Facts(ALL, {0: empty} if empty else {}, own=str(data.get("claim") or "longest"))


def _shorter(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(shortest=int(data["length"]), own="shortest")


def _as_short(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(SHORTEST, _listed(data), own=str(data.get("claim") or "count"))


def _as_long(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(LONGEST, _listed(data), own=str(data.get("claim") or "count"))


def _fewest(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(changes=int(data["changes"]), own="fewest-changes")


def _core(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts(core=True, own="minimal-core")


def _nothing(puzzle: Puzzle, data: Mapping[str, Any]) -> _Facts:
    return _Facts()


Reader = Callable[[Puzzle, Mapping[str, Any]], _Facts]

KINDS: dict[str, Reader] = {
    **{kind: _no_walk for kind in NO_WALK},
    **{kind: _no_walk for kind in NODE_KINDS},
    "given-positions": _no_walk,
    "layers": _layers,
    "best-formula": _best_formula,
    "change-sets": _fewest,
    "core": _core,
    "odd-nodes": _nothing,
    "odd-cuts": _nothing,
}
"""Every certificate kind but ``drup``, and what it establishes."""

FORMULAS: dict[str, Reader] = {
    **{encoding: _no_walk for encoding in _NO_WALK_FORMULAS},
    "walk-blocked-v1": _blocked,
    "walk-longer-v1": _longer,
    "walk-shorter-v1": _shorter,
    "walk-as-short-v1": _as_short,
    "walk-as-long-v1": _as_long,
    "walk-core-v1": _nothing,
    "repair-fewer-v1": _fewest,
}
"""Every formula a ``drup`` certificate may refute, and what its refutation establishes."""


# -------------------------------------------------------------- the claims
def counted(puzzle: Puzzle) -> str:
    """The walks ``count`` counts: every walk; the shortest where edges may be reused or
    the objective is ``shortest``; the longest under ``objective: longest``."""
    if puzzle.use is EdgeUse.EXACTLY_ONCE:
        return ALL
    if puzzle.use is EdgeUse.ANY or puzzle.objective is Objective.SHORTEST:
        return SHORTEST
    return LONGEST if puzzle.objective is Objective.LONGEST else ALL


def solutions(puzzle: Puzzle) -> str:
    """The walks ``unique`` speaks of: the puzzle's solutions (as :func:`counted`, but
    every walk where edges may be reused and no objective is set)."""
    if puzzle.use is EdgeUse.ANY and puzzle.objective is not Objective.SHORTEST:
        return ALL
    return counted(puzzle)


def _claims(puzzle: Puzzle, facts: _Facts) -> tuple[dict[str, int | None], frozenset[int]]:
    """The claims ``facts`` prove about ``puzzle``, with their values, and the lengths of
    walks they show to exist."""
    out: dict[str, int | None] = {}
    shortest, longest, lengths = facts.shortest, facts.longest, frozenset[int]()
    if facts.walks is not None:
        walks = {length: n for length, n in facts.walks.items() if n}
        family = ALL if puzzle.use is EdgeUse.EXACTLY_ONCE else facts.family
        counts: dict[str, int] = {}
        if not walks:  # none of the family: no walk at all
            out["unsolvable"] = None
            counts = {ALL: 0, SHORTEST: 0, LONGEST: 0}
        else:
            lengths = frozenset(walks)
            counts[family] = sum(walks.values())
            if family in (ALL, SHORTEST):
                shortest = min(walks)
                counts[SHORTEST] = walks[shortest]
            if family in (ALL, LONGEST):
                longest = max(walks)
                counts[LONGEST] = walks[longest]
        if counted(puzzle) in counts:
            out["count"] = counts[counted(puzzle)]
        if counts.get(solutions(puzzle)) == 1:
            out["unique"] = None
    if shortest is not None:
        out["shortest"] = shortest
    if longest is not None and puzzle.use is not EdgeUse.ANY:
        out["longest"] = longest
    if facts.changes is not None:
        out["fewest-changes"] = facts.changes
    if facts.core:
        out["minimal-core"] = None
    return out, lengths | {v for c, v in out.items() if c in ("shortest", "longest")
                           and v is not None}


def proven(puzzle: Puzzle, certificate: Certificate) -> Proven:
    """What ``certificate``, accepted by the checker of its kind, proves about ``puzzle``
    (nothing for a kind or formula this table does not know)."""
    data = certificate.data
    kind = certificate.kind
    if kind == "drup":
        kind = f"drup {data.get('encoding')}"
        reader = FORMULAS.get(str(data.get("encoding")), _nothing)
    else:
        reader = KINDS.get(kind, _nothing)
    facts = reader(puzzle, data)
    claims, lengths = _claims(puzzle, facts)
    primary = facts.own if facts.own in claims else next(
        (c for c in CLAIMS if c in claims), "")
    return Proven(kind, claims, lengths, primary)


# ------------------------------------------------------------ what a file says
def stated(document: Mapping[str, Any], body: Mapping[str, Any]) -> list[Statement]:
    """Every claim and value the file ``document`` states about its certificate ``body``:
    at its top (``claim``, ``length``, ``solutions``, ``changes``), inside the
    certificate (its own ``claim`` and values, when it names a claim: a certificate that
    names none, such as a ``drup`` one of no walk, has numbers that are its formula's
    parameters), and an answer file's ``status``
    (``unsolvable``, or ``solved``: a walk exists)."""
    places: list[Statement] = []
    for where in (document, body) if document is not body else (body,):
        claim = where.get("claim")
        if where is body and claim is None:
            continue  # its numbers are the formula's parameters (a drup length), no claim
        values = {key: where[key] for key in VALUE_KEYS if key in where}
        if claim is not None or values:
            places.append(Statement(str(claim) if claim is not None else "", values))
    if document.get("format") == "trailkit-result/1" and \
            document.get("status") in ("unsolvable", "solved"):
        places.append(Statement(str(document["status"])))
    return places


def mismatch(puzzle: Puzzle, found: Proven, statements: Sequence[Statement]) -> str:
    """Why what the file states is not what the certificate proves (empty: it is), naming
    both: "the file claims 5 solutions; this parity certificate proves that no walk
    exists"."""
    for statement in statements:
        wrong = _misstated(found, statement)
        if wrong:
            return (f"the file claims {wrong}; this {found.kind} certificate proves "
                    f"{found.says()}")
    return ""


def _misstated(found: Proven, statement: Statement) -> str:
    """What ``statement`` says that ``found`` does not prove (empty: nothing)."""
    claim, claims = statement.claim, found.claims
    if claim == "solved":
        return "" if found.lengths else _words("solved", None)
    if claim and claim not in claims:
        value = statement.values.get(_value_key(claim) or "")
        return _words(claim, value)
    for key, value in statement.values.items():
        of = VALUE_KEYS[key] or (claim if claim in ("shortest", "longest") else "")
        if of:
            if of not in claims or claims[of] != value:
                return _words(of, value)
        elif value is not None and value not in found.lengths:
            return f"a walk of {_steps(value)}"
    return ""


def _value_key(claim: str) -> str:
    """The field a claim's value is stated in."""
    return next((key for key, of in VALUE_KEYS.items() if of == claim), "length"
                if claim in ("shortest", "longest") else "")
