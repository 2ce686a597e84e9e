"""Benchmark: Graphviz's layouts against trailkit's own, on issue 33's picture corpus.

Run on demand: ``python tests/bench/bench_graphviz.py [--seeds 30]`` (needs Graphviz's
``neato`` and ``fdp`` on PATH; Debian's ``graphviz`` 2.42 was measured). For every
corpus picture whose spec has no ``layout:`` (complete graphs, generated trails and
domino graphs, multigraphs; the colour walks and bundled specs are laid out by their
authors), three layouts: trailkit's stress majorization, ``neato`` and ``fdp`` (both
with ``splines=true``, ``overlap=false``), each then drawn by trailkit (its own bundle
spreading, routing around nodes, badge placement). Reported per layout: the picture
checker's violations, straight-edge crossings and nodes on straight edges (before
routing), the layout's time, and how many pictures had to grow.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for picture_check

from picture_check import check_svg, corpus, draw_item

from trailkit.models.spec import load_spec_text
from trailkit.solvers.tools.drawing.layout import (
    count_crossings,
    count_nodes_on_edges,
    node_positions,
)


def graphviz_positions(puzzle: object, program: str, splines: bool = True) -> np.ndarray:
    """Node positions from ``program`` (neato or fdp) reading the puzzle as DOT."""
    p = puzzle
    lines = ["graph g {", f"splines={str(splines).lower()}; overlap=false; "
                          "node [shape=circle, width=0.6];"]
    lines += [f'n{v} [label="{v}"];' for v in range(p.num_nodes)]  # type: ignore[attr-defined]
    lines += [f"n{u} -- n{v};" for u, v in zip(p.tail, p.head, strict=True)]  # type: ignore[attr-defined]
    lines.append("}")
    out = subprocess.run([program, "-Tplain"], input="\n".join(lines), text=True,
                         capture_output=True, check=True).stdout
    xy = np.zeros((p.num_nodes, 2))  # type: ignore[attr-defined]
    for m in re.finditer(r"^node n(\d+) ([-\d.e]+) ([-\d.e]+)", out, re.M):
        xy[int(m.group(1))] = float(m.group(2)), float(m.group(3))
    return xy


def with_layout(text: str, puzzle: object, xy: np.ndarray) -> str:
    """The spec text with ``layout:`` giving ``xy``."""
    names = puzzle.nodes  # type: ignore[attr-defined]
    layout = ", ".join(f'"{n}": [{x:.4f}, {y:.4f}]' for n, (x, y) in zip(names, xy, strict=True))
    return re.sub(r"^layout:.*$", "", text, flags=re.M) + f"layout: {{{layout}}}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=30)
    args = ap.parse_args()
    rows: dict[str, Counter[str]] = {m: Counter() for m in ("stress", "neato", "fdp")}
    for item in corpus(args.seeds):
        if item.part in ("bundled specs", "colour walks"):
            continue
        puzzle = load_spec_text(item.spec_text)
        edges = np.array([(u, v) for u, v in zip(puzzle.tail, puzzle.head, strict=True)
                          if u != v], dtype=int).reshape(-1, 2)
        for method, row in rows.items():
            t = time.perf_counter()
            if method == "stress":
                xy = node_positions(puzzle)[0]
            else:
                try:
                    xy = graphviz_positions(puzzle, method)
                except subprocess.CalledProcessError:  # fdp 2.42 crashes on some
                    row["crashed (retried without splines)"] += 1
                    xy = graphviz_positions(puzzle, method, splines=False)
            row["layout ms"] += round(1000 * (time.perf_counter() - t))
            row["pictures"] += 1
            row["crossings"] += count_crossings(xy, edges)
            row["nodes on edges"] += count_nodes_on_edges(xy, edges)
            drawn = item.__class__(item.part, item.name, with_layout(item.spec_text, puzzle, xy),
                                   item.mode)
            t = time.perf_counter()
            svg, expect = draw_item(drawn)
            row["draw ms"] += round(1000 * (time.perf_counter() - t))
            row["violations"] += len(check_svg(svg, expect))
            width = float(re.search(r'width="([\d.]+)"', svg).group(1))
            row["width px"] += round(width)
    keys = ["pictures", "violations", "crossings", "nodes on edges", "layout ms", "draw ms",
            "width px"]
    for method, row in rows.items():
        if row["crashed (retried without splines)"]:
            print(f"{method} crashed on {row['crashed (retried without splines)']} graphs "
                  "with splines=true (run again without)")
    print(f"{'layout':<8}" + "".join(f"{k:>16}" for k in keys))
    for method, row in rows.items():
        print(f"{method:<8}" + "".join(f"{row[k]:>16}" for k in keys))


if __name__ == "__main__":
    main()
