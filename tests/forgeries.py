"""Forged claims: every claim × every certificate kind × true and false values, judged
against brute force (CONTRACT 1.4 §7: the checker decides what a certificate proves).

The certificates are genuine: trailkit's own makers (``prove``, ``prove --claim``, with
and without ``--drup``, ``prove --claim fewest-changes``, ``prove --claim minimal-core``)
make them for small puzzles (the fixed random corpus of :mod:`corpus`, some turned to
``objective: longest``, and the bundled specs). Each is then written into files that
state another claim or value, at the top only or also inside the certificate (its own
``claim`` and value fields), and as an answer file (``trailkit-result/1``) whose status
says ``unsolvable`` or ``solved``; ``check-certificate`` judges each file. Whether what a
file states is true comes from brute force written here and in :mod:`oracles` (every
walk enumerated, every small set of changes tried), sharing no code with the backends.

A false statement accepted is a wrong answer; a true one rejected is only a certificate
that does not prove it. ``python tests/forgeries.py`` prints the counts.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpus import random_corpus
from oracles import fewest_changes_oracle, once_lengths, reusable_shortest

from trailkit.models.puzzle import EdgeUse, Objective, Puzzle

CLAIMS = ("unsolvable", "count", "unique", "shortest", "longest", "fewest-changes",
          "minimal-core")
VALUE_KEY = {"count": "solutions", "shortest": "length", "longest": "length",
             "fewest-changes": "changes"}
BUNDLED = ("koenigsberg", "nikolaus", "nikolaus-crossing", "square-diagonals",
           "one-way-streets", "colour-revisit", "colour-walk-dead-end")
FEWEST_MOST = 3


# --------------------------------------------------------------- brute force
@dataclass
class Truth:
    """What brute force knows of one puzzle."""

    exists: bool
    count: int | None = None          # what ``count`` counts
    solutions: int | None = None      # the walks ``unique`` speaks of (None: not known)
    shortest: int | None = None
    longest: int | None = None
    fewest: int | None = None         # None: more than FEWEST_MOST, or not computed
    fewest_known: bool = False


def truth(puzzle: Puzzle) -> Truth:
    """Brute force's facts: walks enumerated (once-only) or counted state by state
    (reusable edges: the shortest walks), and the fewest changes of ``add: any``."""
    if puzzle.use is EdgeUse.ANY:
        length, n = reusable_shortest(puzzle)
        found = Truth(exists=length is not None, count=n, shortest=length)
        if puzzle.objective is Objective.SHORTEST or not n:
            found.solutions = n
    else:
        lengths = once_lengths(puzzle)
        found = Truth(exists=bool(lengths))
        if lengths:
            found.shortest, found.longest = min(lengths), max(lengths)
        best = {Objective.SHORTEST: found.shortest, Objective.LONGEST: found.longest}
        if puzzle.use is EdgeUse.EXACTLY_ONCE or puzzle.objective is Objective.ANY or \
                not lengths:
            found.count = sum(lengths.values())
        else:
            found.count = lengths[best[puzzle.objective]]
        found.solutions = found.count
    if puzzle.layout is None and puzzle.repair is None and not puzzle.any_directed and \
            puzzle.colours is None and puzzle.num_nodes <= 5:
        found.fewest = fewest_changes_oracle(puzzle, False, FEWEST_MOST)
        found.fewest_known = True
    return found


def holds(t: Truth, claim: str, value: Any) -> bool | None:
    """Whether the statement (``claim``, ``value``) is true; ``None``: brute force does
    not know (it is then not counted)."""
    if claim == "unsolvable":
        return not t.exists
    if claim == "count":
        return value == t.count
    if claim == "unique":
        return None if t.solutions is None else t.solutions == 1
    if claim == "shortest":
        return value == t.shortest if t.exists or value is not None else False
    if claim == "longest":
        if t.exists and t.longest is None:
            return None
        return t.exists and value == t.longest
    if claim == "fewest-changes":
        if not t.fewest_known:
            return None
        if t.fewest is None:
            return None if isinstance(value, int) and value > FEWEST_MOST else False
        return value == t.fewest
    return None  # minimal-core: a statement about the core the file lists


def values(t: Truth, claim: str) -> list[Any]:
    """The values a forger tries for ``claim``: the true one and false ones."""
    if claim not in VALUE_KEY:
        return [None]
    true = {"count": t.count, "shortest": t.shortest, "longest": t.longest,
            "fewest-changes": t.fewest}[claim]
    base = true if isinstance(true, int) else 1
    return sorted({v for v in (true, base + 1, base - 1, 0, 1, 5) if isinstance(v, int)
                   and v >= 0})


# ----------------------------------------------------------- certificates
def puzzles(count: int, bundled: tuple[str, ...] = BUNDLED,
            pick: tuple[int, ...] | None = None) -> list[tuple[str, Puzzle]]:
    """The corpus's first ``count`` puzzles (every third at-most-once one asking for the
    longest walk), only those numbered in ``pick`` if given, and the ``bundled`` specs."""
    from trailkit.models.spec import load_spec

    out = []
    for i, p in enumerate(random_corpus(count, seed=40)):
        if p.use is EdgeUse.AT_MOST_ONCE and i % 3 == 0:
            p = dataclasses.replace(p, objective=Objective.LONGEST)
        if pick is None or i in pick:
            out.append((f"corpus-{i}", p))
    root = Path(__file__).resolve().parent.parent / "specs"
    out += [(name, load_spec(str(root / f"{name}.yaml"))) for name in bundled]
    return out


def certificates(puzzle: Puzzle) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every certificate file trailkit's makers write for ``puzzle``: (what made it, the
    file's content). A maker that fails is skipped (the checker is what is tested)."""
    from trailkit.solvers.backends.base import Limits
    from trailkit.solvers.pipeline.proving import CLAIMS as PROVABLE
    from trailkit.solvers.pipeline.proving import prove, prove_claim
    from trailkit.solvers.tools.repair.core_prove import prove_minimal_core
    from trailkit.solvers.tools.repair.fewest_proof import prove_fewest_changes

    limits = Limits(time_limit=10)
    makers: list[tuple[str, Any]] = [
        ("prove", lambda: prove(puzzle, limits=limits)),
        ("prove --drup", lambda: prove(puzzle, limits=limits, drup=True)),
        ("fewest-changes", lambda: prove_fewest_changes(puzzle, limits)),
        ("minimal-core", lambda: prove_minimal_core(puzzle, limits))]
    for claim in PROVABLE[1:]:
        makers += [(f"claim {claim}", lambda c=claim: prove_claim(puzzle, c, limits)),
                   (f"claim {claim} --drup",
                    lambda c=claim: prove_claim(puzzle, c, limits, drup=True))]
    for name, make in makers:
        try:
            proof = make()
        except Exception:  # a maker's failure is not the checker's
            continue
        if proof.document is not None:
            yield name, json.loads(json.dumps(proof.document, default=str))


def kind_of(document: dict[str, Any]) -> str:
    body = document["certificate"]
    return f"{body['type']} {body['encoding']}" if body["type"] == "drup" else body["type"]


def forged(document: dict[str, Any], claim: str, value: Any
           ) -> Iterator[tuple[str, dict[str, Any]]]:
    """``document`` stating (``claim``, ``value``): at the top only, at the top and inside
    the certificate, and for ``unsolvable`` as an answer file."""
    key = VALUE_KEY.get(claim)
    top = {k: v for k, v in document.items() if k not in ("solutions", "length", "changes")}
    top["claim"] = claim
    if key is not None:
        top[key] = value
    yield "top", top
    both = copy.deepcopy(top)
    body = both["certificate"]
    if "claim" in body:
        body["claim"] = claim
    if key is not None and key in body:
        body[key] = value
    if both != top:
        yield "both", both


def answer_files(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The certificate in an answer file whose status says it is unsolvable, or solved."""
    for status in ("unsolvable", "solved"):
        yield status, "answer", {"format": "trailkit-result/1", "status": status,
                                 "certificate": document["certificate"]}


# ------------------------------------------------------------------ the run
@dataclass
class Tally:
    """Forgeries tried (brute force knowing the truth), and how the checker judged them."""

    tried: int = 0
    false_tried: int = 0
    false_accepted: int = 0
    true_tried: int = 0
    true_accepted: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)

    def add(self, accepted: bool, true: bool, what: str) -> None:
        self.tried += 1
        if true:
            self.true_tried += 1
            self.true_accepted += accepted
        else:
            self.false_tried += 1
            self.false_accepted += accepted
            if accepted:
                self.wrong.append(what)

    def line(self) -> str:
        return (f"forgeries tried {self.tried} ({self.false_tried} false, {self.true_tried} "
                f"true); false accepted {self.false_accepted}; true accepted "
                f"{self.true_accepted}; certificate kinds {len(self.kinds)}: "
                + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items())))


def run(count: int, folder: Path, bundled: tuple[str, ...] = BUNDLED,
        pick: tuple[int, ...] | None = None) -> Tally:
    """Forge every claim and value for every certificate of ``count`` corpus puzzles
    (those numbered in ``pick`` if given) and the bundled specs; check each file;
    compare with brute force."""
    from trailkit.models.errors import TrailkitError
    from trailkit.solvers.pipeline.proving import check_certificate_file

    tally = Tally()
    for name, puzzle in puzzles(count, bundled, pick):
        known = truth(puzzle)
        for maker, document in certificates(puzzle):
            tally.kinds[kind_of(document)] += 1
            statements = [(place, claim, value, doc) for claim in CLAIMS
                          for value in values(known, claim)
                          for place, doc in forged(document, claim, value)]
            statements += [(place, status, None, doc)
                           for status, place, doc in answer_files(document)]
            for place, claim, value, doc in statements:
                true = (known.exists if claim == "solved" else holds(known, claim, value))
                if true is None:
                    continue
                path = folder / "forged.json"
                path.write_text(json.dumps(doc))
                try:
                    accepted = check_certificate_file(puzzle, str(path)).accepted
                except TrailkitError:
                    accepted = False
                tally.add(accepted, true, f"{name} {maker} ({kind_of(document)}) {place}: "
                          f"{claim} {value}")
    return tally


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        result = run(int(sys.argv[1]) if len(sys.argv) > 1 else 60, Path(tmp))
    print(result.line())
    for line in result.wrong[:40]:
        print("  false accepted:", line)
