"""How many "unsolvable" answers carry a checked certificate, per backend.

Run: ``python tests/bench/bench_certified.py [COUNT] [SEED]`` (default 1000 puzzles of
the test suite's corpus, ``tests/corpus.py``). For each backend it counts the
unsolvable answers and how many carry a certificate the checker accepts: as the
backend itself returns them (``own``: what it certifies alone), and after the
checking pipeline (``pipeline``: with the certify step, no cross-check, pre-check on
and off), with the certificate kinds the pipeline ended with.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import random_corpus

from trailkit.models.answer import Status
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.pipeline import check_answer, solve

LIMITS = Limits(time_limit=20)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    corpus = random_corpus(count, seed)
    print(f"{count} puzzles (tests/corpus.py, seed {seed})\n")
    print("| backend | pre-check | unsolvable | certified (own) | certified (pipeline) | "
          "certificate kinds |")
    print("|---|---|---|---|---|---|")
    for name in ("direct", "cpsat", "sat"):
        for precheck in (True, False):
            unsolvable = own = piped = 0
            kinds: Counter[str] = Counter()
            for puzzle in corpus:
                answer = solve(puzzle, name, LIMITS, crosscheck=None, precheck=precheck)
                if answer.status is not Status.UNSOLVABLE:
                    continue
                unsolvable += 1
                alone = check_answer(puzzle, get_backend(name).solve(puzzle, LIMITS))
                own += bool(alone.certificate_checked)
                if answer.certificate_checked and answer.certificate is not None:
                    piped += 1
                    cert = answer.certificate
                    kinds[str(cert.data.get("encoding", cert.kind))] += 1
            kind_text = ", ".join(f"{k} {v}" for k, v in kinds.most_common())
            print(f"| {name} | {'on' if precheck else 'off'} | {unsolvable} | "
                  f"{own} ({100 * own / max(1, unsolvable):.1f}%) | "
                  f"{piped} ({100 * piped / max(1, unsolvable):.1f}%) | {kind_text} |")


if __name__ == "__main__":
    main()
