"""What a certificate check says it verified: the checker's own sentences, in one place.

A certificate file carries an ``explanation``, written by whoever made the file; a check
must never repeat it as what "holds" (a forged file could say anything there). What
``check-certificate`` prints on acceptance is built here, from the facts the checker
itself established: the puzzle's own arrays and the parts of the certificate it has
just checked. Each function takes those facts and says them; the checkers
(:mod:`trailkit.models.checking.certificates`, :mod:`trailkit.models.checking.drup`,
:mod:`trailkit.models.checking.lrat`) call them once a certificate is accepted. Certificates of
other claims (CONTRACT §6) add their sentences here.

>>> parity(["A", "B", "C", "D"], [3, 3, 3, 5], closed=False)
'4 nodes, A, B, C and D, have odd degrees (3, 3, 3 and 5); a walk that uses every edge \
exactly once has at most 2 such nodes (its ends)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from trailkit.models.formulas.certified import CertifiedFormula
from trailkit.models.support.words import listing, plural

__all__ = ["Verdict", "alternation", "avoided_edge", "closed_set", "count", "disconnected",
           "endpoints", "given_positions", "imbalance", "no_edges", "node_cut", "node_degree",
           "parity", "refutation",
           "shortest", "unique"]


@dataclass(frozen=True)
class Verdict:
    """A check's outcome: why the certificate is rejected (``problems``; empty when it is
    accepted) and, when accepted, what the checker verified (``holds``, its own words)."""

    problems: list[str] = field(default_factory=list)
    holds: str = ""

    @property
    def accepted(self) -> bool:
        """Whether nothing was found wrong."""
        return not self.problems


SHOWN = 8
"""Nodes named in a sentence; a longer list is cut, saying how many there are."""


def _some(items: Sequence[str], conjunction: str = "and") -> str:
    """The items as a sentence lists them, the first :data:`SHOWN` of a longer list."""
    if len(items) <= SHOWN:
        return listing(list(items), conjunction)
    return ", ".join(items[:SHOWN]) + f" {conjunction} {len(items) - SHOWN} more"


def _each(names: Sequence[str]) -> str:
    return f"node {names[0]}" if len(names) == 1 else f"{len(names)} nodes, {_some(names)},"


def parity(nodes: Sequence[str], degrees: Sequence[int], *, closed: bool) -> str:
    """``nodes`` have the odd ``degrees`` counted from the puzzle's edges."""
    limit = "no such node (it must close)" if closed else "at most 2 such nodes (its ends)"
    return (f"{_each(nodes)} {'has an odd degree' if len(nodes) == 1 else 'have odd degrees'} "
            f"({_some([str(d) for d in degrees])}); a walk that uses every edge exactly "
            f"once has {limit}")


def imbalance(balance: Mapping[str, int], *, closed: bool) -> str:
    """Out-degree minus in-degree at the listed nodes, every edge one-way."""
    allowed = 0 if closed else 1
    parts = [f"{b:+d} at {name}" for name, b in balance.items()]
    surplus = sum(b for b in balance.values() if b > 0)
    deficit = -sum(b for b in balance.values() if b < 0)
    return (f"every edge is one-way, and out-degree minus in-degree is {_some(parts)}: "
            f"{surplus} more out than in and {deficit} more in than out, where a walk that "
            f"uses every edge exactly once allows at most {allowed} each way")


def disconnected(component: Sequence[str], inside: str, outside: str) -> str:
    """No edge leaves ``component``; edge ``inside`` lies in it, ``outside`` outside."""
    return (f"no edge joins the {plural(len(component), 'node')} {_some(component)} to the "
            "other nodes; "
            f"edge {inside} lies among them and edge {outside} outside, "
            "so no one walk uses both, and every edge must be used exactly once")


def endpoints(pairs: Sequence[tuple[str, str]]) -> str:
    """The (start, end) pairs the degrees force, none allowed by the puzzle."""
    said = listing([f"from {s} to {t}" if s != t else f"closed at {s}" for s, t in pairs[:6]],
                   "or")
    more = f" (and {len(pairs) - 6} more)" if len(pairs) > 6 else ""
    return (f"the degrees leave a walk that uses every edge exactly once only the ends "
            f"{said}{more}, and the puzzle allows no such start and end")


def no_edges(nodes: int) -> str:
    """A puzzle without edges whose walk cannot stand still on an allowed node."""
    return (f"the puzzle has no edges, so the walk cannot take a step, and none of its "
            f"{plural(nodes, 'node')} is both an allowed start and an allowed end")


def alternation(a: str, b: str, differences: Mapping[str, int], *, closed: bool) -> str:
    """Edge ends of colour ``a`` minus those of ``b`` at the listed nodes, under a rule that
    makes the two alternate."""
    total = sum(abs(d) for d in differences.values())
    parts = [f"{d:+d} at {name}" for name, d in differences.items()]
    limit = "a closed walk allows none" if closed else "a walk's two ends allow at most 2"
    return (f"the colour rule makes {a} and {b} alternate, and {a} minus {b} edge ends are "
            f"{_some(parts)}: {total} in all, where "
            f"{limit}")


def closed_set(states: int, places: int, what: str, ends: Sequence[str] | None) -> str:
    """A set of ``states`` situations (at ``places`` places) holding every start state,
    closed under every allowed step, with no finishing state."""
    where = ("none where the walk may finish" if ends is None else
             f"none at {_some(ends, 'or')}, "
             "where the walk must finish")
    return (f"the closed set of {plural(states, f'({what}) situation')} at "
            f"{plural(places, 'place')} holds every start situation and {where}, and every "
            "allowed step from one of them stays inside it")


def node_cut(removed: Sequence[str], pieces: Sequence[str], joins: int, *,
             closed: bool) -> str:
    """Taking away the ``removed`` nodes (and the avoided ones) leaves the must-visit
    ``pieces`` apart, more than the ``joins`` a walk passing each removed node once can
    reach."""
    walk = "a closed walk" if closed else "a walk"
    if removed:
        cut = f"taking away {_some(list(removed))} (and any avoided node)"
        walk += f" passing each of the {len(removed)} at most once" if len(removed) > 1 \
            else " passing it at most once"
    else:
        cut = "taking away only the avoided nodes"
    return (f"{cut} leaves {plural(len(pieces), 'piece')} of the graph apart, each holding "
            f"a node the walk must visit ({_some(list(pieces))}), and {walk} can reach at "
            f"most {joins} of them")


def node_degree(nodes: Sequence[str], way: str, *, closed: bool) -> str:
    """No edge enters (``way`` ``in``) or leaves (``out``) the must-visit ``nodes`` from or
    to another node: each can only be the walk's start (end)."""
    end = "start" if way == "in" else "end"
    verb = "enters" if way == "in" else "leaves"
    allows = ("a closed walk through two or more nodes enters and leaves each of them" if
              closed else f"a walk has one {end}" if len(nodes) > 1 else
              f"the walk may not {end} there")
    return (f"no edge {verb} {_some(list(nodes))} {'from' if way == 'in' else 'to'} another "
            f"node, though the walk must visit {'them' if len(nodes) > 1 else 'it'}, so "
            f"each could only be the walk's {end}; {allows}")


def given_positions(first: tuple[str, int], then: tuple[str, int], far: int | None, *,
                    parity: bool, odd: bool = False) -> str:
    """Two givens (node, position) that no walk joins in the steps between them: ``far``
    steps apart at least (``None``: not joined at all), or every walk between them of the
    other parity."""
    (x, p), (y, q) = first, then
    given = f"{x} is given position {p} and {y} position {q}, {plural(q - p, 'step')} later"
    if parity:
        return (f"{given}; every edge of their piece of the graph joins its two colours, so "
                f"every walk from {x} to {y} has an {'odd' if odd else 'even'} number of "
                "steps")
    if far is None:
        return f"{given}; no walk leads from {x} to {y} without passing an avoided node"
    return f"{given}; the fewest steps from {x} to {y} are {far}"


def avoided_edge(node: str, edge: str) -> str:
    """Every edge must be used, and ``edge`` touches the avoided ``node``."""
    return (f"every edge must be used exactly once, and edge {edge} touches {node}, which "
            "the walk must avoid")


def refutation(formula: CertifiedFormula, digest: str, checked: str, *, lrat: bool,
               cuts: int = 0) -> str:
    """The proof of ``formula``, re-derived from the spec, checked as ``checked`` says."""
    checker = "trailkit's LRAT checker" if lrat else "trailkit's DRUP checker"
    cut_words = (f", with {plural(cuts, 'cut clause')} each checked to hold for every walk"
                 if cuts else "")
    return (f"the {formula.encoding} formula re-derived from the spec "
            f"({plural(formula.num_vars, 'variable')}, "
            f"{plural(len(formula.clauses), 'clause')}{cut_words}; SHA-256 {digest[:12]}…) "
            f"is the one the certificate stores, and {checker} found that {checked}; so "
            f"{formula.claim}")


def _layers(count: int, last: int, states: int, first: bool) -> tuple[str, str]:
    """What the layers are and how they hold every step: listed layers hold every step
    from the one before; breadth-first numbers (``first``) let no step go more than one
    layer on."""
    reach = "first reach" if first else "reach"
    return (f"the {plural(count, 'layer')} of the states 0 to {last} steps {reach} "
            f"({plural(states, 'state')} in all)",
            "no step goes more than one layer on" if first else
            "each holds every step from the one before")


def shortest(length: int, states: int, *, first: bool = False) -> str:
    """Layers 0 .. ``length``-1 (``states`` in all) hold every state so few steps reach,
    none where the walk may stop, and the walk of ``length`` steps is verified
    (``first``: the compact form, each state in the layer that first reaches it)."""
    if length == 0:
        return "the walk of 0 steps is verified, and no walk is shorter"
    layers, steps = _layers(length, length - 1, states, first)
    return (f"{layers} hold every start state, {steps}, and none holds a state where the "
            "walk may stop; so no walk is shorter than the verified one of "
            f"{plural(length, 'step')}")


def unique(length: int, states: int, *, first: bool = False) -> str:
    """The walks of ``length`` steps counted through ``length + 1`` checked layers: one."""
    layers, _ = _layers(length + 1, length, states, first)
    steps = "let no step go more than one layer on" if first else \
        "hold every step from the one before"
    return (f"{layers} {steps}, none before layer {length} lets the walk stop, and counted "
            f"through them exactly one walk of {plural(length, 'step')} solves the puzzle: "
            "the verified one")


def count(length: int, states: int, walks: int, starts: int, *, first: bool = False) -> str:
    """The walks of ``length`` steps counted through ``length + 1`` checked layers: as
    many as claimed (and, for ``starts`` start nodes, as many from each)."""
    each = f", and from each of the {starts:,} start nodes as many as claimed" \
        if starts > 1 else ""
    layers, steps = _layers(length + 1, length, states, first)
    return (f"{layers} hold every start state, {steps}, none before layer {length} lets "
            f"the walk stop, so no walk is shorter than {plural(length, 'step')}; counted "
            f"through them, {plural(walks, 'walk')} of {plural(length, 'step')} "
            f"solve{'s' if walks == 1 else ''} the puzzle{each}")
