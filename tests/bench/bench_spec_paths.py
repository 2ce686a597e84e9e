"""Benchmark: where the fast reader of inline edge lists starts to pay.

Run on demand: ``python tests/bench/bench_spec_paths.py [--repeat 7]``.

For inline specs of growing size, as ``trailkit generate`` writes them (``- u v`` one a
line, and a colour walk's ``- u v colour``), times the full reader (all of the text
composed as YAML) against the fast reader (:mod:`trailkit.models.spec.fast`: the list
cut out and read as an edge list), in this process, best of ``--repeat``, and the
fast reader's cost on a spec it must decline (one quoted name at the end: it scans,
then the full reader reads it all). The ratio ``full / fast`` says from which size the
fast path pays; :data:`trailkit.models.spec.fast.FAST_FROM` is chosen from it.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from trailkit.models.spec import fast
from trailkit.models.spec.reading import read_full

COLOURS = ("red", "blue", "green")


def trail(m: int, rng: random.Random) -> str:
    n = max(3, m // 10)
    walk = [rng.randrange(n) for _ in range(m)]
    return "trailkit: 1\nkind: trail\nclosed: true\nedges:\n" + "".join(
        f"  - v{walk[i]} v{walk[(i + 1) % m]}\n" for i in range(m))


def colour_walk(m: int, rng: random.Random) -> str:
    n = max(3, m // 3)
    return ("trailkit: 1\nkind: colour-walk\nstart: t0\ngoal: t1\nedges:\n" + "".join(
        f"  - t{rng.randrange(n)} t{rng.randrange(n)} {rng.choice(COLOURS)}\n"
        for _ in range(m)) + "  - t0 t1 red\n")


def best(read: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        read()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,30,100,300,1000,3000,10000,30000")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'spec':<12} {'edges':>6} {'KiB':>7} {'full ms':>9} {'fast ms':>9} "
          f"{'full/fast':>9} {'declined ms':>11}")
    for name, make in (("trail", trail), ("colour-walk", colour_walk)):
        for m in (int(s) for s in args.sizes.split(",")):
            text = make(m, random.Random(m))
            declined = text[:-1] + " 'q'\n"  # a quoted word: the fast reader declines
            assert fast.read_fast(text, "s.yaml", None) is not None
            assert fast.read_fast(declined, "s.yaml", None) is None
            full = best(lambda t=text: read_full(t, "s.yaml", None), args.repeat)
            quick = best(lambda t=text: fast.read_fast(t, "s.yaml", None), args.repeat)
            wasted = best(lambda t=declined: fast.read_fast(t, "s.yaml", None), args.repeat)
            print(f"{name:<12} {m:>6} {len(text) / 1024:>7.1f} {full * 1e3:>9.2f} "
                  f"{quick * 1e3:>9.2f} {full / quick:>9.1f} {wasted * 1e3:>11.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
