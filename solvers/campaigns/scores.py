"""Ranking the backends of a campaign file as solver competitions do (CONTRACT 1.2 §5).

An *instance* is a spec (by its hash) under one set of options; on it a backend
*decided* when every repeat of its runs ended ``solved`` or ``unsolvable`` within its
time limit (an answer past the limit is none: CONTRACT 1.4 §7), and its
time there is the median ``wall_s`` of those repeats. Per backend:

* ``solved``: the instances it decided;
* ``par2``: the sum over all instances of its time where it decided, else twice the
  run's time limit (the SAT competition's PAR-2);
* ``unique``: the instances only it decided;
* ``vbs_share``: its share of the instances the virtual best decides on which it is the
  fastest decider (a tie splits the instance between the tied backends).

The virtual best solver (VBS) takes, on each instance, the fastest decider's time: its
``solved`` counts the instances any backend decided, its ``par2`` adds their times and
twice the limit for the rest. The pairwise table says, for backends A and B, on how many
instances A decided faster than B (or decided where B did not), and the median of B's
time over A's where both decided. A *disagreement* is an instance where one answer says
``solved`` and another ``unsolvable``, where proven-optimal lengths differ, or where an
answer failed the independent checker (``wrong``): each is named with every answer.

>>> runs = [{"spec": "a.yaml", "spec_sha256": "1", "backend": b, "options": "{}",
...          "repeat": 0, "status": "solved", "wall_s": t, "time_limit_s": 10.0}
...         for b, t in (("x", 1.0), ("y", 2.0))]
>>> [(b.name, b.solved, b.par2, b.vbs_share) for b in score(runs).backends]
[('x', 1, 1.0, 1.0), ('y', 1, 2.0, 0.0)]
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

__all__ = ["BackendScore", "Disagreement", "Pair", "Scores", "Verdict", "score"]

DECIDED = ("solved", "unsolvable")
#: The limit of a run whose row names none (the isolation's default wall limit).
DEFAULT_LIMIT_S = 300.0


@dataclass(frozen=True)
class BackendScore:
    """One backend's line of the ranking."""

    name: str
    solved: int
    par2: float
    unique: int
    vbs_share: float
    runs: int


@dataclass(frozen=True)
class Pair:
    """Backend ``a`` against ``b``: instances ``a`` decided faster (or alone), instances
    both decided, and the median of ``b``'s time over ``a``'s on those (``None``: none)."""

    a: str
    b: str
    faster: int
    both: int
    median_ratio: float | None


class Verdict(TypedDict):
    """One run's answer in a :class:`Disagreement` (``repeat``: which of the runs)."""

    backend: str
    repeat: int
    status: str
    length: int | None
    optimal: bool | None
    detail: str


@dataclass(frozen=True)
class Disagreement:
    """An instance the answers contradict each other on, with every answer."""

    spec: str
    spec_sha256: str
    reason: str
    answers: list[Verdict]


@dataclass
class Scores:
    """The whole ranking of a campaign file."""

    instances: int
    backends: list[BackendScore]
    vbs_solved: int
    vbs_par2: float
    pairs: list[Pair]
    disagreements: list[Disagreement]
    specs: dict[tuple[str, str], str] = field(default_factory=dict)
    times: dict[str, dict[tuple[str, str], float | None]] = field(default_factory=dict)
    limits: dict[tuple[str, str], float] = field(default_factory=dict)


def _limit(row: Mapping[str, Any]) -> float:
    """The run's time limit: its ``time_limit_s``, else its options' ``time_limit``."""
    if row.get("time_limit_s"):
        return float(row["time_limit_s"])
    try:
        options = json.loads(row.get("options") or "{}")
    except ValueError:
        options = {}
    return float(options.get("time_limit") or DEFAULT_LIMIT_S)


def _decided_time(runs: list[Mapping[str, Any]]) -> float | None:
    """The median ``wall_s`` of the repeats when every one decided within its time limit
    (an answer past it is no answer within the limit: CONTRACT 1.4 §7), else ``None``."""
    if not runs or any(r["status"] not in DECIDED or r.get("wall_s") is None
                       or float(r["wall_s"]) > _limit(r) for r in runs):
        return None
    return float(statistics.median(float(r["wall_s"]) for r in runs))


def _disagreement(spec: str, sha: str, runs: list[Mapping[str, Any]]) -> Disagreement | None:
    """Whether the answers on one instance contradict each other, and how."""
    statuses = {r["status"] for r in runs if r["status"] in DECIDED}
    lengths = {r["length"] for r in runs if r["status"] == "solved" and r.get("optimal")}
    reasons = []
    if any(r["status"] == "wrong" for r in runs):
        reasons.append("an answer failed the independent checker (wrong)")
    if len(statuses) > 1:
        reasons.append("solved by one backend, unsolvable by another")
    if len(lengths) > 1:
        reasons.append(f"different proven-optimal lengths {sorted(lengths)}")
    if not reasons:
        return None
    answers: list[Verdict] = [
        {"backend": r["backend"], "repeat": r["repeat"], "status": r["status"],
         "length": r.get("length"),
         "optimal": None if r.get("optimal") is None else bool(r["optimal"]),
         "detail": r.get("detail") or ""}
        for r in runs if r["status"] in (*DECIDED, "wrong")]
    return Disagreement(spec, sha, "; ".join(reasons), answers)


def _or(value: float | None, otherwise: float) -> float:
    return otherwise if value is None else value


def _pairs(names: list[str], times: dict[str, dict[tuple[str, str], float | None]],
           instances: list[tuple[str, str]]) -> list[Pair]:
    pairs = []
    for a in names:
        for b in names:
            if a == b:
                continue
            faster, ratios = 0, []
            for inst in instances:
                ta, tb = times[a].get(inst), times[b].get(inst)
                if ta is not None and (tb is None or ta < tb):
                    faster += 1
                if ta is not None and tb is not None:
                    ratios.append(tb / ta if ta > 0 else float("inf"))
            median = float(statistics.median(ratios)) if ratios else None
            pairs.append(Pair(a, b, faster, len(ratios), median))
    return pairs


def _virtual_best(names: list[str], times: dict[str, dict[tuple[str, str], float | None]],
                  instances: list[tuple[str, str]], limits: dict[tuple[str, str], float]
                  ) -> tuple[dict[str, float], float, int]:
    """The virtual best solver (the fastest backend on each instance, as the SAT
    competition ranks): each backend's share of the instances it was fastest on (a tie
    shared), the virtual best's PAR-2 sum and how many instances it decided."""
    share: dict[str, float] = defaultdict(float)
    vbs_par2, vbs_solved = 0.0, 0
    for inst in instances:
        decided = {b: t for b in names if (t := times[b][inst]) is not None}
        if not decided:
            vbs_par2 += 2 * limits[inst]
            continue
        best = min(decided.values())
        vbs_par2 += best
        vbs_solved += 1
        fastest = [b for b, t in decided.items() if t == best]
        for b in fastest:
            share[b] += 1 / len(fastest)
    return share, vbs_par2, vbs_solved


def score(rows: Iterable[Mapping[str, Any]]) -> Scores:
    """Rank the backends of a campaign file's runs (rows of table ``runs``)."""
    grouped: dict[tuple[str, str], dict[str, list[Mapping[str, Any]]]] = defaultdict(
        lambda: defaultdict(list))
    specs: dict[tuple[str, str], str] = {}
    limits: dict[tuple[str, str], float] = {}
    names: list[str] = []
    for row in rows:
        inst = (str(row["spec_sha256"]), str(row["options"]))
        grouped[inst][row["backend"]].append(row)
        specs.setdefault(inst, str(row["spec"]))
        limits[inst] = max(limits.get(inst, 0.0), _limit(row))
        if row["backend"] not in names:
            names.append(row["backend"])
    instances = list(grouped)
    times = {b: {i: _decided_time(grouped[i].get(b, [])) for i in instances} for b in names}
    share, vbs_par2, vbs_solved = _virtual_best(names, times, instances, limits)
    backends = []
    for b in names:
        mine = [i for i in instances if times[b][i] is not None]
        others = set().union(*({i for i in instances if times[o][i] is not None}
                               for o in names if o != b))
        par2 = sum(_or(times[b][i], 2 * limits[i]) for i in instances)
        backends.append(BackendScore(
            b, len(mine), round(par2, 6), sum(1 for i in mine if i not in others),
            round(share[b] / vbs_solved, 6) if vbs_solved else 0.0,
            sum(len(grouped[i].get(b, [])) for i in instances)))
    found = [d for inst in instances
             if (d := _disagreement(specs[inst], inst[0],
                                    [r for runs in grouped[inst].values() for r in runs]))]
    return Scores(len(instances), backends, vbs_solved, round(vbs_par2, 6),
                  _pairs(names, times, instances), found, specs, times, limits)
