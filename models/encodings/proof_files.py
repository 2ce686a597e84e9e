"""The files ``prove --proof-dir`` writes, for checkers outside trailkit.

A ``drup`` certificate holds the certified formula and its refutation; here they become
what the SAT community's tools read: ``formula.cnf`` (DIMACS; ``c`` lines name the
formula, its SHA-256 and each primary variable's meaning, as ``export --format dimacs``
does), ``proof.drat`` (the proof as text DRUP, for ``drat-trim formula.cnf proof.drat``)
and, on request, ``proof.lrat`` (text LRAT, made by
:func:`~trailkit.models.checking.drup.drup_to_lrat`,
for ``cake_lpr`` or :mod:`trailkit.models.checking.lrat`).

The clause lines of ``formula.cnf`` are exactly the certificate's canonical ``cnf`` text
(the comments all come before the ``p`` line), so ``grep -v '^c' formula.cnf | sha256sum``
gives the hash the comments name, and clause ids in the LRAT file count the clause lines
from 1. For the transition encodings the last clauses are the cut clauses the solver
added: the comments say which, and that their justification is checked by trailkit's
cut checker (:mod:`trailkit.models.formulas.lazy_clauses`), not by drat-trim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trailkit.models.answer import Certificate
from trailkit.models.errors import VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.support.words import plural

__all__ = ["ALL", "FORMULA", "LRAT", "PROOF", "formula_file", "lrat_certificate", "lrat_file",
           "proof_file"]

FORMULA = "formula.cnf"
PROOF = "proof.drat"
LRAT = "proof.lrat"
ALL = (FORMULA, PROOF, LRAT)
"""Every file ``--proof-dir`` may hold: they are replaced as a set (a folder holding
other files is refused)."""


def formula_file(data: Mapping[str, Any], name: str | None) -> str:
    """``formula.cnf`` for the ``drup`` certificate ``data`` of the puzzle ``name``."""
    clauses = int(data["num_clauses"])
    cuts = list(data.get("cuts") or [])
    head = [f"c trailkit {data['encoding']} formula of {name or 'a walk puzzle'}",
            f"c cnf_sha256 {data['cnf_sha256']} (SHA-256 of the lines below without "
            "these comments)",
            f"c {data['num_vars']} variables, {clauses} clauses; refuted by proof.drat "
            f"(solver {data.get('solver', 'unknown')})"]
    if cuts:
        first = clauses - len(cuts) + 1
        which = (f"clause {first} is the cut clause" if len(cuts) == 1 else
                 f"clauses {first}..{clauses} are the {len(cuts)} cut clauses")
        head += [f"c {which} the solver added: that each holds for every walk is checked "
                 "by trailkit's cut checker (trailkit check-certificate), not by drat-trim"]
        head += [f"c clause {first + k} = cut of "
                 + (f"edges {' '.join(map(str, cut['edges']))}" if "edges" in cut
                    else f"nodes {' '.join(map(str, cut['nodes']))}")
                 for k, cut in enumerate(cuts)]
    head += _meaning(data, clauses)
    variables: Mapping[str, str] = data.get("variables") or {}
    head += [f"c {v} = {text}" for v, text in sorted(variables.items(),
                                                      key=lambda item: int(item[0]))]
    return "\n".join(head) + "\n" + str(data["cnf"])


def _meaning(data: Mapping[str, Any], clauses: int) -> list[str]:
    """Comment lines saying what a refutation of the formula proves, in words."""
    encoding = str(data["encoding"])
    if encoding == "walk-blocked-v1":
        n = int(data["solutions"])
        zero = sum(1 for walk in data.get("walks") or [] if not walk.get("edges"))
        blocked = n - zero
        which = (f"clauses {clauses - blocked + 1}..{clauses}" if blocked > 1 else
                 f"clause {clauses}" if blocked else "no clause")
        empty = (f"; with the {zero} empty walks listed beside them (that these are all the "
                 f"empty walks the puzzle allows is checked by trailkit check-certificate), "
                 f"the puzzle has {n} walks" if zero else "")
        return [f"c its refutation means: the puzzle has no walk other than the {blocked} "
                f"that {which} block, one clause each (that each is a walk, verified, is "
                f"checked by trailkit check-certificate, not by drat-trim){empty}"]
    if encoding == "walk-longer-v1":
        return [f"c its refutation means: no walk of more than {data['length']} steps (the "
                f"last clause says the walk has more than {data['length']})"]
    return [f"c its refutation means: {_MEANINGS[encoding](data)}"] \
        if encoding in _MEANINGS else []


_VERIFIED = ("(that the certificate's walk of {n} steps is a walk, verified, and that the "
             "empty walk is not allowed, is checked by trailkit check-certificate, not by "
             "drat-trim)")
_MEANINGS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "walk-shorter-v1": lambda d: (
        f"no walk of at most {int(d['length']) - 1} steps (the last clause says the walk "
        f"has at most {int(d['length']) - 1}), so the walk of {d['length']} is the "
        f"shortest {_VERIFIED.format(n=d['length'])}"),
    "walk-as-short-v1": lambda d: _best_walks(d, "at most", "shortest"),
    "walk-as-long-v1": lambda d: _best_walks(d, "at least", "longest"),
    "walk-v1": lambda d: (
        f"no walk of 1 to {d.get('horizon')} steps: the puzzle has no walk (that the empty "
        "walk is not allowed is checked by trailkit check-certificate)"),
    "position-v1": lambda d: (
        f"no walk of {d.get('length')} steps uses every edge exactly once: the puzzle "
        "has no walk"),
    "walk-core-v1": lambda d: (
        f"no walk with each edge used at most once uses all of the core's edges "
        f"{' '.join(map(str, d['core']))} (the last {len(d['core'])} clauses demand one "
        "each; the other edges are optional): no walk obeying the rules uses the whole "
        "core (that each member is needed, by a witness walk each, is checked by trailkit "
        "check-certificate, not by drat-trim)" if d["core"] else
        "no walk with each edge used at most once takes a step"),
    "repair-fewer-v1": lambda d: (
        f"no repair with at most {plural(int(d['changes']) - 1, 'change')}: no set of at most "
        f"{int(d['changes']) - 1} of the {d['candidates']} changes the spec's repair rules "
        "allow (a selector variable each) makes a puzzle with a walk; so the certificate's "
        f"repair of {plural(int(d['changes']), 'change')} has the fewest (that the allowed "
        "changes are the spec's, and that the repair and its walk are verified, is checked "
        "by trailkit check-certificate, not by drat-trim)"),
    "node-positions-v1": lambda d: (
        f"no walk of 1 to {d.get('horizon')} steps obeys the edge and node rules (a literal "
        "per node and position): the puzzle has no walk (that the empty walk is not "
        "allowed is checked by trailkit check-certificate)"),
    "node-cuts-v1": lambda d: (
        "no walk visits every node once: the puzzle has no walk"),
    "transition-v1": lambda d: "no walk uses every edge exactly once: the puzzle has no walk",
    "transition-v2": lambda d: "no walk uses every edge exactly once: the puzzle has no walk",
}


def _best_walks(data: Mapping[str, Any], bound: str, best: str) -> str:
    """What refuting ``walk-as-short-v1`` or ``walk-as-long-v1`` means: no walk of at most
    (at least) L steps but the certificate's, one (``walk``) or a list (``walks``)."""
    length = int(data["length"])
    walks = list(data["walks"]) if "walks" in data else [data["walk"]]
    blocked = sum(1 for walk in walks if walk.get("edges"))
    steps = f"{bound} {length} steps" if bound == "at most" else f"{length} or more steps"
    if "walks" not in data:
        return (f"no walk of {steps} other than the certificate's (the last clause blocks "
                f"it), so it is the only {best} walk (that it is a walk, verified, "
                + ("and that the empty walk is not allowed, " if bound == "at most" else "")
                + "is checked by trailkit check-certificate, not by drat-trim)")
    if not blocked:
        return ("no walk of at most 0 steps takes a step (the formula is the empty clause)"
                if bound == "at most" else "no walk of 1 or more steps") + (
            f", so the {len(walks)} empty walks the certificate lists are the {best} walks "
            "(that they are all the empty walks the puzzle allows is checked by trailkit "
            "check-certificate, not by drat-trim)")
    return (f"no walk of {steps} other than the {blocked} the last {blocked} clauses block, "
            f"one each, so they are the puzzle's {blocked} {best} walks (that each is a walk "
            f"of {length} steps, verified, "
            + ("and that the empty walk is not allowed, " if bound == "at most" else "")
            + "is checked by trailkit check-certificate, not by drat-trim)")


def proof_file(data: Mapping[str, Any]) -> str:
    """``proof.drat``: the certificate's proof as text DRUP, one line each."""
    proof = data["proof"]
    if isinstance(proof, str):
        return proof if proof.endswith("\n") else proof + "\n"
    return "".join(f"{line}\n" for line in proof)


def lrat_file(puzzle: Puzzle, data: Mapping[str, Any]) -> str:
    """``proof.lrat``: the certificate's proof as LRAT, its hints recorded by trailkit's
    DRUP checker (:func:`trailkit.models.checking.drup.drup_to_lrat`) against the formula
    rebuilt from ``puzzle``; raises :class:`VerificationFailure` if the proof fails."""
    from trailkit.models.checking.drup import drup_to_lrat
    from trailkit.models.formulas.formulas import rebuild

    formula = rebuild(puzzle, data)
    if isinstance(formula, list):
        raise VerificationFailure("; ".join(formula))
    ok, message, text = drup_to_lrat(formula.clauses, proof_file(data).encode("ascii"))
    if not ok or text is None:
        raise VerificationFailure(f"the DRUP proof could not be turned into LRAT: {message}")
    return text


def lrat_certificate(puzzle: Puzzle, certificate: Certificate) -> Certificate:
    """The ``drup`` certificate ``certificate`` with its proof turned into LRAT
    (``proof_format: lrat``), which :mod:`trailkit.models.checking.lrat` checks."""
    text = lrat_file(puzzle, certificate.data)
    lemmas = text.count("\n") - text.count(" d ")
    data = {**certificate.data, "proof": text, "proof_format": "lrat", "proof_lemmas": lemmas}
    claim = certificate.explanation.split("; its DRUP proof")[0]
    return Certificate("drup", data, f"{claim}; its LRAT proof ({lemmas} lemmas, the hints "
                       "recorded by trailkit's DRUP checker) is checked by trailkit's small "
                       "LRAT checker, and cake_lpr reads it too.")
