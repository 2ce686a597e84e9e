"""What certifying the claims costs: ``solve`` and ``count`` with their claims' certificates
against without.

Run: ``python tests/bench/bench_claims.py [TIME_LIMIT]`` (default 20 s a solve). For every
bundled spec (``specs/``, ``specs/bench/``) it times the pipeline's ``solve`` (direct, no
cross-check) as it is, making and checking the certificate of every claim the answer
makes (issue 32), and with the claims left out; a median of 5 runs each (one run when a
solve takes over a second), interleaved so a busy machine weighs on both alike. It prints
a table of the specs whose answer makes a claim, the median of the ratios over all specs
(issue 32's target: at most 2), the same for ``count`` and its count claim; the restored
tyre puzzle's shortest-walk certificate alone: made, and checked, median of 50 runs
(target: under 50 ms); and the refutation certificates: Nikolaus's count (88 walks
listed, the rest refuted; target: under 1 s; and its best-formula certificate, the BEST
theorem's inputs), the longest domino train's, each made and checked, median of 5 runs,
the check alone too.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from trailkit.models.checking.certificates import verdict
from trailkit.models.checking.shortest import layers_verdict
from trailkit.models.spec import load_spec
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.pipeline import counting, solving
from trailkit.solvers.pipeline.claims import shortest_claim, unique_claim
from trailkit.solvers.pipeline.refuted_claims import count_claim, longest_claim

ROOT = Path(__file__).resolve().parents[2]


def timed(function, *args, **kwargs) -> tuple[float, object]:
    began = time.perf_counter()
    value = function(*args, **kwargs)
    return time.perf_counter() - began, value


def interleaved(call, module, name: str, off) -> tuple[float, float, object]:
    """Median seconds of ``call()`` as it is and with ``module.name`` replaced by ``off``
    (the claims left out), interleaved so a busy machine weighs on both alike; and the
    result. One run each when a call takes over a second."""
    made = getattr(module, name)
    first, result = timed(call)
    runs = 1 if first > 1 else 5
    with_claims, without = [first], []
    for i in range(runs):
        setattr(module, name, off)
        without.append(timed(call)[0])
        setattr(module, name, made)
        if i + 1 < runs:
            with_claims.append(timed(call)[0])
    return statistics.median(with_claims), statistics.median(without), result


def both(puzzle, limits: Limits) -> tuple[float, float, object]:
    """``solve`` (direct, no cross-check) with its claims and without."""
    return interleaved(lambda: solving.solve(puzzle, "direct", limits, None), solving,
                       "answer_claims", lambda *a, **k: ())


def count_both(puzzle, limits: Limits) -> tuple[float, float, object]:
    """``count`` (direct, no cross-check) with its count claim made and checked, and
    without."""
    return interleaved(lambda: counting.count(puzzle, "direct", limits, crosscheck=None),
                       counting, "certified_count", lambda *a, **k: None)


def counts(limits: Limits) -> None:
    """The same table for ``count``: its count claim's certificate against none."""
    ratios = []
    print("\n| spec (count) | solutions | certificate | with (s) | without (s) | ratio |")
    print("|---|---|---|---|---|---|")
    for path in sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("specs/*/*.yaml")]):
        puzzle = load_spec(str(path))
        with_claims, without, result = count_both(puzzle, limits)
        ratio = with_claims / max(without, 1e-6)
        ratios.append(ratio)
        claim = next(iter(result.claims), None)
        kind = "none" if claim is None else (
            claim.certificate.kind if claim.checked and claim.certificate else "unchecked")
        print(f"| {path.relative_to(ROOT)} | {result.solutions:,} | {kind} | "
              f"{with_claims:.4f} | {without:.4f} | {ratio:.2f} |")
    print(f"\n{len(ratios)} specs: count's median ratio with/without its claim "
          f"{statistics.median(ratios):.2f}, largest {max(ratios):.2f}")


WHOLE = """import sys
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import counting
if sys.argv[1] == "off":
    counting.certified_count = lambda *a, **k: None
sys.exit(main(["count", sys.argv[2], "--time-limit", "20"]))
"""


def whole_commands(runs: int = 3) -> None:
    """``trailkit count SPEC`` as a user runs it (a new process: start-up, reading,
    counting, the claim, the words), with the claim and without, interleaved, medians of
    ``runs``; specs whose count takes over a second are left out (the claim's share is
    then the in-process table's)."""
    import subprocess

    ratios = []
    for path in sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("specs/*/*.yaml")]):
        if timed(counting.count, load_spec(str(path)), "direct", Limits(time_limit=20),
                 crosscheck=None)[0] > 1:
            continue
        times: dict[str, list[float]] = {"on": [], "off": []}
        for _ in range(runs):
            for mode in ("on", "off"):
                times[mode].append(timed(subprocess.run, [sys.executable, "-c", WHOLE, mode,
                                                          str(path)], capture_output=True)[0])
        ratios.append(statistics.median(times["on"]) / statistics.median(times["off"]))
    print(f"\n{len(ratios)} specs as whole commands (trailkit count SPEC, medians of {runs}): "
          f"median ratio with/without the claim {statistics.median(ratios):.2f}, "
          f"largest {max(ratios):.2f}")


def main() -> None:
    limits = Limits(time_limit=float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)
    ratios = []
    print("| spec | claims | with (s) | without (s) | ratio |")
    print("|---|---|---|---|---|")
    for path in sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("specs/*/*.yaml")]):
        puzzle = load_spec(str(path))
        with_claims, without, answer = both(puzzle, limits)
        ratio = with_claims / max(without, 1e-6)
        ratios.append(ratio)
        if answer.claims:
            names = ", ".join(f"{c.claim}{'' if c.checked else ' (unchecked)'}"
                              for c in answer.claims)
            print(f"| {path.relative_to(ROOT)} | {names} | {with_claims:.4f} | "
                  f"{without:.4f} | {ratio:.2f} |")
    print(f"\n{len(ratios)} specs: median ratio with/without claims {statistics.median(ratios):.2f}"
          f", largest {max(ratios):.2f}")
    tyre = load_spec(str(ROOT / "specs" / "tyre-puzzle" / "restored.yaml"))
    walk = solving.solve(tyre, "direct", limits, None).walk
    for name, make in (("shortest", shortest_claim), ("unique", unique_claim)):
        made = [timed(make, tyre, walk)[0] for _ in range(50)]
        data = make(tyre, walk).certificate.data
        checks = [timed(layers_verdict, tyre, data)[0] for _ in range(50)]
        print(f"restored tyre puzzle, {name} certificate: made and checked in "
              f"{statistics.median(made) * 1000:.1f} ms (median of 50), of which the check "
              f"{statistics.median(checks) * 1000:.1f} ms")

    counts(limits)
    whole_commands()
    refutations()


def refutations() -> None:
    """Nikolaus's count certificate and the longest train's: made and checked, and the
    check alone (the first check of a session loads the DRUP checker: one run first)."""
    nikolaus = load_spec(str(ROOT / "specs" / "nikolaus.yaml"))
    train = load_spec(str(ROOT / "specs" / "dominoes" / "longest-train.yaml"))
    walk = solving.solve(train, "direct", Limits(), None).walk
    for name, make in (("Nikolaus count", lambda: count_claim(nikolaus, by_refutation=True)),
                       ("Nikolaus count by formula", lambda: count_claim(nikolaus)),
                       ("longest train", lambda: longest_claim(train, walk))):
        puzzle = nikolaus if name.startswith("Nikolaus") else train
        certificate = make().certificate
        made = [timed(make)[0] for _ in range(5)]
        checks = [timed(verdict, puzzle, certificate)[0] for _ in range(5)]
        print(f"{name} certificate: made and checked in {statistics.median(made):.3f} s "
              f"(median of 5), of which the check {statistics.median(checks):.3f} s")


if __name__ == "__main__":
    main()
