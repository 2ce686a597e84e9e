"""A campaign's ranking (``trailkit report``) in words, as the contract's
``trailkit-report/1`` JSON, and as CSV.

The scores are :func:`trailkit.solvers.campaigns.scores.score`'s.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from typing import Any

from trailkit.models.support.words import plural
from trailkit.solvers.campaigns.scores import Scores

__all__ = ["REPORT_FORMAT", "report_csv", "report_json", "report_text"]

REPORT_FORMAT = "trailkit-report/1"


def report_json(scores: Scores, path: str, versions: list[str]) -> dict[str, Any]:
    """The ``trailkit-report/1`` object."""
    return {"format": REPORT_FORMAT, "file": path, "instances": scores.instances,
            "versions": versions,
            "backends": [asdict(b) for b in scores.backends],
            "vbs": {"solved": scores.vbs_solved, "par2": scores.vbs_par2},
            "pairwise": [asdict(p) for p in scores.pairs],
            "disagreements": [asdict(d) for d in scores.disagreements]}


def _aligned(headers: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h)
              for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths)),
            *(fmt.format(*line).rstrip() for line in lines)]


def report_text(scores: Scores, path: str, versions: list[str]) -> str:
    """The ranking as text: the backends and the virtual best, the pairwise wins, and
    the disagreements with every answer."""
    out = [f"{path}: {plural(scores.instances, 'instance')}, written by trailkit "
           f"{', '.join(versions) or 'unknown'}", ""]
    ranked = sorted(scores.backends, key=lambda b: (-b.solved, b.par2, b.name))
    out += _aligned(["backend", "solved", "par2 s", "unique", "vbs share"],
                    [[b.name, str(b.solved), f"{b.par2:.3f}", str(b.unique),
                      f"{b.vbs_share:.0%}"] for b in ranked]
                    + [["(virtual best)", str(scores.vbs_solved), f"{scores.vbs_par2:.3f}",
                        "", ""]])
    if scores.pairs:
        out += ["", "pairwise: A decided faster than B (or alone) on N instances; "
                "median of B's time / A's where both decided"]
        out += _aligned(["A", "B", "N faster", "both", "median B/A"],
                        [[p.a, p.b, str(p.faster), str(p.both),
                          "-" if p.median_ratio is None else f"{p.median_ratio:.2f}"]
                         for p in scores.pairs])
    if scores.disagreements:
        out += ["", f"BACKENDS DISAGREE on {plural(len(scores.disagreements), 'instance')}:"]
        for d in scores.disagreements:
            out.append(f"  {d.spec}: {d.reason}")
            for a in d.answers:
                length = "" if a["length"] is None else f" length {a['length']}"
                optimal = " (optimal)" if a["optimal"] else ""
                out.append(f"    {a['backend']} (repeat {a['repeat']}): {a['status']}"
                           f"{length}{optimal}" + (f": {a['detail']}" if a["detail"] else ""))
    return "\n".join(out)


def report_csv(scores: Scores) -> str:
    """The backends' lines (and the virtual best's) as CSV."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["backend", "solved", "par2", "unique", "vbs_share"])
    for b in scores.backends:
        writer.writerow([b.name, b.solved, b.par2, b.unique, b.vbs_share])
    writer.writerow(["(virtual best)", scores.vbs_solved, scores.vbs_par2, "", ""])
    return buffer.getvalue()
