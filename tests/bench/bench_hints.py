"""What "did you mean" costs when a big spec misspells many names.

Run: ``python tests/bench/bench_hints.py [NODES]`` (default 40,000). Two specs of the
same size declare NODES nodes in ``nodes:``; the first's edges name 100 of them rightly
and then one that is not declared (one problem, one hint), the second's edges misspell
100 of them (100 problems, each with a hint; reading stops there). Both are checked in
this process, three times each; the medians and their ratio are printed. The hints
once handed difflib every declared name for each problem (a ratio of hundreds: 159 s
of processor time for 40,000 names); now each hint looks at a bounded number of them
(:mod:`trailkit.models.support.hints`), so the ratio stays small.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from trailkit.models.spec import check_spec


def _spec(folder: Path, name: str, nodes: int, misspelled: bool) -> Path:
    declared = ", ".join(f"node{i:06d}" for i in range(nodes))
    prefix = "nodx" if misspelled else "node"
    edges = "".join(f"- {prefix}{i:06d} {prefix}{i + 1:06d}\n" for i in range(100))
    if not misspelled:
        edges += "- node000000 elsewhere\n"
    path = folder / name
    path.write_text(f"trailkit: 1\nkind: trail\nnodes: [{declared}]\nedges:\n{edges}")
    return path


def _median_s(path: Path, repeat: int = 3) -> tuple[float, int]:
    times, found = [], 0
    for _ in range(repeat):
        began = time.perf_counter()
        found = len(check_spec(path))
        times.append(time.perf_counter() - began)
    return statistics.median(times), found


def main() -> None:
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    with tempfile.TemporaryDirectory() as folder:
        peer = _spec(Path(folder), "right.yaml", nodes, misspelled=False)
        typos = _spec(Path(folder), "typos.yaml", nodes, misspelled=True)
        peer_s, peer_found = _median_s(peer)
        typos_s, typos_found = _median_s(typos)
    print(f"{nodes:,} declared nodes")
    print(f"one unknown name   ({peer_found:3d} problems): {peer_s:8.3f} s")
    print(f"100 misspelled     ({typos_found:3d} problems): {typos_s:8.3f} s")
    print(f"ratio: {typos_s / peer_s:.1f}x")


if __name__ == "__main__":
    main()
