"""What deciding a certificate's claim costs ``check-certificate``: every bundled certificate
checked, the claim table and all (issue 40's target: within 1.2x of the check without it).

Run: ``python tests/bench/bench_check_claims.py make DIR`` writes into ``DIR`` the
certificate of every claim ``prove`` makes for the bundled specs (``specs/``,
``specs/dominoes/``, ``specs/tyre-puzzle/``: ``unsolvable``, with ``--drup`` too,
``count``, ``unique``, ``shortest``, ``longest``, ``fewest-changes``, ``minimal-core``;
each within 60 s, those that do not apply left out), once. ``python
tests/bench/bench_check_claims.py time DIR [ROUNDS]`` then checks every file in ``DIR``
with the pipeline's ``check_certificate_file`` (what ``check-certificate`` runs after reading
the spec), ``ROUNDS`` times (default 7) in turns, and prints each file's median seconds and
the sum of the medians, as JSON. Run ``time`` with the code before and after a change and
compare the two (the checker's compiled kernels warmed up first, so both see them cached).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = (("unsolvable", []), ("unsolvable-drup", ["--drup"]), ("count", ["--claim", "count"]),
          ("unique", ["--claim", "unique"]), ("shortest", ["--claim", "shortest"]),
          ("longest", ["--claim", "longest"]),
          ("fewest", ["--claim", "fewest-changes"]), ("core", ["--claim", "minimal-core"]))


def specs() -> list[Path]:
    return sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("specs/dominoes/*.yaml"),
                   *ROOT.glob("specs/tyre-puzzle/*.yaml")])


def make(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    trailkit = Path(sys.executable).with_name("trailkit")
    index = {}
    for spec in specs():
        for name, args in CLAIMS:
            out = folder / f"{spec.stem}-{name}.json"
            try:
                subprocess.run([str(trailkit), "prove", str(spec), *args, "--out", str(out),
                                "--time-limit", "60"], capture_output=True, timeout=120,
                               check=False)
            except subprocess.TimeoutExpired:
                continue
            if out.exists():
                index[out.name] = str(spec.relative_to(ROOT))
    (folder / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} certificates written to {folder}")


def timing(folder: Path, rounds: int) -> None:
    from trailkit.models.spec import load_spec
    from trailkit.solvers.pipeline.proving import check_certificate_file

    index = json.loads((folder / "index.json").read_text())
    puzzles = {name: load_spec(str(ROOT / spec)) for name, spec in index.items()}
    times: dict[str, list[float]] = {name: [] for name in index}
    verdicts = {}
    for name in index:  # warm up: compiled kernels loaded, caches filled
        verdicts[name] = check_certificate_file(puzzles[name], str(folder / name)).accepted
    for _ in range(rounds):
        for name in index:
            began = time.perf_counter()
            check_certificate_file(puzzles[name], str(folder / name))
            times[name].append(time.perf_counter() - began)
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(json.dumps({"files": len(medians), "accepted": sum(verdicts.values()),
                      "sum_of_medians_s": round(sum(medians.values()), 6),
                      "medians_s": {k: round(v, 6) for k, v in sorted(medians.items())}},
                     indent=1))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("make", "time"):
        sys.exit(__doc__)
    if sys.argv[1] == "make":
        make(Path(sys.argv[2]))
    else:
        timing(Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 7)
