"""Benchmark: the picture checker (``tests/picture_check.py``) over issue 33's corpus.

Run on demand: ``python tests/bench/bench_pictures.py [--seeds 30] [--show N]
[--save DIR]``. Prints the violations per rule and per part of the corpus (every
bundled spec in every drawing mode, K3-K9, generated trails, colour walks and domino
sets, multigraphs with up to 4 parallel edges), the pictures with violations, and the
time the drawing took.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for picture_check

from picture_check import RULES, check_svg, corpus, draw_item


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--show", type=int, default=20, help="pictures with violations to list")
    ap.add_argument("--save", type=Path, help="write the SVGs with violations here")
    ap.add_argument("--part", help="only this part of the corpus")
    args = ap.parse_args()
    counts: Counter[tuple[str, str]] = Counter()
    pictures: Counter[str] = Counter()
    bad: list[tuple[str, list[tuple[str, str]]]] = []
    drawing = 0.0
    for item in corpus(args.seeds):
        if args.part and item.part != args.part:
            continue
        t = time.perf_counter()
        svg, expect = draw_item(item)
        drawing += time.perf_counter() - t
        pictures[item.part] += 1
        found = check_svg(svg, expect)
        for rule, _ in found:
            counts[(item.part, rule)] += 1
        if found:
            bad.append((item.name, found))
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / (item.name.replace("/", "_").replace(" ", "_") + ".svg")
                 ).write_text(svg, encoding="utf-8")
    parts = list(pictures)
    print(f"{'part':<18}{'pictures':>9}" + "".join(f"{r:>19}" for r in RULES))
    for part in [*parts, "total"]:
        row = [sum(counts[(q, r)] for q in parts) if part == "total" else counts[(part, r)]
               for r in RULES]
        n = sum(pictures.values()) if part == "total" else pictures[part]
        print(f"{part:<18}{n:>9}" + "".join(f"{c:>19}" for c in row))
    print(f"pictures with a violation: {len(bad)} of {sum(pictures.values())}; "
          f"drawing (solve included) {drawing:.1f} s")
    for name, found in bad[:args.show]:
        print(f"  {name}: {len(found)}: " + "; ".join(w for _, w in found[:3]))


if __name__ == "__main__":
    main()
